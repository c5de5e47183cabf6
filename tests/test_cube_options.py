"""Cube and scoring options: Crawford and post-Crawford, Jacoby, beavers and raccoons, automatic
doubles (with their per-game limit), no-cube play, gammon and backgammon values."""

from __future__ import annotations

import copy
from functools import partial
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation import Position, parse_match, read_any, replay_match
from notation.cli import main
from notation.position import board_from_points
from notation.record import Action, Game, Match, MatchRules

DATA = Path(__file__).resolve().parent / "data"
board = partial(board_from_points, off=0)
"""``board({point: count}, off=N)``: the library's board builder; here nothing is borne off unless said."""


def findings(m: Match, severity: str = "error") -> list[str]:
    return [f.message for f in replay_match(m).findings if f.severity == severity]


def cube_game(n: int, *actions: Action) -> Game:
    return Game(n, actions=list(actions))


def D(p: int, v: int) -> Action:  # noqa: N802 - short names keep the scripts readable
    return Action("double", p, value=v)


def T(p: int) -> Action:  # noqa: N802
    return Action("take", p)


def P(p: int) -> Action:  # noqa: N802
    return Action("drop", p)


def W(p: int, v: int) -> Action:  # noqa: N802
    return Action("win", p, value=v)


# =========================================================================== Crawford


def five_point(crawford_rule: bool = True, *, double_in_game2: bool) -> Match:
    g2 = [D(1, 2), T(0), W(1, 2)] if double_in_game2 else [W(1, 1)]
    return Match(length=5, rules=MatchRules(crawford=crawford_rule), games=[
        cube_game(1, D(0, 2), T(1), W(0, 4)),     # 4-0: game 2 is the Crawford game
        cube_game(2, *g2),
        cube_game(3, D(1, 2), T(0), W(1, 4)),     # post-Crawford: Bob may double
    ])


def test_crawford_game_has_no_cube() -> None:
    assert not findings(five_point(double_in_game2=False))
    errs = findings(five_point(double_in_game2=True))
    assert errs == ["a double in the Crawford game"]


def test_post_crawford_doubles_are_fine_and_crawford_is_only_once() -> None:
    m = five_point(double_in_game2=False)
    m.games.insert(2, cube_game(3, W(1, 1)))       # 4-2, still post-Crawford
    m.games[3].number = 4
    m.games[3].actions = [D(1, 2), T(0), W(1, 2)]  # 4-4
    m.games.append(cube_game(5, D(0, 2), T(1), W(0, 2)))
    assert not findings(m)


def test_no_crawford_rule() -> None:
    assert not findings(five_point(False, double_in_game2=True))


def test_crawford_flag_contradicting_the_score() -> None:
    m = five_point(double_in_game2=False)
    m.games[0].crawford = True
    assert any("marked the Crawford game" in e for e in findings(m))


def test_position_post_crawford_flag() -> None:
    p = Position(match_length=5, score=(4, 2))
    assert p.post_crawford and not p.replace(crawford=True).post_crawford


# =========================================================================== gammons, backgammons, Jacoby


def bearoff_game(loser: tuple[int, ...], *pre: Action, win: int) -> Game:
    """O bears off its last checker with 21; X's board is ``loser``."""
    start = Position(boards=(board({1: 1}, off=14), loser), turn=0)
    return Game(1, start=start, actions=[*pre, Action("move", 0, dice=(2, 1), play="1/off"), W(0, win)])


SINGLE = board({6: 10, 5: 2}, off=3)
GAMMON = board({6: 10, 8: 5})
BACKGAMMON = board({6: 10, 20: 5})   # X checkers in O's home board (X's 19..24)
BACKGAMMON_BAR = board({6: 14, 25: 1})


@pytest.mark.parametrize("loser,value", [(SINGLE, 1), (GAMMON, 2), (BACKGAMMON, 3), (BACKGAMMON_BAR, 3)])
def test_result_values(loser: tuple[int, ...], value: int) -> None:
    for length in (0, 7):
        m = Match(length=length, games=[bearoff_game(loser, win=value)])
        assert not findings(m), (length, value)
        m = Match(length=length, games=[bearoff_game(loser, win=value + 1)])
        assert findings(m)


def test_values_times_the_cube() -> None:
    m = Match(length=0, games=[bearoff_game(BACKGAMMON, D(0, 2), T(1), win=6)])
    assert not findings(m)
    m.games[0].actions[-1].value = 3
    assert any("backgammon with the cube at 2" in e for e in findings(m))


def test_jacoby() -> None:
    jac = MatchRules(jacoby=True)
    # centred cube: a gammon counts single
    m = Match(length=0, rules=jac, games=[bearoff_game(GAMMON, win=1)])
    assert not findings(m)
    m.games[0].actions[-1].value = 2
    assert any("single game" in e for e in findings(m))
    # once the cube is turned the gammon counts
    m = Match(length=0, rules=jac, games=[bearoff_game(GAMMON, D(0, 2), T(1), win=4)])
    assert not findings(m)
    # no Jacoby rule in match play, even when asked for
    m = Match(length=7, rules=MatchRules(jacoby=True), games=[bearoff_game(GAMMON, win=2)])
    assert not findings(m)


def test_jacoby_tag_in_mat() -> None:
    text = """; [Jacoby "On"]

 0 point match

 Game 1
 A : 0                              B : 0
  1) 21: 1/0
      Wins 2 points
"""
    m = parse_match(text)
    assert m.rules.jacoby
    m.games[0].start = Position(boards=(board({1: 1}, off=14), GAMMON), turn=0)
    assert any("single game" in e for e in findings(m))


