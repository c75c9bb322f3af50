"""The custom_id scheme: every id the bot draws parses back to its press; anything else
(another bot's id, a forged key, an out-of-range number) is not ours."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.edge import ids
from bot.edge.buttons import ROUTES
from bot.edge.forms import FORMS
from bot.edge.ids import MAX_KEY, Kind, Press, parse

KEYS = st.integers(min_value=1, max_value=MAX_KEY)
VERSIONS = st.integers(min_value=1, max_value=ids.MAX_VERSION)


@pytest.mark.parametrize(
    ("custom_id", "press"),
    [
        ("sb1:will:12", Press(Kind.ROLL, "will", 12)),
        ("sb1:beat:12", Press(Kind.ROLL, "beat", 12)),
        ("sb1:retry:12", Press(Kind.ROLL, "retry", 12)),
        ("sb1:ext:roll:5:3", Press(Kind.EXTENDED_CARD, "roll", 5, 3)),
        ("sb1:ext:take_condition:5:3", Press(Kind.EXTENDED_CARD, "take_condition", 5, 3)),
        ("sb1:extroll:will:7", Press(Kind.EXTENDED_ROLL, "will", 7)),
        ("sb1:extcond:5:3", Press(Kind.CONDITION_FORM, "", 5, 3)),
        ("sb1:team:help:4:2", Press(Kind.TEAMWORK_CARD, "help", 4, 2)),
        ("sb1:resist:9", Press(Kind.RESIST, "", 9)),
        ("sb1:form:resist:9", Press(Kind.POOL_FORM, "resist", 9)),
        ("sb1:init:next:6:4", Press(Kind.INITIATIVE_CARD, "next", 6, 4)),
        ("sb1:again:12", Press(Kind.ROLL, "again", 12)),
        ("sb1:save:12", Press(Kind.ROLL, "save", 12)),
        ("sb1:saveas:12", Press(Kind.SAVE_FORM, "", 12)),
    ],
)
def test_ids_drawn_before_this_change_keep_working(custom_id: str, press: Press) -> None:
    assert parse(custom_id) == press
    assert ids.format_id(press) == custom_id


@pytest.mark.parametrize(
    "custom_id",
    [
        "", "garbage", "sb0:will:1", "SB1:will:1", "\u200bsb1:will:1", "sb1:will:1\n",
        "sb1:will:0", "sb1:will:-1", "sb1:will:01x", "sb1:will:9223372036854775808",
        "sb1:will:99999999999999999999", "sb1:nothing:1", "sb1:ext:fly:1:1", "sb1:ext:roll:1",
        "sb1:team:help:1", "sb1:resist:1:1", "sb1:will:1:2", "sb1:extcond:1:2147483648",
    ],
)
def test_anything_else_is_not_ours(custom_id: str) -> None:
    assert parse(custom_id) is None


@given(key=KEYS, version=VERSIONS)
def test_every_builder_parses_back(key: int, version: int) -> None:
    drawn = [
        ids.roll_button("will", key),
        ids.extended_button("abandon", key, version),
        ids.extended_roll_button("beat", key),
        ids.condition_form(key, version),
        ids.teamwork_button("cancel", key, version),
        ids.helper_roll_button("will", key),
        ids.resist_button(key),
        ids.pool_form("help", key),
    ]
    for custom_id in drawn:
        press = parse(custom_id)
        assert press is not None
        assert ids.format_id(press) == custom_id
        assert press.key == key
        assert re.fullmatch(ids.TEMPLATE, custom_id), "the one router must see it"
        assert len(custom_id) <= 100, "Discord's custom_id limit"


def test_every_kind_of_id_reaches_one_flow() -> None:
    """A button kind is answered by the one button router, a form kind by the form router;
    none is left to the stale answer, none is routed twice."""
    forms = {Kind.CONDITION_FORM, Kind.POOL_FORM, Kind.SAVE_FORM}
    assert set(FORMS) == forms
    assert set(ROUTES) == set(Kind) - forms
