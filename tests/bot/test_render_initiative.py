"""The initiative card: text-only mode, Discord's embed limits, names that never ping."""

from __future__ import annotations

import pytest

from bot.render.initiative import (
    added_notice,
    init_refused,
    initiative_embed,
    removed_notice,
    turn_notice,
)
from bot.render.lang import speaking, voice
from engine.faces import seeded_faces
from engine.models import Ruleset
from engine.records import Language
from engine.refusals import Refusal, RefusalCode
from engine.table import initiative
from engine.table.initiative import Entrant, Move, Tracker


def fight(ruleset: Ruleset, name: str, groups: int = 1, count: int = 2) -> Tracker:
    dice = seeded_faces(9)
    tracker = initiative.opened(ruleset)
    for group in range(groups):
        tracker = initiative.added(
            tracker, Entrant(name=f"{name[:60]}{group:02d}", owner_id=1, pool=30), count, dice,
            storyteller=True,
        )
    return initiative.next_turn(tracker, 1, storyteller=True).tracker


def test_text_only_card_has_no_emoji_and_says_who_acts() -> None:
    embed = initiative_embed(fight(Ruleset.COFD, "Guard"), text_only=True)
    shown = f"{embed.title}{embed.description}{embed.footer.text}"
    assert shown.isascii()
    assert "Acting now: 1." in (embed.description or "")


@pytest.mark.parametrize("ruleset", list(Ruleset))
def test_a_card_of_fifty_long_names_stays_inside_discords_limits(ruleset: Ruleset) -> None:
    tracker = fight(ruleset, "*_~`|<@" * 10, groups=5, count=10)
    tracker = initiative.delayed(tracker, 1, storyteller=True).tracker
    for text_only in (False, True):
        embed = initiative_embed(tracker, text_only=text_only)
        assert len(embed) <= 6000
        assert len(embed.description or "") <= 4096
        assert len(embed.fields) <= 25
        assert all(len(field.value or "") <= 1024 for field in embed.fields)
        assert (embed.description or "").count("\n") == 2 + 49 - 1, "every combatant listed"
        assert "<@" not in (embed.description or "").replace("\\<@", "")


def test_names_in_refusals_are_escaped() -> None:
    text = init_refused(Refusal.of(RefusalCode.INIT_NAME_TAKEN, name="@everyone"))
    assert "@everyone" not in text and text.startswith("A combatant called")
    assert text.endswith("nothing was changed.")


def test_a_round_with_nobody_left_in_the_order_says_how_to_go_on() -> None:
    """Everyone removed mid-round: the card offers no Next (nobody to pass to), so it says
    to join or add NPCs first, not to press a Next it does not show."""
    tracker = fight(Ruleset.COFD, "Guard", count=1)
    tracker = initiative.removed(tracker, "Guard00 1", storyteller=True)[0].tracker
    assert Move.NEXT not in initiative.offers(tracker)
    description = initiative_embed(tracker, text_only=False).description or ""
    assert description.startswith(
        "Round 1: nobody is left in the order. Join with **Join**, or the Storyteller adds "
        "NPCs with `/init add` and then presses **Next**."
    )


@pytest.mark.parametrize("ruleset", list(Ruleset))
def test_a_new_round_names_the_successive_action_penalty_only_in_fistful(
    ruleset: Ruleset,
) -> None:
    """RULES.md §3, §7: a new round resets the `fistful` Successive Action Penalty; a `cofd`
    or `v20` table has none, so its notice says only that open rolls close."""
    said = turn_notice(fight(ruleset, "Guard", count=1), new_round=True)
    assert said.endswith("New round: open rolls close.") is (ruleset is not Ruleset.FISTFUL)
    assert ("Successive Action Penalty" in said) is (ruleset is Ruleset.FISTFUL)


@pytest.mark.parametrize(
    ("language", "joins", "leaves"),
    [
        (Language.PT_BR, "Entrando no combate: ", "Saindo do combate: "),
        (Language.ES_ES, "Entrando en el combate: ", "Saliendo del combate: "),
    ],
)
@pytest.mark.parametrize("count", [1, 3])
def test_npcs_added_or_removed_are_announced_with_no_verb_of_a_number(
    language: Language, joins: str, leaves: str, count: int
) -> None:
    """The notice of NPCs added or removed lists one name or several under the same words,
    so they take no verb of a number: a gerund, where es-ES said "Se unen al combate:" and
    "Dejan el combate:" of the one NPC the Storyteller usually adds."""
    tracker = fight(Ruleset.COFD, "Guard", count=count)
    with speaking(voice(language)):
        added = added_notice(list(tracker.combatants), Ruleset.COFD)
        removed = removed_notice(tuple(c.label for c in tracker.combatants))
    assert added.startswith(joins)
    assert removed.startswith(leaves)
