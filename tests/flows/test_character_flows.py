"""`/character` and rolls by trait name, in process: real SQLite, scripted dice."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import discord
import pytest

from bot.edge.ids import parse
from bot.flows import characters, clock, config, contest, rolls, will
from bot.flows.characters import Member
from bot.flows.contest import Opponent
from bot.render.buttons import REFUSALS
from bot.render.characters import SHOWN_PROBLEMS
from bot.store import Tx
from bot.store.characters import CharacterRepository
from bot.store.will import WillRepository
from engine.characters import MAX_CHARACTERS, exported, new_sheet
from engine.models import Ruleset, Term, WillUse
from engine.parser import parse_pool_names
from engine.records import ChannelOption, PressRefusal
from engine.trait_names import localised
from tests.flows.conftest import ALICE, BOB, CHANNEL, GUILD, STORYTELLER, Table, parts

OTHER_CHANNEL = 2_000_000_000_000_000_099


async def create(table: Table, name: str = "Mara", user: int = ALICE, **traits: int) -> None:
    said = await table.run(characters.create(table.deps, table.ctx(user), name))
    assert "Created" in said.answer.text, said.answer.text
    if traits:
        text = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in traits.items())
        said = await table.run(characters.set_traits(table.deps, table.ctx(user), traits=text))
        assert "→" in said.answer.text, said.answer.text


async def roll(table: Table, pool: str, user: int = ALICE, spec: str | None = None,
               **options: object) -> str:
    said = await table.run(rolls.roll(
        table.deps, table.ctx(user), rolls.ByName(parse_pool_names(pool), options, spec),
        label=None, private=False))
    return said.answer.text


async def sheet_will(table: Table, user: int = ALICE) -> tuple[int, int]:
    record = await table.store.read(lambda tx: tx.characters.active(GUILD, user, CHANNEL))
    assert record is not None
    return record.sheet.will, record.sheet.will_max


# --- sheets -------------------------------------------------------------------------


async def test_create_then_set_confirms_old_and_new_values(table: Table) -> None:
    await create(table)
    said = await table.run(characters.set_traits(
        table.deps, table.ctx(), traits="Wits 3, Composure 2, Brawl 2"))
    assert "Wits 1 → 3" in said.answer.text and "Brawl 0 → 2" in said.answer.text
    assert said.answer.ephemeral


async def test_set_lists_only_the_traits_whose_value_changed(table: Table) -> None:
    """A trait set to the value it has is no change to confirm: "Dexterity 1 → 1" among
    the real changes read as if it had changed. Only the changed ones are listed; where
    none changed the answer says so, naming what each already is, and the sheet is not
    written (no new version). Traits are named in the table's language (English here),
    whatever the member's."""
    await create(table)
    said = await table.run(characters.set_traits(
        table.deps, table.ctx(), traits="Wits 3, Dexterity 1"))
    assert "Wits 1 → 3" in said.answer.text
    assert "Dexterity" not in said.answer.text, said.answer.text
    before = await table.store.read(lambda tx: tx.characters.active(GUILD, ALICE, CHANNEL))

    same = await table.run(characters.set_traits(
        table.deps, table.ctx(), traits="Dexterity 1, Wits 3"))
    assert same.answer.text == "Nothing was changed: **Mara** already has Dexterity 1, Wits 3."
    table.speak("pt-BR")
    same = await table.run(characters.set_traits(table.deps, table.ctx(), trait="Destreza",
                                                 value=1))
    assert same.answer.text == "Nada foi alterado: **Mara** já tem Dexterity 1."
    after = await table.store.read(lambda tx: tx.characters.active(GUILD, ALICE, CHANNEL))
    assert before is not None and after is not None and after.version == before.version


async def test_a_new_trait_named_nearly_as_a_known_one_is_added_and_the_answer_says_so(
    table: Table,
) -> None:
    """Custom traits are allowed, so `trait:Strenght` beside a Strength adds "Strenght";
    the answer says it is a new trait and names the trait it may have meant, with how to
    set that one (engine.near_miss's rule), in the table's language too; a name close to
    none (or short) adds its trait with no such line."""
    await create(table)
    said = await table.run(characters.set_traits(table.deps, table.ctx(), trait="Strenght",
                                                 value=3))
    assert said.answer.text.endswith(
        "\n**Strenght** is a new trait: did you mean **Strength**? /character set "
        "trait:Strength changes that one."), said.answer.text
    record = await table.store.read(lambda tx: tx.characters.active(GUILD, ALICE, CHANNEL))
    assert record is not None and record.sheet.value("Strenght") == 3
    assert record.sheet.value("Strength") == 1
    plain = await table.run(characters.set_traits(table.deps, table.ctx(),
                                                  traits="Luck 2, Sorcery 1"))
    assert "\n" not in plain.answer.text, plain.answer.text
    table.speak("pt-BR", "pt-BR")  # a Portuguese table: its trait names too
    said = await table.run(characters.set_traits(table.deps, table.ctx(), trait="Destrza",
                                                 value=2))
    assert said.answer.text.endswith(
        "\n**Destrza** é uma característica nova: você quis dizer **Destreza**? "
        "/personagem definir trait:Destreza altera essa."), said.answer.text


async def test_a_value_out_of_range_is_refused_and_changes_nothing(table: Table) -> None:
    await create(table)
    said = await table.run(characters.set_traits(
        table.deps, table.ctx(), traits="Wits 3, Brawl 11"))
    assert "Brawl 11 is out of range: it must be 0 to 10" in said.answer.text
    assert await sheet_will(table) == (2, 2)
    record = await table.store.read(lambda tx: tx.characters.active(GUILD, ALICE, CHANNEL))
    assert record is not None and record.sheet.value("Wits") == 1, "nothing was changed"


