"""Limits named once: bad input must never hang the bot or eat its memory."""

from typing import Final

#: Largest final pool (Will dice included) the engine will roll.
MAX_POOL: Final = 100
#: Extra dice (explosions) stop at exactly this many in one roll; rote replacements do not count.
MAX_EXTRA: Final = 1000
#: Largest successes requirement an extended action, `need` or target may ask for.
MAX_TARGET: Final = 1000
#: Longest label of a roll or an action (Discord offers autocomplete values, the labels
#: of open actions among them, of at most 100 characters).
MAX_LABEL: Final = 100
#: Dice faces.
SIDES: Final = 10
#: Willpower adds this many dice in `cofd` and `fistful`.
WILL_DICE: Final = 3
#: Default `cofd` exceptional-success threshold and its allowed range.
EXCEPTIONAL_AT: Final = 5
EXCEPTIONAL_RANGE: Final = (1, 10)
#: `v20` difficulty: default and allowed range.
DIFFICULTY: Final = 6
DIFFICULTY_RANGE: Final = (2, 10)
#: `v20` resisted rolls: each side's difficulty, set from the other's traits, is at most 9.
RESISTED_DIFFICULTY_RANGE: Final = (DIFFICULTY_RANGE[0], DIFFICULTY_RANGE[1] - 1)
