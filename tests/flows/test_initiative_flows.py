"""/init and the initiative card's buttons, as flows: a whole fight, who may do what, bad input,
concurrent presses and the new round's effects."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.edge import ids
from bot.flows import characters, clock, initiative, rolls
from bot.flows.context import Deps
from bot.flows.reply import Edit, Reply, run
from bot.render.initiative import NO_TRACKER, TYPE_YOUR_INITIATIVE
from bot.render.messages import NOT_STORYTELLER
from bot.render.rolls import npc_not_yours
from bot.store import Tx
from engine.faces import seeded_faces
from engine.models import Ruleset, Term
from engine.records import ActionStatus, ChannelOption, TrackerRecord
from engine.table.initiative import Tracker
from tests.flows.conftest import ALICE, BOB, CHANNEL, GUILD, STORYTELLER, Recorder, Table, parts


def pool(value: int) -> tuple[Term, ...]:
    return (Term(value=value),)


async def use(table: Table, ruleset: Ruleset) -> None:
    await table.store.write(lambda tx: tx.settings.set_channel_option(
        GUILD, CHANNEL, ChannelOption.RULESET, ruleset
    ))


async def record(table: Table) -> TrackerRecord:
    def read(tx: Tx) -> TrackerRecord | None:
        return tx.initiative.get(1)

    found = await table.store.read(read)
    assert found is not None
    return found


async def tracker(table: Table) -> Tracker:
    return (await record(table)).state(Tracker)


async def start(table: Table) -> Recorder:
    said = await table.run(initiative.start(table.deps, table.ctx(STORYTELLER)))
    assert not said.answer.ephemeral
    return said


async def join(table: Table, user: int, value: int, *faces: int, modifier: int = 0) -> Recorder:
    table.faces.add(*faces)
    return await table.run(
        initiative.join(table.deps, table.ctx(user), parts(pool(value)), modifier))


async def add(table: Table, name: str, value: int, *faces: int, count: int | None = None,
              modifier: int = 0, user: int = STORYTELLER) -> Recorder:
    table.faces.add(*faces)
    return await table.run(initiative.add(
        table.deps, table.ctx(user), name, pool(value), modifier=modifier, count=count
    ))


async def press(table: Table, user: int, label: str, *, turn: int | None = None) -> Recorder:
    """Press a button of the card as it stands now (or as drawn at ``turn``)."""
    now = await record(table)
    state = now.state(Tracker)
    action = {"Join": "join", "Next": "next", "Delay": "delay", "Act now": "act",
              "End": "end"}[label]
    pressed = ids.Press(ids.Kind.INITIATIVE_CARD, action, now.id,
                        state.turn if turn is None else turn)
    return await table.run(initiative.card_pressed(
        table.deps, table.ctx(user, message_id=now.message_id), pressed
    ))


def acting_line(said: Recorder) -> str:
    return next(line for line in said.answer.text.splitlines() if line.startswith("▶"))


async def unchanged(table: Table, version: int) -> None:
    assert (await record(table)).version == version


# --- a whole fight ------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", list(Ruleset))
async def test_a_storyteller_runs_a_whole_fight_from_the_card(
    table: Table, ruleset: Ruleset
) -> None:
    await use(table, ruleset)
    said = await start(table)
    assert said.answer.buttons == ["Join", "End"]
    assert "Gathering" in said.answer.text
    assert (await record(table)).message_id == 901
    if ruleset is Ruleset.FISTFUL:  # 6-10 succeed on initiative
        alice = await join(table, ALICE, 2, 6, 7)  # 2 successes
        await join(table, BOB, 3, 9, 2, 1)  # 1 success
        await add(table, "Orc", 1, 3)  # 0 successes
    else:
        alice = await join(table, ALICE, 5, 9)  # 14
        await join(table, BOB, 4, 6)  # 10
        await add(table, "Orc", 3, 3)  # 6
    assert "Alice" in alice.answer.text and not alice.answer.ephemeral
    assert alice.of("edit")[0].target == 901, "the card is brought up to date in place"
    assert table.faces.left == 0

    said = await press(table, STORYTELLER, "Next")
    assert said.answer.kind == "update"
    assert said.answer.buttons == ["Join", "Next", "Delay", "End"]
    assert "round 1" in said.answer.text and "Alice" in acting_line(said)

    said = await press(table, ALICE, "Delay")
    assert "Bob" in acting_line(said) and said.answer.buttons[-2:] == ["Act now", "End"]
    assert "Delayed (1)" in said.answer.text
    said = await press(table, ALICE, "Act now")
    assert "Alice" in acting_line(said)
    said = await press(table, ALICE, "Next")
    assert "Bob" in acting_line(said)
    said = await press(table, BOB, "Next")
    assert "Orc" in acting_line(said)
    said = await press(table, STORYTELLER, "Next")
    assert "round 2" in said.answer.text
    state = await tracker(table)
    assert [state.combatant(cid).name for cid in state.order] == ["Alice", "Bob", "Orc"]

    said = await press(table, STORYTELLER, "End")
    assert said.answer.buttons == [] and "The fight is over" in said.answer.text
    assert (await record(table)).status is ActionStatus.CLOSED
    said = await press(table, BOB, "Next")
    assert said.answer.kind == "update" and said.answer.buttons == []
    assert "over" in said.of("followup")[0].text and said.of("followup")[0].ephemeral


async def test_a_press_of_next_makes_two_trips(table: Table) -> None:
    await start(table)
    await join(table, ALICE, 5, 5)
    now = await record(table)
    pressed = ids.Press(ids.Kind.INITIATIVE_CARD, "next", now.id, now.state(Tracker).turn)
    before = table.store.trips
    said = await table.run(initiative.card_pressed(table.deps, table.ctx(STORYTELLER), pressed))
    assert table.store.trips - before == 2
    assert "Alice" in acting_line(said)


async def test_commands_run_the_fight_too(table: Table) -> None:
    await start(table)
    await join(table, ALICE, 5, 5)
    await add(table, "Guards", 3, 9, 1, count=2)  # Guards 1: 12, Guards 2: 4
    said = await table.run(initiative.next_turn(table.deps, table.ctx(STORYTELLER)))
    assert said.answer.text == "Round 1: **Guards 1** acts. New round: open rolls close."
    said = await table.run(initiative.remove(table.deps, table.ctx(STORYTELLER), "guards 1"))
    assert "Leaves the fight: Guards 1." in said.answer.text and "**Alice** acts" in \
        said.answer.text
    said = await table.run(initiative.next_turn(table.deps, table.ctx(ALICE)))
    assert "**Guards 2** acts" in said.answer.text
    said = await table.run(initiative.end(table.deps, table.ctx(STORYTELLER)))
    assert "over" in said.answer.text
    said = await table.run(initiative.next_turn(table.deps, table.ctx(STORYTELLER)))
    assert said.answer.text == NO_TRACKER and said.answer.ephemeral


# --- who may do what ----------------------------------------------------------------------------


async def test_only_the_storyteller_starts_adds_removes_and_ends(table: Table) -> None:
    said = await table.run(initiative.start(table.deps, table.ctx(ALICE)))
    assert said.answer.text == NOT_STORYTELLER and said.answer.ephemeral
    await start(table)
    await join(table, BOB, 3, 3)
    version = (await record(table)).version
    for said in (
        await add(table, "Orc", 3, user=ALICE),
        await table.run(initiative.remove(table.deps, table.ctx(ALICE), "Bob")),
        await table.run(initiative.end(table.deps, table.ctx(ALICE))),
        await press(table, ALICE, "Next"),  # starting round 1 is the Storyteller's
    ):
        assert said.answer.ephemeral and "only the storyteller" in said.answer.text.lower()
    await unchanged(table, version)


async def test_players_pass_only_their_own_turn_and_delay_only_their_own(table: Table) -> None:
    await start(table)
    await join(table, ALICE, 5, 9)
    await join(table, BOB, 4, 6)
    await press(table, STORYTELLER, "Next")  # Alice acts
    version = (await record(table)).version
    for label in ("Next", "Delay"):
        said = await press(table, BOB, label)
        assert said.answer.ephemeral and "It is Alice's turn" in said.answer.text
    said = await press(table, BOB, "Act now")
    assert said.answer.ephemeral and "no delayed combatant" in said.answer.text
    await unchanged(table, version)


async def test_a_second_tracker_is_refused_with_a_link_to_the_first(table: Table) -> None:
    await start(table)
    said = await table.run(initiative.start(table.deps, table.ctx(STORYTELLER)))
    assert said.answer.ephemeral
    assert f"https://discord.com/channels/{GUILD}/{CHANNEL}/901" in said.answer.text


# --- a deleted card -----------------------------------------------------------------------------


def card_edit(reply: Reply) -> Edit:
    """The edit of the tracker's card among a reply's (the only one in these tests)."""
    [edit] = reply.edits
    return edit


async def test_a_deleted_card_is_posted_again_by_the_next_command_and_remembered(
    table: Table,
) -> None:
    """A card whose message was deleted comes back with the next command that updates it:
    the edit offers to post it afresh (the responder does when Discord says the message is
    unknown), the tracker remembers the new message, and later commands edit that one. Of
    two commands that both found it gone, the second copy is not remembered (it is
    deleted), so one card stays."""
    await start(table)
    await join(table, ALICE, 5, 9)
    first = card_edit(await initiative.next_turn(table.deps, table.ctx(STORYTELLER)))
    table.faces.add(6)
    second = card_edit(await initiative.join(table.deps, table.ctx(BOB), parts(pool(4)), 0))
    assert first.message_id == second.message_id == 901
    assert first.reposted is not None and second.reposted is not None

    assert await first.reposted(950)
    assert (await record(table)).message_id == 950
    assert not await second.reposted(951), "the first copy already took the card's place"
    assert (await record(table)).message_id == 950
    said = await table.run(initiative.next_turn(table.deps, table.ctx(ALICE)))
    assert said.of("edit")[0].target == 950 and "**Bob** acts" in said.of("edit")[0].text
    said = await table.run(initiative.start(table.deps, table.ctx(STORYTELLER)))
    assert f"https://discord.com/channels/{GUILD}/{CHANNEL}/950" in said.answer.text


async def test_starting_again_brings_back_the_running_trackers_deleted_card(
    table: Table,
) -> None:
    """/init start where a fight runs is refused with a link to its card as ever, and brings
    that card up to date, so a deleted one is posted again (the refusal costs one edit; a
    start that opens a tracker, none)."""
    await start(table)
    await join(table, ALICE, 5, 9)
    version = (await record(table)).version
    reply = await initiative.start(table.deps, table.ctx(STORYTELLER))
    assert reply.ephemeral and reply.message is not None and reply.message.content is not None
    assert "already has an initiative tracker" in reply.message.content
    edit = card_edit(reply)
    assert edit.message_id == 901 and edit.reposted is not None
    assert edit.message.embed is not None and "Alice" in str(edit.message.embed.description)
    assert await edit.reposted(950)
    await unchanged(table, version)
    assert (await record(table)).message_id == 950


async def test_an_ended_fights_deleted_card_stays_gone(table: Table) -> None:
    """Once the fight is over there is nothing to play on its card: its last edit posts
    nothing if the card was deleted, and a copy posted for a move made before the end is
    not remembered (it is deleted)."""
    await start(table)
    await join(table, ALICE, 5, 9)
    before = card_edit(await initiative.next_turn(table.deps, table.ctx(STORYTELLER)))
    ended = card_edit(await initiative.end(table.deps, table.ctx(STORYTELLER)))
    assert ended.reposted is None
    assert before.reposted is not None and not await before.reposted(950)
    assert (await record(table)).message_id == 901


async def test_a_card_never_remembered_is_posted_by_the_next_command_and_remembered(
    table: Table,
) -> None:
    """When /init start's card was shown but its message id was not saved (the write failed,
    or Discord gave no id), the next command that updates the card posts it instead (an
    edit of no message, offering to post) and the tracker remembers the new one, as for a
    deleted card: of two such posts the second is not remembered (it is deleted), later
    commands edit the one kept, and a refused /init start links to it. A refused start
    before then posts it too."""
    await initiative.start(table.deps, table.ctx(STORYTELLER))  # its id never remembered
    assert (await record(table)).message_id is None
    refused = card_edit(await initiative.start(table.deps, table.ctx(STORYTELLER)))
    table.faces.add(9)
    first = card_edit(await initiative.join(table.deps, table.ctx(ALICE), parts(pool(5)), 0))
    assert refused.message_id is None and first.message_id is None
    assert first.message.embed is not None and "Alice" in str(first.message.embed.description)
    assert refused.reposted is not None and first.reposted is not None

    assert await first.reposted(950)
    assert (await record(table)).message_id == 950
    assert not await refused.reposted(951), "the first post already is the card"
    assert (await record(table)).message_id == 950
    said = await table.run(initiative.next_turn(table.deps, table.ctx(STORYTELLER)))
    assert said.of("edit")[0].target == 950 and "**Alice** acts" in said.of("edit")[0].text
    said = await table.run(initiative.start(table.deps, table.ctx(STORYTELLER)))
    assert f"https://discord.com/channels/{GUILD}/{CHANNEL}/950" in said.answer.text


async def test_an_ended_fight_without_a_remembered_card_posts_none(table: Table) -> None:
    """A fight that ends with no card remembered has nothing left to play on one: its end
    posts no card."""
    await initiative.start(table.deps, table.ctx(STORYTELLER))  # its id never remembered
    said = await table.run(initiative.end(table.deps, table.ctx(STORYTELLER)))
    assert said.of("edit") == []


# --- bad input ----------------------------------------------------------------------------------


async def test_joining_without_a_pool_or_a_character_says_how_to_do_either(table: Table) -> None:
    await start(table)
    said = await table.run(initiative.join(table.deps, table.ctx(ALICE), None, 0))
    assert said.answer.text == TYPE_YOUR_INITIATIVE and said.answer.ephemeral
    said = await press(table, ALICE, "Join")
    assert said.answer.text == TYPE_YOUR_INITIATIVE and said.answer.ephemeral
    await unchanged(table, 1)


@pytest.mark.parametrize("ruleset", [Ruleset.COFD, Ruleset.FISTFUL])
async def test_an_npc_joins_no_fight_for_a_member_who_is_no_storyteller_here(
    table: Table, ruleset: Ruleset
) -> None:
    """COMMANDS.md: an NPC is "usable by Storytellers". A member who made an NPC active
    where they were a Storyteller and joins a fight where they are none is refused, naming
    the NPC, as a roll of it is: its sheet's initiative (`cofd`) or the channel's
    initiative pool read from it (`fistful`); nothing rolled, the fight unchanged."""
    await use(table, ruleset)
    made = await table.run(characters.create(table.deps, table.ctx(BOB, storyteller=True),
                                             "Goblin", npc=True))
    assert "Created" in made.answer.text, made.answer.text
    await table.run(characters.use(table.deps, table.ctx(BOB, storyteller=True), "Goblin"))
    await start(table)
    table.faces.add(5, 5, 5)
    said = await table.run(initiative.join(table.deps, table.ctx(BOB), None, 0))
    assert said.answer.ephemeral
    assert said.answer.text == npc_not_yours("Goblin")
    assert table.faces.left == 3
    await unchanged(table, 1)


@pytest.mark.parametrize(
    ("name", "count", "modifier", "words"),
    [
        ("x" * 65, None, 0, "1 to 64 characters"),
        ("@everyone", None, 0, "cannot mention anyone"),
        ("Boss <@123456789012345678>", None, 0, "cannot mention anyone"),
        ("\u200b", None, 0, "one line of visible characters"),  # an empty line in the order
        ("\u3164", 3, 0, "one line of visible characters"),  # a Hangul filler: a blank too
        ("\u202eBoss", None, 0, "holds an invisible character"),  # the card turned around
        ("Orc\u200b", None, 0, "type it again by hand"),  # "Orc" to the eye, another name
        ("Horde", 21, 0, "1 to 20 combatants, not 21"),
        ("Orc", None, 11, "-10 to 10, not 11"),
    ],
)
async def test_bad_npcs_are_refused_and_nothing_changes(
    table: Table, name: str, count: int | None, modifier: int, words: str
) -> None:
    """A typed NPC name is 1 to 64 characters of safe text, as a character's name
    (engine.table.initiative.check_name): no mention, nothing that shows nothing or turns
    the card around; a refusal rolls nothing and changes nothing."""
    await start(table)
    said = await add(table, name, 3, count=count, modifier=modifier)
    assert said.answer.ephemeral and words in said.answer.text
    assert "@everyone" not in said.answer.text
    await unchanged(table, 1)
    assert table.faces.left == 0


async def test_over_fifty_combatants_and_joining_twice_are_refused(table: Table) -> None:
    await start(table)
    await join(table, ALICE, 5, 5)
    said = await join(table, ALICE, 5, 5)
    assert said.answer.ephemeral and "already in the fight as Alice" in said.answer.text
    seeded = Deps(store=table.store, faces=seeded_faces(11))  # ties: roll-offs from the seed
    for name in ("Rats", "Bats"):
        await table.run(initiative.add(seeded, table.ctx(STORYTELLER), name, pool(1),
                                       modifier=0, count=20))
    version = (await record(table)).version
    said = await add(table, "Imps", 1, count=10)
    assert said.answer.ephemeral and "at most 50 combatants, and this would make 51" in \
        said.answer.text
    await unchanged(table, version)


async def test_a_fifty_combatant_card_fits_discord(table: Table) -> None:
    await use(table, Ruleset.FISTFUL)
    await start(table)
    seeded = Deps(store=table.store, faces=seeded_faces(5))
    long = "_*" * 10 + "N" * 44  # escaping doubles the markdown
    for name in (long[:61], long[:60] + "B", long[:60] + "C"):
        said = await table.run(initiative.add(seeded, table.ctx(STORYTELLER), name, pool(30),
                                              modifier=0, count=20 if name[-1] != "C" else 10))
        assert not said.answer.ephemeral
    said = await press(table, STORYTELLER, "Next")
    embed = said.answer.message.embed
    assert embed is not None and len((await tracker(table)).order) == 50
    assert len(embed) <= 6000 and len(embed.description or "") <= 4096
    assert all(len(field.value or "") <= 1024 for field in embed.fields)
    assert embed.description is not None and embed.description.count("\n") >= 50


# --- concurrency, rounds, the scene -------------------------------------------------------------


async def test_a_hundred_presses_of_next_at_once_advance_one_turn(table: Table) -> None:
    await start(table)
    await join(table, ALICE, 5, 9)
    await join(table, BOB, 4, 6)
    await press(table, STORYTELLER, "Next")
    before = await tracker(table)
    now = await record(table)
    pressed = ids.Press(ids.Kind.INITIATIVE_CARD, "next", now.id, before.turn)
    recorders = [Recorder() for _ in range(100)]
    await asyncio.gather(*(
        run(initiative.card_pressed(table.deps, table.ctx(STORYTELLER), pressed), recorder)
        for recorder in recorders
    ))
    after = await tracker(table)
    assert after.turn == before.turn + 1
    assert after.acting is not None and after.acting.name == "Bob"
    refused = [r for r in recorders if r.of("followup")]
    assert len(refused) == 99
    assert all("already moved on" in r.of("followup")[0].text for r in refused)


async def test_two_presses_of_act_now_at_once_bring_back_one_combatant(table: Table) -> None:
    """COMMANDS.md (bad input): of concurrent presses of one button exactly one takes
    effect. The Storyteller's Act now brings back one delayed NPC; a second press of the
    same card finds the turn moved and brings back no second one."""
    await start(table)
    await add(table, "Orc", 5, 9)
    await add(table, "Gob", 4, 8)
    await add(table, "Rat", 1, 1)
    await press(table, STORYTELLER, "Next")  # Orc acts
    await press(table, STORYTELLER, "Delay")  # Gob acts
    await press(table, STORYTELLER, "Delay")  # Rat acts; Orc and Gob delayed
    now = await record(table)
    pressed = ids.Press(ids.Kind.INITIATIVE_CARD, "act", now.id, now.state(Tracker).turn)
    recorders = [Recorder() for _ in range(2)]
    await asyncio.gather(*(
        run(initiative.card_pressed(table.deps, table.ctx(STORYTELLER), pressed), recorder)
        for recorder in recorders
    ))
    after = await tracker(table)
    assert [after.combatant(cid).name for cid in after.delayed] == ["Gob"]
    assert after.acting is not None and after.acting.name == "Orc"
    refused = [r for r in recorders if r.of("followup")]
    assert len(refused) == 1 and "already moved on" in refused[0].of("followup")[0].text


async def test_a_new_round_closes_open_rolls_and_resets_the_successive_action_penalty(
    table: Table,
) -> None:
    await use(table, Ruleset.FISTFUL)
    await start(table)
    await join(table, ALICE, 2, 6, 6)
    await press(table, STORYTELLER, "Next")  # round 1: Alice
    table.faces.add(8, 8)
    await table.run(rolls.roll(
        table.deps, table.ctx(ALICE),
        lambda config: rolls.build_request(config.ruleset, pool(2)), label=None, private=False,
    ))
    assert await table.store.read(lambda tx: tx.attempts.turn_actions(GUILD, CHANNEL, ALICE)) == 1
    said = await press(table, ALICE, "Next")  # round 2
    assert "round 2" in said.answer.text
    assert [edit.buttons for edit in said.of("edit")] == [[]], "the roll lost its Spend Will"
    assert await table.store.read(lambda tx: tx.attempts.turn_actions(GUILD, CHANNEL, ALICE)) == 0


async def test_scene_end_ends_the_tracker_and_its_buttons_are_stale(table: Table) -> None:
    await start(table)
    await join(table, ALICE, 5, 5)
    said = await table.run(clock.scene_end(table.deps, table.ctx(STORYTELLER)))
    assert "initiative tracker is closed" in said.answer.text
    card = next(edit for edit in said.of("edit") if edit.target == 901)
    assert card.buttons == [] and "the scene ended" in card.text
    said = await press(table, ALICE, "Join")
    assert "over" in said.of("followup")[0].text and said.answer.buttons == []
    await start(table)  # a new fight may start


@pytest.mark.parametrize("where", ["another server", "another channel", "a thread of it"])
async def test_a_card_key_of_another_channels_tracker_changes_nothing(
    table: Table, where: str
) -> None:
    """A card is posted in its tracker's channel, so a press whose key names another
    channel's or server's tracker (a forged custom_id; tracker ids count up from 1) is
    answered as a card the bot no longer knows, whoever is the Storyteller where it was
    pressed: no fight ends, moves on or takes a combatant elsewhere (as extended actions,
    teamwork and contests refuse one: Ctx.here)."""
    await start(table)
    await join(table, ALICE, 5, 5)
    before = await record(table)
    elsewhere = {
        "another server": replace(table.ctx(BOB, storyteller=True), guild_id=GUILD + 1),
        "another channel": table.ctx(BOB, storyteller=True, channel_id=CHANNEL + 1),
        "a thread of it": table.ctx(BOB, storyteller=True, channel_id=CHANNEL + 2,
                                    parent_id=CHANNEL),
    }[where]
    for action in ("join", "next", "delay", "end"):
        table.faces.add(6)
        said = await table.run(initiative.card_pressed(table.deps, elsewhere, ids.Press(
            ids.Kind.INITIATIVE_CARD, action, before.id, before.state(Tracker).turn)))
        assert said.answer.ephemeral and said.answer.text == (
            "I no longer know this initiative tracker, so nothing was changed."), action
        assert [s.kind for s in said.said] == ["respond"], "no card is edited"
    after = await record(table)
    assert (after.status, after.version) == (ActionStatus.OPEN, before.version)


async def test_names_never_ping(table: Table) -> None:
    await start(table)
    table.faces.add(5)
    said = await table.run(initiative.join(
        table.deps, table.ctx(ALICE, name="@here Alice"), parts(pool(3)), 0
    ))
    assert "@here" not in said.answer.text and "here Alice" in said.answer.text
    card = said.of("edit")[0]
    assert "@here" not in card.text and "here Alice" in card.text


async def test_two_members_with_one_display_name_both_join(table: Table) -> None:
    """/init join takes no name: a second member shown as "Alex" joins as "Alex (2)" rather
    than being told to pick a name they cannot give."""
    await start(table)
    table.faces.add(5)
    await table.run(initiative.join(table.deps, table.ctx(ALICE, name="Alex"),
                                    parts(pool(3)), 0))
    table.faces.add(6)
    said = await table.run(initiative.join(table.deps, table.ctx(BOB, name="Alex"),
                                           parts(pool(4)), 0))
    assert not said.answer.ephemeral, said.answer.text
    assert "Alex (2)" in said.answer.text
    joined = {c.owner_id: c.label for c in (await tracker(table)).combatants}
    assert joined == {ALICE: "Alex", BOB: "Alex (2)"}
