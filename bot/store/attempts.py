"""Successive attempts (per action) and the fistful actions taken this turn (per character,
or per member for the rolls a member makes without a sheet)."""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from bot.store.repository import Query, Repository
from engine.records import WillPool, label_key


class Standing(NamedTuple):
    """A member's counters and Will at the table (:meth:`AttemptRepository.standing`)."""

    failures: int
    turn_actions: int
    pool: WillPool | None


class Acting(NamedTuple):
    """Whose actions this turn a standing reads (RULES.md §3 counts a character's): the
    character of ``character_id``, the one the roll ``roll_id`` was made with, or, when
    ``active``, the member's active character here (``parent_id``: the thread's channel);
    with none of them (or a roll made without a sheet, no active character), the member's
    own actions, rolled without a sheet. A roll's read ahead names it this way, so that the
    statement that finds the character reads its count too."""

    character_id: int | None = None
    roll_id: int | None = None
    active: bool = False
    parent_id: int | None = None

    @classmethod
    def as_character(cls, character_id: int | None) -> Acting:
        """As this character (None: the member's own actions)."""
        return cls(character_id=character_id)

    @classmethod
    def as_active(cls, parent_id: int | None) -> Acting:
        """As the member's active character here, whichever it is (their own actions
        when they have none)."""
        return cls(active=True, parent_id=parent_id)

    @classmethod
    def as_rolled(cls, roll_id: int) -> Acting:
        """As the character a stored roll was made with (Try again rolls as it)."""
        return cls(roll_id=roll_id)


OWN: Final = Acting()
"""The member's own actions, rolled without a sheet."""


