"""The SVG backend: a display list to a standalone SVG document.

Text is written as glyph outlines (``<path>`` in ``<defs>``, placed with ``<use>``), so the SVG
needs no font on the viewer's machine and looks like the PNG.  The output is deterministic: no
time stamps, no counters, numbers rounded to two decimals, attributes in a fixed order.
"""

from __future__ import annotations

import math
import re

from ._font import default_font
from .display import Circle, Color, Drawing, Glyphs, Group, Item, Polygon, Polyline, Rect

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
"""The characters XML 1.0 does not allow in a document at all, even as references."""


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as XML entities (what ``xml.sax.saxutils.escape`` does; importing that
    module imports ``urllib.request``, ``http.client`` and ``email``: about 20 ms of every command), and
    each character XML cannot hold (a control character, U+FFFE, a lone surrogate) as U+FFFD, so that
    the document stays well-formed whatever a title or a name holds."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _NOT_XML.sub("\ufffd", text) if _NOT_XML.search(text) else text


class SvgString(str):
    """An SVG document; Jupyter shows it as an image."""

    def _repr_svg_(self) -> str:
        return str(self)


def _f(v: float) -> str:
    s = f"{v:.2f}"
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def _c(c: Color | None) -> str:
    if c is None:
        return "none"
    return f"#{c[0]:02x}{c[1]:02x}{c[2]:02x}"


def _glyph_id(ch: str) -> str:
    return f"bgd-g{ord(ch):x}"


class _Writer:
    def __init__(self) -> None:
        self.out: list[str] = []
        self.used: dict[str, None] = {}

    def group(self, g: Group, indent: str) -> None:
        moved = g.dx != 0 or g.dy != 0
        if moved:
            self.out.append(f'{indent}<g transform="translate({_f(g.dx)} {_f(g.dy)})">')
            indent += "  "
        for it in g.items:
            if isinstance(it, Group):
                self.group(it, indent)
            else:
                self.item(it, indent)
        if moved:
            self.out.append(f"{indent[:-2]}</g>")

    def item(self, it: Item, ind: str) -> None:
        o = self.out
        if isinstance(it, Rect):
            rx = f' rx="{_f(it.radius)}"' if it.radius > 0 else ""
            dash = ""
            if it.dashes and it.stroke is not None:
                r = min(it.radius, it.w / 2, it.h / 2)
                period = (2 * (it.w + it.h - 4 * r) + 2 * math.pi * r) / it.dashes
                dash = f' stroke-dasharray="{_f(period * 0.55)} {_f(period * 0.45)}" stroke-linecap="round"'
            o.append(f'{ind}<rect x="{_f(it.x)}" y="{_f(it.y)}" width="{_f(it.w)}" height="{_f(it.h)}"{rx}'
                     f' fill="{_c(it.fill)}"{_stroke(it.stroke, it.width)}{dash}/>')
        elif isinstance(it, Circle):
            dash = ""
            if it.dashes and it.stroke is not None:
                circ = 2 * math.pi * it.r / it.dashes
                dash = f' stroke-dasharray="{_f(circ * 0.55)} {_f(circ * 0.45)}"'
            o.append(f'{ind}<circle cx="{_f(it.cx)}" cy="{_f(it.cy)}" r="{_f(it.r)}" fill="{_c(it.fill)}"'
                     f'{_stroke(it.stroke, it.width)}{dash}/>')
        elif isinstance(it, Polygon):
            pts = " ".join(f"{_f(x)},{_f(y)}" for x, y in it.points)
            join = ' stroke-linejoin="round"' if it.stroke is not None and it.width > 0 else ""
            o.append(f'{ind}<polygon points="{pts}" fill="{_c(it.fill)}"'
                     f'{_stroke(it.stroke, it.width)}{join}/>')
        elif isinstance(it, Polyline):
            cap = ' stroke-linecap="round" stroke-linejoin="round"'
            if it.curve is not None:
                (ax, ay), (cx, cy), (bx, by) = it.curve
                d = f"M{_f(ax)} {_f(ay)}Q{_f(cx)} {_f(cy)} {_f(bx)} {_f(by)}"
                o.append(f'{ind}<path d="{d}" fill="none"{_stroke(it.stroke, it.width)}{cap}/>')
            else:
                pts = " ".join(f"{_f(x)},{_f(y)}" for x, y in it.points)
                o.append(f'{ind}<polyline points="{pts}" fill="none"{_stroke(it.stroke, it.width)}{cap}/>')
        elif isinstance(it, Glyphs):
            if not it.chars:
                return
            font = default_font()
            scale = it.size / font.units_per_em
            bold = ""
            if it.bold > 0:
                bold = (f' stroke="{_c(it.fill)}" stroke-width="{_f(it.bold / scale)}"'
                        f' stroke-linejoin="round"')
            o.append(f'{ind}<g fill="{_c(it.fill)}"{bold}>')
            for ch, x, y in it.chars:
                self.used[ch] = None
                o.append(f'{ind}  <use xlink:href="#{_glyph_id(ch)}" transform="matrix({scale:.5f} 0 0 '
                         f'{-scale:.5f} {_f(x)} {_f(y)})"/>')
            o.append(f"{ind}</g>")


def _stroke(c: Color | None, w: float) -> str:
    if c is None or w <= 0:
        return ""
    return f' stroke="{_c(c)}" stroke-width="{_f(w)}"'


def svg(drawing: Drawing) -> SvgString:
    """A standalone SVG document (UTF-8 text, ``viewBox`` in output pixels)."""
    w = _Writer()
    w.group(drawing.root, "  ")
    font = default_font()
    head = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'width="{drawing.width}" height="{drawing.height}" viewBox="0 0 {drawing.width} {drawing.height}" '
        f'role="img">',
        f"  <title>{escape(drawing.title)}</title>",
    ]
    desc = drawing.description()
    if desc:
        head.append(f"  <desc>{escape(desc)}</desc>")
    if w.used:
        head.append("  <defs>")
        for ch in sorted(w.used):
            head.append(f'    <path id="{_glyph_id(ch)}" d="{font.glyph(ch).svg_path()}"/>')
        head.append("  </defs>")
    if drawing.background is not None:
        head.append(f'  <rect width="{drawing.width}" height="{drawing.height}" '
                    f'fill="{_c(drawing.background)}"/>')
    return SvgString("\n".join(head + w.out + ["</svg>", ""]))
