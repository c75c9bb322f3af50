"""`/multi` (`v20`): several actions declared for one turn, rolled with their penalties.

One read (the settings, the member's active character and their open rolls), the engine
prepares the whole declaration or refuses it, the dice are rolled, and one write closes
the roller's earlier open rolls, whose messages lose their buttons, and stores every roll
closed (the card offers no buttons).

An action's pool may name traits of the active character (``Dexterity + Melee``), as
``/roll``'s does (RULES.md §6), and its rolls are that character's. **Decision**: the
``label`` names the declaration on its card and in the log; it does not feed successive
attempts (RULES.md §2 "Trying again" counts attempts at one action, and a declaration is
several): the actions take the multiple-action penalties alone.
"""

from __future__ import annotations

from bot.flows.context import Ctx, Deps
from bot.flows.reply import Reply, UserError
from bot.flows.rolls import ByName, closed_edits, format_parts
from bot.render.contest import multi_embed, multi_refused, unreadable_action
from bot.render.lang import speaking
from bot.render.message import Message, shaped
from bot.render.messages import out_of_range
from bot.render.refusals import refusal_text
from bot.render.rolls import refusal
from bot.store import Tx
from bot.store.rolls import RollRepository
from engine.constants import DIFFICULTY_RANGE, MAX_LABEL
from engine.parser import NamedPart, PoolSyntaxError, parse_pool_names
from engine.records import DiceOrder, RollRecord, WillState
from engine.roll import RuleError
from engine.roll import roll as roll_dice
from engine.table import multi
from engine.table.multi import MultiRefusal

#: What separates the declared actions in `actions`.
SEPARATOR = ";"
#: The longest declaration and label the command takes.
MAX_ACTIONS_TEXT = 1000


def _pools(actions: str) -> list[tuple[NamedPart, ...]]:
    """Each declared action's pool (trait names kept), in order, or a refusal naming the one
    that is unreadable."""
    pools: list[tuple[NamedPart, ...]] = []
    for number, text in enumerate(actions.split(SEPARATOR), start=1):
        try:
            pools.append(parse_pool_names(text))
        except PoolSyntaxError as error:
            raise UserError(unreadable_action(number, refusal_text(error.refusal))) from error
    return pools


def _check_bounds(actions: str, difficulty: int | None, label: str | None) -> None:
    """Every bound again (a forged interaction may ignore Discord's)."""
    if not 1 <= len(actions) <= MAX_ACTIONS_TEXT:
        raise UserError(out_of_range("actions", 1, MAX_ACTIONS_TEXT, length=True))
    low, high = DIFFICULTY_RANGE
    if difficulty is not None and not low <= difficulty <= high:
        raise UserError(out_of_range("difficulty", low, high, length=False))
    if label is not None and not 1 <= len(label) <= MAX_LABEL:
        raise UserError(out_of_range("label", 1, MAX_LABEL, length=True))


async def multi_actions(
    deps: Deps, ctx: Ctx, actions: str, difficulty: int | None = None, label: str | None = None
) -> Reply:
    """v20: take several actions this turn; action k has -k dice and +k difficulty."""
    _check_bounds(actions, difficulty, label)
    pools = _pools(actions)
    # The settings and the active character, and the roller's open rolls that this roll
    # closes, read ahead.
    (config, character), open_rolls = await deps.store.read(lambda tx: tx.queries.beside_rows(
        ctx.config_query(character=True),
        RollRepository.open_query(ctx.guild_id, ctx.channel_id, ctx.user_id),
    ))
    options = {} if difficulty is None else {"difficulty": difficulty}
    asked = [ByName(parts, options).resolve(ctx, config, character)[0] for parts in pools]
    try:
        declared = multi.requests(asked)
    except RuleError as error:
        raise UserError(refusal(refusal_text(error.refusal))) from error
    if isinstance(declared, MultiRefusal):
        raise UserError(multi_refused(declared, format_parts(pools[declared.action - 1])))
    # multi.requests prepared every request: none of them is refused.
    results = [roll_dice(request, deps.faces) for request in declared]

    def write(tx: Tx) -> list[RollRecord]:
        # On PostgreSQL the open rolls are checked, and every row stored, with COMMIT.
        tx.queries.reserve(rolls=len(results))
        closed = tx.rolls.close_as_read(ctx.guild_id, ctx.channel_id, ctx.user_id,
                                        open_as_read=open_rolls)
        for result in results:  # stored closed: the card offers no buttons
            tx.rolls.insert(
                guild_id=ctx.guild_id, channel_id=ctx.channel_id, roller_id=ctx.user_id,
                roller_name=ctx.user_name, result=result, will_state=WillState.NONE,
                label=label, closed=True,
                character_id=None if character is None else character.id,
                character_name=None if character is None else character.name,
            )
        return closed

    closed = await deps.store.write(write)
    with speaking(ctx.public_voice(config)):
        roller = ctx.user_name if character is None else f"{character.name} ({ctx.user_name})"
        embed = multi_embed(results, roller=roller, label=label, text_only=config.text_only,
                            sorted_dice=config.dice_order is DiceOrder.SORTED)
        return Reply(message=shaped(Message(embed=embed), config),
                     edits=closed_edits(closed, config))

