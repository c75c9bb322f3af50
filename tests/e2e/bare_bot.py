"""A minimal discord.py bot that exercises the e2e harness (and baselines the load benchmark).

Reads the same environment as the real bot (DISCORD_TOKEN, DEV_GUILD_ID, LOG_LEVEL,
DISCORD_API_BASE, DISCORD_GATEWAY_URL) and redirects discord.py exactly the way the real
bot must: ``Route.BASE`` for REST and ``DiscordWebSocket.DEFAULT_GATEWAY`` for the gateway.

Run: ``python tests/e2e/bare_bot.py``.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import re
import signal
from typing import Any, Literal

import discord
import yarl
from discord import app_commands
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import Route
from PIL import Image

FRUITS = ("apple", "apricot", "banana", "cherry", "fig", "grape")


def apply_discord_overrides() -> None:
    """Point discord.py at DISCORD_API_BASE / DISCORD_GATEWAY_URL when set.

    ``Route.BASE`` is read whenever a request is built (REST, interaction callbacks and
    webhooks all go through ``Route``). ``DEFAULT_GATEWAY`` is used for the first connect
    and again after an INVALID_SESSION; resumes use READY's ``resume_gateway_url``.
    """
    api_base = os.environ.get("DISCORD_API_BASE")
    if api_base:
        Route.BASE = api_base.rstrip("/")
    gateway_url = os.environ.get("DISCORD_GATEWAY_URL")
    if gateway_url:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


class CounterButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"bare:count:(?P<count>[0-9]+)",
):
    """Its state lives in the custom_id, so it survives bot restarts."""

    def __init__(self, count: int) -> None:
        self.count = count
        super().__init__(
            discord.ui.Button(
                label="Count", style=discord.ButtonStyle.primary, custom_id=f"bare:count:{count}"
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> CounterButton:
        return cls(int(match["count"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.edit_message(
            content=f"Count: {self.count + 1}", view=counter_view(self.count + 1)
        )


class ResetButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"bare:reset"
):
    """Answers with a deferred update (type 6), then edits the message it sits on."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Reset", custom_id="bare:reset"))

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ResetButton:
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="Count: 0", view=counter_view(0))


def counter_view(count: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(CounterButton(count))
    view.add_item(ResetButton())
    return view


class NoteModal(discord.ui.Modal, title="Leave a note"):
    """A Label-wrapped input, a legacy row-wrapped input and a select, as modals allow."""

    def __init__(self) -> None:
        super().__init__(custom_id="bare:note-modal")
        self.note: discord.ui.TextInput[NoteModal] = discord.ui.TextInput(
            custom_id="bare:note", max_length=200
        )
        self.mood: discord.ui.TextInput[NoteModal] = discord.ui.TextInput(
            label="Mood", custom_id="bare:mood", required=False
        )
        self.tone: discord.ui.Select[NoteModal] = discord.ui.Select(
            custom_id="bare:tone",
            options=[discord.SelectOption(label=t.title(), value=t) for t in ("warm", "cold")],
        )
        self.add_item(discord.ui.Label(text="Note", component=self.note))
        self.add_item(self.mood)
        self.add_item(discord.ui.Label(text="Tone", component=self.tone))

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        mood = self.mood.value or "no mood"
        await interaction.response.send_message(
            f"Noted: {self.note.value} ({mood}, {self.tone.values[0]})", ephemeral=True
        )


class FormButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"bare:form"):
    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Open form", custom_id="bare:form"))

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> FormButton:
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_modal(NoteModal())


def chart_png() -> bytes:
    image = Image.new("RGB", (16, 8), "navy")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


config = app_commands.Group(name="config", description="Server configuration")


@config.command(name="ruleset", description="Set the ruleset")
async def config_ruleset(
    interaction: discord.Interaction[Any],
    ruleset: Literal["v20", "cofd"],
    scope: Literal["server", "channel"] = "server",
) -> None:
    if not interaction.permissions.manage_guild:
        await interaction.response.send_message("You need Manage Server.", ephemeral=True)
        return
    await interaction.response.send_message(f"ruleset={ruleset} scope={scope}")


