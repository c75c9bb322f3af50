"""`/stats` and `/stats export` as a table uses them (real SQLite, scripted dice)."""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from functools import partial
from typing import Any

import pytest

from bot.edge import ids
from bot.flows import characters, history, rolls
from bot.flows import help as help_flow
from bot.flows import stats as stats_flow
from bot.flows.context import Ctx
from bot.flows.stats import Member, stats
from bot.render import lang
from bot.render.message import TOO_LONG
from bot.render.stats import CHART_NAME, EXPORT_BYTES, EXPORT_NAME, export_csv
from bot.store.stats import MAX_EXPORT
from engine.faces import ScriptedFaces
from engine.models import Again, RollRequest, Ruleset, Term
from engine.offers import will_state_for
from engine.records import ChannelConfig, ChannelOption
from engine.roll import roll as roll_dice
from engine.stats import LoggedRoll
from tests.flows.conftest import ALICE, BOB, CHANNEL, GUILD, STORYTELLER, Recorder, Table

PNG = b"\x89PNG\r\n\x1a\n"


async def _roll(table: Table, faces: list[int], *, user: int = ALICE, private: bool = False,
                label: str | None = None) -> None:
    table.faces.add(*faces)
    pool = (Term(label="Wits", value=len(faces)),)
    await table.run(rolls.roll(
        table.deps, table.ctx(user),
        lambda config: rolls.build_request(config.ruleset, pool),
        label=label, private=private,
    ))


async def _bulk(table: Table, faces: list[int], times: int, *, user: int = ALICE) -> None:
    """Many rolls of the same faces (no-again) in one write, through the store's own insert."""
    request = RollRequest(ruleset=Ruleset.COFD, terms=(Term(value=len(faces)),),
                          again=Again.NONE)
    config = ChannelConfig(guild_id=GUILD, channel_id=CHANNEL)

    def write(tx: object) -> None:
        for _ in range(times):
            result = roll_dice(request, ScriptedFaces(faces))
            tx.rolls.insert(  # type: ignore[attr-defined]
                guild_id=GUILD, channel_id=CHANNEL, roller_id=user, result=result,
                will_state=will_state_for(result, config),
            )

    await table.store.write(write)


async def test_stats_counts_the_tables_rolls_with_a_chart(table: Table) -> None:
    await _roll(table, [8, 2, 3])
    await _roll(table, [1, 1], user=BOB)
    said = await table.run(stats(table.deps, table.ctx()))
    answer = said.answer
    assert answer.ephemeral
    assert "2 rolls, 5 dice" in answer.text
    assert "Success: 1" in answer.text
    assert "Failure: 1" in answer.text
    assert "Everyone's rolls in this channel" in answer.text
    assert answer.message.file is not None
    assert answer.message.file.name == CHART_NAME
    assert answer.message.file.data.startswith(PNG)


