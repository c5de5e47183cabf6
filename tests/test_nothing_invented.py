"""Nothing invented: every figure of an analysis we emit is found in the source record, and a decision
the producer did not analyse has no analysis (not zeros), in the model, the JSON, the page and the
Parquet dataset.  Over every analysed file we have: the XG matches (each figure is a number stored in
the decision's own record, or the record of the turn's cube decision) and gnubg's analysed SGF (each
figure is written in the node's analysis properties)."""

from __future__ import annotations

import functools
import re
import struct
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, DATA, distinct

import notation
from notation.analysis import analysis_to_dict
from notation.formats.xg import RECORD_SIZE, unpack

XG_FILES = distinct([*sorted(DATA.glob("*.xg")),
                     *(sorted((CORPUS / "xg").glob("*.xg")) if (CORPUS / "xg").is_dir() else [])])
SGF_FILES = [DATA / "sgf_gnubg_analysed.sgf",
             *(sorted((CORPUS / "sgf").glob("gnubg_*.sgf")) if (CORPUS / "sgf").is_dir() else [])]


def _figures(d: Any) -> list[float]:
    """Every number of an analysis as the JSON writes it (its plain data), levels and words left out."""
    if isinstance(d, dict):
        return [x for k, v in d.items() if k not in ("played", "trials", "truncation", "double_trials")
                for x in _figures(v)]
    if isinstance(d, list):
        return [x for v in d for x in _figures(v)]
    if isinstance(d, float):
        return [d]
    return []


@functools.lru_cache(maxsize=1024)  # (a roll's record is the next play's cube record)
def _stored(rec: bytes) -> frozenset[float]:
    """Every 4- and 8-byte float a record holds, at every offset, rounded as the reader rounds them."""
    out: set[float] = set()
    for size, kind in ((4, "f"), (8, "d")):
        for start in range(size):  # the offsets start, start + size, ...: every offset once
            n = max(0, len(rec) - start) // size
            if n:
                out.update(round(x, 6) for x in struct.unpack_from(f"<{n}{kind}", rec, start)
                           if abs(x) < 1e6)  # (not a NaN nor an infinity)
    return frozenset(out)


@pytest.mark.parametrize("path", XG_FILES, ids=lambda p: p.name)
def test_xg_figures_are_in_the_records(path: Path) -> None:
    blob = unpack(path.read_bytes())
    m = notation.read_match(path)
    analysed = 0
    for g in m.games:
        for a in g.actions:
            if a.analysis is None:
                continue
            analysed += 1
            r = a.span.line - 1  # the record number
            here = blob[r * RECORD_SIZE:(r + 1) * RECORD_SIZE]
            # a roll's (or, where no roll followed, the game end's) cube decision is the record before it
            before = blob[(r - 1) * RECORD_SIZE:r * RECORD_SIZE]
            stored = _stored(here) | (_stored(before) if a.kind != "double" and before[8] == 2 else set())
            missing = [x for x in _figures(analysis_to_dict(a.analysis)) if round(x, 6) not in stored]
            assert not missing, (path.name, r + 1, a.text, missing)
            cube = a.analysis.cube
            if cube is not None:  # only where XG analysed that cube decision (its level of analysis >= 0)
                crec = here if a.kind == "double" else before
                assert crec[8] == 2 and struct.unpack_from("<i", crec, 232)[0] >= 0, (path.name, r + 1)
    assert analysed > 100


def test_unanalysed_xg_cube_decisions_have_no_analysis() -> None:
    """The opening roll's cube decision is not analysed by XG (its level -1, its figures zeros): no
    cube analysis, in the model, the JSON, the page and the dataset."""
    path = DATA / "xg_charlot1-charlot2_7p_2305.xg"
    m = notation.read_match(path)
    first = m.games[0].actions[0]
    assert first.kind == "move" and first.analysis is not None and first.analysis.cube is None
    assert "cube" not in analysis_to_dict(first.analysis)
    blob = unpack(path.read_bytes())
    unanalysed = sum(1 for i in range(0, len(blob), RECORD_SIZE) if blob[i + 8] == 2
                     and struct.unpack_from("<i", blob, i + 232)[0] < 0)
    with_cube = sum(1 for g in m.games for a in g.actions if a.analysis and a.analysis.cube)
    cubes = sum(1 for i in range(0, len(blob), RECORD_SIZE) if blob[i + 8] == 2)
    assert unanalysed and with_cube == cubes - unanalysed


def test_the_page_shows_no_cube_analysis_where_there_is_none() -> None:
    from render.html import match_page

    m = notation.read_match(DATA / "xg_charlot1-charlot2_7p_2305.xg")
    page = match_page(m)
    steps = [a for g in m.games for a in g.actions]
    analyses = page.split("<div id=analysis>", 1)[1]  # each block up to the next (blocks hold <div>s)
    blocks = dict(re.findall(r'<div class=an data-i="(\d+)" hidden>(.*?)</div>(?=<div class=an |</div>)', analyses))
    # the page's steps are the actions of each game and then its final position
    index = 0
    seen = 0
    for g in m.games:
        for a in g.actions:
            block = blocks.get(str(index), "")
            if a.analysis is None or a.analysis.cube is None:
                assert "Cube (" not in block and "No double" not in block, (g.number, a.text)
            else:
                assert "No double" in block
                seen += 1
            index += 1
        index += 1  # the game's final position
    assert seen and len(steps) == index - len(m.games)
    assert "No double</td><td>+0.000" not in page.split('data-i="0"', 2)[1][:2000]


def test_the_dataset_leaves_missing_figures_null() -> None:
    from notation.batch import decision_rows

    res = decision_rows(str(DATA / "xg_charlot1-charlot2_7p_2305.xg"))
    cols = res["columns"]
    m = notation.read_match(DATA / "xg_charlot1-charlot2_7p_2305.xg")
    actions = [a for g in m.games for a in g.actions]
    best = cols["equity_best"]
    assert len(best) == len(actions)
    for a, eq in zip(actions, best, strict=True):
        ch = a.analysis.checker if a.analysis is not None else None
        assert (eq is None) == (ch is None or not ch.candidates), a.text
        if ch is not None and ch.candidates:
            assert eq == ch.candidates[0].equity


def _numbers(text: str) -> set[float]:
    return {round(float(x), 6) for x in re.findall(r"-?\d+\.\d+|-?\d+", text)}


@pytest.mark.parametrize("path", SGF_FILES, ids=lambda p: p.name)
def test_gnubg_figures_are_in_the_nodes_properties(path: Path) -> None:
    from notation.formats.sgf import read_sgf

    m = read_sgf(path)
    analysed = 0
    for g in m.games:
        for a in g.actions:
            if a.analysis is None:
                continue
            analysed += 1
            written = _numbers(" ".join(v for vals in a.properties.values() for v in vals))
            missing = [x for x in _figures(analysis_to_dict(a.analysis)) if round(x, 6) not in written]
            assert not missing, (path.name, g.number, a.text, missing)
            if a.analysis.cube is not None:
                assert "DA" in a.properties
    if path.name != "gnubg_charlot1-charlot2_7p_2305.sgf" or analysed:
        assert analysed > 0
