"""The floor ``benchmarks/convert_profile.py`` times (``benchmarks/_floor.py``) does the work it claims:
its SGF move nodes are the real writer's, node for node, on gnubg-written matches."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from conftest import DATA

from notation.formats.mat import parse_matches
from notation.formats.sgf import write_sgf

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from _floor import convert_floor  # noqa: E402

MOVE_NODE = re.compile(r";[WB]\[\d\d[a-z]*\]")


def test_the_floor_writes_the_move_nodes_the_writer_writes() -> None:
    files = [DATA / "gnubg_7p_crawford.mat", DATA / "mat_gnubg_selfplay_3p.mat", DATA / "gnubg_larger_die.mat"]
    nodes = 0
    for path in files:
        text = path.read_text()
        ours = MOVE_NODE.findall(write_sgf(parse_matches(text)[0])[0])
        floor = MOVE_NODE.findall(convert_floor(text))
        assert floor == ours, path
        nodes += len(ours)
    assert nodes > 300