async def test_a_refusal_opening_with_a_quoted_name_of_digits_keeps_its_words_in_lower_case(
    table: Table
) -> None:
    """A refusal's sentence gets its capital where it starts; one that opens with a quoted
    name has none to get, as when the name starts with a letter: "“123” cannot be a trait
    name", not "“123” Cannot be", which capitalised the first letter found, past the name."""
    await create(table)
    said = await table.run(characters.set_traits(table.deps, table.ctx(), trait="123", value=3))
    assert said.answer.text.startswith("“123” cannot be a trait name"), said.answer.text
    said = await table.run(characters.set_traits(table.deps, table.ctx(), trait="Wits", value=11))
    assert said.answer.text.startswith("Wits 11 is out of range"), said.answer.text


async def test_a_25th_character_is_the_last(table: Table) -> None:
    for n in range(MAX_CHARACTERS):
        sheet = new_sheet(f"C{n}", Ruleset.COFD)
        await table.store.write(lambda tx, sheet=sheet: tx.characters.insert(GUILD, ALICE, sheet))
    said = await table.run(characters.create(table.deps, table.ctx(), "One too many"))
    assert "25 characters" in said.answer.text


@pytest.mark.parametrize("text", ["Mara\u200b", "\u202earaM", "Mara\u3164"])
async def test_a_name_or_condition_with_a_hidden_character_is_refused_saying_which(
    table: Table, text: str
) -> None:
    """A name or a Condition pasted with a character that shows nothing (a zero-width
    space, a Hangul filler) or turns text around is refused saying so and how to do it
    right, where the refusal said only that a name is one line of visible characters
    (which the member saw it was); nothing is stored."""
    said = await table.run(characters.create(table.deps, table.ctx(), text))
    assert said.answer.ephemeral
    assert "no invisible character (such as a zero-width space" in said.answer.text
    assert "type it again by hand" in said.answer.text
    await create(table)
    added = await table.run(characters.condition(table.deps, table.ctx(), add=text))
    assert "no invisible character (such as a zero-width space" in added.answer.text
    record = await table.store.read(lambda tx: tx.characters.active(GUILD, ALICE, CHANNEL))
    assert record is not None and record.sheet.name == "Mara" and record.sheet.conditions == ()


async def test_a_name_with_mentions_is_kept_and_shown_escaped(table: Table) -> None:
    said = await table.run(characters.create(table.deps, table.ctx(), "@everyone <@123>"))
    assert "\\@everyone" in said.answer.text or "@\u200beveryone" in said.answer.text
    assert "\\<@123>" in said.answer.text, "a mention is shown as plain text"


async def test_members_edit_only_their_own_sheets_and_the_storyteller_any(table: Table) -> None:
    await create(table, "Mara", ALICE)
    refused = await table.run(characters.set_traits(
        table.deps, table.ctx(BOB), character="Mara", trait="Wits", value=3))
    assert "No character named" in refused.answer.text or "not yours" in refused.answer.text
    done = await table.run(characters.set_traits(
        table.deps, table.ctx(STORYTELLER), character="Mara", trait="Wits", value=3))
    assert "Wits 1 → 3" in done.answer.text


async def test_a_storyteller_naming_a_sheet_two_players_share_is_told_what_works(
    table: Table
) -> None:
    """An edit by a name two members' sheets share cannot tell which: the refusal asks for
    a rename (the edit commands have no member option); /character show, which has one,
    points to it."""
    await create(table, "Mara", ALICE)
    await create(table, "Mara", BOB)
    said = await table.run(characters.set_traits(
        table.deps, table.ctx(STORYTELLER), character="Mara", trait="Wits", value=3))
    assert "2 sheets in this server are named “Mara”" in said.answer.text
    assert "/character rename" in said.answer.text and "member" not in said.answer.text
    shown = await table.run(characters.show(table.deps, table.ctx(STORYTELLER), "Mara"))
    assert "use the member option" in shown.answer.text


async def test_any_storyteller_may_use_an_npc_and_none_another_members_sheet(
    table: Table
) -> None:
    """COMMANDS: npc "makes a non-player character usable by Storytellers": a second
    Storyteller makes another's NPC active; a player's sheet stays its owner's."""
    second = table.ctx(ALICE, storyteller=True)
    await table.run(characters.create(table.deps, table.ctx(STORYTELLER), "Goon", npc=True))
    said = await table.run(characters.use(table.deps, second, "Goon"))
    assert "**Goon** is now your active character" in said.answer.text
    table.faces.add(8)
    said = await table.run(rolls.roll(table.deps, second, rolls.ByName(parse_pool_names("Wits")),
                                      label=None, private=False))
    assert "Goon" in said.answer.text
    await create(table, "Bobby", BOB)
    said = await table.run(characters.use(table.deps, second, "Bobby"))
    assert "makes active only their own sheets" in said.answer.text


async def test_only_a_storyteller_creates_npcs(table: Table) -> None:
    said = await table.run(characters.create(table.deps, table.ctx(), "Goon", npc=True))
    assert "Only a Storyteller" in said.answer.text
    said = await table.run(characters.create(table.deps, table.ctx(STORYTELLER), "Goon",
                                             npc=True))
    assert "NPC" in said.answer.text


async def test_someone_elses_sheet_is_private_until_its_owner_shows_it_publicly(
    table: Table
) -> None:
    await create(table, "Mara", ALICE)
    hidden = await table.run(characters.show(table.deps, table.ctx(BOB),
                                             member=Member(ALICE, "Alice")))
    assert "private" in hidden.answer.text
    shown = await table.run(characters.show(table.deps, table.ctx(), public=True))
    assert not shown.answer.ephemeral and "Mara" in shown.answer.text
    seen = await table.run(characters.show(table.deps, table.ctx(BOB),
                                           member=Member(ALICE, "Alice")))
    assert "Attributes" in seen.answer.text


