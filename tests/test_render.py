"""The diagram renderer: what the display list shows, PNG and SVG output, determinism, and that the
two backends agree (the SVG is rasterised with cairosvg, a test-only dependency)."""

from __future__ import annotations

import hashlib
import io
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageStat

import render
from notation.errors import IllegalPlayError, InvalidPositionError
from notation.position import STANDARD_START, Position, board_from_points
from render.display import Circle, Drawing, Glyphs, Group, Polygon, Polyline, Rect
from render.themes import PRINT

ROOT = Path(__file__).resolve().parents[1]
B = board_from_points
START = Position()
U = 36.0  # the medium preset
BEAROFF = Position(boards=(B({6: 2, 5: 3, 4: 3, 3: 3, 2: 2}), B({1: 3, 2: 3, 3: 2, 4: 3, 6: 2, 7: 2})),
                   dice=(6, 4))
HITS = Position(boards=(B({24: 2, 13: 5, 8: 3, 6: 4, 5: 1}), B({24: 2, 13: 4, 8: 3, 6: 4, 5: 1, 21: 1})),
                dice=(4, 2))


# --------------------------------------------------------------------------- helpers


def flat(d: Drawing) -> list[tuple[object, float, float]]:
    """Every item with the offset of the groups it is in."""
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


def checkers(d: Drawing, player: int) -> list[tuple[float, float]]:
    """Centres of the checker discs of ``player`` (not the small discs of the player lines)."""
    return [(it.cx + ox, it.cy + oy) for it, ox, oy in flat(d)
            if isinstance(it, Circle) and it.fill == PRINT.checker[player] and it.stroke is not None
            and it.r > 0.4 * U]


def texts(d: Drawing) -> list[tuple[str, float, float]]:
    """Each text item as (string without spaces, x of first glyph, baseline y)."""
    out = []
    for it, ox, oy in flat(d):
        if isinstance(it, Glyphs) and it.chars:
            out.append(("".join(c for c, _, _ in it.chars), it.chars[0][1] + ox, it.chars[0][2] + oy))
    return out


def board_centre(d: Drawing) -> tuple[float, float]:
    """Centre of the board frame (the first, largest rectangle)."""
    frame = next(it for it, _, _ in flat(d) if isinstance(it, Rect))
    return frame.x + frame.w / 2, frame.y + frame.h / 2


def cube_rects(d: Drawing) -> list[Rect]:
    return [it for it, _, _ in flat(d) if isinstance(it, Rect) and it.fill == PRINT.cube and it.radius > 0
            and abs(it.w - 0.9 * U) < 0.01]


