"""The decision dataset's per-decision error columns come from notation.decisions (the walk gammon stats
counts): the same errors, on the row of the action they judge; nothing where the record has no analysis."""

from __future__ import annotations

from pathlib import Path

import pytest

from notation.batch import DATASET_COLUMNS, decision_rows
from notation.decisions import decisions
from notation.matchio import read_match

DATA = Path(__file__).resolve().parent / "data"
GALAXY = DATA / "stats" / "galaxy_1093632.sgf"


def _rows(path: Path) -> list[dict[str, object]]:
    res = decision_rows(str(path))
    assert res["error"] is None
    cols = res["columns"]
    return [{name: cols[name][i] for name, _ in DATASET_COLUMNS} for i in range(res["rows"])]


def test_rows_carry_each_decision_error() -> None:
    rows = _rows(GALAXY)
    ds = list(decisions(read_match(GALAXY)))
    plays = [d for d in ds if d.kind == "checker"]
    moves = [r for r in rows if r["kind"] == "move"]
    assert [r["error_mwc"] for r in moves] == [d.error_mwc for d in plays]
    assert [r["mark"] for r in moves] == [d.mark for d in plays]
    assert [r["luck"] for r in moves] == [d.luck for d in plays]
    cube = [d for d in ds if d.kind == "cube"]
    carried = [r for r in rows if r["cube_decision"] is not None]
    assert [(r["cube_decision"], r["cube_error"], r["cube_error_kind"]) for r in carried] == [
        (d.action, d.error, d.cube_error) for d in cube]
    missed = [r for r in carried if r["cube_error_kind"] == "missed double above CP"]
    assert len(missed) == 1 and missed[0]["cube_error"] == pytest.approx(0.1266, abs=1e-4)


def test_no_analysis_no_error_columns() -> None:
    rows = _rows(DATA / "gnubg_7p_crawford.mat")
    for name in ("error_mwc", "mark", "luck", "cube_decision", "cube_error", "cube_error_mwc", "cube_error_kind",
                 "xg_error", "xg_cube_error"):
        assert all(r[name] is None for r in rows), name


def test_xg_rows_carry_xg_stored_errors() -> None:
    rows = _rows(DATA / "xg_ronde3.xg")
    assert sum(1 for r in rows if r["xg_error"] is not None) > 50
    assert any(r["xg_cube_error"] for r in rows)
