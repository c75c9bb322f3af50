"""What a stored roll offers its roller now: Spend Will, Take a Beat, Try again, Roll again,
Save this roll.

Decided once, here; render draws the buttons from :class:`Offers`, and each
button's flow checks the same rule through :func:`refusal` before it acts
(RULES.md §1 Take a Beat, §4, COMMANDS.md "Rolling").
"""

from __future__ import annotations

from engine.frozen import Frozen
from engine.models import Outcome, RollResult, Ruleset
from engine.records import ChannelConfig, PressRefusal, RollRecord, WillPool, WillState, WillTiming
from engine.roll import will_refusal


class Offers(Frozen):
    """The buttons a roll's message carries."""

    will: bool = False
    beat: bool = False
    retry: bool = False
    again: bool = False
    """Roll again: the same request as asked, fresh dice (not where Try again is offered:
    on a failed labelled roll Try again is that button, named for the attempt it makes)."""
    save: bool = False
    """Save this roll: the request as asked, under a name."""

    def any(self) -> bool:
        """Whether the message has any button."""
        return self.will or self.beat or self.retry or self.again or self.save


def will_state_for(result: RollResult, config: ChannelConfig) -> WillState:
    """When a roll is stored: whether its message offers Spend Will (§4: not when Will was
    declared, not when the channel wants Will declared before rolling, not when the rules
    refuse a spend on this result)."""
    if result.request.will:
        return WillState.DECLARED
    if config.will_timing is WillTiming.BEFORE or will_refusal(result) is not None:
        return WillState.NONE
    return WillState.OFFERED


def will_again(roll: RollRecord, config: ChannelConfig) -> bool:
    """Whether Try again or Roll again declares Will again. Both roll "the same request"
    (COMMANDS.md), but a declaration is not repeated where the new roll offers Spend Will
    (the player chooses again, after seeing the dice). Where the channel wants Will
    declared before rolling no button would offer it, so a roll made with Will declared
    is made again with Will declared (its settings of now decide)."""
    return roll.result.request.will and config.will_timing is WillTiming.BEFORE


def beat_allowed(result: RollResult) -> bool:
    """`cofd`: a failure (not a dramatic failure) on which no Beat was taken yet."""
    return (
        result.request.ruleset is Ruleset.COFD
        and result.outcome is Outcome.FAILURE
        and not result.beat
    )


def offers(roll: RollRecord) -> Offers:
    """The buttons a stored roll offers now: none once void; once closed (a newer roll,
    the turn or the scene moved on) only what does not depend on the moment, Roll again
    and Save this roll."""
    if roll.void:
        return Offers()
    result = roll.result
    live = not roll.closed
    retry = live and _retries(roll) and not roll.retried
    # Only a roll kept as asked can be asked again or saved (not an action's roll).
    asked = roll.asked is not None and roll.action_id is None
    return Offers(
        will=live and roll.will_state is WillState.OFFERED,
        beat=live and beat_allowed(result),
        retry=retry,
        again=asked and not retry and not roll.retried,
        save=asked,
    )


def _retries(roll: RollRecord) -> bool:
    """Whether Try again is the roll's to offer (open or not, retried or not): a failed
    labelled roll of its own (not an action's)."""
    return bool(roll.label) and roll.result.failed and roll.action_id is None


def closing_changes(roll: RollRecord) -> bool:
    """Whether closing this roll (just closed, or voided) changed its message: it is void,
    it offered Will, a Beat or Try again, or it was rolled again by the write that closed
    it. A message whose buttons stay as they were needs no edit (no REST call)."""
    was_open = roll.model_copy(update={"closed": False})
    return roll.void or roll.retried or offers(was_open) != offers(roll)


def pressed_refusal(roll: RollRecord | None, user_id: int) -> PressRefusal | None:
    """Why this member cannot press any button of this roll, in the order a player should
    hear the reasons; None when they may."""
    if roll is None:
        return PressRefusal.NOT_FOUND
    if roll.void:
        return PressRefusal.VOID
    if roll.roller_id != user_id:
        return PressRefusal.NOT_ROLLER
    return None


def will_spend_refusal(
    roll: RollRecord | None, user_id: int, pool: WillPool | None, *, sheet_gone: bool = False
) -> PressRefusal | None:
    """Why Spend Will would not act on this roll now (§4: the roller only, once per roll,
    not after a Beat, not once closed, not from an empty tracked pool, not once the sheet
    it was rolled with is deleted: ``sheet_gone``); None when it would."""
    refused = pressed_refusal(roll, user_id)
    if refused is not None or roll is None:
        return refused
    if sheet_gone:
        return PressRefusal.SHEET_GONE
    if roll.beat:
        return PressRefusal.BEAT_TAKEN
    by_state = {
        WillState.SPENT: PressRefusal.ALREADY_SPENT,
        WillState.DECLARED: PressRefusal.DECLARED,
        WillState.NONE: PressRefusal.NOT_OFFERED,
    }
    if roll.will_state in by_state:
        return by_state[roll.will_state]
    if roll.closed:
        return PressRefusal.CLOSED
    if pool is not None and pool.current == 0:
        return PressRefusal.NO_WILL
    return None


def beat_refusal(
    roll: RollRecord | None, user_id: int, *, sheet_gone: bool = False
) -> PressRefusal | None:
    """Why Take a Beat would not act on this roll now (not once the sheet it was rolled
    with is deleted: ``sheet_gone``, its Beat has nowhere to go); None when it would."""
    refused = pressed_refusal(roll, user_id)
    if refused is not None or roll is None:
        return refused
    if sheet_gone:
        return PressRefusal.SHEET_GONE
    if roll.beat:
        return PressRefusal.BEAT_TAKEN
    if roll.closed:
        return PressRefusal.CLOSED
    return None


def retry_refusal(roll: RollRecord | None, user_id: int) -> PressRefusal | None:
    """Why Try again would not act on this roll now; None when it would."""
    refused = pressed_refusal(roll, user_id)
    if refused is not None or roll is None:
        return refused
    if roll.retried:
        return PressRefusal.ALREADY_RETRIED
    if roll.closed:
        return PressRefusal.CLOSED
    if not _retries(roll):
        return PressRefusal.STALE
    return None


def again_refusal(roll: RollRecord | None, user_id: int) -> PressRefusal | None:
    """Why Roll again would not act on this roll now; None when it would. It works on a
    closed roll too (the same request, fresh dice, whenever the roller wants), once."""
    refused = pressed_refusal(roll, user_id)
    if refused is not None or roll is None:
        return refused
    if roll.retried:
        return PressRefusal.ALREADY_RETRIED
    return None
