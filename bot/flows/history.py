"""`/history`: the channel's recent rolls, and the Storyteller's void.

The log alone is one read, the settings beside it: the statement itself tests the
server's Storyteller role, which decides whether others' secret rolls are listed. A void
is the Storyteller's: the read (the settings, and the roll beside them) decides that, then
one write voids the roll and lists the log as it now stands. The voided roll's message
loses its buttons in the background, and a secret roll's copy in the Storyteller's
channel is marked void with it.
"""

from __future__ import annotations

from dataclasses import replace

from bot.edge.ids import MAX_KEY
from bot.flows.context import Ctx, Deps
from bot.flows.reply import Edit, Reply, UserError, say
from bot.flows.rolls import closed_edits
from bot.render.lang import _, speaking
from bot.render.message import Message
from bot.render.messages import (
    NOT_STORYTELLER,
    action_roll_not_voided,
    no_such_roll,
    out_of_range,
    voided,
)
from bot.render.rolls import roll_message
from bot.render.state import history_text
from bot.store import MAX_HISTORY, Conflict, Tx
from bot.store.rolls import OpenRoll, RollRepository
from engine.records import ChannelConfig, RollRecord

#: Rolls listed when the member does not say how many.
DEFAULT_COUNT = 10
#: Why a void was refused inside the write (worded after it, in the member's language).
_NO_SUCH_ROLL = "no such roll"
_IN_AN_ACTION = "in an action"


def _copy_edits(record: RollRecord, config: ChannelConfig) -> tuple[Edit, ...]:
    """The Storyteller's copy of a secret roll, marked void as the roll's own message is:
    the copy is the message of it the table's Storyteller keeps (the roller's own is an
    ephemeral answer nothing can edit later)."""
    if record.copy_channel_id is None or record.copy_message_id is None:
        return ()
    copy = replace(roll_message(record, config), view=None)  # a copy carries no buttons
    return (Edit(record.copy_channel_id, record.copy_message_id, copy),)


def _log(tx: Tx, ctx: Ctx, config: ChannelConfig, count: int,
         member_id: int | None) -> list[RollRecord]:
    return tx.rolls.history(
        ctx.guild_id, ctx.channel_id,
        viewer_id=ctx.user_id, viewer_is_storyteller=ctx.storyteller(config),
        count=count, member_id=member_id,
    )


async def history(
    deps: Deps,
    ctx: Ctx,
    count: int = DEFAULT_COUNT,
    member_id: int | None = None,
    void: int | None = None,
) -> Reply:
    """The channel's recent rolls, newest first (a member's only, with ``member_id``);
    with ``void``, the Storyteller voids that roll first."""
    if not 1 <= count <= MAX_HISTORY:
        raise UserError(out_of_range("count", 1, MAX_HISTORY, length=False))
    if void is None:

        def read(tx: Tx) -> tuple[ChannelConfig, list[RollRecord]]:
            (config, _), rows = tx.queries.beside_rows(
                ctx.config_query(),
                RollRepository.history_query(ctx.guild_id, ctx.channel_id, viewer=ctx.viewer(),
                                             count=count, member_id=member_id),
            )
            return config, sorted(rows, key=lambda record: record.id, reverse=True)

        config, records = await deps.store.read(read)  # one statement: who may see what in it
        return say(history_text(records, text_only=config.text_only,
                                member=member_id is not None))

    roll_id = void
    in_range = 1 <= roll_id <= MAX_KEY

    def read_void(tx: Tx) -> tuple[ChannelConfig, OpenRoll | None]:
        if not in_range:
            return ctx.config(tx), None
        (config, _), roll = tx.queries.both(ctx.config_query(),
                                            RollRepository.to_void_query(roll_id))
        return config, roll

    config, target = await deps.store.read(read_void)  # the roll with the settings
    if not ctx.storyteller(config):
        raise UserError(_(NOT_STORYTELLER))
    if not in_range:
        raise UserError(no_such_roll(roll_id))

    def write(tx: Tx) -> tuple[bool, list[RollRecord], tuple[Edit, ...]]:
        # The log first, the one statement whose answer this write waits for: the void
        # (checked against the roll as read) and its counters go with COMMIT on
        # PostgreSQL. The log then shows the voided roll as it now stands.
        log = _log(tx, ctx, config, count, member_id)
        done = tx.rolls.void(ctx.guild_id, ctx.channel_id, roll_id, ctx.user_id, read=target)
        if done is None:
            raise Conflict(_NO_SUCH_ROLL)
        if not done.roll.void:
            raise Conflict(_IN_AN_ACTION)
        with speaking(ctx.public_voice(config)):  # the voided roll's messages
            edits = () if done.already else (
                closed_edits([done.roll], config) + _copy_edits(done.roll, config))
        log = [done.roll if record.id == roll_id else record for record in log]
        return done.already, log, edits

    # The write runs in the store's thread: the member's own words are drawn here, after it.
    try:
        already, records, edits = await deps.store.write(write)
    except Conflict as conflict:
        refusal = (no_such_roll(roll_id) if conflict.reason == _NO_SUCH_ROLL
                   else action_roll_not_voided(roll_id))
        raise UserError(refusal) from None
    notice = voided(roll_id, already=already)
    text = notice + "\n" + history_text(records, text_only=config.text_only,
                                         member=member_id is not None)
    return Reply(message=Message(content=text), ephemeral=True, edits=edits)
