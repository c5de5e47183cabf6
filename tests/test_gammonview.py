"""GammonView's ``.mat`` dialect (PyPI ``gammonview``: ``reconstruct-mat``, from any ``.xg`` or ``.mat``):
its ``Resigns`` cells (the resignation's value from the other player's ``Wins`` line), ``Forfeits``,
``Wins N points with gammon``, a bare ``Wins``, ``money game``; and resignations checked under the rules.

gvformat is a producer here: the tests that run it skip where it is absent; GNU Backgammon's reading of
the same file is the oracle where gnubg's Python module is installed."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from conftest import CORPUS, DATA

from notation import read_any, replay_match
from notation.formats.mat import parse_matches, read_match
from notation.record import Action, Game, Match

ROOT = Path(__file__).resolve().parents[1]
FILE = DATA / "gammonview_reconstructed.mat"
"""``reconstruct-mat`` of gvformat's reading of ../shared/corpus/xg/match_with_comment.xg (gammonview 3.1)."""


def _results(m: Match) -> list[tuple[int | None, int | None]]:
    return [(g.winner, g.points) for g in replay_match(m).games]


def _resignations(m: Match) -> list[list[tuple[str, int, int | None]]]:
    return [[(a.kind, a.player, a.value) for a in g.actions if a.kind in ("resign", "win")] for g in m.games]


def test_the_file_reads_and_validates() -> None:
    m = read_match(FILE)
    assert m.length == 9 and m.names == ("Kévin UNGER", "Nicolas HARMAND") and len(m.games) == 8
    assert ("Player 1", "Kévin UNGER") in m.tags and ("Site", "Café Jussieu, Paris") in m.tags
    # a resignation in either column; its value the points over the cube (cube 2: a single game for
    # 2 points, a gammon for 4)
    assert _resignations(m) == [
        [("resign", 0, 1), ("win", 1, 2)], [("win", 1, 1)], [("win", 0, 1)], [("resign", 1, 1), ("win", 0, 2)],
        [("win", 1, 1)], [("win", 0, 1)], [("win", 0, 2)], [("resign", 1, 2), ("win", 0, 4)]]
    findings = replay_match(m).findings
    assert not [f for f in findings if f.severity != "note"], [f.message for f in findings]
    assert _results(m) == [(1, 2), (1, 1), (0, 1), (0, 2), (1, 1), (0, 1), (0, 2), (0, 4)]


def test_the_resignations_are_the_xg_files() -> None:
    """The .xg file GammonView's file was made from says the same resignations, values and results."""
    source = CORPUS / "xg" / "match_with_comment.xg"
    if not source.exists():
        pytest.skip("../shared/corpus is not present")
    xg = read_any(str(source))[0]
    ours = read_match(FILE)
    # by name: GammonView writes XG's player 2 in the left column, XG's own .mat export its player 1
    assert set(ours.names) == set(xg.names)

    def named(m: Match, player: int | None) -> str | None:
        return None if player is None else m.names[player]

    assert [[(k, named(ours, p), v) for k, p, v in g] for g in _resignations(ours)] == [
        [(k, named(xg, p), v) for k, p, v in g] for g in _resignations(xg)]
    assert [(named(ours, w), n) for w, n in _results(ours)] == [(named(xg, w), n) for w, n in _results(xg)]


def test_gnubg_reads_the_same_results() -> None:
    gnubg = pytest.importorskip("gnubg")
    with contextlib.redirect_stdout(io.StringIO()):
        gnubg.command(f'import mat "{FILE}"')
    gm = gnubg.match(analysis=False, boards=False, statistics=False)
    theirs = [("XO".index(g["info"]["winner"]), g["info"]["points-won"]) for g in gm["games"]]
    assert _results(read_match(FILE)) == theirs
    levels = [[a["points"] for a in g["game"] if a["action"] == "resign"] for g in gm["games"]]
    ours = [[a.value for a in g.actions if a.kind == "resign"] for g in read_match(FILE).games]
    # (gnubg also records a dropped double's result as a resignation: only our resignations are compared)
    assert [lv for lv, o in zip(levels, ours, strict=True) if o] == [o for o in ours if o]


def _sources() -> list[Path]:
    files = sorted((ROOT / "samples").glob("*.mat"))
    if (CORPUS / "xg").is_dir():
        files += sorted((CORPUS / "xg").glob("*.xg"))
    return files


