"""Initiative rules a mutation run found unpinned (RULES.md §7, TESTING.md): the values each
refusal names, the ends of every range, the turn marker, delays brought back by the
Storyteller, and removals that empty the order or touch delayed combatants."""

from __future__ import annotations

from engine.faces import seeded_faces
from engine.models import Ruleset
from engine.refusals import Refusal, RefusalCode
from engine.table import initiative
from engine.table.initiative import MAX_ENTRIES, MAX_GROUP, MAX_NAME, Entrant, Move, Tracker
from tests.engine.table.helpers import refused
from tests.engine.table.test_initiative import (
    ALICE,
    BOB,
    CARA,
    ST,
    acting,
    add,
    faces,
    fight,
    join,
    nxt,
    order,
)


def crowd(size: int) -> Tracker:
    """A gathering tracker of ``size`` NPCs in groups of at most MAX_GROUP (seeded dice)."""
    tracker, dice = initiative.opened(Ruleset.COFD), seeded_faces(3)
    for index, start in enumerate(range(0, size, MAX_GROUP)):
        count = min(MAX_GROUP, size - start)
        tracker = initiative.added(tracker, Entrant(name=f"Horde {index}", owner_id=ST, pool=2),
                                   count, dice, storyteller=True)
    assert len(tracker.combatants) == size
    return tracker


def labels(tracker: Tracker) -> list[str]:
    """Everyone in the fight, delayed or not, in the order they entered."""
    return [c.label for c in tracker.combatants]


# --- refusals name the values their words show --------------------------------------------------


def test_a_modifier_out_of_range_is_refused_naming_it_and_the_range() -> None:
    with refused(RefusalCode.INIT_MODIFIER_RANGE, modifier=11, low=-10, high=10):
        join(initiative.opened(Ruleset.COFD), "Alice", ALICE, 3, modifier=11)


def test_a_group_out_of_range_is_refused_naming_its_size_and_the_most() -> None:
    tracker = initiative.opened(Ruleset.COFD)
    with refused(RefusalCode.INIT_GROUP_RANGE, count=MAX_GROUP + 1, max=MAX_GROUP):
        add(tracker, "Horde", 2, count=MAX_GROUP + 1)
    with refused(RefusalCode.INIT_GROUP_RANGE, count=0, max=MAX_GROUP):
        add(tracker, "Horde", 2, count=0)


def test_a_full_tracker_is_refused_naming_how_many_it_would_hold() -> None:
    tracker = crowd(2 * MAX_GROUP)
    with refused(RefusalCode.INIT_FULL, count=2 * MAX_GROUP + 11, max=MAX_ENTRIES):
        add(tracker, "Bats", 2, count=11)


def test_a_taken_label_is_refused_naming_it() -> None:
    tracker = add(initiative.opened(Ruleset.COFD), "Guards 2", 3, 5)
    with refused(RefusalCode.INIT_NAME_TAKEN, name="Guards 2"):
        add(tracker, "Guards", 3, count=2)


def test_a_name_too_long_is_refused_naming_the_longest() -> None:
    with refused(RefusalCode.INIT_NAME_LENGTH, max=MAX_NAME):
        add(fight(), "x" * (MAX_NAME + 1), 3)


def test_a_move_on_an_ended_tracker_is_refused_naming_how_it_ended() -> None:
    ended = initiative.ended(fight(), ST, storyteller=True)
    with refused(RefusalCode.INIT_ENDED, status="ended"):
        nxt(ended)
    scene = initiative.scene_ended(fight())
    assert scene is not None
    with refused(RefusalCode.INIT_ENDED, status="scene_ended"):
        join(scene, "Cara", CARA, 3)


def test_a_storytellers_move_is_refused_to_a_player_naming_the_move() -> None:
    with refused(RefusalCode.INIT_STORYTELLER_ONLY, move="add"):
        initiative.added(fight(), Entrant(name="Imp", owner_id=ALICE, pool=2), None,
                         faces(5), storyteller=False)
    with refused(RefusalCode.INIT_STORYTELLER_ONLY, move="next"):
        initiative.next_turn(fight(), ALICE, storyteller=False)


