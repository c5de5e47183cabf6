"""XG's rollouts (``temp.xgr``) and evaluation levels, read into the analysis model, kept by JSON and
shown on the page; held to two independent readers where they are installed: xgdatatools (in PyPI
ankigammon) reads the rollout records and the records' rollout indexes, gvformat (PyPI gammonview)
reads the level codes.

The corpus has no rolled-out decision: the file with rollouts is a real match whose records are made
to name rollout records (tests/xg_container.py), which xgdatatools opens, CRCs and all."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from conftest import CORPUS, DATA
from xg_container import container, records, rollout

import notation
from notation.analysis import Rollout, analysis_from_dict, analysis_to_dict
from notation.formats.json_format import from_json, to_json
from notation.formats.xg import CUBE, MOVE, read_xg

XG_FILES = [*sorted(DATA.glob("*.xg")), *(sorted((CORPUS / "xg").glob("*.xg")) if (CORPUS / "xg").is_dir() else [])]

ROLLED_MOVE = dict(rolled=1296, error1=0.0123, truncate=7, level1=1001, level1c=1001, seed=4242, duration=95,
                   result1=(0.001, 0.02, 0.45, 0.55, 0.14, 0.006, 0.104))
ROLLED_CUBE = dict(rolled=2592, error1=0.0081, rolled2=2592, error2=0.0097, level1=1000, level1c=1002, seed=7)


def rolled_out_file() -> tuple[bytes, int, int]:
    """tests/data/xg_ronde3.xg with its first analysed move's best candidate and its first analysed
    cube decision rolled out; and the two records' indexes."""
    recs = [bytearray(r) for r in records((DATA / "xg_ronde3.xg").read_bytes())]
    move = next(i for i, r in enumerate(recs) if r[8] == MOVE and struct.unpack_from("<i", r, 120)[0] >= 3)
    cube = next(i for i, r in enumerate(recs) if r[8] == CUBE and struct.unpack_from("<i", r, 232)[0] >= 0)
    struct.pack_into("<i", recs[move], 2344, 0)  # RolloutIndexM[0]: rollout record 0
    struct.pack_into("<h", recs[move], 1280, 100)  # its level: Rollout
    struct.pack_into("<i", recs[cube], 224, 1)  # RolloutIndexD: rollout record 1
    xgr = rollout(**ROLLED_MOVE) + rollout(**ROLLED_CUBE)  # type: ignore[arg-type]
    return container(b"".join(recs), thumbnail=b"\xff\xd8\xff\xd9", rollouts=xgr), move, cube


def _analysis_at(m: notation.Match, record: int) -> object:
    for g in m.games:
        for a in g.actions:
            if a.span is not None and a.span.line == record + 1 and a.analysis is not None:
                return a
    raise AssertionError(f"no analysed action at record {record + 1}")


def test_rollouts_are_read_onto_the_candidate_and_the_cube_decision() -> None:
    data, move, cube = rolled_out_file()
    (m,) = read_xg(data, name="rolled.xg")
    a = _analysis_at(m, move)
    best = a.analysis.checker.candidates[0]  # type: ignore[attr-defined]
    assert best.level == "Rollout"
    r = best.rollout
    assert isinstance(r, Rollout)
    assert (r.trials, r.truncation, r.error, r.checker_level, r.cube_level) == (1296, 7, 0.0123, "XG Roller+",
                                                                                 "XG Roller+")
    assert r.double_trials is None and r.double_error is None  # a checker play has one line
    settings = dict(r.settings)
    assert settings["seed"] == "4242" and settings["duration"] == "95 s" and settings["engine"] == "2.10"
    assert all(c.rollout is None for c in a.analysis.checker.candidates[1:])  # type: ignore[attr-defined]
    # the cube decision's rollout: both lines
    c = next(x.analysis.cube for g in m.games for x in g.actions if x.analysis is not None and x.analysis.cube
             is not None and x.span is not None and x.span.line in (cube + 1, cube + 2) and x.analysis.cube.rollout)
    assert (c.rollout.trials, c.rollout.error, c.rollout.double_trials, c.rollout.double_error) == (2592, 0.0081,
                                                                                                    2592, 0.0097)
    assert (c.rollout.checker_level, c.rollout.cube_level, c.rollout.truncation) == ("XG Roller", "XG Roller++", None)


def test_rollouts_survive_json_and_show_on_the_page() -> None:
    from render.html import match_page

    data, move, _ = rolled_out_file()
    (m,) = read_xg(data, name="rolled.xg")
    text = to_json(m)
    assert '"rollout": {' in text and '"trials": 1296' in text and '"truncation": 7' in text
    assert from_json(text) == m
    a = _analysis_at(m, move).analysis  # type: ignore[attr-defined]
    assert analysis_from_dict(analysis_to_dict(a)) == a
    page = match_page(m)
    assert "rollout: 1296 games ±0.012, truncated at 7 plies, checker play XG Roller+" in page
    assert "double/take line 2592 games ±0.010" in page


