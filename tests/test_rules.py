"""The movement rules, one by one, on hand-built positions; and properties of the generator.

Boards are built from ``{point: checkers}`` in their owner's numbering (25 = bar); the mover's
opponent has its checkers on ``theirs[25 - p]`` for the mover's point ``p``.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from movegen_reference import generate_reference

from notation.errors import IllegalPlayError
from notation.play import resolve_play
from notation.position import Position, board_from_points
from notation.rules import ALL_ROLLS, Play, Rules, clear_caches, get_rules

R = get_rules("standard")
Board = tuple[int, ...]

DATA = Path(__file__).resolve().parent / "data"
_spec = importlib.util.spec_from_file_location("movegen_data", DATA / "movegen_data.py")
assert _spec is not None and _spec.loader is not None
movegen_data = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(movegen_data)


def board(points: dict[int, int], total: int = 15) -> Board:
    return board_from_points(points, total=total)


def plays(mine: dict[int, int], theirs: dict[int, int], d1: int, d2: int, rules: Rules = R) -> list[Play]:
    return list(rules.plays_for(board(mine, rules.checkers), board(theirs, rules.checkers), d1, d2))


def written(ps: list[Play]) -> set[str]:
    return {p.notation() for p in ps}


def position(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    return Position(boards=(board(mine), board(theirs)), turn=0)


START = {24: 2, 13: 5, 8: 3, 6: 5}


# --------------------------------------------------------------------------- the basics


OPENING_COUNTS = {(6, 6): 11, (6, 5): 7, (6, 4): 14, (6, 3): 14, (6, 2): 14, (6, 1): 10, (5, 5): 4,
                  (5, 4): 9, (5, 3): 9, (5, 2): 8, (5, 1): 8, (4, 4): 52, (4, 3): 17, (4, 2): 18, (4, 1): 14,
                  (3, 3): 73, (3, 2): 17, (3, 1): 16, (2, 2): 75, (2, 1): 15, (1, 1): 42}
"""Legal plays from the starting position, as GNU Backgammon 1.07 counts them."""


def test_opening_rolls_have_the_known_numbers_of_plays() -> None:
    assert {(a, b): len(plays(START, START, a, b)) for a, b in ALL_ROLLS} == OPENING_COUNTS
    assert written(plays(START, START, 3, 1)) >= {"8/5 6/5", "24/23 24/21", "24/20", "13/9"}
    assert {"24/13", "24/18 13/8", "13/2"} <= written(plays(START, START, 6, 5))


def test_dice_order_does_not_matter() -> None:
    for a, b in ALL_ROLLS:
        assert R.plays_for(board(START), board(START), a, b) == R.plays_for(board(START), board(START), b, a)


def test_legal_plays_takes_the_dice_from_the_position_or_the_call() -> None:
    pos = Position(dice=(3, 1))
    assert written(R.legal_plays(pos)) == written(R.legal_plays(Position(), (1, 3)))
    with pytest.raises(ValueError):
        R.legal_plays(Position())


# --------------------------------------------------------------------------- the bar


def test_a_checker_on_the_bar_enters_before_anything_else_moves() -> None:
    ps = plays({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, START, 4, 3)
    assert ps and all(p.steps[0][0] == 25 for p in ps)
    assert all(sum(1 for s in p.steps if s[0] == 25) == 1 for p in ps)
    assert written(ps) >= {"bar/21 13/10", "bar/22 13/9", "bar/18"}


def test_two_on_the_bar_use_both_dice_to_enter() -> None:
    assert written(plays({25: 2, 13: 5, 8: 3, 6: 5}, START, 4, 3)) == {"bar/22 bar/21"}
    ps = plays({25: 2, 13: 5, 8: 3, 6: 5}, START, 2, 2)
    assert ps and all(p.steps[:2] == ((25, 23, False), (25, 23, False)) for p in ps)
    assert {"bar/23(2) 13/11(2)", "bar/21(2)", "bar/21 bar/23 13/11", "bar/23(2) 6/2"} <= written(ps)


def test_a_closed_board_blocks_everything_while_a_checker_is_on_the_bar() -> None:
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}
    for a, b in ALL_ROLLS:
        assert plays({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, closed, a, b) == []


def test_only_the_open_entry_point_can_be_used() -> None:
    # the opponent holds its 1..5 points (our 24..20): only a 6 enters (on our 19)
    theirs = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5}
    ps = plays({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, theirs, 6, 3)
    assert written(ps) == {"bar/19 13/10", "bar/19 8/5", "bar/19 6/3", "bar/16"}
    # a 5-3 does not enter at all, so nothing moves
    assert plays({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, theirs, 5, 3) == []
    # with two on the bar, one enters and the other die is lost
    assert written(plays({25: 2, 13: 5, 8: 3, 6: 4}, theirs, 6, 3)) == {"bar/19"}


# --------------------------------------------------------------------------- blocked points


def test_a_point_held_by_two_or_more_cannot_be_landed_on() -> None:
    theirs = {7: 2, 9: 3, 13: 10}  # they hold our 18 and 16
    ps = plays({24: 2, 13: 13}, theirs, 6, 2)
    assert not any(t in (18, 16) for p in ps for _s, t, _h in p.steps)


def test_an_intermediate_landing_must_be_open_too() -> None:
    # 24/13 with 6-5 goes via 18 or 19; both held: no 24/13
    assert "24/13" not in written(plays({24: 2, 13: 13}, {7: 2, 6: 2, 13: 11}, 6, 5))
    # one open: 24/13 is legal, and so written
    assert "24/13" in written(plays({24: 2, 13: 13}, {7: 2, 13: 13}, 6, 5))
    # a double goes only as far as the first closed point: our 12 held
    ps = plays({24: 2, 14: 13}, {13: 2, 6: 13}, 3, 3)
    assert all(t != 12 for p in ps for _s, t, _h in p.steps)
    assert "24/12" not in written(ps) and "24/15 24/21" in written(ps) and "14/2" in written(ps)


def test_a_prime_can_stop_a_checker_completely() -> None:
    prime = {6: 2, 7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 1: 3}  # our 19..14
    ps = plays({24: 1, 8: 14}, prime, 6, 5)
    assert all(s != 24 for p in ps for s, _t, _h in p.steps)
    assert written(ps) == {"8/3 8/2"}


# --------------------------------------------------------------------------- hits


def test_landing_on_a_blot_hits_it() -> None:
    ps = plays({24: 2, 13: 13}, {7: 1, 6: 14}, 6, 1)  # their blot on our 18
    hit = [p for p in ps if p.notation() == "24/23 24/18*"]
    assert len(hit) == 1
    p = hit[0]
    assert p.theirs[7] == 0 and p.theirs[25] == 1 and p.mine[18] == 1
    assert p.steps[0] == (24, 18, True) or p.steps[1] == (24, 18, True)


def test_two_checkers_on_one_blot_hit_it_once() -> None:
    ps = plays({24: 2, 8: 13}, {7: 1, 6: 14}, 6, 6)
    p = next(p for p in ps if p.notation().startswith("24/18*(2)"))
    assert sum(1 for _s, _t, h in p.steps if h) == 1
    assert p.theirs[25] == 1


def test_a_hit_on_the_way_is_a_different_play_from_passing_by() -> None:
    # 6-1 from 24: via 18 (a blot) or via 23 (empty), both end on 17
    ps = plays({24: 2, 13: 13}, {7: 1, 6: 14}, 6, 1)
    ends = [p for p in ps if p.notation() in ("24/18*/17", "24/17")]
    assert len(ends) == 2
    assert {p.theirs[25] for p in ends} == {0, 1}


def test_hit_checkers_go_to_the_opponents_bar_and_nothing_is_lost() -> None:
    ps = plays({24: 2, 13: 13}, {7: 1, 12: 1, 6: 13}, 6, 6)
    for p in ps:
        assert sum(p.mine) == sum(p.theirs) == 15


# --------------------------------------------------------------------------- doubles and using the dice


def test_doubles_are_played_four_times() -> None:
    ps = plays(START, START, 1, 1)
    assert ps and all(len(p.steps) == 4 for p in ps)
    assert all(all(s - t == 1 for s, t, _ in p.steps) for p in ps)


def test_a_double_plays_as_many_as_it_can() -> None:
    # 6-6 from 24 with our 12 held: 24/18 only, twice -> two sixes
    ps = plays({24: 2, 1: 13}, {13: 2, 6: 13}, 6, 6)
    assert written(ps) == {"24/18(2)"}
    assert all(len(p.steps) == 2 for p in ps)


def test_both_dice_must_be_used_when_any_sequence_uses_them() -> None:
    # one checker on 8: 8/7/1 uses both dice; 8/2 (6 first) is blocked; 8/7 alone is not enough
    ps = plays({8: 1, 1: 14}, {23: 2, 6: 13}, 6, 1)  # their 23 = our 2
    assert written(ps) == {"8/1"}
    assert all(len(p.steps) == 2 for p in ps)


def test_only_one_die_playable_then_the_larger() -> None:
    # 13/8 or 13/7, then the next step lands on our 2, held; the 1-point checkers cannot bear off
    ps = plays({13: 1, 1: 14}, {23: 2, 6: 13}, 6, 5)
    assert written(ps) == {"13/7"}


def test_only_one_die_playable_and_only_the_smaller_can() -> None:
    ps = plays({13: 1, 1: 14}, {23: 2, 18: 2, 6: 11}, 6, 5)  # our 7 held too
    assert written(ps) == {"13/8"}


def test_no_legal_play_is_an_empty_list() -> None:
    assert plays({13: 1, 1: 14}, {23: 2, 18: 2, 17: 2, 6: 9}, 6, 5) == []  # our 2, 7, 8 held


# --------------------------------------------------------------------------- bearing off


HOME = {6: 3, 5: 3, 4: 3, 3: 2, 2: 2}
NOBODY = {24: 2, 13: 13}


def test_bear_off_with_the_exact_number() -> None:
    assert "6/off 5/off" in written(plays(HOME, NOBODY, 6, 5))
    assert "4/off 3/off" in written(plays(HOME, NOBODY, 4, 3))


def test_a_larger_number_bears_off_from_the_highest_point_only() -> None:
    assert written(plays({3: 2, 2: 2}, NOBODY, 6, 5)) == {"3/off(2)"}
    # a 6 with nothing on 6 and 5 bears off from 4, the highest point, never from 3 while 4 is occupied
    ps = plays({4: 1, 3: 2}, NOBODY, 6, 1)
    assert written(ps) == {"4/off 3/2", "4/off"}  # "4/off" is 4/3 then 3/off, one checker's path
    assert all(p.mine[0] == 13 for p in ps)
    assert {p.steps for p in ps} == {((4, 0, False), (3, 2, False)), ((4, 3, False), (3, 0, False))}


def test_no_bearing_off_while_a_checker_is_outside() -> None:
    ps = plays({8: 1, 6: 3, 5: 3, 4: 3, 3: 2, 2: 3}, NOBODY, 6, 5)
    # the checker on 8 must come in first: only then may the other die bear off
    assert written(ps) == {"8/2 5/off", "8/3 6/off"}
    assert all(p.steps[0][0] == 8 for p in ps)


def test_a_checker_hit_during_the_bear_off_must_come_home_first() -> None:
    ps = plays({25: 1, 3: 2, 2: 2}, {24: 2, 13: 13}, 6, 5)
    assert written(ps) == {"bar/14"}  # enters and must keep running: nothing bears off
    ps = plays({25: 1, 3: 2, 2: 2}, {24: 2, 13: 13}, 6, 6)
    assert all(t != 0 for p in ps for _s, t, _ in p.steps)


def test_bearing_off_the_last_checkers_ends_the_play() -> None:
    ps = plays({1: 1}, NOBODY, 6, 5)
    assert written(ps) == {"1/off"}
    assert ps[0].mine[0] == 15


# --------------------------------------------------------------------------- variants


def test_hypergammon_uses_the_same_rules_with_three_checkers() -> None:
    h = get_rules("hypergammon")
    start = h.start_board()
    ps = h.plays_for(start, start, 3, 1)
    assert ps and all(sum(p.mine) == 3 for p in ps)
    assert {p.notation() for p in ps} == {p.notation() for p in generate_reference(h, start, start, 3, 1)}


def test_dutch_hits_need_a_checker_in_the_home_board() -> None:
    dutch = get_rules("dutch")
    theirs = board({7: 1, 25: 14})  # their blot on our 18
    ps = dutch.plays_for(board({24: 1, 13: 14}), theirs, 6, 1)
    assert ps and not any(h for p in ps for _s, _t, h in p.steps)
    assert "24/23 24/18" not in written(ps) and "24/18 13/12" not in written(ps)
    ps = dutch.plays_for(board({24: 1, 13: 13, 5: 1}), theirs, 6, 1)
    assert "24/18* 13/12" in written(ps)
    # the standard rules hit without a home checker
    assert any(h for p in R.plays_for(board({24: 1, 13: 14}), theirs, 6, 1) for _s, _t, h in p.steps)


# --------------------------------------------------------------------------- properties

_KINDS = st.sampled_from(["general", "home", "bar"])


@st.composite
def positions(draw: st.DrawFn, checkers: int = 15) -> tuple[Board, Board]:
    """(mine, theirs): any position that can exist, often near the bar or bearing off."""
    kind = draw(_KINDS)
    mine = [0] * 26
    theirs = [0] * 26
    mine[25] = draw(st.integers(1, min(4, checkers))) if kind == "bar" else draw(st.integers(0, 1))
    mine[0] = draw(st.integers(0, checkers - mine[25]))
    top = 6 if kind == "home" else 24
    for p in draw(st.lists(st.integers(1, top), min_size=checkers - mine[25] - mine[0],
                           max_size=checkers - mine[25] - mine[0])):
        mine[p] += 1
    free = [q for q in range(1, 25) if not mine[25 - q]]
    theirs[25] = draw(st.integers(0, 2))
    theirs[0] = draw(st.integers(0, checkers - theirs[25]))
    for q in draw(st.lists(st.sampled_from(free), min_size=checkers - theirs[25] - theirs[0],
                           max_size=checkers - theirs[25] - theirs[0])):
        theirs[q] += 1
    return tuple(mine), tuple(theirs)


ROLLS = st.sampled_from(ALL_ROLLS)


def _pips(b: Board) -> int:
    return sum(p * b[p] for p in range(1, 26))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), ROLLS)
def test_checkers_are_conserved_and_pips_add_up(pos: tuple[Board, Board], roll: tuple[int, int]) -> None:
    mine, theirs = pos
    ps = R.plays_for(mine, theirs, *roll)
    seen = set()
    for p in ps:
        assert sum(p.mine) == sum(mine) and sum(p.theirs) == sum(theirs)
        assert min(p.mine) >= 0 and min(p.theirs) >= 0
        assert not any(p.mine[q] and p.theirs[25 - q] for q in range(1, 25))
        hits = sum(1 for _s, _t, h in p.steps if h)
        assert p.theirs[25] == theirs[25] + hits
        moved = _pips(mine) - _pips(p.mine)
        dice = [roll[0]] * 4 if roll[0] == roll[1] else list(roll)
        used = sum(s - t for s, t, _ in p.steps)
        assert moved == used <= sum(dice)
        assert (p.mine, p.theirs) not in seen
        seen.add((p.mine, p.theirs))
    if ps:
        assert len({len(p.steps) for p in ps}) == 1


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), ROLLS)
def test_the_fast_generator_is_the_plain_search(pos: tuple[Board, Board], roll: tuple[int, int]) -> None:
    mine, theirs = pos
    clear_caches()
    assert R._generate(mine, theirs, max(roll), min(roll)) == generate_reference(R, mine, theirs, max(roll), min(roll))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(checkers=3), ROLLS)
def test_the_fast_generator_is_the_plain_search_for_hypergammon(pos: tuple[Board, Board],
                                                               roll: tuple[int, int]) -> None:
    h = get_rules("hypergammon3")
    mine, theirs = pos
    assert h._generate(mine, theirs, max(roll), min(roll)) == generate_reference(h, mine, theirs, max(roll), min(roll))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), ROLLS, st.booleans())
def test_the_fast_generator_is_the_plain_search_for_dutch(pos: tuple[Board, Board], roll: tuple[int, int],
                                                          home: bool) -> None:
    """Dutch backgammon: a blot may be hit only with a checker in the home board, so one checker reaching
    home can allow another's hit (with or without a checker at home already)."""
    dutch = get_rules("dutch")
    mine, theirs = pos
    if not home and any(mine[1:7]):  # half of the positions with none at home: hits wait for one
        m = list(mine)
        for p in range(1, 7):
            m[p + 6] += m[p]
            m[p] = 0
        mine = tuple(m)
        if any(mine[q] and theirs[25 - q] for q in range(7, 13)):
            return
    clear_caches()
    assert dutch._generate(mine, theirs, max(roll), min(roll)) == generate_reference(dutch, mine, theirs, max(roll),
                                                                                      min(roll))


def _check_round_trip(mine: Board, theirs: Board, roll: tuple[int, int]) -> None:
    pos = Position(boards=(mine, theirs), turn=0)
    for p in R.plays_for(mine, theirs, *roll):
        r = resolve_play(pos, p.notation(), roll)
        assert (r.play.mine, r.play.theirs) == (p.mine, p.theirs), p.notation()
        assert r.notes == (), (p.notation(), r.notes)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), ROLLS)
def test_every_generated_play_resolves_to_itself(pos: tuple[Board, Board], roll: tuple[int, int]) -> None:
    _check_round_trip(*pos, roll)


def test_every_generated_play_resolves_to_itself_in_real_positions() -> None:
    rows = movegen_data.load_positions()
    for _pid, mine, theirs, _src in rows[::60]:
        for roll in ALL_ROLLS:
            _check_round_trip(mine, theirs, roll)


def test_a_play_that_is_not_generated_does_not_resolve() -> None:
    pos = position(START, START)
    legal = written(R.legal_plays(pos, (3, 1)))
    for text in ("8/5 6/4", "24/21", "13/10 13/12", "6/3 6/5 8/7"):
        assert text not in legal
        with pytest.raises(IllegalPlayError):
            resolve_play(pos, text, (3, 1))