def decode(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


def png_chunks(data: bytes) -> list[bytes]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, out = 8, []
    while pos < len(data):
        n = struct.unpack(">I", data[pos:pos + 4])[0]
        out.append(data[pos + 4:pos + 8])
        pos += 12 + n
    return out


# --------------------------------------------------------------------------- the font


def test_font_advances_match_freetype() -> None:
    """The TrueType reader's advance widths are FreeType's (Pillow renders the same file)."""
    from PIL import ImageFont, features

    if not features.check("freetype2"):
        pytest.skip("Pillow without FreeType")
    from render._font import default_font

    font = default_font()
    ft = ImageFont.truetype(str(ROOT / "render" / "fonts" / "Aileron-Regular.ttf"), size=1000)
    for code in range(32, 127):
        ch = chr(code)
        assert font.glyph(ch).advance == ft.getlength(ch), ch


def test_font_outlines_match_freetype() -> None:
    """Glyph outlines filled by the renderer cover what FreeType draws for the same font."""
    from PIL import ImageFont, features

    if not features.check("freetype2"):
        pytest.skip("Pillow without FreeType")
    from render._font import default_font

    font = default_font()
    size, base = 200.0, 230
    ft = ImageFont.truetype(str(ROOT / "render" / "fonts" / "Aileron-Regular.ttf"), size=int(size))
    # glyph by glyph: FreeType rounds each advance to whole pixels, so whole strings drift apart
    for ch in "0123456789CRAWFODPScorepix/-*":
        w = 300
        ref = Image.new("L", (w, 300), 0)
        ImageDraw.Draw(ref).text((20, base), ch, font=ft, fill=255, anchor="ls")
        mine = Image.new("1", (w, 300), 0)
        for poly in font.glyph(ch).polygons(12):
            layer = Image.new("1", (w, 300), 0)
            pts = [(20 + px * size / 1000, base - py * size / 1000) for px, py in poly]
            ImageDraw.Draw(layer).polygon(pts, fill=1)
            mine = ImageChops.logical_xor(mine, layer)
        a = ref.point(lambda v: 255 if v >= 128 else 0).convert("1")
        union = ImageChops.logical_or(a, mine).histogram()[255]
        # Differences one pixel wide along the edges are anti-aliasing and hinting; anything that
        # survives an erosion is a real difference in shape or place.
        core = ImageChops.logical_xor(a, mine).convert("L").filter(ImageFilter.MinFilter(3))
        assert core.histogram()[255] < 0.01 * union, (ch, core.histogram()[255], union)


# --------------------------------------------------------------------------- PNG output


def test_png_decodes_with_the_drawings_size() -> None:
    d = render.drawing(START)
    im = decode(render.png(START))
    assert im.size == (d.width, d.height)
    assert im.mode == "L"  # the print theme is all grey
    assert 560 <= im.width <= 620 and 440 <= im.height <= 520


def test_png_has_only_standard_chunks() -> None:
    assert set(png_chunks(render.png(START))) == {b"IHDR", b"IDAT", b"IEND"}
    data = render.png(START, dpi=300)
    assert b"pHYs" in png_chunks(data)
    assert decode(data).info["dpi"] == pytest.approx((300, 300), abs=0.01)


@pytest.mark.parametrize("opts", [{}, {"theme": "classic"}, {"transparent": True},
                                  {"theme": "contrast", "transparent": True}, {"size": "small"},
                                  {"size": "large", "theme": "classic"}, {"size": "print"}])
def test_png_is_well_formed_and_holds_the_images_pixels(opts: dict[str, object]) -> None:
    """Our own PNG writer (unfiltered rows, zlib): every chunk's CRC is right, the rows are filter 0,
    and the file decodes to the rasteriser's pixels in every image mode; at its default level it is no
    larger than Pillow's own encoder at Pillow's default level (6)."""
    import zlib

    pos = HITS
    data = render.png(pos, play="13/9 6/4*", **opts)  # type: ignore[arg-type]
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat = 8, b""
    while at < len(data):
        (n,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + n]
        (crc,) = struct.unpack(">I", data[at + 8 + n:at + 12 + n])
        assert crc == zlib.crc32(kind + body), kind
        idat += body if kind == b"IDAT" else b""
        at += 12 + n
    assert at == len(data) and kind == b"IEND"
    ref = render.image(pos, play="13/9 6/4*", **opts)  # type: ignore[arg-type]
    stride = ref.width * len(ref.getbands())
    rows = zlib.decompress(idat)
    assert len(rows) == (stride + 1) * ref.height and all(rows[i] == 0 for i in range(0, len(rows), stride + 1))
    im = decode(data)
    assert (im.mode, im.size) == (ref.mode, ref.size) and im.tobytes() == ref.tobytes()
    pillow = io.BytesIO()
    ref.save(pillow, "PNG", compress_level=6)  # Pillow's default
    assert len(data) <= len(pillow.getvalue())


def test_png_is_deterministic() -> None:
    pos = START.replace(dice=(5, 3))
    a = render.png(pos, play=["13/8 13/10", "8/3 6/3"], theme="classic")
    render.png(Position(boards=(B({6: 15}), B({1: 15}))))  # something else in between (caches)
    b = render.png(pos, play=["13/8 13/10", "8/3 6/3"], theme="classic")
    assert a == b


def test_png_is_the_same_in_another_process() -> None:
    code = ("import hashlib, render; from notation.position import Position; "
            "data = render.png(Position(dice=(6, 4)), play='24/18 13/9', pips=True); "
            "print(hashlib.sha256(data).hexdigest())")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         timeout=120)
    here = hashlib.sha256(render.png(Position(dice=(6, 4)), play="24/18 13/9", pips=True)).hexdigest()
    assert out.stdout.strip() == here


