"""A minimal TrueType reader: glyph outlines and advance widths of the shipped font.

Text in a diagram is drawn as glyph outlines, not with a font engine: the PNG backend fills the
outlines itself and the SVG backend writes them as ``<path>`` elements.  So text looks the same in
both outputs, does not depend on the FreeType version inside Pillow, and needs no font on the
machine that displays the SVG.  Only what the renderer needs is read: ``cmap`` (formats 4 and 12),
``head``, ``hhea``, ``hmtx``, ``maxp``, ``loca``, ``glyf`` (simple and composite glyphs) and the cap
height from ``OS/2``.  No hinting, no kerning (the shipped font's GPOS kerning is ignored, as
Pillow's basic layout engine does).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import cache
from pathlib import Path

Segment = tuple[float, ...]
"""``(x, y)`` a line to the point, or ``(cx, cy, x, y)`` a quadratic curve; font units, y up."""


@dataclass(frozen=True, slots=True)
class Glyph:
    advance: int
    contours: tuple[tuple[tuple[float, float], tuple[Segment, ...]], ...]
    """Each contour: its start point and the segments that follow (the contour is closed)."""

    def svg_path(self) -> str:
        """The outline as SVG path data in font units (y up), integers where possible."""
        out: list[str] = []
        for (sx, sy), segs in self.contours:
            out.append(f"M{_n(sx)} {_n(sy)}")
            for s in segs:
                if len(s) == 2:
                    out.append(f"L{_n(s[0])} {_n(s[1])}")
                else:
                    out.append(f"Q{_n(s[0])} {_n(s[1])} {_n(s[2])} {_n(s[3])}")
            out.append("Z")
        return "".join(out)

    def polygons(self, steps: int = 4) -> list[list[tuple[float, float]]]:
        """The outline flattened: each quadratic curve is cut into ``steps`` straight pieces."""
        polys: list[list[tuple[float, float]]] = []
        for (sx, sy), segs in self.contours:
            pts = [(sx, sy)]
            x0, y0 = sx, sy
            for s in segs:
                if len(s) == 2:
                    x0, y0 = s
                    pts.append((x0, y0))
                else:
                    cx, cy, x1, y1 = s
                    for k in range(1, steps + 1):
                        t = k / steps
                        a, b, c = (1 - t) * (1 - t), 2 * t * (1 - t), t * t
                        pts.append((a * x0 + b * cx + c * x1, a * y0 + b * cy + c * y1))
                    x0, y0 = x1, y1
            polys.append(pts)
        return polys


def _n(v: float) -> str:
    if v == int(v):
        return str(int(v))
    return f"{v:.1f}".rstrip("0").rstrip(".")


class Font:
    """Glyph access for one TrueType font file."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        n_tables = struct.unpack_from(">H", data, 4)[0]
        self.tables: dict[str, tuple[int, int]] = {}
        for i in range(n_tables):
            tag, _cs, off, ln = struct.unpack_from(">4sIII", data, 12 + 16 * i)
            self.tables[tag.decode("latin-1")] = (off, ln)
        head = self.tables["head"][0]
        self.units_per_em: int = struct.unpack_from(">H", data, head + 18)[0]
        self._long_loca = struct.unpack_from(">h", data, head + 50)[0] == 1
        hhea = self.tables["hhea"][0]
        self.ascender, self.descender = struct.unpack_from(">hh", data, hhea + 4)
        self._n_hmetrics: int = struct.unpack_from(">H", data, hhea + 34)[0]
        self.n_glyphs: int = struct.unpack_from(">H", data, self.tables["maxp"][0] + 4)[0]
        self._cmap = self._read_cmap()
        self.cap_height = self._read_cap_height()
        self._glyphs: dict[int, Glyph] = {}
        self._advances: dict[str, int] = {}
        self.fallbacks: list[Font] = []
        """Fonts asked, in order, for characters this one lacks."""
        self._from_fallback: dict[str, Glyph] = {}

    # ------------------------------------------------------------------ tables
    def _read_cmap(self) -> dict[int, int]:
        data = self.data
        base = self.tables["cmap"][0]
        n = struct.unpack_from(">H", data, base + 2)[0]
        best: tuple[int, int] | None = None
        for i in range(n):
            plat, enc, off = struct.unpack_from(">HHI", data, base + 4 + 8 * i)
            fmt = struct.unpack_from(">H", data, base + off)[0]
            rank = {(3, 10): 3, (3, 1): 2, (0, 3): 1, (0, 4): 1}.get((plat, enc), 0)
            if fmt in (4, 12) and (best is None or rank > best[0]):
                best = (rank, base + off)
        if best is None:
            raise ValueError("font has no usable cmap subtable")
        sub = best[1]
        fmt = struct.unpack_from(">H", data, sub)[0]
        cmap: dict[int, int] = {}
        if fmt == 4:
            seg2 = struct.unpack_from(">H", data, sub + 6)[0]
            segs = seg2 // 2
            ends = struct.unpack_from(f">{segs}H", data, sub + 14)
            starts = struct.unpack_from(f">{segs}H", data, sub + 16 + seg2)
            deltas = struct.unpack_from(f">{segs}h", data, sub + 16 + 2 * seg2)
            ro_base = sub + 16 + 3 * seg2
            ros = struct.unpack_from(f">{segs}H", data, ro_base)
            for i in range(segs):
                for c in range(starts[i], ends[i] + 1):
                    if c == 0xFFFF:
                        continue
                    if ros[i] == 0:
                        g = (c + deltas[i]) & 0xFFFF
                    else:
                        addr = ro_base + 2 * i + ros[i] + 2 * (c - starts[i])
                        g = struct.unpack_from(">H", data, addr)[0]
                        if g:
                            g = (g + deltas[i]) & 0xFFFF
                    if g:
                        cmap[c] = g
        else:
            n_groups = struct.unpack_from(">I", data, sub + 12)[0]
            for i in range(n_groups):
                start, end, g0 = struct.unpack_from(">III", data, sub + 16 + 12 * i)
                for c in range(start, end + 1):
                    cmap[c] = g0 + c - start
        return cmap

    def _read_cap_height(self) -> int:
        os2 = self.tables.get("OS/2")
        if os2 is not None:
            version = struct.unpack_from(">H", self.data, os2[0])[0]
            if version >= 2 and os2[1] >= 90:
                cap = struct.unpack_from(">h", self.data, os2[0] + 88)[0]
                if cap > 0:
                    return int(cap)
        return int(self.units_per_em * 0.7)

    def _advance(self, gid: int) -> int:
        base = self.tables["hmtx"][0]
        i = min(gid, self._n_hmetrics - 1)
        return int(struct.unpack_from(">H", self.data, base + 4 * i)[0])

    def _glyph_range(self, gid: int) -> tuple[int, int]:
        base = self.tables["loca"][0]
        if self._long_loca:
            a, b = struct.unpack_from(">II", self.data, base + 4 * gid)
        else:
            a, b = struct.unpack_from(">HH", self.data, base + 2 * gid)
            a, b = a * 2, b * 2
        g = self.tables["glyf"][0]
        return g + a, g + b

    # ------------------------------------------------------------------ glyphs
    def has(self, ch: str) -> bool:
        return ord(ch) in self._cmap

    def has_any(self, ch: str) -> bool:
        """This font or one of its fallbacks has the character."""
        return self.has(ch) or any(fb.has(ch) for fb in self.fallbacks)

    def glyph(self, ch: str) -> Glyph:
        """The glyph for a character: from this font, else from the first fallback font that has it
        (scaled to this font's units), else the ``?`` glyph, and the character is noted in
        :data:`MISSING` so that the caller can say so."""
        gid = self._cmap.get(ord(ch))
        if gid is None:
            fb = self._fallback_glyph(ch)
            if fb is not None:
                return fb
            MISSING.add(ch)
            gid = self._cmap.get(ord("?"), 0)
        g = self._glyphs.get(gid)
        if g is None:
            pts = self._points(gid, 0)
            g = Glyph(self._advance(gid), tuple(_contour_segments(c) for c in pts if c))
            self._glyphs[gid] = g
        return g

    def _fallback_glyph(self, ch: str) -> Glyph | None:
        cached = self._from_fallback.get(ch)
        if cached is not None:
            return cached
        for fb in self.fallbacks:
            if fb.has(ch):
                g = fb.glyph(ch)
                k = self.units_per_em / fb.units_per_em
                contours = tuple(((st[0] * k, st[1] * k), tuple(tuple(v * k for v in seg) for seg in segs))
                                 for st, segs in g.contours)
                scaled = Glyph(round(g.advance * k), contours)  # type: ignore[arg-type]
                self._from_fallback[ch] = scaled
                return scaled
        return None

    def _points(self, gid: int, depth: int) -> list[list[tuple[float, float, bool]]]:
        """The contours of a glyph as (x, y, on_curve) points; composites are flattened."""
        start, end = self._glyph_range(gid)
        if end <= start or depth > 8:
            return []
        data = self.data
        n_contours = struct.unpack_from(">h", data, start)[0]
        p = start + 10
        if n_contours >= 0:
            ends = struct.unpack_from(f">{n_contours}H", data, p)
            p += 2 * n_contours
            n_instr = struct.unpack_from(">H", data, p)[0]
            p += 2 + n_instr
            n_pts = ends[-1] + 1 if ends else 0
            flags: list[int] = []
            while len(flags) < n_pts:
                f = data[p]
                p += 1
                flags.append(f)
                if f & 8:
                    r = data[p]
                    p += 1
                    flags.extend([f] * r)
            xs, p = _coordinates(data, p, flags, 2, 16)
            ys, p = _coordinates(data, p, flags, 4, 32)
            contours: list[list[tuple[float, float, bool]]] = []
            s = 0
            for e in ends:
                contours.append([(float(xs[i]), float(ys[i]), bool(flags[i] & 1)) for i in range(s, e + 1)])
                s = e + 1
            return contours
        # composite glyph
        out: list[list[tuple[float, float, bool]]] = []
        while True:
            flags_c, sub = struct.unpack_from(">HH", data, p)
            p += 4
            if flags_c & 1:
                a1, a2 = struct.unpack_from(">hh" if flags_c & 2 else ">HH", data, p)
                p += 4
            else:
                a1, a2 = struct.unpack_from(">bb" if flags_c & 2 else ">BB", data, p)
                p += 2
            xx, xy, yx, yy = 1.0, 0.0, 0.0, 1.0
            if flags_c & 8:
                xx = yy = struct.unpack_from(">h", data, p)[0] / 16384
                p += 2
            elif flags_c & 0x40:
                xx, yy = (v / 16384 for v in struct.unpack_from(">hh", data, p))
                p += 4
            elif flags_c & 0x80:
                xx, xy, yx, yy = (v / 16384 for v in struct.unpack_from(">hhhh", data, p))
                p += 8
            dx, dy = (float(a1), float(a2)) if flags_c & 2 else (0.0, 0.0)
            for c in self._points(sub, depth + 1):
                out.append([(xx * x + yx * y + dx, xy * x + yy * y + dy, on) for x, y, on in c])
            if not flags_c & 0x20:
                break
        return out

    def advance(self, text: str) -> float:
        """The advance width of ``text`` in font units."""
        adv = self._advances
        total = 0
        for ch in text:
            a = adv.get(ch)
            if a is None:
                a = adv[ch] = self.glyph(ch).advance
            total += a
        return float(total)