def test_a_second_join_is_refused_naming_the_members_combatant() -> None:
    tracker = join(initiative.opened(Ruleset.COFD), "Alice", ALICE, 3, 3)
    with refused(RefusalCode.INIT_ALREADY_JOINED, name="Alice"):
        join(tracker, "Alice again", ALICE, 3, 3)


def test_a_move_out_of_turn_is_refused_naming_who_acts() -> None:
    tracker = nxt(fight())  # Bob acts
    with refused(RefusalCode.INIT_NOT_YOUR_TURN, name="Bob"):
        initiative.next_turn(tracker, ALICE, storyteller=False)


def test_removing_nobody_is_refused_naming_the_name_asked() -> None:
    with refused(RefusalCode.INIT_NO_SUCH_COMBATANT, name="Guards"):
        initiative.removed(fight(), "Guards", storyteller=True)


def test_blocked_answers_for_a_player_unless_told_otherwise() -> None:
    tracker = fight()
    assert initiative.blocked(tracker, Move.END, ALICE) == Refusal.of(
        RefusalCode.INIT_STORYTELLER_ONLY, move="end")
    assert initiative.blocked(tracker, Move.END, ST, storyteller=True) is None


# --- the ends of each range ---------------------------------------------------------------------


def test_modifiers_of_minus_ten_and_ten_are_accepted() -> None:
    tracker = join(initiative.opened(Ruleset.COFD), "Alice", ALICE, 5, 4, modifier=-10)
    tracker = join(tracker, "Bob", BOB, 5, 4, modifier=10)
    assert [(c.modifier, c.fixed, c.total) for c in tracker.combatants] == [
        (-10, -5, -1), (10, 15, 19)]


def test_a_group_of_one_enters_labelled_with_its_index() -> None:
    tracker = add(initiative.opened(Ruleset.COFD), "Guards", 3, 5, count=1)
    assert labels(tracker) == ["Guards 1"]


def test_a_tracker_of_forty_nine_takes_one_more_combatant() -> None:
    tracker = crowd(MAX_ENTRIES - 1)
    tracker = join(tracker, "Alice", ALICE, 100, 1)  # 101: no tie, no roll-off
    assert len(tracker.order) == MAX_ENTRIES and order(tracker)[0] == "Alice"


def test_a_name_of_the_longest_length_is_accepted() -> None:
    name = "x" * MAX_NAME
    assert name in order(add(fight(), name, 3, 1))


def test_cofd_and_v20_initiative_never_botches() -> None:
    for ruleset in (Ruleset.COFD, Ruleset.V20):
        tracker = join(initiative.opened(ruleset), "Alice", ALICE, 2, 1)
        alice = tracker.combatants[0]
        assert (alice.faces, alice.total, alice.botch) == ((1,), 3, False)


# --- the turn marker ----------------------------------------------------------------------------


def test_every_change_of_who_acts_moves_the_turn_by_one() -> None:
    tracker = fight()
    assert tracker.turn == 1
    tracker = nxt(tracker)  # Bob
    assert tracker.turn == 2
    tracker = initiative.delayed(tracker, BOB, storyteller=False).tracker  # Alice
    assert tracker.turn == 3
    tracker = initiative.acted_now(tracker, BOB, storyteller=False)  # Bob again
    assert (acting(tracker), tracker.turn) == ("Bob", 4)
    passed, _ = initiative.removed(tracker, "Bob", storyteller=True)  # Alice
    assert (acting(passed.tracker), passed.tracker.turn) == ("Alice", 5)
    kept, _ = initiative.removed(passed.tracker, "Goblin", storyteller=True)
    assert kept.tracker.turn == 5, "removing someone else changes nobody's turn"


def test_a_delay_pressed_on_a_card_of_an_earlier_turn_changes_nothing() -> None:
    tracker = nxt(fight())  # Bob acts
    with refused(RefusalCode.INIT_TURN_MOVED, name="Bob"):
        initiative.delayed(tracker, BOB, storyteller=False, seen_turn=tracker.turn - 1)
    passed = initiative.delayed(tracker, BOB, storyteller=False, seen_turn=tracker.turn)
    assert acting(passed.tracker) == "Alice"


def test_a_next_pressed_on_a_stale_card_names_who_acts_now() -> None:
    tracker = nxt(fight())  # Bob acts
    with refused(RefusalCode.INIT_TURN_MOVED, name="Bob"):
        initiative.next_turn(tracker, ST, storyteller=True, seen_turn=tracker.turn - 1)


