"""Flow tests: a real SQLite store, scripted dice, a recording responder, no Discord.

A test builds a :class:`Ctx` by hand, runs a flow through the same
:func:`bot.flows.reply.run` the edge uses, and reads what the member would
have seen from the :class:`Recorder`.

On SQLite the flows speak the pseudo-locales of :mod:`tests.flows.pseudo`
(the member's own and the table's), and every message is checked for words
that came from no catalogue before the test reads it, in English; on
PostgreSQL they speak English itself. A test about a real language turns the
pseudo-locales off with :meth:`Table.speak`. Every message and form is also checked
against Discord's limits, as the e2e fake checks them: what Discord would refuse (a
description past 4,096 characters, a message past 2,000) fails the test, where the
member would have lost the answer.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.flows.context import Ctx, Deps
from bot.flows.reply import Edit, Reply, run
from bot.render import lang
from bot.render.message import Message
from bot.store import Store
from engine.faces import FaceSource, ScriptedFaces
from engine.models import Term
from engine.parser import NamedPart
from tests.e2e.harness.validation import message_errors, modal_errors
from tests.flows import pseudo

GUILD = 1_000_000_000_000_000_001
CHANNEL = 2_000_000_000_000_000_002
COPIES = 2_000_000_000_000_000_009
ALICE = 3_000_000_000_000_000_003
BOB = 3_000_000_000_000_000_004
STORYTELLER = 3_000_000_000_000_000_005


def parts(terms: Iterable[Term]) -> tuple[NamedPart, ...]:
    """Typed terms as a command's ``pool`` option reaches a flow (numbers, no bare names)."""
    return tuple(NamedPart(t.label, abs(t.value), t.value < 0) for t in terms)


class Faces:
    """Scripted faces that a test can extend between steps."""

    def __init__(self) -> None:
        self._script = ScriptedFaces([])
        self._queued: list[int] = []

    def add(self, *faces: int) -> None:
        self._queued.extend(faces)

    def draw(self, count: int) -> list[int]:
        faces = self._queued[:count]
        if len(faces) < count:
            # The scripted source raises the same error the engine sees with too few faces.
            return ScriptedFaces(faces).draw(count)
        del self._queued[:count]
        return faces

    @property
    def left(self) -> int:
        return len(self._queued)


def within_discord_limits(message: Message) -> None:
    """Fail where Discord would refuse the message (its content, embed and buttons)."""
    body: dict[str, Any] = {}
    if message.content is not None:
        body["content"] = message.content
    if message.embed is not None:
        body["embeds"] = [message.embed.to_dict()]
    if message.view is not None:
        body["components"] = message.view.to_components()
    errors = message_errors(body)
    assert not errors, f"Discord would refuse this message: {errors}"


@dataclass
class Said:
    """One message the member or the channel saw."""

    message: Message
    ephemeral: bool
    kind: str
    """"respond", "update", "followup", "post", "edit" or "modal"."""
    target: int | None = None
    """The channel of a post, the message of an edit."""

    @property
    def text(self) -> str:
        """Content, embed title, description and fields, for assertions."""
        parts = [self.message.content or ""]
        embed = self.message.embed
        if embed is not None:
            parts += [embed.title or "", embed.description or ""]
            parts += [f"{f.name}: {f.value}" for f in embed.fields]
            if embed.footer.text:
                parts.append(embed.footer.text)
        return "\n".join(part for part in parts if part)

    @property
    def buttons(self) -> list[str]:
        """The labels of the message's buttons."""
        view = self.message.view
        if view is None:
            return []
        return [str(item.label) for item in view.children if isinstance(item, discord.ui.Button)]

    @property
    def custom_ids(self) -> list[str]:
        view = self.message.view
        if view is None:
            return []
        return [
            str(item.custom_id) for item in view.children if isinstance(item, discord.ui.Button)
        ]


