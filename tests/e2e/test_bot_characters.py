"""Characters through the real bot: a roll by trait name whose Will button spends the
character's Will after a restart; a sheet imported from an attachment; delete's button;
a roll resisted by another member's sheet (the text options as Discord sends them)."""

from __future__ import annotations

from engine.characters import exported, new_sheet, set_traits
from engine.models import Ruleset
from tests.e2e.bot_fixtures import StartRealBot, Table, ask
from tests.e2e.harness import Upload


async def test_roll_by_trait_name_then_spend_the_characters_will_after_a_restart(
    table: Table, start: StartRealBot
) -> None:
    bot = await start([3, 4, 2, 5])
    await (await table.ada.slash(table.channel, "character create", name="Mara")).reply()
    await (await table.ada.slash(table.channel, "character set",
                                 traits="Wits 2, Composure 2, Resolve 2")).reply()
    roll = await (await table.ada.slash(table.channel, "roll", pool="Wits + Composure")).reply()
    assert "Wits 2 + Composure 2" in roll.text and "from Mara's sheet" in roll.text

    await bot.kill()
    bot.env_extra["DICE_FACES"] = "8 9 2"
    await bot.start()
    press = await table.ada.click(roll, label="Spend Will")

    assert (await press.ack()).name == "UPDATE_MESSAGE"
    await roll.wait_for(lambda m: "2 successes" in m.text)
    # A new sheet starts full (2/2); raising the maximum keeps current Will: 2/4, then 1/4.
    assert "Will 1/4" in (await press.followup()).text
    shown = await (await table.ada.slash(table.channel, "will show")).reply()
    assert "1/4" in shown.text


async def test_import_an_attachment_then_delete_with_the_confirm_button(
    table: Table, start: StartRealBot
) -> None:
    await start([])
    answer = set_traits(new_sheet("Vale", Ruleset.COFD), [("Brawl", 3)])
    assert isinstance(answer, tuple)
    upload = Upload("vale.json", exported(answer[0]).encode())
    imported = await (await table.ada.slash(table.channel, "character import",
                                            file=upload)).reply()
    assert "Imported **Vale**" in imported.text
    bad = await (await table.ada.slash(table.channel, "character import",
                                       file=Upload("x.json", b"nope"))).reply()
    assert bad.ephemeral and "not a sheet in JSON" in bad.text

    asked = await (await table.ada.slash(table.channel, "character delete",
                                         character="Vale")).reply()
    press = await table.ada.click(asked, label="Delete for good")
    assert (await press.ack()).name == "UPDATE_MESSAGE"
    await asked.wait_for(lambda m: "Deleted" in m.text)
    listed = await (await table.ada.slash(table.channel, "character list")).reply()
    assert "no characters" in listed.text


async def test_extended_by_trait_name_rolls_the_sheet_across_a_restart(
    table: Table, start: StartRealBot
) -> None:
    bot = await start([])
    ada = table.ada
    await (await ada.slash(table.channel, "character create", name="Mara")).reply()
    await (await ada.slash(table.channel, "character set",
                           traits="Intelligence 3, Academics 2")).reply()
    card = await (await ada.slash(table.channel, "extended start",
                                  pool="Intelligence + Academics", target=5,
                                  label="research")).reply()
    assert not card.ephemeral, card.text

    await bot.kill()
    bot.env_extra["DICE_FACES"] = "8 8 2 3 4"
    await bot.start()
    rolled = await (await ada.click(card, label="Roll")).reply()
    assert "Intelligence 3 + Academics 2" in rolled.text and "Mara" in rolled.text
    await card.wait_for(lambda m: "1 of 5 used" in m.text)


async def test_init_join_with_no_pool_reads_the_sheet(
    table: Table, start: StartRealBot
) -> None:
    await start([6])
    ada = table.ada
    await (await ada.slash(table.channel, "character create", name="Mara")).reply()
    await (await ada.slash(table.channel, "character set",
                           traits="Dexterity 3, Composure 2")).reply()
    card = await (await table.storyteller.slash(table.channel, "init start")).reply()
    press = await ada.click(card, label="Join")
    assert (await press.ack()).name == "UPDATE_MESSAGE"
    await card.wait_for(lambda m: "Mara" in m.text and "11" in m.text)


async def test_roll_resisted_by_a_members_composure_from_their_sheet(
    table: Table, start: StartRealBot
) -> None:
    await start([8, 9, 2])
    await ask(table.bob, table.channel, "character create", name="Bram")
    await ask(table.bob, table.channel, "character set", traits="Composure 3")
    roll = await ask(table.ada, table.channel, "roll", pool="6", resist="Composure",
                     resist_target=f"<@{table.bob.id}>")
    assert not roll.ephemeral, roll.text
    assert "-3 dice: resistance" in roll.text
    assert "Resistance: Composure of Bram, from the sheet" in roll.text
    assert "2 successes" in roll.text
    refused = await ask(table.ada, table.channel, "roll", pool="6", resist="Composure")
    assert refused.ephemeral and "needs resist_target" in refused.text


async def test_traits_typed_with_the_quotes_the_new_sheets_guidance_shows_are_set(
    table: Table, start: StartRealBot
) -> None:
    """A new sheet's reply says `/character set (traits:"Wits 3, Composure 2, Brawl 2")`;
    the member who types it so, quotes and all, gets those traits, where the quotes made
    the list unreadable and nothing was set (bot.edge.transformers.UnquotedTransformer)."""
    await start([])
    created = await ask(table.ada, table.channel, "character create", name="Mara")
    assert 'traits:"Wits 3, Composure 2, Brawl 2"' in created.text

    answer = await ask(table.ada, table.channel, "character set",
                       traits='"Wits 3, Composure 2, Brawl 2"')

    assert answer.text == "**Mara**: Wits 1 → 3, Composure 1 → 2, Brawl 0 → 2 (Will 2/3)"