def _coordinates(data: bytes, p: int, flags: list[int], short: int, same: int) -> tuple[list[int], int]:
    """One axis of a simple glyph's points (TrueType ``glyf``): each a delta from the one before, a byte
    (flag ``short``; ``same`` gives its sign) or a signed 16-bit word (unless ``same`` says "unchanged").
    The coordinates, and the offset after them."""
    out: list[int] = []
    v = 0
    for f in flags:
        if f & short:
            d = data[p]
            p += 1
            v += d if f & same else -d
        elif not f & same:
            v += struct.unpack_from(">h", data, p)[0]
            p += 2
        out.append(v)
    return out, p


def _contour_segments(pts: list[tuple[float, float, bool]]
                      ) -> tuple[tuple[float, float], tuple[Segment, ...]]:
    """TrueType on/off-curve points to a start point and line / quadratic segments."""
    n = len(pts)
    first = next((i for i in range(n) if pts[i][2]), None)
    if first is None:  # all off-curve: start at the midpoint of the first two
        x0 = (pts[0][0] + pts[1 % n][0]) / 2
        y0 = (pts[0][1] + pts[1 % n][1]) / 2
        seq = pts[1:] + pts[:1]
        start = (x0, y0)
    else:
        seq = pts[first + 1:] + pts[:first + 1]
        start = (pts[first][0], pts[first][1])
    segs: list[Segment] = []
    ctrl: tuple[float, float] | None = None
    for x, y, on in seq:
        if on:
            if ctrl is None:
                segs.append((x, y))
            else:
                segs.append((ctrl[0], ctrl[1], x, y))
                ctrl = None
        else:
            if ctrl is not None:
                mx, my = (ctrl[0] + x) / 2, (ctrl[1] + y) / 2
                segs.append((ctrl[0], ctrl[1], mx, my))
            ctrl = (x, y)
    if ctrl is not None:
        segs.append((ctrl[0], ctrl[1], start[0], start[1]))
    if segs and len(segs[-1]) == 2 and segs[-1] == start:
        segs.pop()
    return start, tuple(segs)


