"""The Pillow backend: a display list to a PIL image and to PNG bytes.

Pillow's ``ImageDraw`` does not anti-alias shapes, so everything is drawn ``supersample`` times
larger and reduced with :meth:`PIL.Image.Image.reduce` (an exact box filter).  Text is filled from
the font's own outlines (see :mod:`render._font`), not by FreeType, so the pixels depend only on
the display list and Pillow's polygon filling.  Strokes are centred on outlines as in SVG.

The empty board of a diagram is the same for every position; it is drawn once per geometry and
cached, so a diagram costs only its checkers, cube, dice, arrows and text.
"""

from __future__ import annotations

import math
import struct
import zlib
from collections import OrderedDict
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from ._font import default_font
from .display import Circle, Color, Drawing, Glyphs, Group, Item, Polygon, Polyline, Rect

_Ink = int | tuple[int, ...]

_STATIC_CACHE: OrderedDict[tuple[object, ...], Image.Image] = OrderedDict()
_STATIC_CACHE_SIZE = 8


def _mode(drawing: Drawing) -> str:
    if drawing.background is None:
        return "LA" if drawing.is_grey() else "RGBA"
    return "L" if drawing.is_grey() else "RGB"


def _ink(c: Color, mode: str) -> _Ink:
    if mode == "L":
        return c[0]
    if mode == "LA":
        return (c[0], 255)
    if mode == "RGBA":
        return (c[0], c[1], c[2], 255)
    return c


