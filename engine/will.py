"""Will pools (RULES.md §3 "Will pool", §4): spending, regaining, setting, all capped here.

The store keeps pools and makes each change conditional on the pool it read;
the rules of what a change does live only here.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.records import Change, WillPool

MAX_WILL = 30
"""The largest Will maximum a pool may have (RULES.md §6: Will maximum up to 30)."""


def can_spend(pool: WillPool | None) -> bool:
    """Whether Will may be spent from this pool: an untracked pool always may (the table
    keeps it on paper), a tracked one while it has Will left."""
    return pool is None or pool.current > 0


def spent(pool: WillPool) -> WillPool:
    """The pool after one Will is spent (:func:`can_spend` said it may be)."""
    if pool.current < 1:
        msg = "no Will left to spend"
        raise ValueError(msg)
    return pool.model_copy(update={"current": pool.current - 1})


def regained(pool: WillPool, amount: int) -> WillPool:
    """The pool after regaining ``amount`` (a rest or a night is 1): never above its maximum."""
    if amount < 1:
        msg = f"a Will gain is at least 1, not {amount}"
        raise ValueError(msg)
    return pool.model_copy(update={"current": min(pool.maximum, pool.current + amount)})


def set_pool(
    old: WillPool | None, guild_id: int, user_id: int, maximum: int, current: int | None = None
) -> WillPool:
    """The pool a member tracks, or changes ``old`` to. Without ``current``, a new pool starts
    full and an existing one keeps its current Will, lowered to the new maximum if it is above
    it. Raises
    ValueError for a value out of range (the pool's own checks, and at most MAX_WILL)."""
    if maximum > MAX_WILL:
        msg = f"a Will maximum is at most {MAX_WILL}, not {maximum}"
        raise ValueError(msg)
    if current is None:
        current = maximum if old is None else min(old.current, maximum)
    return WillPool(guild_id=guild_id, user_id=user_id, current=current, maximum=maximum)


def night(pools: Iterable[WillPool]) -> tuple[Change[WillPool], ...]:
    """A night passes: every pool below its maximum regains 1 (full pools do not change)."""
    return tuple(
        Change[WillPool](old=pool, new=regained(pool, 1))
        for pool in pools
        if pool.current < pool.maximum
    )
