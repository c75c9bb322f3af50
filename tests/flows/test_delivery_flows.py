"""Delivering a reply after the flow's write: what fails later never undoes the answer.

A flow that returns a reply has committed its work. A follow-up Discord refuses,
remembering the message id in a busy database, or an edit that cannot be made is
logged; the rest of the reply is still delivered, and the member is never told that
nothing changed. An answer Discord takes no more is :class:`AnswerLostError`, whose
words send the member to /history rather than to a second roll (a command that only
read changed nothing, and is simply asked again).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.edge.errors import answering_errors
from bot.flows import characters, extended, rolls, stats
from bot.flows.reply import AnswerLostError, Reply, UserError, run
from bot.render import lang
from bot.render.message import Message
from bot.render.messages import ANSWER_LOST, ANSWER_NOT_TAKEN, APOLOGY
from bot.store import StoreBusy
from engine.models import Term
from engine.table.extended import ExtendedAction
from tests.flows.conftest import ALICE, CHANNEL, COPIES, GUILD, Recorder, Table
from tests.flows.test_character_flows import create
from tests.flows.test_extended_flows import begin, press_of, stored


def ask(value: int) -> rolls.Ask:
    terms = (Term(label=None, value=value),)
    return lambda config: rolls.build_request(config.ruleset, terms)


def refused(status: int) -> discord.HTTPException:
    """What discord.py raises for an answer Discord refused with ``status``."""
    return discord.HTTPException(SimpleNamespace(status=status, reason="refused"), "refused")


@dataclass
class Failing(Recorder):
    """A responder whose answer, or whose public follow-ups, Discord refuses."""

    answer_fails: bool = False
    public_followups_fail: bool = False

    async def respond(self, message: Message, *, ephemeral: bool) -> int | None:
        if self.answer_fails:
            raise refused(404)
        return await super().respond(message, ephemeral=ephemeral)

    async def followup(self, message: Message, *, ephemeral: bool) -> None:
        if self.public_followups_fail and not ephemeral:
            raise refused(500)
        if not self.answered():  # as the edge does: nothing to follow, so posted or lost
            if not ephemeral:
                await self.post(CHANNEL, message)
            return
        await super().followup(message, ephemeral=ephemeral)


@dataclass
class Interaction:
    """Just what :func:`answering_errors` reads of an interaction, and what it said."""

    said: list[str] = field(default_factory=list)
    done: bool = False
    locale: discord.Locale = discord.Locale.american_english
    command: Any = None
    data: dict[str, Any] = field(default_factory=lambda: {"custom_id": "sb2:x"})

    async def _say(self, text: str, ephemeral: bool) -> None:
        assert ephemeral
        self.said.append(text)

    @property
    def response(self) -> Any:
        return SimpleNamespace(is_done=lambda: self.done, send_message=self._say)

    @property
    def followup(self) -> Any:
        return SimpleNamespace(send=self._say)


async def through_the_edge(flow: Awaitable[Reply], responder: Recorder) -> list[str]:
    """Run a flow as a button's callback is run: what the edge told the member on error."""
    interaction = Interaction(done=True)
    with lang.speaking(lang.personal_voice(None)):
        async with answering_errors(interaction):  # type: ignore[arg-type]
            await run(flow, responder)
    return interaction.said


def second_write_busy(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store's second write of the test (a flow's last step, after its answer) fails as
    a contended PostgreSQL write does."""
    write: Callable[..., Awaitable[Any]] = table.store.write
    writes = 0

    async def busy_second(body: Any) -> Any:
        nonlocal writes
        writes += 1
        if writes == 2:
            raise StoreBusy("contended")
        return await write(body)

    monkeypatch.setattr(table.store, "write", busy_second)


async def rolls_here(table: Table) -> list[Any]:
    return await table.store.read(lambda tx: tx.rolls.history(
        GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=True, count=10))


async def test_a_public_follow_up_refused_still_sends_the_storytellers_copy(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """A secret roll whose public notice Discord refuses: the Storyteller still gets the
    copy, and the roller, who sees the roll, is told nothing went wrong."""
    table.speak(None)
    await table.store.write(lambda tx: tx.settings.set_storyteller(GUILD, None, COPIES))
    table.faces.add(3, 4)
    shown = Failing(public_followups_fail=True)

    told = await through_the_edge(
        rolls.roll(table.deps, table.ctx(), ask(2), label="sneak", private=True), shown)

    assert [said.kind for said in shown.said] == ["respond", "post"]
    assert shown.of("post")[0].target == COPIES
    assert [roll.label for roll in await rolls_here(table)] == ["sneak"]
    assert told == []
    assert "a follow-up failed" in caplog.text


async def test_a_busy_database_after_the_answer_is_logged_not_told(
    table: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The roll is written and shown; remembering its message id then fails: the member is
    not told that nothing was saved (trying again would roll twice)."""
    table.speak(None)
    table.faces.add(3, 4)
    second_write_busy(table, monkeypatch)
    shown = Recorder()

    told = await through_the_edge(
        rolls.roll(table.deps, table.ctx(), ask(2), label="door", private=False), shown)

    assert shown.answer.kind == "respond"
    assert [roll.label for roll in await rolls_here(table)] == ["door"]
    assert told == []
    assert "the flow's last step failed" in caplog.text