class _Painter:
    def __init__(self, canvas: Image.Image, ss: int) -> None:
        self.im = canvas
        self.d = ImageDraw.Draw(canvas)
        self.ss = ss
        self.mode = canvas.mode

    def ink(self, c: Color) -> _Ink:
        return _ink(c, self.mode)

    def group(self, g: Group, ox: float, oy: float, start: int = 0) -> None:
        ox += g.dx
        oy += g.dy
        for it in g.items[start:]:
            if isinstance(it, Group):
                self.group(it, ox, oy)
            else:
                self.item(it, ox, oy)

    def item(self, it: Item, ox: float, oy: float) -> None:
        s = self.ss
        if isinstance(it, Rect):
            x0, y0 = (it.x + ox) * s, (it.y + oy) * s
            x1, y1 = x0 + it.w * s, y0 + it.h * s
            if it.dashes and it.stroke is not None:
                if it.fill is not None:
                    self.rect(x0, y0, x1, y1, it.radius * s, it.fill, None, 0.0)
                for dash in _dashes(_rounded_rect_path(x0, y0, x1, y1, it.radius * s), it.dashes):
                    self.polyline(dash, it.stroke, it.width * s)
            else:
                self.rect(x0, y0, x1, y1, it.radius * s, it.fill, it.stroke, it.width * s)
        elif isinstance(it, Circle):
            self.circle((it.cx + ox) * s, (it.cy + oy) * s, it.r * s, it.fill, it.stroke, it.width * s,
                        it.dashes)
        elif isinstance(it, Polygon):
            pts = [((x + ox) * s, (y + oy) * s) for x, y in it.points]
            self.polygon(pts, it.fill, it.stroke, it.width * s)
        elif isinstance(it, Polyline):
            pts = [((x + ox) * s, (y + oy) * s) for x, y in it.points]
            self.polyline(pts, it.stroke, it.width * s)
        elif isinstance(it, Glyphs):
            self.glyphs(it, ox, oy)

    # ------------------------------------------------------------------ primitives
    def _box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
        return round(x0), round(y0), round(x1) - 1, round(y1) - 1

    def rect(self, x0: float, y0: float, x1: float, y1: float, r: float, fill: Color | None,
             stroke: Color | None, w: float) -> None:
        d = self.d
        h = w / 2 if stroke is not None and w > 0 else 0.0
        if stroke is not None and w > 0:
            box = self._box(x0 - h, y0 - h, x1 + h, y1 + h)
            if fill is None:
                iw = max(1, round(w))
                if r > 0:
                    d.rounded_rectangle(box, radius=round(r + h), outline=self.ink(stroke), width=iw)
                else:
                    d.rectangle(box, outline=self.ink(stroke), width=iw)
                return
            if r > 0:
                d.rounded_rectangle(box, radius=round(r + h), fill=self.ink(stroke))
            else:
                d.rectangle(box, fill=self.ink(stroke))
        if fill is not None:
            box = self._box(x0 + h, y0 + h, x1 - h, y1 - h)
            if box[2] < box[0] or box[3] < box[1]:
                return
            if r > 0:
                d.rounded_rectangle(box, radius=max(0, round(r - h)), fill=self.ink(fill))
            else:
                d.rectangle(box, fill=self.ink(fill))

    def circle(self, cx: float, cy: float, r: float, fill: Color | None, stroke: Color | None, w: float,
               dashes: int = 0) -> None:
        d = self.d
        h = w / 2 if stroke is not None and w > 0 else 0.0
        if stroke is not None and w > 0:
            box = self._box(cx - r - h, cy - r - h, cx + r + h, cy + r + h)
            if dashes:
                step = 360.0 / dashes
                for i in range(dashes):
                    a0 = i * step
                    d.arc(box, a0, a0 + step * 0.55, fill=self.ink(stroke), width=max(1, round(w)))
            elif fill is None:
                d.ellipse(box, outline=self.ink(stroke), width=max(1, round(w)))
                return
            else:
                d.ellipse(box, fill=self.ink(stroke))
        if fill is not None:
            box = self._box(cx - r + h, cy - r + h, cx + r - h, cy + r - h)
            d.ellipse(box, fill=self.ink(fill))

    def polygon(self, pts: list[tuple[float, float]], fill: Color | None, stroke: Color | None,
                w: float) -> None:
        # Pillow's polygon and line vertices are pixel centres: shift by half a pixel.
        ipts = [(round(x - 0.5), round(y - 0.5)) for x, y in pts]
        if fill is not None:
            self.d.polygon(ipts, fill=self.ink(fill))
        if stroke is not None and w > 0:
            self.polyline(pts + pts[:2], stroke, w, caps=False)

    def polyline(self, pts: list[tuple[float, float]], stroke: Color, w: float, caps: bool = True) -> None:
        ink = self.ink(stroke)
        if caps and len(pts) > 2 and w > 2:
            # A smooth curve: fill the outline of the stroke (one polygon; much faster than
            # Pillow's wide lines with round joints), plus round caps.
            self.d.polygon(_stroke_outline(pts, w / 2), fill=ink)
        else:
            ipts = [(round(x - 0.5), round(y - 0.5)) for x, y in pts]
            self.d.line(ipts, fill=ink, width=max(1, round(w)), joint="curve")
        if caps and w > 2:
            r = w / 2
            for x, y in (pts[0], pts[-1]):
                self.d.ellipse(self._box(x - r, y - r, x + r, y + r), fill=ink)

    def glyphs(self, g: Glyphs, ox: float, oy: float) -> None:
        s = self.ss
        ink = self.ink(g.fill)
        for ch, x, y in g.chars:
            mask, mx, my = _glyph_mask(ch, round(g.size * s, 3), round(g.bold * s, 3))
            if mask is None:
                continue
            px = round((x + ox) * s) + mx
            py = round((y + oy) * s) + my
            self.im.paste(ink, (px, py, px + mask.width, py + mask.height), mask)


