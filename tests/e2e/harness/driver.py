"""Guild members that act like Discord clients: slash commands, clicks, modals, autocomplete.

Every method first checks the request against what the bot actually synced (command
names, option names and types, choices, ranges, visible enabled buttons, modal fields) and
raises ``ContractError`` in the test if a real client could not have sent it. That keeps
tests honest: they can only do what a user could do against the bot's real definitions.
"""

# The harness API takes explicit per-call timeouts (`await inter.reply(timeout=5)`) so every
# expectation states its own bound; asyncio.timeout() is used inside.
# ruff: noqa: ASYNC109

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .model import (
    JSON,
    Attachment,
    Channel,
    Interaction,
    Message,
    Modal,
    ModalField,
    Role,
    utc_now_iso,
)

if TYPE_CHECKING:
    from .fake import FakeDiscord

__all__ = ["ContractError", "Interaction", "Member", "Message", "Modal", "Upload"]

# Application command option types.
_SUBCOMMAND = 1
_GROUP = 2
_STRING = 3
_INTEGER = 4
_BOOLEAN = 5
_USER = 6
_CHANNEL = 7
_ROLE = 8
_MENTIONABLE = 9
_NUMBER = 10
_ATTACHMENT = 11


class ContractError(AssertionError):
    """The test asked for something no Discord client could send to this bot."""


@dataclass(frozen=True)
class Upload:
    """A file a member attaches to an ``attachment`` option."""

    filename: str
    data: bytes


@dataclass
class _Resolved:
    """The ``resolved`` block Discord attaches to command interactions."""

    fake: FakeDiscord
    member: Member
    channel: Channel
    users: JSON = field(default_factory=dict)
    members: JSON = field(default_factory=dict)
    roles: JSON = field(default_factory=dict)
    channels: JSON = field(default_factory=dict)
    attachments: JSON = field(default_factory=dict)

    def payload(self) -> JSON:
        blocks = ("users", "members", "roles", "channels", "attachments")
        return {name: getattr(self, name) for name in blocks if getattr(self, name)}

    def add_member(self, member: Member) -> str:
        key = str(member.id)
        self.users[key] = member.user_payload()
        self.members[key] = {
            k: v for k, v in self.fake.member_payload(member).items() if k != "user"
        }
        return key

    def add_role(self, role: Role) -> str:
        self.roles[str(role.id)] = role.payload()
        return str(role.id)

    def add_channel(self, channel: Channel) -> str:
        self.channels[str(channel.id)] = self.fake.channel_payload(channel, self.member)
        return str(channel.id)

    def add_attachment(self, upload: Upload) -> str:
        attachment: Attachment = self.fake.store_upload(self.channel, upload.filename, upload.data)
        self.attachments[str(attachment.id)] = attachment.payload() | {"ephemeral": True}
        return str(attachment.id)


