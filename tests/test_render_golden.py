"""Golden images: diagrams in the default print theme compared pixel for pixel with
``tests/data/render_*.png``.

The decoded pixels are compared, not the PNG bytes (a Pillow built against another zlib writes other
bytes for the same pixels).  On a mismatch the actual image, the expected one and an amplified
difference are written to ``tests/_artifacts/render/``.  After an intended change of the drawing,
regenerate the goldens with ``GAMMON_UPDATE_GOLDEN=1 pytest tests/test_render_golden.py`` and look
at every one of them before committing.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

import render
from notation.ids import parse_position
from notation.position import STANDARD_START, Position, board_from_points

DATA = Path(__file__).resolve().parent / "data"
ARTIFACTS = Path(__file__).resolve().parent / "_artifacts" / "render"
UPDATE = os.environ.get("GAMMON_UPDATE_GOLDEN") == "1"
B = board_from_points
START = Position()
BEAROFF = Position(boards=(B({6: 2, 5: 3, 4: 3, 3: 3, 2: 2}), B({1: 3, 2: 3, 3: 2, 4: 3, 6: 2, 7: 2})),
                   dice=(6, 4))
HITS = Position(boards=(B({24: 2, 13: 5, 8: 3, 6: 4, 5: 1}), B({24: 2, 13: 4, 8: 3, 6: 4, 5: 1, 21: 1})),
                dice=(4, 2))
SMALL = {"size": "small"}

CASES: dict[str, tuple[Position, dict[str, Any]]] = {
    "start": (START.replace(dice=(3, 1)), {}),
    "two_ways_53": (START.replace(dice=(5, 3)), {"play": ["13/8 13/10", "8/3 6/3"], "size": "small",
                                                  "caption": "Two ways White can play 5-3."}),
    "enter_64": (Position(boards=(B({25: 1, 24: 1, 13: 5, 8: 3, 6: 5}), STANDARD_START), dice=(6, 4)),
                 {"play": "bar/21 13/7", "size": "small"}),
    "bearoff_64": (BEAROFF, {"play": "6/off 4/off", **SMALL}),
    "hits": (HITS, {"play": "24/20* 6/4*", **SMALL}),
    "fifteen_on_a_point": (Position(boards=(B({6: 15}), B({1: 15})), dice=(3, 3)), {"pips": True, **SMALL}),
    "fifteen_on_the_bar": (Position(boards=(B({25: 15}), B({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2})),
                                    dice=(6, 5)), SMALL),
    "all_borne_off": (Position(boards=(B({}, off=15), B({1: 15})), turn=1, cube=2, cube_owner=0),
                      {"size": "small"}),
    "both_on_bar_crawford": (Position(boards=(B({25: 3, 6: 4, 8: 8}), B({25: 2, 6: 6, 13: 7})), dice=(2, 1),
                                      match_length=5, score=(4, 2), crawford=True),
                             {"size": "small", "numbers": "both", "score": True, "pips": True}),
    "cube_64_home_left": (Position(boards=(B({6: 5, 5: 5, 4: 5}), B({24: 5, 23: 5, 22: 5})), cube=64,
                                   cube_owner=1, dice=(5, 2), names=("Ann", "Ben")),
                          {"size": "small", "home": "left", "names": True}),
    "double_offered_black_bottom": (Position(turn=1, double_offered=True, cube=2, cube_owner=1,
                                             match_length=9, score=(3, 4)), {"size": "small", "score": True}),
    "doubles_66": (START.replace(turn=1, dice=(6, 6)), {"play": "24/18(2) 13/7(2)", "size": "small"}),
    "direction": (START, {"size": "small", "direction": True}),
    # a cube decision as `gammon render` draws an XG export's: names, score, the side on roll marked, the
    # verdict and equities in the caption
    "cube_decision_on_roll": (
        parse_position("XGID=-aAaBaDaB---bD-b-A-cA-b-b-:0:0:1:00:2:4:0:9:10").replace(names=("Player 2", "Player 1")),
        {"size": "small", "names": True, "score": True, "on_roll": True,
         "caption": "Double / Take. No double +0.580, double/take +0.689, double/pass +1.000."}),
}


def _pixels(im: Image.Image) -> tuple[str, tuple[int, int], bytes]:
    return im.mode, im.size, im.tobytes()


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str) -> None:
    pos, opts = CASES[name]
    actual = Image.open(io.BytesIO(render.png(pos, **opts)))
    actual.load()
    golden = DATA / f"render_{name}.png"
    if UPDATE:
        golden.write_bytes(render.png(pos, **opts))
        return
    if not golden.exists():
        pytest.fail(f"{golden} is missing: run GAMMON_UPDATE_GOLDEN=1 pytest {__file__} and look at it")
    expected = Image.open(golden)
    expected.load()
    if _pixels(actual) == _pixels(expected):
        return
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    actual.save(ARTIFACTS / f"{name}.actual.png")
    expected.save(ARTIFACTS / f"{name}.expected.png")
    detail = f"mode/size {actual.mode}{actual.size} vs {expected.mode}{expected.size}"
    if actual.size == expected.size:
        diff = ImageChops.difference(actual.convert("RGB"), expected.convert("RGB"))
        diff.point(lambda v: min(255, v * 4)).save(ARTIFACTS / f"{name}.diff.png")
        detail = f"{sum(1 for v in diff.convert('L').getdata() if v)} pixels differ, bbox {diff.getbbox()}"
    pytest.fail(f"{name}: pixels differ from {golden.name} ({detail}); see {ARTIFACTS}")


def test_goldens_are_all_used() -> None:
    """Every golden file belongs to a case (a renamed case must not leave a stale golden behind)."""
    files = {p.name for p in DATA.glob("render_*.png")}
    assert files <= {f"render_{n}.png" for n in CASES}