def test_image_modes() -> None:
    assert render.image(START).mode == "L"
    assert render.image(START, theme="classic").mode == "RGB"
    assert render.image(START, transparent=True).mode == "LA"
    assert render.image(START, theme="contrast", transparent=True).mode == "RGBA"


def test_anti_aliased() -> None:
    """Edges get intermediate grey levels (supersampling), not just the theme's few colours."""
    im = render.image(START)
    levels = {v for v, n in enumerate(im.histogram()) if n}
    assert len(levels) > 40


def test_size_presets_and_width() -> None:
    small, medium, large = (render.drawing(START, size=s) for s in ("small", "medium", "large"))
    assert small.width < medium.width < large.width
    assert large.width / small.width == pytest.approx(60 / 24, rel=0.02)
    assert decode(render.png(START, width=800)).width == 800
    printed = render.drawing(START, size="print", dpi=300)
    assert printed.width == pytest.approx(120 / 25.4 * 300, abs=1.5)
    assert printed.dpi == 300


# --------------------------------------------------------------------------- SVG output


def test_svg_is_standalone() -> None:
    svg = render.svg(START.replace(dice=(5, 3)), play="13/8 13/10", caption="Two checkers down", pips=True)
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    d = render.drawing(START.replace(dice=(5, 3)), play="13/8 13/10", caption="Two checkers down", pips=True)
    assert root.get("viewBox") == f"0 0 {d.width} {d.height}"
    assert root.find(f"{ns}title") is not None and root.find(f"{ns}desc") is not None
    assert not list(root.iter(f"{ns}text")), "text must be drawn as glyph outlines"
    assert "font-family" not in svg and "@import" not in svg
    for el in root.iter(f"{ns}use"):
        assert el.get("{http://www.w3.org/1999/xlink}href", "").startswith("#")
    assert render.svg(START.replace(dice=(5, 3)), play="13/8 13/10", caption="Two checkers down",
                      pips=True) == svg
    assert svg._repr_svg_() == svg


def _svg_as_image(svg: str, size: tuple[int, int]) -> Image.Image:
    cairosvg = pytest.importorskip("cairosvg")
    data = cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=size[0], output_height=size[1])
    return Image.open(io.BytesIO(data)).convert("RGB")


def _disagreement(png_im: Image.Image, svg_im: Image.Image) -> tuple[float, int]:
    """Mean absolute difference, and the largest difference after a 3x3 blur (which forgives
    anti-aliasing along edges but not anything drawn in a different place)."""
    a, b = png_im.convert("RGB"), svg_im.convert("RGB")
    mean = sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3
    blur = ImageChops.difference(a.filter(ImageFilter.BoxBlur(1)), b.filter(ImageFilter.BoxBlur(1)))
    return mean, max(hi for _, hi in blur.getextrema())


AGREE_CASES = {
    "start": (START, {}),
    "two_ways": (START.replace(dice=(5, 3)), {"play": ["13/8 13/10", "8/3 6/3"], "caption": "5-3"}),
    "extremes": (Position(boards=(B({25: 3, 6: 4, 8: 8}), B({25: 2, 6: 6, 13: 7})), dice=(2, 1),
                          match_length=5, score=(4, 2), crawford=True),
                 {"numbers": "both", "score": True, "pips": True, "names": True}),
    "bearoff_left": (BEAROFF, {"play": "6/off 4/off", "home": "left"}),
    "hits_classic": (HITS, {"play": "24/20* 6/4*", "theme": "classic"}),
    "contrast_large": (Position(cube=64, cube_owner=1, dice=(6, 6)), {"theme": "contrast", "size": "large",
                                                                       "direction": True}),
}