def _font_bytes(name: str) -> bytes:
    """A shipped font's bytes: beside this module (an installed package or the source tree), or through
    :mod:`importlib.resources` where the package is not made of files (a zip): that import alone takes
    about 6 ms, so it is made only then."""
    try:
        return (Path(__file__).parent / "fonts" / name).read_bytes()
    except OSError:  # pragma: no cover - a package imported from a zip
        from importlib import resources

        return resources.files("render").joinpath("fonts").joinpath(name).read_bytes()


MISSING: set[str] = set()
"""Characters no font in use has, drawn as ``?``: the command line reports them on stderr
(:func:`missing_message`)."""

_CJK = ((0x1100, 0x11FF), (0x2E80, 0x2FDF), (0x3000, 0x30FF), (0x3130, 0x318F), (0x31F0, 0x4DBF),
        (0x4E00, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF), (0x20000, 0x2FA1F))
"""Chinese, Japanese and Korean: Han, kana, Hangul, their punctuation and full-width forms."""
_CJK_FONTS = ("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
              "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
              "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",
              "/Library/Fonts/Arial Unicode.ttf", "/System/Library/Fonts/Supplemental/Arial Unicode.ttf")
"""TrueType fonts with Chinese, Japanese and Korean (``--font`` reads TrueType outlines, not the CFF of
Noto Sans CJK), where Debian (fonts-droid-fallback, fonts-ipafont-gothic) and macOS put them."""