def _rounded_rect_path(x0: float, y0: float, x1: float, y1: float, r: float) -> list[tuple[float, float]]:
    """The outline of a rounded rectangle, closed, from the end of the top-left corner clockwise (as SVG
    strokes a ``<rect>``)."""
    r = max(0.0, min(r, (x1 - x0) / 2, (y1 - y0) / 2))
    pts: list[tuple[float, float]] = []
    corners = ((x1 - r, y0 + r, -90.0), (x1 - r, y1 - r, 0.0), (x0 + r, y1 - r, 90.0), (x0 + r, y0 + r, 180.0))
    pts.append((x0 + r, y0))
    for cx, cy, a0 in corners:
        for k in range(9):
            a = math.radians(a0 + 90.0 * k / 8)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    pts.append((x0 + r, y0))
    return pts


def _dashes(path: list[tuple[float, float]], n: int) -> list[list[tuple[float, float]]]:
    """``n`` dashes along a closed path, each 55 % of its share of the length (SVG's dash array)."""
    seg = [math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(path, path[1:], strict=False)]
    total = sum(seg)
    if total <= 0:
        return []
    period = total / n
    out: list[list[tuple[float, float]]] = []
    for i in range(n):
        start, end = i * period, i * period + 0.55 * period
        dash: list[tuple[float, float]] = []
        pos = 0.0
        for (a, b), length in zip(zip(path, path[1:], strict=False), seg, strict=True):
            if length == 0:
                continue
            lo, hi = max(start, pos), min(end, pos + length)
            if lo < hi:
                for t in ((lo - pos) / length, (hi - pos) / length):
                    p = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
                    if not dash or dash[-1] != p:
                        dash.append(p)
            pos += length
        if len(dash) >= 2:
            out.append(dash)
    return out


def _stroke_outline(pts: list[tuple[float, float]], h: float) -> list[tuple[int, int]]:
    """The outline of a stroke of half-width ``h`` along a smooth polyline (canvas pixels)."""
    n = len(pts)
    left: list[tuple[int, int]] = []
    right: list[tuple[int, int]] = []
    for i in range(n):
        a = pts[i - 1] if i > 0 else pts[i]
        b = pts[i + 1] if i < n - 1 else pts[i]
        dx, dy = b[0] - a[0], b[1] - a[1]
        d = math.hypot(dx, dy)
        if d == 0:
            continue
        nx, ny = -dy / d * h, dx / d * h
        x, y = pts[i][0] - 0.5, pts[i][1] - 0.5
        left.append((round(x + nx), round(y + ny)))
        right.append((round(x - nx), round(y - ny)))
    return left + right[::-1]


_GLYPH_OVERSAMPLE = 4
"""Glyph masks are filled this much finer than the canvas and reduced: Pillow's polygon filling
covers boundary pixels, which would make small text look heavier than in the SVG."""


@lru_cache(maxsize=2048)
def _glyph_mask(ch: str, size: float, bold: float) -> tuple[Image.Image | None, int, int]:
    """A coverage mask of a glyph at ``size`` canvas px per em, and its offset from the glyph origin."""
    font = default_font()
    glyph = font.glyph(ch)
    f = _GLYPH_OVERSAMPLE
    scale = size * f / font.units_per_em
    steps = 4 if size < 40 else 6 if size < 120 else 8
    polys = [[(x * scale, -y * scale) for x, y in poly] for poly in glyph.polygons(steps)]
    if not polys:
        return None, 0, 0
    pad = int(math.ceil(bold / 2)) + 1
    xs = [x for p in polys for x, _ in p]
    ys = [y for p in polys for _, y in p]
    x0, y0 = (math.floor(min(xs) / f) - pad) * f, (math.floor(min(ys) / f) - pad) * f
    x1, y1 = (math.ceil(max(xs) / f) + pad) * f, (math.ceil(max(ys) / f) + pad) * f
    w, h = x1 - x0, y1 - y0
    mask = Image.new("1", (w, h), 0)
    for poly in polys:
        layer = Image.new("1", (w, h), 0)
        if len(poly) < 3:  # a degenerate contour (some fonts have them): nothing to fill
            continue
        ImageDraw.Draw(layer).polygon([(round(x - x0 - 0.5), round(y - y0 - 0.5)) for x, y in poly], fill=1)
        mask = ImageChops.logical_xor(mask, layer)
    out = mask.convert("L")
    if bold > 0:
        # a stroke of width `bold` centred on the outline, as the SVG backend writes it
        d = ImageDraw.Draw(out)
        iw = max(1, round(bold * f))
        for poly in polys:
            pts = [(round(x - x0 - 0.5), round(y - y0 - 0.5)) for x, y in poly]
            d.line(pts + pts[:2], fill=255, width=iw, joint="curve")
    return out.reduce(f), x0 // f, y0 // f


