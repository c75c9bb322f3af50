"""/contest, Roll to resist and the resist form, as flows."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from dataclasses import replace

import pytest

from bot.cogs.contest import Contest
from bot.edge import ids
from bot.flows import characters, contest
from bot.flows.contest import Opponent
from bot.flows.reply import Edit, Reply
from bot.render.contest import CONTEST_DECIDED, CONTEST_GONE, CONTEST_SCENE_ENDED
from bot.store import Tx
from bot.store.store import PostgresStore
from engine.models import Ruleset, Term
from engine.parser import NamedPart
from engine.records import ActionStatus, ChannelConfig, ChannelOption
from engine.table.contest import ContestState, ContestStatus
from tests.flows.conftest import ALICE, BOB, CHANNEL, GUILD, Recorder, Table, parts
from tests.flows.typed import INVISIBLE, kept_no_label, typed
from tests.store.conftest import warm

CARA = 3_000_000_000_000_000_006
BOB_SIDE = Opponent(BOB, "Bob")


def terms(value: int) -> tuple[NamedPart, ...]:
    return parts((Term(label=None, value=value),))


def ask(
    table: Table,
    user: int = ALICE,
    *,
    pool: int = 3,
    against: int | None = None,
    opponent: Opponent | None = None,
    label: str | None = None,
    difficulty: int | None = None,
    opponent_difficulty: int | None = None,
) -> Awaitable[Reply]:
    return contest.contest(
        table.deps, table.ctx(user), terms(pool),
        against=None if against is None else terms(against), opponent=opponent, label=label,
        difficulty=difficulty, opponent_difficulty=opponent_difficulty,
    )


def action_id(said: Recorder) -> int:
    press = ids.parse(said.answer.custom_ids[0])
    assert press is not None
    return press.key


async def resist(
    table: Table, user: int, key: int, pool: str, message_id: int | None = 901
) -> Recorder:
    press = ids.Press(ids.Kind.POOL_FORM, "resist", key)
    return await table.run(contest.pool_form_submitted(
        table.deps, table.ctx(user, message_id=message_id), press, {"pool": pool}
    ))


async def use(table: Table, ruleset: Ruleset) -> None:
    await table.store.write(lambda tx: tx.settings.set_channel_option(
        GUILD, CHANNEL, ChannelOption.RULESET, ruleset
    ))


async def test_against_the_storyteller_both_sides_roll_now_and_can_tie(table: Table) -> None:
    table.faces.add(8, 9, 2, 8, 8, 1)
    said = await table.run(ask(table, against=3, label="arm wrestle"))
    assert not said.answer.ephemeral
    assert "Tie" in said.answer.text
    assert said.answer.buttons == []
    history = await table.store.read(
        lambda tx: tx.rolls.history(GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=False)
    )
    assert [roll.label for roll in history] == ["arm wrestle", "arm wrestle"]
    assert all(roll.action_id is not None for roll in history)


@pytest.mark.parametrize("text", INVISIBLE)
async def test_a_contest_label_of_nothing_visible_is_no_label(table: Table, text: str) -> None:
    """A label of nothing visible (a zero-width space, an invisible separator, a
    combining mark alone) is no label: the card and the rolls in /history keep none, and
    a lost contest is no failed attempt for the next one with that "label"."""
    label = await typed(Contest.contest, "label", text)
    table.faces.add(2, 3, 4, 8, 8, 8)  # Alice fails, the Storyteller succeeds
    said = await table.run(ask(table, against=3, label=label))
    assert not said.answer.ephemeral
    await kept_no_label(table, text)


async def test_a_member_rolls_to_resist_and_the_card_is_decided_in_place(table: Table) -> None:
    table.faces.add(8, 9, 10, 2)  # Alice: 3 successes (the 10 explodes into a 2)
    said = await table.run(ask(table, opponent=BOB_SIDE, label="grapple"))
    assert "Waiting for **Bob**" in said.answer.text
    assert said.answer.buttons == ["Roll to resist"]
    key = action_id(said)
    assert said.answer.custom_ids == [f"sb1:resist:{key}"]

    press = ids.Press(ids.Kind.RESIST, "", key)
    cara = await table.run(contest.resist_pressed(table.deps, table.ctx(CARA), press))
    assert cara.answer.ephemeral
    assert "Only **Bob** can roll to resist" in cara.answer.text
    opened = await table.run(contest.resist_pressed(table.deps, table.ctx(BOB), press))
    assert opened.modals[0].custom_id == f"sb1:form:resist:{key}"

    table.faces.add(8, 2)
    decided = await resist(table, BOB, key, "2")
    assert decided.answer.kind == "update"
    assert "**Alice wins** by 2 successes" in decided.answer.text
    assert decided.answer.buttons == []
    record = await table.store.read(lambda tx: tx.actions.get(key))
    assert record is not None
    assert record.status is ActionStatus.CLOSED
    assert record.state(ContestState).status is ContestStatus.DECIDED

    again = await resist(table, BOB, key, "2")
    assert again.answer.ephemeral
    assert again.answer.text == CONTEST_DECIDED
    assert table.faces.left == 0


async def test_a_key_of_another_channels_contest_resists_nothing_of_it(table: Table) -> None:
    """The Roll to resist button and its form name their contest by its key, and the card
    is posted in the contest's channel: a key of another channel's or server's contest (a
    forged custom_id) is answered as a contest this table does not know, as a teamwork's
    or an extended action's is, so the opponent decides nothing from elsewhere with a sheet
    of another server, and nothing is rolled."""
    table.faces.add(8, 9, 2)
    key = action_id(await table.run(ask(table, opponent=BOB_SIDE)))
    before = await table.store.read(lambda tx: tx.actions.get(key))
    for elsewhere in ({"channel_id": CHANNEL + 1}, {"guild_id": GUILD + 1}):
        ctx = replace(table.ctx(BOB), **elsewhere)
        opened = await table.run(contest.resist_pressed(
            table.deps, ctx, ids.Press(ids.Kind.RESIST, "", key)))
        table.faces.add(8, 8)
        submitted = await table.run(contest.pool_form_submitted(
            table.deps, ctx, ids.Press(ids.Kind.POOL_FORM, "resist", key), {"pool": "2"}))
        for said in (opened, submitted):
            assert said.answer.ephemeral
            assert said.answer.text == CONTEST_GONE
        assert table.faces.left == 2
        table.faces.draw(2)
    assert await table.store.read(lambda tx: tx.actions.get(key)) == before


async def test_two_resist_forms_at_once_decide_the_contest_once(table: Table) -> None:
    """Both submissions read the contest waiting; the one written second finds it decided
    (on PostgreSQL the check of what it read misses at COMMIT, and its write runs again
    and reads it) and is told so."""
    table.faces.add(8, 9, 10, 2)
    key = action_id(await table.run(ask(table, opponent=BOB_SIDE, label="grapple")))
    table.faces.add(8, 2)  # one resist's dice: a second would run out
    said = await asyncio.gather(*(resist(table, BOB, key, "2") for _ in range(2)))

    answers = sorted((each.answer for each in said), key=lambda answer: answer.ephemeral)
    assert "**Alice wins** by 2 successes" in answers[0].text
    assert answers[1].ephemeral
    assert answers[1].text == CONTEST_DECIDED
    record = await table.store.read(lambda tx: tx.actions.get(key))
    assert record is not None
    assert record.version == 2
    history = await table.store.read(
        lambda tx: tx.rolls.history(GUILD, CHANNEL, viewer_id=BOB, viewer_is_storyteller=True)
    )
    assert [roll.roller_id for roll in history] == [BOB, ALICE]


async def test_a_contest_needs_exactly_one_other_side(table: Table) -> None:
    for options, says in (
        ({}, "Name the other side"),
        ({"against": 3, "opponent": BOB_SIDE}, "not both"),
        ({"opponent": Opponent(ALICE, "Alice")}, "cannot contest yourself"),
        ({"opponent": Opponent(CARA, "A bot", bot=True)}, "A bot cannot roll to resist"),
        ({"against": 3, "opponent_difficulty": 6}, "does not apply to the cofd ruleset"),
    ):
        said = await table.run(ask(table, **options))
        assert said.answer.ephemeral
        assert says in said.answer.text
    assert table.faces.left == 0
    count = await table.store.read(
        lambda tx: len(tx.rolls.history(GUILD, CHANNEL, viewer_id=ALICE,
                                        viewer_is_storyteller=True))
    )
    assert count == 0


async def test_v20_difficulties_reach_both_sides(table: Table) -> None:
    await use(table, Ruleset.V20)
    table.faces.add(7, 8, 9, 2, 3)
    said = await table.run(ask(
        table, pool=5, opponent=BOB_SIDE, difficulty=7, opponent_difficulty=6
    ))
    key = action_id(said)
    table.faces.add(6, 1, 2, 3)
    decided = await resist(table, BOB, key, "4")
    assert "4 dice at difficulty 6" in decided.answer.text
    assert "**Alice wins** by 3 successes" in decided.answer.text


async def test_v20_contest_refuses_a_difficulty_of_ten_on_either_side(table: Table) -> None:
    """RULES.md §2: each side of a resisted roll has a difficulty of at most 9, whatever
    the command lets a member type; nothing is rolled or kept (the option's name comes
    escaped, as the reason of every contest refusal does)."""
    await use(table, Ruleset.V20)
    for options, says in (
        ({"against": 3, "difficulty": 10}, "difficulty 10 is out of range: it must be 2 to 9"),
        ({"against": 3, "opponent_difficulty": 10},
         "opponent\\_difficulty 10 is out of range: it must be 2 to 9"),
        ({"opponent": BOB_SIDE, "opponent_difficulty": 10},
         "opponent\\_difficulty 10 is out of range: it must be 2 to 9"),
    ):
        said = await table.run(ask(table, **options))
        assert said.answer.ephemeral
        assert says in said.answer.text
    assert table.faces.left == 0
    assert await table.store.read(lambda tx: tx.actions.get(1)) is None


async def test_a_fistful_contest_is_an_action_of_the_turn(table: Table) -> None:
    await use(table, Ruleset.FISTFUL)
    await table.store.write(
        lambda tx: tx.attempts.save_turn_actions(GUILD, CHANNEL, ALICE, old=0, new=1)
    )
    table.faces.add(8, 8, 2, 2)  # 3 dice - 1: Alice; then 2 for the opposition
    said = await table.run(ask(table, against=2))
    assert "-1 die: successive action this turn" in said.answer.text
    turns = await table.store.read(lambda tx: tx.attempts.turn_actions(GUILD, CHANNEL, ALICE))
    assert turns == 2


async def test_a_contest_refused_by_the_tables_penalties_says_how_and_who_clears_them(
    table: Table,
) -> None:
    """A roll refused because of the table's state says which adjustments led there and
    who can reset them, as /roll's, an extended roll's and a teamwork roll's do (a member
    left with a bare "the pool is 0" could not tell it came from earlier actions): the
    `fistful` Successive Action Penalty, and a `v20` retry of a labelled contest raised to
    difficulty 10. Nothing is rolled or kept."""
    await use(table, Ruleset.FISTFUL)
    await table.store.write(
        lambda tx: tx.attempts.save_turn_actions(GUILD, CHANNEL, ALICE, old=0, new=1)
    )
    said = await table.run(ask(table, pool=1, against=2))
    assert said.answer.ephemeral
    assert "How the pool got there: 1; -1 die: successive action this turn." in said.answer.text
    assert "`/turn next`" in said.answer.text
    await use(table, Ruleset.V20)
    table.faces.add(2, 3, 4, 7, 7, 7)
    await table.run(ask(table, against=3, label="arm wrestle", difficulty=9))
    said = await table.run(ask(table, against=3, label="arm wrestle", difficulty=9))
    assert said.answer.ephemeral
    assert "difficulty +1: trying again after a failure" in said.answer.text
    assert "trying “arm wrestle” again" in said.answer.text
    assert table.faces.left == 0
    history = await table.store.read(lambda tx: tx.rolls.history(
        GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=False))
    assert len(history) == 2  # the first contest's two sides


async def test_a_fistful_resist_is_an_action_of_the_resisting_character(table: Table) -> None:
    """RULES.md §3 counts a character's actions: the resist is rolled as the opponent's
    active character, so it is that character's next action this turn, not the one after
    the member's own rolls without a sheet (nor another character's)."""
    await use(table, Ruleset.FISTFUL)
    for name in ("Bors", "Kay"):
        await table.run(characters.create(table.deps, table.ctx(BOB), name))
    kay = await table.store.read(lambda tx: tx.characters.active(GUILD, BOB, CHANNEL))
    assert kay is not None and kay.name == "Kay"
    await table.store.write(lambda tx: (
        tx.attempts.save_turn_actions(GUILD, CHANNEL, BOB, old=0, new=2),
        tx.attempts.save_turn_actions(GUILD, CHANNEL, BOB, kay.id, old=0, new=1)))
    table.faces.add(8, 8, 2)
    key = action_id(await table.run(ask(table, opponent=BOB_SIDE)))
    table.faces.add(8, 2)  # 3 dice - 1: Kay's second action

    decided = await resist(table, BOB, key, "3")

    assert "-1 die: successive action this turn" in decided.answer.text
    turns = await table.store.read(lambda tx: (
        tx.attempts.turn_actions(GUILD, CHANNEL, BOB),
        tx.attempts.turn_actions(GUILD, CHANNEL, BOB, kay.id)))
    assert turns == (2, 2)


async def test_end_for_scene_closes_pending_contests_and_drops_their_button(
    table: Table,
) -> None:
    table.faces.add(8, 2)
    waiting = await table.run(ask(table, pool=2, opponent=BOB_SIDE))
    key = action_id(waiting)
    table.faces.add(8, 8)
    await table.run(ask(table, pool=1, against=1))  # decided: untouched
    config = ChannelConfig(guild_id=GUILD, channel_id=CHANNEL, text_only=True)

    def end(tx: Tx) -> tuple[int, tuple[Edit, ...]]:
        return contest.end_for_scene(tx, tx.actions.find_open(GUILD, CHANNEL), config)

    closed, edits = await table.store.write(end)
    assert closed == 1
    assert [edit.message_id for edit in edits] == [901]
    card = edits[0].message
    assert card.view is None
    assert "The scene ended" in (card.embed.description or "")  # type: ignore[union-attr]
    assert "⚔" not in (card.embed.title or "")  # type: ignore[union-attr]
    record = await table.store.read(lambda tx: tx.actions.get(key))
    assert record is not None
    assert record.state(ContestState).status is ContestStatus.SCENE_ENDED

    press = ids.Press(ids.Kind.RESIST, "", key)
    late = await table.run(contest.resist_pressed(table.deps, table.ctx(BOB), press))
    assert late.answer.text == CONTEST_SCENE_ENDED
    assert await table.store.write(end) == (0, ())


async def test_contests_saved_before_schema_versions_still_load(table: Table) -> None:
    table.faces.add(8, 2)
    waiting = await table.run(ask(table, pool=2, opponent=BOB_SIDE))
    record = await table.store.read(lambda tx: tx.actions.get(action_id(waiting)))
    assert record is not None
    legacy = record.state_json.replace('"schema_version":1,', "").replace(
        ',"status":"waiting"', ""
    )
    assert "status" not in legacy
    old = ContestState.model_validate_json(legacy)
    assert old.status is ContestStatus.WAITING
    table.faces.add(8, 8)
    against = await table.run(ask(table, pool=1, against=1))
    assert "Tie" in against.answer.text
    rows = await table.store.read(lambda tx: tx.actions.find_open(GUILD, CHANNEL))
    assert [row.id for row in rows] == [record.id]  # a decided contest is closed at once
    done = await table.store.read(lambda tx: tx.actions.get(record.id + 1))
    assert done is not None
    legacy_done = done.state_json.replace('"schema_version":1,', "").replace(
        ',"status":"decided"', ""
    )
    assert ContestState.model_validate_json(legacy_done).status is ContestStatus.DECIDED


# --- successive attempts: a labelled contest counts by its verdict -----------------------------

_ACTOR_FACES = {Ruleset.COFD: (8, 2), Ruleset.V20: (8, 2, 3)}
"""Alice's 3 dice after one failure at the action, 1 success: cofd rolls 2 of them (-1
die), v20 all 3 at difficulty 7 (+1)."""
_OPPONENT_FACES = {"won": (2, 3, 4), "lost": (8, 8, 2), "tied": (8, 2, 3)}
"""The other side's 3 dice, at 8 or 6: 0, 2 or 1 successes against Alice's 1."""
_PENALTY = {Ruleset.COFD: "-{} dice: trying again after a failure",
            Ruleset.V20: "difficulty +{}: trying again after a failure"}


async def _grapple_failures(table: Table, user: int = ALICE) -> int:
    standing = await table.store.read(lambda tx: tx.attempts.standing(
        GUILD, CHANNEL, user, label="grapple", turn=False, will=False))
    return standing.failures


@pytest.mark.parametrize("verdict", ["won", "lost", "tied"])
@pytest.mark.parametrize("side", ["storyteller", "member"])
@pytest.mark.parametrize("ruleset", [Ruleset.COFD, Ruleset.V20], ids=["cofd", "v20"])
async def test_a_labelled_contest_counts_as_an_attempt_by_its_verdict(
    table: Table, ruleset: Ruleset, side: str, verdict: str
) -> None:
    """RULES.md §1 and §2: a labelled contest is the actor's attempt at that action, and
    successive attempts count it by the verdict, not by the actor's roll alone
    (**Decision**, both rulesets: won, the action succeeded and the count starts over;
    lost or tied, it failed: one more. `v20`'s "a tie: neither succeeds"; in `cofd` a lost
    contest is a failed action and a tie is nobody winning). Alice, one failure behind at
    "grapple", rolls 1 success each time; against the Storyteller's dice the /contest
    counts it, against Bob his resist does (Alice's row, not his). Her next attempt
    carries no penalty after a win, the second step after a loss or a tie."""
    await use(table, ruleset)
    await table.store.write(lambda tx: tx.attempts.save_failures(
        GUILD, CHANNEL, ALICE, "grapple", old=0, new=1))
    table.faces.add(*_ACTOR_FACES[ruleset])
    if side == "storyteller":
        table.faces.add(*_OPPONENT_FACES[verdict])
        decided = await table.run(ask(table, against=3, label="grapple"))
    else:
        waiting = await table.run(ask(table, opponent=BOB_SIDE, label="grapple"))
        assert await _grapple_failures(table) == 1  # undecided: not counted yet
        table.faces.add(*_OPPONENT_FACES[verdict])
        decided = await resist(table, BOB, action_id(waiting), "3")
        assert await _grapple_failures(table, BOB) == 0
    assert _PENALTY[ruleset].format(1).replace("dice", "die") in decided.answer.text
    won = verdict == "won"
    assert ("Alice wins" in decided.answer.text) is won
    assert await _grapple_failures(table) == (0 if won else 2)

    table.faces.add(*([2] * 6))  # the retry, against 3 dice of the Storyteller's
    retry = await table.run(ask(table, against=3, label="grapple"))
    assert not retry.answer.ephemeral
    assert ("trying again after a failure" in retry.answer.text) is not won
    if not won:
        assert _PENALTY[ruleset].format(2) in retry.answer.text


async def test_a_contest_left_undecided_counts_no_attempt(table: Table) -> None:
    """A contest the scene ended before the opponent resisted was decided by no one: the
    actor's count at its action stays as it was, whatever the actor rolled."""
    table.faces.add(2, 3, 4)  # Alice fails her roll
    await table.run(ask(table, opponent=BOB_SIDE, label="grapple"))
    config = ChannelConfig(guild_id=GUILD, channel_id=CHANNEL, text_only=True)
    closed, _edits = await table.store.write(lambda tx: contest.end_for_scene(
        tx, tx.actions.find_open(GUILD, CHANNEL), config))
    assert closed == 1
    assert await _grapple_failures(table) == 0


async def test_a_fistful_contest_counts_its_action_of_the_turn_whatever_the_verdict(
    table: Table,
) -> None:
    """`fistful` has no successive attempts (RULES.md §3: its penalty is the Successive
    Action Penalty, counted per roll): a lost labelled contest adds no die to lose on the
    next, and each side rolled is one more action this turn, as before."""
    await use(table, Ruleset.FISTFUL)
    table.faces.add(2, 3, 4)  # Alice: nothing
    waiting = await table.run(ask(table, opponent=BOB_SIDE, label="grapple"))
    table.faces.add(8, 8, 2)
    lost = await resist(table, BOB, action_id(waiting), "3")
    assert "Bob" in lost.answer.text
    table.faces.add(*([2] * 5))
    retry = await table.run(ask(table, against=3, label="grapple"))
    assert "trying again after a failure" not in retry.answer.text
    assert "-1 die: successive action this turn" in retry.answer.text
    turns = await table.store.read(lambda tx: (
        tx.attempts.turn_actions(GUILD, CHANNEL, ALICE),
        tx.attempts.turn_actions(GUILD, CHANNEL, BOB)))
    assert turns == (2, 1)


async def test_a_resist_and_a_roll_of_the_actor_at_once_both_count(table: Table) -> None:
    """Bob's resist reads Alice's count at the contest's action with the contest, and its
    write has it checked: a roll of Alice's at the same action written in between (a
    failure) is not lost (on PostgreSQL the check misses at COMMIT and the resist's write
    runs again, reading it; on SQLite it is read in the write). The tied contest and the
    failed roll are two failures, in whichever order they land."""
    table.faces.add(2, 3, 4)  # Alice: nothing
    key = action_id(await table.run(ask(table, opponent=BOB_SIDE, label="grapple")))
    table.faces.add(*([2] * 12))  # Bob ties at 0; Alice's roll fails
    await asyncio.gather(
        resist(table, BOB, key, "3"),
        table.run(ask(table, against=2, label="grapple")),
    )
    assert await _grapple_failures(table) == 2


async def test_a_resist_counting_the_actor_s_failure_reads_once_and_writes_with_its_commit(
    table: Table,
) -> None:
    """The actor's count is read in the resist form's one statement (beside the contest)
    and written with its COMMIT: a lost contest costs the resist no round trip more than
    test_round_trips' won one (two on a warm PostgreSQL store: the read, the COMMIT; on
    SQLite one trip each)."""
    store = table.store
    counted = []
    # Alice: 1 success, with -1 die more each time; the third resist is counted, once
    # each statement it sends (the count's INSERT, then its UPDATE) is prepared
    for faces in ((8, 2, 3), (8, 2), (8,)):
        table.faces.add(*faces)
        key = action_id(await table.run(ask(table, opponent=BOB_SIDE, label="grapple")))
        if isinstance(store, PostgresStore):
            await warm(store)
        start = store.round_trips if isinstance(store, PostgresStore) else store.trips
        table.faces.add(8, 8)  # Bob: 2
        assert "Bob wins" in (await resist(table, BOB, key, "2")).answer.text
        counted.append((store.round_trips if isinstance(store, PostgresStore)
                        else store.trips) - start)
    assert counted[2] == 2
    assert await _grapple_failures(table) == 3
