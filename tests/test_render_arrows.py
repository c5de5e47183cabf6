"""Arrows, ghosts and counts a book editor accepts: the direction arrow clear of the dice, a checker
arriving on a full stack visible with the count after the play, dashed ghosts in the tray, arrows
routed around checkers, counts and dice and crossing cleanly, and a readable second set of numbers."""

from __future__ import annotations

import io
import math

import pytest
from PIL import Image

import render
from notation.position import Position, board_from_points
from render.arrows import _crossings, _param_at_distance, _quad
from render.display import Circle, Drawing, Glyphs, Group, Polygon, Polyline, Rect
from render.geometry import NUMBERS_ALT_SIZE
from render.themes import PRINT, THEMES

B = board_from_points
START = Position()
U = 36.0


def flat(d: Drawing) -> list[tuple[object, float, float]]:
    out: list[tuple[object, float, float]] = []

    def walk(g: Group, ox: float, oy: float) -> None:
        ox, oy = ox + g.dx, oy + g.dy
        for it in g.items:
            if isinstance(it, Group):
                walk(it, ox, oy)
            else:
                out.append((it, ox, oy))

    walk(d.root, 0.0, 0.0)
    return out


def arrow_curves(d: Drawing) -> list[tuple[tuple[float, float], tuple[float, float], tuple[float, float]]]:
    return [it.curve for it, _, _ in flat(d) if isinstance(it, Polyline) and it.stroke == PRINT.arrow
            and it.curve is not None]


def checker_centres(d: Drawing) -> list[tuple[float, float]]:
    return [(it.cx, it.cy) for it, _, _ in flat(d) if isinstance(it, Circle) and it.fill in PRINT.checker
            and it.stroke is not None and it.r > 0.4 * U]


def dice_rects(d: Drawing) -> list[Rect]:
    return [it for it, _, _ in flat(d) if isinstance(it, Rect) and abs(it.w - 0.82 * U) < 0.01]


def texts(d: Drawing) -> list[Glyphs]:
    return [it for it, _, _ in flat(d) if isinstance(it, Glyphs) and it.chars]


def over_checkers(curve: tuple, centres: list[tuple[float, float]], skip: float = 0.45) -> int:
    """Sample points of the curve's middle part (without its ends) that lie on a checker."""
    a, c, b = curve
    n = 0
    for k in range(41):
        t = skip / 2 + (1 - skip) * k / 40
        x, y = _quad(a, c, b, t)
        if any(math.hypot(x - cx, y - cy) < 0.5 * U for cx, cy in centres):
            n += 1
    return n


# --------------------------------------------------------------------------- direction


@pytest.mark.parametrize("pos", [START.replace(dice=(6, 1)), START.replace(dice=(5, 2), turn=1),
                                 Position(turn=1, double_offered=True, cube=2)])
@pytest.mark.parametrize("home", ["right", "left"])
def test_direction_arrow_keeps_clear_of_the_dice(pos: Position, home: str) -> None:
    d = render.drawing(pos, direction=True, home=home)
    lane = [it for it, _, _ in flat(d) if isinstance(it, Polyline) and it.stroke == PRINT.arrow][0]
    boxes = [(r.x, r.y, r.x + r.w, r.y + r.h) for r in dice_rects(d)]
    boxes += [(r.x, r.y, r.x + r.w, r.y + r.h) for it, _, _ in flat(d) if isinstance(it, Rect)
              and abs(it.w - 0.9 * U) < 0.01 and (r := it).radius > 0 and abs(r.y + r.h / 2 - d.height / 2) < U]
    assert boxes
    half = lane.width / 2
    for x, y in lane.points:
        for x0, y0, x1, y1 in boxes:
            assert not (x0 - half < x < x1 + half and y0 - half < y < y1 + half), (x, y)
    # and it stays off the checkers
    assert all(min(math.hypot(x - cx, y - cy) for cx, cy in checker_centres(d)) > 0.5 * U + half * 0.5
               for x, y in lane.points[1:-1])


# --------------------------------------------------------------------------- a sixth checker


