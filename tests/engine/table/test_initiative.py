"""The initiative tracker (RULES.md §7): order, ties and roll-offs, turns, delays, refusals."""

from __future__ import annotations

import pytest

from engine.faces import ScriptedFaces, seeded_faces
from engine.models import Ruleset, SkillCategory
from engine.refusals import RefusalCode
from engine.roll import RuleError
from engine.table import initiative
from engine.table.initiative import Entrant, Move, Status, Tracker

ST = 1
ALICE = 2
BOB = 3
CARA = 4


def faces(*values: int) -> ScriptedFaces:
    return ScriptedFaces(values)


def join(tracker: Tracker, name: str, owner: int, pool: int, *rolled: int,
         modifier: int = 0) -> Tracker:
    """``owner`` joins; exactly the faces ``rolled`` are drawn."""
    source = faces(*rolled)
    after = initiative.joined(tracker, Entrant(name=name, owner_id=owner, pool=pool,
                                               modifier=modifier), source)
    assert source.remaining == 0, "the join drew the faces the order of draws fixes"
    return after


def add(tracker: Tracker, name: str, pool: int, *rolled: int, count: int | None = None,
        modifier: int = 0) -> Tracker:
    source = faces(*rolled)
    after = initiative.added(
        tracker, Entrant(name=name, owner_id=ST, pool=pool, modifier=modifier), count, source,
        storyteller=True,
    )
    assert source.remaining == 0, "the add drew the faces the order of draws fixes"
    return after


def order(tracker: Tracker) -> list[str]:
    return [tracker.combatant(cid).label for cid in tracker.order]


def refused(code: RefusalCode) -> pytest.RaisesExc[RuleError]:
    return pytest.raises(RuleError, match=f"^{code.value}$")


def nxt(tracker: Tracker, member: int = ST) -> Tracker:
    return initiative.next_turn(tracker, member, storyteller=member == ST).tracker


def acting(tracker: Tracker) -> str | None:
    return None if tracker.acting is None else tracker.acting.label


# --- order and ties -----------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", [Ruleset.COFD, Ruleset.V20])
def test_cofd_and_v20_initiative_is_traits_plus_modifier_plus_one_die_highest_first(
    ruleset: Ruleset,
) -> None:
    tracker = initiative.opened(ruleset)
    tracker = join(tracker, "Alice", ALICE, 5, 3)  # 8
    tracker = join(tracker, "Bob", BOB, 4, 9, modifier=-2)  # 11
    tracker = add(tracker, "Goblin", 2, 7)  # 9
    assert order(tracker) == ["Bob", "Goblin", "Alice"]
    bob = tracker.combatant(tracker.order[0])
    assert (bob.fixed, bob.faces, bob.total, bob.modifier) == (2, (9,), 11, -2)


def test_cofd_tie_goes_to_the_higher_fixed_part_without_a_roll_off() -> None:
    tracker = initiative.opened(Ruleset.COFD)
    tracker = join(tracker, "Alice", ALICE, 3, 7)  # 10, fixed 3
    tracker = join(tracker, "Bob", BOB, 6, 4)  # 10, fixed 6: no roll-off face drawn
    assert order(tracker) == ["Bob", "Alice"]
    assert all(not c.rolloffs for c in tracker.combatants)


def test_cofd_full_tie_is_a_roll_off_drawn_in_the_order_the_tied_entered() -> None:
    tracker = initiative.opened(Ruleset.COFD)
    tracker = join(tracker, "Alice", ALICE, 5, 5)
    # Bob ties: Alice's roll-off (3) first, as she entered first, then Bob's (8).
    tracker = join(tracker, "Bob", BOB, 5, 5, 3, 8)
    assert order(tracker) == ["Bob", "Alice"]
    assert tracker.combatant(tracker.order[1]).rolloffs == (3,)


def test_a_roll_off_that_ties_again_is_repeated_between_those_still_tied() -> None:
    tracker = initiative.opened(Ruleset.V20)
    tracker = join(tracker, "Alice", ALICE, 5, 5)
    tracker = join(tracker, "Bob", BOB, 5, 5, 6, 6, 2, 9)  # 6-6 again, then 2 against 9
    assert order(tracker) == ["Bob", "Alice"]
    # Cara ties both: she draws 6 (level with both), then 9 (level with Bob), then
    # Bob has no third face yet: he draws 1, she draws 4.
    tracker = join(tracker, "Cara", CARA, 5, 5, 6, 9, 1, 4)
    assert order(tracker) == ["Cara", "Bob", "Alice"]


