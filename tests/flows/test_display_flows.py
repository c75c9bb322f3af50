"""The channel's display settings reach every card: compact roll cards, plain messages."""

from __future__ import annotations

import random

import discord
import pytest

from bot.edge import ids
from bot.flows import contest, extended, initiative, multi, rolls, stats, teamwork
from bot.flows.help import show_help
from bot.render.message import CONTENT_LIMIT, Message, embed_text, plain, shaped_in_full
from bot.render.rolls import roll_embed
from bot.store import Tx
from engine.faces import ScriptedFaces
from engine.models import RollRequest, Ruleset, Term
from engine.records import ChannelConfig, ChannelOption, DiceOrder
from engine.roll import roll
from tests.flows.conftest import ALICE, CHANNEL, GUILD, STORYTELLER, Recorder, Table, parts


async def _set(table: Table, option: ChannelOption, value: bool) -> None:
    def write(tx: Tx) -> None:
        tx.settings.set_channel_option(GUILD, CHANNEL, option, value)

    await table.store.write(write)


def _ask(*values: int, **options: object) -> rolls.Ask:
    terms = tuple(Term(label=label, value=value)
                  for label, value in zip(("Wits", "Composure", None), values, strict=False))
    return lambda config: rolls.build_request(config.ruleset, terms, **options)  # type: ignore[arg-type]


async def _roll(table: Table, *faces: int, label: str | None = "spot the ambush") -> Recorder:
    table.faces.add(*faces)
    return await table.run(rolls.roll(table.deps, table.ctx(ALICE), _ask(3, 2), label=label,
                                      private=False))


async def test_a_compact_card_has_no_fields_and_the_pool_on_one_line(table: Table) -> None:
    full = (await _roll(table, 8, 3, 10, 2, 5, 4)).answer
    await _set(table, ChannelOption.COMPACT, True)
    compact = (await _roll(table, 8, 3, 10, 2, 5, 4)).answer

    embed = compact.message.embed
    assert embed is not None
    assert embed.fields == []
    assert (embed.description or "").splitlines() == [
        "**2 successes**",
        "",
        "Dice: **8** 3 **10** 2 5",
        "10-again: 4",
        "Pool: Wits 3 + Composure 2 = 5 dice",
    ]
    assert embed.footer.text == "Roll #2 · rolled by Alice · cofd"
    assert len(compact.text.splitlines()) < len(full.text.splitlines())


async def test_a_compact_text_only_card_parts_its_pool_with_words_not_symbols(
    table: Table,
) -> None:
    """Text-only has no emoji or symbols, for screen readers: a compact card's pool line
    parts the breakdown with semicolons, not middle dots (its footer with commas)."""
    await _set(table, ChannelOption.COMPACT, True)
    await _set(table, ChannelOption.TEXT_ONLY, True)
    table.faces.add(8, 3, 10, 2, 5, 4, 8, 8, 8, 8, 8, 8, 2)  # 8 dice, 4 rerolled, a 10
    said = await table.run(rolls.roll(table.deps, table.ctx(ALICE),
                                      _ask(3, 2, rote=True, will=True), label=None,
                                      private=False))
    embed = said.answer.message.embed
    assert embed is not None
    assert "·" not in said.answer.text
    assert (embed.description or "").splitlines()[-1] == (
        "Pool: Wits 3 + Composure 2; +3 dice: Willpower (declared with the roll); = 8 dice;"
        " Options: rote action (failed dice rerolled once)")
    assert embed.footer.text == "Roll 1, rolled by Alice, cofd"


async def test_plain_messages_carry_the_whole_card_as_text(table: Table) -> None:
    await _set(table, ChannelOption.PLAIN, True)
    said = (await _roll(table, 8, 3, 10, 2, 5, 4)).answer

    assert said.message.embed is None
    assert said.buttons, "the buttons stay"
    text = said.message.content or ""
    assert text.startswith("**🎲 spot the ambush: Success**\n**2 successes**")
    assert "Dice: **8** 3 **10** 2 5" in text
    assert "**Pool**: Wits 3 + Composure 2 = 5 dice" in text
    assert text.endswith("-# Roll #1 · Chronicles of Darkness (2e)")


async def test_plain_mode_reaches_every_card(table: Table) -> None:
    await _set(table, ChannelOption.PLAIN, True)
    table.faces.add(8, 3, 2)
    said = [
        await table.run(extended.start(table.deps, table.ctx(ALICE), parts([Term(value=3)]),
                                       options={}, target=5, label="research")),
        await table.run(initiative.start(table.deps, table.ctx(STORYTELLER))),
        await table.run(show_help(table.deps, table.ctx(ALICE))),
        await table.run(rolls.odds(table.deps, table.ctx(ALICE), _ask(3))),
        await _roll(table, 8, 3, 2, 5, 4),
        await table.run(stats.stats(table.deps, table.ctx(ALICE))),
    ]

    for recorder in said:
        for message in recorder.said:
            assert message.message.embed is None, message.text
            assert 0 < len(message.message.content or "") <= CONTENT_LIMIT


def test_a_plain_message_too_long_for_discord_is_cut_at_a_line_and_says_so() -> None:
    embed = discord.Embed(title="Big", description="\n".join(f"line {n:04}" for n in range(400)))
    text = plain(Message(content="above", embed=embed)).content or ""

    assert len(text) <= CONTENT_LIMIT
    assert text.startswith("above\n**Big**\nline 0000\n")
    assert text.endswith("\n… (the rest does not fit a plain message: ask an admin to turn"
                         " plain off)")
    assert text.splitlines()[-2].startswith("line ")  # cut between lines, not inside one


