"""The typeface the chart images (/odds, /stats) are drawn in.

The bot ships its own, so a chart reads the same on any machine (a container has no
system fonts) and in every language: Pillow's bundled default lacks accented letters
and the no-break spaces of Spanish and Portuguese numbers, which it draws as boxes.
``fonts/DejaVuSansCondensed.ttf`` is DejaVu Sans Condensed (its licence beside it),
whose widths are close to the default's the charts were laid out with, cut down with
fontTools to Latin, Greek, Cyrillic, punctuation and the common symbols (a character
it lacks is drawn as a box, as the whole font draws one)::

    pyftsubset DejaVuSansCondensed.ttf --layout-features='*' --name-IDs='*' \\
        --name-legacy --name-languages='*' --notdef-outline --unicodes="U+0020-007E,\\
        U+00A0-024F,U+0370-03FF,U+0400-04FF,U+2000-206F,U+20A0-20CF,U+2190-21FF,U+2200-22FF"
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Final

from PIL import ImageFont

__all__ = ["FONT_FILE", "chart_font"]

FONT_FILE: Final = Path(__file__).with_name("fonts") / "DejaVuSansCondensed.ttf"


@lru_cache(maxsize=16)
def chart_font(size: int) -> ImageFont.FreeTypeFont:
    """The charts' typeface at ``size`` pixels, read from its file once per size."""
    return ImageFont.truetype(FONT_FILE, size)