def image(drawing: Drawing) -> Image.Image:
    """Rasterise a display list (anti-aliased by supersampling)."""
    ss = drawing.supersample
    mode = _mode(drawing)
    size = (drawing.width * ss, drawing.height * ss)
    bg = drawing.background
    if bg is None:
        fill: _Ink = (255, 0) if mode == "LA" else (255, 255, 255, 0)
    else:
        fill = _ink(bg, mode)
    root = drawing.root
    start = 0
    if root.static:
        key = (mode, size, fill, ss, root.dx, root.dy, root.items[:root.static])
        cached = _STATIC_CACHE.get(key)
        if cached is None:
            canvas = Image.new(mode, size, fill)
            p = _Painter(canvas, ss)
            for it in root.items[:root.static]:
                p.item(it, root.dx, root.dy) if not isinstance(it, Group) else p.group(it, root.dx, root.dy)
            _STATIC_CACHE[key] = canvas.copy()
            while len(_STATIC_CACHE) > _STATIC_CACHE_SIZE:
                _STATIC_CACHE.popitem(last=False)
        else:
            _STATIC_CACHE.move_to_end(key)
            canvas = cached.copy()
        start = root.static
    else:
        canvas = Image.new(mode, size, fill)
    painter = _Painter(canvas, ss)
    painter.group(root, 0.0, 0.0, start)
    return canvas.reduce(ss) if ss > 1 else canvas


_COLOUR_TYPE = {"L": 0, "RGB": 2, "LA": 4, "RGBA": 6}
"""PNG colour types of the image modes the rasteriser makes (8 bits a sample)."""


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


BIG_IMAGE = 1_000_000
"""Pixels from which :func:`png` deflates at level 6 rather than 5 by default."""


def png(drawing: Drawing, *, compress_level: int | None = None) -> bytes:
    """PNG bytes: only IHDR, pHYs (when a dpi is set), IDAT and IEND, so equal pixels give equal bytes.

    The rows are stored unfiltered (PNG filter 0) and deflated at ``compress_level``: by default 5,
    or 6 for images of :data:`BIG_IMAGE` pixels or more (the print size).  A diagram is flat colour
    with anti-aliased edges, where PNG's per-row filters do not pay: every size preset and theme comes
    out smaller than Pillow's own encoder gives at level 6, its default, in a third of its time or less
    (the default size: 20 KB, about 1.8 ms, where Pillow took 22 KB and 4-6 ms)."""
    img = image(drawing)
    if compress_level is None:
        compress_level = 6 if img.width * img.height >= BIG_IMAGE else 5
    width, height = img.size
    stride = width * len(img.getbands())
    data = img.tobytes()
    rows = b"".join([b"\0" + data[i:i + stride] for i in range(0, stride * height, stride)])
    out = [b"\x89PNG\r\n\x1a\n",
           _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, _COLOUR_TYPE[img.mode], 0, 0, 0))]
    if drawing.dpi:
        ppm = int(drawing.dpi / 0.0254 + 0.5)  # pixels per metre, rounded as Pillow rounds them
        out.append(_chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1)))
    out.append(_chunk(b"IDAT", zlib.compress(rows, compress_level)))
    out.append(_chunk(b"IEND", b""))
    return b"".join(out)
