"""eXtreme Gammon's own per-decision figures, read from ``.xg`` files for its PR (notation.statistics):
each equals the field xgdatatools (Michael Petch's reader, in the PyPI package ankigammon, installed with
``--no-deps``; a test-only oracle) reads from the same record: ``ErrMove`` and ``Unused`` of every move,
``ErrCube`` of every analysed cube decision and ``ErrTake`` of every answered double."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, DATA, xgdatatools_records

from notation.decisions import decisions
from notation.matchio import read_match
from notation.statistics import statistics

FILES = [DATA / "xg_ronde3.xg", *(sorted((CORPUS / "xg").glob("*.xg")) if (CORPUS / "xg").is_dir() else [])]
NOT_ANALYSED = -1000.0

Figure = tuple[Any, ...]


def ours(path: Path) -> list[Figure]:
    out: list[Figure] = []
    for d in decisions(read_match(path)):
        who = 1 if d.player == 0 else -1  # XG's player 1 is player 0 here
        if d.kind == "checker" and d.xg_error is not None:
            out.append(("move", who, d.xg_error, d.xg_counted))
        elif d.kind == "cube" and d.xg_error is not None:
            out.append(("take" if d.action in ("take", "pass") else "cube", who, d.xg_error))
    return out


def xgdatatools(path: Path) -> list[Figure]:
    xgstruct, records = xgdatatools_records(path)
    out: list[Figure] = []
    for r in records:
        if isinstance(r, xgstruct.MoveEntry) and r.ErrMove != NOT_ANALYSED and r.NMoveEval > 0:
            out.append(("move", r.ActiveP, abs(r.ErrMove), r.DataMoves.Unused == 0))
        elif isinstance(r, xgstruct.CubeEntry) and r.AnalyzeC >= 0:
            if r.ErrCube != NOT_ANALYSED:
                out.append(("cube", r.ActiveP, abs(r.ErrCube)))
            if r.Double == 1 and r.ErrTake != NOT_ANALYSED:
                out.append(("take", -r.ActiveP, abs(r.ErrTake)))
    return out


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_stored_errors_equal_xgdatatools(path: Path) -> None:
    mine, theirs = ours(path), xgdatatools(path)
    for k, (a, b) in enumerate(zip(mine, theirs, strict=False)):
        assert a == b, f"{path.name} figure {k}: ours {a}, xgdatatools {b}"
    assert len(mine) == len(theirs)
    assert sum(1 for f in theirs if f[0] == "move") > 50


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_pr_comes_from_stored_errors(path: Path) -> None:
    st = statistics(read_match(path))
    figures = ours(path)
    for p, who in ((0, 1), (1, -1)):
        x = st.match.xg[p]
        assert x.source == "stored" and x.uncounted == 0
        moves = [f[2] for f in figures if f[0] == "move" and f[1] == who and f[3]]
        assert x.checker_decisions == len(moves)
        assert x.checker_pr == pytest.approx(500 * sum(moves) / len(moves))
        assert x.pr is not None and x.pr_low is not None and x.pr_high is not None
        assert x.pr_low <= x.pr <= x.pr_high
        assert x.decisions == x.checker_decisions + x.cube_decisions
    # XG's luck is zero-sum
    a, b = st.match.xg
    assert a.luck is not None and b.luck is not None and a.luck == pytest.approx(-b.luck)


def test_the_corpus_is_compared() -> None:
    if not (CORPUS / "xg").is_dir():
        pytest.skip("../shared/corpus/xg is not available (a fresh clone has only tests/data)")
    assert len(FILES) == 8