@pytest.mark.parametrize("name", sorted(AGREE_CASES))
def test_svg_and_png_agree(name: str) -> None:
    pos, opts = AGREE_CASES[name]
    png_im = render.image(pos, **opts)
    svg_im = _svg_as_image(render.svg(pos, **opts), png_im.size)
    mean, worst = _disagreement(png_im, svg_im)
    assert mean < 4.0, mean
    assert worst < 64, worst


def test_agreement_check_can_fail() -> None:
    """The comparison above notices one checker moved by one point."""
    moved = Position(boards=(B({24: 2, 13: 5, 8: 3, 6: 4, 5: 1}), STANDARD_START))
    png_im = render.image(START)
    svg_im = _svg_as_image(render.svg(moved), png_im.size)
    _mean, worst = _disagreement(png_im, svg_im)
    assert worst >= 64


# --------------------------------------------------------------------------- what a diagram shows


def test_starting_position_checkers() -> None:
    d = render.drawing(START)
    assert len(checkers(d, 0)) == 15 and len(checkers(d, 1)) == 15
    numbers = [t for t, _, _ in texts(d) if t.isdigit()]
    assert sorted(int(n) for n in numbers if n != "64") == list(range(1, 25))


def test_numbering_from_the_bottom_player() -> None:
    d = render.drawing(START)
    cx, cy = board_centre(d)
    pos = {t: (x, y) for t, x, y in texts(d)}
    assert pos["1"][0] > cx and pos["1"][1] > cy  # bottom right
    assert pos["12"][0] < cx and pos["12"][1] > cy  # bottom left
    assert pos["13"][0] < cx and pos["13"][1] < cy
    assert pos["24"][0] > cx and pos["24"][1] < cy
    left = {t: (x, y) for t, x, y in texts(render.drawing(START, home="left"))}
    assert left["1"][0] < cx and left["24"][0] < cx and left["12"][0] > cx


def test_on_roll_player_at_the_bottom_by_default() -> None:
    pos = Position(boards=(B({6: 15}), B({1: 15})), turn=1)
    d = render.drawing(pos)
    _, cy = board_centre(d)
    assert all(y > cy for _, y in checkers(d, 1))  # Black on roll: at the bottom
    assert all(y > cy for _, y in checkers(d, 1))
    d0 = render.drawing(pos, bottom="white")
    assert all(y > cy for _, y in checkers(d0, 0)) and all(y < cy for _, y in checkers(d0, 1))


def test_numbers_both_and_none() -> None:
    n_viewer = sum(1 for t, _, _ in texts(render.drawing(START)) if t.isdigit())
    n_both = sum(1 for t, _, _ in texts(render.drawing(START, numbers="both")) if t.isdigit())
    n_none = sum(1 for t, _, _ in texts(render.drawing(START, numbers="none")) if t.isdigit())
    assert (n_viewer, n_both, n_none) == (25, 49, 1)  # 24 or 48 numbers and the cube's 64


@pytest.mark.parametrize("n", [6, 9, 15])
def test_tall_stack_shows_five_and_the_count(n: int) -> None:
    pos = Position(boards=(B({6: n}), B({1: 15})))
    d = render.drawing(pos)
    assert len(checkers(d, 0)) == 5
    assert str(n) in [t for t, _, _ in texts(d)]


def test_fifteen_on_the_bar() -> None:
    pos = Position(boards=(B({25: 15}), B({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2})), dice=(6, 5))
    d = render.drawing(pos)
    _, cy = board_centre(d)
    bar = checkers(d, 0)
    assert len(bar) == 4 and all(y < cy for _, y in bar)  # the bottom player's bar checkers: upper half
    assert "15" in [t for t, _, _ in texts(d)]


