"""What the sheet decides outside /roll (RULES.md §6, §7): extended actions, teamwork,
contests and initiative by trait name, each from the acting member's own character."""

from __future__ import annotations

from typing import Any

import discord

from bot.edge import ids
from bot.flows import characters, contest, extended, initiative, rolls, teamwork
from bot.render import extended as wording
from bot.render import teamwork as teamwork_words
from bot.render.buttons import REFUSALS
from bot.render.characters import NO_CHARACTER_FOR_NAMES
from bot.render.initiative import TYPE_YOUR_INITIATIVE
from engine.models import Ruleset
from engine.parser import parse_pool, parse_pool_names
from engine.records import ActionRecord, ActionStatus, ChannelOption, PressRefusal
from engine.table.extended import ExtendedAction
from engine.table.initiative import Tracker
from engine.table.teamwork import TeamworkAction
from tests.flows.conftest import ALICE, BOB, CHANNEL, GUILD, STORYTELLER, Recorder, Table

NOTHING: dict[str, Any] = {}


async def create(table: Table, name: str, user: int = ALICE, traits: str = "") -> None:
    said = await table.run(characters.create(table.deps, table.ctx(user), name))
    assert "Created" in said.answer.text, said.answer.text
    if traits:
        said = await table.run(characters.set_traits(table.deps, table.ctx(user), traits=traits))
        # set, or already so (a fresh sheet's Strength 1): no refusal
        assert "→" in said.answer.text or "already has" in said.answer.text, said.answer.text


async def use(table: Table, ruleset: Ruleset) -> None:
    await table.store.write(lambda tx: tx.settings.set_channel_option(
        GUILD, CHANNEL, ChannelOption.RULESET, ruleset))


async def action(table: Table, action_id: int = 1) -> ActionRecord:
    record = await table.store.read(lambda tx: tx.actions.get(action_id))
    assert record is not None
    return record


async def sheet(table: Table, user: int = ALICE) -> tuple[int, int]:
    record = await table.store.read(lambda tx: tx.characters.active(GUILD, user, CHANNEL))
    assert record is not None
    return record.sheet.will, record.sheet.experience * 5 + record.sheet.beats


async def start_extended(
    table: Table, pool: str, *, user: int = ALICE, spec: str | None = None, **kwargs: Any
) -> Recorder:
    kwargs.setdefault("target", 10)
    kwargs.setdefault("label", "research")
    return await table.run(extended.start(
        table.deps, table.ctx(user), parse_pool_names(pool), options=NOTHING, spec=spec,
        **kwargs))


# --- extended actions -----------------------------------------------------------------------


async def test_extended_by_trait_name_takes_the_roll_limit_and_skill_dots_from_the_sheet(
    table: Table,
) -> None:
    await create(table, "Mara", traits="Intelligence 3, Academics 2")
    await table.run(characters.specialty(table.deps, table.ctx(), skill="Academics",
                                         add="Occult history"))
    said = await start_extended(table, "Academics + Intelligence", spec="Occult")
    assert not said.answer.ephemeral, said.answer.text
    state = (await action(table)).state(ExtendedAction).state
    assert state.max_rolls == 6, "Intelligence 3 + Academics 2 + Specialty 1"
    assert state.skill == 2, "the named Skill's dots, though written first"
    assert state.request.specialty and state.request.base == 5
    assert [t.label for t in state.request.terms] == ["Academics", "Intelligence"]


async def test_extended_with_an_untrained_skill_from_the_sheet_offers_no_skill_reduction(
    table: Table,
) -> None:
    await create(table, "Mara", traits="Intelligence 3")
    await start_extended(table, "Intelligence + Occult")
    state = (await action(table)).state(ExtendedAction).state
    assert state.request.untrained is not None and state.request.untrained.value == "mental"
    assert state.skill is None, "0 dots take nothing off the requirement"
    assert state.max_rolls == 3


async def test_extended_on_a_sheet_pool_naming_no_skill_offers_no_skill_reduction(
    table: Table,
) -> None:
    """RULES.md §6: the Skill dots come from the sheet's named Skill. Resolve + Composure
    names none, so Composure's dots are not taken for Skill dots (the second named trait
    is a typed pool's rule, §1); the roll limit is still both traits' dots."""
    await create(table, "Mara", traits="Resolve 3, Composure 4")
    said = await start_extended(table, "Resolve + Composure")
    assert not said.answer.ephemeral, said.answer.text
    state = (await action(table)).state(ExtendedAction).state
    assert state.skill is None, "Composure is an Attribute: no Skill dots to reduce by"
    assert state.max_rolls == 7


