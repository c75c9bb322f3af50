"""Character sheets in the store: per server and owner, the active one, Will and Beats."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import Conflict, Store, Tx
from bot.store.characters import CharacterRepository, by_name
from bot.store.repository import Viewer
from bot.store.rolls import Pressed, RollRepository
from bot.store.settings import NOBODY
from engine import will
from engine.characters import new_sheet, set_traits
from engine.models import Ruleset
from engine.records import ChannelConfig, CharacterRecord, WillPool, WillState
from tests.store.conftest import (
    CHANNEL,
    CODE_POINT_NAMES,
    CODE_POINT_ORDER,
    GUILD,
    OTHER,
    OTHER_CHANNEL,
    ROLLER,
    beats,
    failure,
    names_compared_as_a_language,
    will_pools,
)

OTHER_GUILD = 1_000_000_000_000_000_009


async def _create(store: Store, name: str = "Alice", owner: int = ROLLER,
                  guild: int = GUILD) -> CharacterRecord:
    record = await store.write(lambda tx: tx.characters.insert(
        guild, owner, new_sheet(name, Ruleset.COFD)))
    assert record is not None
    return record


async def test_a_sheet_is_stored_and_read_back_whole(store: Store) -> None:
    record = await _create(store)
    assert await store.read(lambda tx: tx.characters.get(record.id)) == record


async def test_an_owner_cannot_have_two_sheets_of_one_name_but_others_can(store: Store) -> None:
    await _create(store, "Alice")
    again = await store.write(lambda tx: tx.characters.insert(
        GUILD, ROLLER, new_sheet("ALICE", Ruleset.COFD)))
    assert again is None
    assert await _create(store, "Alice", owner=OTHER)
    sheets = CharacterRepository.count_query(GUILD, ROLLER)
    assert await store.read(lambda tx: tx.queries.one(sheets)) == 1
    named = await store.read(lambda tx: tx.characters.named(GUILD, "alice"))
    assert [r.owner_id for r in named] == [ROLLER, OTHER]


async def test_sheets_are_listed_by_their_names_code_points_whatever_the_servers_collation(
    store: Store, store_target: Path | str
) -> None:
    """The Storyteller's /character list and the names autocomplete offers come by the
    name's key in code-point order on both stores, as a member's own list is sorted in
    Python (``by_name``), even where PostgreSQL's collation is a language's (en_US in
    compose.yaml), which would put 'Łukasz' beside 'Lara' and 'Ørjan' beside 'Olga'."""
    async with names_compared_as_a_language(store_target):
        for number, name in enumerate(CODE_POINT_NAMES):
            await _create(store, name, owner=(ROLLER, OTHER)[number % 2])
        every = await store.read(lambda tx: tx.characters.names(GUILD))
        seen = await store.read(lambda tx: tx.characters.names_seen(
            Viewer(GUILD, OTHER, storyteller=True)))
        own = await store.read(lambda tx: tx.characters.names(GUILD, ROLLER))

    assert [n.name for n in every] == CODE_POINT_ORDER
    assert [n.name for n in seen] == CODE_POINT_ORDER
    assert [n.name for n in by_name(reversed(every))] == CODE_POINT_ORDER
    assert [n.name for n in own] == [n for n in CODE_POINT_ORDER if n in CODE_POINT_NAMES[::2]]


async def test_the_active_character_is_per_server_and_a_channel_pin_wins_there(
    store: Store
) -> None:
    first, second = await _create(store, "First"), await _create(store, "Second")

    def use(tx: Tx) -> None:
        tx.characters.use(GUILD, ROLLER, first.id)
        tx.characters.use(GUILD, ROLLER, second.id, channel_id=OTHER_CHANNEL)

    await store.write(use)

    def active(channel: int, parent: int | None = None, guild: int = GUILD) -> str | None:
        async def read() -> str | None:
            record = await store.read(
                lambda tx: tx.characters.active(guild, ROLLER, channel, parent))
            return None if record is None else record.name
        return read()  # type: ignore[return-value]

    assert await active(CHANNEL) == "First"
    assert await active(OTHER_CHANNEL) == "Second"
    assert await active(99, parent=OTHER_CHANNEL) == "Second", "a thread follows its channel"
    assert await active(CHANNEL, guild=OTHER_GUILD) is None, "never from another server"


async def test_the_settings_read_with_the_active_character_find_the_same_sheet(
    store: Store
) -> None:
    first, second = await _create(store, "First"), await _create(store, "Second")
    await _create(store, "Someone else's", owner=OTHER)

    def use(tx: Tx) -> None:
        tx.characters.use(GUILD, ROLLER, first.id)
        tx.characters.use(GUILD, ROLLER, second.id, channel_id=OTHER_CHANNEL)
        tx.settings.set_guild_ruleset(GUILD, Ruleset.V20)

    await store.write(use)
    places = [(GUILD, CHANNEL, None, ROLLER), (GUILD, OTHER_CHANNEL, None, ROLLER),
              (GUILD, 99, OTHER_CHANNEL, ROLLER), (GUILD, CHANNEL, None, OTHER),
              (OTHER_GUILD, CHANNEL, None, ROLLER), (GUILD, CHANNEL, None, NOBODY)]

    def read(
        tx: Tx,
    ) -> list[tuple[ChannelConfig, CharacterRecord | None, ChannelConfig, CharacterRecord | None]]:
        return [
            (*tx.settings.config_and_character(guild, channel, parent, user),
             tx.settings.config(guild, channel, parent),
             tx.characters.active(guild, user, channel, parent))
            for guild, channel, parent, user in places
        ]

    found = await store.read(read)

    for config, sheet, config_alone, sheet_alone in found:
        assert config == config_alone
        assert sheet == sheet_alone
    names = [None if sheet is None else sheet.name for _, sheet, _, _ in found]
    assert names == ["First", "Second", "Second", None, None, None]
    assert [config.ruleset for config, _, _, _ in found] == [Ruleset.V20] * 4 + [
        Ruleset.COFD, Ruleset.V20]  # another server has its own settings


async def test_a_change_is_stored_only_over_the_version_it_was_decided_from(
    store: Store
) -> None:
    record = await _create(store)
    changed = set_traits(record.sheet, [("Wits", 3)])
    assert isinstance(changed, tuple)
    saved = await store.write(lambda tx: tx.characters.save(record, changed[0]))
    stale = await store.write(lambda tx: tx.characters.save(record, changed[0]))
    assert saved is not None and saved.version == 2
    assert stale is None
    assert await store.read(lambda tx: tx.characters.get(record.id)) == saved


async def test_a_sheet_read_again_is_parsed_once_and_a_rolled_back_change_is_never_read(
    store: Store,
) -> None:
    record = await _create(store)
    first = await store.read(lambda tx: tx.characters.get(record.id))
    again = await store.read(lambda tx: tx.characters.get(record.id))
    assert first is not None and again is not None
    assert again.sheet is first.sheet, "the same stored text: the parsed sheet is reused"
    changed = set_traits(record.sheet, [("Wits", 4)])
    assert isinstance(changed, tuple)

    def change_then_fail(tx: Tx) -> None:
        saved = tx.characters.save(record, changed[0])
        assert saved is not None and tx.characters.get(record.id) is not None
        raise Conflict("rolled back")

    with pytest.raises(Conflict):
        await store.write(change_then_fail)
    after = await store.read(lambda tx: tx.characters.get(record.id))
    assert after == record, "the change that was rolled back is not read"


async def test_deleting_a_sheet_removes_its_active_marks(store: Store) -> None:
    record = await _create(store)
    await store.write(lambda tx: tx.characters.use(GUILD, ROLLER, record.id))
    assert await store.write(lambda tx: tx.characters.delete(record.id, record.version))
    assert await store.read(lambda tx: tx.characters.active(GUILD, ROLLER, CHANNEL)) is None


async def test_will_is_spent_from_the_character_and_the_member_pool_is_untouched(
    store: Store
) -> None:
    record = await _create(store)  # Will 2 of 2
    member = WillPool(guild_id=GUILD, user_id=ROLLER, current=5, maximum=5)
    await store.write(lambda tx: tx.will.save(None, member))

    after = await store.write(lambda tx: tx.will.debit(GUILD, ROLLER, record.id))

    assert after == WillPool(guild_id=GUILD, user_id=ROLLER, current=1, maximum=2,
                             character_id=record.id)
    assert await store.read(lambda tx: tx.will.get(GUILD, ROLLER)) == member


async def test_the_night_sees_member_and_character_pools(store: Store) -> None:
    record = await _create(store)
    await store.write(lambda tx: tx.will.debit(GUILD, ROLLER, record.id))
    pools = await store.read(will_pools)
    assert [(p.character_id, p.current) for p in pools] == [(record.id, 1)]
    change = will.night(pools)[0]
    assert await store.write(lambda tx: tx.will.save(change.old, change.new))
    assert (await store.read(lambda tx: tx.characters.get(record.id))).sheet.will == 2  # type: ignore[union-attr]


async def test_five_beats_on_a_character_become_one_experience(store: Store) -> None:
    record = await _create(store)
    for _ in range(5):
        await store.write(lambda tx: tx.will.add_beat(GUILD, ROLLER, record.id))
    sheet = (await store.read(lambda tx: tx.characters.get(record.id))).sheet  # type: ignore[union-attr]
    assert (sheet.beats, sheet.experience) == (0, 1)
    assert await store.read(beats) == 0, "member Beats apart"


async def test_a_roll_remembers_its_character(store: Store) -> None:
    record = await _create(store)
    roll = await store.write(lambda tx: tx.rolls.insert(
        guild_id=GUILD, channel_id=CHANNEL, roller_id=ROLLER, result=failure(),
        will_state=WillState.OFFERED, character_id=record.id, character_name="Alice"))
    again = await store.read(lambda tx: tx.rolls.get(roll.id))
    assert again == roll
    assert (again.character_id, again.character_name) == (record.id, "Alice")  # type: ignore[union-attr]


async def test_a_deleted_sheets_id_is_never_given_to_the_next_sheet(store: Store) -> None:
    """A deleted sheet's id stays its own (migration 0011 on SQLite; identity columns on
    PostgreSQL): its past rolls and open confirmation buttons name it, never another."""
    kept = await _create(store, "Kept")
    newest = await _create(store, "Newest")
    assert await store.write(lambda tx: tx.characters.delete(newest.id, newest.version))

    after = await _create(store, "Newcomer", owner=OTHER)

    assert after.id > newest.id > kept.id
    assert await store.read(lambda tx: tx.characters.get(newest.id)) is None


async def test_a_roll_reads_its_sheet_only_while_it_is_still_the_rollers(store: Store) -> None:
    """What a press on a roll acts on (RULES.md §6: the character the roll was made with) is
    read with the roll; a sheet under the roll's character id that the roller could not
    have rolled with (another member's, not an NPC a Storyteller may use) is not that
    character: neither it nor the member's own pool is read in its place."""
    mine = await _create(store, "Mine")
    theirs = await _create(store, "Theirs", owner=OTHER)
    npc = await store.write(lambda tx: tx.characters.insert(
        GUILD, OTHER, new_sheet("Guard", Ruleset.COFD, npc=True)))
    assert npc is not None

    async def pressed_with(character: CharacterRecord) -> Pressed:
        roll = await store.write(lambda tx: tx.rolls.insert(
            guild_id=GUILD, channel_id=CHANNEL, roller_id=ROLLER, result=failure(),
            will_state=WillState.OFFERED, character_id=character.id,
            character_name=character.name))
        return await store.read(lambda tx: tx.queries.one(RollRepository.pressed_query(roll.id)))

    own = await pressed_with(mine)
    other = await pressed_with(theirs)
    guard = await pressed_with(npc)

    assert own.character == mine
    assert guard.character == npc, "a Storyteller rolls with any NPC of the server"
    assert own.pool == mine.will_pool()
    assert other.roll is not None
    assert (other.character, other.pool, other.beats) == (None, None, 0)
