"""The engine's model base: frozen, strict, and built from trusted values without
validation exactly as validation would build them (engine/frozen.py)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from engine.frozen import trusted_builder
from engine.models import Outcome, RollRequest, RollResult, Ruleset, Term


def _validated() -> RollResult:
    request = RollRequest(ruleset=Ruleset.COFD, terms=(Term(label="Wits", value=2),))
    return RollResult(request=request, outcome=Outcome.SUCCESS, successes=2)


def test_a_built_model_equals_the_validated_one_field_for_field_and_in_json() -> None:
    validated = _validated()
    values: dict[str, Any] = dict(validated.__dict__)
    build = trusted_builder(RollResult)

    built = build(values, set(validated.model_fields_set))

    assert type(built) is RollResult
    assert built == validated
    assert built.model_dump_json() == validated.model_dump_json()
    assert built.model_fields_set == validated.model_fields_set
    assert repr(built) == repr(validated)
    assert built.model_copy(update={"successes": 3}) == validated.model_copy(
        update={"successes": 3})


def test_a_built_model_is_frozen_like_any_other() -> None:
    validated = _validated()
    built = trusted_builder(RollResult)(dict(validated.__dict__), set())

    with pytest.raises(ValidationError, match="frozen"):
        built.successes = 3  # type: ignore[misc]
    assert built.model_fields_set == set()
