"""Rolling a request on scripted faces, shared by the engine's branch tests."""

from __future__ import annotations

from typing import Any

from engine.faces import ScriptedFaces
from engine.models import RollRequest, RollResult, Ruleset, Term
from engine.roll import roll


def request(ruleset: str, pool: int, **options: Any) -> RollRequest:
    """A request of one unnamed term of ``pool`` dice."""
    return RollRequest(ruleset=Ruleset(ruleset), terms=(Term(value=pool),), **options)


def rolled(
    ruleset: str, pool: int, faces: list[int], *, left: int = 0, **options: Any
) -> RollResult:
    """Roll on ``faces``; exactly ``left`` of them must stay undrawn."""
    source = ScriptedFaces(faces)
    result = roll(request(ruleset, pool, **options), source)
    assert source.remaining == left, "the roll drew faces in the order RULES.md §0 fixes"
    return result