async def test_extended_by_trait_name_without_a_character_is_refused(table: Table) -> None:
    said = await start_extended(table, "Wits + Composure")
    assert said.answer.ephemeral and said.answer.text == NO_CHARACTER_FOR_NAMES
    assert await table.store.read(lambda tx: tx.actions.get(1)) is None


async def test_extended_will_and_beats_are_the_characters(table: Table) -> None:
    await create(table, "Mara", traits="Intelligence 3, Academics 2")
    await start_extended(table, "Intelligence + Academics")
    assert await sheet(table) == (2, 0)
    table.faces.add(1, 2, 3, 4, 5, 6, 7, 2, 3, 4)  # 7 dice + 3 Will dice: a failure
    said = await table.run(extended.roll(
        table.deps, table.ctx(), modifier=parse_pool_names("Academics"), declare_will=True))
    assert "Mara" in said.answer.text
    assert await sheet(table) == (1, 0), "Will declared came off the character"
    roll = await table.store.read(lambda tx: tx.rolls.get(1))
    assert roll is not None and roll.character_id is not None
    assert roll.result.request.base == 5 + 2, "the modifier named Academics from the sheet"
    beat = ids.parse(said.answer.custom_ids[-1])
    assert beat is not None and beat.action == "beat"
    await table.run(extended.roll_pressed(table.deps, table.ctx(), beat))
    assert await sheet(table) == (1, 1), "the Beat went to the character"


async def delete_active(table: Table, user: int = ALICE) -> None:
    """The member deletes their active sheet, confirming with the button."""
    confirm = ids.parse((await table.run(characters.delete(table.deps, table.ctx(user))))
                        .answer.custom_ids[0])
    assert confirm is not None
    await table.run(characters.pressed(table.deps, table.ctx(user), confirm))


async def test_extended_will_declared_once_its_sheet_is_deleted_is_refused(
    table: Table,
) -> None:
    """Will declared on an extended roll is the action's character's (README): once that
    sheet is deleted no pool holds it, so the roll is refused, nothing rolled, and the
    member is told to roll without it, where it rolled 3 Will dice that cost nothing.
    A roll without Will still goes on."""
    await create(table, "Mara", traits="Intelligence 3, Academics 2")
    await start_extended(table, "Intelligence + Academics")
    await delete_active(table)
    table.faces.add(*[8] * 8)
    said = await table.run(extended.roll(table.deps, table.ctx(), declare_will=True))
    assert said.answer.ephemeral
    assert said.answer.text == wording.will_sheet_gone("Mara")
    assert table.faces.left == 8, "nothing was rolled"
    assert (await action(table)).version == 1
    said = await table.run(extended.roll(table.deps, table.ctx()))
    assert not said.answer.ephemeral and table.faces.left == 3


# --- teamwork -------------------------------------------------------------------------------


async def test_a_helper_rolls_the_primarys_trait_words_from_their_own_sheet(
    table: Table,
) -> None:
    await create(table, "Mara", ALICE, "Strength 4, Athletics 3")
    await create(table, "Bram", BOB, "Strength 2, Athletics 1")
    said = await table.run(teamwork.start(
        table.deps, table.ctx(), rolls.ByName(parse_pool_names("Strength + Athletics")),
        label="lift the cart", helper_limit=None))
    press = ids.parse(said.answer.custom_ids[0])
    assert press is not None
    record = await action(table, press.key)
    form = await table.run(teamwork.card_pressed(
        table.deps, table.ctx(BOB, message_id=record.message_id),
        ids.Press(ids.Kind.TEAMWORK_CARD, "help", press.key, record.version)))
    inputs = [item for item in form.modals[0].walk_children()
              if isinstance(item, discord.ui.TextInput)]
    assert inputs[0].default == "Strength + Athletics", "pre-filled with the primary's words"
    table.faces.add(8, 8, 2)
    helped = await table.run(teamwork.form_submitted(
        table.deps, table.ctx(BOB), ids.Press(ids.Kind.POOL_FORM, "help", press.key),
        {"pool": "Strength + Athletics"}))
    assert "Bram" in helped.answer.text, helped.answer.text
    state = (await action(table, press.key)).state(TeamworkAction)
    helper = state.teamwork.helpers[0]
    assert helper.result.request.base == 3, "Bob's Strength 2 + Athletics 1, not Alice's"
    roll = await table.store.read(lambda tx: tx.rolls.get(1))
    assert roll is not None and roll.character_name == "Bram"


