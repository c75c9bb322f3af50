"""A Portuguese server through the real bot: public messages in the table's language,
each member's own answers in their client's, a channel that chooses Spanish."""

from __future__ import annotations

from bot.render.buttons import REFUSALS
from bot.render.lang import _, speaking, voice
from bot.render.messages import WILL_NOT_TRACKED
from engine.records import Language, PressRefusal
from tests.e2e.bot_fixtures import StartRealBot, Table, ask
from tests.e2e.harness import FakeDiscord


def _in(language: Language, message: str) -> str:
    with speaking(voice(language)):
        return _(message)


async def test_a_portuguese_server_plays_in_portuguese_and_members_hear_their_own(
    fake: FakeDiscord, table: Table, start: StartRealBot
) -> None:
    fake.guild_locale = "pt-BR"  # the server's preferred locale on Discord
    table.bob.locale = "es-ES"
    await start([8, 8, 3, 9, 9, 2, 8, 8, 3])

    tracked = await ask(table.ada, table.channel, "will set", max=3)
    assert not tracked.ephemeral
    assert "Will" not in tracked.text
    roll = await ask(table.ada, table.channel, "roll", pool="3")  # Ada's client: English
    assert not roll.ephemeral
    assert _in(Language.PT_BR, "Success") in roll.text
    assert "Success" not in roll.text
    spend = _in(Language.PT_BR, "Spend Will")
    assert spend in [button["label"] for button in roll.buttons]

    # A press: Bob's refusal in his own Spanish, Ada's spend updates the card in Portuguese.
    pressed = await (await table.bob.click(roll, label=spend)).reply()
    assert pressed.ephemeral
    assert pressed.text == _in(Language.ES_ES, REFUSALS[PressRefusal.NOT_ROLLER])
    assert (await (await table.ada.click(roll, label=spend)).ack()).name == "UPDATE_MESSAGE"
    await roll.wait_for(lambda message: spend not in [b["label"] for b in message.buttons])
    assert _in(Language.PT_BR, "Willpower was spent after the roll.") in roll.text
    assert "Success" not in roll.text

    refused = await ask(table.bob, table.channel, "will rest")  # Bob tracks no Will
    assert refused.ephemeral
    assert refused.text == _in(Language.ES_ES, WILL_NOT_TRACKED)

    changed = await ask(table.admin, table.channel, "config set",
                        option="language", value="es-ES")
    assert not changed.ephemeral
    assert "Español" in changed.text
    assert "is now" not in changed.text

    spanish = await ask(table.ada, table.channel, "roll", pool="3")
    assert _in(Language.ES_ES, "Success") in spanish.text
    assert _in(Language.PT_BR, "Success") not in spanish.text
