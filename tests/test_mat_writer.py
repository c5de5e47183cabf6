"""The canonical ``.mat`` writer: GNU Backgammon's bytes, lossless round trips, gnubg interop.

* Files gnubg wrote are reproduced byte for byte (tests/data, and the ../shared gnubg-corpus).
* Documented differences from gnubg (its bugs): tag values are escaped, a roll that was not played
  is not glued to the next cell, a long first "name : score" keeps a space before the second name,
  and the rows of a game without a result end with a line break.
* read(write(read(x))) == read(x) as data for every real file; gnubg imports what we write of a real
  file to the same match as the original (except where gnubg cannot read the original).
* Hypothesis: random matches survive write → read.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest
from conftest import CORPUS, DATA
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.formats.mat import dump_match, format_play_text, read_match, read_matches, write_match
from notation.record import Action, Game, Match, MatchRules

MAT_CORPUS = CORPUS / "mat"
CORPUS_FILES = sorted(p for p in MAT_CORPUS.rglob("*") if p.is_file()) if MAT_CORPUS.is_dir() else []
GNUBG_DATA = sorted(DATA.glob("mat_gnubg_*.mat"))
DIALECT_DATA = sorted(p for p in DATA.glob("mat_*") if p not in GNUBG_DATA)


def view(m: Match) -> object:
    """What a match says, as the writer can keep it: no spans, source text or reading notes; plays
    compared in gnubg's plain form; 'Cannot Move' is a dance like an empty cell; Galaxy's 'Losses'
    is not written (the 'Wins' says it)."""
    games = []
    for g in m.games:
        acts = []
        for a in g.actions:
            if a.kind == "loss":
                continue
            play = format_play_text(a.play) if a.play else a.play
            no_move = a.no_move if a.kind == "roll" and a.no_move and a.no_move.startswith("?") else None
            acts.append((a.kind, a.player, a.dice, play, a.value, no_move))
        games.append((g.number, g.score, g.names, g.ratings, g.comments, acts))
    return (m.length, m.names, m.tags, m.comments, m.rules, games)


# --------------------------------------------------------------------------- gnubg's own bytes


@pytest.mark.parametrize("path", GNUBG_DATA, ids=lambda p: p.name)
def test_gnubg_bytes(path: Path) -> None:
    assert write_match(read_match(path)) == path.read_text(encoding="utf-8")


def test_gnubg_corpus_bytes(gnubg_corpus: Path) -> None:
    files = sorted((gnubg_corpus / "mat").glob("*.mat"))
    assert files
    for path in files:
        assert write_match(read_match(path)) == path.read_text(encoding="utf-8"), path.name


def test_gnubg_layout_details() -> None:
    m = read_match(DATA / "mat_gnubg_selfplay_3p.mat")
    out = write_match(m)
    assert out.startswith('; [EventDate "2026.11.22"]\n\n 3 point match\n\n Game 1\n gnubg : 0')
    assert " 27)  Drops                       Wins 1 point \n\n Game 2\n" in out
    assert re.search(r"^ {2}1\) {29}\d\d: ", out, re.M)  # the right player opens
    assert f"  5) {'53: 24/21 13/8 ':<27}  Doubles => 2\n" in write_match(read_match(
        " 3 point match\n Game 1\n a : 0   b : 0\n  5) 53: 24/21 13/8   Doubles => 2\n"))


# --------------------------------------------------------------------------- gnubg's bugs, avoided


def test_differences_from_gnubg() -> None:
    # gnubg writes tag values unescaped: ; [Event "Test \Event]"]
    m = read_match('; [Event "Test \\Event]"]\n; [Round "say "hi""]\n\n 1 point match\n\n')
    out = write_match(m)
    assert out.startswith('; [Event "Test \\\\Event]"]\n; [Round "say \\"hi\\""]\n\n 1 point match\n')
    assert read_match(out).tags == m.tags == [("Event", "Test \\Event]"), ("Round", 'say "hi"')]
    # gnubg glues the cell after a roll that was not played: "  1) 31: 52: 13/11 13/8"
    glued = read_match(" 1 point match\n\n Game 1\n a : 0                          b : 0\n"
                       "  1) 31: 52: 13/11 13/8\n")
    assert write_match(glued).endswith("  1) 31:                         52: 13/11 13/8 \n\n")
    # gnubg glues a long first "name : score" to the second name
    long = read_match(" 1 point match\n Game 1\n Kévin UNGER Nicolas HARMAND : 10  Johan HUYCK : 3\n")
    assert " Kévin UNGER Nicolas HARMAND : 10 Johan HUYCK : 3\n" in write_match(long)
    # gnubg leaves the last row of a game without a result unterminated
    open_game = read_match(" 0 point match\n\n Game 1\n a : 0                          b : 0\n"
                           "  1) 31: 8/5 6/5                 61: 13/7 8/7 \n  2) 54: ")
    assert write_match(open_game).endswith("  2) 54:                         \n\n")


def test_resignation_layouts() -> None:
    # a roll that was not played, then the other player's win (gnubg: the roll is not padded)
    for body in ("  2) 55:                         Wins 2 points\n",
                 "  1) 31: 8/5 6/5                 64: 24/18 13/9 \n      Wins 1 point\n",
                 "  1) 31: 8/5 6/5                 51: \n      Wins 1 point\n",
                 "  1)  Concedes                    Wins 2 points\n",
                 "  1) 31: 8/5 6/5                  Concedes\n      Wins 1 point\n",
                 "  1) 31: 8/5 6/5                 \n      Wins 1 point\n",
                 "  1) 31: 8/5 6/5                  Wins 1 point\n"):
        text = f" 3 point match\n\n Game 1\n a : 0                          b : 0\n{body}\n"
        assert write_match(read_match(text)) == "\n" + text, body



def test_each_roll_not_played_is_said_as_what_it_is() -> None:
    """gnubg's SGF of an unfinished match (``sgf_gnubg_resign.sgf``) holds a roll its roller resigned after
    and one where the record stops: both were said as '2 rolls after which the player resigned without
    moving' (one was not; and one roll was '1 rolls')."""
    from notation.formats.mat_write import write as write_mat
    from notation.matchio import read_match as read_any_match

    said = write_mat(read_any_match(DATA / "sgf_gnubg_resign.sgf")).dropped
    assert [d for d in said if "roll" in d] == [
        "1 roll after which the player resigned without moving: .mat writes it as an empty move",
        "1 roll after which the record stops, not played: .mat writes it as an empty move"]

