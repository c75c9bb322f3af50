"""Many members acting at once through the real bot: exactly one effect, one consistent state.

Presses are dispatched in one go (every payload is built before the bot can
answer any of them), so they reach the bot as Discord delivers simultaneous
clicks: each is answered within Discord's 3 s (the fake refuses later
acknowledgements), and the database shows exactly what the answers claim.
"""

from __future__ import annotations

import asyncio
import json
import re
from itertools import permutations
from pathlib import Path
from typing import Any

from tests.e2e.bot_fixtures import ADMIN, BOT, STORYTELLER, StartRealBot, Table, ask
from tests.e2e.db_probe import query
from tests.e2e.harness import FakeDiscord, Interaction, Member, StartBot

PRESSES = 100


async def answers(interactions: list[Interaction]) -> list[str]:
    """The kind of each interaction's first acknowledgement (each one awaited)."""
    return [(await interaction.ack()).name for interaction in interactions]


async def test_a_hundred_simultaneous_presses_of_one_spend_will_button_spend_exactly_one_will(
    table: Table, start: StartRealBot
) -> None:
    # 2 dice: 3 4 (a failure); the one Will spend draws 9 9 2. A second draw would run out.
    bot = await start([3, 4, 9, 9, 2])
    await ask(table.ada, table.channel, "will set", max=3)
    roll = await ask(table.ada, table.channel, "roll", pool="2")

    presses = await asyncio.gather(
        *(table.ada.click(roll, label="Spend Will") for _ in range(PRESSES))
    )
    kinds = await answers(presses)

    assert kinds.count("UPDATE_MESSAGE") == 1
    refusals = [
        await press.reply() for press, kind in zip(presses, kinds, strict=True)
        if kind != "UPDATE_MESSAGE"
    ]
    assert len(refusals) == PRESSES - 1
    assert all(refusal.ephemeral for refusal in refusals)
    assert all(
        "already spent" in refusal.text or "out of date" in refusal.text for refusal in refusals
    ), {refusal.text for refusal in refusals}
    await roll.wait_for(lambda message: "2 successes" in message.text)
    assert "Will 2/3" in (await ask(table.ada, table.channel, "will show")).text
    assert query(bot.db_path, "SELECT current FROM will_pools") == [(2,)]
    assert query(bot.db_path, "SELECT will_state FROM rolls") == [("spent",)]


RULESETS = {
    "Chronicles of Darkness (2e)": "cofd",
    "Classic World of Darkness (V20 / Dark Ages)": "v20",
    "Fist Full of Dice (table procedure)": "fistful",
}
_NAMES = "|".join(re.escape(name) for name in RULESETS)


def ruleset_change(text: str) -> tuple[str, str]:
    """``("cofd", "v20")`` from a confirmation such as "Ruleset in <#1> is now Classic World
    of Darkness (V20 / Dark Ages) (it was Chronicles of Darkness (2e))." (or "stays …")."""
    if (changed := re.search(rf"is now ({_NAMES}) \(it was ({_NAMES})\)", text)) is not None:
        return RULESETS[changed[2]], RULESETS[changed[1]]
    kept = re.search(rf"stays ({_NAMES}): it already was", text)
    assert kept is not None, text
    return RULESETS[kept[1]], RULESETS[kept[1]]


def one_after_another(changes: list[tuple[str, str]], first: str, last: str) -> bool:
    """Whether the changes, in some order, lead from ``first`` to ``last`` one by one."""
    for order in permutations(changes):
        values = [first]
        for old, new in order:
            if old != values[-1]:
                break
            values.append(new)
        else:
            if values[-1] == last:
                return True
    return False


async def test_admins_changing_the_ruleset_at_once_leave_one_consistent_setting(
    fake: FakeDiscord, table: Table, start: StartRealBot
) -> None:
    bot = await start()
    admins = [table.admin, *(fake.add_member(f"Admin {n}", permissions=ADMIN) for n in (2, 3))]
    chosen = ["v20", "fistful", "cofd"]

    commands = await asyncio.gather(
        *(
            admin.slash(table.channel, "config ruleset", ruleset=ruleset)
            for admin, ruleset in zip(admins, chosen, strict=True)
        )
    )
    confirmations = [await command.reply() for command in commands]
    stored = query(
        bot.db_path, "SELECT ruleset FROM channel_settings WHERE channel_id = ?", table.channel.id
    )

    assert not any(confirmation.ephemeral for confirmation in confirmations)
    changes = [ruleset_change(confirmation.text) for confirmation in confirmations]
    assert sorted(new for _, new in changes) == sorted(chosen), "every change took effect"
    assert len(stored) == 1, "one setting for the channel"
    final = str(stored[0][0])
    assert one_after_another(changes, "cofd", final), (changes, final)
    names = {"cofd": "Chronicles of Darkness", "v20": "Classic World", "fistful": "Fist Full"}
    assert names[final] in (await ask(table.ada, table.channel, "config show")).text