def test_both_sides_on_the_bar() -> None:
    pos = Position(boards=(B({25: 3, 6: 4, 8: 8}), B({25: 2, 6: 6, 13: 7})), dice=(2, 1))
    d = render.drawing(pos)
    cx, cy = board_centre(d)
    white_bar = [(x, y) for x, y in checkers(d, 0) if abs(x - cx) < 5]
    black_bar = [(x, y) for x, y in checkers(d, 1) if abs(x - cx) < 5]
    assert len(white_bar) == 3 and all(y < cy for _, y in white_bar)
    assert len(black_bar) == 2 and all(y > cy for _, y in black_bar)


def test_borne_off_slabs() -> None:
    pos = Position(boards=(B({}, off=15), B({1: 15})), turn=1)
    d = render.drawing(pos)
    slabs = [it for it, _, _ in flat(d)
             if isinstance(it, Rect) and it.fill == PRINT.checker[0] and it.h < 0.4 * U]
    assert len(slabs) == 15
    assert "15" in [t for t, _, _ in texts(d)]


def test_cube_positions_and_crawford() -> None:
    cx, cy = board_centre(render.drawing(START))
    centred = render.drawing(START)
    assert "64" in [t for t, _, _ in texts(centred)]
    (c,) = cube_rects(centred)
    assert abs(c.y + c.h / 2 - cy) < 1
    top_owned = render.drawing(Position(cube=64, cube_owner=1))  # White on roll at the bottom, Black owns
    (c,) = cube_rects(top_owned)
    assert c.y + c.h / 2 < cy - 3 * U
    assert "64" in [t for t, _, _ in texts(top_owned)]
    bottom_owned = render.drawing(Position(cube=2, cube_owner=0))
    (c,) = cube_rects(bottom_owned)
    assert c.y + c.h / 2 > cy + 3 * U
    craw = render.drawing(Position(match_length=5, score=(4, 2), crawford=True))
    assert not cube_rects(craw)
    words = [t for t, _, _ in texts(craw)]
    assert "CRAW" in words and "FORD" in words and "64" not in words


def test_double_offered_cube_in_the_doublers_half() -> None:
    d = render.drawing(Position(turn=1, double_offered=True, cube=2, cube_owner=1))
    cx, _ = board_centre(d)
    (c,) = cube_rects(d)
    assert c.x > cx  # Black doubles from the bottom: right half
    assert "4" in [t for t, _, _ in texts(d)]


def test_dice_in_the_rollers_half() -> None:
    for turn, bottom, right in ((0, "on_roll", True), (1, "white", False), (1, "on_roll", True)):
        d = render.drawing(Position(turn=turn, dice=(6, 5)), bottom=bottom)
        cx, _ = board_centre(d)
        dice = [it for it, _, _ in flat(d) if isinstance(it, Rect) and abs(it.w - 0.82 * U) < 0.01]
        assert len(dice) == 2
        assert all((r.x > cx) == right for r in dice), (turn, bottom)


def test_player_lines() -> None:
    pos = Position(match_length=7, score=(2, 3), names=("Alice", "Bob"), dice=(3, 1))
    words = [t for t, _, _ in texts(render.drawing(pos, names=True, pips=True, score=True))]
    # (spaces are not glyphs)
    assert "Alice(onroll)" in words and "Bob" in words
    assert "Score2Pips167" in words and "Score3Pips167" in words
    assert "7-pointmatch" in words
    assert render.drawing(pos).height < render.drawing(pos, pips=True).height


def test_caption_wraps() -> None:
    short = render.drawing(START, caption="Figure 1.")
    long = render.drawing(START, caption="Figure 1. " + "A long caption that has to wrap. " * 6)
    assert long.height > short.height > render.drawing(START).height
    assert all(len(t) < 90 for t, _, _ in texts(long))


# --------------------------------------------------------------------------- plays as arrows


def arrows(d: Drawing) -> list[Polyline]:
    return [it for it, _, _ in flat(d) if isinstance(it, Polyline) and it.stroke == PRINT.arrow]


