"""The rules' one answer for a written play (:func:`notation.rules.play_legs`) against the generator.

play_legs accepts a play written one die a move without generating plays when every die is used; it
must never accept an illegal play (soundness, on random positions and random written plays), accept
every legal play written in its own order, and judge the plays of one die of two as the generator
does.  Its refusals say why.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_rules import ROLLS, positions

from notation.play import plain_legs
from notation.position import Board, Position, board_from_points
from notation.rules import Play, Refusal, _both_dice, can_move, get_rules, play_legs

R = get_rules("standard")


def _position(mine: Board, theirs: Board, roll: tuple[int, int]) -> Position:
    return Position(boards=(mine, theirs), turn=0, dice=roll)


def _token(s: int, t: int, star: bool) -> str:
    return f"{s}/{t}{'*' if star else ''}"


def _play(mine: Board, theirs: Board, text: str, roll: tuple[int, int]) -> Play | None:
    """The play ``text`` writes, when play_legs accepts it (None when it refuses it, or ``text`` is not
    one die a move, downwards)."""
    legs = plain_legs(text)
    if legs is None:
        return None
    r = play_legs(mine, theirs, legs, roll, R)
    return None if isinstance(r, Refusal) else Play(tuple(r[0]), r[1], r[2])


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), ROLLS, st.data())
def test_play_legs_never_accepts_an_illegal_play(pos: tuple[Board, Board], roll: tuple[int, int],
                                                 data: st.DataObject) -> None:
    """Any written play of 0 to 4 single steps: what play_legs accepts is one of the legal results."""
    mine, theirs = pos
    p = _position(mine, theirs, roll)
    n = data.draw(st.integers(0, 4))
    # steps mostly from points the mover holds, by a die, to off, or anywhere
    held = [q for q in range(1, 26) if mine[q]] or [25]
    steps = []
    for _ in range(n):
        s = data.draw(st.sampled_from(held) | st.integers(1, 25))
        t = data.draw(st.sampled_from([max(s - roll[0], 0), max(s - roll[1], 0), 0]) | st.integers(0, 24))
        steps.append((s, t, data.draw(st.booleans())))
    text = " ".join(_token(*s) for s in steps)
    fast = _play(p.on_roll, p.opponent, text, roll)
    if fast is not None:
        legal = {(q.mine, q.theirs) for q in R.plays_for(mine, theirs, *roll)}
        assert (fast.mine, fast.theirs) in legal or (not legal and not fast.steps)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), ROLLS, st.data())
def test_play_legs_accepts_legal_plays_in_every_order(pos: tuple[Board, Board], roll: tuple[int, int],
                                                      data: st.DataObject) -> None:
    """A legal play written step by step, in its own order, is accepted with its result; in another
    order it is accepted with the same result, or left to the full path."""
    mine, theirs = pos
    legal = R.plays_for(mine, theirs, *roll)
    p = _position(mine, theirs, roll)
    if not legal:
        assert _play(p.on_roll, p.opponent, "", roll) is not None
        return
    play = data.draw(st.sampled_from(legal))
    text = " ".join(_token(*s) for s in play.steps)
    fast = _play(p.on_roll, p.opponent, text, roll)
    assert fast is not None and (fast.mine, fast.theirs) == (play.mine, play.theirs), text
    for order in itertools.islice(itertools.permutations(play.steps), 6):
        other = _play(p.on_roll, p.opponent, " ".join(_token(*s) for s in order), roll)
        assert other is None or (other.mine, other.theirs) == (play.mine, play.theirs)


@st.composite
def blocked(draw: st.DrawFn) -> tuple[Board, Board]:
    """(mine, theirs) where often only one die of a roll can be played: the opponent holds points
    (often in a row: primes), the mover has checkers behind them or on the bar, or few checkers left."""
    mine = [0] * 26
    theirs = [0] * 26
    start = draw(st.integers(1, 24))
    held = {(start + i - 1) % 24 + 1 for i in range(draw(st.integers(0, 6)))}
    held |= set(draw(st.lists(st.integers(1, 24), max_size=4)))
    left = 15
    for q in sorted(held):
        if left >= 2:
            k = draw(st.integers(2, 3)) if left >= 3 else 2
            theirs[q] = k
            left -= k
    theirs[0] = left
    free = [p for p in range(1, 25) if theirs[25 - p] == 0]
    on = draw(st.integers(1, 15))
    mine[25] = draw(st.integers(0, min(3, on)))
    for p in draw(st.lists(st.sampled_from(free), min_size=on - mine[25], max_size=on - mine[25])):
        mine[p] += 1
    mine[0] = 15 - on
    return tuple(mine), tuple(theirs)


def _single_steps(mine: Board, theirs: Board, d: int) -> list[tuple[int, int]]:
    """Every single step (from, to) of ``mine`` by the die ``d`` that the rules allow, to = 0 off."""
    if mine[25]:
        return [(25, 25 - d)] if theirs[d] < 2 else []
    home = not any(mine[7:25])
    out = []
    for s in range(1, 25):
        if mine[s]:
            t = s - d
            if t >= 1 and theirs[25 - t] < 2:
                out.append((s, t))
            elif t < 1 and home and (t == 0 or not any(mine[s + 1:7])):
                out.append((s, 0))
    return out


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(blocked() | positions(), ROLLS.filter(lambda r: r[0] != r[1]))
def test_one_die_plays_are_judged_as_the_generator_judges_them(pos: tuple[Board, Board],
                                                               roll: tuple[int, int]) -> None:
    """Where one die of a roll is played, play_legs (which decides most such plays without the
    generator: no play uses both dice, and it played the larger die or the larger cannot move) accepts
    exactly the generator's plays, with the generator's result; its helpers agree with the generator."""
    mine, theirs = pos
    legal = R.plays_for(mine, theirs, *roll)
    most = max((q.dice_used for q in legal), default=0)
    assert _both_dice(mine, theirs, *roll) == (most == 2)
    for d in roll:
        assert can_move(mine, theirs, d) == bool(_single_steps(mine, theirs, d))
    one = {(q.mine, q.theirs): q for q in legal if q.dice_used == 1}
    for d in roll:
        for s, t in _single_steps(mine, theirs, d):
            hit = t > 0 and theirs[25 - t] == 1
            text = _token(s, t, hit)
            fast = _play(mine, theirs, text, roll)
            if fast is None:
                continue  # left to the full path, which explains it
            assert (fast.mine, fast.theirs) in one, (text, roll)
            assert fast.steps == one[(fast.mine, fast.theirs)].steps


def test_one_die_plays_blocked_and_on_the_bar() -> None:
    """Worked cases: two on the bar against a board open only on its 6 point; one checker that either
    die moves, but not both (the larger must be played)."""
    five = board_from_points({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5})  # their points; their 6 is open
    on_bar = board_from_points({25: 2, 13: 13})
    assert _play(on_bar, five, "25/19", (6, 3)) is not None  # the 3 cannot enter
    assert _play(on_bar, five, "25/22", (6, 3)) is None
    one = board_from_points({25: 1, 13: 14})  # after entering, another checker plays the 3
    assert _play(one, five, "25/19", (6, 3)) is None
    runner = board_from_points({20: 1})  # 14 off; their 16 (our 9) held: 20/15/9 and 20/14/9 blocked
    wall = board_from_points({16: 2, 1: 13})
    assert _play(runner, wall, "20/14", (6, 5)) is not None
    assert _play(runner, wall, "20/15", (6, 5)) is None  # the smaller die
    assert [q.notation() for q in R.plays_for(runner, wall, 6, 5)] == ["20/14"]


@pytest.mark.parametrize(("mine", "theirs", "roll", "text"), [
    ({5: 1, 2: 1, 1: 1}, {}, (4, 3), "2/0 1/0"),          # bears off below a checker on the 5-point
    ({8: 1, 2: 2}, {}, (6, 2), "2/0 8/2"),                # bears off with a checker outside
    ({25: 1, 13: 2}, {}, (6, 2), "13/7 25/23"),           # the bar checker must enter first
    ({13: 2}, {18: 2}, (6, 1), "13/7 13/12"),             # 7 is the opponent's point (their 18)
    ({13: 2}, {}, (6, 1), "13/7"),                        # the 1 can be played too
    ({13: 2}, {}, (6, 1), ""),                            # nothing played, yet both dice play
    ({13: 2}, {}, (6, 1), "13/12"),                       # the larger die must be played
    ({13: 2}, {}, (6, 1), "13/7* 13/12"),                 # marked as a hit, but 7 is empty
    ({13: 2}, {}, (3, 3), "13/10 13/10 10/7"),            # a double played three times of four
])
def test_play_legs_refuses(mine: dict[int, int], theirs: dict[int, int], roll: tuple[int, int],
                           text: str) -> None:
    p = _position(board_from_points(mine), board_from_points(theirs), roll)
    assert _play(p.on_roll, p.opponent, text, roll) is None


@pytest.mark.parametrize(("mine", "theirs", "roll", "text"), [
    ({5: 1, 2: 1}, {}, (6, 4), "5/0 2/0"),                # larger dice bear off from the highest point
    ({2: 2}, {}, (6, 5), "2/0 2/0"),
    ({25: 1, 13: 2}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}, (6, 5), ""),  # a closed board: a dance
    ({25: 1, 13: 2}, {5: 2, 11: 2, 17: 2}, (6, 5), "25/19"),  # enters with the 6; no 5 can be played
    ({13: 2}, {18: 1}, (6, 1), "13/7* 13/12"),            # a hit (their 18 is our 7), marked
])
def test_play_legs_accepts(mine: dict[int, int], theirs: dict[int, int], roll: tuple[int, int],
                           text: str) -> None:
    m, t = board_from_points(mine), board_from_points(theirs)
    p = _position(m, t, roll)
    fast = _play(p.on_roll, p.opponent, text, roll)
    legal = {(q.mine, q.theirs) for q in R.plays_for(m, t, *roll)}
    assert fast is not None and ((fast.mine, fast.theirs) in legal or not legal)


@pytest.mark.parametrize(("mine", "theirs", "roll", "text", "reason"), [
    ({5: 1, 2: 1, 1: 1}, {}, (4, 3), "2/0 1/0", "2/off bears off from 2 with a 3, but a checker on 5 must move first"),
    ({8: 1, 2: 2}, {}, (6, 2), "2/0 8/2", "2/off bears off while a checker is still outside the home board (on 8)"),
    ({25: 1, 13: 2}, {}, (6, 2), "13/7 25/23", "13/7: a checker is on the bar and must enter before 13 can move"),
    ({13: 2}, {18: 3}, (6, 1), "13/7 13/12", "13/7 lands on 7, which the opponent holds with 3 checkers"),
    ({13: 2}, {}, (6, 1), "12/6", "12/6: there is no checker on 12 to move"),
    ({13: 2}, {}, (6, 1), "13/8", "13/8 moves 5 pips, which the dice left (6, 1) cannot make"),
    ({13: 2}, {}, (6, 1), "13/7* 13/12", "7 is marked as a hit, but no blot is hit there"),
    ({13: 2}, {}, (6, 1), "", "nothing is played, but 61 can be played"),
])
def test_play_legs_says_why(mine: dict[int, int], theirs: dict[int, int], roll: tuple[int, int], text: str,
                            reason: str) -> None:
    legs = plain_legs(text)
    assert legs is not None
    r = play_legs(board_from_points(mine), board_from_points(theirs), legs, roll, R)
    assert isinstance(r, Refusal) and r.reason == reason


def test_play_legs_step_by_step_gives_each_die() -> None:
    """Without ``whole`` the legs consume the dice given, each leg's die said in ``used``: the exact die,
    else the smallest larger one that bears off from the highest point."""
    mine = board_from_points({5: 1, 2: 1})
    used: list[int] = []
    left = [6, 4]
    r = play_legs(mine, board_from_points({}), ((5, 0, False), (2, 0, False)), left, whole=False, used=used)
    assert not isinstance(r, Refusal) and used == [6, 4] and left == []
    r = play_legs(mine, board_from_points({}), ((2, 0, False),), [6], whole=False)
    assert isinstance(r, Refusal) and "a checker on 5 must move first" in r.reason


def test_dutch_hits_need_a_home_checker() -> None:
    """Dutch backgammon's restriction: a blot may be hit only with a checker in the home board."""
    dutch = get_rules("dutch")
    mine, theirs = board_from_points({13: 2}), board_from_points({18: 1})
    r = play_legs(mine, theirs, ((13, 7, True), (13, 12, False)), (6, 1), dutch)
    assert isinstance(r, Refusal)
    assert r.reason == "13/7 hits on 7, but a blot may be hit only with a checker in the home board"
    assert not isinstance(play_legs(mine, theirs, ((13, 7, True), (13, 12, False)), (6, 1), R), Refusal)