async def test_show_of_a_members_character_is_never_another_members_sheet(
    table: Table
) -> None:
    """`show character:X member:@M` names M's sheet X: when M has none, the answer says so,
    even when another member's sheet of that name is public or the asker a Storyteller."""
    await create(table, "Mara", ALICE)
    await table.run(characters.show(table.deps, table.ctx(ALICE), public=True))
    await create(table, "Bobby", BOB)
    for asker in (BOB, STORYTELLER):
        said = await table.run(characters.show(table.deps, table.ctx(asker), "Mara",
                                               Member(BOB, "Bob")))
        assert "No character named “Mara”" in said.answer.text
    seen = await table.run(characters.show(table.deps, table.ctx(BOB), "Mara"))
    assert "Attributes" in seen.answer.text, "by name alone, a public sheet is seen"


async def test_show_of_a_member_without_an_active_character_says_so_by_name(
    table: Table
) -> None:
    """`show member:@M` with M having no active character here says that M has none and
    how to name one of their sheets, where it said no character was named “” (an empty
    name nobody typed); a name markdown would read is escaped."""
    await create(table, "Mara", ALICE)
    for asker in (ALICE, STORYTELLER):
        said = await table.run(characters.show(table.deps, table.ctx(asker),
                                               member=Member(BOB, "*Bob*")))
        assert said.answer.ephemeral
        assert said.answer.text == (
            "\\*Bob\\* has no active character here: name one of their characters with "
            "character:<name> (see /character list member:<member>).")


async def test_show_groups_traits_and_lists_derived_will_and_conditions(table: Table) -> None:
    await create(table, Resolve=3, Composure=2)
    await table.run(characters.specialty(table.deps, table.ctx(), "Brawl", add="Boxing"))
    await table.run(characters.condition(table.deps, table.ctx(), add="Shaken"))
    text = (await table.run(characters.show(table.deps, table.ctx()))).answer.text
    assert "Skills:" in text and "Brawl 0 (Boxing)" in text
    assert "Willpower 5" in text and "Will 2/5" in text and "Shaken" in text


async def test_a_long_group_of_traits_goes_on_over_several_fields(table: Table) -> None:
    """A field holds 1,024 characters: 100 Merits are shown whole, over two fields, none
    cut in the middle."""
    await create(table)
    traits = ", ".join(f"Merit{chr(65 + i // 26)}{chr(65 + i % 26)} 2" for i in range(100))
    await table.run(characters.set_traits(table.deps, table.ctx(), traits=traits))
    embed = (await table.run(characters.show(table.deps, table.ctx()))).answer.message.embed
    assert embed is not None
    merits = [f for f in embed.fields if (f.name or "").startswith("Other traits")]
    assert [f.name for f in merits] == ["Other traits", "Other traits, continued"]
    assert all(len(f.value or "") <= 1024 for f in merits)
    listed = [item for f in merits for item in (f.value or "").split(", ")]
    assert listed == [f"Merit{chr(65 + i // 26)}{chr(65 + i % 26)} 2" for i in range(100)]


async def test_a_huge_imported_sheet_shows_within_discords_embed_limits(table: Table) -> None:
    """200 long-named traits over every group and 30 long Conditions: the embed stays within
    6,000 characters and 25 fields of 1,024; the traits left out are counted, pointing to
    /character export, and the Conditions are all there."""
    sheet = json.loads(exported(new_sheet("Mara", Ruleset.COFD)))
    groups = ["attribute", "skill", "virtue", "advantage", "other"]
    sheet["traits"] = [
        {"name": f"T{chr(97 + i // 26)}{chr(97 + i % 26)}" + "x" * 29, "value": 1,
         "group": groups[i % 5]}
        for i in range(200)
    ]
    sheet["will"] = 0
    sheet["conditions"] = [f"C{i:02d}" + "y" * 61 for i in range(30)]
    await table.run(characters.import_(table.deps, table.ctx(), json.dumps(sheet).encode()))
    await table.run(characters.use(table.deps, table.ctx(), "Mara"))
    embed = (await table.run(characters.show(table.deps, table.ctx()))).answer.message.embed
    assert embed is not None
    assert len(embed) <= 6000 and len(embed.fields) <= 25
    assert all(len(f.value or "") <= 1024 for f in embed.fields)
    values = " ".join(f.value or "" for f in embed.fields)
    shown = values.count("x" * 29)
    assert f"{200 - shown} more traits: /character export gives the whole sheet" in values
    assert all(f"C{i:02d}" in values for i in range(30))


async def test_a_specialty_on_an_attribute_is_refused(table: Table) -> None:
    await create(table)
    said = await table.run(characters.specialty(table.deps, table.ctx(), "Wits", add="Quick"))
    assert "Wits is not a Skill" in said.answer.text


async def test_a_specialty_by_a_prefix_of_the_skill_confirms_the_skills_name(
    table: Table,
) -> None:
    """The Skill of ``/character specialty`` is named as a pool names it, a unique prefix
    enough (``Bra``: Brawl); the confirmation names the Skill, where it named the prefix
    typed ("added to Bra") while a refusal of the same command said Brawl, and a removed
    specialty as the sheet kept it ("Boxing", typed "boxing")."""
    await create(table)
    said = await table.run(characters.specialty(table.deps, table.ctx(), "bra", add="Boxing"))
    assert said.answer.text == "**Mara**: specialty “Boxing” added to Brawl."
    said = await table.run(characters.specialty(table.deps, table.ctx(), "Bra", remove="boxing"))
    assert said.answer.text == "**Mara**: specialty “Boxing” removed from Brawl."