async def test_a_fistful_specialty_stays_out_of_the_help_forms_words(table: Table) -> None:
    """A `fistful` specialty is the primary's own +1 die, a term labelled `Brawl: Boxing`
    that no pool can type: the Help form is pre-filled with the traits only, words the
    helper's sheet can roll."""
    await use(table, Ruleset.FISTFUL)
    await create(table, "Mara", ALICE, "Dexterity 3, Brawl 2")
    await table.run(characters.specialty(table.deps, table.ctx(), skill="Brawl", add="Boxing"))
    said = await table.run(teamwork.start(
        table.deps, table.ctx(), rolls.ByName(parse_pool_names("Dexterity + Brawl"), spec="Box"),
        label="brawl", helper_limit=None))
    press = ids.parse(said.answer.custom_ids[0])
    assert press is not None
    record = await action(table, press.key)
    terms = record.state(TeamworkAction).teamwork.request.terms
    assert "Brawl: Boxing" in [term.label for term in terms]
    form = await table.run(teamwork.card_pressed(
        table.deps, table.ctx(BOB, message_id=record.message_id),
        ids.Press(ids.Kind.TEAMWORK_CARD, "help", press.key, record.version)))
    inputs = [item for item in form.modals[0].walk_children()
              if isinstance(item, discord.ui.TextInput)]
    assert inputs[0].default == "Dexterity + Brawl"
    parse_pool_names(inputs[0].default)  # readable as typed


async def test_the_primarys_declared_will_comes_off_their_character(table: Table) -> None:
    await create(table, "Mara", ALICE, "Strength 2, Athletics 1")
    said = await table.run(teamwork.start(
        table.deps, table.ctx(),
        rolls.ByName(parse_pool_names("Strength + Athletics"), {"will": True}),
        label="lift", helper_limit=None))
    assert not said.answer.ephemeral, said.answer.text
    table.faces.add(8, 2, 2, 2, 2, 2)
    await table.run(teamwork.roll_command(table.deps, table.ctx(), label=None))
    assert (await sheet(table))[0] == 1, "2 on a new sheet, less the Will declared"


async def wills(table: Table) -> dict[str, int]:
    return await table.store.read(lambda tx: {
        record.name: record.sheet.will
        for record in tx.characters.named(GUILD, "Mara") + tx.characters.named(GUILD, "Zed")})


async def test_the_primarys_roll_is_the_character_the_teamwork_started_with(
    table: Table,
) -> None:
    """The pool came from Mara's sheet: a primary who made Zed active since still rolls as
    Mara, whose Will pays what was declared and whose name the roll carries (as an
    extended action's rolls are its character's), where Zed paid for Mara's teamwork."""
    await create(table, "Mara", ALICE, "Strength 2, Athletics 1")
    await table.run(teamwork.start(
        table.deps, table.ctx(),
        rolls.ByName(parse_pool_names("Strength + Athletics"), {"will": True}),
        label="lift", helper_limit=None))
    await create(table, "Zed", ALICE, "Strength 1")
    before = await wills(table)
    table.faces.add(8, 2, 2, 2, 2, 2)
    said = await table.run(teamwork.roll_command(table.deps, table.ctx(), label=None))
    assert not said.answer.ephemeral, said.answer.text
    assert await wills(table) == {"Mara": before["Mara"] - 1, "Zed": before["Zed"]}
    roll = await table.store.read(lambda tx: tx.rolls.get(1))
    assert roll is not None and roll.character_name == "Mara"


async def test_the_primarys_roll_with_will_once_the_sheet_is_deleted_is_refused(
    table: Table,
) -> None:
    """A teamwork started with Will as Mara, whose sheet is deleted since: no pool holds
    that Will, so the primary's roll is refused naming her and saying to cancel, nothing
    rolled and the teamwork still open, where 3 Will dice came free."""
    await create(table, "Mara", ALICE, "Strength 2, Athletics 1")
    started = await table.run(teamwork.start(
        table.deps, table.ctx(),
        rolls.ByName(parse_pool_names("Strength + Athletics"), {"will": True}),
        label="lift", helper_limit=None))
    press = ids.parse(started.answer.custom_ids[0])
    assert press is not None
    await delete_active(table)
    table.faces.add(8, 2, 2, 2, 2, 2)
    said = await table.run(teamwork.roll_command(table.deps, table.ctx(), label=None))
    assert said.answer.ephemeral
    assert said.answer.text == teamwork_words.will_sheet_gone("Mara")
    assert table.faces.left == 6
    assert (await action(table, press.key)).status is ActionStatus.OPEN


# --- contests -------------------------------------------------------------------------------


