"""The floor ``benchmarks/convert_profile.py`` times (``benchmarks/_floor.py``) does the work it claims:
its SGF move nodes are the real writer's, node for node, on gnubg-written matches."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from conftest import DATA

from notation.formats.mat import parse_matches
from notation.formats.sgf_write import write_sgf

# loaded from its file: benchmarks/ on sys.path would hide the render package behind benchmarks/render.py
FLOOR = Path(__file__).resolve().parents[1] / "benchmarks" / "_floor.py"
_spec = importlib.util.spec_from_file_location("_floor", FLOOR)
assert _spec is not None and _spec.loader is not None
_floor = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_floor)
convert_floor = _floor.convert_floor

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