def test_a_roll_off_never_reorders_those_it_placed_before() -> None:
    tracker = initiative.opened(Ruleset.COFD)
    tracker = join(tracker, "Alice", ALICE, 5, 5)
    tracker = join(tracker, "Bob", BOB, 5, 5, 9, 1)  # Alice 9, Bob 1
    tracker = join(tracker, "Cara", CARA, 5, 5, 4)  # Cara draws 4: between them
    assert order(tracker) == ["Alice", "Cara", "Bob"]


def test_fistful_orders_by_successes_with_a_botch_last() -> None:
    tracker = initiative.opened(Ruleset.FISTFUL)
    tracker = join(tracker, "Alice", ALICE, 3, 6, 7, 2)  # 2 successes (6-10 on initiative)
    tracker = join(tracker, "Bob", BOB, 2, 1, 2)  # no successes and a 1: botch
    tracker = add(tracker, "Goblin", 2, 3, 4)  # plain failure, 0 successes
    tracker = add(tracker, "Ogre", 2, 10, 8, 3)  # the 10 explodes: 2 successes + 3: 2
    assert order(tracker) == ["Alice", "Ogre", "Goblin", "Bob"]
    bob = next(c for c in tracker.combatants if c.name == "Bob")
    assert bob.botch and bob.faces == (1, 2)
    ogre = next(c for c in tracker.combatants if c.name == "Ogre")
    assert (ogre.total, ogre.fixed, ogre.faces) == (2, 2, (10, 8, 3))


def test_fistful_tie_goes_to_the_larger_pool_then_a_roll_off() -> None:
    tracker = initiative.opened(Ruleset.FISTFUL)
    tracker = join(tracker, "Alice", ALICE, 2, 6, 2)  # 1 success, pool 2
    tracker = join(tracker, "Bob", BOB, 3, 7, 2, 3)  # 1 success, pool 3: before Alice
    tracker = join(tracker, "Cara", CARA, 2, 2, 9, 4, 5)  # 1 success, pool 2: roll-off 4 v 5
    assert order(tracker) == ["Bob", "Cara", "Alice"]


def test_fistful_modifier_joins_the_initiative_pool() -> None:
    tracker = initiative.opened(Ruleset.FISTFUL)
    tracker = join(tracker, "Alice", ALICE, 2, 6, 6, 6, modifier=1)
    alice = tracker.combatants[0]
    assert (alice.fixed, alice.total, alice.modifier) == (3, 3, 1)


def test_fistful_pool_of_zero_cannot_roll_initiative() -> None:
    tracker = initiative.opened(Ruleset.FISTFUL)
    with refused(RefusalCode.INIT_ROLL_REFUSED) as caught:
        join(tracker, "Alice", ALICE, 1, modifier=-1)
    cause = caught.value.refusal.cause
    assert cause is not None and cause.code is RefusalCode.NO_ACTION_NOW


def test_a_group_enters_one_by_one_each_rolled_separately() -> None:
    tracker = initiative.opened(Ruleset.COFD)
    tracker = add(tracker, "Guards", 3, 2, 9, 5, count=3)
    assert order(tracker) == ["Guards 2", "Guards 3", "Guards 1"]
    assert [c.group for c in tracker.combatants] == [1, 2, 3]
    assert all(c.npc and c.owner_id == ST for c in tracker.combatants)


# --- turns --------------------------------------------------------------------------------------


def fight() -> Tracker:
    """Bob 12, Alice 10, Goblin 8, gathering."""
    tracker = initiative.opened(Ruleset.COFD)
    tracker = join(tracker, "Alice", ALICE, 5, 5)
    tracker = join(tracker, "Bob", BOB, 5, 7)
    return add(tracker, "Goblin", 5, 3)


def test_the_first_next_starts_round_one_with_the_first_in_order() -> None:
    tracker = fight()
    assert (tracker.round, tracker.current) == (0, None)
    passed = initiative.next_turn(tracker, ST, storyteller=True)
    assert passed.new_round
    assert (passed.tracker.round, acting(passed.tracker)) == (1, "Bob")


