"""The simulated tables: channels, their members, and what they do (the load mix).

A *table* is one channel with its ruleset, four players and a Storyteller. A table acts
in turn order, one scenario at a time (as a table plays), so no two of its members race
each other's buttons; many tables run at once. A scenario is one to five interactions:

==========  ===================================================================
``roll``      ``/roll`` in the channel's ruleset, with that ruleset's options, some
              labelled, some secret
``byname``    the same ``/roll`` with its pool named by trait (``Dexterity + Stealth``),
              read from the player's 50-trait character sheet (made at set-up)
``will``      ``/roll``, then **Spend Will** on it when the roll offers it
``odds``      ``/odds`` for a pool of the ruleset (exact odds and a PNG chart)
``extended``  ``/extended start``, **Roll** on its card until a decision comes, then
              **Abandon** (or the card's first choice)
``teamwork``  ``/teamwork start``, ``/teamwork help`` by one or two other players,
              ``/teamwork roll`` by the primary
``ping``      ``/ping`` (the bare bot's only command: the ceiling)
==========  ===================================================================

Every ``--turn-every`` rounds (each player acting once is a round; every round at a
``fistful`` table, whose Successive Action Penalty costs a die per action) the
Storyteller runs ``/turn next``, which resets that penalty and closes open Will
buttons, as a table's clock does.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import random
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bench.load_driver import Driver
from tests.e2e.harness import Channel, FakeDiscord, Guild, Interaction, Member, Message

RULESETS = ("cofd", "v20", "fistful")
PLAYERS_PER_TABLE = 4
ADMIN = discord.Permissions(manage_guild=True, manage_channels=True).value
STORYTELLER = discord.Permissions(manage_channels=True).value

#: The real bot's default mix: weights of scenarios (not of interactions).
DEFAULT_MIX = "roll=50,will=15,odds=5,extended=15,teamwork=15"
BARE_MIX = "ping=1"

#: The slash commands each scenario needs the bot to have synced.
NEEDS: dict[str, tuple[str, ...]] = {
    "roll": ("roll",),
    "byname": ("roll", "character"),
    "will": ("roll",),
    "odds": ("odds",),
    "extended": ("extended",),
    "teamwork": ("teamwork",),
    "ping": ("ping",),
}

POOLS: dict[str, tuple[str, ...]] = {
    "cofd": (
        "Dexterity 3 + Stealth 2",
        "Strength 3 + Brawl 2",
        "Wits 2 + Investigation 3 + 1",
        "Presence 3 + Persuasion 2",
        "7",
        "4+3",
    ),
    "v20": ("Dexterity 3 + Melee 2", "Perception 3 + Alertness 3", "6", "5"),
    # Larger: every action in a turn costs a die (Successive Action Penalty).
    "fistful": ("Agility 4 + Guns 3", "7", "8", "Brains 3 + Lore 3"),
}
#: ``byname`` pools: trait names each ruleset's template has.
NAMED_POOLS: dict[str, tuple[str, ...]] = {
    "cofd": ("Dexterity + Stealth", "Strength + Brawl", "Wits + Investigation + 1",
             "Presence + Persuasion"),
    "v20": ("Dexterity + Melee", "Perception + Alertness"),
    "fistful": ("Dexterity + Firearms", "Intelligence + Occult"),
}
#: Traits beyond the template's, so every sheet holds 50 (the issue's benchmark sheet).
EXTRA_TRAITS = 50


def sheet_traits(ruleset: str) -> list[str]:
    """``/character set traits:`` texts (each within the option's 1,000 characters) that
    give every template trait a value and add custom ones up to EXTRA_TRAITS traits."""
    names = [f"Merit {index}" for index in range(EXTRA_TRAITS)]
    named = {"cofd": ["Dexterity 3", "Stealth 2", "Strength 3", "Brawl 2", "Wits 2",
                      "Investigation 3", "Presence 3", "Persuasion 2", "Firearms 2",
                      "Intelligence 3", "Occult 2"],
             "v20": ["Dexterity 3", "Melee 2", "Perception 3", "Alertness 3"]}
    texts = named["v20" if ruleset == "v20" else "cofd"] + [f"{name} 1" for name in names]
    chunks, current = [], ""
    for text in texts:
        if len(current) + len(text) + 2 > 1000:
            chunks.append(current)
            current = ""
        current = f"{current}, {text}" if current else text
    return [*chunks, current]


HELP_POOLS: dict[str, str] = {
    "cofd": "Wits 2 + Athletics 2",
    "v20": "Wits 2 + Athletics 2",
    "fistful": "Brawn 3 + Athletics 3",
}
EXTENDED_POOLS: dict[str, str] = {
    "cofd": "Intelligence 3 + Academics 2",
    "v20": "Intelligence 3 + Occult 2",
    "fistful": "Brains 4 + Lore 3",
}


def parse_mix(text: str) -> dict[str, float]:
    """``"roll=50,will=15"`` → ``{"roll": 50.0, "will": 15.0}``; unknown names refused."""
    mix: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, weight = part.partition("=")
        if name not in NEEDS:
            msg = f"unknown scenario {name!r}; known: {', '.join(NEEDS)}"
            raise ValueError(msg)
        mix[name] = float(weight or 1)
    if not mix or sum(mix.values()) <= 0:
        msg = f"the mix {text!r} has no positive weight"
        raise ValueError(msg)
    return mix


def roll_options(ruleset: str, rng: random.Random) -> dict[str, Any]:
    """Options a player of ``ruleset`` commonly adds to a roll (or to /odds)."""
    options: dict[str, Any] = {}
    if ruleset == "cofd":
        draw = rng.random()
        if draw < 0.15:
            options["again"] = "9"
        elif draw < 0.25:
            options["again"] = "8"
        if rng.random() < 0.1:
            options["rote"] = True
        if rng.random() < 0.2:
            options["specialty"] = True
    elif ruleset == "v20":
        options["difficulty"] = rng.choice((5, 6, 6, 7, 8))
        if rng.random() < 0.2:
            options["specialty"] = True
    elif ruleset == "fistful":
        if rng.random() < 0.2:
            options["risky"] = True
        if rng.random() < 0.2:
            options["need"] = 2
    return options


@dataclass(eq=False)
class Table:
    """One channel, its ruleset and its people; acts one scenario at a time."""

    channel: Channel
    ruleset: str
    players: list[Member]
    storyteller: Member
    rng: random.Random
    #: A member of the table's server with Manage Server (sets its ruleset).
    admin: Member
    serial: Iterator[int] = field(default_factory=itertools.count)
    _turns: Iterator[Member] = field(init=False)
    _scenarios_done: int = 0

    def __post_init__(self) -> None:
        self._turns = itertools.cycle(self.players)

    def other_players(self, member: Member, count: int) -> list[Member]:
        others = [player for player in self.players if player is not member]
        return self.rng.sample(others, min(count, len(others)))

    async def step(
        self, driver: Driver, scenarios: list[str], weights: list[float], turn_every: int
    ) -> None:
        """Run the next member's scenario; the Storyteller's clock when a round ends."""
        member = next(self._turns)
        name = self.rng.choices(scenarios, weights)[0]
        await SCENARIOS[name](self, member, driver)
        self._scenarios_done += 1
        if turn_every and self.ruleset == "fistful":
            turn_every = 1
        if turn_every and self._scenarios_done % (turn_every * len(self.players)) == 0:
            await driver.fire(
                "turn", lambda: self.storyteller.slash(self.channel, "turn next")
            )


def build_tables(
    fake: FakeDiscord,
    count: int,
    *,
    seed: int,
    rulesets: tuple[str, ...] = RULESETS,
    guilds: Sequence[Guild | None] = (None,),
) -> list[Table]:
    """``count`` channels, rulesets in rotation, each with its players and Storyteller;
    spread over ``guilds`` in rotation too (``None``: the fake's own server), each with
    an admin."""
    admins = [fake.add_member("Admin", permissions=ADMIN, guild=guild) for guild in guilds]
    tables = []
    for index in range(count):
        ruleset = rulesets[index % len(rulesets)]
        guild = guilds[index % len(guilds)]
        channel = fake.add_channel(f"{ruleset}-table-{index}", guild=guild)
        players = [
            fake.add_member(f"Player {index}.{seat}", guild=guild)
            for seat in range(PLAYERS_PER_TABLE)
        ]
        storyteller = fake.add_member(f"Storyteller {index}", permissions=STORYTELLER,
                                      guild=guild)
        rng = random.Random(seed * 100_003 + index)
        tables.append(Table(channel, ruleset, players, storyteller, rng,
                            admins[index % len(guilds)]))
    return tables


async def configure(tables: list[Table], driver: Driver, *, sheets: bool = False) -> None:
    """Give every non-``cofd`` channel its ruleset (``cofd`` is the default); with
    ``sheets``, every player a character of 50 traits (for ``byname``)."""
    for table in tables:
        if sheets:
            await _make_sheets(table, driver)
        if table.ruleset != "cofd":
            answered = await driver.fire(
                "setup",
                functools.partial(
                    table.admin.slash,
                    table.channel,
                    "config ruleset",
                    ruleset=table.ruleset,
                    scope="channel",
                ),
            )
            if answered is None:
                msg = f"could not set the ruleset of #{table.channel.name}"
                raise RuntimeError(msg)


async def _make_sheets(table: Table, driver: Driver) -> None:
    template = "v20" if table.ruleset == "v20" else "cofd"
    for player in table.players:
        steps = [functools.partial(player.slash, table.channel, "character create",
                                   name=f"{player.name} sheet", template=template)]
        steps += [functools.partial(player.slash, table.channel, "character set", traits=text)
                  for text in sheet_traits(table.ruleset)]
        for step in steps:
            if await driver.fire("setup", step, ephemeral=True) is None:
                msg = f"could not make {player.name}'s sheet"
                raise RuntimeError(msg)


# ---------------------------------------------------------------------- scenarios


async def _roll(table: Table, member: Member, driver: Driver, *, plain: bool) -> Interaction | None:
    rng = table.rng
    options = roll_options(table.ruleset, rng)
    private = False
    if not plain:
        if rng.random() < 0.2:
            options["label"] = f"task {next(table.serial)}"
        private = rng.random() < 0.05
        if private:
            options["private"] = True
    pool = rng.choice(POOLS[table.ruleset])
    return await driver.fire(
        f"roll {table.ruleset}",
        lambda: member.slash(table.channel, "roll", pool=pool, **options),
        ephemeral=private,
    )


async def roll(table: Table, member: Member, driver: Driver) -> None:
    await _roll(table, member, driver, plain=False)


async def byname(table: Table, member: Member, driver: Driver) -> None:
    """The same roll as ``roll``, its pool named by trait (read from the member's sheet)."""
    options = roll_options(table.ruleset, table.rng)
    pool = table.rng.choice(NAMED_POOLS[table.ruleset])
    await driver.fire(
        f"roll {table.ruleset}", lambda: member.slash(table.channel, "roll", pool=pool, **options)
    )


async def will(table: Table, member: Member, driver: Driver) -> None:
    rolled = await _roll(table, member, driver, plain=True)
    message = None if rolled is None else rolled.original
    if message is None or not _enabled(message, "Spend Will"):
        return
    await driver.fire("spend will", lambda: member.click(message, label="Spend Will"))


async def odds(table: Table, member: Member, driver: Driver) -> None:
    options = roll_options(table.ruleset, table.rng)
    options.pop("need", None)
    pool = table.rng.choice(POOLS[table.ruleset])
    await driver.fire(
        "odds", lambda: member.slash(table.channel, "odds", pool=pool, **options), ephemeral=True
    )


async def extended(table: Table, member: Member, driver: Driver, *, max_rolls: int = 3) -> None:
    label = f"research {next(table.serial)}"
    started = await driver.fire(
        "extended start",
        lambda: member.slash(
            table.channel,
            "extended start",
            pool=EXTENDED_POOLS[table.ruleset],
            target=10,
            label=label,
        ),
    )
    card = None if started is None else started.original
    if card is None:
        return
    for _ in range(max_rolls):
        if not _enabled(card, "Roll"):
            break
        edits = card.edits
        rolled = await driver.fire("extended roll", lambda: member.click(card, label="Roll"))
        if rolled is None:
            return
        if not await _edited(card, edits, driver.timeout):
            driver.recorder.error("card not updated (extended)", repr(card))
            return
    choices = [button["label"] for button in card.buttons if not button["disabled"]]
    if "Abandon" in choices:
        await driver.fire("extended decide", lambda: member.click(card, label="Abandon"))


async def teamwork(table: Table, member: Member, driver: Driver) -> None:
    label = f"heave {next(table.serial)}"
    pool = table.rng.choice(POOLS[table.ruleset])
    started = await driver.fire(
        "teamwork start",
        lambda: member.slash(table.channel, "teamwork start", pool=pool, label=label),
    )
    if started is None:
        return
    for helper in table.other_players(member, table.rng.choice((1, 2))):
        helped = await driver.fire(
            "teamwork help",
            functools.partial(
                helper.slash,
                table.channel,
                "teamwork help",
                pool=HELP_POOLS[table.ruleset],
                label=label,
            ),
        )
        if helped is None:
            return
    await driver.fire(
        "teamwork roll", lambda: member.slash(table.channel, "teamwork roll", label=label)
    )


async def ping(table: Table, member: Member, driver: Driver) -> None:
    await driver.fire("ping", lambda: member.slash(table.channel, "ping"))


SCENARIOS: dict[str, Callable[[Table, Member, Driver], Awaitable[None]]] = {
    "roll": roll,
    "byname": byname,
    "will": will,
    "odds": odds,
    "extended": extended,
    "teamwork": teamwork,
    "ping": ping,
}


def _enabled(message: Message, label: str) -> bool:
    return any(b["label"] == label and not b["disabled"] for b in message.buttons)


async def _edited(message: Message, edits: int, seconds: float) -> bool:
    """Wait (polling, cheaply) until ``message`` was edited after ``edits`` edits.

    The card of an extended action is edited after the roll is acknowledged; the next
    press needs the card's new buttons. Polling keeps the fake's change notifications
    from waking a waiter per table.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while message.edits <= edits:
        if loop.time() > deadline:
            return False
        await asyncio.sleep(0.002)
    return True
