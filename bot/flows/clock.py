"""The Storyteller's clock: `/scene end`, `/turn next`, `/night`.

Each is the Storyteller's: the one read gathers the settings (who the Storyteller is)
with the rest, the one write applies what moved on, and the messages that lost their
buttons are brought up to date in the background. Trips: 2 (read, write).
"""

from __future__ import annotations

from bot.flows import contest, initiative, teamwork
from bot.flows.context import Ctx, Deps
from bot.flows.reply import Edit, Reply, UserError, say
from bot.flows.retry import until_written
from bot.flows.rolls import closed_edits
from bot.render.initiative import scene_initiative_ended
from bot.render.lang import _, speaking
from bot.render.message import Message
from bot.render.messages import NOT_STORYTELLER
from bot.render.state import (
    night_done,
    scene_contests_ended,
    scene_ended,
    turn_advanced,
)
from bot.render.teamwork import scene_teamwork_ended
from bot.store import Conflict, Tx
from bot.store.actions import ActionRepository
from bot.store.attempts import AttemptRepository
from bot.store.initiative import InitiativeRepository
from bot.store.rolls import OpenRoll, RollRepository
from engine import will
from engine.records import ChannelConfig, CharacterRecord, WillPool


async def _storyteller_read(deps: Deps, ctx: Ctx) -> tuple[ChannelConfig, tuple[OpenRoll, ...]]:
    """The settings in force, once the member is known to be the Storyteller here, and
    the channel's open rolls read beside them, which the write closes (on PostgreSQL the
    server checks them with its COMMIT rather than the write reading them back)."""
    (config, _sheet), rolls = await deps.store.read(lambda tx: tx.queries.beside_rows(
        ctx.config_query(), RollRepository.channel_open_query(ctx.guild_id, ctx.channel_id)))
    if not ctx.storyteller(config):
        raise UserError(_(NOT_STORYTELLER))
    return config, tuple(rolls)


async def scene_end(deps: Deps, ctx: Ctx) -> Reply:
    """End the scene: successive attempts (`cofd`, `v20`) and the turn count (`fistful`)
    start over, open rolls close, unfinished teamwork ends, contests still waiting for a
    resistance close and the initiative tracker ends."""
    config, open_rolls = await _storyteller_read(deps, ctx)
    guild_id, channel_id = ctx.guild_id, ctx.channel_id

    def write(tx: Tx) -> tuple[str, tuple[Edit, ...]]:
        # What the scene's end changes, read in one statement: the channel's successive
        # attempts, its tracker, its open actions (its open rolls were read with the
        # settings).
        attempts, tracker, found = tx.queries.with_rows(
            AttemptRepository.count_query(guild_id, channel_id),
            InitiativeRepository.open_query(guild_id, channel_id),
            ActionRepository.find_open_query(guild_id, channel_id),
        )
        tx.attempts.reset_channel(guild_id, channel_id)
        tx.attempts.reset_turn(guild_id, channel_id)
        closed = tx.rolls.close_as_read(guild_id, channel_id, None, open_as_read=open_rolls)
        with speaking(ctx.public_voice(config)):  # the message and the cards it closes
            teamworks, teamwork_edits = teamwork.end_for_scene(tx, found, config)
            contests, contest_edits = contest.end_for_scene(tx, found, config)
            trackers, tracker_edits = initiative.end_for_scene(tx, tracker, config)
            text = (
                scene_ended(attempts, len(closed), config.ruleset)
                + scene_teamwork_ended(teamworks)
                + scene_contests_ended(contests)
                + scene_initiative_ended(trackers)
            )
            edits = (closed_edits(closed, config) + teamwork_edits + contest_edits
                     + tracker_edits)
        return text, edits

    text, edits = await deps.store.write(write)
    return Reply(message=Message(content=text), edits=edits)


async def turn_next(deps: Deps, ctx: Ctx) -> Reply:
    """Next turn: the `fistful` Successive Action Penalty starts over and open rolls close
    (their Spend Will buttons with them)."""
    config, open_rolls = await _storyteller_read(deps, ctx)

    def write(tx: Tx) -> tuple[str, tuple[Edit, ...]]:
        tx.attempts.reset_turn(ctx.guild_id, ctx.channel_id)
        closed = tx.rolls.close_as_read(ctx.guild_id, ctx.channel_id, None,
                                        open_as_read=open_rolls)
        with speaking(ctx.public_voice(config)):
            return turn_advanced(len(closed), config.ruleset), closed_edits(closed, config)

    text, edits = await deps.store.write(write)
    return Reply(message=Message(content=text), edits=edits)


async def night(deps: Deps, ctx: Ctx) -> Reply:
    """A night passes: every tracked Will pool in the server regains 1, up to its maximum;
    the message names each character that regained, and each member whose own pool did."""
    async def attempt() -> Reply:
        def read(tx: Tx) -> tuple[tuple[ChannelConfig, CharacterRecord | None], list[WillPool],
                                  dict[int, str]]:
            return tx.will.pools_beside(ctx.config_query(), ctx.guild_id)  # one statement

        (config, _sheet), pools, names = await deps.store.read(read)
        if not ctx.storyteller(config):
            raise UserError(_(NOT_STORYTELLER))
        changes = will.night(pools)

        def save(tx: Tx) -> None:
            for change in changes:
                if not tx.will.save(change.old, change.new):
                    raise Conflict(None)

        await deps.store.write(save)
        with speaking(ctx.public_voice(config)):
            return say(night_done(
                [change.new.user_id for change in changes if change.new.character_id is None],
                [names[change.new.character_id] for change in changes
                 if change.new.character_id is not None],
                tracked=bool(pools),
            ), ephemeral=False)

    return await until_written(attempt)