def test_next_past_the_last_combatant_starts_a_new_round() -> None:
    tracker = nxt(nxt(nxt(fight())))
    assert (tracker.round, acting(tracker)) == (1, "Goblin")
    passed = initiative.next_turn(tracker, ST, storyteller=True)
    assert passed.new_round
    assert (passed.tracker.round, acting(passed.tracker)) == (2, "Bob")
    assert not initiative.next_turn(passed.tracker, ST, storyteller=True).new_round


def test_a_player_passes_only_their_own_turn() -> None:
    tracker = nxt(fight())  # Bob acts
    with refused(RefusalCode.INIT_NOT_YOUR_TURN):
        initiative.next_turn(tracker, ALICE, storyteller=False)
    assert acting(nxt(tracker, BOB)) == "Alice"


def test_only_the_storyteller_starts_the_first_round() -> None:
    with refused(RefusalCode.INIT_STORYTELLER_ONLY):
        initiative.next_turn(fight(), ALICE, storyteller=False)


def test_next_on_an_empty_tracker_is_refused() -> None:
    with refused(RefusalCode.INIT_EMPTY):
        initiative.next_turn(initiative.opened(Ruleset.COFD), ST, storyteller=True)


def test_a_next_pressed_on_a_card_of_an_earlier_turn_changes_nothing() -> None:
    tracker = fight()
    seen = tracker.turn
    moved = initiative.next_turn(tracker, ST, storyteller=True, seen_turn=seen).tracker
    with refused(RefusalCode.INIT_TURN_MOVED):
        initiative.next_turn(moved, ST, storyteller=True, seen_turn=seen)


def test_a_combatant_added_mid_round_acts_when_its_place_comes_up() -> None:
    tracker = nxt(nxt(fight()))  # Alice (10) acts
    tracker = add(tracker, "Ogre", 5, 6)  # 11: between Bob and Alice, already passed
    tracker = add(tracker, "Imp", 5, 4)  # 9: after Alice, acts this round
    assert order(tracker) == ["Bob", "Ogre", "Alice", "Imp", "Goblin"]
    assert acting(tracker) == "Alice"
    assert acting(nxt(tracker)) == "Imp"


def test_delay_leaves_the_order_and_act_now_reenters_before_whoever_is_acting() -> None:
    tracker = nxt(fight())  # Bob acts
    passed = initiative.delayed(tracker, BOB, storyteller=False)
    tracker = passed.tracker
    assert (acting(tracker), order(tracker)) == ("Alice", ["Alice", "Goblin"])
    assert tracker.delayed == (2,)
    assert initiative.offers(tracker) == (Move.JOIN, Move.NEXT, Move.DELAY, Move.ACT_NOW,
                                          Move.END)
    tracker = nxt(tracker, ALICE)  # Goblin acts
    tracker = initiative.acted_now(tracker, BOB, storyteller=False)
    assert (acting(tracker), order(tracker)) == ("Bob", ["Alice", "Bob", "Goblin"])
    assert tracker.delayed == ()
    tracker = nxt(tracker, BOB)
    assert acting(tracker) == "Goblin"  # the one Bob interrupted acts next
    tracker = nxt(tracker)
    assert (tracker.round, order(tracker), acting(tracker)) == (2, ["Alice", "Bob", "Goblin"],
                                                                "Alice")


def test_a_delayed_combatant_stays_out_through_the_rounds_until_it_acts() -> None:
    tracker = nxt(nxt(nxt(fight())))  # Goblin acts
    passed = initiative.delayed(tracker, ST, storyteller=True)
    assert passed.new_round  # the Goblin was last: round 2 starts
    assert (passed.tracker.round, acting(passed.tracker)) == (2, "Bob")
    assert order(passed.tracker) == ["Bob", "Alice"]


def test_delay_is_only_for_the_acting_combatant() -> None:
    tracker = nxt(fight())  # Bob acts
    with refused(RefusalCode.INIT_NOT_YOUR_TURN):
        initiative.delayed(tracker, ALICE, storyteller=False)
    with refused(RefusalCode.INIT_NOBODY_ACTING):
        initiative.delayed(fight(), ST, storyteller=True)
    with refused(RefusalCode.INIT_NOT_DELAYED):
        initiative.acted_now(tracker, ALICE, storyteller=False)


def test_the_only_combatant_cannot_delay() -> None:
    tracker = nxt(join(initiative.opened(Ruleset.COFD), "Alice", ALICE, 3, 3))
    with refused(RefusalCode.INIT_DELAY_ALONE):
        initiative.delayed(tracker, ALICE, storyteller=False)
    assert Move.DELAY not in initiative.offers(tracker)