# =========================================================================== beavers and raccoons


def money(*actions: Action, **rules: bool) -> Match:
    return Match(length=0, rules=MatchRules(**rules), games=[cube_game(1, *actions)])


def test_beaver() -> None:
    ok = money(D(0, 2), Action("beaver", 1, value=4), T(0), W(1, 4), beavers=True)
    assert not findings(ok)
    assert any("beavers are not allowed" in e for e in findings(money(D(0, 2), Action("beaver", 1, value=4),
                                                                      T(0), W(1, 4))))
    m = copy.deepcopy(ok)
    m.length = 5
    m.games[0].actions[-1].value = 4
    assert any("not allowed in match play" in e for e in findings(m))
    assert any("not 8" in e for e in findings(money(D(0, 2), Action("beaver", 1, value=8), T(0), W(1, 8),
                                                    beavers=True)))


def test_raccoon() -> None:
    ok = money(D(0, 2), Action("beaver", 1, value=4), Action("raccoon", 0, value=8), T(1), W(0, 8),
               beavers=True, raccoons=True)
    assert not findings(ok)
    bad = money(D(0, 2), Action("raccoon", 0, value=4), T(1), W(0, 4), beavers=True, raccoons=True)
    assert any("raccoon must answer a beaver" in e for e in findings(bad))


def test_gnubg_beaver_file() -> None:
    (m,) = read_any(str(DATA / "sgf_gnubg_beaver.mat"))
    m.rules.beavers = True
    assert not findings(m)
    m.rules.beavers = False
    assert any("beavers are not allowed" in e for e in findings(m))


# =========================================================================== automatic doubles


@pytest.mark.parametrize("name,needed", [("mat_gnubg_autodoubles1.mat", 1),
                                         ("mat_gnubg_autodoubles2.mat", 2)])
def test_gnubg_automatic_doubles_in_mat(name: str, needed: int) -> None:
    """gnubg writes an automatically doubled game as if the cube had stayed at 1 and counts the real
    points only in the next score line.  With ``auto_doubles`` the replay explains it (a note);
    without, the score line is a warning."""
    (m,) = read_any(str(DATA / name))
    rep = replay_match(m)
    assert [f for f in rep.findings if f.severity == "warning" and "score line" in f.message]
    assert not [f for f in rep.findings if f.severity == "error"]
    m.rules.auto_doubles = needed
    rep = replay_match(m)
    assert not [f for f in rep.findings if f.severity != "note"]
    assert [f for f in rep.findings if "automatic double" in f.message]
    if needed > 1:
        m.rules.auto_doubles = needed - 1  # the per-game limit: one fewer does not explain it
        assert [f for f in replay_match(m).findings if f.severity == "warning"]


def test_auto_doubles_header_tag() -> None:
    text = (DATA / "mat_gnubg_autodoubles2.mat").read_text()
    m = parse_match('; [AutoDoubles "2"]\n' + text.lstrip("\n"))
    assert not [f for f in replay_match(m).findings if f.severity != "note"]


def test_auto_doubles_cli() -> None:
    res = CliRunner().invoke(main, ["validate", str(DATA / "mat_gnubg_autodoubles1.mat")])
    assert res.exit_code == 0 and "0 errors, 1 warning, 0 notes" in res.output


def start_cube(cube: int, length: int = 0, auto: int = 0) -> Match:
    start = Position.initial(cube=cube)
    return Match(length=length, rules=MatchRules(auto_doubles=auto), games=[Game(1, start=start, actions=[
        Action("move", 0, dice=(3, 1), play="8/5 6/5"), Action("resign", 1, value=1), W(0, cube)])])


def test_auto_doubles_at_the_start_of_a_game() -> None:
    assert not findings(start_cube(2, auto=1))
    assert any("at most 1 per game" in e for e in findings(start_cube(4, auto=1)))
    assert not findings(start_cube(4, auto=2))
    assert any("automatic doubles are off" in e for e in findings(start_cube(2)))
    assert any("only in money play" in e for e in findings(start_cube(2, length=7, auto=1)))


def test_first_double_shows_automatic_doubles() -> None:
    """Producers other than gnubg write the real cube: a first double to 4 means one automatic double."""
    m = money(Action("move", 0, dice=(3, 1), play="8/5 6/5"), D(1, 4), P(0), W(1, 2))
    m.rules.auto_doubles = 1
    assert not findings(m)
    assert any("automatic doubles" in n for n in findings(m, "note"))
    m.rules.auto_doubles = 0
    assert any("a double is to 2, not 4" in e for e in findings(m))


# =========================================================================== no cube


def test_no_cube() -> None:
    m = money(D(0, 2), T(1), W(0, 2), cube=False)
    assert any("cube is not in use" in e for e in findings(m))
    text = """; [CubeLimit "1"]

 3 point match

 Game 1
 A : 0                              B : 0
  1)  Doubles => 2                   Drops
      Wins 1 point
"""
    m = parse_match(text)
    assert not m.rules.cube
    assert any("cube is not in use" in e for e in findings(m))


def test_cube_limit() -> None:
    m = money(D(0, 2), T(1), D(1, 4), T(0), W(0, 4))
    m.rules.cube_limit = 2
    assert any("limited to 2" in e for e in findings(m))