async def test_a_contest_by_trait_name_and_the_opponent_resists_from_their_sheet(
    table: Table,
) -> None:
    await create(table, "Mara", ALICE, "Strength 3, Brawl 2")
    await create(table, "Bram", BOB, "Strength 1, Stamina 4")
    table.faces.add(8, 8, 2, 2, 2)
    said = await table.run(contest.contest(
        table.deps, table.ctx(), parse_pool_names("Strength + Brawl"), against=None,
        opponent=contest.Opponent(BOB, "Bob"), label="grapple", difficulty=None,
        opponent_difficulty=None))
    press = ids.parse(said.answer.custom_ids[0])
    assert press is not None
    table.faces.add(8, 8, 8, 8, 8)
    resisted = await table.run(contest.pool_form_submitted(
        table.deps, table.ctx(BOB, message_id=901),
        ids.Press(ids.Kind.POOL_FORM, "resist", press.key), {"pool": "Strength + Stamina"}))
    assert "Bob" in resisted.answer.text
    history = await table.store.read(lambda tx: tx.rolls.history(
        GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=False))
    bases = {roll.roller_id: roll.result.request.base for roll in history}
    assert bases == {ALICE: 5, BOB: 5}, "each side's words from its own sheet"
    assert {roll.character_name for roll in history} == {"Mara", "Bram"}


async def test_a_contest_opponent_without_a_character_cannot_resist_by_name(
    table: Table,
) -> None:
    table.faces.add(8, 8, 2)
    said = await table.run(contest.contest(
        table.deps, table.ctx(), parse_pool_names("3"), against=None,
        opponent=contest.Opponent(BOB, "Bob"), label=None, difficulty=None,
        opponent_difficulty=None))
    press = ids.parse(said.answer.custom_ids[0])
    assert press is not None
    refused = await table.run(contest.pool_form_submitted(
        table.deps, table.ctx(BOB, message_id=901),
        ids.Press(ids.Kind.POOL_FORM, "resist", press.key), {"pool": "Stamina"}))
    assert refused.answer.ephemeral and refused.answer.text == NO_CHARACTER_FOR_NAMES


# --- initiative -----------------------------------------------------------------------------


async def tracker(table: Table) -> Tracker:
    record = await table.store.read(lambda tx: tx.initiative.open_in(GUILD, CHANNEL))
    assert record is not None
    return record.state(Tracker)


async def test_init_join_without_a_pool_uses_the_characters_initiative(table: Table) -> None:
    await create(table, "Mara", ALICE, "Dexterity 3, Composure 2, Wits 4")
    await table.run(initiative.start(table.deps, table.ctx(STORYTELLER)))
    table.faces.add(6)
    said = await table.run(initiative.join(table.deps, table.ctx(), None, -1))
    assert not said.answer.ephemeral, said.answer.text
    mara = (await tracker(table)).combatants[0]
    assert mara.name == "Mara" and mara.fixed == 3 + 2 - 1 and mara.total == 10


async def test_v20_initiative_from_the_sheet_is_dexterity_and_wits(table: Table) -> None:
    await use(table, Ruleset.V20)
    await create(table, "Lucita", ALICE, "Dexterity 4, Wits 3")
    start = await table.run(initiative.start(table.deps, table.ctx(STORYTELLER)))
    join = next(i for i in start.answer.custom_ids if ":join:" in i)
    press = ids.parse(join)
    assert press is not None
    table.faces.add(5)
    pressed = await table.run(initiative.card_pressed(table.deps, table.ctx(), press))
    assert not pressed.answer.ephemeral, pressed.answer.text
    lucita = (await tracker(table)).combatants[0]
    assert lucita.name == "Lucita" and lucita.fixed == 7 and lucita.total == 12


async def test_fistful_initiative_from_the_sheet_rolls_dexterity_and_composure(
    table: Table,
) -> None:
    await use(table, Ruleset.FISTFUL)
    await create(table, "Mara", ALICE, "Dexterity 2, Composure 1")
    await table.run(initiative.start(table.deps, table.ctx(STORYTELLER)))
    table.faces.add(7, 2, 6)
    await table.run(initiative.join(table.deps, table.ctx(), None, 0))
    mara = (await tracker(table)).combatants[0]
    assert mara.fixed == 3 and mara.total == 2


async def test_init_join_without_a_pool_or_a_character_says_how(table: Table) -> None:
    await table.run(initiative.start(table.deps, table.ctx(STORYTELLER)))
    said = await table.run(initiative.join(table.deps, table.ctx(), None, 0))
    assert said.answer.ephemeral and said.answer.text == TYPE_YOUR_INITIATIVE
    assert "/character create" in said.answer.text and "pool:" in said.answer.text
    assert (await tracker(table)).combatants == ()