async def test_a_condition_is_resolved_by_its_name_typed_any_way_and_named_as_kept(
    table: Table,
) -> None:
    """/character condition remove matches the Condition as trait names are matched (case,
    spaces, accents aside: engine.characters.named_text), and the confirmation and a
    second add's refusal name it as the sheet kept it, where they repeated what was typed
    ("shaken  up", "SHAKEN UP") as if the sheet held that."""
    await create(table)
    await table.run(characters.condition(table.deps, table.ctx(), add="Shaken Úp"))
    said = await table.run(characters.condition(table.deps, table.ctx(), add="SHAKEN UP"))
    assert said.answer.ephemeral and "Condition “Shaken Úp”" in said.answer.text
    said = await table.run(characters.condition(table.deps, table.ctx(), remove="shaken  up"))
    assert said.answer.text == "**Mara** no longer has the Condition “Shaken Úp”."
    record = await table.store.read(lambda tx: tx.characters.active(GUILD, ALICE, CHANNEL))
    assert record is not None and record.sheet.conditions == ()


async def test_a_derived_trait_set_by_hand_shows_once_among_the_derived_marked_so(
    table: Table,
) -> None:
    """A derived trait set by hand (/character set trait:Defense) shows once on the card,
    among the derived traits where a reader looks for it, marked as set by hand
    (bot.render.characters.sheet_embed's Decision), where it showed both under "Set by
    hand" and under "Derived"."""
    await create(table, Defense=5)
    embed = (await table.run(characters.show(table.deps, table.ctx()))).answer.message.embed
    assert embed is not None
    fields = {f.name: f.value or "" for f in embed.fields}
    assert "Set by hand" not in fields
    assert "Defense 5 (set by hand)" in fields["Derived"]
    assert sum(value.count("Defense") for value in fields.values()) == 1
    await table.run(characters.create(table.deps, table.ctx(), "Anselm", Ruleset.V20))
    await table.run(characters.set_traits(table.deps, table.ctx(), traits="Initiative 4"))
    embed = (await table.run(characters.show(table.deps, table.ctx()))).answer.message.embed
    assert embed is not None
    fields = {f.name: f.value or "" for f in embed.fields}
    assert fields["Derived"] == "Initiative 4 (set by hand)"


async def test_a_v20_sheets_willpower_shows_after_its_virtues_under_advantages(
    table: Table,
) -> None:
    """A v20 sheet's Willpower is its template's own trait, not one set by hand: the card
    shows it right after the Virtues under "Advantages" (V20's own heading for Virtues and
    Willpower), where it showed under "Set by hand"; that heading is gone from the card,
    the derived traits set by hand being marked among the derived."""
    await table.run(characters.create(table.deps, table.ctx(), "Anselm", Ruleset.V20))
    await table.run(characters.set_traits(table.deps, table.ctx(), traits="Willpower 6"))
    embed = (await table.run(characters.show(table.deps, table.ctx()))).answer.message.embed
    assert embed is not None
    names = [f.name for f in embed.fields]
    assert names[names.index("Virtues") + 1] == "Advantages"
    assert {f.name: f.value for f in embed.fields}["Advantages"] == "Willpower 6"
    assert "Set by hand" not in names


async def test_use_switches_and_a_channel_pin_wins_in_its_channel(table: Table) -> None:
    await create(table, "First", Wits=2)
    await create(table, "Second", Wits=4)
    await table.run(characters.use(table.deps, table.ctx(), "First"))
    await table.run(characters.use(table.deps, table.ctx(channel_id=OTHER_CHANNEL), "Second",
                                   channel=True))
    table.faces.add(8, 8)
    assert "Wits 2" in await roll(table, "Wits")
    table.faces.add(8, 8, 8, 8)
    said = await table.run(rolls.roll(
        table.deps, table.ctx(channel_id=OTHER_CHANNEL),
        rolls.ByName(parse_pool_names("Wits")), label=None, private=False))
    assert "Wits 4" in said.answer.text


async def test_a_sheet_made_active_in_the_server_is_active_where_it_is_chosen_despite_a_pin(
    table: Table
) -> None:
    """`create` says the new sheet is "now your active character here", `use` (server-wide)
    "in this server": where a pin applied in that channel (its own, or its parent's from a
    thread), the sheet is pinned there instead; another channel's pin stays (Decision)."""
    await create(table, "First", Wits=2)
    await table.run(characters.use(table.deps, table.ctx(), "First", channel=True))
    await table.run(characters.use(table.deps, table.ctx(channel_id=OTHER_CHANNEL), "First",
                                   channel=True))
    said = await table.run(characters.create(table.deps, table.ctx(), "Second"))
    assert "now your active character here" in said.answer.text
    table.faces.add(8)
    assert "Second" in await roll(table, "Wits")
    await table.run(characters.use(table.deps, table.ctx(), "First"))
    table.faces.add(8, 8)
    assert "Wits 2" in await roll(table, "Wits"), "a server-wide use moved this channel's pin"
    thread = table.ctx(channel_id=CHANNEL + 1, parent_id=OTHER_CHANNEL)
    await table.run(characters.use(table.deps, thread, "Second"))
    active = await table.store.read(lambda tx: (
        tx.characters.active(GUILD, ALICE, CHANNEL + 1, OTHER_CHANNEL),
        tx.characters.active(GUILD, ALICE, OTHER_CHANNEL)))
    assert [None if r is None else r.name for r in active] == ["Second", "First"]


