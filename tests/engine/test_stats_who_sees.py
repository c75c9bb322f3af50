"""Who sees secret rolls in /stats totals (COMMANDS.md "Dice statistics", "private").

A secret roll shows its dice only to its roller and the Storyteller, so /stats
counts it for them and for nobody else: no total tells a member who rolled what
in secret. :func:`engine.stats.parts` names the counters a viewer's totals add
up; here they are added up over a small log, the way the store keeps them (a
counter per channel, or 0 for every channel of the server; per roller, or 0 for
everyone; per public or secret), and compared with the rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

import pytest

from engine.stats import Part, parts

ALICE, BOB, STORYTELLER = 11, 22, 33
HALL, CRYPT = 6, 7


class Logged(NamedTuple):
    name: str
    channel: int
    roller: int
    private: bool


LOG = (
    Logged("Alice in the hall", HALL, ALICE, private=False),
    Logged("Alice's secret in the hall", HALL, ALICE, private=True),
    Logged("Alice's secret in the crypt", CRYPT, ALICE, private=True),
    Logged("Bob in the hall", HALL, BOB, private=False),
    Logged("Bob's secret in the hall", HALL, BOB, private=True),
    Logged("Bob in the crypt", CRYPT, BOB, private=False),
    Logged("the Storyteller's secret in the crypt", CRYPT, STORYTELLER, private=True),
)


def counted(found: Iterable[Part]) -> Counter[str]:
    """Every roll the counters of ``found`` add up, as often as they add it."""
    return Counter(
        roll.name
        for part in found
        for private in part.private
        for roll in LOG
        if (part.channel_id in (0, roll.channel) if part.channels is None
            else roll.channel in part.channels)
        and part.roller_id in (0, roll.roller)
        and roll.private is private
    )


def expected(
    channel: int | None, member: int | None, viewer: int, *, storyteller: bool
) -> Counter[str]:
    """The rule: the rolls in scope, each once; a secret one only for its roller and the
    Storyteller."""
    return Counter(
        roll.name for roll in LOG
        if channel in (None, roll.channel)
        and member in (None, roll.roller)
        and (not roll.private or storyteller or roll.roller == viewer)
    )


VIEWERS = [(ALICE, False), (BOB, False), (STORYTELLER, True), (ALICE, True)]


@pytest.mark.parametrize(("viewer", "storyteller"), VIEWERS)
@pytest.mark.parametrize("channel", [None, HALL, CRYPT])
def test_a_secret_roll_counts_in_the_table_totals_only_for_its_roller_and_the_storyteller(
    channel: int | None, viewer: int, storyteller: bool,
) -> None:
    found = parts(channel_id=channel, member_id=None, viewer_id=viewer,
                  sees_secrets=storyteller)
    assert counted(found) == expected(channel, None, viewer, storyteller=storyteller)


@pytest.mark.parametrize(("viewer", "storyteller"), VIEWERS)
@pytest.mark.parametrize("member", [ALICE, BOB])
@pytest.mark.parametrize("channel", [None, HALL, CRYPT])
def test_a_members_totals_include_their_secret_rolls_only_for_them_and_the_storyteller(
    channel: int | None, member: int, viewer: int, storyteller: bool,
) -> None:
    found = parts(channel_id=channel, member_id=member, viewer_id=viewer,
                  sees_secrets=storyteller)
    assert counted(found) == expected(channel, member, viewer, storyteller=storyteller)


def test_a_player_sees_the_tables_public_rolls_and_their_own_secrets_only() -> None:
    seen = counted(parts(channel_id=None, member_id=None, viewer_id=ALICE, sees_secrets=False))
    assert seen == Counter({
        "Alice in the hall": 1, "Alice's secret in the hall": 1,
        "Alice's secret in the crypt": 1, "Bob in the hall": 1, "Bob in the crypt": 1,
    })


def test_another_members_totals_leave_their_secret_rolls_out() -> None:
    seen = counted(parts(channel_id=HALL, member_id=BOB, viewer_id=ALICE, sees_secrets=False))
    assert seen == Counter({"Bob in the hall": 1})


def test_the_storyteller_sees_every_roll_once() -> None:
    seen = counted(parts(channel_id=None, member_id=None, viewer_id=STORYTELLER,
                         sees_secrets=True))
    assert seen == Counter({roll.name: 1 for roll in LOG})


@pytest.mark.parametrize(("viewer", "storyteller"), VIEWERS)
@pytest.mark.parametrize("member", [None, ALICE, BOB, STORYTELLER])
def test_over_the_server_a_member_counts_others_rolls_only_where_they_can_read(
    member: int | None, viewer: int, storyteller: bool,
) -> None:
    """Over the whole server, a viewer who is not the Storyteller counts the rolls of the
    channels they can read (here the hall, not the crypt); their own rolls, when they ask
    for them by name, wherever they made them. The Storyteller counts every channel."""
    found = parts(channel_id=None, member_id=member, viewer_id=viewer,
                  sees_secrets=storyteller, readable=frozenset({HALL}))
    everywhere = storyteller or member == viewer
    rule = expected(None, member, viewer, storyteller=storyteller)
    assert counted(found) == Counter({
        name: times for name, times in rule.items()
        if everywhere or next(roll for roll in LOG if roll.name == name).channel == HALL
    })


def test_a_player_counts_no_roll_of_a_channel_hidden_from_them() -> None:
    seen = counted(parts(channel_id=None, member_id=None, viewer_id=BOB, sees_secrets=False,
                         readable=frozenset({HALL})))
    assert seen == Counter({"Alice in the hall": 1, "Bob in the hall": 1,
                            "Bob's secret in the hall": 1})
