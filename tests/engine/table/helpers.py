"""Small builders for the table-state tests: requests from pools, rolls on scripted faces."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from engine.faces import ScriptedFaces
from engine.models import RollRequest, RollResult, Ruleset, Term
from engine.refusals import RefusalCode
from engine.roll import RuleError, roll


def request(ruleset: str, *terms: int | tuple[str, int], **options: Any) -> RollRequest:
    """A request from terms: ``3`` is a bare number, ``("Wits", 3)`` a labelled one."""
    built = tuple(
        Term(label=term[0], value=term[1]) if isinstance(term, tuple) else Term(value=term)
        for term in terms
    )
    return RollRequest(ruleset=Ruleset(ruleset), terms=built, **options)


def rolled(req: RollRequest, faces: list[int]) -> RollResult:
    """Roll ``req`` on exactly ``faces`` (the script must be used up)."""
    source = ScriptedFaces(faces)
    result = roll(req, source)
    assert source.remaining == 0, "the test scripted more faces than the roll drew"
    return result


def scripted(ruleset: str, pool: int, faces: list[int], **options: Any) -> RollResult:
    """A plain roll of ``pool`` dice on scripted faces."""
    return rolled(request(ruleset, pool, **options), faces)


@contextmanager
def refused(code: RefusalCode, **params: int | str) -> Iterator[None]:
    """Expect a :class:`RuleError` with ``code`` (and exactly ``params``, when any are given)."""
    with pytest.raises(RuleError) as error:
        yield
    assert error.value.refusal.code is code
    if params:
        assert error.value.refusal.params == params