def test_the_sixth_checker_is_drawn_beyond_the_stack_with_the_count() -> None:
    """13/6 from the opening: the arrow does not end on the six point's fifth checker: a ghost beyond
    it, in the gap, says 6."""
    d = render.drawing(START.replace(dice=(6, 1)), play="13/6")
    six = [(x, y) for x, y in checker_centres(d)]
    ghosts = [it for it, _, _ in flat(d) if isinstance(it, Circle) and it.dashes]
    assert len(ghosts) == 1
    g = ghosts[0]
    assert min(math.hypot(g.cx - x, g.cy - y) for x, y in six) >= 0.99 * U  # not on a checker
    labels = [t for t in texts(d) if "".join(c for c, _, _ in t.chars) == "6"
              and abs(t.chars[0][1] - g.cx) < 0.4 * U and abs(t.chars[0][2] - g.cy) < 0.4 * U]
    assert labels, "the count after the play is written in the ghost"
    heads = [it for it, _, _ in flat(d) if isinstance(it, Polygon) and it.fill == PRINT.arrow and len(it.points) == 4]
    tip = heads[-1].points[0]
    assert math.hypot(tip[0] - g.cx, tip[1] - g.cy) < 0.5 * U  # the arrow points at the ghost


def test_the_count_over_a_full_stack_where_the_dice_stand() -> None:
    """Where the dice stand beyond the stack, the top checker shows the count after the play, ringed."""
    pos = Position(boards=(B({6: 3, 4: 6, 8: 3, 13: 3}), B({1: 2, 11: 5, 15: 3, 20: 5})), dice=(2, 2))
    d = render.drawing(pos, play="6/4(2) 8/6(2)")
    words = ["".join(c for c, _, _ in t.chars) for t in texts(d)]
    assert "8" in words and "6" in words  # after the play, and the count drawn before it
    rings = [it for it, _, _ in flat(d) if isinstance(it, Circle) and it.dashes and it.r > 0.5 * U]
    assert len(rings) == 1


def test_a_point_stacked_with_more_than_five_counts_every_arrival() -> None:
    pos = Position(boards=(B({6: 7, 8: 4, 13: 4}), B({1: 2, 15: 5, 18: 3, 20: 5})), dice=(2, 2))
    d = render.drawing(pos, play="8/6(2) 13/11(2)")
    words = ["".join(c for c, _, _ in t.chars) for t in texts(d)]
    assert "7" in words and "9" in words


# --------------------------------------------------------------------------- bear-off ghosts


BEAR7 = Position(boards=(B({6: 2, 5: 2, 4: 1, 3: 2, 2: 1}, off=7), B({1: 3, 2: 3, 3: 2, 4: 3, 6: 2, 7: 2})),
                 dice=(6, 4))


@pytest.mark.parametrize("home", ["right", "left"])
def test_bear_off_ghosts_in_the_tray_are_dashed(home: str) -> None:
    d = render.drawing(BEAR7, play="6/off 4/off", home=home)
    slabs = [it for it, _, _ in flat(d) if isinstance(it, Rect) and it.stroke == PRINT.arrow and it.fill is None]
    assert len(slabs) == 2 and all(s.dashes >= 6 for s in slabs)
    # no solid slab stands where a ghost is: the tray holds the 7 borne off, drawn solid, and the 2 ghosts
    solid = [it for it, _, _ in flat(d) if isinstance(it, Rect) and it.fill == PRINT.checker[0]
             and it.h < 0.4 * U and it.w > 0.7 * U]
    assert len(solid) == 7
    # in the PNG the ghost's top edge is broken
    im = render.image(BEAR7, play="6/off 4/off", home=home).convert("L")
    s = slabs[-1]
    row = [min(im.getpixel((round(s.x + k), round(s.y) + dy)) for dy in (-1, 0, 1)) for k in range(2, int(s.w) - 2)]
    assert min(row) < 120 and max(row) > 200


def test_bear_off_arrows_keep_off_the_tray_count() -> None:
    for pos in (BEAR7, BEAR7.replace(turn=0)):
        for bottom in ("white", "black"):
            d = render.drawing(pos, play="6/off 4/off", bottom=bottom)
            count = next(t for t in texts(d) if "".join(c for c, _, _ in t.chars) == "7")
            x, y = count.chars[0][1], count.chars[0][2]
            for a, c, b in arrow_curves(d):
                for k in range(41):
                    px, py = _quad(a, c, b, k / 40)
                    assert not (x - 0.1 * U < px < x + 0.4 * U and y - 0.45 * U < py < y + 0.1 * U)


