"""Exhaustive enumeration of every face sequence a roll can draw.

A roll is run on a path of faces; when it asks for more faces than the path
has, the path is extended by every face of a weighted alphabet and run again.
Paths longer than ``max_faces`` are cut off and their probability reported as
``truncated``, so a comparison can allow exactly that much.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

#: Every face with its probability.
D10: tuple[tuple[int, float], ...] = tuple((face, 0.1) for face in range(1, 11))


class _NeedMore(Exception):  # noqa: N818 - a signal, not an error
    """The path has run out of faces."""


class PathFaces:
    """A face source that serves a fixed path and signals when it runs out."""

    def __init__(self, path: Sequence[int]) -> None:
        self._path = path
        self._used = 0

    def draw(self, count: int) -> list[int]:
        end = self._used + count
        if end > len(self._path):
            raise _NeedMore
        faces = list(self._path[self._used : end])
        self._used = end
        return faces


def enumerate_rolls(
    run: Callable[[PathFaces], K],
    alphabet: Sequence[tuple[int, float]] = D10,
    max_faces: int = 8,
) -> tuple[dict[K, float], float]:
    """Distribution of ``run``'s answer over every face path, and the mass cut off."""
    distribution: dict[K, float] = defaultdict(float)
    truncated = 0.0
    stack: list[tuple[tuple[int, ...], float]] = [((), 1.0)]
    while stack:
        path, probability = stack.pop()
        try:
            key = run(PathFaces(path))
        except _NeedMore:
            if len(path) >= max_faces:
                truncated += probability
                continue
            stack.extend(((*path, face), probability * weight) for face, weight in alphabet)
            continue
        distribution[key] += probability
    return dict(distribution), truncated
