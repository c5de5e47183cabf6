"""Our reading of .xg files against two independent readers (test-only oracles, never used at run
time): ``gvformat`` from the PyPI package gammonview (standard library only) and Michael Petch's
xgdatatools as bundled in the PyPI package ankigammon (installed with ``--no-deps``: the package
itself pulls in Qt).  On every game of every file: the starting score, every roll (player and dice)
with the position before it, every play (xgdatatools: the from/to steps), every cube action
(double, take, drop, beaver) and every result (winner, points, resignation)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, DATA, xgdatatools_records

import notation
from notation.replay import replay_match

FILES = [DATA / "xg_ronde3.xg", *(sorted((CORPUS / "xg").glob("*.xg")) if (CORPUS / "xg").is_dir() else [])]

Event = tuple[Any, ...]


def _xg_array(boards: tuple[tuple[int, ...], tuple[int, ...]]) -> tuple[int, ...]:
    """This model's boards as the 26 signed counts an XG record stores (XG's player 1, player 0 here,
    positive; index n = point n of XG's player 1, 0 the other's bar, 25 XG's player 1's bar)."""
    p0, p1 = boards
    arr = [0] * 26
    for n in range(1, 25):
        arr[n] = p0[n] - p1[25 - n]
    arr[25], arr[0] = p0[25], -p1[25]
    return tuple(arr)


def _steps(play: str) -> tuple[tuple[int, int], ...]:
    """Our play text as XG's from/to pairs (0-based in the mover's numbering, 24 the bar, -1 off)."""
    out = []
    for part in play.split():
        a, b = part.replace("*", "").split("/")
        out.append((int(a) - 1, -1 if b == "0" else int(b) - 1))  # 25 the bar (24 for XG), 0 off
    return tuple(out)


def ours(path: Path, with_steps: bool) -> list[list[Event]]:
    m = notation.read_match(path)
    rep = replay_match(m)
    games = []
    for game, g in zip(m.games, rep.games, strict=True):
        assert game.score is not None
        events: list[Event] = [("score", game.score[0], game.score[1])]
        resigned = False
        for s in g.steps:
            a = s.action
            who = 1 if a.player == 0 else -1  # XG's player 1 is player 0 here
            if a.kind in ("move", "roll"):
                assert a.dice is not None
                ev: Event = ("roll", who, a.dice, _xg_array(s.before.boards))
                if with_steps:
                    ev += (_steps(a.play or ""),)
                events.append(ev)
            elif a.kind in ("double", "take", "drop", "beaver"):
                events.append((a.kind, who))
            elif a.kind == "resign":
                resigned = True
            elif a.kind == "win":
                events.append(("result", who, a.value, resigned))
            else:
                assert a.kind == "accept", a.kind
        games.append(events)
    return games


_ANSWERS = {0: "drop", 1: "take", 2: "beaver"}


def gvformat_view(path: Path) -> list[list[Event]]:
    xg = pytest.importorskip("gvformat.xg", reason="the oracle gvformat (pip install gammonview) is not installed")
    games: list[list[Event]] = []
    for kind, rec in xg.read_xg(path):
        if kind == "header_game":
            games.append([("score", rec["score1"], rec["score2"])])
        elif kind == "move":
            games[-1].append(("roll", rec["actifp"], tuple(rec["dice"]), tuple(rec["pos_before"])))
        elif kind == "cube" and rec["doubled"] == 1:
            games[-1] += [("double", rec["actif"]), (_ANSWERS[rec["take"]], -rec["actif"])]
        elif kind == "footer_game":
            games[-1].append(("result", rec["winner"], rec["points"], rec["termination"] >= 100))
    return games


def xgdatatools_view(path: Path) -> list[list[Event]]:
    xgstruct, records = xgdatatools_records(path)
    games: list[list[Event]] = []
    for r in records:
        if isinstance(r, xgstruct.HeaderGameEntry):
            games.append([("score", r.Score1, r.Score2)])
        elif isinstance(r, xgstruct.MoveEntry):
            steps = []
            for k in range(0, 8, 2):
                f, t = r.Moves[k], r.Moves[k + 1]
                if f == -1 or (f, t) == (0, 0):  # the end; 0/0 (1-point to 1-point) is XG's "no move"
                    break
                steps.append((f, -1 if t < 0 else t))
            games[-1].append(("roll", r.ActiveP, tuple(r.Dice), tuple(r.PositionI), tuple(steps)))
        elif isinstance(r, xgstruct.CubeEntry) and r.Double == 1:
            games[-1] += [("double", r.ActiveP), (_ANSWERS[r.Take], -r.ActiveP)]
        elif isinstance(r, xgstruct.FooterGameEntry):
            games[-1].append(("result", r.Winner, r.PointsWon, r.Termination >= 100))
    return games


def _compare(mine: list[list[Event]], theirs: list[list[Event]], path: Path) -> None:
    assert len(mine) == len(theirs), path.name
    for n, (a, b) in enumerate(zip(mine, theirs, strict=True), 1):
        for k, (x, y) in enumerate(zip(a, b, strict=False)):
            assert x == y, f"{path.name} game {n} event {k}: ours {x} oracle {y}"
        assert len(a) == len(b), f"{path.name} game {n}: {len(a)} events, the oracle {len(b)}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_equal_to_gvformat(path: Path) -> None:
    theirs = gvformat_view(path)
    _compare(ours(path, with_steps=False), theirs, path)
    assert sum(1 for g in theirs for e in g if e[0] == "roll") > 100


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_equal_to_xgdatatools(path: Path) -> None:
    theirs = xgdatatools_view(path)
    _compare(ours(path, with_steps=True), theirs, path)


def test_the_corpus_is_compared() -> None:
    """The whole corpus is in the comparison when ../shared is present (7 files)."""
    if not (CORPUS / "xg").is_dir():
        pytest.skip("../shared/corpus/xg is not available (a fresh clone has only tests/data)")
    assert len(FILES) == 8


def _cube_figures_xgdatatools(path: Path) -> list[tuple[float, ...]]:
    """Every analysed cube record's figures as xgdatatools reads them (``Doubled``: ``equB``, ``equDouble``,
    ``equDrop``, ``Eval`` and ``EvalDouble``, each 7 figures, the last the cubeless equity), in file order."""
    xgstruct, records = xgdatatools_records(path)
    out: list[tuple[float, ...]] = []
    for r in records:
        if isinstance(r, xgstruct.CubeEntry) and r.AnalyzeC >= 0:
            d = r.Doubled
            out.append((d.equB, d.equDouble, d.equDrop, *d.Eval, *d.EvalDouble))
    return out


def _figures(p: Any) -> tuple[float, ...]:
    """Probabilities as XG's seven figures' first six (lose backgammon, lose gammon, lose, win, win gammon,
    win backgammon)."""
    return (p.lose_backgammon, p.lose_gammon, 1 - p.win, p.win, p.win_gammon, p.win_backgammon)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_cube_analysis_equal_to_xgdatatools(path: Path) -> None:
    """Issue 35 item 2: every analysed cube decision keeps XG's three equities, the no-double line's chances
    and cubeless equity (``Eval``) and the double/take line's (``EvalDouble``), as xgdatatools reads them."""
    ours_: list[tuple[float, ...]] = []
    for g in notation.read_match(path).games:
        for a in g.actions:
            c = a.analysis.cube if a.analysis is not None else None
            if c is None:
                continue
            assert c.probabilities is not None and c.double_probabilities is not None
            assert c.cubeless_equity is not None and c.double_cubeless_equity is not None
            ours_.append((c.no_double, c.double_take, c.double_pass, *_figures(c.probabilities), c.cubeless_equity,
                          *_figures(c.double_probabilities), c.double_cubeless_equity))
    theirs = _cube_figures_xgdatatools(path)
    assert len(ours_) == len(theirs) > 0, path.name
    for k, (x, y) in enumerate(zip(ours_, theirs, strict=True)):
        assert x == pytest.approx(y, abs=2e-6), f"{path.name}: cube decision {k + 1}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_header_fields_equal_to_xgdatatools(path: Path) -> None:
    """Issue 35 item 10: the match header's fields XG's export has no tag for are kept as match properties
    (``Imported``, ``SiteId``, ``GameMode``, ``Entered``, ``Currency``) as xgdatatools reads them, and the date
    to the second (xgdatatools cuts the fraction of a second off; Delphi, and we, round it: a stored
    ``00:40:53.9999995`` is 00:40:54)."""
    from datetime import datetime, timedelta

    try:
        from ankigammon.thirdparty.xgdatatools import xgimport, xgstruct
    except ImportError:
        pytest.skip("the oracle xgdatatools (pip install --no-deps ankigammon) is not installed")
    header = None
    for seg in xgimport.Import(str(path)).getfilesegment():
        if seg.type == xgimport.Import.Segment.XG_GAMEFILE:
            seg.fd.seek(0)
            header = xgstruct.GameFileRecord(version=-1).fromstream(seg.fd)
    assert isinstance(header, xgstruct.HeaderMatchEntry)
    props = notation.read_match(path).properties
    assert {k: v for k, v in props.items() if k not in ("xg:thumbnail", "xg:date")} == {
        "xg:imported": [str(int(header.Imported))], "xg:site_id": [str(header.SiteId)],
        "xg:game_mode": [str(header.GameMode)], "xg:entered": [str(int(header.Entered))],
        "xg:currency": [str(header.Currency)]}
    cut = datetime.fromisoformat(header.Date)
    ours_date = datetime.fromisoformat(props["xg:date"][0])
    assert timedelta(0) <= ours_date - cut <= timedelta(seconds=1)
    assert ours_date.strftime("%Y.%m.%d %H.%M") == " ".join(
        dict(notation.read_match(path).tags)[k] for k in ("EventDate", "EventTime"))