# --------------------------------------------------------------------------- routing


def test_doubles_66_arrows_avoid_checkers_and_do_not_cross() -> None:
    d = render.drawing(START.replace(turn=1, dice=(6, 6)), play="24/18(2) 13/7(2)")
    curves = arrow_curves(d)
    assert len(curves) == 4 and _crossings(curves) == 0
    centres = checker_centres(d)
    for a, c, b in curves:
        # the checkers at the ends (where it leaves and where it lands) excepted
        others = [(x, y) for x, y in centres if abs(x - a[0]) > 0.6 * U and abs(x - b[0]) > 0.6 * U]
        assert over_checkers((a, c, b), others) == 0


@pytest.mark.parametrize("play, dice", [("13/8 13/10", (5, 3)), ("13/7 13/11", (6, 2)), ("24/13", (6, 5)),
                                        ("24/18 13/9", (6, 4)), ("13/11(2) 6/4(2)", (2, 2)),
                                        ("6/4(2) 8/6(2)", (2, 2))])
def test_opening_plays_route_around_checkers(play: str, dice: tuple[int, int]) -> None:
    d = render.drawing(START.replace(dice=dice), play=play)
    curves = arrow_curves(d)
    centres = checker_centres(d)
    for a, c, b in curves:
        others = [(x, y) for x, y in centres if abs(x - a[0]) > 0.6 * U and abs(x - b[0]) > 0.6 * U]
        assert over_checkers((a, c, b), others) == 0, play
    assert _crossings(curves) <= 1


def test_crossing_arrows_are_cut_cleanly() -> None:
    """Each arrow is drawn with its halo right before it: a later arrow's halo interrupts an earlier
    arrow where they cross (not all halos first, which would merge the two shafts)."""
    d = render.drawing(START.replace(dice=(6, 4)), play="24/18 13/9")
    lines = [it for it, _, _ in flat(d) if isinstance(it, Polyline)]
    kinds = ["halo" if ln.stroke == PRINT.arrow_halo else "shaft" for ln in lines]
    assert kinds == ["halo", "shaft"] * (len(lines) // 2)


# --------------------------------------------------------------------------- numbers both


def _luminance(c: tuple[int, int, int]) -> float:
    def ch(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    return 0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2])


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_second_numbers_read_at_the_print_preset(theme: str) -> None:
    d = render.drawing(START, numbers="both", size="print", theme=theme)
    dpi = d.dpi or 300
    sizes = sorted({t.size for t in texts(d) if "".join(c for c, _, _ in t.chars).isdigit()})
    small = sizes[0]
    assert small / dpi * 72 >= 7.0  # points
    th = THEMES[theme]
    hi, lo = sorted((_luminance(th.number_alt), _luminance(th.background)), reverse=True)
    assert (hi + 0.05) / (lo + 0.05) >= 4.5
    assert NUMBERS_ALT_SIZE >= 0.34


def test_second_numbers_are_dark_in_the_png() -> None:
    im = Image.open(io.BytesIO(render.png(START, numbers="both", size="print"))).convert("L")
    d = render.drawing(START, numbers="both", size="print")
    alt = [t for t in texts(d) if t.size < 0.4 * d.width / 16.7 and "".join(c for c, _, _ in t.chars).isdigit()]
    assert alt
    t = alt[0]
    x, y = t.chars[0][1], t.chars[0][2]
    box = im.crop((int(x), int(y - t.size * 0.75), int(x + t.size), int(y)))
    assert box.getextrema()[0] < 110


# --------------------------------------------------------------------------- counts and chains


def test_an_arrow_leaving_a_counted_stack_leaves_the_count_readable() -> None:
    pos = Position(boards=(B({6: 7, 5: 3, 4: 1}, off=4), B({1: 2, 2: 3, 3: 3, 4: 2, 18: 2, 22: 3})), dice=(6, 5))
    d = render.drawing(pos, play="6/off 5/off")
    seven = next(t for t in texts(d) if "".join(c for c, _, _ in t.chars) == "7")
    cx = seven.chars[0][1] + seven.size * 0.28
    cy = seven.chars[0][2] - seven.size * 0.36
    for a, _c, _b in arrow_curves(d):
        assert math.hypot(a[0] - cx, a[1] - cy) > 0.3 * U


