"""`/saved`, Roll again and Save this roll, as flows: real store, scripted dice, no Discord."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.cogs.saved import Saved
from bot.edge.ids import Kind, parse
from bot.flows import characters, history, rolls, saved
from bot.render.buttons import (
    REFUSALS,
    ROLL_AGAIN,
    SAVE_ROLL,
    SPEND_WILL,
    TAKE_BEAT,
    TRY_AGAIN,
)
from bot.render.saved import NAME_FIELD
from engine.models import AdjustmentKind, Ruleset
from engine.parser import parse_pool, parse_pool_names
from engine.records import ChannelOption, PressRefusal, RollRecord, WillTiming
from engine.saved import MAX_NAME, MAX_SAVED, Asked
from tests.flows.conftest import ALICE, BOB, CHANNEL, GUILD, Recorder, Table
from tests.flows.typed import INVISIBLE, typed
from tests.store.conftest import saved_count, saved_named


async def sheet(table: Table, **traits: int) -> None:
    said = await table.run(characters.create(table.deps, table.ctx(), "Mara"))
    assert "Created" in said.answer.text, said.answer.text
    await set_traits(table, **traits)


async def set_traits(table: Table, **traits: int) -> None:
    text = ", ".join(f"{name} {value}" for name, value in traits.items())
    said = await table.run(characters.set_traits(table.deps, table.ctx(), traits=text))
    assert "→" in said.answer.text, said.answer.text


async def add(table: Table, name: str, pool: str, user: int = ALICE, *,
              label: str | None = None, spec: str | None = None, replace: bool = False,
              **options: Any) -> Recorder:
    return await table.run(saved.add(table.deps, table.ctx(user), name,
                                     parse_pool_names(pool), options,
                                     label=label, spec=spec, replace=replace))


async def count(table: Table, user: int = ALICE) -> int:
    return await table.store.read(lambda tx: saved_count(tx, GUILD, user))


async def use_ruleset(table: Table, ruleset: Ruleset) -> None:
    await table.store.write(lambda tx: tx.settings.set_channel_option(
        GUILD, CHANNEL, ChannelOption.RULESET, ruleset))


async def slash_roll(table: Table, pool: str, *, label: str | None = None,
                     **options: Any) -> Recorder:
    return await table.run(rolls.roll(
        table.deps, table.ctx(), rolls.ByName(parse_pool_names(pool), options),
        label=label, private=False))


def roll_id(said: Recorder) -> int:
    press = parse(said.answer.custom_ids[0])
    assert press is not None
    return press.key


async def stored(table: Table, key: int) -> RollRecord:
    record = await table.store.read(lambda tx: tx.rolls.get(key))
    assert record is not None
    return record


async def latest(table: Table) -> RollRecord:
    history = await table.store.read(lambda tx: tx.rolls.history(
        GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=True, count=1))
    return history[0]


# --- /saved add, list, delete ----------------------------------------------------------------


async def test_add_keeps_the_pool_as_typed_with_its_options_and_label(table: Table) -> None:
    said = await add(table, "Spot the lie", "Wits + Empathy + 1", label="lie", again="9",
                     rote=True, will=True)
    assert said.answer.ephemeral
    assert said.answer.text.startswith("Saved **Spot the lie**: Wits + Empathy + 1")
    kept = await table.store.read(lambda tx: saved_named(tx, GUILD, ALICE, "spot THE lie"))
    assert kept is not None
    assert kept.label == "lie"
    assert kept.asked.options == {"again": "9", "rote": True}  # Will is never saved
    listed = await table.run(saved.show(table.deps, table.ctx()))
    assert "Your saved rolls in this server (1 of 50)" in listed.answer.text
    assert "**Spot the lie**: Wits + Empathy + 1 (again:9, rote) · label: lie" in (
        listed.answer.text)


@pytest.mark.parametrize("text", INVISIBLE)
async def test_a_label_of_nothing_visible_is_no_label_to_save_or_to_roll_with(
    table: Table, text: str
) -> None:
    """A label of nothing visible (a zero-width space, an invisible separator, a
    combining mark alone) is no label: /saved add keeps none (the list shows no empty
    "label: "), and /saved roll given one rolls with the saved label, as when none is
    given."""
    await add(table, "Punch", "3", label=await typed(Saved.add, "label", text))
    kept = await table.store.read(lambda tx: saved_named(tx, GUILD, ALICE, "Punch"))
    assert kept is not None and kept.label is None
    listed = await table.run(saved.show(table.deps, table.ctx()))
    assert "label:" not in listed.answer.text
    await add(table, "Kick", "3", label="kick")
    table.faces.add(2, 2, 2)
    await table.run(saved.roll(table.deps, table.ctx(), "Kick",
                               label=await typed(Saved.roll, "label", text)))
    assert (await latest(table)).label == "kick"


async def test_a_name_already_used_is_refused_unless_replaced(table: Table) -> None:
    await add(table, "Punch", "Strength 3 + Brawl 2")
    refused = await add(table, "  punch ", "5")
    assert "already have a saved roll named **punch**" in refused.answer.text
    assert "replace:True" in refused.answer.text
    kept = await table.store.read(lambda tx: saved_named(tx, GUILD, ALICE, "Punch"))
    assert kept is not None and kept.asked.pool_text() == "Strength 3 + Brawl 2"
    done = await add(table, "punch", "5", replace=True)
    assert done.answer.text.startswith("Replaced **punch**: 5")
    assert await count(table) == 1


async def test_two_saves_of_one_new_name_at_once_save_it_once(table: Table) -> None:
    said = await asyncio.gather(add(table, "Punch", "5"), add(table, "punch", "6"))
    answers = sorted(each.answer.text for each in said)
    assert answers[0].startswith("Saved **")
    assert "already have a saved roll named **punch**" in answers[1]
    assert await count(table) == 1


async def test_the_51st_saved_roll_is_refused_and_replacing_at_the_limit_works(
    table: Table,
) -> None:
    for n in range(MAX_SAVED):
        await add(table, f"roll {n}", str(n % 9 + 1))
    refused = await add(table, "one too many", "3")
    assert f"You have {MAX_SAVED} saved rolls" in refused.answer.text
    assert "/saved delete" in refused.answer.text
    assert await count(table) == MAX_SAVED
    replaced = await add(table, "roll 7", "9", replace=True)
    assert replaced.answer.text.startswith("Replaced")
    assert await count(table) == MAX_SAVED
    listed = await table.run(saved.show(table.deps, table.ctx()))
    assert len(listed.answer.text) <= 2000
    assert "(50 of 50)" in listed.answer.text


async def test_names_too_long_or_blank_are_refused_and_shown_without_pinging(
    table: Table,
) -> None:
    long = await add(table, "x" * (MAX_NAME + 1), "3")
    assert f"at most {MAX_NAME} characters" in long.answer.text
    blank = await add(table, "   ", "3")
    assert "needs a name" in blank.answer.text
    assert await count(table) == 0
    done = await add(table, "@everyone <@123> *bold*", "3")
    assert "@everyone" not in done.answer.text.replace("@\u200beveryone", "")
    assert "\\<@123>" in done.answer.text  # escaped: no mention
    assert await count(table) == 1


@pytest.mark.parametrize("name", ["Punch\u200b", "Pun\u00adch", "\u202ePunch"])
async def test_a_name_holding_an_invisible_character_is_refused_by_add_and_the_form(
    table: Table, name: str
) -> None:
    """A saved roll's name is one line of visible characters (engine.saved.save_refusal's
    Decision): "Punch" with a zero-width space, a soft hyphen or a direction override in
    it is refused, saying why, where it was saved beside "Punch" as another roll listed
    and offered exactly like it; nothing is saved, by /saved add or by Save this roll."""
    await add(table, "Punch", "5")
    refused = await add(table, name, "3")
    assert refused.answer.ephemeral
    assert "holds an invisible character" in refused.answer.text
    assert "type the name again by hand" in refused.answer.text
    replaced = await add(table, name, "3", replace=True)
    assert "holds an invisible character" in replaced.answer.text
    table.faces.add(2, 3, 4)
    press = parse(f"sb1:saveas:{roll_id(await slash_roll(table, '3'))}")
    assert press is not None
    form = await table.run(saved.form_submitted(table.deps, table.ctx(), press,
                                                {NAME_FIELD: name}))
    assert "holds an invisible character" in form.answer.text
    assert await count(table) == 1
    kept = await table.store.read(lambda tx: saved_named(tx, GUILD, ALICE, "Punch"))
    assert kept is not None and kept.asked.pool_text() == "5"


async def test_a_pool_no_table_can_roll_is_refused_when_saved_as_roll_refuses_it(
    table: Table,
) -> None:
    """A saved pool whose typed numbers add up to more than 100 dice can never roll, at
    any table (engine.saved.never_rolls): /saved add refuses it with /roll's words and
    saves nothing, where it was saved and every roll of it refused. What the sheet or the
    ruleset sizes (a trait named, resist, untrained) is still saved, and checked when it
    rolls; numbers taken away count (60 + 60 - 30 is 90 dice, saved)."""
    said = await slash_roll(table, "60+60")
    assert "a pool of 120 dice is too large" in said.answer.text
    refused = await add(table, "big", "60+60")
    assert refused.answer.ephemeral
    assert refused.answer.text == said.answer.text
    labelled = await add(table, "bigger", "Strength 60 + Brawl 41")
    assert "a pool of 101 dice is too large" in labelled.answer.text
    assert await count(table) == 0
    assert "Saved" in (await add(table, "net", "60 + 60 - 30")).answer.text
    assert "Saved" in (await add(table, "named", "Strength + 60 + 60")).answer.text
    assert "Saved" in (await add(table, "resisted", "60 + 60", resist=30)).answer.text
    assert await count(table) == 3


async def test_options_of_different_rulesets_are_refused_when_saved(table: Table) -> None:
    """Options no one ruleset has together (rote is cofd's, difficulty v20's) are refused
    at every table, whatever its ruleset: /saved add says so, naming each option's
    rulesets, and saves nothing, where it saved a roll every roll of which was refused.
    Options one ruleset has together (untrained and risky: fistful's) are saved."""
    refused = await add(table, "mixed", "5", rote=True, difficulty=7)
    assert refused.answer.ephemeral
    assert refused.answer.text == (
        "These options belong to different rulesets, so no table can roll them together: "
        "rote (cofd), difficulty (v20). Save the roll with the options of the ruleset you "
        "play.")
    assert await count(table) == 0
    saved_ = await add(table, "fistful", "5", untrained="physical", risky=True)
    assert "Saved" in saved_.answer.text
    assert await count(table) == 1


async def test_saved_rolls_are_per_member(table: Table) -> None:
    await add(table, "Punch", "5")
    said = await table.run(saved.roll(table.deps, table.ctx(BOB), "Punch"))
    assert said.answer.ephemeral
    assert "no saved roll named **Punch**" in said.answer.text
    assert "/saved add" in said.answer.text
    listed = await table.run(saved.show(table.deps, table.ctx(BOB)))
    assert "no saved rolls" in listed.answer.text


async def test_delete_forgets_one_and_an_unknown_name_lists_the_members_names(
    table: Table,
) -> None:
    await add(table, "Punch", "5")
    await add(table, "Kick", "4")
    unknown = await table.run(saved.delete(table.deps, table.ctx(), "Headbutt"))
    assert "no saved roll named **Headbutt**. Yours: Kick, Punch." in unknown.answer.text
    assert await count(table) == 2
    done = await table.run(saved.delete(table.deps, table.ctx(), "punch"))
    assert done.answer.text.startswith("Deleted your saved roll **Punch**")
    assert await count(table) == 1


async def test_autocomplete_offers_the_members_names_prefix_first(table: Table) -> None:
    for name in ("Shoot", "Punch", "Brawl shot", "Kick"):
        await add(table, name, "3")
    await add(table, "Bob's", "3", user=BOB)
    got = await saved.suggestions(table.deps, table.ctx(), "sho")
    assert got == [("Shoot", "Shoot"), ("Brawl shot", "Brawl shot")]
    assert len(await saved.suggestions(table.deps, table.ctx(), "")) == 4


# --- /saved roll ------------------------------------------------------------------------------


async def test_a_saved_trait_roll_reads_the_sheet_as_it_is_when_rolled(table: Table) -> None:
    await sheet(table, Wits=2, Composure=2)
    await add(table, "Notice", "Wits + Composure", label="notice")
    table.faces.add(8, 2, 3, 4)
    first = await table.run(saved.roll(table.deps, table.ctx(), "notice"))
    assert "Wits 2 + Composure 2" in first.answer.text
    await set_traits(table, Wits=4)
    table.faces.add(8, 2, 3, 4, 5, 6)
    second = await table.run(saved.roll(table.deps, table.ctx(), "Notice"))
    assert "Wits 4 + Composure 2" in second.answer.text
    record = await latest(table)
    assert record.label == "notice"
    assert record.request.base == 6


async def test_a_saved_roll_naming_a_trait_the_sheet_lacks_is_refused_naming_it(
    table: Table,
) -> None:
    await sheet(table, Wits=2)
    await add(table, "Gaze", "Wits + Occultizm")
    refused = await table.run(saved.roll(table.deps, table.ctx(), "Gaze"))
    assert refused.answer.ephemeral
    assert "Occultizm" in refused.answer.text
    assert table.faces.left == 0
    assert await table.store.read(lambda tx: tx.rolls.history(
        GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=True)) == []


async def test_extra_modifiers_will_label_and_private_apply_to_this_roll_only(
    table: Table,
) -> None:
    await add(table, "Punch", "Strength 3 + Brawl 2", label="punch")
    table.faces.add(*([2] * 7))
    said = await table.run(saved.roll(table.deps, table.ctx(), "Punch", modifier=-1,
                                      will=True, label="the guard", private=True))
    assert said.answer.ephemeral  # a secret roll
    record = await latest(table)
    assert record.label == "the guard"
    assert record.private
    assert record.request.will
    assert record.request.base == 4
    kept = await table.store.read(lambda tx: saved_named(tx, GUILD, ALICE, "Punch"))
    assert kept is not None and kept.label == "punch" and "will" not in kept.asked.options
    assert kept.asked.pool_text() == "Strength 3 + Brawl 2"


async def test_options_foreign_to_the_channels_ruleset_are_refused_when_rolled(
    table: Table,
) -> None:
    await add(table, "Parry", "Dexterity 3 + Melee 2", difficulty=7)
    refused = await table.run(saved.roll(table.deps, table.ctx(), "Parry"))
    assert refused.answer.ephemeral
    assert "difficulty" in refused.answer.text
    assert await table.store.read(lambda tx: tx.rolls.history(
        GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=True)) == []
    await use_ruleset(table, Ruleset.V20)
    table.faces.add(7, 2, 3, 4, 5)
    rolled = await table.run(saved.roll(table.deps, table.ctx(), "Parry"))
    assert not rolled.answer.ephemeral
    assert (await latest(table)).request.difficulty == 7


async def test_a_saved_roll_costs_three_trips_like_a_roll(table: Table) -> None:
    await add(table, "Punch", "5")
    table.faces.add(2, 3, 4, 5, 6)
    before = table.store.trips
    await table.run(saved.roll(table.deps, table.ctx(), "Punch"))
    assert table.store.trips - before == 3


# --- Roll again -------------------------------------------------------------------------------


async def test_every_roll_card_offers_roll_again_and_save_but_a_failed_labelled_one_try_again(
    table: Table,
) -> None:
    """The decision pinned: on a failed labelled roll, Try again is the roll-again button (it
    names the attempt and its penalty); Roll again is not shown beside it."""
    table.faces.add(8, 9, 3)
    success = await slash_roll(table, "3", label="door")
    assert success.answer.buttons == [SPEND_WILL, ROLL_AGAIN, SAVE_ROLL]
    table.faces.add(2, 3)
    failure = await slash_roll(table, "2")
    assert failure.answer.buttons == [SPEND_WILL, TAKE_BEAT, ROLL_AGAIN, SAVE_ROLL]
    table.faces.add(2, 3)
    labelled = await slash_roll(table, "2", label="door")
    assert labelled.answer.buttons == [SPEND_WILL, TAKE_BEAT, TRY_AGAIN, SAVE_ROLL]


async def test_roll_again_rolls_the_same_request_with_fresh_dice_once(table: Table) -> None:
    table.faces.add(2, 3, 4, 2, 3, 4)  # rote: each failed die rerolled once
    first = await slash_roll(table, "3", rote=True)
    key = roll_id(first)
    table.faces.add(8, 9, 5, 8)
    said = await table.run(rolls.roll_again_pressed(table.deps, table.ctx(), key))
    assert said.answer.kind == "respond" and not said.answer.ephemeral
    again = await latest(table)
    assert again.id != key
    assert again.request.rote and again.request.base == 3
    assert again.result.successes == 3
    assert (await stored(table, key)).closed
    assert [e.target for e in said.of("edit")] == [901]  # the first card loses its buttons
    assert said.of("edit")[0].buttons == [SAVE_ROLL]  # Roll again too: it was claimed
    table.faces.add(8, 8, 8)
    twice = await table.run(rolls.roll_again_pressed(table.deps, table.ctx(), key))
    assert twice.answer.ephemeral
    assert twice.answer.message.content == REFUSALS[PressRefusal.ALREADY_RETRIED]
    assert table.faces.left == 3
    log = await table.run(history.history(table.deps, table.ctx()))
    assert "rolled again" in log.answer.text


async def test_two_roll_again_presses_at_once_roll_once(table: Table) -> None:
    """Both presses read the roll unclaimed; the one written second finds it claimed
    (PostgreSQL's check misses and its write runs again, reading) and is told."""
    table.faces.add(2, 3, 4)
    key = roll_id(await slash_roll(table, "3"))
    table.faces.add(9, 9, 9)  # one roll's faces: a second roll would run out of dice
    said = await asyncio.gather(*(
        table.run(rolls.roll_again_pressed(table.deps, table.ctx(), key)) for _ in range(2)))
    answers = sorted(said, key=lambda each: each.answer.ephemeral)
    assert not answers[0].answer.ephemeral
    assert answers[1].answer.message.content == REFUSALS[PressRefusal.ALREADY_RETRIED]
    history = await table.store.read(lambda tx: tx.rolls.history(
        GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=True, count=5))
    assert [roll.result.successes for roll in history] == [3, 0]
    assert (await stored(table, key)).retried


async def test_a_closed_card_keeps_roll_again_and_save_and_is_not_edited_for_them(
    table: Table,
) -> None:
    """Closing takes only what depends on the moment (Spend Will, Take a Beat, Try again):
    a card that offered just Roll again and Save this roll is not edited (no REST call),
    and its Roll again still rolls."""
    await table.store.write(lambda tx: tx.settings.set_channel_option(
        GUILD, CHANNEL, ChannelOption.WILL_TIMING, WillTiming.BEFORE))  # no Spend Will
    table.faces.add(8, 8, 8)
    first = roll_id(await slash_roll(table, "3"))  # a success: no Will, no Beat offered
    table.faces.add(8, 8, 8)
    second = await slash_roll(table, "3")
    assert second.of("edit") == [], "the first card keeps its buttons: nothing to edit"
    assert (await stored(table, first)).closed
    table.faces.add(9, 9, 9)

    again = await table.run(rolls.roll_again_pressed(table.deps, table.ctx(), first))

    assert not again.answer.ephemeral
    assert (await latest(table)).result.successes == 3


async def test_roll_again_is_the_rollers_alone_and_a_stale_key_is_told(table: Table) -> None:
    table.faces.add(2, 3, 4)
    key = roll_id(await slash_roll(table, "3"))
    bob = await table.run(rolls.roll_again_pressed(table.deps, table.ctx(BOB), key))
    assert bob.answer.ephemeral
    assert bob.answer.message.content == REFUSALS[PressRefusal.NOT_ROLLER]
    gone = await table.run(rolls.roll_again_pressed(table.deps, table.ctx(), key + 99))
    assert gone.answer.message.content == REFUSALS[PressRefusal.NOT_FOUND]
    assert not (await stored(table, key)).closed


async def test_roll_again_of_a_trait_roll_reads_the_sheet_of_now(table: Table) -> None:
    await sheet(table, Wits=2, Composure=2)
    table.faces.add(8, 2, 3, 4)
    key = roll_id(await slash_roll(table, "Wits + Composure"))
    await set_traits(table, Composure=3)
    table.faces.add(8, 2, 3, 4, 5)
    said = await table.run(rolls.roll_again_pressed(table.deps, table.ctx(), key))
    assert "Wits 2 + Composure 3" in said.answer.text


async def test_roll_again_applies_the_successive_action_penalty(table: Table) -> None:
    await use_ruleset(table, Ruleset.FISTFUL)
    table.faces.add(8, 9, 3)
    key = roll_id(await slash_roll(table, "3"))
    table.faces.add(8, 9)
    await table.run(rolls.roll_again_pressed(table.deps, table.ctx(), key))
    again = await latest(table)
    assert [a.kind for a in again.request.adjustments] == [AdjustmentKind.SUCCESSIVE_ACTION]


async def test_try_again_keeps_its_penalty_and_its_new_card_offers_roll_again(
    table: Table,
) -> None:
    table.faces.add(2, 3)
    key = roll_id(await slash_roll(table, "2", label="door"))
    table.faces.add(8)
    said = await table.run(rolls.try_again_pressed(table.deps, table.ctx(), key))
    retried = await latest(table)
    assert [a.kind for a in retried.request.adjustments] == [AdjustmentKind.SUCCESSIVE_ATTEMPT]
    assert retried.asked is not None  # kept from the first roll
    assert said.answer.buttons == [SPEND_WILL, ROLL_AGAIN, SAVE_ROLL]


# --- Save this roll ---------------------------------------------------------------------------


async def test_save_this_roll_opens_a_form_and_saves_the_roll_as_asked(table: Table) -> None:
    await sheet(table, Wits=2, Investigation=3)
    table.faces.add(8, 2, 3, 4, 5, 6)
    key = roll_id(await slash_roll(table, "Wits + Investigation + 1", label="clues",
                                   again="9", will=False))
    opened = await table.run(rolls.save_pressed(table.deps, table.ctx(), key))
    form = opened.modals[0]
    press = parse(form.custom_id)
    assert press is not None and press.kind is Kind.SAVE_FORM and press.key == key
    done = await table.run(saved.form_submitted(table.deps, table.ctx(), press,
                                                {NAME_FIELD: "Search"}))
    assert done.answer.text.startswith("Saved **Search**: Wits + Investigation + 1 (again:9)")
    kept = await table.store.read(lambda tx: saved_named(tx, GUILD, ALICE, "search"))
    assert kept is not None
    assert kept.label == "clues"
    assert kept.asked == Asked.of(parse_pool_names("Wits + Investigation + 1"), {"again": "9"})


async def test_save_this_roll_is_the_rollers_alone(table: Table) -> None:
    table.faces.add(2, 3, 4)
    key = roll_id(await slash_roll(table, "3"))
    pressed = await table.run(rolls.save_pressed(table.deps, table.ctx(BOB), key))
    assert pressed.modals == []
    assert pressed.answer.message.content == REFUSALS[PressRefusal.NOT_ROLLER]
    press = parse(f"sb1:saveas:{key}")
    assert press is not None
    forged = await table.run(saved.form_submitted(table.deps, table.ctx(BOB), press,
                                                  {NAME_FIELD: "Mine now"}))
    assert forged.answer.message.content == REFUSALS[PressRefusal.NOT_ROLLER]
    assert await count(table, BOB) == 0
    stale = parse("sb1:saveas:99999")
    assert stale is not None
    gone = await table.run(saved.form_submitted(table.deps, table.ctx(), stale,
                                                {NAME_FIELD: "x"}))
    assert gone.answer.message.content == REFUSALS[PressRefusal.NOT_FOUND]


async def test_the_form_refuses_a_taken_or_too_long_name_and_the_51st(table: Table) -> None:
    table.faces.add(2, 3, 4)
    key = roll_id(await slash_roll(table, "3"))
    press = parse(f"sb1:saveas:{key}")
    assert press is not None
    await add(table, "Taken", "5")
    taken = await table.run(saved.form_submitted(table.deps, table.ctx(), press,
                                                 {NAME_FIELD: "taken"}))
    assert "already have a saved roll" in taken.answer.text
    long = await table.run(saved.form_submitted(table.deps, table.ctx(), press,
                                                {NAME_FIELD: "y" * 65}))
    assert "too long" in long.answer.text
    for n in range(MAX_SAVED - 1):
        await add(table, f"r{n}", "2")
    full = await table.run(saved.form_submitted(table.deps, table.ctx(), press,
                                                {NAME_FIELD: "fifty-one"}))
    assert "the most you can keep" in full.answer.text
    assert await count(table) == MAX_SAVED


async def test_a_roll_of_an_action_or_without_its_asked_form_offers_neither_button(
    table: Table,
) -> None:
    table.faces.add(2, 3, 4)
    said = await table.run(rolls.roll(
        table.deps, table.ctx(),
        lambda config: rolls.build_request(config.ruleset, parse_pool("3")),
        label=None, private=False))
    key = int(said.answer.custom_ids[0].rsplit(":", 1)[1])
    assert ROLL_AGAIN not in said.answer.buttons and SAVE_ROLL not in said.answer.buttons
    forged = await table.run(rolls.roll_again_pressed(table.deps, table.ctx(), key))
    assert "cannot be rolled again or saved" in forged.answer.text
    save = await table.run(rolls.save_pressed(table.deps, table.ctx(), key))
    assert save.modals == []


async def test_option_values_are_shown_escaped(table: Table) -> None:
    """COMMANDS.md: names are shown escaped wherever they appear, a named resist and its
    target's name included: no bold, no mention drawn from what a member typed."""
    await add(table, "grab", "3", resist="**Composure**", resist_target="__Bob__ <@123>")
    listed = await table.run(saved.show(table.deps, table.ctx()))
    assert "**Composure**" not in listed.answer.text
    assert "resist:\\*\\*Composure\\*\\*" in listed.answer.text
    assert "\\<@123>" in listed.answer.text, "a mention escaped, never drawn"