async def test_init_join_may_name_traits_of_the_sheet(table: Table) -> None:
    await create(table, "Mara", ALICE, "Dexterity 3, Wits 2")
    await table.run(initiative.start(table.deps, table.ctx(STORYTELLER)))
    table.faces.add(4)
    await table.run(initiative.join(table.deps, table.ctx(),
                                    parse_pool_names("Dexterity + Wits"), 0))
    assert (await tracker(table)).combatants[0].fixed == 5


async def test_init_remove_autocompletes_combatants_and_group_names(table: Table) -> None:
    await table.run(initiative.start(table.deps, table.ctx(STORYTELLER)))
    table.faces.add(5, 6, 7)
    await table.run(initiative.add(table.deps, table.ctx(STORYTELLER), "Guards",
                                   parse_pool("2"), modifier=0, count=2))
    await table.run(initiative.join(table.deps, table.ctx(), parse_pool_names("3"), 0))
    found = await initiative.combatant_names(table.deps, table.ctx(STORYTELLER), "gu")
    assert found == ["Guards 1", "Guards", "Guards 2"]
    assert await initiative.combatant_names(table.deps, table.ctx(STORYTELLER), "ali") == [
        "Alice"]


# --- Try again after switching character ------------------------------------------------------


async def test_try_again_rolls_as_the_character_of_the_roll_it_retries(table: Table) -> None:
    """Try again rolls the roll's own request (Mara's numbers), so it is Mara's roll, even
    once the member made another character active: the card says so, and its Spend Will
    takes Mara's Will, not the active character's (RULES.md §6 Will)."""
    await create(table, "Mara", traits="Strength 4, Brawl 3")
    await create(table, "Zed")
    await table.run(characters.use(table.deps, table.ctx(), "Mara"))
    table.faces.add(*[2] * 7)
    first = await table.run(rolls.roll(
        table.deps, table.ctx(), rolls.ByName(parse_pool_names("Strength + Brawl"), NOTHING),
        label="punch", private=False))
    await table.run(characters.use(table.deps, table.ctx(), "Zed"))
    wills_before = await table.store.read(lambda tx: {
        record.name: record.sheet.will
        for record in tx.characters.named(GUILD, "Mara") + tx.characters.named(GUILD, "Zed")})
    first_id = int(first.answer.custom_ids[0].rsplit(":", 1)[1])  # type: ignore[union-attr]
    table.faces.add(*[2] * 6)
    again = await table.run(rolls.try_again_pressed(table.deps, table.ctx(), first_id))
    assert "trying again after a failure" in again.answer.text
    assert "Rolled by: Mara (Alice)" in again.answer.text
    again_id = int(again.answer.custom_ids[0].rsplit(":", 1)[1])  # type: ignore[union-attr]
    retried = await table.store.read(lambda tx: tx.rolls.get(again_id))
    assert retried is not None and retried.character_name == "Mara"
    table.faces.add(2, 2, 2)
    await table.run(rolls.spend_will_pressed(table.deps, table.ctx(), again_id))
    wills = await table.store.read(lambda tx: {
        record.name: record.sheet.will
        for record in tx.characters.named(GUILD, "Mara") + tx.characters.named(GUILD, "Zed")})
    assert wills == {"Mara": wills_before["Mara"] - 1, "Zed": wills_before["Zed"]}


async def test_try_again_on_a_roll_whose_sheet_was_deleted_is_refused(table: Table) -> None:
    """Try again rolls as the roll's character: once that sheet is deleted, the retry would
    offer Will and Beats no sheet holds, so it is refused and nothing is rolled."""
    await create(table, "Bors", traits="Strength 3, Brawl 2")
    table.faces.add(*[2] * 5)
    first = await table.run(rolls.roll(
        table.deps, table.ctx(), rolls.ByName(parse_pool_names("Strength + Brawl"), NOTHING),
        label="punch", private=False))
    first_id = int(first.answer.custom_ids[0].rsplit(":", 1)[1])  # type: ignore[union-attr]
    confirm = ids.parse((await table.run(characters.delete(table.deps, table.ctx())))
                        .answer.custom_ids[0])
    assert confirm is not None
    await table.run(characters.pressed(table.deps, table.ctx(), confirm))
    table.faces.add(*[8] * 5)
    said = await table.run(rolls.try_again_pressed(table.deps, table.ctx(), first_id))
    assert said.answer.ephemeral
    assert said.answer.text == REFUSALS[PressRefusal.SHEET_GONE]
    assert table.faces.left == 5
