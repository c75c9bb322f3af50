"""End-to-end harness: a fake Discord, members that drive it, and a bot-process runner."""

from .driver import ContractError, Member, Upload
from .fake import FakeDiscord, Guild, ReadyMark
from .model import (
    Attachment,
    Callback,
    Channel,
    Failure,
    Interaction,
    LateAck,
    Message,
    Modal,
    Role,
)
from .process import BotExitedError, BotProcess, StartBot

__all__ = [
    "Attachment",
    "BotExitedError",
    "BotProcess",
    "Callback",
    "Channel",
    "ContractError",
    "Failure",
    "FakeDiscord",
    "Guild",
    "Interaction",
    "LateAck",
    "Member",
    "Message",
    "Modal",
    "ReadyMark",
    "Role",
    "StartBot",
    "Upload",
]