def test_rollouts_as_xgdatatools_reads_them(tmp_path: Path) -> None:
    try:
        from ankigammon.thirdparty.xgdatatools import xgimport, xgstruct  # type: ignore[import-not-found]
    except ImportError:
        pytest.skip("the oracle xgdatatools (pip install --no-deps ankigammon) is not installed")
    data, move, cube = rolled_out_file()
    path = tmp_path / "rolled.xg"
    path.write_bytes(data)
    theirs: list[object] = []
    indexes: dict[int, object] = {}
    for seg in xgimport.Import(str(path)).getfilesegment():
        if seg.type == xgimport.Import.Segment.XG_ROLLOUTS:
            seg.fd.seek(0)
            while (r := xgstruct.RolloutFileRecord().fromstream(seg.fd)) is not None:
                theirs.append(r)
        elif seg.type == xgimport.Import.Segment.XG_GAMEFILE:
            seg.fd.seek(0)
            version, k = -1, 0
            while (r := xgstruct.GameFileRecord(version=version).fromstream(seg.fd)) is not None:
                if isinstance(r, xgstruct.HeaderMatchEntry):
                    version = r.Version
                if k == move:
                    indexes[k] = r.RolloutIndexM
                elif k == cube:
                    indexes[k] = r.RolloutIndexD
                k += 1
    assert len(theirs) == 2 and indexes[move][0] == 0 and indexes[cube] == 1  # type: ignore[index]
    (m,) = read_xg(data, name="rolled.xg")
    ours = _analysis_at(m, move).analysis.checker.candidates[0].rollout  # type: ignore[attr-defined]
    ro = theirs[0]
    assert (ours.trials, ours.truncation, ours.error) == (ro.Rolled, ro.Truncate if ro.Truncated else None,  # type: ignore[attr-defined]
                                                          round(ro.Error1, 6))  # type: ignore[attr-defined]
    assert dict(ours.settings)["seed"] == str(ro.RandomSeedI)  # type: ignore[attr-defined]
    ro = theirs[1]
    c = next(x.analysis.cube.rollout for g in m.games for x in g.actions if x.analysis is not None
             and x.analysis.cube is not None and x.analysis.cube.rollout is not None)
    assert (c.trials, c.double_trials, c.error, c.double_error) == (ro.Rolled, ro.Rolled2, round(ro.Error1, 6),  # type: ignore[attr-defined]
                                                                    round(ro.Error2, 6))  # type: ignore[attr-defined]


_GVFORMAT_LEVELS = {"1-ply": "1ply", "2-ply": "2ply", "3-ply": "3ply", "4-ply": "4ply", "5-ply": "5ply",
                    "6-ply": "6ply", "7-ply": "7ply", "Rollout": "rollout", "Book": "database",
                    "XG Roller": "truncated1", "XG Roller+": "truncated2", "XG Roller++": "truncated3"}
"""Our level names (XG's own words) and gvformat's canonical ones for the same codes."""


@pytest.mark.parametrize("path", XG_FILES, ids=lambda p: p.name)
def test_levels_are_named_as_xg_names_them(path: Path) -> None:
    """Every candidate's and cube decision's level, in XG's words, is the level gvformat reads from the
    same record (in its own vocabulary), and XG Roller, Roller+, Roller++ and the book occur."""
    xg = pytest.importorskip("gvformat.xg", reason="the oracle gvformat (pip install gammonview) is not installed")
    theirs_moves: list[list[str | None]] = []
    for kind, rec in xg.read_xg(path):
        if kind == "move":
            theirs_moves.append([xg._eval_level_name(c["level"]) for c in rec["candidates"]
                                 if c["equity"] > -999])
    m = notation.read_match(path)
    ours_moves = []
    for g in m.games:
        for a in g.actions:
            if a.kind in ("move", "roll"):
                ch = a.analysis.checker if a.analysis is not None else None
                ours_moves.append([_GVFORMAT_LEVELS.get(c.level or "") for c in ch.candidates] if ch else [])
    assert ours_moves == theirs_moves
    levels = {c.level for g in m.games for a in g.actions if a.analysis and a.analysis.checker
              for c in a.analysis.checker.candidates}
    assert levels <= set(_GVFORMAT_LEVELS), levels


def test_the_corpus_has_every_xg_level_name() -> None:
    seen: set[str] = set()
    for path in XG_FILES:
        m = notation.read_match(path)
        for g in m.games:
            for a in g.actions:
                if a.analysis is not None:
                    if a.analysis.checker:
                        seen.update(c.level or "" for c in a.analysis.checker.candidates)
                    if a.analysis.cube:
                        seen.add(a.analysis.cube.level or "")
    assert {"1-ply", "2-ply", "3-ply", "4-ply", "XG Roller+", "XG Roller++", "Book"} <= seen, seen


def test_the_rollouts_drop_line_is_printed_whole(tmp_path: Path) -> None:
    """The drop line of rolled-out figures written to OGXM quotes nothing: its apostrophes ('rollouts'',
    'OGXM's') are no quotation marks, and the message is not cut between them (it was printed as "their
    f...led out is not (OGXM' (117 characters)s rollout level")."""
    from conftest import gammon_in_process

    data, _, _ = rolled_out_file()
    src = tmp_path / "rolled.xg"
    src.write_bytes(data)
    r = gammon_in_process("convert", src, tmp_path / "rolled.ogxm", text=True)
    assert r.returncode == 0, r.stderr
    line = next(x for x in r.stderr.splitlines() if "dropped: 2 rollouts" in x)
    assert "characters)" not in line and "..." not in line, line
    assert "rollouts' settings (trials, truncation, error bound, levels): their figures are written, how they " \
           "were rolled out is not (OGXM's rollout level and standard error are not what the producer stored)" in line