def missing_message(chars: set[str] | None = None) -> str:
    """What the command line says of the characters no font in use has (``chars``, else
    :data:`MISSING`): which, and a font to give with ``--font``, by name and, where one is on this
    machine, by path."""
    chars = MISSING if chars is None else chars
    listed = ", ".join(f"{c!r} (U+{ord(c):04X})" for c in sorted(chars)[:12])
    more = f" and {len(chars) - 12} more" if len(chars) > 12 else ""
    head = f"no font in use has {listed}{more}: drawn as '?'"
    if any(lo <= ord(c) <= hi for c in chars for lo, hi in _CJK):
        here = next((f for f in _CJK_FONTS if Path(f).is_file()), None)
        if here is not None:
            return f"{head}; give --font {here} (a TrueType font with Chinese, Japanese and Korean)"
        return (f"{head}; give --font FILE with a TrueType font that has Chinese, Japanese and Korean, such "
                "as Droid Sans Fallback (DroidSansFallbackFull.ttf, Debian's fonts-droid-fallback) or IPAGothic "
                "(ipag.ttf, fonts-ipafont-gothic)")
    return (f"{head}; give --font FILE with a TrueType font (.ttf) that has them, such as the Noto Sans font "
            "of their script")


@cache
def default_font() -> Font:
    """Aileron Regular, the font Pillow embeds as its default (CC0), shipped in ``render/fonts``, for
    Latin text; then DejaVu Sans (also shipped: Latin with every accent, Greek, Cyrillic ...) for every
    character Aileron lacks; then fonts added with :func:`add_font`."""
    font = Font(_font_bytes("Aileron-Regular.ttf"))
    font.fallbacks.append(Font(_font_bytes("DejaVuSans.ttf")))
    return font


def add_font(path: str | Path) -> None:
    """Use the TrueType font at ``path`` (e.g. a CJK font) for characters the shipped fonts lack; it is
    asked after Aileron and DejaVu Sans.  Raises ``ValueError`` for a file that is not one."""
    data = Path(path).read_bytes()
    try:
        font = Font(data)
        if "glyf" not in font.tables:
            raise ValueError("no TrueType outlines (a 'glyf' table): CFF/OpenType-PS fonts are not supported")
    except (struct.error, KeyError, IndexError) as e:
        raise ValueError(f"{path}: not a TrueType font ({e})") from None
    d = default_font()
    d.fallbacks.append(font)
    d._from_fallback.clear()
    d._advances.clear()