def test_a_chain_through_a_full_stack_continues_from_beyond_it() -> None:
    """8/6/4 when the six point holds six: the second step starts where the first landed (beyond the
    stack), not on the counted top checker, and does not run over the stack."""
    pos = Position(boards=(B({8: 8, 6: 6, 13: 1}), B({1: 2, 11: 5, 16: 3, 22: 5})), dice=(2, 2))
    d = render.drawing(pos, play="8/6(2) 6/4(2)")
    curves = arrow_curves(d)
    assert len(curves) == 4
    ghosts = [it for it, _, _ in flat(d) if isinstance(it, Circle) and it.dashes]
    gap_y = board_gap_y(d)
    # the chain's second steps start beyond the six point's stack, in the gap
    from_gap = [(a, c, b) for a, c, b in curves if abs(a[1] - gap_y) < 0.5 * U]
    assert len(from_gap) == 2
    stack = [(x, y) for x, y in checker_centres(d) if abs(x - from_gap[0][0][0]) < 1]
    assert len(stack) == 5
    for curve in from_gap:
        assert over_checkers(curve, stack, skip=0.2) == 0
    assert len(ghosts) == 2  # where the two checkers end, on the four point


def board_gap_y(d: Drawing) -> float:
    frame = next(it for it, _, _ in flat(d) if isinstance(it, Rect))
    return frame.y + frame.h / 2


def test_make_figures_has_the_issue_figures_and_is_deterministic() -> None:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "scripts" / "make_figures.py"
    spec = importlib.util.spec_from_file_location("make_figures", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    figs = {stem: (pos, opts) for stem, _what, pos, opts in mod.figures()}
    for stem in ("names_latin", "names_greek", "names_cyrillic", "play_crowded_double", "bearoff_counts",
                 "stack_sixth_checker", "stack_eight_and_more"):
        assert stem in figs
    for stem in ("names_latin", "stack_sixth_checker"):
        pos, opts = figs[stem]
        assert render.png(pos, **opts) == render.png(pos, **opts)
    if mod.JAPANESE_FONT.exists():
        assert "names_japanese" in {stem for stem, *_ in mod.font_figures()}


@pytest.mark.parametrize("c", [(80.0, 40.0), (150.0, -200.0), (150.0, 900.0), (10.0, 10.0), (380.0, 60.0)],
                         ids=["gentle", "deep", "turning back", "near the start", "beyond the end"])
@pytest.mark.parametrize("t1", [1.0, 0.83])
def test_the_point_at_a_distance_is_the_last_one_before_the_end(c: tuple[float, float], t1: float) -> None:
    """Where an arrow's tip, head and shaft end (:func:`render.arrows._param_at_distance`): the point ``dist``
    from the point at t1, the last one along the curve (every point after it is closer), on the arcs of
    arrows and on curves that turn back towards their end (found by bisection there)."""
    a, b = (0.0, 0.0), (300.0, 100.0)
    end = _quad(a, c, b, t1)
    for dist in (0.0, 5.0, 15.1, 80.0, 250.0):
        t = _param_at_distance(a, c, b, t1, dist)
        if math.dist(a, end) <= dist:
            assert t == 0.0
            continue
        assert 0.0 <= t <= t1
        assert math.dist(_quad(a, c, b, t), end) == pytest.approx(dist, abs=1e-6)
        assert all(math.dist(_quad(a, c, b, t + (t1 - t) * k / 50), end) < dist + 1e-6 for k in range(1, 51))


@pytest.mark.parametrize("theme", ["print", "classic"])
def test_the_other_play_is_drawn_pale_under_the_play(theme: str) -> None:
    """``ghost_play`` (a problem's solution: the best play, and the play made): the play made has its own
    arrows, in a colour between the arrows' and the field's, the best play's in the arrows' colour."""
    th = THEMES[theme]
    d = render.drawing(START.replace(dice=(5, 3)), theme=theme, play="13/8 13/10", ghost_play="24/21 13/8")
    shafts = [it.stroke for it, _, _ in flat(d) if isinstance(it, Polyline) and it.curve is not None
              and it.stroke != th.arrow_halo]
    pale = [s for s in shafts if s != th.arrow]
    assert len(shafts) == 4 and len(pale) == 2
    assert all(min(a, f) < p < max(a, f) for s in pale for p, a, f in zip(s, th.arrow, th.field, strict=True)
               if a != f)
