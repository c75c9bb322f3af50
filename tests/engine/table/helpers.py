"""Small builders for the table-state tests: requests from pools, rolls on scripted faces."""

from __future__ import annotations

from typing import Any

from engine.faces import ScriptedFaces
from engine.models import RollRequest, RollResult, Ruleset, Term
from engine.roll import roll


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
