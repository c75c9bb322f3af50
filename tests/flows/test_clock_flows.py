"""/scene end, /turn next and /night as flows: the Storyteller's, decided in one read."""

from __future__ import annotations

from typing import Any

from bot.flows import characters, clock, rolls, will
from bot.render.messages import NOT_STORYTELLER
from bot.store import Tx
from engine.models import Ruleset, Term
from engine.records import ChannelOption, WillPool
from tests.flows.conftest import ALICE, BOB, CHANNEL, GUILD, STORYTELLER, Table
from tests.store.conftest import will_pools


async def _roll(table: Table, *faces: int, label: str | None = None) -> None:
    terms = (Term(value=len(faces)),)
    table.faces.add(*faces)
    await table.run(rolls.roll(
        table.deps, table.ctx(ALICE),
        lambda config: rolls.build_request(config.ruleset, terms),
        label=label, private=False,
    ))


async def test_scene_end_resets_attempts_and_closes_open_rolls(table: Table) -> None:
    await _roll(table, 2, 3, label="climb")
    said = await table.run(clock.scene_end(table.deps, table.ctx(STORYTELLER)))
    assert not said.answer.ephemeral
    assert "scene ends" in said.answer.text
    assert "1 action reset" in said.answer.text
    assert "1 open roll closed" in said.answer.text
    edits = said.of("edit")
    assert [edit.target for edit in edits] == [901]
    assert edits[0].buttons == []
    failures = await table.store.read(
        lambda tx: tx.attempts.standing(
            GUILD, CHANNEL, ALICE, label="climb", turn=False, will=False
        ).failures
    )
    assert failures == 0


async def test_a_roll_between_the_scene_end_s_read_and_its_write_is_closed_too(
    table: Table,
) -> None:
    """The scene's end read Alice's open roll with the settings; Bob rolls before it
    writes (PostgreSQL's check of the rolls read misses, and the write runs again,
    reading them as they close): both close, as on SQLite."""
    await _roll(table, 2, 3, label="climb")
    store, write = table.store, table.store.write

    async def bob_first(body: Any) -> Any:  # once, before the scene end's write
        if store.write is bob_first:
            store.write = write  # type: ignore[method-assign]
            table.faces.add(8, 2)
            await table.run(rolls.roll(
                table.deps, table.ctx(BOB),
                lambda config: rolls.build_request(config.ruleset, (Term(value=2),)),
                label=None, private=False,
            ))
        return await write(body)

    store.write = bob_first  # type: ignore[method-assign]
    try:
        said = await table.run(clock.scene_end(table.deps, table.ctx(STORYTELLER)))
    finally:
        store.write = write  # type: ignore[method-assign]

    assert "2 open rolls closed" in said.answer.text
    assert len(said.of("edit")) == 2
    history = await table.store.read(lambda tx: tx.rolls.history(
        GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=True))
    assert [roll.closed for roll in history] == [True, True]


async def test_only_the_storyteller_ends_the_scene_and_nothing_changes(table: Table) -> None:
    await _roll(table, 2, 3, label="climb")
    before = table.store.trips
    said = await table.run(clock.scene_end(table.deps, table.ctx(ALICE)))
    assert table.store.trips - before == 1, "the refusal costs the one read"
    assert said.answer.ephemeral
    assert said.answer.text == NOT_STORYTELLER
    record = await table.store.read(lambda tx: tx.rolls.get(1))
    assert record is not None
    assert not record.closed


async def test_next_turn_resets_the_fistful_penalty_and_closes_will_buttons(
    table: Table,
) -> None:
    def fistful(tx: Tx) -> None:
        tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, Ruleset.FISTFUL)

    await table.store.write(fistful)
    await _roll(table, 8, 8, 8)
    said = await table.run(clock.turn_next(table.deps, table.ctx(STORYTELLER)))
    assert "Next turn" in said.answer.text
    assert "1 open roll closed" in said.answer.text
    assert said.of("edit")[0].buttons == []
    actions = await table.store.read(lambda tx: tx.attempts.turn_actions(GUILD, CHANNEL, ALICE))
    assert actions == 0


async def test_next_turn_names_the_successive_action_penalty_only_where_it_is_a_rule(
    table: Table,
) -> None:
    """RULES.md §3: the Successive Action Penalty is `fistful`'s; at a `cofd` or `v20`
    table `/turn next` closes the open rolls and says only that."""
    for ruleset in (Ruleset.COFD, Ruleset.V20):
        def use(tx: Tx, ruleset: Ruleset = ruleset) -> None:
            tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, ruleset)

        await table.store.write(use)
        await _roll(table, 2, 3)
        said = await table.run(clock.turn_next(table.deps, table.ctx(STORYTELLER)))
        assert said.answer.text == "**Next turn.** 1 open roll closed."


async def test_scene_end_names_only_what_starts_over_at_the_table_s_ruleset(
    table: Table,
) -> None:
    """RULES.md §1–§3: successive attempts are `cofd`'s and `v20`'s, the turn count (the
    Successive Action Penalty) `fistful`'s; `/scene end` says only the one the table has."""
    said: dict[Ruleset, str] = {}
    for ruleset in (Ruleset.COFD, Ruleset.V20, Ruleset.FISTFUL):
        def use(tx: Tx, ruleset: Ruleset = ruleset) -> None:
            tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, ruleset)

        await table.store.write(use)
        await _roll(table, 2, 3, label="climb")
        scene = await table.run(clock.scene_end(table.deps, table.ctx(STORYTELLER)))
        said[ruleset] = scene.answer.text

    assert said == {
        Ruleset.COFD: "**The scene ends.** Successive attempts start over (1 action reset),"
        " and 1 open roll closed.",
        Ruleset.V20: "**The scene ends.** Successive attempts start over (1 action reset),"
        " and 1 open roll closed.",
        Ruleset.FISTFUL: "**The scene ends.** The Successive Action Penalty starts over,"
        " and 1 open roll closed.",
    }