class BareBot(commands.Bot):
    def __init__(self, dev_guild_id: int) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),  # as the bot: no ping
        )
        self.dev_guild = discord.Object(dev_guild_id)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CounterButton, ResetButton, FormButton)
        self.tree.add_command(config)
        self.tree.copy_global_to(guild=self.dev_guild)
        await self.tree.sync(guild=self.dev_guild)


def build_bot(dev_guild_id: int) -> BareBot:
    bot = BareBot(dev_guild_id)

    @bot.tree.command(description="Static embed")
    async def ping(interaction: discord.Interaction[Any]) -> None:
        embed = discord.Embed(title="Pong", description="The bare bot is alive.")
        embed.add_field(name="latency", value="fake")
        await interaction.response.send_message(embed=embed)

    @bot.tree.command(description="A counter with a persistent button")
    async def counter(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("Count: 0", view=counter_view(0))

    @bot.tree.command(description="A button that opens a modal")
    async def form(interaction: discord.Interaction[Any]) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(FormButton())
        await interaction.response.send_message("Fill the form", view=view)

    @bot.tree.command(description="Pick a fruit")
    async def pick(interaction: discord.Interaction[Any], fruit: str) -> None:
        await interaction.response.send_message(f"Picked {fruit}")

    @pick.autocomplete("fruit")
    async def pick_fruit(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=name.title(), value=name)
            for name in FRUITS
            if name.startswith(current.lower())
        ]

    @bot.tree.command(description="Deferred answer")
    async def slow(
        interaction: discord.Interaction[Any], via: Literal["edit", "followup"] = "edit"
    ) -> None:
        await interaction.response.defer(thinking=True)
        if via == "edit":
            await interaction.edit_original_response(content="Slow answer ready")
        else:
            await interaction.followup.send("Slow answer ready")

    @bot.tree.command(description="Followups, webhook edits and deletes")
    async def steps(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("Step 1")
        second = await interaction.followup.send("Step 2", ephemeral=True, wait=True)
        await second.edit(content="Step 2 (edited)")
        original = await interaction.original_response()
        await original.edit(content=f"{original.content} (edited)")
        third = await interaction.followup.send("Step 3", wait=True)
        await third.delete()

    @bot.tree.command(description="A PNG attachment")
    async def chart(interaction: discord.Interaction[Any]) -> None:
        embed = discord.Embed(title="Chart").set_image(url="attachment://chart.png")
        await interaction.response.send_message(
            embed=embed, file=discord.File(io.BytesIO(chart_png()), "chart.png")
        )

    @bot.tree.command(description="Post text to another channel (a tour of channel REST)")
    async def announce(
        interaction: discord.Interaction[Any], channel: discord.TextChannel, text: str
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        scratch = await channel.send("scratch")
        posted = await channel.send(text.upper())
        await posted.edit(content=text)
        await (await channel.fetch_message(scratch.id)).delete()
        history = [message.content async for message in channel.history(limit=10)]
        fetched = await interaction.client.fetch_channel(channel.id)
        guild = await interaction.client.fetch_guild(channel.guild.id)
        await interaction.edit_original_response(
            content=f"Sent to {fetched.mention} in {guild.name}; history={history}"
        )

    @bot.tree.command(description="Describe a member")
    async def whois(
        interaction: discord.Interaction[Any], who: discord.Member, role: discord.Role
    ) -> None:
        has = "has" if role in who.roles else "lacks"
        await interaction.response.send_message(f"{who.mention} {has} {role.name}")

    @bot.tree.command(description="Measure an uploaded file")
    async def inspect(interaction: discord.Interaction[Any], file: discord.Attachment) -> None:
        data = await file.read()
        await interaction.response.send_message(
            f"{file.filename}: {len(data)} bytes, {file.content_type}"
        )

    return bot


async def main() -> None:
    apply_discord_overrides()
    discord.utils.setup_logging(level=logging.getLevelName(os.environ.get("LOG_LEVEL", "INFO")))
    bot = build_bot(int(os.environ["DEV_GUILD_ID"]))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    async with bot:
        runner = asyncio.create_task(bot.start(os.environ["DISCORD_TOKEN"]))
        stopper = asyncio.create_task(stop.wait())
        await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        await bot.close()
        stopper.cancel()
        await runner


if __name__ == "__main__":
    asyncio.run(main())