async def test_admins_changing_different_settings_at_once_lose_none_of_them(
    fake: FakeDiscord, table: Table, start: StartRealBot
) -> None:
    bot = await start()
    settings = {
        "text_only": "on",
        "dice_order": "sorted",
        "pressure": "off",
        "will_timing": "before",
        "fistful_step": "3",
    }
    admins = [fake.add_member(f"Admin {option}", permissions=ADMIN) for option in settings]

    commands = await asyncio.gather(
        *(
            admin.slash(table.channel, "config set", option=option, value=value)
            for admin, (option, value) in zip(admins, settings.items(), strict=True)
        )
    )
    confirmations = [await command.reply() for command in commands]
    stored = query(
        bot.db_path,
        "SELECT text_only, dice_order, pressure, will_timing, fistful_step"
        " FROM channel_settings WHERE channel_id = ?",
        table.channel.id,
    )

    for confirmation, value in zip(confirmations, settings.values(), strict=True):
        assert f"is now {value} (it was " in confirmation.text
    assert stored == [(1, "sorted", 0, "before", 3)], "each change kept the others"


# --- an extended action continued by many at once -------------------------------------------

MEMBERS = 50


async def extended_table(fake: FakeDiscord, table: Table) -> list[Member]:
    """A `v20` channel (a roll of 10 dice there practically never stops the action for a
    decision) and ``MEMBERS`` members who may all roll Ada's action: Ada and Storytellers."""
    await ask(table.admin, table.channel, "config ruleset", ruleset="v20")
    storytellers = [
        fake.add_member(f"Storyteller {n}", permissions=STORYTELLER) for n in range(MEMBERS - 1)
    ]
    return [table.ada, *storytellers]


def extended_rolls(db_path: Path) -> list[tuple[int, ...]]:
    """The successes of every roll made for an extended action, in order."""
    return [
        (json.loads(str(result))["successes"],)
        for (result,) in query(
            db_path, "SELECT result_json FROM rolls WHERE action_id IS NOT NULL ORDER BY id"
        )
    ]


def action_state(db_path: Path) -> tuple[int, dict[str, Any]]:
    """The one extended action's version and engine state."""
    [(version, document)] = query(db_path, "SELECT version, state_json FROM actions")
    return int(str(version)), json.loads(str(document))["state"]


async def test_fifty_members_pressing_roll_on_one_extended_card_roll_it_exactly_once(
    fake: FakeDiscord, table: Table, start_bot: StartBot
) -> None:
    bot = await start_bot(BOT, dice_seed=5)
    members = await extended_table(fake, table)
    card = await ask(table.ada, table.channel, "extended start", pool="10", target=1000)
    assert "Roll" in [button["label"] for button in card.buttons]

    presses = await asyncio.gather(*(member.click(card, label="Roll") for member in members))
    replies = [await press.reply() for press in presses]

    rolled = [reply for reply in replies if not reply.ephemeral]
    refused = [reply for reply in replies if reply.ephemeral]
    assert len(rolled) == 1
    assert len(refused) == MEMBERS - 1
    assert all("out of date" in reply.text for reply in refused), {r.text for r in refused}
    assert len(extended_rolls(bot.db_path)) == 1
    version, state = action_state(bot.db_path)
    assert (version, state["rolls"]) == (2, 1)


async def test_fifty_members_continuing_one_extended_action_at_once_count_every_roll_once(
    fake: FakeDiscord, table: Table, start_bot: StartBot
) -> None:
    bot = await start_bot(BOT, dice_seed=5)
    members = await extended_table(fake, table)
    await ask(table.ada, table.channel, "extended start", pool="10", target=1000, label="climb")

    commands = await asyncio.gather(
        *(member.slash(table.channel, "extended roll", label="climb") for member in members)
    )
    replies = [await command.reply() for command in commands]

    rolled = [reply for reply in replies if not reply.ephemeral]
    assert len(rolled) >= MEMBERS - 5, [reply.text for reply in replies if reply.ephemeral]
    successes = extended_rolls(bot.db_path)
    version, state = action_state(bot.db_path)
    assert len(successes) == len(rolled), "one stored roll per roll answered"
    assert state["rolls"] == len(rolled)
    assert state["total"] == sum(found for (found,) in successes), "no roll lost or counted twice"
    assert version == 1 + len(rolled)