# --------------------------------------------------------------------------- options


def test_dialect_options() -> None:
    m = read_match(" 3 point match\n\n Game 1\n a : 0   b : 0\n"
                   "  1) 44: bar/20*(2) 6/off(2)    66: 24/18/12 13/7*(2)\n  2) 63: 24/15*\n")
    out = write_match(m)
    # counts and chains are expanded into single moves, the hit marked once
    assert f"  1) {'44: 25/20* 25/20 6/0 6/0':<27} 66: 24/18 18/12 13/7* 13/7\n" in out
    assert "  2) 63: 24/15* " in out  # a compressed move needs the position to be split
    out = write_match(m, bar="bar", off="off", hit_marks=False)
    assert "  1) 44: bar/20 bar/20 6/off 6/off 66: 24/18 18/12 13/7 13/7\n" in out
    assert read_match(out).games[0].actions[1].play == "24/18 18/12 13/7 13/7"
    assert format_play_text("Bar/24*, 13/Off") == "25/24* 13/0"
    assert format_play_text("not a play!") == "not a play!"


def test_rules_become_tags() -> None:
    m = Match(length=5, names=("a", "b"), tags=[("Event", "x"), ("Transcriber", "me")],
              rules=MatchRules(variant="nackgammon", crawford=False, jacoby=True, beavers=True,
                               cube_limit=64))
    out = write_match(m)
    assert out.startswith('; [Event "x"]\n; [Variation "NackGammon"]\n; [Transcriber "me"]\n'
                          '; [Crawford "Off"]\n; [Jacoby "On"]\n; [Beaver "On"]\n; [CubeLimit "64"]\n\n'
                          ' 5 point match\n\n')
    assert read_match(out).rules == m.rules
    nocube = Match(rules=MatchRules(variant="hypergammon2", cube=False, cube_limit=1))
    assert read_match(write_match(nocube)).rules == nocube.rules