@dataclass(eq=False)
class Member:
    """A guild member. Create with ``fake.add_member``; its methods dispatch interactions."""

    fake: FakeDiscord
    id: int
    name: str
    roles: list[Role]
    permissions: int
    locale: str = "en-US"
    joined_at: str = field(default_factory=utc_now_iso)
    #: The server this member is in (0: the fake's own guild, ``fake.guild_id``).
    guild_id: int = 0

    def __repr__(self) -> str:
        return f"<Member {self.name} id={self.id}>"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def user_payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": False,
            "public_flags": 0,
        }

    async def slash(self, channel: Channel, path: str, /, **options: Any) -> Interaction:
        """Invoke ``/path`` (space-separated for subcommands) with typed, validated options."""
        data = self._command_data(channel, path, options, focused=None)
        return await self.fake.dispatch_interaction(self, kind=2, channel=channel, data=data)

    async def autocomplete(
        self,
        channel: Channel,
        path: str,
        /,
        *,
        focused: str,
        value: str,
        timeout: float = 5.0,
        **options: Any,
    ) -> list[JSON]:
        """Type ``value`` into option ``focused``; return the choices the bot offers."""
        data = self._command_data(channel, path, options | {focused: value}, focused=focused)
        interaction = await self.fake.dispatch_interaction(self, kind=4, channel=channel, data=data)
        callback = await interaction.ack(timeout)
        if callback.type != 8:
            raise AssertionError(f"autocomplete was answered with {callback.name}")
        choices: list[JSON] = callback.data.get("choices", [])
        return choices

    async def click(
        self, message: Message, *, label: str | None = None, custom_id: str | None = None
    ) -> Interaction:
        """Press the enabled button with this ``label``/``custom_id`` in the current state."""
        if (label is None) == (custom_id is None):
            raise TypeError("pass exactly one of label= or custom_id=")
        if message.deleted:
            raise ContractError(f"cannot click on deleted {message!r}")
        if message.ephemeral_to not in (None, self.id):
            raise ContractError(f"{self!r} cannot see ephemeral {message!r}")
        candidates = [
            button
            for button in message.buttons
            if (button["label"] == label if label is not None else button["custom_id"] == custom_id)
            and button["style"] not in (5, 6)
        ]
        enabled = [button for button in candidates if not button["disabled"]]
        if len(enabled) != 1:
            problem = "no" if not candidates else "only a disabled" if not enabled else "ambiguous"
            raise ContractError(f"{problem} button {label or custom_id!r} on {message!r}")
        data = {"custom_id": enabled[0]["custom_id"], "component_type": 2}
        channel = self.fake.channels[message.channel_id]
        return await self.fake.dispatch_interaction(
            self, kind=3, channel=channel, data=data, message=message
        )

    async def submit_modal(
        self, opener: Interaction, values: dict[str, str | list[str]]
    ) -> Interaction:
        """Fill the modal ``opener`` was answered with; keys are field custom_ids or labels."""
        modal = opener.modal
        if modal is None:
            raise ContractError(f"{opener!r} did not open a modal (await opener.ack() first)")
        if opener.member is not self:
            raise ContractError(
                f"the modal of {opener!r} was shown to {opener.member!r}, not {self!r}"
            )
        remaining = dict(values)
        submitted: dict[str, JSON] = {}
        for modal_field in modal.fields:
            key = next(
                (k for k in (modal_field.custom_id, modal_field.label) if k in remaining), None
            )
            value = remaining.pop(key) if key is not None else modal_field.value
            submitted[modal_field.custom_id] = _field_answer(modal_field, value)
        if remaining:
            names = [f"{f.custom_id}/{f.label}" for f in modal.fields]
            raise ContractError(
                f"modal {modal.custom_id!r} has no fields {list(remaining)}; fields: {names}"
            )
        data = {"custom_id": modal.custom_id, "components": _modal_answer(modal, submitted)}
        return await self.fake.dispatch_interaction(
            self, kind=5, channel=opener.channel, data=data, message=opener.message
        )

    # ------------------------------------------------------------------ option building

    def _command_data(
        self, channel: Channel, path: str, options: dict[str, Any], *, focused: str | None
    ) -> JSON:
        name, *subpath = path.split()
        guild = self.fake.guild_of(self)
        command, is_guild = self.fake.find_command(name, guild=guild)
        resolved = _Resolved(self.fake, self, channel)
        node = command
        chain: list[JSON] = []
        for part in subpath:
            node = next(
                (
                    o
                    for o in node.get("options", [])
                    if o["name"] == part and o["type"] in (_SUBCOMMAND, _GROUP)
                ),
                {},
            )
            if not node:
                raise ContractError(f"/{path}: no subcommand {part!r}")
            chain.append(node)
        if any(o["type"] in (_SUBCOMMAND, _GROUP) for o in node.get("options", [])):
            subs = [o["name"] for o in node["options"]]
            raise ContractError(f"/{path} is a group; pick one of {subs}")
        built = _build_values(path, node.get("options", []), options, resolved, focused=focused)
        for sub in reversed(chain):
            built = [{"name": sub["name"], "type": sub["type"], "options": built}]
        data: JSON = {"id": command["id"], "name": name, "type": 1, "options": built}
        if is_guild:
            data["guild_id"] = str(guild.id)
        if resolved.payload():
            data["resolved"] = resolved.payload()
        return data


