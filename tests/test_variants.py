"""Variants end to end: Nackgammon, Hypergammon 1-3, Dutch backgammon, Acey-Deucey.

Legal plays (gnubg as the oracle where it can play the variant), replay and validation of records
(the samples, and broken copies that must be caught), IDs, the ``--variant`` options and diagrams.
"""

from __future__ import annotations

import copy
import itertools
import os
import random
import sys
from functools import partial
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import generate_gnubg_corpus
from hypothesis import given, settings
from hypothesis import strategies as st

from notation import Position, get_rules, parse_match, read_any, replay_match
from notation.cli import main
from notation.errors import IllegalPlayError
from notation.ids import all_ids, gnubg_id, parse_gnubg_id, parse_position_id, parse_xgid, position_id, xgid
from notation.play import play_result, resolve_play
from notation.position import board_from_points
from notation.record import Action, Game, Match, MatchRules
from notation.variants import ACEY_DOUBLE

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
DATA = Path(__file__).resolve().parent / "data"
board = partial(board_from_points, off=0)
"""``board({point: count}, off=N)``: the library's board builder; here nothing is borne off unless said."""
sys.path.insert(0, str(DATA))

from variant_games import play_game, play_match  # noqa: E402


@pytest.fixture(autouse=True)
def _no_terminal_input() -> object:
    """gnubg's module, driven in-process by some tests here, may ask a question on file descriptor 0:
    give it end-of-file instead of a terminal, so that a prompt can never wait."""
    saved = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    try:
        yield
    finally:
        os.dup2(saved, 0)
        os.close(saved)


def errors(m: Match) -> list[str]:
    return [f.format() for f in replay_match(m).findings if f.severity == "error"]


def not_notes(m: Match) -> list[str]:
    return [f.format() for f in replay_match(m).findings if f.severity != "note"]


# =========================================================================== starting positions


def test_starting_positions() -> None:
    std = get_rules("standard").start_board()
    assert get_rules("nackgammon").start_board() == board({24: 2, 23: 2, 13: 4, 8: 3, 6: 4})
    # gnubg's hypergammon: one checker each on the 24-, 23- and 22-points (InitBoard; checked below)
    assert get_rules("hypergammon3").start_board() == board({24: 1, 23: 1, 22: 1})
    assert get_rules("hypergammon2").start_board() == board({24: 1, 23: 1})
    assert get_rules("hypergammon1").start_board() == board({24: 1})
    assert get_rules("dutch").start_board() == board({25: 15})
    assert get_rules("acey-deucey").start_board() == (0,) * 26
    assert std != get_rules("nackgammon").start_board()
    # gnubg's Position IDs of the starting positions ("show board" after a new session)
    assert position_id(Position.initial("hypergammon3")) == "AACgAgAAKgAAAA"
    assert position_id(Position.initial("nackgammon")) == "4Dl4ADbgOXgANg"
    acey = Position.initial("acey-deucey")
    assert acey.waiting(0) == acey.waiting(1) == 15 and acey.is_valid()
    assert acey.pips(0) == 15 * 25


@pytest.mark.parametrize("name,expect", [
    ("HyperGammon (3)", "hypergammon3"), ("Hypergammon1", "hypergammon1"), ("NackGammon", "nackgammon"),
    ("Dutch", "dutch"), ("Acey-Deucey", "acey-deucey"), ("acey_ducey", "acey-deucey"),
    ("2-chequer-hypergammon", "hypergammon2")])
def test_variant_names(name: str, expect: str) -> None:
    assert get_rules(name).name == expect


def test_gnubg_starting_positions() -> None:
    gnubg = pytest.importorskip("gnubg")
    from hyper_gnubg import GNUBG_VARIATION, run

    for variant, gv in GNUBG_VARIATION.items():
        for cmd in ("set confirm new off", f"set variation {gv}", "set player 0 human", "set player 1 human",
                    "new session"):
            run(cmd)
        opp, me = gnubg.board()
        assert tuple(me[:24]) + (me[24],) == get_rules(variant).start_board()[1:]
        assert tuple(opp[:24]) + (opp[24],) == get_rules(variant).start_board()[1:]
    run("set variation standard")


# =========================================================================== Hypergammon: gnubg as the oracle