def ghosts(d: Drawing) -> list[Circle]:
    return [it for it, _, _ in flat(d) if isinstance(it, Circle) and it.dashes]


def test_play_arrows_and_ghosts() -> None:
    pos = START.replace(dice=(5, 3))
    d = render.drawing(pos, play="13/8 13/10")
    assert len(arrows(d)) == 2 and len(ghosts(d)) == 2
    # the arrows start on the 13 point (top left) and end in the bottom left quarter
    cx, cy = board_centre(d)
    for a in arrows(d):
        (x0, y0), (x1, y1) = a.points[0], a.points[-1]
        assert x0 < cx and y0 < cy and x1 < cx and y1 > cy
    assert len(ghosts(render.drawing(pos, play="13/8 13/10", ghosts=False))) == 0


def test_chained_move_has_one_ghost() -> None:
    d = render.drawing(START.replace(dice=(5, 3)), play="24/16")
    assert len(arrows(d)) == 2 and len(ghosts(d)) == 1


def test_hits_are_marked() -> None:
    bursts = [it for it, _, _ in flat(render.drawing(HITS, play="24/20* 6/4*"))
              if isinstance(it, Polygon) and len(it.points) == 28]
    assert len(bursts) == 2
    none = [it for it, _, _ in flat(render.drawing(HITS, play="13/9 13/11"))
            if isinstance(it, Polygon) and len(it.points) == 28]
    assert not none


def test_bear_off_arrows_go_to_the_tray() -> None:
    d = render.drawing(BEAROFF, play="6/off 4/off")
    frame = next(it for it, _, _ in flat(d) if isinstance(it, Rect))
    tray_x = frame.x + frame.w - 0.16 * U - 1.3 * U
    assert len(arrows(d)) == 2
    assert all(a.points[-1][0] > tray_x - 0.6 * U for a in arrows(d))
    ghost_slabs = [it for it, _, _ in flat(d)
                   if isinstance(it, Rect) and it.fill is None and it.stroke == PRINT.arrow]
    assert len(ghost_slabs) == 2


def test_parallel_moves_do_not_cross() -> None:
    from render.arrows import _crossings

    pos = START.replace(turn=1, dice=(6, 6))
    d = render.drawing(pos, play="24/18(2) 13/7(2)")
    curves = [a.curve for a in arrows(d)]
    assert len(curves) == 4 and all(c is not None for c in curves)
    assert _crossings([c for c in curves if c is not None]) == 0


def test_two_ways_side_by_side() -> None:
    pos = START.replace(dice=(5, 3))
    one = render.drawing(pos, play="13/8 13/10")
    two = render.drawing(pos, play=["13/8 13/10", "8/3 6/3"], caption="Two ways")
    assert two.width > 1.9 * one.width
    words = [t for t, _, _ in texts(two)]
    assert "13/1013/8" in words and "8/36/3" in words and "Twoways" in words
    stacked = render.drawing(pos, play=["13/8 13/10", "8/3 6/3"], columns=1)
    assert stacked.height > 1.8 * one.height


def test_direction_arrow() -> None:
    assert len(arrows(render.drawing(START, direction=True))) == 1


# --------------------------------------------------------------------------- bad input


def test_bad_input_raises_value_errors() -> None:
    with pytest.raises(InvalidPositionError):
        render.png(Position(boards=(B({6: 15}), B({19: 15}))))  # both on White's 6-point
    with pytest.raises(InvalidPositionError):
        render.png(Position(boards=(B({6: 16}, off=0), STANDARD_START)))
    with pytest.raises(IllegalPlayError):
        render.png(START.replace(dice=(5, 3)), play="13/7")
    with pytest.raises(ValueError, match="needs a roll"):
        render.png(START, play="13/8 13/10")
    with pytest.raises(ValueError, match="unknown option"):
        render.png(START, colour="red")
    with pytest.raises(ValueError, match="unknown theme"):
        render.png(START, theme="neon")
    with pytest.raises(ValueError, match="dice"):
        render.png(START, dice="77")
    with pytest.raises(ValueError):
        render.png(START, home="up")


