"""The pseudo-locale check itself: it must catch what it is there to catch."""

from __future__ import annotations

import pytest

from tests.flows.pseudo import check, strip


def test_words_inside_their_marks_user_text_and_discord_markup_pass() -> None:
    check("⟦**‹Alice›** rolls 3 dice⟧ 🎲 8 ~~1~~ <@123> <#45> <t:1700000000:R> "
          "https://discord.com/channels/1/2/3 ⟦⟦Success⟧: 2⟧", ephemeral=False, where="test")
    check("⟪Only ‹Bob› can press this.⟫", ephemeral=True, where="test")


@pytest.mark.parametrize(
    ("text", "ephemeral"),
    [("⟦Success⟧ — 2 successes", False),   # words from no catalogue
     ("Try again", True),
     ("⟪Success⟫", False),                 # a public message in the member's voice
     ("⟪Nope: ⟦Success⟧⟫", True),          # the table's words in a private answer
     ("⟦Roll⟧ ‹Bob› rolls", False)],
)
def test_stray_or_misplaced_words_fail(
    text: str, ephemeral: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PSEUDO_REPORT", raising=False)
    with pytest.raises(AssertionError):
        check(text, ephemeral=ephemeral, where="test")


def test_the_test_reads_english_once_checked() -> None:
    assert strip("⟦‹Alice› rolls ⟦Success⟧⟧") == "Alice rolls Success"