@pytest.mark.parametrize("variant,seed", [("hypergammon1", 21), ("hypergammon2", 22), ("hypergammon3", 23),
                                          ("hypergammon3", 24)])
def test_hypergammon_plays_accepted_by_gnubg(variant: str, seed: int) -> None:
    """Every play our generator calls legal is accepted by gnubg (human players), gnubg's board then
    equals ours, and a play using too few dice is refused; gnubg's export then validates clean."""
    pytest.importorskip("gnubg")
    from hyper_gnubg import gnubg_hyper_match

    sgf: list[str] = []
    text, checked = gnubg_hyper_match(variant, seed, 5, sgf=sgf)
    assert checked > 10
    for record in (text, sgf[0]):  # the .mat ([Variation "HyperGammon (n)"]) and the SGF (RU[Hypergammon<n>])
        m = parse_match(record)
        assert m.rules.variant == variant
        assert not not_notes(m)


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("hyper*.mat")), ids=lambda p: p.name)
def test_hyper_samples_validate(path: Path) -> None:
    (m,) = read_any(str(path))
    assert m.rules.variant.startswith("hypergammon")
    rep = replay_match(m)
    assert rep.plays > 5
    assert not [f for f in rep.findings if f.severity != "note"]
    # as standard backgammon the same record is nonsense
    m.rules.variant = "standard"
    assert errors(m)


def test_hyper_broken_copy_is_caught(tmp_path: Path) -> None:
    text = (SAMPLES / "hyper3_3point.mat").read_text()
    # the first reply 64: 24/18 22/18 becomes 24/18 22/17 (a 5, not a 4)
    broken = text.replace("64: 24/18 22/18", "64: 24/18 22/17", 1)
    assert broken != text
    m = parse_match(broken)
    errs = errors(m)
    assert errs and "22/17" in errs[0] and "game 1 move 1" in errs[0]
    # a fourth checker does not exist in 3-checker hypergammon
    broken = text.replace("64: 24/18 22/18", "64: 24/18 13/9", 1)
    assert any("no checker on 13" in e for e in errors(parse_match(broken)))


def test_hypergammon_ids() -> None:
    p = parse_gnubg_id("AACgAgAAKgAAAA:MAEAAAAAAAAE", variant="hypergammon3")
    assert p.boards == Position.initial("hypergammon3").boards
    assert p.boards[0][0] == 0  # nothing borne off: the Position ID counts off from 3, not 15
    std = parse_position_id("AACgAgAAKgAAAA")
    assert std.boards[0][0] == 12  # the same ID as standard backgammon: 12 borne off
    x = xgid(p)
    assert parse_xgid(x, variant="hypergammon3").boards == p.boards
    late = p.replace(boards=(board({3: 1, 1: 1}, off=1), board({20: 1}, off=2)))
    assert parse_gnubg_id(gnubg_id(late), variant="hypergammon3").boards == late.boards


# =========================================================================== Nackgammon


def test_nackgammon_opening_plays() -> None:
    p = Position.initial("nackgammon", dice=(2, 1))
    plays = {q.notation() for q in p.rules.legal_plays(p)}
    assert "24/23 24/22" in plays and "23/21 24/23" not in plays
    assert len(plays) == len(set(plays))