def balanced(text: str) -> bool:
    """Whether every bold, strike-through and code mark of ``text`` is closed."""
    return all(text.count(mark) % 2 == 0 for mark in ("**", "~~", "`"))


def test_a_plain_message_cut_inside_a_line_keeps_its_markdown_balanced() -> None:
    """A card whose dice are one line longer than a message, with no line break to cut
    at, is cut between two dice, not inside one, and leaves no bold, strike-through or
    code open (which made the rest of Discord's message bold, or showed the marks); a
    help page cut into several messages inside a line closes what it cut open in one
    message and opens it again in the next."""
    dice = " ".join(["**10**", "~~1~~", "3", "`x y`"] * 150)
    text = plain(Message(embed=discord.Embed(title="Big", description=dice))).content or ""

    assert len(text) <= CONTENT_LIMIT
    kept = text.splitlines()[1]
    assert balanced(kept)
    assert set(kept.split(" ")) <= {"**10**", "~~1~~", "3", "`x", "y`"}
    assert kept.endswith(("**10**", "~~1~~", "3", "y`"))

    bold = "**" + " ".join(["word"] * 1000) + "**"
    pieces = shaped_in_full(Message(embed=discord.Embed(description=bold)),
                            ChannelConfig(guild_id=GUILD, channel_id=CHANNEL, plain=True))
    assert len(pieces) == 3
    for piece in pieces:
        content = piece.content or ""
        assert len(content) <= CONTENT_LIMIT
        assert content.startswith("**word") and content.endswith("word**")
    assert sum((p.content or "").count("word") for p in pieces) == 1000


def test_a_plain_roll_too_long_keeps_who_rolled_the_pool_and_the_ruleset() -> None:
    # 60 dice of 8-again that keep exploding: a card an embed holds, over a plain message.
    draw = random.Random(1)
    source = ScriptedFaces([draw.choice([1, 8, 9, 10, 10, 10]) for _ in range(3000)])
    result = roll(RollRequest(ruleset=Ruleset.COFD, terms=(Term(label="Brawl", value=60),),
                              again="8"), source)
    embed = roll_embed(result, roller="Ada", label="hold the line", roll_id=7)
    assert len(embed_text(embed)) > CONTENT_LIMIT

    text = plain(Message(embed=embed)).content or ""

    assert len(text) <= CONTENT_LIMIT
    lines = text.splitlines()
    note = lines.index("… (the rest does not fit a plain message: ask an admin to turn"
                       " plain off)")
    assert lines[0] == "**🎲 hold the line: Exceptional success**"
    assert lines[note + 1:] == [
        "**Pool**:", "Brawl 60 = 60 dice", "Options: 8-again",
        "**Rolled by**: Ada",
        "-# Roll #7 · Chronicles of Darkness (2e)",
    ]
    kept = "\n".join(lines[1:note]) + "\n"
    assert (embed.description or "").startswith(kept)  # the dice, cut between two lines


@pytest.mark.parametrize("order", list(DiceOrder))
async def test_the_roll_blocks_of_multi_a_contest_and_a_teamwork_follow_the_dice_order(
    table: Table, order: DiceOrder
) -> None:
    """`dice_order: sorted` shows every die high to low, in the roll blocks of /multi, a
    contest and a teamwork (a helper's line, the primary's roll) as on a roll card, where
    they kept the order rolled; `rolled` keeps it."""
    await table.store.write(lambda tx: tx.settings.set_channel_option(
        GUILD, CHANNEL, ChannelOption.DICE_ORDER, order))
    high_first = order is DiceOrder.SORTED

    def shown(rolled: str, in_order: str) -> str:
        return in_order if high_first else rolled

    table.faces.add(2, 9, 4, 3, 8, 5)  # Alice's 3 dice, then the opposition's 3
    said = await table.run(contest.contest(
        table.deps, table.ctx(), parts((Term(value=3),)), against=parts((Term(value=3),)),
        opponent=None, label=None, difficulty=None, opponent_difficulty=None))
    assert shown("2 **9** 4", "**9** 4 2") in said.answer.text
    assert shown("3 **8** 5", "**8** 5 3") in said.answer.text

    begun = await table.run(teamwork.start(
        table.deps, table.ctx(),
        lambda config: rolls.build_request(config.ruleset, (Term(value=3),)),
        label="lift", helper_limit=None))
    press = ids.parse(begun.answer.custom_ids[0])
    assert press is not None
    table.faces.add(1, 9)
    helped = await table.run(teamwork.form_submitted(
        table.deps, table.ctx(STORYTELLER), ids.Press(ids.Kind.POOL_FORM, "help", press.key),
        {"pool": "2"}))
    assert shown("1 **9**", "**9** 1") in helped.of("edit")[-1].text, "the helper"
    table.faces.add(2, 8, 3, 9)  # 3 dice and the helper's 1 success
    rolled = await table.run(teamwork.roll_command(table.deps, table.ctx(), label=None))
    card = rolled.of("edit")[-1].text
    assert shown("2 **8** 3 **9**", "**9** **8** 3 2") in card, "the primary's roll"

    await table.store.write(lambda tx: tx.settings.set_channel_option(
        GUILD, CHANNEL, ChannelOption.RULESET, Ruleset.V20))
    table.faces.add(2, 8, 3, 9, 5)  # 3 - 1 dice, then 5 - 2
    said = await table.run(multi.multi_actions(table.deps, table.ctx(), "3; 5"))
    assert shown("2 **8**", "**8** 2") in said.answer.text
    assert shown("3 **9** 5", "**9** 5 3") in said.answer.text