def test_storyteller_brings_back_their_own_delayed_npc_first() -> None:
    tracker = nxt(fight())  # Bob
    tracker = initiative.delayed(tracker, BOB, storyteller=False).tracker  # Alice acts
    tracker = nxt(tracker, ALICE)  # Goblin acts
    tracker = initiative.delayed(tracker, ST, storyteller=True).tracker  # round 2, Alice
    back = initiative.acted_now(tracker, ST, storyteller=True)
    assert acting(back) == "Goblin"
    assert back.delayed == (2,)


def test_an_act_now_pressed_on_a_card_of_an_earlier_turn_brings_back_nobody() -> None:
    """Two presses of one card's Act now (the Storyteller's, two combatants delayed) bring
    back one: the second card showed the turn before the first moved it."""
    tracker = nxt(fight())  # Bob
    tracker = initiative.delayed(tracker, BOB, storyteller=False).tracker  # Alice acts
    tracker = initiative.delayed(tracker, ST, storyteller=True).tracker  # Goblin acts
    seen = tracker.turn
    back = initiative.acted_now(tracker, ST, storyteller=True, seen_turn=seen)
    assert (acting(back), back.delayed) == ("Bob", (1,))  # Alice stays delayed
    with refused(RefusalCode.INIT_TURN_MOVED):
        initiative.acted_now(back, ST, storyteller=True, seen_turn=seen)


def test_removing_the_acting_combatant_passes_the_turn() -> None:
    tracker = nxt(nxt(fight()))  # Alice acts
    passed, labels = initiative.removed(tracker, "alice", storyteller=True)
    assert labels == ("Alice",)
    assert (acting(passed.tracker), order(passed.tracker)) == ("Goblin", ["Bob", "Goblin"])
    assert not passed.new_round


def test_removing_a_group_by_its_name_removes_every_member() -> None:
    tracker = add(initiative.opened(Ruleset.COFD), "Guards", 3, 2, 9, count=2)
    passed, labels = initiative.removed(tracker, "Guards", storyteller=True)
    assert labels == ("Guards 1", "Guards 2") and passed.tracker.order == ()
    with refused(RefusalCode.INIT_NO_SUCH_COMBATANT):
        initiative.removed(passed.tracker, "Guards", storyteller=True)


def test_end_and_scene_end_close_the_tracker_for_every_move() -> None:
    tracker = initiative.ended(fight(), ST, storyteller=True)
    assert tracker.status is Status.ENDED and initiative.offers(tracker) == ()
    with refused(RefusalCode.INIT_ENDED):
        nxt(tracker)
    with refused(RefusalCode.INIT_ENDED):
        join(tracker, "Cara", CARA, 3)
    assert initiative.scene_ended(tracker) is None
    scene = initiative.scene_ended(fight())
    assert scene is not None and scene.status is Status.SCENE_ENDED


# --- bad input ----------------------------------------------------------------------------------


def test_a_member_joins_once() -> None:
    tracker = join(initiative.opened(Ruleset.COFD), "Alice", ALICE, 3, 3)
    with refused(RefusalCode.INIT_ALREADY_JOINED):
        join(tracker, "Alice again", ALICE, 3, 3)


def test_only_the_storyteller_adds_removes_and_ends() -> None:
    tracker = fight()
    with refused(RefusalCode.INIT_STORYTELLER_ONLY):
        initiative.added(tracker, Entrant(name="Imp", owner_id=ALICE, pool=2), None,
                         faces(5), storyteller=False)
    with refused(RefusalCode.INIT_STORYTELLER_ONLY):
        initiative.removed(tracker, "Goblin", storyteller=False)
    with refused(RefusalCode.INIT_STORYTELLER_ONLY):
        initiative.ended(tracker, ALICE, storyteller=False)


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("x" * 65, RefusalCode.INIT_NAME_LENGTH),
        ("   ", RefusalCode.INIT_NAME_LENGTH),
        ("@everyone goblin", RefusalCode.INIT_NAME_MENTION),
        ("<@123456789012345678>", RefusalCode.INIT_NAME_MENTION),
        ("boss <@&42>", RefusalCode.INIT_NAME_MENTION),
        ("\u200b", RefusalCode.INIT_NAME_INVISIBLE),
        ("\u3164\u2800", RefusalCode.INIT_NAME_INVISIBLE),
        ("\u202eBoss", RefusalCode.INIT_NAME_INVISIBLE),
        ("Goblin\u200b", RefusalCode.INIT_NAME_INVISIBLE),
        ("Goblin", RefusalCode.INIT_NAME_TAKEN),
    ],
)
def test_typed_names_are_refused_when_too_long_mentioning_or_taken(
    name: str, code: RefusalCode
) -> None:
    with refused(code):
        add(fight(), name, 3, 5)