def test_an_illegal_play_is_recorded_as_written() -> None:
    """The record of an illegal play (:func:`notation.rules.as_written`, every variant's ``as_recorded``):
    each checker from each written point to the next, in the order written, hitting where it lands;
    None when the board does not allow it.  Acey-Deucey's ``bar/N`` enters a waiting checker."""
    from notation.play import parse_play
    from notation.rules import as_written

    mine, theirs = board_from_points({24: 2, 13: 5}), board_from_points({7: 1, 6: 2, 18: 2})
    p = as_written(mine, theirs, parse_play("24/18*/13 13/3").segments)  # dice ignored; their 7 is our 18
    assert p is not None and p.steps == ((24, 18, True), (18, 13, False), (13, 3, False))
    assert p.theirs[7] == 0 and p.theirs[25] == 1 and p.mine[24] == 1 and p.mine[13] == 5 and p.mine[3] == 1
    assert as_written(mine, theirs, parse_play("13/19").segments) is None  # backwards
    assert as_written(mine, theirs, parse_play("13/7/1").segments) is None  # on the way: their 18 is held
    assert as_written(mine, theirs, parse_play("8/2").segments) is None  # no checker on 8
    assert as_written(mine, theirs, parse_play("24/19").segments) is None  # their 6 is held
    assert as_written(mine, theirs, parse_play("bar/20").segments) is None  # nothing on the bar
    acey = get_rules("acey-deucey")
    waiting = tuple(2 if p == 13 else 0 for p in range(26))  # 13 of 15 waiting off the board
    entered = as_written(waiting, theirs, parse_play("bar/20 bar/18*").segments, pool=13)
    assert entered is not None and entered.mine[20] == 1 and entered.mine[18] == 1 and entered.mine[25] == 0
    assert acey.as_recorded(_position(waiting, theirs, (6, 5)), parse_play("bar/20")) is not None
    assert R.as_recorded(_position(waiting, theirs, (6, 5)), parse_play("bar/20")) is None


def test_play_legs_enters_waiting_checkers() -> None:
    """Acey-Deucey (checkers start off the board): ``bar/N`` enters a waiting checker when none is on the
    bar, and no checker bears off while one waits to enter."""
    acey = get_rules("acey-deucey")
    waiting = board_from_points({13: 2}, off=0)  # 13 of 15 waiting off the board
    r = play_legs(waiting, board_from_points({}), ((25, 20, False), (25, 19, False)), (6, 5), acey)
    assert not isinstance(r, Refusal) and r[1][20] == 1 and r[1][19] == 1 and r[1][25] == 0
    r = play_legs(waiting, board_from_points({}), ((25, 20, False),), [5], R, whole=False)
    assert isinstance(r, Refusal) and r.reason == "bar/20: there is no checker on the bar to move"
    home = board_from_points({1: 3, 2: 3}, off=0)  # 9 waiting
    r = play_legs(home, board_from_points({}), ((2, 0, False),), [2], acey, whole=False)
    assert isinstance(r, Refusal)
    assert r.reason == "2/off bears off while a checker is still outside the home board (waiting to enter)"