def test_setups() -> None:
    """Set-up positions are written as Snowie 'Illegal play' cells and read back."""
    from notation.ids import parse_snowie

    m = read_match(DATA / "mat_snowie_setup.txt")
    out = write_match(m)
    assert "  2) 11: Illegal play (25;0;1;0;0;Kenji;nori;0;10;8;2;1;0;3;4;2;2;2;0" in out
    assert [a.setup for a in read_match(out).games[0].actions] == [a.setup for a in m.games[0].actions]
    # a game's set-up starting position (SGF AE/AB/AW) opens the game, in the column of the player
    # on roll
    start = parse_snowie("7;0;0;0;1;Bob;Alice;0;4;2;2;-1;0;-2;0;0;0;0;5;0;3;0;0;0;-5;5;0;0;0;-3;0;-5;0;0;0;0;"
                         "2;0;5;2;")
    g = Game(number=1, score=(2, 4), names=("Alice", "Bob"), start=start)
    g.actions.append(Action(kind="move", player=1, dice=(5, 2), play="13/8 13/11"))
    text = write_match(Match(length=7, names=("Alice", "Bob"), games=[g]))
    assert "  1)                             52: Illegal play (" in text
    back = read_match(text).games[0].actions
    assert [(a.kind, a.player, a.dice) for a in back] == [("setup", 1, (5, 2)), ("move", 1, (5, 2))]
    assert back[0].setup == start
    g.start = start.replace(dice=None)
    back = read_match(write_match(Match(length=7, names=("Alice", "Bob"), games=[g]))).games[0].actions
    assert (back[0].kind, back[0].dice, back[0].setup) == ("setup", None, g.start)


def test_dump_match(tmp_path: Path) -> None:
    m = read_match(DATA / "mat_xg_dialect.txt")
    p = tmp_path / "out.mat"
    dump_match(m, p, bar="bar", off="off")
    assert p.read_bytes() == write_match(m, bar="bar", off="off").encode("utf-8")
    assert view(read_match(p)) == view(m)


# --------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("path", DIALECT_DATA + GNUBG_DATA, ids=lambda p: p.name)
def test_round_trip_data_files(path: Path) -> None:
    for m in read_matches(path):
        text = write_match(m)
        again = read_match(text)
        assert view(again) == view(m)
        assert write_match(again) == text


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: str(p.relative_to(MAT_CORPUS)))
def test_round_trip_corpus(path: Path) -> None:
    for m in read_matches(path):
        text = write_match(m)
        assert view(read_match(text)) == view(m)


def test_round_trip_gnubg_snowie(gnubg_corpus: Path) -> None:
    for path in sorted((gnubg_corpus / "snowie").glob("*.txt")):
        m = read_match(path)
        assert view(read_match(write_match(m))) == view(m), path.name


def _gnubg_games(gnubg: object, path: Path) -> list:
    with contextlib.redirect_stdout(io.StringIO()):
        gnubg.command(f'import mat "{path}"')  # type: ignore[attr-defined]
    gm = gnubg.match(analysis=False, boards=False, statistics=False)  # type: ignore[attr-defined]
    return [([{k: v for k, v in a.items() if k != "board"} for a in g["game"]],
             (g["info"].get("winner"), g["info"].get("points-won"))) for g in gm["games"]]