async def test_text_only_mode_says_the_character_confirmations_in_words(table: Table) -> None:
    """With `text_only on`, no arrow stands for "was, now" or "active" (screen readers
    read them out as symbols): set, list and rename say it in words, as /config does."""
    await table.run(config.set_option(table.deps, table.ctx(STORYTELLER), "text_only", "on"))
    await create(table, "Ana")
    said = await table.run(characters.set_traits(table.deps, table.ctx(),
                                                 traits="Wits 3, Sword 2"))
    assert "Wits was 1, now 3, Sword was not on the sheet, now 2" in said.answer.text
    listed = await table.run(characters.list_(table.deps, table.ctx()))
    assert "- Ana (active)" in listed.answer.text
    renamed = await table.run(characters.rename(table.deps, table.ctx(), "Bea"))
    assert "Renamed **Ana** to **Bea**." in renamed.answer.text
    for reply in (said, listed, renamed):
        assert not {"→", "←"} & set(reply.answer.text), reply.answer.text


async def test_setting_many_traits_at_once_answers_within_a_message(table: Table) -> None:
    """`traits:` holds up to 1,000 characters, 167 new traits: the confirmation lists what
    fits in a message and counts the rest (Discord refuses over 2,000 characters, after
    the change was saved)."""
    await create(table)
    names = [f"{a}{b}" for a in "ABCDEFG" for b in "abcdefghijklmnopqrstuvwxyz"][:167]
    said = await table.run(characters.set_traits(
        table.deps, table.ctx(), traits=",".join(f"{n} 1" for n in names)))
    text = said.answer.message.content or ""
    assert len(text) <= 2000 and "Aa new → 1" in text
    assert text.endswith("more changes (Will 2/2)"), text[-80:]
    record = await table.store.read(lambda tx: tx.characters.active(GUILD, ALICE, CHANNEL))
    assert record is not None and record.sheet.value("Gk") == 1, "every trait was set"


async def test_rename_and_delete_with_the_confirm_button(table: Table) -> None:
    await create(table, "Mara")
    asked = await table.run(characters.delete(table.deps, table.ctx()))
    press = parse(asked.answer.custom_ids[0])
    assert press is not None
    await table.run(characters.rename(table.deps, table.ctx(), "Mara Vale"))
    stale = await table.run(characters.pressed(table.deps, table.ctx(), press))
    assert "changed since" in stale.answer.text, "a renamed sheet's old button is refused"
    asked = await table.run(characters.delete(table.deps, table.ctx()))
    press = parse(asked.answer.custom_ids[0])
    assert press is not None
    bob = await table.run(characters.pressed(table.deps, table.ctx(BOB), press))
    assert "not yours" in bob.answer.text
    done = await table.run(characters.pressed(table.deps, table.ctx(), press))
    assert "Deleted **Mara Vale**" in done.answer.text
    again = await table.run(characters.pressed(table.deps, table.ctx(), press))
    assert "deleted or changed" in again.answer.text


async def test_a_second_delete_confirmation_never_deletes_the_sheet_made_next(
    table: Table
) -> None:
    """A confirmation deletes only the sheet it asked about: once that sheet is gone, its
    other confirmations are stale, even after a new sheet is made (a deleted sheet's id,
    which the button names with its version, is never given to another; migration 0011
    on SQLite)."""
    await create(table, "Mara")
    first, second = [
        parse((await table.run(characters.delete(table.deps, table.ctx()))).answer.custom_ids[0])
        for _ in range(2)
    ]
    assert first is not None and second is not None
    done = await table.run(characters.pressed(table.deps, table.ctx(), first))
    assert "Deleted **Mara**" in done.answer.text
    await create(table, "Newcomer")

    stale = await table.run(characters.pressed(table.deps, table.ctx(), second))

    assert "deleted or changed" in stale.answer.text
    kept = await table.store.read(lambda tx: tx.characters.active(GUILD, ALICE, CHANNEL))
    assert kept is not None and kept.name == "Newcomer"


async def test_export_then_import_round_trips_and_a_bad_file_lists_every_problem(
    table: Table
) -> None:
    await create(table, "Mara", Wits=3)
    exported = await table.run(characters.export(table.deps, table.ctx()))
    file = exported.answer.message.file
    assert file is not None and json.loads(file.data)["schema_version"] == 1
    taken = await table.run(characters.import_(table.deps, table.ctx(), file.data))
    assert "already have" in taken.answer.text
    replaced = await table.run(characters.import_(table.deps, table.ctx(), file.data,
                                                  replace=True))
    assert "Replaced **Mara**" in replaced.answer.text
    bob = await table.run(characters.import_(table.deps, table.ctx(BOB), file.data))
    assert "Imported **Mara**" in bob.answer.text, "the importer's own sheet"
    data = json.loads(file.data)
    data["traits"][0]["value"] = 99
    data["will"] = "lots"
    sheets = CharacterRepository.count_query(GUILD, BOB)
    before = await table.store.read(lambda tx: tx.queries.one(sheets))
    bad = await table.run(characters.import_(table.deps, table.ctx(BOB),
                                             json.dumps(data).encode(), replace=True))
    assert "traits.0.value" in bad.answer.text and "will" in bad.answer.text
    assert await table.store.read(lambda tx: tx.queries.one(sheets)) == before
    big = await table.run(characters.import_(table.deps, table.ctx(), b"", size=70_000))
    assert "at most 65536 bytes" in big.answer.text



@pytest.mark.parametrize(("wrong", "more"), [(20, None), (21, "…and 1 more problem"),
                                             (32, "…and 12 more problems")])
