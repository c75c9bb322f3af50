"""The roll engine against its reference (``tests/engine/reference_roll.py``), request by request.

engine/roll.py reads faces through fast paths (plans held per request, a result built
field by field, `v20` cancellations walked over the sorted faces); the reference is the
engine as it was before those were restated. Random requests (every option of every
ruleset, foreign options and refusals among them, Will declared and spent after the
roll, Take a Beat) are rolled by both on the same scripted faces, rich in 1s and 10s,
and must give the same result: the same JSON, the same fields set in the same order
and the same faces left undrawn.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engine.constants import MAX_EXTRA
from engine.faces import FacesExhaustedError, ScriptedFaces
from engine.models import (
    Adjustment,
    AdjustmentKind,
    Again,
    Outcome,
    RollRequest,
    RollResult,
    Ruleset,
    SkillCategory,
    Term,
)
from engine.roll import RuleError, roll, spend_will, take_beat, will_refusal
from tests.engine import reference_roll as reference

#: Faces 1 to 10, 1s and 10s (and the 8s and 9s that explode in `cofd` 8- and 9-again)
#: drawn more often than the rest, so cancellations, botches and extra rounds are common.
FACES = range(1, 11)
WEIGHTS = (4, 1, 1, 1, 1, 1, 1, 2, 2, 4)
CASES = 400


def _maybe(rng: random.Random, value: Any, chance: float = 0.3) -> Any:
    return value if rng.random() < chance else None


def _options(rng: random.Random, ruleset: Ruleset) -> dict[str, Any]:
    """Options of the ruleset, now and then one that belongs to another (a refusal)."""
    options: dict[str, Any] = {
        Ruleset.COFD: lambda: {
            "again": _maybe(rng, rng.choice(list(Again))),
            "rote": rng.random() < 0.3,
            "resist": rng.choice((0, 0, 0, 1, 3)),
            "extra": rng.choice((0, 0, 0, 2)),
            "exceptional_at": _maybe(rng, rng.randint(0, 11), 0.1),
            "specialty": rng.random() < 0.2,
            "untrained": _maybe(rng, rng.choice(list(SkillCategory)), 0.15),
        },
        Ruleset.V20: lambda: {
            "difficulty": _maybe(rng, rng.randint(1, 11), 0.7),
            "specialty": rng.random() < 0.3,
            "auto": rng.random() < 0.05,
        },
        Ruleset.FISTFUL: lambda: {
            "untrained": _maybe(rng, rng.choice(list(SkillCategory)), 0.3),
            "risky": rng.random() < 0.3,
            "initiative": rng.random() < 0.15,
            "no_botch": rng.random() < 0.15,
            "need": _maybe(rng, rng.randint(0, 12), 0.3),
        },
    }[ruleset]()
    if rng.random() < 0.03:
        options[rng.choice(("rote", "auto", "risky"))] = True
    return {name: value for name, value in options.items() if value not in (None, False, 0)}


def _request(rng: random.Random) -> RollRequest:
    ruleset = rng.choice(list(Ruleset))
    terms = tuple(
        Term(label=rng.choice((None, "Wits", "Stealth")), value=rng.randint(-3, 9))
        for _ in range(rng.randint(1, 3))
    )
    adjustments: tuple[Adjustment, ...] = ()
    if rng.random() < 0.2:
        adjustments = (
            Adjustment(
                kind=rng.choice(list(AdjustmentKind)),
                dice=rng.randint(-3, 3),
                difficulty=rng.randint(-1, 2) if ruleset is Ruleset.V20 else 0,
            ),
        )
    return RollRequest(
        ruleset=ruleset, terms=terms, adjustments=adjustments, will=rng.random() < 0.3,
        **_options(rng, ruleset),
    )


def _faces(rng: random.Random) -> list[int]:
    if rng.random() < 0.01:  # enough 10s to reach the cap on extra dice
        return [10] * (MAX_EXTRA + 150) + rng.choices(FACES, WEIGHTS, k=150)
    return rng.choices(FACES, WEIGHTS, k=150)


#: A result, or the error a way raised: its class name and its refusal code.
Answer = RollResult | tuple[str, str]


def _both(
    new: Callable[[ScriptedFaces], RollResult],
    old: Callable[[ScriptedFaces], RollResult],
    faces: list[int],
) -> tuple[Answer, Answer]:
    """Each way's answer on the same faces; both drew as many of them."""
    results: list[Answer] = []
    remaining: list[int] = []
    for way in (new, old):
        source = ScriptedFaces(faces)
        try:
            results.append(way(source))
        except (RuleError, reference.RuleError, FacesExhaustedError) as error:
            results.append((type(error).__name__, str(error)))
        remaining.append(source.remaining)
    assert remaining[0] == remaining[1]
    return results[0], results[1]


def _assert_same(new: Answer, old: Answer) -> None:
    if not isinstance(new, RollResult) or not isinstance(old, RollResult):
        assert new == old
        return
    assert new.model_dump_json() == old.model_dump_json()
    assert new.model_fields_set == old.model_fields_set
    assert list(new.__dict__) == list(old.__dict__)  # so ``repr`` lists them alike
    assert new == old


@pytest.mark.parametrize("seed", range(4))
def test_the_engine_reads_every_request_as_the_reference_does(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(CASES):
        request = _request(rng)
        # an equal request, not the same object: the second roll reads a held plan
        twin = request.model_copy(deep=True)
        faces = _faces(rng)
        for ask in (request, twin):
            new, old = _both(
                lambda source, ask=ask: roll(ask, source),  # type: ignore[misc]
                lambda source, ask=ask: reference.roll(ask, source),  # type: ignore[misc]
                faces,
            )
            _assert_same(new, old)
        if not isinstance(new, RollResult) or not isinstance(old, RollResult):
            continue
        assert will_refusal(new) == reference.will_refusal(old)
        later = _faces(rng)
        after, after_old = _both(
            lambda source: spend_will(new, source),  # noqa: B023
            lambda source: reference.spend_will(old, source),  # noqa: B023
            later,
        )
        _assert_same(after, after_old)
        for result, reference_result in ((new, old), (after, after_old)):
            if (
                isinstance(result, RollResult)
                and isinstance(reference_result, RollResult)
                and result.request.ruleset is Ruleset.COFD
                and result.outcome is Outcome.FAILURE
            ):
                _assert_same(take_beat(result), reference.take_beat(reference_result))


def test_the_reference_is_not_the_engine() -> None:
    """The comparison above would prove nothing if both names led to one module."""
    assert reference.roll is not roll
    assert reference.__name__ == "tests.engine.reference_roll"
