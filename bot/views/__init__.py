"""Buttons and forms. Every custom_id starts with :data:`PREFIX`, the scheme's version."""

from typing import Final

#: Version of the custom_id scheme: parse old versions when it changes, never reuse one.
PREFIX: Final = "sb1"