async def test_an_extended_card_is_brought_up_to_date_though_its_roll_was_not_remembered(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An extended action's Roll: its write counts the roll, its message is sent, and the
    card's edit still goes out when remembering the roll's message fails."""
    table.speak(None)
    said = await begin(table)
    table.faces.add(8, 2, 2)
    second_write_busy(table, monkeypatch)
    shown = Recorder()

    told = await through_the_edge(
        extended.card_pressed(table.deps, table.ctx(message_id=901), press_of(said.answer, "Roll")),
        shown)

    assert (await stored(table)).state(ExtendedAction).state.rolls == 1
    assert shown.answer.kind == "respond"
    assert [edit.target for edit in shown.of("edit")] == [901]
    assert told == []


async def test_an_answer_discord_takes_no_more_sends_the_member_to_history(
    table: Table,
) -> None:
    """The roll is written, and then Discord refuses its answer: the flow's reply raises
    AnswerLostError, and what the edge tells the member is not "nothing was changed"."""
    table.speak(None)
    table.faces.add(3, 4)

    with pytest.raises(AnswerLostError):
        await run(rolls.roll(table.deps, table.ctx(), ask(2), label="door", private=False),
                  Failing(answer_fails=True))
    assert [roll.label for roll in await rolls_here(table)] == ["door"]

    table.faces.add(5, 6)
    interaction = Interaction()
    with lang.speaking(lang.personal_voice(None)):
        async with answering_errors(interaction):  # type: ignore[arg-type]
            await run(rolls.roll(table.deps, table.ctx(), ask(2), label="door", private=False),
                      Failing(answer_fails=True))
    assert interaction.said == [ANSWER_LOST]
    assert APOLOGY not in interaction.said


async def test_an_answer_lost_to_a_command_that_changed_nothing_says_to_try_again(
    table: Table,
) -> None:
    """A read-only command (a /stats export, deferred because the log can be long) whose
    answer Discord takes no more did nothing a second try could repeat: the member is
    told to try again, not to check /history for what "may already be done". Whether a
    flow changed something is whether a write of its committed (not a list of commands);
    the roll above, which wrote, keeps the /history advice."""
    table.speak(None)
    table.faces.add(3, 4)
    await table.run(rolls.roll(table.deps, table.ctx(), ask(2), label="door", private=False))

    told = await through_the_edge(stats.stats(table.deps, table.ctx(), export=True),
                                  Failing(answer_fails=True))

    assert told == [ANSWER_NOT_TAKEN]
    assert ANSWER_LOST not in told


async def test_an_answer_lost_to_a_look_at_a_sheet_says_to_try_again_and_a_public_show_not(
    table: Table,
) -> None:
    """/character show looks at the sheet in a read, unless shown publicly (which may mark
    the sheet public, a write): a lost private look says to try again, where its write
    transaction sent the member to /history for a change it never made."""
    table.speak(None)
    await create(table, "Mara", Wits=3)

    told = await through_the_edge(characters.show(table.deps, table.ctx()),
                                  Failing(answer_fails=True))
    assert told == [ANSWER_NOT_TAKEN]
    shown = await through_the_edge(characters.show(table.deps, table.ctx(), public=True),
                                   Failing(answer_fails=True))
    assert shown == [ANSWER_LOST]



async def test_a_secret_roll_discord_takes_no_answer_for_still_reaches_the_storyteller(
    table: Table,
) -> None:
    """Never a lost roll: a secret roll whose answer Discord refused (the roller never sees
    it) is still copied to the Storyteller's channel, with its copy remembered, and its
    public notice still posted in the channel; only then does AnswerLostError send the
    roller to /history, where the roll is."""
    table.speak(None)
    await table.store.write(lambda tx: tx.settings.set_storyteller(GUILD, None, COPIES))
    table.faces.add(3, 4)
    shown = Failing(answer_fails=True)

    with pytest.raises(AnswerLostError):
        await run(rolls.roll(table.deps, table.ctx(), ask(2), label="sneak", private=True),
                  shown)

    notice, copy = shown.said
    assert (notice.kind, notice.target, notice.ephemeral) == ("post", CHANNEL, False)
    assert "secret" in notice.text and "sneak" in notice.text
    assert (copy.kind, copy.target) == ("post", COPIES)
    assert "Failure" in copy.text
    (roll,) = await rolls_here(table)
    assert roll.label == "sneak"
    assert roll.copy_message_id is not None


async def test_a_refusal_discord_takes_no_answer_for_is_logged_as_discords_not_a_bug(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A refusal (nothing was done) whose answer Discord refuses, the interaction expired:
    the log says Discord refused it, a warning, where it logged an unhandled error with a
    traceback as for a bug of the bot's; the member, if Discord still listens, is told
    nothing was changed."""

    async def refusing() -> Reply:
        raise UserError("not like that")

    told = await through_the_edge(refusing(), Failing(answer_fails=True))

    assert told == [APOLOGY]
    assert "Discord refused the answer to component sb2:x" in caplog.text
    assert "Unhandled error" not in caplog.text
    assert all(record.exc_info is None for record in caplog.records)


@pytest.mark.parametrize("message", [
    Message(content="x" * 2001),
    Message(embed=discord.Embed(description="x" * 4097)),
    Message(embed=discord.Embed(title="x" * 257)),
])
async def test_a_message_discord_would_refuse_fails_the_flow_test(message: Message) -> None:
    """The recorder checks every message against Discord's limits, as the e2e fake does:
    a flow whose answer Discord would refuse (so the member would lose it) fails its test
    where it is drawn, not only in an e2e test that happens to reach it."""
    with pytest.raises(AssertionError, match="Discord would refuse"):
        await Recorder().respond(message, ephemeral=False)


async def test_a_form_discord_would_refuse_fails_the_flow_test() -> None:
    form = discord.ui.Modal(title="x" * 46, custom_id="form")
    form.add_item(discord.ui.TextInput(label="Name", custom_id="name"))
    with pytest.raises(AssertionError, match="Discord would refuse"):
        await Recorder().open_modal(form)
