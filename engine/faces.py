"""Face sources: where dice come from.

Every roll draws its faces from an injected source, never the module-level
``random``: tests script the faces, reproducible runs use a seeded
``random.Random``, production uses ``random.SystemRandom``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol

from engine.constants import SIDES


class FaceSource(Protocol):
    """Anything that yields d10 faces (1–10) in order."""

    def draw(self, count: int) -> list[int]:
        """Return the next ``count`` faces."""
        ...


class FacesExhaustedError(LookupError):
    """A scripted source ran out of faces: the test scripted too few."""


class ScriptedFaces:
    """Faces given in advance, drawn in order (tests, ``--faces``)."""

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        for face in self._faces:
            if not 1 <= face <= SIDES:
                msg = f"a d10 face is 1 to {SIDES}, not {face}"
                raise ValueError(msg)
        self._next = 0

    def draw(self, count: int) -> list[int]:
        end = self._next + count
        if end > len(self._faces):
            msg = f"the script has only {len(self._faces)} faces and the roll needs more"
            raise FacesExhaustedError(msg)
        faces = self._faces[self._next : end]
        self._next = end
        return faces

    @property
    def remaining(self) -> int:
        """Faces not drawn yet."""
        return len(self._faces) - self._next


class RandomFaces:
    """Faces from a ``random.Random`` (seeded) or ``random.SystemRandom``.

    ``int(random() * 10)`` is used instead of ``randrange(10)``, which is
    several times slower: ``random()`` is a multiple of 2**-53, so no face is
    more or less likely than another by more than about 1e-15, far below
    anything the exact odds (accurate to 1e-9) or a statistical test can see.
    """

    def __init__(self, rng: random.Random) -> None:
        self._random = rng.random

    def draw(self, count: int) -> list[int]:
        random_ = self._random
        return [int(random_() * SIDES) + 1 for _ in range(count)]


def system_faces() -> RandomFaces:
    """The production source: the operating system's randomness."""
    return RandomFaces(random.SystemRandom())


def seeded_faces(seed: int) -> RandomFaces:
    """A reproducible source for demos, benchmarks and statistical tests."""
    return RandomFaces(random.Random(seed))