async def test_only_the_storyteller_moves_the_turn(table: Table) -> None:
    said = await table.run(clock.turn_next(table.deps, table.ctx(BOB)))
    assert said.answer.text == NOT_STORYTELLER


async def test_a_storyteller_role_grants_the_clock(table: Table) -> None:
    await table.store.write(lambda tx: tx.settings.set_storyteller(GUILD, 77, None))
    said = await table.run(clock.turn_next(table.deps, table.ctx(BOB, roles=[77])))
    assert "Next turn" in said.answer.text


async def test_the_night_gives_every_pool_below_its_maximum_one(table: Table) -> None:
    await table.run(will.set_pool(table.deps, table.ctx(ALICE), 5, 1))
    await table.run(will.set_pool(table.deps, table.ctx(BOB), 4))
    said = await table.run(clock.night(table.deps, table.ctx(STORYTELLER)))
    assert not said.answer.ephemeral
    assert said.answer.text == f"**Night falls.** 1 Will regained by <@{ALICE}>."
    pools = await table.store.read(lambda tx: will_pools(tx, GUILD))
    assert {(pool.user_id, pool.current) for pool in pools} == {(ALICE, 2), (BOB, 4)}


async def _sheet(table: Table, name: str, user: int, *, npc: bool = False) -> None:
    """A new sheet with its Will spent (0 of 2), so that the night gives it one."""
    await table.run(characters.create(table.deps, table.ctx(user), name, npc=npc))

    def spend(tx: Tx) -> None:
        (record,) = [each for each in tx.characters.named(GUILD, name) if each.owner_id == user]
        pool = record.will_pool()
        assert tx.will.save(pool, pool.model_copy(update={"current": 0}))

    await table.store.write(spend)


async def test_the_night_names_each_character_and_each_members_own_pool_once(
    table: Table,
) -> None:
    """RULES.md §6: Will is the character's. The night names each character that regained
    (an NPC by its name, not its Storyteller) and each member whose own pool did, once,
    though a member has both."""
    await table.run(will.set_pool(table.deps, table.ctx(ALICE), 5, 1))
    await _sheet(table, "Mara", ALICE)
    await _sheet(table, "Nell", ALICE)
    await _sheet(table, "Goon_1", STORYTELLER, npc=True)
    said = await table.run(clock.night(table.deps, table.ctx(STORYTELLER)))
    assert said.answer.text == (
        f"**Night falls.** 1 Will regained by <@{ALICE}>, Mara, Nell, Goon\\_1."
    )


async def test_a_night_over_a_big_server_names_twenty_and_counts_the_rest(
    table: Table,
) -> None:
    """The message stays within Discord's 2,000 characters whatever the server's size."""

    def pools(tx: Tx) -> None:
        for user in range(1, 31):
            tx.will.save(None, WillPool(guild_id=GUILD, user_id=user, current=0, maximum=3))

    await table.store.write(pools)
    said = await table.run(clock.night(table.deps, table.ctx(STORYTELLER)))
    assert said.answer.text.count("<@") == 20
    assert said.answer.text.endswith(", 10 more.")
    assert len(said.answer.text) <= 2000


async def test_a_night_where_no_will_is_tracked_says_how_to_track_it(table: Table) -> None:
    """The first /night of a new server, where no member set a pool and no sheet exists:
    the table is told none is tracked and how a player tracks theirs, where it said every
    tracked pool was already full."""
    said = await table.run(clock.night(table.deps, table.ctx(STORYTELLER)))
    assert said.answer.text == (
        "**Night falls.** No Will is tracked in this server yet, so none was regained: each"
        " player sets theirs with /will set max:<n>, and a character sheet keeps its own."
    )


async def test_a_night_where_every_pool_is_full_says_so(table: Table) -> None:
    await table.run(will.set_pool(table.deps, table.ctx(ALICE), 3))
    said = await table.run(clock.night(table.deps, table.ctx(STORYTELLER)))
    assert said.answer.text == "**Night falls.** Every tracked Will pool is already full."


async def test_only_the_storyteller_brings_the_night(table: Table) -> None:
    await table.run(will.set_pool(table.deps, table.ctx(ALICE), 5, 1))
    said = await table.run(clock.night(table.deps, table.ctx(ALICE)))
    assert said.answer.text == NOT_STORYTELLER
    pool = await table.store.read(lambda tx: tx.will.get(GUILD, ALICE))
    assert pool == WillPool(guild_id=GUILD, user_id=ALICE, current=1, maximum=5)


async def test_a_clock_command_says_nothing_of_what_it_did_not_touch(table: Table) -> None:
    """No "0 open rolls closed" or "0 actions reset" in the play channel."""
    scene = await table.run(clock.scene_end(table.deps, table.ctx(STORYTELLER)))
    turn = await table.run(clock.turn_next(table.deps, table.ctx(STORYTELLER)))
    night = await table.run(clock.night(table.deps, table.ctx(STORYTELLER)))

    assert scene.answer.text == "**The scene ends.** Successive attempts start over."
    assert turn.answer.text == "**Next turn.**", "cofd has no Successive Action Penalty"
    assert night.answer.text.startswith("**Night falls.** No Will is tracked in this server")