# --- delays -------------------------------------------------------------------------------------


def test_the_storyteller_may_delay_a_players_turn() -> None:
    tracker = nxt(fight())  # Bob acts
    passed = initiative.delayed(tracker, ST, storyteller=True)
    assert acting(passed.tracker) == "Alice"
    assert passed.tracker.delayed == (tracker.order[0],)


def test_the_storyteller_with_none_delayed_brings_back_the_earliest_delayed() -> None:
    tracker = nxt(fight())  # Bob acts
    tracker = initiative.delayed(tracker, BOB, storyteller=False).tracker  # Alice acts
    tracker = initiative.delayed(tracker, ALICE, storyteller=False).tracker  # Goblin acts
    assert [tracker.combatant(cid).label for cid in tracker.delayed] == ["Bob", "Alice"]
    assert initiative.blocked(tracker, Move.ACT_NOW, ST, storyteller=True) is None
    back = initiative.acted_now(tracker, ST, storyteller=True)
    assert acting(back) == "Bob"
    assert [back.combatant(cid).label for cid in back.delayed] == ["Alice"]


# --- removing combatants ------------------------------------------------------------------------


def test_removing_the_acting_combatant_takes_it_out_of_the_fight() -> None:
    tracker = nxt(nxt(fight()))  # Alice acts
    passed, _ = initiative.removed(tracker, "Alice", storyteller=True)
    assert labels(passed.tracker) == ["Bob", "Goblin"]


def test_removing_a_group_by_its_name_leaves_other_groups() -> None:
    tracker = add(initiative.opened(Ruleset.COFD), "Guards", 3, 2, 9, count=2)
    tracker = add(tracker, "Rats", 1, 4, 6, count=2)
    passed, removed = initiative.removed(tracker, "guards", storyteller=True)
    assert removed == ("Guards 1", "Guards 2")
    assert labels(passed.tracker) == ["Rats 1", "Rats 2"]
    assert order(passed.tracker) == ["Rats 2", "Rats 1"]


def test_removing_a_delayed_combatant_takes_it_off_the_delayed_list() -> None:
    tracker = nxt(fight())  # Bob acts
    tracker = initiative.delayed(tracker, BOB, storyteller=False).tracker  # Alice acts
    passed, _ = initiative.removed(tracker, "Bob", storyteller=True)
    assert passed.tracker.delayed == ()
    assert Move.ACT_NOW not in initiative.offers(passed.tracker)
    assert labels(passed.tracker) == ["Alice", "Goblin"]


def test_removing_the_last_combatant_while_it_acts_leaves_nobody_acting() -> None:
    tracker = nxt(join(initiative.opened(Ruleset.COFD), "Alice", ALICE, 3, 3))
    assert (tracker.round, tracker.turn, acting(tracker)) == (1, 2, "Alice")
    passed, _ = initiative.removed(tracker, "Alice", storyteller=True)
    assert (passed.tracker.order, passed.tracker.current) == ((), None)
    assert (passed.tracker.round, passed.new_round) == (1, False)
    # someone new enters; a Next from the card of Alice's turn names nobody acting
    tracker = add(passed.tracker, "Goblin", 2, 5)
    with refused(RefusalCode.INIT_TURN_MOVED, name=""):
        initiative.next_turn(tracker, ST, storyteller=True, seen_turn=2)
    started = initiative.next_turn(tracker, ST, storyteller=True)
    assert (started.new_round, started.tracker.round, acting(started.tracker)) == (
        True, 2, "Goblin")


def test_a_delayed_combatant_acts_now_when_nobody_else_is_left() -> None:
    tracker = nxt(fight())  # Bob acts
    tracker = initiative.delayed(tracker, BOB, storyteller=False).tracker  # Alice acts
    tracker = initiative.removed(tracker, "Alice", storyteller=True)[0].tracker  # Goblin
    tracker = initiative.removed(tracker, "Goblin", storyteller=True)[0].tracker
    assert (tracker.order, tracker.current) == ((), None)
    back = initiative.acted_now(tracker, BOB, storyteller=False)
    assert (order(back), acting(back), back.delayed) == (["Bob"], "Bob", ())
