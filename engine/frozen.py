"""The base of every engine model: frozen, strict, and cheap to build from trusted values.

Its own module so that :mod:`engine.refusals` and :mod:`engine.models` can both
build on it without importing each other in a circle.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial
from typing import Any, Self, TypeVar

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
        return cls.trusted_from(values)

    @classmethod
    def trusted_from(cls, values: dict[str, Any]) -> Self:
        """:meth:`trusted` with the values in a dict (read, not kept), for callers that
        gather them in one: a keyword call would copy them once more."""
        obj = cls.__new__(cls)
        _set(obj, "__dict__", {**_field_defaults(cls), **values})
        _set_fields_set(obj, set(values))
        _set_extra(obj, None)
        _set_private(obj, None)
        return obj


_set = object.__setattr__
#: BaseModel's own slots, set straight through their descriptors (what ``_set`` finds).
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


@cache
def _field_defaults(cls: type[BaseModel]) -> dict[str, Any]:
    """Every field in declaration order, with its default (None for required ones)."""
    return {
        name: None if field.is_required() else field.get_default(call_default_factory=True)
        for name, field in cls.model_fields.items()
    }


_Model = TypeVar("_Model", bound=BaseModel)


def trusted_builder(cls: type[_Model]) -> Callable[[dict[str, Any], set[str]], _Model]:
    """A function building ``cls`` from trusted values, for the hottest path (a roll's result).

    It takes every field, in declaration order (``repr`` lists them so), and the names
    of those the caller set itself (what ``model_fields_set`` answers); both are kept,
    not copied. Unlike :meth:`Frozen.trusted_from` it merges no defaults, works out no
    set and looks nothing up on ``cls`` per call: a pydantic model class answers every
    attribute through its metaclass's ``__getattr__`` hook, about 0.1 µs a look-up.
    """
    new = partial(object.__new__, cls)

    def build(values: dict[str, Any], fields_set: set[str]) -> _Model:
        obj = new()
        _set(obj, "__dict__", values)
        _set_fields_set(obj, fields_set)
        _set_extra(obj, None)
        _set_private(obj, None)
        return obj

    return build