# --------------------------------------------------------------------------- property


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any legal distribution of 15 checkers a side (points, bar, off), no point shared."""
    owner: dict[int, int] = {}
    boards = []
    for player in (0, 1):
        b = [0] * 26
        for _ in range(15):
            where = draw(st.integers(0, 25))
            if 1 <= where <= 24:
                white_point = where if player == 0 else 25 - where
                if owner.setdefault(white_point, player) != player:
                    where = 0
            b[where] += 1
        boards.append(tuple(b))
    cube = draw(st.sampled_from([1, 2, 4, 8, 16, 32, 64]))
    return Position(boards=(boards[0], boards[1]), turn=draw(st.integers(0, 1)),
                    dice=draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6))),
                    cube=cube, cube_owner=draw(st.none() | st.integers(0, 1)) if cube > 1 else None)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.sampled_from(["right", "left"]), st.sampled_from(["on_roll", "white", "black"]),
       st.sampled_from(["viewer", "both", "none"]), st.sampled_from(["print", "classic", "contrast"]))
def test_any_position_renders(pos: Position, home: str, bottom: str, numbers: str, theme: str) -> None:
    opts = {"home": home, "bottom": bottom, "numbers": numbers, "theme": theme, "pips": True, "size": "small"}
    d = render.drawing(pos, **opts)
    im = decode(render.png(pos, **opts))
    assert im.size == (d.width, d.height)
    shown = sum(min(pos.boards[p][q], 5) for p in (0, 1) for q in range(1, 25))
    shown += sum(min(pos.boards[p][25], 4) for p in (0, 1))
    found = len([it for it, _, _ in flat(d) if isinstance(it, Circle) and it.stroke is not None
                 and it.r > 0.4 * 24 and not it.dashes])
    assert found == shown
    ET.fromstring(render.svg(pos, **opts))


def test_options_are_in_the_signature() -> None:
    """help(render.png) lists every option, keyword-only, typed, with its default; and each one is an
    option the layout accepts."""
    import inspect

    import render
    from render.layout import Options

    for fn in (render.png, render.svg, render.image, render.drawing):
        params = inspect.signature(fn).parameters
        assert list(params)[0] == "position"
        opts = {n: p for n, p in params.items() if n != "position"}
        assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in opts.values())
        assert set(opts) == set(Options.__dataclass_fields__) | {"play"}
        assert opts["size"].default == "medium" and opts["size"].annotation == "str"


@pytest.mark.parametrize("length", [60, 5000])
def test_a_long_name_is_cut_to_its_line(length: int) -> None:
    """Found by a random run: a 5,000-character name ran its line thousands of pixels past the board
    (and made the match page fail); now it ends in "..." before the score and pips, which stay."""
    from dataclasses import replace

    pos = replace(Position(), dice=(5, 2), match_length=7, names=("A" * length, "Bob"))
    d = render.drawing(pos, names=True, pips=True, score=True)
    glyphs = [(it, ox) for it, ox, _oy in flat(d) if isinstance(it, Glyphs)]
    texts = ["".join(c for c, _x, _y in g.chars) for g, _ox in glyphs]
    assert max(x + ox for g, ox in glyphs for _c, x, _y in g.chars) < d.width
    assert any(t.startswith("AAAA") and t.endswith("...(onroll)") for t in texts), texts  # (no blanks in glyphs)
    assert sum(t.count("Pips") for t in texts) == 2 and sum(t.count("Score") for t in texts) == 2


@pytest.mark.parametrize(("dice", "column"), [("²3", 1), ("5³", 2)])
def test_dice_of_other_digits_are_refused_in_words(dice: str, column: int) -> None:
    """Digits ``str.isdigit`` takes and ``int`` does not were refused with ``int``'s own message."""
    from render.layout import parse_dice

    with pytest.raises(ValueError, match=f"at column {column} is not a die 1-6"):
        parse_dice(dice)