@dataclass
class Recorder:
    """A responder that records instead of sending; message ids count up from 900."""

    said: list[Said] = field(default_factory=list)
    modals: list[discord.ui.Modal] = field(default_factory=list)
    unpostable: set[int] = field(default_factory=set)
    pseudo: bool = False
    """Check each message in the pseudo-locales, then record it in English."""
    _answered: bool = False
    _next_id: int = 900

    def _id(self) -> int:
        self._next_id += 1
        return self._next_id

    def _said(self, message: Message, ephemeral: bool, kind: str, target: int | None = None
              ) -> None:
        if self.pseudo:
            message = pseudo.heard(message, ephemeral=ephemeral)
        within_discord_limits(message)
        self.said.append(Said(message, ephemeral, kind, target))

    def answered(self) -> bool:
        return self._answered

    async def respond(self, message: Message, *, ephemeral: bool) -> int | None:
        assert not self._answered, "an interaction is answered once"
        self._answered = True
        self._said(message, ephemeral, "respond")
        return None if ephemeral else self._id()

    async def update(self, message: Message) -> None:
        assert not self._answered, "an interaction is answered once"
        self._answered = True
        self._said(message, False, "update")

    async def open_modal(self, modal: discord.ui.Modal) -> None:
        assert not self._answered, "an interaction is answered once"
        self._answered = True
        errors = modal_errors(modal.to_dict())
        assert not errors, f"Discord would refuse this form: {errors}"
        self.modals.append(pseudo.heard_form(modal) if self.pseudo else modal)

    async def followup(self, message: Message, *, ephemeral: bool) -> None:
        assert self._answered, "a follow-up comes after the answer"
        self._said(message, ephemeral, "followup")

    async def post(self, channel_id: int, message: Message) -> int | None:
        if channel_id in self.unpostable:
            return None
        self._said(message, False, "post", channel_id)
        return self._id()

    def edit_later(self, edit: Edit) -> None:
        self._said(edit.message, False, "edit", edit.message_id)

    @property
    def answer(self) -> Said:
        """The interaction's own answer (the first message, or the update)."""
        return next(s for s in self.said if s.kind in {"respond", "update"})

    def of(self, kind: str) -> list[Said]:
        return [s for s in self.said if s.kind == kind]


@dataclass
class Table:
    """The store, the dice and one responder per interaction."""

    deps: Deps
    faces: Faces
    last: Recorder | None = None
    pseudo: bool = False
    """Speak the pseudo-locales (SQLite) rather than English (PostgreSQL)."""
    locale: str | None = None
    """The members' client locale when not in the pseudo-locales (None: Discord's
    default, English)."""
    guild_locale: str | None = None

    def speak(self, locale: str | None, guild_locale: str | None = None) -> None:
        """Play in real languages from now on: the members' client and the server's
        preferred locale (the pseudo-locales are off)."""
        self.pseudo = False
        self.locale, self.guild_locale = locale, guild_locale

    @property
    def _locales(self) -> tuple[str | None, str | None]:
        return (pseudo.OWN, pseudo.PUBLIC) if self.pseudo else (self.locale, self.guild_locale)

    def ctx(
        self,
        user_id: int = ALICE,
        *,
        name: str | None = None,
        storyteller: bool = False,
        message_id: int | None = None,
        channel_id: int = CHANNEL,
        parent_id: int | None = None,
        roles: Iterable[int] = (),
    ) -> Ctx:
        names = {ALICE: "Alice", BOB: "Bob", STORYTELLER: "Storyteller"}
        return Ctx(
            guild_id=GUILD,
            channel_id=channel_id,
            user_id=user_id,
            user_name=name or names.get(user_id, "Member"),
            parent_id=parent_id,
            manages_channel=storyteller or user_id == STORYTELLER,
            role_ids=frozenset(roles),
            message_id=message_id,
            locale=self._locales[0],
            guild_locale=self._locales[1],
        )

    async def run(self, flow: Awaitable[Reply], *, unpostable: Iterable[int] = ()) -> Recorder:
        """Run a flow as the edge does; the recorder of what it said."""
        recorder = Recorder(unpostable=set(unpostable), pseudo=self.pseudo)
        self.last = recorder
        with lang.speaking(lang.personal_voice(self._locales[0])):
            await run(flow, recorder)
        return recorder

    @property
    def store(self) -> Store:
        return self.deps.store


@pytest.fixture
async def table(
    store_target: Path | str, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Table]:
    """A table on each backend (tests/conftest.py): SQLite in the pseudo-locales, then
    PostgreSQL in English."""
    monkeypatch.setitem(lang.EXTRA, pseudo.OWN, pseudo.OWN_VOICE)
    monkeypatch.setitem(lang.EXTRA, pseudo.PUBLIC, pseudo.PUBLIC_VOICE)
    store = await Store.open(store_target)
    faces = Faces()
    source: FaceSource = faces
    yield Table(
        deps=Deps(store=store, faces=source), faces=faces, pseudo=isinstance(store_target, Path)
    )
    await store.close()