def test_gnubg_imports_what_we_write(tmp_path: Path) -> None:
    """gnubg reads our canonical version of each real file as it reads the original."""
    gnubg = pytest.importorskip("gnubg")
    if not CORPUS_FILES:
        pytest.skip("../shared/corpus/mat is not present")
    for path in CORPUS_FILES:
        m = read_match(path)
        ours = tmp_path / "ours.mat"
        ours.write_text(write_match(m), encoding="utf-8")
        theirs = _gnubg_games(gnubg, path)
        mine = _gnubg_games(gnubg, ours)
        if any(a.kind == "loss" for g in m.games for a in g.actions):
            # gnubg cannot read Galaxy's 'Losses' rows; from our version it gets every winner (the
            # points it recomputes from the board: Galaxy writes 'Wins 2 point' for a gammon that
            # ends a match)
            winners = [("X", "O")[g.result[0]] for g in m.games if g.result]
            assert [w for (_, (w, _)) in mine] == winners, path.name
        else:
            assert mine == theirs, path.name


# --------------------------------------------------------------------------- property

NAME = st.text(st.sampled_from("abcXYZ019 &'-_éÅ."), min_size=1, max_size=20).map(str.strip).filter(bool)
TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=30)
TAG_VALUE = st.one_of(TEXT, st.text(st.sampled_from('a "\\]['), max_size=8))
COMMENT = TEXT.map(str.rstrip).filter(lambda s: not s.lstrip().startswith("["))
KNOWN = {"variation", "crawford", "jacoby", "beaver", "beavers", "cubelimit"}
TAG_NAME = st.text(st.sampled_from("ABCdef 12"), min_size=1, max_size=12).map(str.strip).filter(
    lambda s: bool(s) and s.lower().replace(" ", "") not in KNOWN)
DIE = st.integers(1, 6)
POINT = st.integers(0, 25)


@st.composite
def plays(draw: st.DrawFn) -> str:
    legs = draw(st.lists(st.tuples(st.integers(1, 25), POINT, st.booleans()), max_size=4))
    return " ".join(f"{a}/{b}{'*' if h and b else ''}" for a, b, h in legs)


@st.composite
def games(draw: st.DrawFn, number: int) -> Game:
    g = Game(number=number, score=(draw(st.integers(0, 30)), draw(st.integers(0, 30))),
             names=(draw(NAME), draw(NAME)))
    if draw(st.booleans()):
        g.ratings = (draw(st.sampled_from([None, "1500", "1623.5"])), draw(st.sampled_from([None, "1810"])))
    player = draw(st.integers(0, 1))
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(["move"] * 6 + ["double", "take", "drop", "beaver", "resign"]))
        a = Action(kind=kind, player=player)  # type: ignore[arg-type]
        if kind == "move":
            a.dice, a.play = (draw(DIE), draw(DIE)), draw(plays())
        elif kind in ("double", "beaver"):
            a.value = 2 ** draw(st.integers(1, 6))
        g.actions.append(a)
        player = 1 - player
    if draw(st.booleans()):
        winner = draw(st.integers(0, 1))
        # an empty roll, the roller's "Concedes", then the other player's win: rolled, then resigned
        i = len(g.actions) - 1
        while i >= 0 and g.actions[i].kind == "resign" and g.actions[i].player != winner:
            i -= 1
        if i >= 0 and g.actions[i].kind == "move" and not g.actions[i].play and g.actions[i].player != winner:
            g.actions[i].kind, g.actions[i].play = "roll", None
        g.actions.append(Action(kind="win", player=winner, value=draw(st.integers(1, 64))))
    g.comments = draw(st.lists(COMMENT, max_size=2))
    return g


@st.composite
def matches(draw: st.DrawFn) -> Match:
    m = Match(length=draw(st.integers(0, 25)),
              tags=draw(st.lists(st.tuples(TAG_NAME, TAG_VALUE), max_size=3)),
              comments=draw(st.lists(COMMENT, max_size=2)))
    m.games = [draw(games(i + 1)) for i in range(draw(st.integers(0, 3)))]
    m.names = m.games[0].names if m.games else ("", "")  # type: ignore[assignment]
    if not m.games:
        m.names = ("", "")
    return m


@settings(max_examples=150, deadline=None)
@given(matches())
def test_random_matches_round_trip(m: Match) -> None:
    text = write_match(m)
    again = read_match(text)
    assert view(again) == view(m)
    assert write_match(again) == text
