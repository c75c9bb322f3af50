"""Rolls: what was rolled, its current reading, and the state of its buttons.

Every button acts through one conditional UPDATE whose WHERE clause is the
whole rule for "may this press take effect"; only when it changes nothing is
the roll read again, to say why. So a second press, a stale button or a
concurrent press of the same button changes nothing, whatever the timing.
"""

from __future__ import annotations

import sqlite3

import aiosqlite

from bot.store.records import (
    BeatTaken,
    Refusal,
    RollRecord,
    Voided,
    WillSpent,
    WillState,
)
from bot.store.repository import Repository
from bot.store.will import WillRepository
from engine.models import RollRequest, RollResult, WillUse

#: The most rolls one history page may ask for.
MAX_HISTORY = 100


def _roll(row: sqlite3.Row) -> RollRecord:
    return RollRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        roller_id=row["roller_id"],
        roller_name=row["roller_name"],
        label=row["label"],
        private=row["private"],
        request=RollRequest.model_validate_json(row["request_json"]),
        result=RollResult.model_validate_json(row["result_json"]),
        will_state=row["will_state"],
        beat=row["beat"],
        retried=row["retried"],
        closed=row["closed"],
        void=row["void"],
        voided_by=row["voided_by"],
        action_id=row["action_id"],
        action_kind=row["action_kind"] if "action_kind" in row.keys() else None,  # noqa: SIM118
        message_id=row["message_id"],
        copy_channel_id=row["copy_channel_id"],
        copy_message_id=row["copy_message_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


class RollRepository(Repository):
    """Rolls and their buttons: Spend Will, Take a Beat, Try again; closing; history; void."""

    def __init__(self, conn: aiosqlite.Connection, will: WillRepository) -> None:
        super().__init__(conn)
        self._will = will

    async def insert(
        self,
        *,
        guild_id: int,
        channel_id: int,
        roller_id: int,
        roller_name: str = "",
        result: RollResult,
        will_state: WillState,
        label: str | None = None,
        private: bool = False,
        action_id: int | None = None,
    ) -> int:
        """Store a new roll; its id (the key its buttons carry).

        The request stored is ``result.request``, kept as first rolled. This
        does not close the roller's earlier rolls: the caller does that with
        :meth:`close` in the same transaction, so it can update their messages.
        """
        row = await self._returning(
            "INSERT INTO rolls (guild_id, channel_id, roller_id, roller_name, label, private,"
            " request_json, result_json, will_state, action_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                guild_id,
                channel_id,
                roller_id,
                roller_name,
                label,
                private,
                result.request.model_dump_json(),
                result.model_dump_json(),
                will_state.value,
                action_id,
            ),
        )
        return int(row["id"])

    async def attach_messages(
        self,
        roll_id: int,
        message_id: int,
        *,
        copy_channel_id: int | None = None,
        copy_message_id: int | None = None,
    ) -> None:
        """Remember the roll's message (and the Storyteller's copy of a secret roll)
        once they are sent, so later changes can edit them."""
        await self._run(
            "UPDATE rolls SET message_id = ?, copy_channel_id = ?, copy_message_id = ?,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
            (message_id, copy_channel_id, copy_message_id, roll_id),
        )

    async def get(self, roll_id: int) -> RollRecord | None:
        """A roll by id, with its current result parsed."""
        row = await self._one("SELECT * FROM rolls WHERE id = ?", (roll_id,))
        return None if row is None else _roll(row)

    async def spend_will(
        self, roll_id: int, user_id: int, result: RollResult
    ) -> WillSpent | Refusal:
        """Spend Will on a roll after it was made: ``result`` is the engine's new reading.

        Takes effect only when ``user_id`` rolled it, Will is offered and not
        yet spent, the roll is neither closed nor void, and the roller's Will
        pool is not tracked at 0. Then, in the caller's transaction, the
        result is replaced and the tracked pool (if any) loses 1. Otherwise
        nothing changes and the reason is answered.
        """
        if result.will is not WillUse.AFTER:
            msg = "spend_will takes the result re-read with Will spent after the roll"
            raise ValueError(msg)
        row = await self._one(
            "UPDATE rolls SET result_json = ?, will_state = 'spent',"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE id = ? AND roller_id = ? AND will_state = 'offered'"
            " AND closed = 0 AND void = 0"
            " AND NOT EXISTS (SELECT 1 FROM will_pools AS pool"
            "  WHERE pool.guild_id = rolls.guild_id AND pool.user_id = rolls.roller_id"
            "  AND pool.current = 0)"
            " RETURNING *",
            (result.model_dump_json(), roll_id, user_id),
        )
        if row is None:
            return await self._spend_refusal(roll_id, user_id)
        roll = _roll(row)
        pool = await self._will.debit(roll.guild_id, roll.roller_id)
        return WillSpent(roll=roll, pool=pool)

    async def pressed(self, roll_id: int, user_id: int) -> RollRecord | Refusal:
        """The roll a button was pressed on, or the reason shared by every button why
        this member cannot press it, in the order a player should hear them."""
        roll = await self.get(roll_id)
        if roll is None:
            return Refusal.NOT_FOUND
        if roll.void:
            return Refusal.VOID
        if roll.roller_id != user_id:
            return Refusal.NOT_ROLLER
        return roll

    async def spendable(self, roll_id: int, user_id: int) -> RollRecord | Refusal:
        """The roll when Spend Will would act on it now, else why it would not.

        The bot asks before the engine draws the Will dice, so a refused spend
        rolls nothing; :meth:`spend_will` still checks everything again in its
        conditional update, which is what makes concurrent presses safe.
        """
        roll = await self.pressed(roll_id, user_id)
        if isinstance(roll, Refusal):
            return roll
        if roll.beat:
            return Refusal.BEAT_TAKEN
        by_state = {
            WillState.SPENT: Refusal.ALREADY_SPENT,
            WillState.DECLARED: Refusal.DECLARED,
            WillState.NONE: Refusal.NOT_OFFERED,
        }
        if roll.will_state in by_state:
            return by_state[roll.will_state]
        if roll.closed:
            return Refusal.CLOSED
        pool = await self._will.get(roll.guild_id, roll.roller_id)
        if pool is not None and pool.current == 0:
            return Refusal.NO_WILL
        return roll

    async def _spend_refusal(self, roll_id: int, user_id: int) -> Refusal:
        """After the update changed nothing: the reason (in the same transaction, so
        :meth:`spendable` sees what the update saw and finds one)."""
        answer = await self.spendable(roll_id, user_id)
        if not isinstance(answer, Refusal):
            msg = f"Spend Will on roll {roll_id} changed nothing, yet nothing refuses it"
            raise RuntimeError(msg)
        return answer

    async def take_beat(
        self, roll_id: int, user_id: int, result: RollResult
    ) -> BeatTaken | Refusal:
        """Take a Beat: ``result`` is the failure turned into a dramatic failure.

        Takes effect only when ``user_id`` rolled it, no Beat was taken and the
        roll is neither closed nor void; then the result is replaced, Will is no
        longer offered (RULES.md: the Beat closes the roll to Will; a failed
        labelled roll may still be tried again) and the roller gains a Beat.
        """
        if not result.beat:
            msg = "take_beat takes the result re-read with the Beat taken"
            raise ValueError(msg)
        row = await self._one(
            "UPDATE rolls SET result_json = ?, beat = 1,"
            " will_state = CASE will_state WHEN 'offered' THEN 'none' ELSE will_state END,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE id = ? AND roller_id = ? AND beat = 0 AND closed = 0 AND void = 0"
            " RETURNING *",
            (result.model_dump_json(), roll_id, user_id),
        )
        if row is None:
            pressed = await self.pressed(roll_id, user_id)
            if isinstance(pressed, Refusal):
                return pressed
            return Refusal.BEAT_TAKEN if pressed.beat else Refusal.CLOSED
        roll = _roll(row)
        beats = await self._will.add_beat(roll.guild_id, roll.roller_id)
        return BeatTaken(roll=roll, beats=beats)

    async def claim_retry(self, roll_id: int, user_id: int) -> RollRecord | Refusal:
        """Claim the roll's one "Try again": the caller then rolls the new attempt
        in the same transaction. Only the roller, once, while the roll is open."""
        row = await self._one(
            "UPDATE rolls SET retried = 1, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE id = ? AND roller_id = ? AND retried = 0 AND closed = 0 AND void = 0"
            " RETURNING *",
            (roll_id, user_id),
        )
        if row is not None:
            return _roll(row)
        pressed = await self.pressed(roll_id, user_id)
        if isinstance(pressed, Refusal):
            return pressed
        return Refusal.ALREADY_RETRIED if pressed.retried else Refusal.CLOSED

    async def close(
        self, guild_id: int, channel_id: int, roller_id: int | None = None
    ) -> list[RollRecord]:
        """Close the open rolls of a channel (of one roller, when given): their buttons
        stop acting. Used by /scene end, /turn next and when the roller rolls again.

        Answers the rolls just closed, oldest first, so their messages can be updated.
        """
        rows = await self._all(
            "UPDATE rolls SET closed = 1, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE guild_id = ? AND channel_id = ? AND closed = 0"
            " AND (? IS NULL OR roller_id = ?)"
            " RETURNING *",
            (guild_id, channel_id, roller_id, roller_id),
        )
        return sorted((_roll(row) for row in rows), key=lambda roll: roll.id)

    async def history(
        self,
        guild_id: int,
        channel_id: int,
        *,
        viewer_id: int,
        viewer_is_storyteller: bool,
        count: int = 10,
        member_id: int | None = None,
    ) -> list[RollRecord]:
        """The channel's latest rolls, newest first, void ones included.

        A private roll is listed only to its roller and to a Storyteller.
        ``member_id`` keeps one member's rolls. Raises ValueError for a count
        outside 1..MAX_HISTORY.
        """
        if not 1 <= count <= MAX_HISTORY:
            msg = f"history shows 1 to {MAX_HISTORY} rolls, not {count}"
            raise ValueError(msg)
        rows = await self._all(
            "SELECT rolls.*, actions.kind AS action_kind FROM rolls"
            " LEFT JOIN actions ON actions.id = rolls.action_id"
            " WHERE rolls.guild_id = ? AND rolls.channel_id = ?"
            " AND (? IS NULL OR roller_id = ?)"
            " AND (private = 0 OR roller_id = ? OR ?)"
            " ORDER BY rolls.id DESC LIMIT ?",
            (
                guild_id,
                channel_id,
                member_id,
                member_id,
                viewer_id,
                viewer_is_storyteller,
                count,
            ),
        )
        return [_roll(row) for row in rows]

    async def void(
        self, guild_id: int, channel_id: int, roll_id: int, by_user_id: int
    ) -> Voided | None:
        """Mark a roll of this channel void (it stays listed; its buttons stop acting).

        None when the channel has no such roll. Voiding twice changes nothing
        the second time and says so (``already``). A roll made in an action
        (extended, teamwork, contest) is not voided: its effect on the action
        cannot be taken back, so the answer's roll is not ``void``.
        """
        row = await self._one(
            "UPDATE rolls SET void = 1, closed = 1, voided_by = ?,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE id = ? AND guild_id = ? AND channel_id = ? AND void = 0"
            " AND action_id IS NULL RETURNING *",
            (by_user_id, roll_id, guild_id, channel_id),
        )
        if row is not None:
            return Voided(roll=_roll(row), already=False)
        roll = await self.get(roll_id)
        if roll is None or (roll.guild_id, roll.channel_id) != (guild_id, channel_id):
            return None
        return Voided(roll=roll, already=roll.void)