async def test_a_file_with_more_problems_than_a_message_shows_counts_the_rest(
    table: Table, wrong: int, more: str | None
) -> None:
    await create(table, "Mara", Wits=3)
    exported = await table.run(characters.export(table.deps, table.ctx()))
    assert exported.answer.message.file is not None
    data = json.loads(exported.answer.message.file.data)
    for trait in data["traits"][:wrong]:
        trait["value"] = "lots"

    bad = await table.run(characters.import_(table.deps, table.ctx(BOB),
                                             json.dumps(data).encode()))

    listed = [line for line in bad.answer.text.splitlines() if line.startswith("- ")]
    assert len(listed) == min(wrong, SHOWN_PROBLEMS)
    assert f"traits.{min(wrong, SHOWN_PROBLEMS) - 1}.value" in listed[-1]
    assert (more in bad.answer.text) if more else ("more problem" not in bad.answer.text)


async def test_a_file_of_long_problems_lists_as_many_as_fit_a_message_and_counts_the_rest(
    table: Table
) -> None:
    """Twenty conditions too long are twenty long lines (3,000 characters or more), more
    than the 2,000 a message holds: Discord would refuse the answer and the member would
    see no reason. The list stops where the message is full and counts the rest."""
    await create(table, "Mara", Wits=3)
    exported = await table.run(characters.export(table.deps, table.ctx()))
    assert exported.answer.message.file is not None
    data = json.loads(exported.answer.message.file.data)
    data["conditions"] = ["x" * 100] * 25

    bad = await table.run(characters.import_(table.deps, table.ctx(BOB),
                                             json.dumps(data).encode()))

    text = bad.answer.text
    listed = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(text) <= 2000
    assert 1 <= len(listed) < SHOWN_PROBLEMS
    assert f"…and {25 - len(listed)} more problems" in text

async def test_an_imported_condition_or_specialty_too_long_is_named_by_its_place(
    table: Table
) -> None:
    """A text the sheet cannot hold is named by where it is in the file, as a field of the
    wrong kind is, where each said only "write 1 to 64 visible characters" and twenty
    conditions were twenty lines alike."""
    await create(table, "Mara", Wits=3)
    exported = await table.run(characters.export(table.deps, table.ctx()))
    assert exported.answer.message.file is not None
    data = json.loads(exported.answer.message.file.data)
    data["conditions"] = ["Shaken", "x" * 65]
    skill = next(i for i, t in enumerate(data["traits"]) if t["group"] == "skill")
    data["traits"][skill]["specialties"] = ["y" * 65]

    bad = await table.run(characters.import_(table.deps, table.ctx(BOB),
                                             json.dumps(data).encode()))

    lines = bad.answer.text.splitlines()
    assert any(line.startswith(f"- traits.{skill}.specialties.0: write 1 to 64 visible")
               for line in lines), lines
    assert any(line.startswith("- conditions.1: write 1 to 64 visible") for line in lines)
    assert len(lines) == 3


# --- rolling by trait name -------------------------------------------------------------


async def test_roll_by_trait_name_shows_each_term_and_its_source(table: Table) -> None:
    await create(table, Wits=3, Composure=2)
    table.faces.add(8, 9, 2, 3, 4, 5, 6, 7, 2)
    text = await roll(table, "Wits + Composure + Strength 4")
    assert "Wits 3 + Composure 2 + Strength 4" in text
    assert "Wits, Composure: from Mara's sheet" in text and "Strength: typed" in text
    assert "Mara (Alice)" in text


async def test_a_trait_whose_name_ends_in_a_number_is_rolled_by_that_name(table: Table) -> None:
    """`/character set traits:"Area-51 3"` takes the name (RULES.md §6: digits and `-`);
    `/roll pool:Area-51` then rolls its 3 dice, where it rolled Area-51 less 51 (a chance
    die), and `Area 51` its 3, where it rolled a typed 51."""
    await create(table, **{"Area-51": 3})
    for pool, dice in (("Area-51", 3), ("Area 51 + 1", 4)):
        table.faces.add(*([2] * dice))
        text = await roll(table, pool)
        assert "Area-51 3" in text, text
        assert "chance" not in text.casefold() and "typed" not in text
        assert table.faces.left == 0, f"{pool}: {dice} dice"


async def test_a_trait_name_without_a_character_says_how_to_make_one(table: Table) -> None:
    said = await roll(table, "Wits + Composure")
    assert "/character create" in said


async def test_a_newcomers_strength_minus_3_is_told_to_give_each_word_its_number(
    table: Table,
) -> None:
    said = await roll(table, "Strength -3")
    assert said == (
        "A word with no number is a trait of your character's sheet, and you have no active "
        "character here: make one with /character create name:<name>, or pick one with "
        "/character use name:<name>. To roll without a sheet, give each word its number: "
        "“Strength 3 + Brawl 2 - 1”, not “Strength -3”."
    )


async def test_an_unknown_trait_offers_the_closest_names(table: Table) -> None:
    await create(table)
    said = await roll(table, "Compsure")
    assert "closest: Composure" in said


async def test_the_sheet_adds_the_specialty_and_the_untrained_penalty_with_reasons(
    table: Table
) -> None:
    await create(table, Dexterity=3)
    await table.run(characters.specialty(table.deps, table.ctx(), "Brawl", add="Boxing"))
    table.faces.add(8, 8, 8)  # Dexterity 3 + Brawl 0, +1 specialty, -1 untrained = 3 dice
    text = await roll(table, "Dex + Brawl", spec="Boxing")
    assert "+1 die: specialty" in text and "Specialty Brawl: Boxing" in text
    assert "-1 die: untrained" in text and "Untrained: Brawl has no dots" in text
    assert table.faces.left == 0


async def test_a_specialty_the_skill_lacks_is_refused_naming_those_it_has(table: Table) -> None:
    await create(table, Brawl=2)
    await table.run(characters.specialty(table.deps, table.ctx(), "Brawl", add="Boxing"))
    said = await roll(table, "Strength + Brawl", spec="Kicks")
    assert "Brawl: Boxing" in said and "Kicks" in said