@pytest.fixture(scope="module")
def nack_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Matches gnubg plays and writes as Nackgammon (``VARIATION=nackgammon gnubg-corpus``);
    GAMMON_NACK_COUNT sets how many (3)."""
    return generate_gnubg_corpus(tmp_path_factory, "nack", 3, variation="nackgammon")


def test_gnubg_nackgammon_corpus_validates(nack_corpus: Path) -> None:
    files = sorted(nack_corpus.glob("mat/*.mat")) + sorted(nack_corpus.glob("sgf/*.sgf"))
    assert files
    plays = 0
    for f in files:
        for m in read_any(str(f)):
            assert m.rules.variant == "nackgammon", f
            rep = replay_match(m)
            plays += rep.plays
            bad = [x.format() for x in rep.findings if x.severity != "note"]
            assert not bad, bad[:5]
    assert plays > 100
    # read as standard backgammon, the first nackgammon move of some file is illegal
    m = read_any(str(files[0]))[0]
    m.rules.variant = "standard"
    assert errors(m)


# =========================================================================== Dutch backgammon


def test_dutch_hit_needs_a_home_checker() -> None:
    dutch = get_rules("dutch")
    std = get_rules("standard")
    # O has checkers on 20 and 15 (none in its home board); X has a blot on O's 17-point (X's 8).
    mine = board({20: 1, 15: 14})
    theirs = board({8: 1, 25: 14})
    no_home = {p.notation() for p in dutch.plays_for(mine, theirs, 3, 1)}
    assert "20/17*" not in no_home and "20/17" not in {x.replace("*", "") for x in no_home if "/17" in x}
    assert any("20/17*" in p.notation() for p in std.plays_for(mine, theirs, 3, 1))
    # with a checker in the home board the hit is allowed
    mine_home = board({20: 1, 15: 13, 5: 1})
    assert any("20/17*" in p.notation() for p in dutch.plays_for(mine_home, theirs, 3, 1))
    # a checker that reaches home with the first die lets the second die hit: 7/6, then 20/17*
    mine2 = board({7: 1, 20: 1, 15: 13})
    plays = {frozenset(p.steps) for p in dutch.plays_for(mine2, theirs, 3, 1)}
    assert frozenset({(7, 6, False), (20, 17, True)}) in plays


def test_dutch_hit_after_reaching_home_with_a_double() -> None:
    dutch = get_rules("dutch")
    mine = board({9: 1, 20: 1, 15: 13})
    theirs = board({8: 1, 25: 14})  # X's blot on O's 17-point
    plays = {frozenset(p.steps) for p in dutch.plays_for(mine, theirs, 3, 3)}
    assert any((20, 17, True) in p and (9, 6, False) in p for p in plays)


def test_dutch_enters_from_the_bar_first() -> None:
    p = Position.initial("dutch", dice=(6, 3))
    plays = [q.mine for q in p.rules.legal_plays(p)]
    assert plays == [board({25: 13, 22: 1, 19: 1})]
    # a record that moves a checker in play while others wait on the bar is caught
    m = Match(length=3, rules=MatchRules(variant="dutch"))
    g = Game(1, score=(0, 0), actions=[
        Action("move", 0, dice=(6, 3), play="bar/19 bar/22"),
        Action("move", 1, dice=(5, 2), play="bar/20 bar/23"),
        Action("move", 0, dice=(4, 1), play="19/15 22/21"),
    ])
    m.games.append(g)
    errs = errors(m)
    assert errs and "on the bar and must enter" in errs[0]


def test_dutch_sample_and_broken_copy() -> None:
    path = SAMPLES / "dutch_5point.mat"
    (m,) = read_any(str(path))
    assert m.rules.variant == "dutch"
    assert not not_notes(m)
    text = path.read_text()
    # game 1, row 15: X hits 16/13* ... the first hit of the sample; make O hit with no home checker:
    # the first row's entries are legal only as Dutch: as standard backgammon the record is nonsense
    m2 = parse_match(text)
    m2.rules.variant = "standard"
    assert errors(m2)


def test_dutch_early_hit_is_caught() -> None:
    """A hit before the hitter has a checker in its home board: legal in backgammon, not in Dutch."""
    rng = random.Random(5)
    for _ in range(200):
        actions, *_ = play_game("dutch", rng)
        # find a position where the mover has no home checker and could hit in standard rules
        pos = Position.initial("dutch")
        first = actions[0].player
        pos = pos.replace(turn=first)
        std = get_rules("standard")
        for i, a in enumerate(actions):
            if a.kind != "move" or a.dice is None:
                break
            if not any(pos.on_roll[1:7]):
                hits = [p for p in std.plays_for(pos.on_roll, pos.opponent, *a.dice)
                        if any(h for _, _, h in p.steps) and not any(p.mine[1:7])]
                if hits:
                    broken = actions[:i] + [Action("move", a.player, dice=a.dice, play=hits[0].notation())]
                    m = Match(length=0, rules=MatchRules(variant="dutch"),
                              games=[Game(1, actions=broken)])
                    errs = errors(m)
                    assert errs and "home board" in errs[-1], errs
                    return
            q = pos.rules.plays_for(pos.on_roll, pos.opponent, *a.dice)
            from notation.play import resolve_play

            pos = play_result(pos, resolve_play(pos.replace(dice=a.dice), a.play or "", a.dice).play) \
                if q else pos.replace(turn=1 - pos.turn)
    pytest.fail("no early-hit situation found")


def test_dutch_ids() -> None:
    p = Position.initial("dutch", dice=(6, 3))
    ids = all_ids(p)
    assert ids["position_id"] == "AAAA/38AAAD/fw"  # 15 on each bar
    assert parse_gnubg_id(ids["gnubg_id"] or "", variant="dutch").boards == p.boards


# =========================================================================== Acey-Deucey: the generator


def _reference_acey(mine: tuple[int, ...], theirs: tuple[int, ...], d1: int, d2: int) -> set[tuple]:
    """A slow, separate statement of the rules: every sequence of single-die steps (either order of
    the dice, all four for a double), keeping those that use the most dice (the larger die when only
    one can be used); the results as (mine, theirs)."""
    dice_orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    results: dict[tuple, int] = {}

    def steps(m: list[int], th: list[int], die: int) -> list[tuple[list[int], list[int]]]:
        out = []
        waiting = 15 - sum(m)
        sources = [25] if m[25] else ([25] if waiting else []) + [p for p in range(1, 25) if m[p]]
        home = sum(m[7:26]) == 0 and waiting == 0
        for s in sources:
            t = s - die
            if t >= 1:
                if th[25 - t] >= 2:
                    continue
                m2, th2 = list(m), list(th)
                if s == 25 and not m[25]:
                    pass  # a waiting checker enters
                else:
                    m2[s] -= 1
                m2[t] += 1
                if th2[25 - t] == 1:
                    th2[25 - t] = 0
                    th2[25] += 1
                out.append((m2, th2))
            elif home and (t == 0 or not any(m[s + 1:7])):
                m2 = list(m)
                m2[s] -= 1
                m2[0] += 1
                out.append((m2, list(th)))
        return out

    def rec(m: list[int], th: list[int], dice: tuple[int, ...], used: int, first: int) -> None:
        key = (tuple(m), tuple(th))
        if used:
            results[key] = max(results.get(key, 0), used * 10 + (first == max(d1, d2)))
        if not dice:
            return
        for m2, th2 in steps(m, th, dice[0]):
            rec(m2, th2, dice[1:], used + 1, first if used else dice[0])

    for order in dice_orders:
        rec(list(mine), list(theirs), order, 0, 0)
    if not results:
        return set()
    most = max(v // 10 for v in results.values())
    best = {k: v for k, v in results.items() if v // 10 == most}
    if most == 1 and d1 != d2 and any(v % 10 for v in best.values()):
        best = {k: v for k, v in best.items() if v % 10}
    return set(best)


def _random_acey_board(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    mine = [0] * 26
    theirs = [0] * 26
    for b, other in ((mine, theirs), (theirs, mine)):
        n = rng.randint(0, 15)
        for _ in range(n):
            r = rng.random()
            if r < 0.1:
                b[25] += 1
            elif r < 0.15:
                b[0] += 1
            else:
                p = rng.choice([1, 2, 3, 4, 5, 6] if rng.random() < 0.5 else list(range(1, 25)))
                if other[25 - p] == 0:
                    b[p] += 1
    return tuple(mine), tuple(theirs)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 6), st.integers(1, 6))
def test_acey_generator_matches_reference(seed: int, d1: int, d2: int) -> None:
    mine, theirs = _random_acey_board(random.Random(seed))
    rules = get_rules("acey-deucey")
    got = {(p.mine, p.theirs) for p in rules.plays_for(mine, theirs, d1, d2)}
    assert got == _reference_acey(mine, theirs, d1, d2)


def test_acey_entering_is_optional_but_the_bar_is_not() -> None:
    rules = get_rules("acey-deucey")
    mine = board({20: 1})          # 14 waiting
    theirs = board({6: 2})         # X holds O's 19-point
    plays = {p.mine for p in rules.plays_for(mine, theirs, 5, 3)}
    assert board({12: 1}) in plays                 # 20/12: moving the checker in play only
    assert board({20: 2, 22: 1}) in plays          # bar/20 bar/22: entering two waiting checkers
    assert board({22: 1, 15: 1}) in plays          # bar/22 20/15: one of each
    # a hit checker on the bar must enter before anything else moves, waiting checkers included
    on_bar = board({20: 1, 25: 1})
    steps = [p.steps for p in rules.plays_for(on_bar, theirs, 5, 3)]
    assert steps and all(st[0][0] == 25 for st in steps)
    assert board({20: 1, 17: 1}) in {p.mine for p in rules.plays_for(on_bar, theirs, 5, 3)}  # bar/17
    # no bearing off while checkers wait to enter
    home = board({1: 3, 2: 3})           # 9 waiting
    assert not any(t == 0 for p in rules.plays_for(home, theirs, 2, 1) for _s, t, _h in p.steps)


def test_acey_written_entries_resolve() -> None:
    """Acey-Deucey's written plays are read as standard's (:func:`notation.play.resolve_play`), the rules'
    step check letting ``bar/N`` enter a waiting checker."""
    pos = Position.initial("acey-deucey", dice=(6, 5))
    res = resolve_play(pos, "bar/19 bar/20")
    assert res.play.mine == board({19: 1, 20: 1})
    with pytest.raises(IllegalPlayError, match="the 5 is not played, but"):
        resolve_play(pos, "bar/19")  # both dice can be played
    with pytest.raises(IllegalPlayError, match="no checker on 13"):
        resolve_play(pos, "13/8")


def _acey_move(mine: tuple[int, ...], theirs: tuple[int, ...], dice: tuple[int, int], play: str,
               variant: str = "acey-deucey") -> tuple[list[str], Position]:
    """The errors of a one-move Acey-Deucey record from the boards given, and the position it leaves."""
    pos = Position(boards=(mine, theirs), turn=0, variant=variant)
    m = Match(rules=MatchRules(variant=variant), games=[Game(1, start=pos, actions=[
        Action("move", 0, dice=dice, play=play)])])
    rep = replay_match(m)
    return [f.message for f in rep.findings if f.severity == "error"], rep.games[0].end


def test_acey_written_points_on_the_way_count() -> None:
    """A written play's intermediate points are played as written, as in standard: a blot there is hit,
    a point held there refuses the play (they were once skipped: only a checker's first and last point
    were read)."""
    errs, end = _acey_move(board({24: 1}), board({4: 1}), (6, 3), "24/21/15")  # their 4 is our 21
    assert not errs and end.boards[0][15] == 1 and end.boards[1][25] == 1  # hit on 21, not by 24/18/15
    errs, end = _acey_move(board({24: 1}), board({7: 2}), (6, 5), "24/18/13")  # their 7 is our 18
    assert errs and "lands on 18" in errs[0]  # not 24/19/13


def test_acey_illegal_plays_are_worded_as_standard() -> None:
    """Where the situation is standard's (every checker on the board), a play Acey-Deucey refuses is
    refused in standard's words (:func:`notation.rules.rule_breach` for too few dice); a compressed move
    such as 24/13 plays both dice, and is not said to play one."""
    start = get_rules("standard").start_board()
    for text in ("24/18", "24/13 13/8", "13/7 13/2", "6/1 6/0", "8/2*"):
        acey, _ = _acey_move(start, start, (6, 5), text)
        standard, _ = _acey_move(start, start, (6, 5), text, variant="standard")
        assert acey and acey == standard, text
    errs, _ = _acey_move(board({24: 1, 25: 1}), board({}), (6, 5), "24/13")  # a checker on the bar
    assert errs and "does not play both dice" not in errs[0] and "must enter before 24" in errs[0]


# =========================================================================== Acey-Deucey: records


@pytest.fixture(scope="module")
def acey_match() -> Match:
    (m,) = read_any(str(SAMPLES / "acey_money_session.json"))
    return m


def test_acey_samples_validate(acey_match: Match) -> None:
    assert acey_match.rules.variant == "acey-deucey"
    rep = replay_match(acey_match)
    assert not [f for f in rep.findings if f.severity != "note"]
    named = [a for g in acey_match.games for a in g.actions if ACEY_DOUBLE in a.properties]
    assert len(named) >= 3
    (m2,) = read_any(str(SAMPLES / "acey_checker_scoring.json"))
    assert not not_notes(m2)


def test_hyper1_single_checker_bears_off_from_24() -> None:
    # A set-up start (not an opening, so 66 may be the first roll); X's checker is still in O's home
    # board, so the game is a backgammon: 3 points.
    pos = Position.initial("hypergammon1", dice=(6, 6))
    m = Match(length=0, rules=MatchRules(variant="hypergammon1"), games=[Game(1, start=pos, actions=[
        Action("move", 0, dice=(6, 6), play="24/off"), Action("win", 0, value=3)])])
    assert not errors(m)
    wrong = Match(length=0, rules=MatchRules(variant="hypergammon1"), games=[Game(1, start=pos, actions=[
        Action("move", 0, dice=(6, 6), play="24/off"), Action("win", 0, value=2)])])
    assert any("backgammon" in e for e in errors(wrong))


def test_acey_self_play_validates() -> None:
    for seed in range(4):
        assert not not_notes(play_match("acey-deucey", 100 + seed, games=2))


def _named_index(m: Match) -> tuple[Game, int]:
    for g in m.games:
        for i, a in enumerate(g.actions):
            if ACEY_DOUBLE in a.properties and i + 1 < len(g.actions) and g.actions[i + 1].kind == "move" \
                    and g.actions[i + 1].player == a.player:
                return g, i
    raise AssertionError("no named double followed by the extra roll")


def _broken(m: Match, edit) -> list[str]:  # type: ignore[no-untyped-def]
    mm = copy.deepcopy(m)
    g, i = _named_index(mm)
    edit(g.actions, i)
    return errors(mm)


def test_acey_missing_named_double_is_caught(acey_match: Match) -> None:
    errs = _broken(acey_match, lambda acts, i: acts.pop(i))
    assert errs and "must name a double" in errs[0]


def test_acey_named_double_must_be_a_double(acey_match: Match) -> None:
    def edit(acts: list[Action], i: int) -> None:
        acts[i].dice = (6, 5)

    errs = _broken(acey_match, edit)
    assert errs and "must be a double" in errs[0]


def test_acey_named_double_by_the_wrong_player(acey_match: Match) -> None:
    def edit(acts: list[Action], i: int) -> None:
        acts[i].player = 1 - acts[i].player

    errs = _broken(acey_match, edit)
    assert errs and "names the double" in errs[0]


def test_acey_named_double_without_a_1_2(acey_match: Match) -> None:
    def edit(acts: list[Action], i: int) -> None:
        acts[i - 1].dice = (3, 1)

    errs = _broken(acey_match, edit)
    assert any("must follow a fully played acey-deucey roll" in e for e in errs)


def test_acey_extra_roll_is_the_same_players(acey_match: Match) -> None:
    """After a fully played named double the same player rolls again; the opponent may not."""
    def edit(acts: list[Action], i: int) -> None:
        acts[i + 1].player = 1 - acts[i + 1].player

    errs = _broken(acey_match, edit)
    assert errs and "turn" in errs[0]


def test_acey_named_double_not_in_standard() -> None:
    m = Match(games=[Game(1, actions=[
        Action("move", 0, dice=(2, 1), play="13/11 6/5"),
        Action("move", 0, dice=(6, 6), play="24/18(2) 13/7(2)", properties={ACEY_DOUBLE: ["chosen"]}),
    ])])
    errs = errors(m)
    assert any("in Acey-Deucey, not in Backgammon" in e for e in errs)


def test_acey_checker_scoring() -> None:
    (m,) = read_any(str(SAMPLES / "acey_checker_scoring.json"))
    rep = replay_match(m)
    for gr in rep.games:
        loser = gr.end.boards[1 - (gr.winner or 0)]
        assert gr.points == 15 - loser[0]
    broken = copy.deepcopy(m)
    last = broken.games[0].actions[-1]
    assert last.kind == "win"
    last.value = (last.value or 0) + 1
    assert any("not" in e for e in errors(broken))
    # without the scoring option the same results are wrong
    plain = copy.deepcopy(m)
    plain.properties.pop("scoring")
    assert errors(plain)


def test_acey_waiting_counts_as_backgammon() -> None:
    """A loser with checkers still waiting to enter loses a backgammon."""
    rules = get_rules("acey-deucey")
    pos = Position(boards=(board({1: 1}, off=14), board({10: 3})), turn=0, variant=rules.name)
    m = Match(rules=MatchRules(variant="acey-deucey"),
              games=[Game(1, start=pos, actions=[Action("move", 0, dice=(3, 1), play="1/off"),
                                                 Action("win", 0, value=3)])])
    assert not errors(m)
    m.games[0].actions[-1].value = 2
    assert errors(m)


def test_acey_ids_cannot_hold_waiting_checkers() -> None:
    pos = Position.initial("acey-deucey")
    assert all_ids(pos)["gnubg_id"] is None and all_ids(pos)["xgid"] is None
    full = pos.replace(boards=(board({6: 15}), board({19: 15})))
    assert all_ids(full)["gnubg_id"] is not None


# =========================================================================== command line


def test_cli_validate_reads_the_variant_from_the_record() -> None:
    runner = CliRunner()
    files = [str(p) for p in sorted(SAMPLES.glob("hyper*.mat"))] + [str(SAMPLES / "dutch_5point.mat"),
                                                                     str(SAMPLES / "acey_money_session.json")]
    res = runner.invoke(main, ["validate", *files])
    assert res.exit_code == 0, res.output
    assert " 0 errors" in res.output
    res = runner.invoke(main, ["validate", "--variant", "standard", str(SAMPLES / "hyper3_3point.mat")])
    assert res.exit_code == 1
    res = runner.invoke(main, ["validate", "--variant", "no-such-game", str(SAMPLES / "hyper3_3point.mat")])
    assert res.exit_code == 2 and "'no-such-game' is not one of" in res.output and "'nackgammon'" in res.output


def test_cli_moves_variant() -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["moves", "AACgAgAAKgAAAA", "--variant", "hypergammon3", "--dice", "31"])
    assert res.exit_code == 0, res.output
    assert "7 legal plays" in res.output and "24/21 23/22" in res.output
    res = runner.invoke(main, ["moves", "AAAA/38AAAD/fw", "--variant", "dutch", "--dice", "66"])
    assert res.exit_code == 0 and "bar/19(4)" in res.output
    res = runner.invoke(main, ["moves", "4HPwATDgc/ABMA", "--variant", "nackgammon", "--dice", "21"])
    assert res.exit_code == 0 and "15 legal plays" in res.output
    res = runner.invoke(main, ["moves", "4HPwATDgc/ABMA", "--variant", "chess", "--dice", "21"])
    assert res.exit_code == 2


# =========================================================================== diagrams


@pytest.mark.parametrize("variant", ["hypergammon1", "hypergammon3", "dutch", "nackgammon", "acey-deucey"])
def test_diagrams_of_variant_positions(variant: str) -> None:
    render = pytest.importorskip("render")
    pos = Position.initial(variant, dice=(6, 3))
    png = render.png(pos)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    svg = str(render.svg(pos))
    assert svg.startswith("<svg") or "<svg" in svg[:200]


def test_all_roll_plays_of_variant_positions_are_distinct() -> None:
    for variant in ("hypergammon3", "dutch", "acey-deucey", "nackgammon"):
        pos = Position.initial(variant)
        for d1, d2 in itertools.combinations_with_replacement(range(1, 7), 2):
            plays = pos.rules.plays_for(pos.on_roll, pos.opponent, d1, d2)
            assert len({(p.mine, p.theirs) for p in plays}) == len(plays)


def test_acey_waiting_checkers_are_drawn() -> None:
    """Checkers not yet entered stand in the tray (five shown, with the count), so a diagram shows all fifteen."""
    import render
    from render.display import Circle, Glyphs, Group

    def items(group):  # type: ignore[no-untyped-def]
        for it in group.items:
            if isinstance(it, Group):
                yield from items(it)
            else:
                yield it

    def checkers_and_texts(pos: Position) -> tuple[int, int]:
        its = list(items(render.drawing(pos).root))
        big = [c for c in its if isinstance(c, Circle) and c.fill is not None and c.r > 10]
        return len(big), sum(1 for t in its if isinstance(t, Glyphs))

    start = Position.initial("acey-deucey", dice=(2, 1))
    n_start, texts_start = checkers_and_texts(start)
    entered = list(start.boards[0])
    entered[24] = 14  # all but one of White's checkers entered: one left waiting
    one_waiting = start.replace(boards=(tuple(entered), start.boards[1]))
    n_one, _ = checkers_and_texts(one_waiting)
    assert n_start >= 10  # five waiting checkers drawn for each side
    assert n_one >= n_start - 4  # White: one waiting in the tray plus five on its 24-point