class AttemptRepository(Repository):
    """Counters the engine turns into penalties; the store only counts.

    Successive attempts count the failures in a row of one action: same
    member, channel and label (labels matched with :func:`label_key`). The
    turn counter counts a character's actions in the channel's current turn,
    whoever rolls it (two Storytellers sharing an NPC share its count), and a
    member's own actions, rolled without a sheet, apart: a row is either
    (``user_id`` the member, ``character_id`` 0) or (``user_id`` 0,
    ``character_id`` the sheet's), migration 0012.
    """

    def save_failures(
        self, guild_id: int, channel_id: int, user_id: int, label: str, *, old: int, new: int,
        parent_id: int | None = None,
    ) -> bool:
        """Store the failures in a row at an action (the engine counts them), if they are
        still ``old``; False when another write changed them first. One conditional
        statement (no row is 0 failures: a count back to 0 deletes its row). A thread's
        row keeps ``parent_id``, its channel, for :meth:`reset_channel` ``threads``."""
        key = (guild_id, channel_id, user_id, label_key(label))
        if new == old:
            now = self.standing(guild_id, channel_id, user_id, label=label, turn=False, will=False)
            return now.failures == old
        if old == 0:
            return self._changes_one(
                "INSERT INTO attempts"
                " (guild_id, channel_id, user_id, label_key, failures, parent_id)"
                " VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, channel_id, user_id, label_key) DO NOTHING",
                (*key, new, parent_id),
            )
        if new == 0:
            return self._changes_one(
                "DELETE FROM attempts WHERE guild_id = ? AND channel_id = ? AND user_id = ?"
                " AND label_key = ? AND failures = ?",
                (*key, old),
            )
        # A streak begun before threads kept their channel (migration 0010) gets it now.
        return self._changes_one(
            "UPDATE attempts SET failures = ?, parent_id = coalesce(parent_id, ?),"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE guild_id = ? AND channel_id = ? AND user_id = ? AND label_key = ?"
            " AND failures = ?",
            (new, parent_id, *key, old),
        )

    def reset(self, guild_id: int, channel_id: int, user_id: int, label: str) -> None:
        """Forget the failures at one action (it succeeded)."""
        self._do(
            "DELETE FROM attempts"
            " WHERE guild_id = ? AND channel_id = ? AND user_id = ? AND label_key = ?",
            (guild_id, channel_id, user_id, label_key(label)),
        )

    def reset_channel(self, guild_id: int, channel_id: int, *, threads: bool = False) -> None:
        """Forget every successive attempt in the channel (end of scene, "no pressure");
        :meth:`count_query` reads how many there are first, when that is wanted. With
        ``threads`` ("no pressure" on a channel, which its threads follow), those of its
        threads without a pressure setting of their own go too (attempts counted before
        threads kept their channel, migration 0010, stay)."""
        if not threads:
            self._do(
                "DELETE FROM attempts WHERE guild_id = ? AND channel_id = ?",
                (guild_id, channel_id),
            )
            return
        self._do(
            "DELETE FROM attempts WHERE guild_id = ? AND (channel_id = ? OR parent_id = ?"
            " AND NOT EXISTS (SELECT 1 FROM channel_settings AS own"
            "  WHERE own.guild_id = attempts.guild_id AND own.channel_id = attempts.channel_id"
            "  AND own.pressure IS NOT NULL))",
            (guild_id, channel_id, channel_id),
        )

    @staticmethod
    def count_query(guild_id: int, channel_id: int) -> Query[int]:
        """How many actions of the channel carry successive attempts, as a query that
        always answers one row (its column ``attempts_here``), to read beside others."""
        return Query(
            "SELECT count(*) AS attempts_here FROM attempts WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
            lambda row: 0 if row is None else int(row["attempts_here"]),
        )

    def owner_failures(self, action_id: int, *, expected: int | None = None) -> int:
        """:meth:`owner_failures_query`, inside a write; ``expected``: the count as the flow
        read it before this transaction, which PostgreSQL checks with the writes rather
        than reading it again (Repository._expected)."""
        query = self.owner_failures_query(action_id)
        row = self._expected(query.sql, query.params,
                             None if expected is None else {"owner_failures": expected})
        return query.parse(row)

    @staticmethod
    def owner_failures_query(action_id: int) -> Query[int]:
        """The failures in a row at an action's label of the member who owns it (a
        contest's actor, whose attempt its resist decides): their guild, channel, member
        and label as the action keeps them. A query that always answers one row (its
        column ``owner_failures``; 0 when there are none), to read beside others."""
        return Query(
            "SELECT COALESCE((SELECT attempts.failures FROM actions JOIN attempts"
            "  ON attempts.guild_id = actions.guild_id"
            "  AND attempts.channel_id = actions.channel_id"
            "  AND attempts.user_id = actions.owner_id AND attempts.label_key = actions.label_key"
            "  WHERE actions.id = ?), 0) AS owner_failures",
            (action_id,),
            lambda row: 0 if row is None else int(row["owner_failures"]),
        )

    def turn_actions(
        self, guild_id: int, channel_id: int, user_id: int, character_id: int | None = None
    ) -> int:
        """Actions ``character_id`` already took this turn in the channel (None: the
        member's own, without a sheet)."""
        row = self._one(
            "SELECT actions FROM turn_actions"
            " WHERE guild_id = ? AND channel_id = ? AND user_id = ? AND character_id = ?",
            (guild_id, channel_id, *_turn_key(user_id, character_id)),
        )
        return 0 if row is None else int(row["actions"])

    def save_turn_actions(
        self, guild_id: int, channel_id: int, user_id: int, character_id: int | None = None,
        *, old: int, new: int,
    ) -> bool:
        """Store the actions this turn of ``character_id`` (None: the member's own), if
        they are still ``old``; False when another write changed them first. One
        conditional statement (no row is 0 actions)."""
        key = (guild_id, channel_id, *_turn_key(user_id, character_id))
        if old == 0:
            return self._changes_one(
                "INSERT INTO turn_actions (guild_id, channel_id, user_id, character_id, actions)"
                " VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, channel_id, character_id, user_id) DO NOTHING",
                (*key, new),
            )
        return self._changes_one(
            "UPDATE turn_actions SET actions = ?,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE guild_id = ? AND channel_id = ? AND user_id = ? AND character_id = ?"
            " AND actions = ?",
            (new, *key, old),
        )

    def reset_turn(self, guild_id: int, channel_id: int) -> None:
        """A new turn (or the end of the scene): nobody has acted yet. Nothing is read
        from it, so PostgreSQL sends it with the transaction's next answer or COMMIT."""
        self._do(
            "DELETE FROM turn_actions WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
        )

    def standing(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        *,
        label: str | None,
        turn: bool,
        will: bool,
        acting: Acting = OWN,
        expected: Standing | None = None,
    ) -> Standing:
        """What a roll depends on, in one statement (one round trip on PostgreSQL, where
        the three reads were three): the failures in a row at ``label`` (None: not
        read, 0), the actions this turn of whom the member acts as when ``turn``
        (``acting``; :meth:`turn_actions`),
        and the member's own Will pool when ``will`` (WillRepository.get without a
        character). A part not asked for is looked up with a NULL key, which matches no
        row; when none is, nothing is sent. ``expected``: the same standing as the flow
        read it before this transaction (:meth:`standing_query`), which PostgreSQL
        checks with the writes rather than reading it again (Repository._expected)."""
        if label is None and not turn and not will:
            return Standing(failures=0, turn_actions=0, pool=None)
        query = self.standing_query(guild_id, channel_id, user_id,
                                    label=label, turn=turn, will=will, acting=acting)
        row = self._expected(query.sql, query.params,
                             None if expected is None else _standing_row(expected))
        return query.parse(row)

    @staticmethod
    def standing_query(
        guild_id: int, channel_id: int, user_id: int, *, label: str | None,
        turn: bool, will: bool, acting: Acting = OWN,
    ) -> Query[Standing]:
        """:meth:`standing` as a query, to read with others (Queries.both). Its columns:
        ``failures``, ``actions``, ``current`` and ``maximum``."""
        key = None if label is None else label_key(label)
        turn_in, pool_of = (guild_id if turn else None), (user_id if will else None)
        active_in = guild_id if acting.active else None

        def parse(row: Any) -> Standing:
            if row is None:  # one row always comes back (the LEFT JOIN keeps "here")
                msg = "the standing query answered no row"
                raise LookupError(msg)
            pool = None if row["current"] is None else WillPool(
                guild_id=guild_id, user_id=user_id, current=row["current"],
                maximum=row["maximum"],
            )
            return Standing(int(row["failures"]), int(row["actions"]), pool)

        return Query(
            "SELECT COALESCE((SELECT failures FROM attempts"
            "  WHERE guild_id = ? AND channel_id = ? AND user_id = ? AND label_key = ?), 0)"
            " AS failures,"
            # The character acted as (Acting: the one given, the roll's, the active one as
            # CharacterRepository.active finds it; a NULL key matches no row), else 0, the
            # member's own. A character's row has user_id 0 and a member's own
            # character_id 0, never both: user_id 0 or the member finds the one of either.
            " COALESCE((SELECT actions FROM turn_actions"
            "  WHERE guild_id = ? AND channel_id = ? AND user_id IN (0, ?)"
            "  AND character_id = COALESCE(CAST(? AS BIGINT),"
            "   (SELECT character_id FROM rolls WHERE id = ?),"
            "   (SELECT c.id FROM active_characters a JOIN characters c"
            "    ON c.id = a.character_id WHERE a.guild_id = ? AND a.user_id = ?"
            "    AND a.channel_id IN (?, ?, 0) AND c.guild_id = a.guild_id"
            "    ORDER BY a.channel_id = ? DESC, a.channel_id = 0 LIMIT 1), 0)), 0)"
            " AS actions,"
            " will_pools.current, will_pools.maximum"
            " FROM (SELECT 1 AS here) AS here LEFT JOIN will_pools"
            " ON will_pools.guild_id = ? AND will_pools.user_id = ?",
            (guild_id, channel_id, user_id, key,
             turn_in, channel_id, user_id, acting.character_id, acting.roll_id,
             active_in, user_id, channel_id, acting.parent_id or channel_id, channel_id,
             guild_id, pool_of),
            parse,
        )


def _turn_key(user_id: int, character_id: int | None) -> tuple[int, int]:
    """A turn count's ``user_id`` and ``character_id``: a character's whoever rolls it, else
    the member's own."""
    return (user_id, 0) if character_id is None else (0, character_id)


def _standing_row(standing: Standing) -> dict[str, int | None]:
    """The row :meth:`AttemptRepository.standing_query` answers for ``standing``."""
    pool = standing.pool
    return {
        "failures": standing.failures,
        "actions": standing.turn_actions,
        "current": None if pool is None else pool.current,
        "maximum": None if pool is None else pool.maximum,
    }
