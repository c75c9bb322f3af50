"""The base of every engine model: frozen, strict, and cheap to build from trusted values.

Its own module so that :mod:`engine.refusals` and :mod:`engine.models` can both
build on it without importing each other in a circle.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Self

from pydantic import BaseModel, ConfigDict


class Frozen(BaseModel):
    """Base of every engine model: immutable, strict about unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    @classmethod
    def trusted(cls, **values: Any) -> Self:
        """Build from values the engine computed itself, skipping validation.

        The same object as ``model_construct`` (a test proves it equal, field
        for field and in JSON) at a sixth of its cost: a roll builds its result
        on the hot path, and ``model_construct`` walks every field in Python.
        Only for data the engine made; anything from outside is validated.
        """
        data = _field_defaults(cls).copy()
        data.update(values)
        obj = cls.__new__(cls)
        _set(obj, "__dict__", data)
        _set(obj, "__pydantic_fields_set__", set(values))
        _set(obj, "__pydantic_extra__", None)
        _set(obj, "__pydantic_private__", None)
        return obj


_set = object.__setattr__


@cache
def _field_defaults(cls: type[BaseModel]) -> dict[str, Any]:
    """Every field in declaration order, with its default (None for required ones)."""
    return {
        name: None if field.is_required() else field.get_default(call_default_factory=True)
        for name, field in cls.model_fields.items()
    }