async def test_a_trait_name_roll_makes_as_many_trips_as_a_numeric_one(table: Table) -> None:
    await create(table, Wits=3, Composure=2)
    table.faces.add(*([5] * 20))
    before = table.store.trips
    await roll(table, "5")
    numeric = table.store.trips - before
    before = table.store.trips
    await roll(table, "Wits + Composure")
    assert table.store.trips - before == numeric == 3


async def test_spend_will_comes_from_the_character_and_the_night_restores_it(
    table: Table
) -> None:
    await create(table, Resolve=2, Composure=2)  # Will 2 of 4
    table.faces.add(2, 3)
    said = await table.run(rolls.roll(
        table.deps, table.ctx(), rolls.ByName(parse_pool_names("Resolve")), label=None,
        private=False))
    press = parse(said.answer.custom_ids[0])
    assert press is not None and press.action == "will"
    table.faces.add(8, 2, 2)
    spent = await table.run(rolls.spend_will_pressed(table.deps, table.ctx(), press.key))
    assert "Will 1/4" in spent.of("followup")[0].text
    assert await sheet_will(table) == (1, 4)
    shown = await table.run(will.show(table.deps, table.ctx()))
    assert "1/4" in shown.answer.text
    await table.run(clock.night(table.deps, table.ctx(STORYTELLER)))
    assert await sheet_will(table) == (2, 4)
    await table.run(will.rest(table.deps, table.ctx()))
    assert await sheet_will(table) == (3, 4)


async def test_a_member_without_a_character_keeps_the_member_pool(table: Table) -> None:
    await table.run(will.set_pool(table.deps, table.ctx(BOB), 5))
    table.faces.add(8, 8, 8, 1, 1)
    await roll(table, "2", user=BOB, will=True)
    pool = await table.store.read(lambda tx: tx.will.get(GUILD, BOB))
    assert pool is not None and pool.current == 4


async def test_a_beat_on_a_character_roll_counts_toward_experience(table: Table) -> None:
    await create(table)

    def beats(tx: Tx) -> tuple[int, int]:
        record = tx.characters.active(GUILD, ALICE, CHANNEL)
        assert record is not None
        return record.sheet.beats, record.sheet.experience

    for _ in range(5):
        table.faces.add(2)
        said = await table.run(rolls.roll(
            table.deps, table.ctx(), rolls.ByName(parse_pool_names("Wits")), label=None,
            private=False))
        ids = [parse(c) for c in said.answer.custom_ids]
        beat = next(p for p in ids if p is not None and p.action == "beat")
        await table.run(rolls.take_beat_pressed(table.deps, table.ctx(), beat.key))
    assert await table.store.read(beats) == (0, 1)


@pytest.mark.parametrize("button", ["will", "beat"])
@pytest.mark.parametrize("newcomer", [ALICE, BOB], ids=["own", "another_members"])
async def test_a_deleted_sheets_roll_never_spends_or_gives_to_the_next_sheet(
    table: Table, button: str, newcomer: int
) -> None:
    """Spend Will and Take a Beat act on the character the roll was made with (RULES.md §6
    Will): once that sheet is deleted, its old roll's buttons never reach the sheet made
    next, the member's own or another member's (a deleted sheet's id is never given again;
    migration 0011 on SQLite)."""
    await create(table, "Mara")
    table.faces.add(2)
    said = await table.run(rolls.roll(
        table.deps, table.ctx(), rolls.ByName(parse_pool_names("Wits")), label=None,
        private=False))
    press = next(p for p in map(parse, said.answer.custom_ids)
                 if p is not None and p.action == button)
    confirm = parse((await table.run(characters.delete(table.deps, table.ctx())))
                    .answer.custom_ids[0])
    assert confirm is not None
    done = await table.run(characters.pressed(table.deps, table.ctx(), confirm))
    assert "Deleted **Mara**" in done.answer.text
    await create(table, "Newcomer", user=newcomer)
    before = await table.store.read(lambda tx: tx.characters.active(GUILD, newcomer, CHANNEL))

    table.faces.add(2, 2, 2)
    pressed = rolls.spend_will_pressed if button == "will" else rolls.take_beat_pressed
    refused = await table.run(pressed(table.deps, table.ctx(), press.key))

    after = await table.store.read(lambda tx: tx.characters.active(GUILD, newcomer, CHANNEL))
    assert after == before
    # nor anywhere else: the Will and Beats it would change went with the sheet
    assert refused.answer.ephemeral
    assert refused.answer.text == REFUSALS[PressRefusal.SHEET_GONE]
    roll = await table.store.read(lambda tx: tx.rolls.get(press.key))
    assert roll is not None and roll.result.will is WillUse.NONE and not roll.result.beat
    pool, beats = await table.store.read(lambda tx: tx.queries.one(
        WillRepository.member_query(GUILD, ALICE)))
    assert (pool, beats) == (None, 0), "not the member's own either"


async def test_autocomplete_offers_the_active_characters_traits_with_values(
    table: Table
) -> None:
    await create(table, Wits=3)
    assert (await characters.pool_suggestions(table.deps, table.ctx(), "Wi"))[0] == (
        "Wits 3", "Wits")
    assert await characters.pool_suggestions(table.deps, table.ctx(BOB), "Wi") == []
    await create(table, "Goon", STORYTELLER)
    mine = await characters.character_suggestions(table.deps, table.ctx(), "")
    everyone = await characters.character_suggestions(table.deps, table.ctx(STORYTELLER), "")
    assert [v for _, v in mine] == ["Mara"]
    assert sorted(v for _, v in everyone) == ["Goon", "Mara"]
    await table.store.write(lambda tx: tx.settings.set_storyteller(GUILD, 77, None))
    by_role = await characters.character_suggestions(table.deps, table.ctx(BOB, roles=[77]), "")
    other_role = await characters.character_suggestions(table.deps, table.ctx(BOB, roles=[7]),
                                                        "")
    assert sorted(v for _, v in by_role) == ["Goon", "Mara"]
    assert other_role == []