def test_gvformat_as_producer(tmp_path: Path) -> None:
    """Every record GammonView rewrites (the samples, the corpus's .xg files; those our replay finds
    no error in) reads: the same games, winners and points as the record itself, every resignation the
    loser's."""
    gvformat = pytest.importorskip("gvformat")
    reconstruct = pytest.importorskip("gvanalysis.reconstruct_mat")
    checked = 0
    for source in _sources():
        try:
            doc = gvformat.convert_xg(source) if source.suffix == ".xg" else gvformat.convert_mat(source)
            text = reconstruct.reconstruct_mat(doc)
        except Exception:  # noqa: BLE001 - a record gvformat itself cannot take is not this test's business
            continue
        (theirs,) = parse_matches(text, name=source.name)
        ours = read_any(str(source))[0]
        if _errors(ours):
            continue  # a record with planted mistakes (samples/illegal_plays.mat): GammonView rewrites them
        swap = theirs.names == (ours.names[1], ours.names[0]) and ours.names[0] != ours.names[1]

        def side(p: int | None, swap: bool = swap) -> int | None:
            return None if p is None else 1 - p if swap else p

        assert [(side(w), n) for w, n in _results(theirs)] == _results(ours), source.name
        for g in theirs.games:
            for i, a in enumerate(g.actions):
                if a.kind == "resign":
                    win = next(b for b in g.actions[i + 1:] if b.kind == "win")
                    assert win.player != a.player, source.name
        bad = [f.message for f in replay_match(theirs).findings
               if f.severity == "error" and ("resign" in f.message or "winner" in f.message or "points" in f.message)]
        assert not bad, (source.name, bad)
        checked += 1
    assert checked >= 3


def test_the_other_cells_of_its_writer() -> None:
    """``money game`` (a money session), ``Forfeits`` (read as a resignation), ``Wins N points with gammon``
    and a bare ``Wins`` (a game won for no points), in GammonView's columns."""
    text = ('; [Player 1 "a"]\n; [Player 2 "b"]\nmoney game\n\n Game 1\n a: 0' + " " * 34 + "b: 0\n"
            "  1)" + " " * 42 + "31: 8/5 6/5\n"
            "  2) Forfeits\n" + " " * 46 + "Wins 1 points\n\n"
            " Game 2\n a: 0" + " " * 34 + "b: 1\n"
            "  1) 31: 8/5 6/5" + " " * 30 + "Resigns\n"
            "   Wins 2 points with gammon\n\n"
            " Game 3\n a: 2" + " " * 34 + "b: 1\n"
            "  1) 31: 8/5 6/5\n   Wins\n")
    (m,) = parse_matches(text)
    assert m.length == 0 and m.names == ("a", "b")
    assert _resignations(m) == [[("resign", 0, None), ("win", 1, 1)], [("resign", 1, 2), ("win", 0, 2)],
                                [("win", 0, None)]]
    notes = [n.message for n in m.normalisations]
    assert "'money game' read as a money session (a match of length 0)" in notes
    assert "'Forfeits' (GammonView) read as a resignation" in notes
    assert not [f for f in replay_match(m).findings if f.severity == "error"]


# --------------------------------------------------------------------------- resignations under the rules


def _game(*actions: Action) -> Match:
    opening = [Action("move", 0, dice=(3, 1), play="8/5 6/5"), Action("move", 1, dice=(4, 2), play="8/4 6/4")]
    return Match(length=0, games=[Game(1, actions=[*opening, *actions])])


def _errors(m: Match) -> list[str]:
    return [f.message for f in replay_match(m).findings if f.severity == "error"]


def test_a_resignation_is_checked_against_the_result() -> None:
    assert not _errors(_game(Action("resign", 0, value=2), Action("win", 1, value=2)))
    assert _errors(_game(Action("resign", 0, value=2), Action("win", 1, value=1))) == [
        "the resignation of a gammon with the cube at 1 is worth 2 points, not 1"]
    assert _errors(_game(Action("resign", 0, value=1), Action("win", 0, value=1))) == [
        "O resigned, but is recorded as the winner"]
    assert _errors(_game(Action("resign", 0, value=5), Action("win", 1, value=1))) == [
        "a resignation of 5 times the cube: it can be 1 to 3"]
    # rejected: play goes on, and a later result is not held to it
    assert not _errors(_game(Action("resign", 0, value=3), Action("reject", 1),
                             Action("resign", 0, value=1), Action("win", 1, value=1)))
    # a value not recorded: the points are checked against the cube as for any resignation
    assert _errors(_game(Action("resign", 0), Action("win", 1, value=4))) == [
        "a resignation is worth 1, 2, 3 points with the cube at 1, not 4"]