async def test_the_charts_title_is_a_members_name_as_typed(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The chart is an image, not markdown: its title reads the member's name as typed
    (the embed's title escapes it, as every name in a message is)."""
    titles: list[str] = []
    drawn = stats_flow.stats_chart_png

    def spy(reports: Any, *, title: str) -> bytes:
        titles.append(title)
        return drawn(reports, title=title)

    monkeypatch.setattr(stats_flow, "stats_chart_png", spy)
    table.speak(None)
    await _roll(table, [8, 2, 3], user=BOB)
    said = await table.run(stats(table.deps, table.ctx(), member=Member(BOB, "Dark_Knight*")))
    assert titles == ["Dark_Knight*'s rolls in this channel"]
    assert "Dark\\_Knight\\*'s rolls in this channel" in said.answer.text


async def test_small_samples_say_how_many_more_rolls_are_needed(table: Table) -> None:
    await _roll(table, [8, 2, 3])
    said = await table.run(stats(table.deps, table.ctx()))
    assert "Too few dice for a verdict on the faces yet (3 dice): about 33 more rolls" \
        in said.answer.text
    assert "Too few rolls to compare outcomes" in said.answer.text


async def test_one_roll_one_die_and_one_more_roll_are_singular(table: Table) -> None:
    """English counts one roll, one die and one more roll in the singular; the wait's plural
    follows the rolls still needed, not the dice or rolls counted so far."""
    table.speak(None)
    await _roll(table, [8])
    text = (await table.run(stats(table.deps, table.ctx()))).answer.text
    exported = (await table.run(stats(table.deps, table.ctx(), export=True))).answer.text
    assert "Too few dice for a verdict on the faces yet (1 die): about 99 more rolls needed."\
        in text
    assert "Too few rolls to compare outcomes with the odds yet (1 roll): about" in text
    assert exported.startswith("The roll log of your rolls in this channel: 1 roll, newest")
    await _bulk(table, [8, 2, 3, 4, 5], 54)  # with the one die: one roll short of a verdict
    text = (await table.run(stats(table.deps, table.ctx()))).answer.text
    assert "odds yet (55 rolls): about 1 more roll needed." in text


async def test_fair_looking_dice_are_called_fair_with_p_and_sample(table: Table) -> None:
    await _bulk(table, [*range(1, 11), *range(1, 11)], 20)
    said = await table.run(stats(table.deps, table.ctx()))
    assert "These dice look fair (p = 1.00 over 400 dice)" in said.answer.text


async def test_loaded_dice_are_unusual_never_rigged(table: Table) -> None:
    await _bulk(table, [1, 1, 1, 2, 3, 4, 5, 6, 7, 8], 20)
    text = (await table.run(stats(table.deps, table.ctx()))).answer.text
    assert "Unusual: 1s came up 30.0% of the time, 10.0% expected (p < 0.0001 over 200 dice);"\
        " this happens by chance less than 1 time in a million." in text
    assert "rigged" not in text.lower()


async def test_others_secret_rolls_count_only_for_the_storyteller_and_their_roller(
    table: Table,
) -> None:
    await _roll(table, [8, 2, 3])
    await _roll(table, [9, 9], user=BOB, private=True)
    alice = (await table.run(stats(table.deps, table.ctx(ALICE)))).answer.text
    bob = (await table.run(stats(table.deps, table.ctx(BOB)))).answer.text
    storyteller = (await table.run(stats(table.deps, table.ctx(STORYTELLER)))).answer.text
    alice_on_bob = (await table.run(stats(
        table.deps, table.ctx(ALICE), member=Member(BOB, "Bob")))).answer
    assert "1 roll, 3 dice" in alice
    assert "2 rolls, 5 dice" in bob
    assert "2 rolls, 5 dice" in storyteller
    assert alice_on_bob.message.content == "No rolls to count for Bob's rolls in this channel yet."


async def test_a_storyteller_by_role_counts_others_secret_rolls_and_no_other_role_does(
    table: Table,
) -> None:
    """The counters' statement tests the server's Storyteller role itself (the role whole,
    over the server too); Manage Channels alone says nothing of the whole server."""
    await table.store.write(lambda tx: tx.settings.set_storyteller(GUILD, 77, None))
    await _roll(table, [8, 2, 3])
    await _roll(table, [9, 9], user=BOB, private=True)

    async def seen(ctx: Ctx, **options: Any) -> str:
        return (await table.run(stats(table.deps, ctx, **options))).answer.text

    assert "2 rolls, 5 dice" in await seen(table.ctx(ALICE, roles=[5, 77]))
    assert "2 rolls, 5 dice" in await seen(table.ctx(ALICE, roles=[77]), scope="server")
    assert "1 roll, 2 dice" in await seen(table.ctx(ALICE, roles=[77]),
                                          member=Member(BOB, "Bob"))
    assert "No rolls to count" in await seen(table.ctx(ALICE, roles=[7]),
                                             member=Member(BOB, "Bob"))
    for roles in ([], [7], [177], [770]):
        assert "1 roll, 3 dice" in await seen(table.ctx(ALICE, roles=roles)), roles
    assert "1 roll, 3 dice" in await seen(table.ctx(STORYTELLER), scope="server")
    assert "2 rolls, 5 dice" in await seen(table.ctx(STORYTELLER))


async def test_a_voided_roll_no_longer_counts(table: Table) -> None:
    await _roll(table, [8, 2, 3])
    await _roll(table, [8, 8])
    await table.run(history.history(table.deps, table.ctx(STORYTELLER), void=2))
    said = await table.run(stats(table.deps, table.ctx()))
    assert "1 roll, 3 dice · Will never spent" in said.answer.text


async def test_will_spent_is_counted_and_outcomes_are_compared_as_first_rolled(
    table: Table,
) -> None:
    await _roll(table, [2, 3])
    table.faces.add(8, 4, 5)
    await table.run(rolls.spend_will_pressed(table.deps, table.ctx(), 1))
    text = (await table.run(stats(table.deps, table.ctx()))).answer.text
    assert "1 roll, 5 dice · Will spent 1 time" in text
    assert "Success: 1" in text  # as it reads now
    assert "Failure: 100.0% rolled" in text  # as first rolled


async def test_rolls_that_could_only_succeed_say_there_is_nothing_to_compare(
    table: Table,
) -> None:
    """v20 rolls with Will declared, or automatic successes, can have one outcome only: no
    number of them makes an outcome verdict (engine.stats says 0 more rolls), so the reply
    says there is nothing to compare with the odds, where it said "about 0 more rolls
    needed"; rolls with a chance beside them are compared again."""

    def v20(**options: Any) -> rolls.Ask:
        return lambda _: RollRequest(ruleset=Ruleset.V20, terms=(Term(value=3),), **options)

    table.faces.add(2, 3, 4)
    await table.run(rolls.roll(table.deps, table.ctx(), v20(auto=True, difficulty=3),
                               label=None, private=False))
    table.faces.add(1, 1, 1)
    await table.run(rolls.roll(table.deps, table.ctx(), v20(will=True), label=None,
                               private=False))
    text = (await table.run(stats(table.deps, table.ctx()))).answer.text
    assert "Nothing to compare with the odds: every roll counted here could have only one" \
        " outcome" in text
    assert "0 more" not in text
    table.faces.add(2, 3, 4)
    await table.run(rolls.roll(table.deps, table.ctx(), v20(), label=None, private=False))
    mixed = (await table.run(stats(table.deps, table.ctx()))).answer.text
    assert "Nothing to compare" not in mixed
    assert "Too few rolls to compare outcomes with the odds yet (3 rolls)" in mixed


async def test_ruleset_and_server_scope(table: Table) -> None:
    await _roll(table, [8, 2, 3])
    other = table.ctx(channel_id=CHANNEL + 1)
    table.faces.add(9)
    await table.run(rolls.roll(
        table.deps, other,
        lambda _: RollRequest(ruleset=Ruleset.V20, terms=(Term(value=1),)),
        label=None, private=False,
    ))
    reader = replace(table.ctx(), readable=frozenset({CHANNEL + 1}))
    here = (await table.run(stats(table.deps, table.ctx()))).answer.text
    server = (await table.run(stats(table.deps, reader, scope="server"))).answer.text
    v20 = (await table.run(stats(table.deps, reader, scope="server",
                                 ruleset="v20"))).answer.text
    assert "Classic World of Darkness" not in here
    assert "Chronicles of Darkness" in server
    assert "Classic World of Darkness" in server
    assert "Chronicles of Darkness" not in v20


async def test_server_totals_count_others_rolls_only_where_the_member_can_read(
    table: Table,
) -> None:
    """Over the whole server, a member who is not the Storyteller counts the rolls of the
    channels and threads they can read (Ctx.readable, worked out by the edge; this channel
    at least): the Storyteller's roll behind a "GM screen" is in no total they see, with
    the Storyteller named or not, or their totals before and after would tell its faces.
    A server Storyteller (Manage Server, or the server's role) counts every channel; a
    member's own rolls, asked for by themselves, count wherever they made them."""
    screen = CHANNEL + 7
    await table.store.write(lambda tx: tx.settings.set_storyteller(GUILD, 77, None))
    await _roll(table, [8, 2, 3])
    table.faces.add(8, 8, 9, 7)
    await table.run(rolls.roll(
        table.deps, table.ctx(STORYTELLER, channel_id=screen),
        lambda config: rolls.build_request(config.ruleset, (Term(value=4),)),
        label="ambush", private=False))
    table.faces.add(1)
    await table.run(rolls.roll(
        table.deps, table.ctx(ALICE, channel_id=screen),
        lambda config: rolls.build_request(config.ruleset, (Term(value=1),)),
        label=None, private=False))
    storyteller = Member(STORYTELLER, "Storyteller")

    async def seen(ctx: Ctx, **options: Any) -> str:
        return (await table.run(stats(table.deps, ctx, scope="server", **options))).answer.text

    # Alice rolled behind the screen once, then lost sight of it.
    alice = table.ctx(ALICE)
    assert "No rolls to count" in await seen(alice, member=storyteller)
    assert "1 roll, 3 dice" in await seen(alice)
    assert "2 rolls, 4 dice" in await seen(alice, member=Member(ALICE, "Alice"))
    invited = replace(alice, readable=frozenset({screen}))
    assert "1 roll, 4 dice" in await seen(invited, member=storyteller)
    assert "3 rolls, 8 dice" in await seen(invited)
    for server_storyteller in (replace(alice, manages_guild=True), table.ctx(ALICE, roles=[77])):
        assert "1 roll, 4 dice" in await seen(server_storyteller, member=storyteller)
        assert "3 rolls, 8 dice" in await seen(server_storyteller)


async def test_since_is_checked_and_applied(table: Table) -> None:
    await _roll(table, [8, 2, 3])
    bad = await table.run(stats(table.deps, table.ctx(), since="last week"))
    assert bad.answer.ephemeral
    assert "is not a date: give `since` as YYYY-MM-DD" in (bad.answer.message.content or "")
    future = await table.run(stats(table.deps, table.ctx(), since="2999-01-01"))
    assert (future.answer.message.content or "").startswith(
        "No rolls to count for everyone's rolls in this channel yet.")
    week = await table.run(stats(table.deps, table.ctx(), since="7d"))
    assert "1 roll, 3 dice" in week.answer.text


async def test_nothing_counted_since_a_day_or_of_a_ruleset_says_the_option_left_rolls_out(
    table: Table,
) -> None:
    """A table with rolls that asks `since` a day after them, or for a ruleset not rolled
    here, is told which option left them out and how to count them all, where the answer
    read "No rolls to count ... yet" as if the channel had none."""
    await _roll(table, [8, 2, 3])
    later = await table.run(stats(table.deps, table.ctx(), since="2999-01-01"))
    assert later.answer.ephemeral
    assert later.answer.text == (
        "No rolls to count for everyone's rolls in this channel yet. Only rolls from"
        " January 1, 2999 on count here: leave out `since` to count them all.")
    other = await table.run(stats(table.deps, table.ctx(), ruleset="v20",
                                  member=Member(ALICE, "Alice")))
    assert other.answer.text == (
        "No rolls to count for Alice's rolls in this channel yet. Only Classic World of"
        " Darkness (V20 / Dark Ages) rolls count here: leave out `ruleset` to count every"
        " ruleset's.")
    none = await table.run(stats(table.deps, table.ctx(), member=Member(BOB, "Bob")))
    assert none.answer.text == "No rolls to count for Bob's rolls in this channel yet."


async def test_since_the_last_days_a_date_can_name_is_answered(table: Table) -> None:
    """`since` takes any YYYY-MM-DD; a day in December 9999 (a month with no month after
    it) is answered like any day in the future: nothing counted yet, for a count or a log."""
    await _roll(table, [8, 2, 3])
    counted = await table.run(stats(table.deps, table.ctx(), since="9999-12-31"))
    logged = await table.run(stats(table.deps, table.ctx(), since="9999-12-31", export=True))
    assert counted.answer.text.startswith("No rolls to count")
    assert "0 rolls" in logged.answer.text
    december = await table.run(stats(table.deps, table.ctx(), since="2024-12-31"))
    assert "1 roll, 3 dice" in december.answer.text


async def test_forged_choices_are_refused(table: Table) -> None:
    said = await table.run(stats(table.deps, table.ctx(), scope="galaxy"))
    assert said.answer.message.content == "scope “galaxy” is not one of: `channel`, `server`."


def _csv(said_file: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(said_file.decode("utf-8-sig"))))


async def test_export_gives_a_member_their_own_rows(table: Table) -> None:
    await _roll(table, [8, 2, 3], label="=HYPERLINK(\"x\")")
    await _roll(table, [9, 9], user=BOB, private=True)
    said = await table.run(stats(table.deps, table.ctx(), export=True))
    file = said.answer.message.file
    assert file is not None
    assert file.name == EXPORT_NAME
    rows = _csv(file.data)
    assert [(row["roller_id"], row["faces"], row["outcome"]) for row in rows] == [
        (str(ALICE), "8 2 3", "success")]
    assert rows[0]["label"].startswith("'=")  # no spreadsheet runs it
    refused = await table.run(stats(table.deps, table.ctx(), export=True,
                                    member=Member(BOB, "Bob")))
    assert "only the Storyteller can export another member's" in (
        refused.answer.message.content or "")


async def test_export_keeps_numbers_as_numbers_and_names_the_character(table: Table) -> None:
    """Only members' text is kept from running as a formula: a chance die's pool (-2) stays
    a number a spreadsheet sums; a roll names its character, deleted since or not (COMMANDS:
    the sheet's past rolls stay in the log under its name)."""
    await table.run(characters.create(table.deps, table.ctx(), "Mara"))
    table.faces.add(5)
    await table.run(rolls.roll(
        table.deps, table.ctx(),
        lambda config: rolls.build_request(config.ruleset, (Term(value=-2),)),
        label="-sneak", private=False))
    confirm = ids.parse((await table.run(characters.delete(table.deps, table.ctx())))
                        .answer.custom_ids[0])
    assert confirm is not None
    await table.run(characters.pressed(table.deps, table.ctx(), confirm))
    said = await table.run(stats(table.deps, table.ctx(), export=True))
    assert said.answer.message.file is not None
    (row,) = _csv(said.answer.message.file.data)
    assert (row["dice"], row["label"], row["character"]) == ("-2", "'-sneak", "Mara")
    assert list(row)[-1] == "character", "a column added later goes last"


async def test_export_gives_the_storyteller_the_channels_log(table: Table) -> None:
    await _roll(table, [8, 2, 3])
    await _roll(table, [9, 9], user=BOB, private=True)
    said = await table.run(stats(table.deps, table.ctx(STORYTELLER), export=True))
    assert said.answer.message.file is not None
    rows = _csv(said.answer.message.file.data)
    assert [(row["roller_id"], row["secret"]) for row in rows] == [(str(BOB), "1"),
                                                                    (str(ALICE), "0")]
    server = await table.run(stats(table.deps, table.ctx(STORYTELLER), export=True,
                                   scope="server"))
    assert "The export lists this channel's log" in (server.answer.message.content or "")


@pytest.mark.parametrize(("locale", "sentence"), [
    ("pt-BR", "deixe `scope` de fora (ou use `scope:canal`)."),
    ("es-ES", "omite `scope` (o usa `scope:canal`)."),
])
async def test_the_export_refusal_names_the_scope_as_the_members_client_shows_it(
    table: Table, locale: str, sentence: str
) -> None:
    """A server-wide export is refused naming the scope to use as the member's Discord
    lists /stats' scope choices (canal, servidor), where a Portuguese or Spanish answer
    said `scope:channel`, a choice their list does not show."""
    table.speak(locale, locale)
    await _roll(table, [8, 2, 3])
    server = await table.run(stats(table.deps, table.ctx(STORYTELLER), export=True,
                                   scope="server"))
    assert server.answer.ephemeral
    assert server.answer.text.endswith(sentence)
    assert "channel" not in server.answer.text


async def test_export_gives_a_storyteller_by_role_the_log_and_no_other_role(
    table: Table,
) -> None:
    await table.store.write(lambda tx: tx.settings.set_storyteller(GUILD, 77, None))
    await _roll(table, [8, 2, 3])
    await _roll(table, [9, 9], user=BOB, private=True)

    async def exported(roles: list[int], member: Member | None = None) -> Recorder:
        return await table.run(stats(table.deps, table.ctx(ALICE, roles=roles), export=True,
                                     member=member))

    def rollers(said: Recorder) -> list[str]:
        assert said.answer.message.file is not None
        return [row["roller_id"] for row in _csv(said.answer.message.file.data)]

    assert rollers(await exported([77])) == [str(BOB), str(ALICE)]
    assert rollers(await exported([77], Member(BOB, "Bob"))) == [str(BOB)]
    assert rollers(await exported([7])) == [str(ALICE)]
    assert rollers(await exported([7], Member(ALICE, "Alice"))) == [str(ALICE)]
    refused = await exported([770], Member(BOB, "Bob"))
    assert refused.answer.message.file is None
    assert "only the Storyteller can export another member's" in (
        refused.answer.message.content or "")


async def test_an_export_too_big_for_one_file_keeps_the_newest_rolls_and_says_so(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file holds what Discord takes (render.stats.EXPORT_BYTES, made small here): the
    newest rolls that fit, the older left out, and the reply counts what it holds and
    says older rolls are left out; a log that fits whole says nothing of the kind."""
    for faces in ([8, 2, 3], [9, 9], [1, 4], [7, 7, 7]):
        await _roll(table, faces)
    whole = await table.run(stats(table.deps, table.ctx(), export=True))
    assert whole.answer.message.file is not None
    size = len(whole.answer.message.file.data)
    assert "Older rolls are left out" not in whole.answer.text
    last_row = len(whole.answer.message.file.data.splitlines(keepends=True)[-1])
    monkeypatch.setattr(stats_flow, "export_csv",
                        partial(export_csv, limit=size - last_row))
    said = await table.run(stats(table.deps, table.ctx(), export=True))
    assert said.answer.message.file is not None
    assert len(said.answer.message.file.data) <= size - last_row
    assert [row["faces"] for row in _csv(said.answer.message.file.data)] == [
        "7 7 7", "1 4", "9 9"]
    assert said.answer.text == (
        "The roll log of your rolls in this channel: 3 rolls, newest first, void ones marked."
        " Older rolls are left out: only the newest 3 fit in one file.")


def test_a_full_export_of_big_rolls_fits_in_an_attachment_discord_takes() -> None:
    """MAX_EXPORT rolls of 100 dice that explode and reroll (about 15 MiB of CSV in full)
    give a file within Discord's 10 MiB of a server without boosts: the newest that fit."""
    rows = [LoggedRoll(
        id=MAX_EXPORT - n, created_at="2024-05-01T20:00:00.000Z", roller_id=ALICE,
        roller_name="N" * 32, ruleset="cofd", label="L" * 100, private=False, void=False,
        dice=100, outcome="exceptional_success", successes=60, will="none", beat=False,
        faces=" ".join(["10"] * 250), character="C" * 64) for n in range(MAX_EXPORT)]
    data, listed = export_csv(rows)
    assert len(data) <= EXPORT_BYTES <= 10 * 2**20
    assert 0 < listed < MAX_EXPORT
    kept = _csv(data)
    assert len(kept) == listed
    assert [row["roll"] for row in kept[:2]] == [str(MAX_EXPORT), str(MAX_EXPORT - 1)]


async def test_an_export_of_more_rolls_than_one_read_takes_says_older_ones_are_left_out(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At most MAX_EXPORT rolls are read (made 2 here): a log of 2 is whole, one of 3 is
    cut to its newest 2 and says so."""
    monkeypatch.setattr(stats_flow, "MAX_EXPORT", 2)
    await _roll(table, [8, 2, 3])
    await _roll(table, [9, 9])
    whole = await table.run(stats(table.deps, table.ctx(), export=True))
    assert "Older rolls are left out" not in whole.answer.text
    await _roll(table, [1, 4])
    said = await table.run(stats(table.deps, table.ctx(), export=True))
    assert said.answer.message.file is not None
    assert [row["faces"] for row in _csv(said.answer.message.file.data)] == ["1 4", "9 9"]
    assert said.answer.text.endswith("Older rolls are left out: only the newest 2 fit in one"
                                     " file.")


async def test_help_has_a_stats_topic(table: Table) -> None:
    said = await table.run(help_flow.show_help(table.deps, table.ctx(), "stats"))
    assert "Help: stats" in said.answer.text
    assert "/stats [member]" in said.answer.text


async def test_a_plain_report_of_three_rulesets_reaches_the_member_whole(table: Table) -> None:
    """Plain messages hold 2,000 characters: a table that rolled in every ruleset gets its
    report over several messages, as /help's long pages are, none of it cut."""
    await table.store.write(lambda tx: tx.settings.set_channel_option(
        GUILD, CHANNEL, ChannelOption.PLAIN, True))
    for ruleset in Ruleset:
        await table.store.write(lambda tx, ruleset=ruleset: tx.settings.set_channel_option(
            GUILD, CHANNEL, ChannelOption.RULESET, ruleset))
        for faces in ([1, 1, 1], [2, 3, 4], [8, 9, 10], [6, 7, 8]):
            table.faces.add(*faces, *[5] * 40)
            await _roll(table, faces)
    said = await table.run(stats(table.deps, table.ctx()))
    parts = [said.answer, *said.of("followup")]
    assert len(parts) > 1
    assert all(len(part.text) <= 2000 and part.ephemeral for part in parts)
    whole = "\n".join(part.text for part in parts)
    assert whole.count("(fistful)") >= 2, "the last ruleset's results too"
    assert lang._(TOO_LONG) not in whole
    assert said.answer.message.file is not None, "the chart with the first"