async def test_a_sheet_is_never_reached_from_another_server(table: Table) -> None:
    await create(table, Wits=3)
    other = replace(table.ctx(), guild_id=GUILD + 1)
    said = await table.run(rolls.roll(table.deps, other, rolls.ByName(parse_pool_names("Wits")),
                                      label=None, private=False))
    assert "/character create" in said.answer.text


async def test_the_set_refusal_names_traits_every_template_has(table: Table) -> None:
    """The example of /character set's refusal is said before any sheet is read: it names
    traits every ruleset's template has, so a v20 table is not taught Composure."""
    said = await table.run(characters.set_traits(table.deps, table.ctx(), trait="Wits"))
    assert said.answer.ephemeral
    example = said.answer.text.split('traits:"', 1)[1].split('"', 1)[0]
    names = [part.rsplit(" ", 1)[0] for part in example.split(", ")]
    for ruleset in Ruleset:
        template = {name for name, _ in new_sheet("x", ruleset).entries()}
        assert set(names) <= template, (ruleset, names)


def _traits_named(text: str, locale: str) -> dict[str, set[str]]:
    """Each template trait name ``text`` mentions (as the ``locale``'s editions write it)
    -> the traits it is on each ruleset's template ("" where the template has no such name)."""
    named: dict[str, set[str]] = {}
    for ruleset in Ruleset:
        template = {localised(key, locale): key for key, _ in new_sheet("x", ruleset).entries()}
        named.update({name: set() for name in template
                      if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text)})
    for ruleset in Ruleset:
        template = {localised(key, locale): key for key, _ in new_sheet("x", ruleset).entries()}
        for name, keys in named.items():
            keys.add(template.get(name, ""))
    return named


@pytest.mark.parametrize("locale", ["en-US", "pt-BR", "es-ES"])
async def test_the_unreadable_traits_refusal_names_traits_every_template_has(
    table: Table, locale: str
) -> None:
    """The example of the refusal of traits it cannot read names, in every language, traits
    that are the same trait on every ruleset's template: v20 has no Composure, and in
    Portuguese "Autocontrole" on a v20 sheet is Self-Control."""
    table.speak(locale, locale)
    await table.store.write(lambda tx: tx.settings.set_channel_option(
        GUILD, CHANNEL, ChannelOption.RULESET, Ruleset.V20))
    await table.run(characters.create(table.deps, table.ctx(), "Anselm"))
    said = await table.run(characters.set_traits(table.deps, table.ctx(),
                                                 traits="Perception 3 Alertness 2"))
    assert said.answer.ephemeral
    example = said.answer.text.rsplit("(", 1)[1]
    named = _traits_named(example, locale)
    assert len(named) == 2, (example, named)
    assert all(len(keys) == 1 and "" not in keys for keys in named.values()), named


@pytest.mark.parametrize("locale", ["en-US", "pt-BR", "es-ES"])
async def test_the_pool_forms_hint_names_traits_every_template_has(
    table: Table, locale: str
) -> None:
    """The pool form (Roll to resist, Help) is the same at every table: its hint's example
    names, in every language, traits that are the same trait on every template."""
    table.speak(locale, locale)
    table.faces.add(8, 9, 10, 2)
    said = await table.run(contest.contest(
        table.deps, table.ctx(), parts((Term(value=3),)), against=None,
        opponent=Opponent(BOB, "Bob"), label=None, difficulty=None, opponent_difficulty=None))
    press = parse(said.answer.custom_ids[0])
    assert press is not None
    form = await table.run(contest.resist_pressed(table.deps, table.ctx(BOB), press))
    hint = next(item.description for item in form.modals[0].walk_children()
                if isinstance(item, discord.ui.Label))
    assert hint is not None
    named = _traits_named(hint, locale)
    assert len(named) == 2, (hint, named)
    assert all(len(keys) == 1 and "" not in keys for keys in named.values()), named


@pytest.mark.parametrize("locale", ["en-US", "pt-BR", "es-ES"])
@pytest.mark.parametrize("text_only", [False, True])
async def test_the_list_of_the_most_characters_with_markdown_names_fits_a_message(
    table: Table, locale: str, text_only: bool
) -> None:
    """25 sheets (the most) whose 64-character names are all markdown, each escaped to
    twice its length, every one an NPC, one active, listed for an owner whose name is
    markdown too: the list fits Discord's 2,000 characters in every language and mode
    (names escaped to 80 passed it, and Discord refused the answer). A name of plain
    letters is never cut."""
    table.speak(locale)
    if text_only:
        await table.run(config.set_option(table.deps, table.ctx(STORYTELLER), "text_only", "on"))
    names = [f"{n:02d}" + "_*" * 31 for n in range(MAX_CHARACTERS - 1)] + ["M" * 64]
    for name in names:
        sheet = new_sheet(name, Ruleset.COFD, npc=True)
        await table.store.write(lambda tx, sheet=sheet: tx.characters.insert(GUILD, ALICE, sheet))
    await table.run(characters.use(table.deps, table.ctx(), names[0]))
    listed = await table.run(characters.list_(table.deps, table.ctx(name="_*" * 16)))
    text = listed.answer.message.content or ""
    assert len(text) <= 2000, len(text)
    assert text.count("\n- ") == MAX_CHARACTERS
    assert "M" * 64 in text and "M" * 64 + "…" not in text
