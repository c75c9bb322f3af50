"""Two bot processes, shards 0 and 1 of 2, over one PostgreSQL database.

Discord sends each guild's events to the shard ``(guild_id >> 22) % SHARD_COUNT`` and the
fake does the same: an interaction is delivered on the session of the shard owning its
guild (``Interaction.shard``), and only the process holding that session has its token,
so only that process can answer it. Each process runs one shard, so the shard an
interaction went to names the process that answered it.

Skipped without PostgreSQL outside CI, failed in CI (the ``postgres`` fixture).
"""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg
import pytest

from tests.e2e.bot_fixtures import BOT, faces
from tests.e2e.harness import (
    BotProcess,
    Channel,
    FakeDiscord,
    Guild,
    Interaction,
    Member,
    StartBot,
)
from tests.postgres_server import PostgresServer

SHARDS = 2


@dataclass
class Server:
    """A guild on one shard, with a table channel and a player."""

    guild: Guild
    channel: Channel
    ada: Member

    @classmethod
    def on_shard(cls, fake: FakeDiscord, shard: int) -> Server:
        guild = fake.add_guild(f"Table on shard {shard}", shard=(shard, SHARDS))
        channel = fake.add_channel("table", guild=guild)
        return cls(guild, channel, fake.add_member("Ada", guild=guild))


@pytest.fixture
async def database(postgres: PostgresServer) -> str:
    """The suite's PostgreSQL test database, emptied, with every migration applied."""
    return await postgres.fresh_database()


def shard_env(database: str, shard: int, dice: list[int]) -> dict[str, str]:
    """One process of a two-process deployment: global commands, since its guilds are
    many (``DEV_GUILD_ID`` names one guild; empty counts as unset)."""
    return {
        "SHARD_COUNT": str(SHARDS),
        "SHARD_IDS": str(shard),
        "DATABASE_URL": database,
        "DEV_GUILD_ID": "",
        "SYNC_COMMANDS": "true",
    } | faces(dice)


async def answered_once(interaction: Interaction, shard: int) -> str:
    """The name of the one acknowledgement, checked to come from ``shard``'s process."""
    callback = await interaction.ack()
    assert interaction.shard == (shard, SHARDS), interaction
    assert len(interaction.callbacks) == 1, interaction
    return callback.name


async def test_two_processes_serve_their_own_shards_over_one_postgres_and_survive_a_kill(
    fake: FakeDiscord, start_bot: StartBot, database: str
) -> None:
    servers = [Server.on_shard(fake, shard) for shard in range(SHARDS)]
    dice = {
        # /roll pool:2 fails (3 4); Spend Will adds 9 9 2; during the outage 8 8.
        0: [3, 4, 9, 9, 2, 8, 8],
        # The same roll and Will, then the extended action's first roll: 8 8 2 3 4, twice:
        # a Roll pressed as soon as the card shows may be read before the card's message
        # id is stored; its write then misses its check and runs again, drawing anew (the
        # first draw is never shown), so the second draw must read the same.
        1: [3, 4, 9, 9, 2, 8, 8, 2, 3, 4, 8, 8, 2, 3, 4],
    }

    # Shard 1 first: were it to sync commands, it would have before its IDENTIFY.
    processes: dict[int, BotProcess] = {}
    processes[1] = await start_bot(BOT, env_extra=shard_env(database, 1, dice[1]), synced=False)
    assert fake.command_syncs == 0
    processes[0] = await start_bot(BOT, env_extra=shard_env(database, 0, dice[0]))
    syncs = fake.command_syncs
    assert syncs >= 1
    assert fake.find_command("roll")[1] is False  # global: every guild has the commands
    assert fake.gateway.identified_shards == [(1, SHARDS), (0, SHARDS)]
    for process in processes.values():
        assert "Store in use: PostgreSQL database" in process.output()

    # In a guild of each shard: a server-wide command (the member's Will in the server), a
    # roll and a button press, each answered once, by the process running that guild's shard.
    for shard, server in enumerate(servers):
        will = await server.ada.slash(server.channel, "will set", max=3)
        await answered_once(will, shard)
        assert "3/3" in (await will.reply()).text

        roll = await server.ada.slash(server.channel, "roll", pool="2")
        await answered_once(roll, shard)
        message = await roll.reply()
        assert "Failure" in message.text

        spend = await server.ada.click(message, label="Spend Will")
        assert await answered_once(spend, shard) == "UPDATE_MESSAGE"
        await message.wait_for(lambda m: "2 successes" in m.text)
        notice = await spend.followup()
        assert "Will 2/3" in notice.text
        answers = [await will.reply(), message, notice]
        assert fake.messages(server.channel) == answers  # no process posted anything else

    # Shard 1's guild: an extended action with one roll made, before the kill.
    shard1 = servers[1]
    start = await shard1.ada.slash(
        shard1.channel, "extended start", pool="5", target=10, label="research the ritual"
    )
    await answered_once(start, 1)
    card = await start.reply()
    first = await shard1.ada.click(card, label="Roll")
    await answered_once(first, 1)
    await card.wait_for(lambda m: "2/10" in m.text and "1 of 5 used" in m.text)

    # SIGKILL shard 1's process: shard 0 goes on serving its guild meanwhile.
    assert await processes[1].kill() == -9
    await fake.wait_until(lambda: not fake.gateway.serving(shard1.guild.id), 5, "shard 1 gone")
    assert fake.gateway.serving(servers[0].guild.id)
    during = await servers[0].ada.slash(servers[0].channel, "roll", pool="2")
    await answered_once(during, 0)
    assert "2 successes" in (await during.reply()).text

    # Restarted, shard 1 serves its guild again with everything written before the kill.
    processes[1].env_extra |= faces([8, 8, 8, 2, 3])
    await processes[1].start(synced=False)
    assert fake.gateway.identified_shards[-1] == (1, SHARDS)
    await fake.wait_until(lambda: fake.gateway.serving(shard1.guild.id), 5, "shard 1 back")

    second = await shard1.ada.click(card, label="Roll")  # a button from before the kill
    await answered_once(second, 1)
    assert "roll 2 of 5" in (await second.reply()).text
    await card.wait_for(lambda m: "5/10" in m.text and "2 of 5 used" in m.text)
    for shard, server in enumerate(servers):
        will = await server.ada.slash(server.channel, "will show")
        await answered_once(will, shard)
        assert "Will 2/3" in (await will.reply()).text

    assert fake.command_syncs == syncs  # the restarted shard 1 synced nothing
    assert all(process.running for process in processes.values())
    connection = await asyncpg.connect(database)  # both processes wrote to this one database
    try:
        pools = await connection.fetch("SELECT guild_id, user_id, current FROM will_pools")
    finally:
        await connection.close()
    assert sorted(map(tuple, pools)) == sorted((s.guild.id, s.ada.id, 2) for s in servers)