def _field_answer(modal_field: ModalField, value: str | list[str] | None) -> JSON:
    """What the client submits for one field, refusing what the client would not allow."""
    where = f"modal field {modal_field.label or modal_field.custom_id!r}"
    if modal_field.type == 4:
        text = "" if value is None else value
        if not isinstance(text, str):
            raise ContractError(f"{where} is a text input, got {text!r}")
        low, high = modal_field.min_length or 0, modal_field.max_length or 4000
        if modal_field.required and not text:
            raise ContractError(f"{where} is required")
        if text and not low <= len(text) <= high:
            raise ContractError(f"{where} takes {low}..{high} characters, got {len(text)}")
        return {"type": 4, "custom_id": modal_field.custom_id, "value": text}
    chosen = [] if value is None else [value] if isinstance(value, str) else list(value)
    if modal_field.required and not chosen:
        raise ContractError(f"{where} is required")
    if not set(chosen) <= set(modal_field.options) or len(chosen) > modal_field.max_values:
        raise ContractError(f"{where} offers {modal_field.options}, cannot take {chosen}")
    return {"type": 3, "custom_id": modal_field.custom_id, "values": chosen}


def _modal_answer(modal: Modal, submitted: dict[str, JSON]) -> list[JSON]:
    """Mirror the modal layout (Label wrappers or legacy action rows) with the values."""
    answer: list[JSON] = []
    for top in modal.components:
        if top["type"] == 18 and top["component"]["custom_id"] in submitted:
            answer.append({"type": 18, "component": submitted[top["component"]["custom_id"]]})
        elif top["type"] == 1:
            inner = [
                submitted[c["custom_id"]]
                for c in top["components"]
                if c.get("custom_id") in submitted
            ]
            answer.append({"type": 1, "components": inner})
    return answer


def _build_values(
    path: str,
    definitions: list[JSON],
    given: dict[str, Any],
    resolved: _Resolved,
    *,
    focused: str | None,
) -> list[JSON]:
    by_name = {d["name"]: d for d in definitions}
    built: list[JSON] = []
    for key, value in given.items():
        definition = by_name.get(key) or by_name.get(key.replace("_", "-"))
        if definition is None:
            raise ContractError(f"/{path} has no option {key!r}; options: {list(by_name)}")
        option: JSON = {"name": definition["name"], "type": definition["type"]}
        if key == focused:
            if not definition.get("autocomplete"):
                raise ContractError(f"/{path} option {key!r} has no autocomplete")
            option |= {"value": str(value), "focused": True}
        else:
            option["value"] = _coerce(path, definition, value, resolved)
        built.append(option)
    if focused is None:
        missing = [
            d["name"]
            for d in definitions
            if d.get("required") and d["name"] not in {o["name"] for o in built}
        ]
        if missing:
            raise ContractError(f"/{path} is missing required options {missing}")
    return built


def _coerce(path: str, definition: JSON, value: Any, resolved: _Resolved) -> Any:
    """Turn a test-supplied value into what the Discord client would send, or refuse."""
    kind = definition["type"]
    where = f"/{path} option {definition['name']!r}"
    result: Any
    if kind == _STRING:
        if not isinstance(value, str):
            raise ContractError(f"{where} is a string option, got {value!r}")
        if not definition.get("min_length", 0) <= len(value) <= definition.get("max_length", 6000):
            raise ContractError(f"{where}: length of {value!r} out of range")
        result = value
    elif kind in (_INTEGER, _NUMBER):
        try:
            if isinstance(value, bool):
                raise ValueError(value)
            result = int(value) if kind == _INTEGER else float(value)
        except ValueError:
            raise ContractError(f"{where} takes a number, got {value!r}") from None
        low, high = definition.get("min_value"), definition.get("max_value")
        if (low is not None and result < low) or (high is not None and result > high):
            raise ContractError(f"{where}: {result} outside [{low}, {high}]")
    elif kind == _BOOLEAN:
        if not isinstance(value, bool):
            raise ContractError(f"{where} takes a bool, got {value!r}")
        result = value
    elif kind in (_USER, _MENTIONABLE) and isinstance(value, Member):
        result = resolved.add_member(value)
    elif kind in (_ROLE, _MENTIONABLE) and isinstance(value, Role):
        result = resolved.add_role(value)
    elif kind == _CHANNEL and isinstance(value, Channel):
        allowed = definition.get("channel_types")
        if allowed and value.type not in allowed:
            raise ContractError(f"{where} accepts channel types {allowed}, not {value.type}")
        result = resolved.add_channel(value)
    elif kind == _ATTACHMENT and isinstance(value, Upload):
        result = resolved.add_attachment(value)
    else:
        raise ContractError(f"{where} (type {kind}) cannot take {value!r}")
    choices = definition.get("choices")
    if choices and result not in [choice["value"] for choice in choices]:
        raise ContractError(f"{where}: {result!r} is not one of {[c['value'] for c in choices]}")
    return result
