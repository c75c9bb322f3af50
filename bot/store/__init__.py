"""The store: the bot's only SQL, behind typed repositories (STYLE.md points 10–11).

It takes and returns engine models and the records of :mod:`bot.store.records`,
never discord objects; ids are Discord snowflakes as ints.
"""

from bot.store.migrations import MIGRATIONS_DIR, MigrationError
from bot.store.records import (
    ActionKind,
    ActionRecord,
    ActionStatus,
    BeatTaken,
    Change,
    ChannelConfig,
    ChannelOption,
    ChannelSettings,
    DiceOrder,
    GuildSettings,
    OptionValue,
    Refusal,
    RollRecord,
    Voided,
    WillPool,
    WillSpent,
    WillState,
    WillTiming,
    label_key,
)
from bot.store.rolls import MAX_HISTORY
from bot.store.store import Store, StoreError, Tx

__all__ = [
    "MAX_HISTORY",
    "MIGRATIONS_DIR",
    "ActionKind",
    "ActionRecord",
    "ActionStatus",
    "BeatTaken",
    "Change",
    "ChannelConfig",
    "ChannelOption",
    "ChannelSettings",
    "DiceOrder",
    "GuildSettings",
    "MigrationError",
    "OptionValue",
    "Refusal",
    "RollRecord",
    "Store",
    "StoreError",
    "Tx",
    "Voided",
    "WillPool",
    "WillSpent",
    "WillState",
    "WillTiming",
    "label_key",
]