def test_a_group_label_that_is_taken_is_refused() -> None:
    tracker = add(initiative.opened(Ruleset.COFD), "Guards 2", 3, 5)
    with refused(RefusalCode.INIT_NAME_TAKEN):
        add(tracker, "Guards", 3, count=2)  # Guards 2 is taken: nothing is rolled


def test_groups_over_twenty_and_trackers_over_fifty_are_refused() -> None:
    tracker = initiative.opened(Ruleset.COFD)
    with refused(RefusalCode.INIT_GROUP_RANGE):
        add(tracker, "Horde", 2, count=21)
    dice = seeded_faces(3)
    for name in ("Horde", "Rats"):
        tracker = initiative.added(tracker, Entrant(name=name, owner_id=ST, pool=2), 20, dice,
                                   storyteller=True)
    with refused(RefusalCode.INIT_FULL):
        add(tracker, "Bats", 1, count=11)
    tracker = initiative.added(tracker, Entrant(name="Bats", owner_id=ST, pool=2), 10, dice,
                               storyteller=True)
    assert len(tracker.order) == initiative.MAX_ENTRIES
    with refused(RefusalCode.INIT_FULL):
        join(tracker, "Alice", ALICE, 3)
    ranks = [(c.total, c.fixed, c.rolloffs) for c in map(tracker.combatant, tracker.order)]
    assert ranks == sorted(ranks, reverse=True), "every tie broken, highest first"
    assert len(set(ranks)) == len(ranks)


@pytest.mark.parametrize("modifier", [-11, 11])
def test_modifiers_outside_minus_ten_to_ten_are_refused(modifier: int) -> None:
    with refused(RefusalCode.INIT_MODIFIER_RANGE):
        join(initiative.opened(Ruleset.COFD), "Alice", ALICE, 3, modifier=modifier)


def test_a_tracker_round_trips_through_json() -> None:
    tracker = initiative.delayed(nxt(fight()), BOB, storyteller=False).tracker
    assert Tracker.model_validate_json(tracker.model_dump_json()) == tracker


@pytest.mark.parametrize(("untrained", "total"), [(None, 1), (SkillCategory.PHYSICAL, 0)])
def test_a_fistful_entrant_with_an_untrained_skill_rolls_unskilled(
    untrained: SkillCategory | None, total: int
) -> None:
    """RULES.md §7: a `fistful` initiative roll's 1s eat successes only when unskilled (or
    risky): the 1 eats the 7 only for an entrant whose pool named a 0-dot Skill."""
    source = faces(7, 1)
    after = initiative.joined(
        initiative.opened(Ruleset.FISTFUL),
        Entrant(name="Mara", owner_id=ALICE, pool=2, untrained=untrained), source,
    )
    assert source.remaining == 0
    assert after.combatants[0].total == total


def test_members_joining_under_a_name_taken_are_told_apart_by_a_number() -> None:
    """A member does not choose the name they join under (their display name or their
    character's), so two members called Alex, or a member called as an NPC, both join:
    the later one as ``Alex (2)`` (the next number free), which `/init remove` matches."""
    tracker = add(initiative.opened(Ruleset.COFD), "Alex (2)", 3, 5)
    tracker = join(tracker, "Alex", ALICE, 3, 4)
    tracker = join(tracker, "alex", BOB, 3, 6)
    tracker = join(tracker, "ALEX", CARA, 3, 7)
    assert sorted(c.label for c in tracker.combatants) == [
        "ALEX (4)", "Alex", "Alex (2)", "alex (3)"]
    passed, labels = initiative.removed(tracker, "Alex (3)", storyteller=True)
    assert labels == ("alex (3)",)
    assert CARA in {c.owner_id for c in passed.tracker.combatants}
    assert BOB not in {c.owner_id for c in passed.tracker.combatants}
