"""The geometry of a diagram, computed once: a position and options in, a display list out.

Every length is a multiple of ``u``, the checker diameter in output pixels.  Board, left to right
(home board on the right): frame, cube rail, outer board (6 points), bar, home board (6 points),
tray rail, frame.  Point numbers above and below, optional player lines (name, score, pips) and a
caption.  See :func:`layout` for the options.
"""

from __future__ import annotations

import itertools
import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from notation.position import Position

from ._font import Font, default_font
from .display import Circle, Color, Drawing, Glyphs, Group, Item, Point, Polygon, Polyline, Rect
from .themes import Theme, get_theme

SIZES: dict[str, float] = {"small": 24.0, "medium": 36.0, "large": 60.0}
"""Size presets: the checker diameter ``u`` in pixels."""
PRINT_WIDTH_MM = 120.0
"""The ``print`` size preset: this wide at ``dpi`` (300 unless given)."""

POINT_MAX = 5
"""Checkers drawn on a point; with more, the count is written on the last one drawn."""
BAR_MAX = 4
COLOUR_NAMES = ("White", "Black")

# geometry, in units of u
MARGIN = 0.22
FRAME = 0.16
RAIL = 1.3
BAR = 1.3
GAP = 1.5
POINT_LEN = 4.6
NUMBERS = 0.62
NUMBERS_BOTH = 1.05
NUMBERS_ALT_SIZE = 0.36
"""The other side's numbers (``numbers="both"``): 0.36 u is 7.3 pt at the print preset."""
INFO = 0.7
CAPTION_SIZE = 0.46
CAPTION_LINE = 0.64
HEADING_SIZE = 0.56
HEADING_LINE = 0.78
TRAY_INSET = 0.13
CUBE = 0.9
DIE = 0.82
ARROW_WIDTH = 0.085
ARROW_HEAD = 0.42
GRID_GAP = 0.8


Arrow = tuple[int, int, bool]
"""(from, to, hit) in the mover's numbering: 25 = bar, 0 = off."""
_Shaft = tuple[Point, Point, Point, float, float]
"""An arrow's curve (start, control, end), how far short of the end its tip stops, its head's scale."""
_Ghost = tuple[str, float, float, str]
"""Where a moved checker lands: (kind, x, y, count), kind ``disc`` (a dashed checker), ``slab`` (a dashed
slab in the tray), ``gap`` (beyond a full stack) or ``over`` (on a full stack's top checker); count:
the checkers on the point after the play, for the last two."""
_Sim = tuple[list[_Shaft], list[_Ghost], list[Point]]
"""Arrows, ghosts, hit blots."""
_Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Options:
    """Everything that changes how a diagram looks.  See :func:`layout`."""

    size: str = "medium"
    u: float | None = None
    width: int | None = None
    dpi: int | None = None
    home: str = "right"
    bottom: int | str = "on_roll"
    numbers: str = "viewer"
    theme: Theme = field(default_factory=lambda: get_theme("print"))
    dice: tuple[int, int] | None = None
    show_dice: bool = True
    show_cube: bool = True
    names: bool | tuple[str, str] = False
    pips: bool = False
    score: bool = False
    caption: str | None = None
    captions: tuple[str, ...] | None = None
    plays: tuple[str, ...] = ()
    arrows: tuple[Arrow, ...] = ()
    ghosts: bool = True
    direction: bool = False
    columns: int | None = None
    title: str | None = None
    heading: str | None = None
    transparent: bool = False


def make_options(**kwargs: Any) -> Options:
    """Options from keywords, checked; unknown keywords and bad values raise ValueError."""
    known = set(Options.__dataclass_fields__) | {"play"}
    unknown = sorted(set(kwargs) - known)
    if unknown:
        raise ValueError(f"unknown option(s): {', '.join(unknown)}")
    kw = dict(kwargs)
    play = kw.pop("play", None)
    if play is not None:
        if isinstance(play, str):
            kw["plays"] = (play,)
        else:
            kw["plays"] = tuple(play)
    if "plays" in kw and isinstance(kw["plays"], str):
        kw["plays"] = (kw["plays"],)
    if "plays" in kw:
        kw["plays"] = tuple(kw["plays"])
    if "theme" in kw:
        kw["theme"] = get_theme(kw["theme"])
    if "arrows" in kw:
        kw["arrows"] = tuple(_arrow(a) for a in kw["arrows"])
    if "captions" in kw and kw["captions"] is not None:
        kw["captions"] = tuple(kw["captions"])
    if isinstance(kw.get("names"), list):
        kw["names"] = tuple(kw["names"])
    if isinstance(kw.get("names"), tuple) and (len(kw["names"]) != 2
                                                or not all(isinstance(n, str) for n in kw["names"])):
        raise ValueError(f"names must be True/False or two strings (White's, Black's), not {kw['names']!r}")
    if "dice" in kw and kw["dice"] is not None:
        kw["dice"] = parse_dice(kw["dice"])
    opts = Options(**kw)
    if opts.size not in SIZES and opts.size != "print":
        raise ValueError(f"unknown size {opts.size!r} (known: {', '.join([*SIZES, 'print'])})")
    if opts.home not in ("right", "left"):
        raise ValueError(f"home must be 'right' or 'left', not {opts.home!r}")
    if opts.numbers not in ("viewer", "both", "none"):
        raise ValueError(f"numbers must be 'viewer', 'both' or 'none', not {opts.numbers!r}")
    _bottom_player(opts.bottom, 0)
    if opts.u is not None and not 4 <= opts.u <= 1000:
        raise ValueError(f"checker size u={opts.u} is not 4..1000 pixels")
    if opts.width is not None and not 64 <= opts.width <= 20000:
        raise ValueError(f"width {opts.width} is not 64..20000 pixels")
    if opts.dpi is not None and not 10 <= opts.dpi <= 4800:
        raise ValueError(f"dpi {opts.dpi} is not 10..4800")
    if opts.columns is not None and opts.columns < 1:
        raise ValueError("columns must be at least 1")
    return opts


def parse_dice(dice: object) -> tuple[int, int]:
    """``"53"``, ``"5-3"``, ``(5, 3)`` → ``(5, 3)``."""
    if isinstance(dice, str):
        digits = [c for c in dice if c.isdigit()]
        if len(digits) != 2 or len(digits) != len(dice.replace("-", "").replace(" ", "")):
            raise ValueError(f"dice {dice!r} are not two digits such as 53 or 5-3")
        d = (int(digits[0]), int(digits[1]))
    elif isinstance(dice, Sequence) and len(dice) == 2 and all(isinstance(x, int) for x in dice):
        d = (int(dice[0]), int(dice[1]))
    else:
        raise ValueError(f"dice {dice!r} are not two numbers")
    if not all(1 <= x <= 6 for x in d):
        raise ValueError(f"dice {dice!r} are not 1..6")
    return d


def _arrow(a: Sequence[Any]) -> Arrow:
    if len(a) not in (2, 3):
        raise ValueError(f"arrow {a!r} is not (from, to) or (from, to, hit)")
    s, t = int(a[0]), int(a[1])
    if not (0 <= t < s <= 25):
        raise ValueError(f"arrow {a!r}: from must be 1..25 and to 0..from-1")
    return s, t, bool(a[2]) if len(a) == 3 else False


def _bottom_player(bottom: int | str, turn: int) -> int:
    if isinstance(bottom, int) and bottom in (0, 1):
        return bottom
    if isinstance(bottom, str):
        key = bottom.lower().replace("_", "-")
        if key in ("on-roll", "roll", "turn"):
            return turn if turn in (0, 1) else 0
        if key in ("0", "o", "white", "w"):
            return 0
        if key in ("1", "x", "black", "b"):
            return 1
    raise ValueError(f"bottom must be 'on_roll', 0/'white' or 1/'black', not {bottom!r}")


# --------------------------------------------------------------------------- text


class _Text:
    def __init__(self, font: Font, snap: int = 1) -> None:
        self.font = font
        self.snap = snap
        """Glyph origins are rounded to 1/snap px (the PNG backend's supersampling grid)."""

    def width(self, s: str, size: float) -> float:
        return self.font.advance(s) * size / self.font.units_per_em

    def glyphs(self, s: str, x: float, y: float, size: float, fill: Color, *, anchor: str = "mm",
               bold: float = 0.0) -> Glyphs:
        """Text placed by ``anchor``: horizontal l/m/r, vertical m (middle of capitals) or s (baseline)."""
        scale = size / self.font.units_per_em
        w = self.font.advance(s) * scale
        h, v = anchor[0], anchor[1]
        x0 = x - (w / 2 if h == "m" else w if h == "r" else 0.0)
        base = y + self.font.cap_height * scale / 2 if v == "m" else y
        chars = []
        q = self.snap
        base = round(base * q) / q
        for ch in s:
            if ch != " ":
                chars.append((ch, round(x0 * q) / q, base))
            x0 += self.font.glyph(ch).advance * scale
        return Glyphs(tuple(chars), size, fill, bold)

    def wrap(self, s: str, size: float, max_width: float) -> list[str]:
        lines: list[str] = []
        for para in s.split("\n"):
            cur = ""
            for word in para.split():
                trial = f"{cur} {word}" if cur else word
                if cur and self.width(trial, size) > max_width:
                    lines.append(cur)
                    cur = word
                else:
                    cur = trial
            lines.append(cur)
        return lines


_ASCII = {"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u00d7": "x", "\u2192": "->", "\u00bd": "1/2",
          "\u2044": "/"}


def _ascii(s: str) -> str:
    """Typographic characters that no font in use has, as ASCII; every other character as it is."""
    font = default_font()
    return "".join(c if c not in _ASCII or font.has_any(c) else _ASCII[c] for c in s)


# --------------------------------------------------------------------------- board geometry


@dataclass(slots=True)
class _Geo:
    u: float
    home_right: bool
    numbers: str
    info: bool
    caption_lines: int
    # computed
    width: float = 0.0
    height: float = 0.0
    bx0: float = 0.0
    by0: float = 0.0
    bx1: float = 0.0
    by1: float = 0.0
    fy0: float = 0.0
    fy1: float = 0.0
    cy: float = 0.0
    left_field: float = 0.0
    right_field: float = 0.0
    bar_x: float = 0.0
    cube_rail: tuple[float, float] = (0.0, 0.0)
    tray_rail: tuple[float, float] = (0.0, 0.0)

    def __post_init__(self) -> None:
        u = self.u
        nb = _numbers_band(self.numbers) * u
        ib = INFO * u if self.info else 0.0
        self.bx0 = MARGIN * u
        self.by0 = MARGIN * u + ib + nb
        board_w = 2 * FRAME * u + 2 * RAIL * u + 12 * u + BAR * u
        board_h = 2 * FRAME * u + 10 * u + GAP * u
        self.bx1 = self.bx0 + board_w
        self.by1 = self.by0 + board_h
        self.fy0 = self.by0 + FRAME * u
        self.fy1 = self.by1 - FRAME * u
        self.cy = (self.fy0 + self.fy1) / 2
        rail_l = (self.bx0 + FRAME * u, self.bx0 + FRAME * u + RAIL * u)
        rail_r = (self.bx1 - FRAME * u - RAIL * u, self.bx1 - FRAME * u)
        self.left_field = rail_l[1]
        self.bar_x = self.left_field + 6 * u
        self.right_field = self.bar_x + BAR * u
        if self.home_right:
            self.cube_rail, self.tray_rail = rail_l, rail_r
        else:
            self.cube_rail, self.tray_rail = rail_r, rail_l
        self.width = self.bx1 + MARGIN * u
        cap = (0.25 * u + self.caption_lines * CAPTION_LINE * u) if self.caption_lines else 0.0
        self.height = self.by1 + nb + ib + cap + MARGIN * u

    @property
    def bar_cx(self) -> float:
        return self.bar_x + BAR * self.u / 2

    def col_x(self, col: int) -> float:
        """Centre x of screen column 0..11 (left to right)."""
        u = self.u
        if col < 6:
            return self.left_field + (col + 0.5) * u
        return self.right_field + (col - 6 + 0.5) * u

    def point_col(self, p: int) -> tuple[int, bool]:
        """Screen column and row (True = top) of the bottom player's point ``p``."""
        if p <= 12:
            col, top = 12 - p, False
        else:
            col, top = p - 13, True
        if not self.home_right:
            col = 11 - col
        return col, top

    def slot(self, p: int, k: int) -> Point:
        """Centre of the k-th checker (0 = at the edge) on the bottom player's point ``p``."""
        col, top = self.point_col(p)
        k = min(k, POINT_MAX - 1)
        y = self.fy0 + (k + 0.5) * self.u if top else self.fy1 - (k + 0.5) * self.u
        return self.col_x(col), y

    def bar_slot(self, bottom_side: bool, k: int) -> Point:
        """Centre of the k-th bar checker; the bottom player's are in the upper half."""
        k = min(k, BAR_MAX - 1)
        off = GAP * self.u / 2 + (k + 0.5) * self.u + 0.1 * self.u
        return self.bar_cx, self.cy - off if bottom_side else self.cy + off

    def tray_box(self, bottom_side: bool) -> tuple[float, float, float, float]:
        u = self.u
        x0, x1 = self.tray_rail
        ins = TRAY_INSET * u
        if bottom_side:
            return x0 + ins, self.fy1 - 5 * u, x1 - ins, self.fy1
        return x0 + ins, self.fy0, x1 - ins, self.fy0 + 5 * u

    def slab_h(self, checkers: int) -> float:
        return 4.35 * self.u / max(checkers, 15)

    def off_slot(self, bottom_side: bool, k: int, checkers: int) -> Point:
        x0, y0, x1, y1 = self.tray_box(bottom_side)
        t = self.slab_h(checkers)
        if bottom_side:
            return (x0 + x1) / 2, y1 - (k + 0.5) * t
        return (x0 + x1) / 2, y0 + (k + 0.5) * t


# --------------------------------------------------------------------------- the board builder


class _Board:
    """Builds the items of one board."""

    def __init__(self, position: Position, opts: Options, geo: _Geo, text: _Text,
                 caption: str | None, arrows: Sequence[Arrow], mover: int) -> None:
        self.pos = position
        self.o = opts
        self.g = geo
        self.t = text
        self.th = opts.theme
        self.u = geo.u
        self.lw = self.th.line * geo.u / 36
        self.bottom = _bottom_player(opts.bottom, position.turn)
        self.caption = caption
        self.arrows = arrows
        self.mover = mover
        self.static: list[Item] = []
        self.items: list[Item] = []
        self.checkers_at = 0
        self.counted: set[Point] = set()
        """Checkers with a count on them that an arrow leaves from."""
        self.chained: set[Point] = set()
        """Where a step of a chain starts (where the step before it landed)."""

    # ------------------------------------------------------------ helpers
    def side(self, player: int) -> bool:
        """True when ``player`` sits at the bottom."""
        return player == self.bottom

    def to_bottom_numbering(self, player: int, p: int) -> int:
        return p if player == self.bottom else 25 - p

    def checker(self, out: list[Item], x: float, y: float, player: int, *, r: float | None = None) -> None:
        th, u = self.th, self.u
        r = u / 2 - self.lw * 0.3 if r is None else r
        out.append(Circle(x, y, r - self.lw / 2, th.checker[player], th.checker_line[player], self.lw * 1.1))
        if th.checker_ring is not None:
            out.append(Circle(x, y, r * 0.66, None, th.checker_ring[player], self.lw * 0.9))

    def count(self, out: list[Item], x: float, y: float, n: int, player: int) -> None:
        size = 0.5 * self.u if n < 10 else 0.46 * self.u
        out.append(self.t.glyphs(str(n), x, y, size, self.th.checker_text[player], bold=0.03 * self.u))

    # ------------------------------------------------------------ static board
    def board(self) -> None:
        g, th, u, lw, out = self.g, self.th, self.u, self.lw, self.static
        out.append(Rect(g.bx0, g.by0, g.bx1 - g.bx0, g.by1 - g.by0, th.frame, th.frame_line, lw * 1.6))
        for x0 in (g.left_field, g.right_field):
            out.append(Rect(x0, g.fy0, 6 * u, g.fy1 - g.fy0, th.field, th.frame_line, lw))
        for bottom_side in (False, True):
            x0, y0, x1, y1 = g.tray_box(bottom_side)
            out.append(Rect(x0, y0, x1 - x0, y1 - y0, th.tray, th.tray_line, lw))
        # points
        for col in range(12):
            for top in (True, False):
                colour = th.point_a if (col + (0 if top else 1)) % 2 == 0 else th.point_b
                x = g.col_x(col)
                y0 = g.fy0 if top else g.fy1
                tip = y0 + POINT_LEN * u if top else y0 - POINT_LEN * u
                h = u / 2 - lw * 0.2
                pts = ((x - h, y0), (x + h, y0), (x, tip))
                out.append(Polygon(pts, colour, th.point_line, lw if th.point_line else 0.0))
        self.numbers_band()

    def numbers_band(self) -> None:
        g, th, u, out = self.g, self.th, self.u, self.static
        if self.o.numbers == "none":
            return
        size = 0.4 * u
        both = self.o.numbers == "both"
        bold = th.digits_bold * u / 36
        for p in range(1, 25):
            col, top = g.point_col(p)
            x = g.col_x(col)
            if top:
                y = g.by0 - (0.32 * u)
                y_alt = g.by0 - 0.8 * u
            else:
                y = g.by1 + 0.32 * u
                y_alt = g.by1 + 0.8 * u
            out.append(self.t.glyphs(str(p), x, y, size, th.number, bold=bold))
            if both:
                out.append(self.t.glyphs(str(25 - p), x, y_alt, NUMBERS_ALT_SIZE * u, th.number_alt, bold=bold))

    # ------------------------------------------------------------ position
    def position(self) -> None:
        pos, g, out = self.pos, self.g, self.items
        self.checkers_at = len(out)
        for player in (0, 1):
            bside = self.side(player)
            board = pos.boards[player]
            for p in range(1, 25):
                n = board[p]
                if n <= 0:
                    continue
                bp = self.to_bottom_numbering(player, p)
                shown = min(n, POINT_MAX)
                for k in range(shown):
                    x, y = g.slot(bp, k)
                    self.checker(out, x, y, player)
                if n > POINT_MAX:
                    x, y = g.slot(bp, POINT_MAX - 1)
                    self.count(out, x, y, n, player)
            n = board[25]
            if n > 0:
                for k in range(min(n, BAR_MAX)):
                    x, y = g.bar_slot(bside, k)
                    self.checker(out, x, y, player)
                if n > BAR_MAX:
                    x, y = g.bar_slot(bside, BAR_MAX - 1)
                    self.count(out, x, y, n, player)
            self.borne_off(player, board[0])
            self.waiting(player, self.pos.rules.checkers - sum(board))

    def waiting(self, player: int, n: int) -> None:
        """Checkers not yet entered (Acey-Deucey): round checkers standing in the tray, with the count.
        (Bearing off needs every checker home, so the tray never holds both kinds.)"""
        if n <= 0:
            return
        g, u = self.g, self.u
        bside = self.side(player)
        x0, y0, x1, y1 = g.tray_box(bside)
        cx = (x0 + x1) / 2
        cy = 0.0
        for k in range(min(n, 5)):
            cy = y1 - (k + 0.5) * u if bside else y0 + (k + 0.5) * u
            self.checker(self.items, cx, cy, player)
        if n > 1:
            self.count(self.items, cx, cy, n, player)

    def borne_off(self, player: int, n: int) -> None:
        if n <= 0:
            return
        g, th, u, out = self.g, self.th, self.u, self.items
        bside = self.side(player)
        total = pos_checkers(self.pos)
        x0, y0, x1, y1 = g.tray_box(bside)
        t = g.slab_h(total)
        w = (x1 - x0) - 0.14 * u
        lw = self.lw
        for k in range(min(n, max(total, 15))):
            cx, cy = g.off_slot(bside, k, total)
            out.append(Rect(cx - w / 2 + lw / 2, cy - t / 2 + lw / 2, w - lw, t - lw, th.checker[player],
                            th.checker_line[player], lw, radius=min(t / 2, 0.12 * u)))
        # the count, at the tray's end nearest the middle of the board
        ly = y0 + 0.3 * u if bside else y1 - 0.3 * u
        out.append(self.t.glyphs(str(n), (x0 + x1) / 2, ly, 0.4 * u, th.text, bold=0.02 * u))

    def cube(self) -> None:
        pos, g, th, u, out = self.pos, self.g, self.th, self.u, self.items
        if not self.o.show_cube or (pos.max_cube == 0 and not pos.crawford and not pos.double_offered):
            return  # the cube is not in play (cubeless), or not wanted
        rx = (g.cube_rail[0] + g.cube_rail[1]) / 2
        if pos.crawford:
            size = 0.3 * u
            out.append(Rect(rx - 0.55 * u, g.cy - 0.45 * u, 1.1 * u, 0.9 * u, th.cube, th.cube_line, self.lw,
                            radius=0.12 * u))
            out.append(self.t.glyphs("CRAW", rx, g.cy - 0.18 * u, size, th.cube_text, bold=0.015 * u))
            out.append(self.t.glyphs("FORD", rx, g.cy + 0.18 * u, size, th.cube_text, bold=0.015 * u))
            return
        if pos.double_offered:
            # The cube that is offered stands in the doubler's half of the board.
            offerer = pos.turn
            value = pos.cube * 2
            cx = (g.right_field + 3 * u) if self.side(offerer) else (g.left_field + 3 * u)
            self.cube_at(cx, g.cy, value)
            return
        owner = pos.cube_owner
        value = pos.cube
        margin = 0.12 * u + CUBE * u / 2
        if owner is None:
            cy = g.cy
            value = 64 if value == 1 else value
        elif self.side(owner):
            cy = g.fy1 - margin
        else:
            cy = g.fy0 + margin
        self.cube_at(rx, cy, value)

    def cube_at(self, cx: float, cy: float, value: int) -> None:
        th, u, out = self.th, self.u, self.items
        s = CUBE * u
        out.append(Rect(cx - s / 2, cy - s / 2, s, s, th.cube, th.cube_line, self.lw * 1.3, radius=0.14 * u))
        label = str(value)
        size = 0.5 * u
        maxw = s * 0.8
        w = self.t.width(label, size)
        if w > maxw:
            size *= maxw / w
        out.append(self.t.glyphs(label, cx, cy, size, th.cube_text, bold=0.03 * u))

    def dice(self) -> None:
        pos, g, u = self.pos, self.g, self.u
        dice = self.o.dice if self.o.dice is not None else pos.dice
        if not self.o.show_dice or dice is None or pos.double_offered:
            return
        roller = pos.turn
        half_x = (g.right_field if self.side(roller) else g.left_field) + 3 * u
        s = DIE * u
        gap = 0.22 * u
        for i, d in enumerate(dice):
            cx = half_x + (i - 0.5) * (s + gap)
            self.die(cx, g.cy, d, roller)

    def dice_box(self) -> tuple[float, float, float, float] | None:
        """The rectangle the dice (or an offered cube) take on the centre line, or None."""
        pos, g, u = self.pos, self.g, self.u
        if pos.double_offered and self.o.show_cube:
            cx = (g.right_field + 3 * u) if self.side(pos.turn) else (g.left_field + 3 * u)
            h = CUBE * u / 2
            return cx - h, g.cy - h, cx + h, g.cy + h
        dice = self.o.dice if self.o.dice is not None else pos.dice
        if not self.o.show_dice or dice is None:
            return None
        half_x = (g.right_field if self.side(pos.turn) else g.left_field) + 3 * u
        s, gap = DIE * u, 0.22 * u
        return half_x - s - gap / 2, g.cy - s / 2, half_x + s + gap / 2, g.cy + s / 2

    def centre_is_taken(self) -> bool:
        return self.dice_box() is not None

    def die(self, cx: float, cy: float, value: int, player: int) -> None:
        th, u, out = self.th, self.u, self.items
        s = DIE * u
        out.append(Rect(cx - s / 2, cy - s / 2, s, s, th.die[player], th.die_line[player], self.lw * 1.3,
                        radius=0.16 * s))
        o = 0.27 * s
        spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
                 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
                 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[value]
        for dx, dy in spots:
            out.append(Circle(cx + dx * o, cy + dy * o, 0.095 * s, th.pip[player]))

    # ------------------------------------------------------------ player lines and caption
    def player_name(self, player: int) -> str:
        names = self.o.names
        if isinstance(names, tuple):
            return _ascii(names[player]) or COLOUR_NAMES[player]
        if names:
            return _ascii(self.pos.names[player]) or COLOUR_NAMES[player]
        return COLOUR_NAMES[player]

    def match_label(self) -> str:
        pos = self.pos
        if not self.o.score:
            return ""
        if pos.match_length:
            return f"{pos.match_length}-point match" + (", Crawford game" if pos.crawford else "")
        return "Money game"

    def info(self) -> None:
        """A line above and below the board: the player's checker, name, score and pip count."""
        if not self.g.info:
            return
        g, th, u, out = self.g, self.th, self.u, self.items
        size = 0.4 * u
        nb = _numbers_band(self.o.numbers) * u
        centre_label = self.match_label()
        for player in (0, 1):
            bside = self.side(player)
            y = g.by1 + nb + INFO * u / 2 if bside else g.by0 - nb - INFO * u / 2
            x = g.bx0 + 0.05 * u
            r = 0.2 * u
            out.append(Circle(x + r, y, r - self.lw / 2, th.checker[player], th.checker_line[player],
                              self.lw))
            name, right = self._line_texts(player)
            out.append(self.t.glyphs(name, x + 2 * r + 0.2 * u, y, size, th.text, anchor="lm"))
            if right:
                out.append(self.t.glyphs(right, g.bx1 - 0.05 * u, y, size, th.text, anchor="rm"))
            if not bside and centre_label and self.match_label_fits():
                out.append(self.t.glyphs(centre_label, (g.bx0 + g.bx1) / 2, y, size, th.text))

    def _line_texts(self, player: int) -> tuple[str, str]:
        pos = self.pos
        name = self.player_name(player)
        if pos.turn == player and pos.double_offered:
            name += "  (doubles)"
        elif pos.turn == player and (pos.dice is not None or self.o.dice is not None or self.arrows):
            name += "  (on roll)"
        right: list[str] = []
        if self.o.score and pos.match_length:
            right.append(f"Score {pos.score[player]}")
        if self.o.pips:
            right.append(f"Pips {pos.pips(player)}")
        return name, "     ".join(right)

    def match_label_fits(self) -> bool:
        """The match length fits in the middle of the top player's line (else it goes in the caption)."""
        label = self.match_label()
        if not label or not self.g.info:
            return False
        g, u = self.g, self.u
        size = 0.4 * u
        top = 1 - self.bottom
        name, right = self._line_texts(top)
        w = self.t.width(label, size)
        mid = (g.bx0 + g.bx1) / 2
        left_end = g.bx0 + 0.65 * u + self.t.width(name, size)
        right_start = g.bx1 - 0.05 * u - (self.t.width(right, size) if right else 0.0)
        return mid - w / 2 > left_end + 0.4 * u and mid + w / 2 < right_start - 0.4 * u

    def caption_text(self) -> str:
        parts = []
        if self.g.info and self.match_label() and not self.match_label_fits():
            parts.append(self.match_label() + ".")
        if self.caption:
            parts.append(_ascii(self.caption))
        return " ".join(parts)

    def caption_items(self) -> None:
        text = self.caption_text()
        if not text:
            return
        g, th, u = self.g, self.th, self.u
        size = CAPTION_SIZE * u
        nb = _numbers_band(self.o.numbers) * u
        ib = INFO * u if self.g.info else 0.0
        lines = self.t.wrap(text, size, g.bx1 - g.bx0)
        y = g.by1 + nb + ib + 0.25 * u + CAPTION_LINE * u / 2
        for line in lines:
            self.items.append(self.t.glyphs(line, (g.bx0 + g.bx1) / 2, y, size, th.text))
            y += CAPTION_LINE * u

    # ------------------------------------------------------------ arrows
    def arrow_items(self) -> None:
        if not self.arrows:
            return
        pos, g, th, u = self.pos, self.g, self.th, self.u
        mover = self.mover
        mside = self.side(mover)
        total = pos_checkers(pos)
        # One path per checker: a step from where an earlier step of the play landed continues it.
        paths: list[list[Arrow]] = []
        for step in self.arrows:
            for path in reversed(paths):
                if path[-1][1] == step[0] and step[0] != 0:
                    path.append(step)
                    break
            else:
                paths.append([step])
        # Which checker of a stack leaves first, and which slot of a point each arrival takes, decide
        # whether arrows cross: try the orders (a play has at most four paths) and keep the first
        # with the fewest crossings, starting from "shorter paths leave from the top and land lowest".
        base = sorted(range(len(paths)), key=lambda i: (paths[i][0][0] - paths[i][-1][1], i))
        orders = [tuple(base)]
        if 1 < len(paths) <= 4:
            orders += [tuple(base[k] for k in perm) for perm in itertools.permutations(range(len(paths)))][1:]
        best: tuple[int, int] | None = None
        chosen: _Sim | None = None
        for n, order in enumerate(orders):
            sim = self._simulate(paths, order, list(pos.boards[mover]), list(pos.boards[1 - mover]),
                                 mover, mside, total)
            score = (_crossings([(a, c, b) for a, c, b, _s, _k in sim[0]]), n)
            if best is None or score < best:
                best, chosen = score, sim
            if score[0] == 0:
                break
        assert chosen is not None
        shafts, ghosts, hits = chosen
        shafts = self.route(shafts, ghosts)
        out = self.items
        lw = ARROW_WIDTH * u
        halo = max(0.05 * u, 1.2 * self.lw)
        if self.o.ghosts:
            slab = g.slab_h(total)
            w = (g.tray_box(True)[2] - g.tray_box(True)[0]) - 0.14 * u
            for kind, x, y, label in ghosts:
                if kind == "slab":  # a checker borne off: a dashed slab where it lands in the tray
                    sw, sh = w - self.lw, slab - self.lw
                    r = min(slab / 2, 0.12 * u)
                    perimeter = 2 * (sw + sh - 4 * r) + 2 * math.pi * r
                    out.append(Rect(x - w / 2 + self.lw / 2, y - slab / 2 + self.lw / 2, sw, sh, None, th.arrow,
                                    self.lw * 1.2, radius=r, dashes=max(6, round(perimeter / (0.22 * u)))))
                    continue
                if kind == "over":  # no room beyond the stack: the count after the play, ringed
                    self.checker(out, x, y, mover)
                    self.count(out, x, y, int(label), mover)
                    out.append(Circle(x, y, u / 2 + self.lw, None, th.arrow, self.lw * 1.3, dashes=12))
                    continue
                if label:  # beyond a stack of five: the checker in the gap, with the count after the play
                    out.append(Circle(x, y, u / 2 - self.lw, th.field, None))
                out.append(Circle(x, y, u / 2 - self.lw, None, th.arrow, self.lw * 1.3, dashes=12))
                if label:
                    size = 0.5 * u if len(label) < 2 else 0.46 * u
                    out.append(self.t.glyphs(label, x, y, size, th.text, bold=0.03 * u))
        # the bursts go under the checkers, above the board
        for k, (x, y) in enumerate(hits):
            out.insert(self.checkers_at + k, self.hit_mark(x, y))
        # Each arrow with its own halo: where two cross, the one drawn later cuts a clean gap in the other.
        for p0, c, p1, stop, scale in shafts:
            if p0 in self.counted:  # start at the checker's rim, leaving its count readable
                t = 1.0 - _param_at_distance(p1, c, p0, 1.0, 0.36 * u)
                p0, c = _quad(p0, c, p1, t), (c[0] + (p1[0] - c[0]) * t, c[1] + (p1[1] - c[1]) * t)
            line, curve, head = self.arrow_shape(p0, c, p1, stop, scale)
            out.append(Polyline(line, th.arrow_halo, lw + 2 * halo))
            out.append(Polygon(head, th.arrow_halo, th.arrow_halo, 2 * halo))
            out.append(Polyline(line, th.arrow, lw, curve=curve))
            out.append(Polygon(head, th.arrow, th.arrow, lw * 0.5))

    def _simulate(self, paths: list[list[Arrow]], order: Sequence[int], mine: list[int], theirs: list[int],
                  mover: int, mside: bool, total: int
                  ) -> _Sim:
        g, u = self.g, self.u
        shafts: list[_Shaft] = []
        ghosts: list[_Ghost] = []
        hits: list[Point] = []
        keys: list[tuple[int, int]] = []
        raw: list[tuple[Point, Point, bool, float, float]] = []
        beyond: dict[int, int] = {}  # index in ghosts of the ghost beyond a full stack, by point
        n_off = 0
        for i in order:
            path = paths[i]
            landed: Point | None = None
            for j, (s, t, hit) in enumerate(path):
                if landed is not None:  # a step of a chain leaves from where the one before landed
                    src = landed
                    self.chained.add(src)
                elif s == 25:
                    src = g.bar_slot(mside, max(mine[25] - 1, 0))
                    if mine[25] > BAR_MAX:
                        self.counted.add(src)
                else:
                    src = g.slot(self.to_bottom_numbering(mover, s), max(mine[s] - 1, 0))
                    if mine[s] > POINT_MAX:
                        self.counted.add(src)  # the arrow leaves from a checker with the count on it
                mine[s] = max(mine[s] - 1, 0)
                stop, scale = 0.42 * u, 1.0
                kind = "disc"
                if t == 0:
                    # The ghost slab is where the checker lands; the arrow stops at the tray's edge,
                    # successive arrows 0.45u apart so that their heads do not merge.
                    ghost = g.off_slot(mside, mine[0], total)
                    mine[0] += 1
                    tx0, _y0, tx1, _y1 = g.tray_box(mside)
                    edge = tx0 - 0.06 * u if g.home_right else tx1 + 0.06 * u
                    dy = -0.45 * u * n_off if mside else 0.45 * u * n_off
                    n_off += 1
                    dst = (edge, ghost[1] + dy)
                    stop, scale = 0.0, 0.8
                    kind = "slab"
                else:
                    opp = theirs[25 - t]
                    if opp == 1 or hit:
                        hit = True
                        theirs[25 - t] = max(opp - 1, 0)
                        theirs[25] += 1
                    bp = self.to_bottom_numbering(mover, t)
                    if mine[t] >= POINT_MAX:
                        # The stack is full: the checker is drawn beyond it, in the gap, with the count
                        # after the play; where the dice stand there, over the top checker.
                        dst, kind = self.beyond_slot(bp)
                    else:
                        dst = g.slot(bp, mine[t])
                    mine[t] += 1
                keys.append((s, t))
                raw.append((src, dst, t == 0, stop, scale))
                if j == len(path) - 1:
                    if t == 0:
                        ghosts.append(("slab", ghost[0], ghost[1], ""))
                    elif kind != "disc":
                        if t not in beyond:
                            beyond[t] = len(ghosts)
                            ghosts.append((kind, dst[0], dst[1], ""))
                    else:
                        ghosts.append(("disc", dst[0], dst[1], ""))
                if hit:
                    hits.append(dst)
                landed = dst if t != 0 else None
        for t, k in beyond.items():  # the count on the point after the play
            kind, x, y, _ = ghosts[k]
            ghosts[k] = (kind, x, y, str(mine[t]))
        # Checkers making the same move leave a stack top first and land bottom first; along one row
        # that makes parallel arrows cross, so pair them the other way round when that is better.
        groups: dict[tuple[int, int], list[int]] = {}
        for k, key in enumerate(keys):
            groups.setdefault(key, []).append(k)
        dsts = [r[1] for r in raw]
        for members in groups.values():
            if len(members) > 1:
                natural = [self.arc(raw[k][0], raw[k][1], raw[k][2]) for k in members]
                swapped = [self.arc(raw[k][0], raw[m][1], raw[k][2])
                           for k, m in zip(members, reversed(members), strict=True)]
                if _crossings(swapped) < _crossings(natural):
                    for k, m in zip(members, reversed(members), strict=True):
                        dsts[k] = raw[m][1]
        for (src, _dst, to_tray, stop, scale), dst in zip(raw, dsts, strict=True):
            a, c, b = self.arc(src, dst, to_tray)
            shafts.append((a, c, b, stop, scale))
        return shafts, ghosts, hits

    def beyond_slot(self, bp: int) -> tuple[Point, str]:
        """Where a checker arriving on a full stack (five drawn) of the bottom player's point ``bp`` is
        drawn: the sixth slot, reaching into the gap ("gap"), unless the dice stand there ("over": on
        the top checker)."""
        g, u = self.g, self.u
        col, top = g.point_col(bp)
        x = g.col_x(col)
        y = g.fy0 + (POINT_MAX + 0.5) * u if top else g.fy1 - (POINT_MAX + 0.5) * u
        box = self.dice_box()
        if box is not None and box[0] - 0.05 * u < x + u / 2 and x - u / 2 < box[2] + 0.05 * u:
            return g.slot(bp, POINT_MAX - 1), "over"
        return (x, y), "gap"

    # ------------------------------------------------------------ arrow routing
    def obstacles(self, exclude: set[tuple[int, bool]]) -> tuple[list[int], list[int], list[_Box]]:
        """What an arrow should not run over: the checkers of each screen column (how many are drawn at
        the top and at the bottom, except in the columns ``exclude`` names), and boxes for the bar's
        checkers, the dice or an offered cube, the cube, the trays' counts and their checkers."""
        pos, g, u = self.pos, self.g, self.u
        top, bottom = [0] * 12, [0] * 12
        for player in (0, 1):
            board = pos.boards[player]
            for p in range(1, 25):
                if board[p] > 0:
                    col, is_top = g.point_col(self.to_bottom_numbering(player, p))
                    if (col, is_top) not in exclude:
                        (top if is_top else bottom)[col] = min(board[p], POINT_MAX)
        boxes: list[_Box] = []
        for player in (0, 1):
            n = min(pos.boards[player][25], BAR_MAX)
            if n and (12, self.side(player)) not in exclude:
                (x0, y0), (_x1, y1) = g.bar_slot(self.side(player), 0), g.bar_slot(self.side(player), n - 1)
                boxes.append((x0 - u / 2, min(y0, y1) - u / 2, x0 + u / 2, max(y0, y1) + u / 2))
            off = pos.boards[player][0]
            if off:
                x0, y0, x1, y1 = g.tray_box(self.side(player))
                ly = y0 + 0.3 * u if self.side(player) else y1 - 0.3 * u
                boxes.append((x0, ly - 0.25 * u, x1, ly + 0.25 * u))  # the count
        box = self.dice_box()
        if box is not None:
            boxes.append(box)
        return top, bottom, boxes

    def route(self, shafts: list[_Shaft], ghosts: list[_Ghost]) -> list[_Shaft]:
        """Bend each arrow around checkers, counts, dice and the bar's checkers where it can, and away
        from the other arrows: each arrow's curve is chosen among gentle and deeper bends on either
        side and bends through the gap between the rows, by the length it runs over something, a
        penalty per crossing and a small one for leaving the plain arc; a few rounds, one arrow at a
        time (deterministic)."""
        if not shafts:
            return shafts
        arcs = [(a, c, b) for a, c, b, _s, _k in shafts]
        # The arrow's own columns are not in its way (it leaves the top checker of one and lands on
        # the other), unless it starts where an earlier step landed beyond a full stack.
        obsts = [self.obstacles({self._column_of(b)} | (set() if a in self.chained else {self._column_of(a)}))
                 for a, _c, b in arcs]
        plain = [2.0 * self._over(a, c, b, sh[3], ob) for (a, c, b), sh, ob in zip(arcs, shafts, obsts, strict=True)]
        tangled = len(arcs) > 1 and (_crossings(arcs) > 0 or self._alongside(arcs))
        if not tangled and not any(plain):
            return shafts  # the plain arcs are clear: nothing to do (the common case, and fast)
        cands: list[list[tuple[Point, float]]] = []
        costs: list[list[float]] = []
        for (a, c, b), sh, ob, cost0 in zip(arcs, shafts, obsts, plain, strict=True):
            if cost0 == 0 and not tangled:
                cands.append([(c, 0.0)])
                costs.append([0.0])
                continue
            options = self._candidates(a, c, b)
            cands.append(options)
            costs.append([cost0] + [2.0 * self._over(a, cc, b, sh[3], ob) + dev for cc, dev in options[1:]])
        ranked = [sorted(range(len(c)), key=lambda k, c=c: (c[k], k)) for c in costs]  # type: ignore[misc]
        u = self.u
        current = [0] * len(arcs)  # the plain arc is the first candidate
        flats: dict[tuple[int, int], tuple[list[Point], list[Point], tuple[float, float, float, float]]] = {}
        for _round in range(3):
            changed = False
            for i in range(len(arcs)):
                a, _c, b = arcs[i]
                others = [(arcs[j][0], cands[j][current[j]][0], arcs[j][2]) for j in range(len(arcs)) if j != i]
                flat_others = [[_quad(p, q, r, k / 8) for k in range(9)] for p, q, r in others]
                boxes_others = [_bbox(f) for f in flat_others]
                near_others = [[_quad(p, q, r, 0.1 + 0.8 * k / 10) for k in range(11)] for p, q, r in others]
                near_boxes = _near_boxes(near_others, 0.4 * u)
                best_k, best_cost = current[i], math.inf
                for k in ranked[i]:
                    cc = cands[i][k][0]
                    cost = costs[i][k]
                    if cost >= best_cost:
                        break  # the rest cost more before any crossing is counted
                    key = (i, k)
                    if key not in flats:
                        flat = [_quad(a, cc, b, t / 8) for t in range(9)]
                        flats[key] = (flat, [_quad(a, cc, b, 0.1 + 0.8 * t / 10) for t in range(11)], _bbox(flat))
                    mine, mine_near, mine_box = flats[key]
                    cost += 3.0 * sum(1 for f, fb in zip(flat_others, boxes_others, strict=True)
                                      if _polylines_cross(mine, f, mine_box, fb))
                    if cost >= best_cost:
                        continue
                    # running alongside another arrow (closer than 0.4 u) reads as one thick arrow
                    cost += 0.15 * _close_samples(mine_near, near_others, 0.4 * u, near_boxes)
                    if cost < best_cost - 1e-9:
                        best_k, best_cost = k, cost
                if best_k != current[i]:
                    current[i], changed = best_k, True
            if not changed:
                break
        return [(a, cands[i][current[i]][0], b, stop, scale)
                for i, (a, _c, b, stop, scale) in enumerate(shafts)]

    def _alongside(self, arcs: Sequence[tuple[Point, Point, Point]]) -> bool:
        """Whether an arrow runs closer than 0.4 u to another one for part of its length."""
        flats = [[_quad(p, q, r, 0.1 + 0.8 * k / 10) for k in range(11)] for p, q, r in arcs]
        return any(_close_samples(f, [h for j, h in enumerate(flats) if j != i], 0.4 * self.u)
                   for i, f in enumerate(flats))

    def _column_of(self, p: Point) -> tuple[int, bool]:
        """The screen column (12: the bar) and half (True: top) of a point of the board."""
        g, u = self.g, self.u
        top = p[1] < g.cy
        if g.bar_x <= p[0] < g.right_field:
            return 12, top
        if g.left_field <= p[0] < g.bar_x:
            return min(int((p[0] - g.left_field) / u), 5), top
        if g.right_field <= p[0] < g.right_field + 6 * u:
            return 6 + min(int((p[0] - g.right_field) / u), 5), top
        return -1, top

    def _candidates(self, a: Point, c: Point, b: Point) -> list[tuple[Point, float]]:
        """Control points for an arrow from a to b, each with its penalty (in u) for leaving the plain
        arc (control c): the plain arc first, then bends of the curve's middle along the normal, and
        curves whose middle is in the gap between the rows."""
        g, u = self.g, self.u
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        m0 = ((mid[0] + c[0]) / 2, (mid[1] + c[1]) / 2)
        dx, dy = b[0] - a[0], b[1] - a[1]
        d = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / d, dx / d
        targets: list[Point] = []
        for bend in (-3.0, -2.2, -1.5, -1.0, -0.6, -0.3, 0.3, 0.6, 1.0, 1.5, 2.2, 3.0):
            targets.append((m0[0] + nx * bend * u, m0[1] + ny * bend * u))
        for shift in (-2.0, -1.0, 0.0, 1.0, 2.0):
            for lane in (-0.3, 0.0, 0.3):
                targets.append((mid[0] + shift * u, g.cy + lane * u))
        out: list[tuple[Point, float]] = [(c, 0.0)]
        for m in targets:
            cc = (2 * m[0] - mid[0], 2 * m[1] - mid[1])
            dev = math.hypot(m[0] - m0[0], m[1] - m0[1]) / u
            out.append((cc, 0.12 + 0.1 * dev))
        return out

    def _over(self, a: Point, c: Point, b: Point, stop: float,
              obst: tuple[list[int], list[int], list[_Box]]) -> float:
        """How long (in u) the shaft from a to b (control c) runs over obstacles or out of the board."""
        g, u = self.g, self.u
        top, bottom, boxes = obst
        length = _curve_length(a, c, b)
        if length <= 0:
            return 0.0
        hw = 0.12 * u  # half the shaft with its halo, and a little air
        t0 = min(0.45 * u / length, 0.4)
        t1 = 1.0 - min((stop + 0.25 * u) / length, 0.4)
        n = 16
        step = length * (t1 - t0) / n / u
        hits = 0
        reach = hw + u / 2
        # The columns with checkers, each with where its stacks end (a sample within reach of the
        # column's centre and inside a stack runs over it); the same sums as a column at a time.
        cols = [(g.col_x(col), g.fy0 + top[col] * u if top[col] else None,
                 g.fy1 - bottom[col] * u if bottom[col] else None)
                for col in range(12) if top[col] or bottom[col]]  # left to right
        xs = [col[0] for col in cols]
        near = reach + 1.0  # a little more than the reach: which columns to test exactly
        bx0, bx1, ylo, yhi = g.bx0, g.bx1, g.fy0 - 0.1 * u, g.fy1 + 0.1 * u
        ax, ay = a
        qx, qy = c
        ex, ey = b
        for k in range(n + 1):
            t = t0 + (t1 - t0) * k / n
            s = 1 - t
            x = s * s * ax + 2 * s * t * qx + t * t * ex  # _quad(a, c, b, t)
            y = s * s * ay + 2 * s * t * qy + t * t * ey
            if not (bx0 <= x <= bx1 and ylo <= y <= yhi):
                hits += 2
                continue
            for cx, top_end, bottom_end in cols[bisect_left(xs, x - near):bisect_right(xs, x + near)]:
                if abs(x - cx) > reach:
                    continue
                if top_end is not None and y - hw < top_end:
                    hits += 1
                    break
                if bottom_end is not None and y + hw > bottom_end:
                    hits += 1
                    break
            else:
                for x0, y0, x1, y1 in boxes:
                    if x0 - hw < x < x1 + hw and y0 - hw < y < y1 + hw:
                        hits += 1
                        break
        return hits * step

    def arc(self, a: Point, b: Point, to_tray: bool) -> tuple[Point, Point, Point]:
        """A quadratic arc from a to b bowing towards the middle of the board."""
        g, u = self.g, self.u
        dx, dy = b[0] - a[0], b[1] - a[1]
        d = math.hypot(dx, dy) or 1.0
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        nx, ny = -dy / d, dx / d
        # bow towards the board's centre line
        cx_board = (g.left_field + g.right_field + 6 * u) / 2
        if (g.cy - my) * ny + (cx_board - mx) * nx < 0:
            nx, ny = -nx, -ny
        same_row = abs(dy) < 0.6 * d
        bow = min(0.28 * d, 2.2 * u) if same_row else min(0.12 * d, 1.0 * u)
        if to_tray:
            bow = min(0.5 * d, 3.5 * u)
        return a, (mx + nx * bow, my + ny * bow), b

    def arrow_shape(self, p0: Point, c: Point, p1: Point, stop: float, scale: float = 1.0
                    ) -> tuple[tuple[Point, ...], tuple[Point, Point, Point], tuple[Point, ...]]:
        """The shaft (flattened, and as a quadratic curve) and the head polygon of an arc whose tip
        is ``stop`` short of p1."""
        u = self.u
        head_len = ARROW_HEAD * u * scale
        half = 0.2 * u * scale
        t_tip = _param_at_distance(p0, c, p1, 1.0, stop)
        tip = _quad(p0, c, p1, t_tip)
        t_base = _param_at_distance(p0, c, p1, t_tip, head_len)
        base = _quad(p0, c, p1, t_base)
        dx, dy = tip[0] - base[0], tip[1] - base[1]
        d = math.hypot(dx, dy) or 1.0
        ux, uy = dx / d, dy / d
        head = ((tip[0], tip[1]),
                (tip[0] - ux * head_len - uy * half, tip[1] - uy * head_len + ux * half),
                (tip[0] - ux * head_len * 0.78, tip[1] - uy * head_len * 0.78),
                (tip[0] - ux * head_len + uy * half, tip[1] - uy * head_len - ux * half))
        t_end = _param_at_distance(p0, c, p1, t_tip, head_len * 0.7)
        sub = _split(p0, c, p1, t_end)
        n = 24
        line = tuple(_quad(*sub, i / n) for i in range(n + 1))
        return line, sub, head

    def hit_mark(self, x: float, y: float) -> Polygon:
        """A star burst behind a hit blot: its points stick out around the checker."""
        th, u = self.th, self.u
        r_out, r_in = 0.74 * u, 0.53 * u
        pts = []
        for i in range(28):
            a = math.pi * i / 14
            r = r_out if i % 2 == 0 else r_in
            pts.append((x + r * math.cos(a), y + r * math.sin(a)))
        return Polygon(tuple(pts), th.arrow_halo, th.hit, self.lw * 1.3)

    def direction_items(self) -> None:
        """The bottom player's direction of movement: along the far row, round, along the near row, off."""
        g, th, u = self.g, self.th, self.u
        # Dice (or an offered cube) stand on the centre line: the lanes then pass between them and the
        # fifth checkers of the points, not through them.
        wide = self.centre_is_taken()
        lane = 0.6 * u if wide else 0.4 * u
        sgn = -1.0 if g.home_right else 1.0  # along the far row the checkers move left (home right)
        x_start = g.col_x(11 if g.home_right else 0)
        x_turn = g.col_x(0 if g.home_right else 11) - sgn * (0.25 if wide else 0.15) * u
        pts: list[Point] = [(x_start, g.cy - lane)]
        for i in range(0, 25):
            a = -math.pi / 2 + math.pi * i / 24
            pts.append((x_turn + sgn * lane * math.cos(a), g.cy + lane * math.sin(a)))
        inner = g.tray_rail[0] if g.home_right else g.tray_rail[1]
        tip = (inner - sgn * 0.4 * u, g.cy + lane)
        head_len = ARROW_HEAD * u
        pts.append((tip[0] + sgn * head_len * 0.7, tip[1]))
        half = 0.2 * u
        head = (tip, (tip[0] + sgn * head_len, tip[1] - half), (tip[0] + sgn * head_len * 0.78, tip[1]),
                (tip[0] + sgn * head_len, tip[1] + half))
        lw = ARROW_WIDTH * u * 1.2
        halo = max(0.05 * u, 1.2 * self.lw)
        self.items.append(Polyline(tuple(pts), th.arrow_halo, lw + 2 * halo))
        self.items.append(Polygon(head, th.arrow_halo, th.arrow_halo, 2 * halo))
        self.items.append(Polyline(tuple(pts), th.arrow, lw))
        self.items.append(Polygon(head, th.arrow, th.arrow, lw * 0.5))
        self.items.append(Circle(pts[0][0], pts[0][1], 1.6 * lw, th.arrow, th.arrow_halo, halo))

    def build(self) -> Group:
        self.board()
        self.position()
        self.cube()
        self.dice()
        if self.o.direction:
            self.direction_items()
        self.arrow_items()
        self.info()
        self.caption_items()
        return Group(0.0, 0.0, tuple(self.static) + tuple(self.items), static=len(self.static))


def check_position(position: Position) -> None:
    """Refuse what cannot be drawn: bad boards, too many checkers, both sides on one point."""
    from notation.errors import InvalidPositionError

    n = pos_checkers(position)
    for player in (0, 1):
        b = position.boards[player]
        name = COLOUR_NAMES[player]
        if len(b) != 26:
            raise InvalidPositionError(f"{name}'s board has {len(b)} slots, not 26")
        if any(c < 0 for c in b):
            raise InvalidPositionError(f"{name} has a negative number of checkers somewhere")
        if sum(b) > n:
            raise InvalidPositionError(f"{name} has {sum(b)} checkers (at most {n})")
    b0, b1 = position.boards
    for p in range(1, 25):
        if b0[p] and b1[25 - p]:
            raise InvalidPositionError(f"both players have checkers on White's {p}-point "
                                       f"(Black's {25 - p}-point)")
    if position.turn not in (0, 1):
        raise InvalidPositionError(f"player on roll {position.turn} is not 0 or 1")
    if position.cube < 1:
        raise InvalidPositionError(f"cube value {position.cube} is not positive")


def _numbers_band(numbers: str) -> float:
    return 0.0 if numbers == "none" else NUMBERS_BOTH if numbers == "both" else NUMBERS


def pos_checkers(pos: Position) -> int:
    try:
        return int(pos.rules.checkers)
    except Exception:  # noqa: BLE001 - an unknown variant still renders
        return max(15, sum(pos.boards[0]), sum(pos.boards[1]))


def _crossings(arcs: Sequence[tuple[Point, Point, Point]]) -> int:
    """How many pairs of arcs cross (each flattened to 8 pieces; touching ends do not count)."""
    flat = [[_quad(a, c, b, k / 8) for k in range(9)] for a, c, b in arcs]
    n = 0
    for i in range(len(flat)):
        for j in range(i + 1, len(flat)):
            if _polylines_cross(flat[i], flat[j]):
                n += 1
    return n


def _bbox(p: Sequence[Point]) -> tuple[float, float, float, float]:
    xs = [x for x, _ in p]
    ys = [y for _, y in p]
    return min(xs), min(ys), max(xs), max(ys)


def _polylines_cross(p: Sequence[Point], q: Sequence[Point],
                     pb: tuple[float, float, float, float] | None = None,
                     qb: tuple[float, float, float, float] | None = None) -> bool:
    """Whether two polylines cross (``pb``, ``qb``: their bounding boxes, when known)."""
    px0, py0, px1, py1 = pb or _bbox(p)
    qx0, qy0, qx1, qy1 = qb or _bbox(q)
    if px1 < qx0 or qx1 < px0 or py1 < qy0 or qy1 < py0:
        return False
    qs = [(q[j], q[j + 1], min(q[j][0], q[j + 1][0]), max(q[j][0], q[j + 1][0]), min(q[j][1], q[j + 1][1]),
           max(q[j][1], q[j + 1][1])) for j in range(len(q) - 1)]
    for i in range(len(p) - 1):
        a, b = p[i], p[i + 1]
        ax0, ax1 = (a[0], b[0]) if a[0] < b[0] else (b[0], a[0])
        ay0, ay1 = (a[1], b[1]) if a[1] < b[1] else (b[1], a[1])
        for c, d, cx0, cx1, cy0, cy1 in qs:
            if ax1 < cx0 or cx1 < ax0 or ay1 < cy0 or cy1 < ay0:
                continue
            if _segments_cross(a, b, c, d):
                return True
    return False


def _segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    def orient(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    d1, d2 = orient(c, d, a), orient(c, d, b)
    d3, d4 = orient(a, b, c), orient(a, b, d)
    return ((d1 > 1e-9 and d2 < -1e-9) or (d1 < -1e-9 and d2 > 1e-9)) and \
        ((d3 > 1e-9 and d4 < -1e-9) or (d3 < -1e-9 and d4 > 1e-9))


def _near_boxes(others: Sequence[Sequence[Point]], dist: float) -> list[tuple[float, float, float, float]]:
    """Each polyline's bounding box grown by ``dist`` (for :func:`_close_samples`)."""
    return [(min(x for x, _ in f) - dist, min(y for _, y in f) - dist, max(x for x, _ in f) + dist,
             max(y for _, y in f) + dist) for f in others]


def _close_samples(pts: Sequence[Point], others: Sequence[Sequence[Point]], dist: float,
                   boxes: list[tuple[float, float, float, float]] | None = None) -> int:
    """How many of ``pts`` are closer than ``dist`` to a point of one of ``others`` (``boxes``: their
    :func:`_near_boxes`, when known)."""
    d2 = dist * dist
    n = 0
    if boxes is None:
        boxes = _near_boxes(others, dist)
    for x, y in pts:
        for f, (x0, y0, x1, y1) in zip(others, boxes, strict=True):
            if x0 <= x <= x1 and y0 <= y <= y1 and any((x - qx) ** 2 + (y - qy) ** 2 < d2 for qx, qy in f):
                n += 1
                break
    return n


def _curve_length(a: Point, c: Point, b: Point) -> float:
    pts = [_quad(a, c, b, k / 8) for k in range(9)]
    return sum(math.hypot(q[0] - p[0], q[1] - p[1]) for p, q in zip(pts, pts[1:], strict=False))


def _quad(a: Point, c: Point, b: Point, t: float) -> Point:
    s = 1 - t
    return (s * s * a[0] + 2 * s * t * c[0] + t * t * b[0], s * s * a[1] + 2 * s * t * c[1] + t * t * b[1])


def _param_at_distance(a: Point, c: Point, b: Point, t1: float, dist: float) -> float:
    """The largest t <= t1 whose point is ``dist`` (straight line) from the point at t1 (0 if none)."""
    end = _quad(a, c, b, t1)
    if math.hypot(a[0] - end[0], a[1] - end[1]) <= dist:
        return 0.0
    lo, hi = 0.0, t1
    for _ in range(40):
        mid = (lo + hi) / 2
        p = _quad(a, c, b, mid)
        if math.hypot(p[0] - end[0], p[1] - end[1]) > dist:
            lo = mid
        else:
            hi = mid
    return lo


def _split(a: Point, c: Point, b: Point, t: float) -> tuple[Point, Point, Point]:
    """The part of a quadratic curve from 0 to t (de Casteljau)."""
    c1 = (a[0] + (c[0] - a[0]) * t, a[1] + (c[1] - a[1]) * t)
    return a, c1, _quad(a, c, b, t)


# --------------------------------------------------------------------------- public


def resolve_arrows(position: Position, opts: Options, play: str | None) -> tuple[list[Arrow], int]:
    """The arrows to draw for one board: a written play resolved, or explicit arrows."""
    if play is not None:
        from notation.play import resolve_play

        dice = opts.dice if opts.dice is not None else position.dice
        if dice is None:
            raise ValueError(f"the play {play!r} needs a roll: give dice (e.g. dice='53')")
        res = resolve_play(position, play, dice)
        return [(s, t, h) for s, t, h in res.play.steps], position.turn
    return list(opts.arrows), position.turn


def _u_for(opts: Options, columns: int) -> float:
    if opts.u is not None:
        return float(opts.u)
    if opts.size == "print" or opts.width is not None:
        dpi = opts.dpi or 300
        target = opts.width if opts.width is not None else PRINT_WIDTH_MM / 25.4 * dpi
        geo1 = _Geo(1.0, True, opts.numbers, False, 0)
        per_board = geo1.width
        total_u = columns * per_board + (columns - 1) * GRID_GAP
        return float(target) / total_u
    return SIZES[opts.size]


def layout(position: Position, **options: Any) -> Drawing:
    """The display list of a diagram.  Options (all keyword-only, all optional):

    * ``size``: ``"small"`` (u = 24 px), ``"medium"`` (36, default), ``"large"`` (60) or ``"print"``
      (120 mm wide at ``dpi``); ``u``: the checker diameter in px; ``width``: the image width in px
      (overrides ``size``); ``dpi``: written into the PNG (and used by ``"print"``).
    * ``home``: ``"right"`` (default) or ``"left"``.  ``bottom``: who sits at the bottom:
      ``"on_roll"`` (default), 0 / ``"white"`` or 1 / ``"black"``.  Points are numbered from the bottom
      player's side; ``numbers``: ``"viewer"`` (default), ``"both"`` (the other side's numbers too,
      smaller) or ``"none"``.
    * ``theme``: ``"print"`` (black and white, default), ``"classic"``, ``"contrast"`` or a
      :class:`~render.themes.Theme`.
    * ``dice``: the roll to show (default: the position's); ``show_dice``, ``show_cube``.
    * ``names`` (True: the position's names, or a pair), ``pips``, ``score``: player lines above and
      below the board.  ``caption``: text under the figure.
    * ``play``: a play in any notation (``"13/8 13/10"``), drawn as arrows on the position before it;
      a list of plays draws one board per play side by side, each captioned with its play
      (``captions`` overrides), in ``columns`` columns.  ``arrows``: explicit ``(from, to)`` steps of the
      player on roll instead.  ``ghosts``: dashed outlines where the moved checkers land (default on).
    * ``direction``: draw the bottom player's direction of movement.
    * ``heading``: a title drawn above the figure (wrapped to its width).  ``title``: the SVG title
      (default: the heading, else generated).  ``transparent``: no background.
    """
    opts = options.pop("_opts", None) or make_options(**options)
    check_position(position)
    plays: list[str | None] = list(opts.plays) if opts.plays else [None]
    boards = len(plays)
    columns = min(opts.columns or boards, boards)
    rows = (boards + columns - 1) // columns
    captions: list[str | None]
    if opts.captions is not None:
        if len(opts.captions) != boards:
            raise ValueError(f"{len(opts.captions)} captions for {boards} boards")
        captions = list(opts.captions)
    elif boards > 1:
        captions = [None] * boards
    else:
        captions = [opts.caption]
    resolved = []
    for i, play in enumerate(plays):
        arrows, mover = resolve_arrows(position, opts, play)
        resolved.append((arrows, mover))
        if boards > 1 and opts.captions is None and play is not None:
            from notation.play import format_play

            captions[i] = format_play(arrows) if arrows else play
    u0 = _u_for(opts, columns)
    ss = 4 if u0 <= 44 else 3 if u0 <= 80 else 2
    text = _Text(default_font(), ss)
    info = bool(opts.names or opts.pips or opts.score)
    # Boards in a grid share one caption height (the tallest wrapped caption).
    probe = _Geo(u0, opts.home == "right", opts.numbers, info, 0)
    board_w = probe.bx1 - probe.bx0
    cap_lines = 0
    for i, (arrows, mover) in enumerate(resolved):
        cap = _Board(position, opts, probe, text, captions[i], arrows, mover).caption_text()
        if cap:
            cap_lines = max(cap_lines, len(text.wrap(cap, CAPTION_SIZE * u0, board_w)))
    geo = _Geo(u0, opts.home == "right", opts.numbers, info, cap_lines)
    groups: list[Group] = []
    for i, (arrows, mover) in enumerate(resolved):
        b = _Board(position, opts, geo, text, captions[i], arrows, mover)
        grp = b.build()
        r, c = divmod(i, columns)
        dx = round(c * (geo.width + GRID_GAP * u0 - 2 * MARGIN * u0))
        dy = round(r * (geo.height - MARGIN * u0))
        groups.append(Group(dx, dy, grp.items, grp.static))
    width = geo.width + (columns - 1) * (geo.width + GRID_GAP * u0 - 2 * MARGIN * u0)
    height = geo.height + (rows - 1) * (geo.height - MARGIN * u0)
    extra: list[Item] = []
    if boards > 1 and opts.caption:
        size = CAPTION_SIZE * u0
        lines = text.wrap(_ascii(opts.caption), size, width - 2 * MARGIN * u0)
        y = height - MARGIN * u0 + 0.2 * u0 + CAPTION_LINE * u0 / 2
        for line in lines:
            extra.append(text.glyphs(line, width / 2, y, size, opts.theme.text))
            y += CAPTION_LINE * u0
        height += 0.2 * u0 + len(lines) * CAPTION_LINE * u0
    if opts.heading:
        size = HEADING_SIZE * u0
        lines = text.wrap(_ascii(opts.heading), size, width - 2 * MARGIN * u0)
        band = round(MARGIN * u0 + len(lines) * HEADING_LINE * u0)
        y = MARGIN * u0 + HEADING_LINE * u0 / 2
        heading = [text.glyphs(line, width / 2, y + k * HEADING_LINE * u0, size, opts.theme.text,
                               bold=0.02 * u0) for k, line in enumerate(lines)]
        groups = [Group(g.dx, g.dy + band, g.items, g.static) for g in groups]
        extra = [Group(0.0, band, tuple(extra)), *heading] if extra else heading
        height += band
    if len(groups) == 1 and not extra:
        root = groups[0]
    else:
        root = Group(0.0, 0.0, tuple(groups) + tuple(extra))
    title = opts.title if opts.title is not None else opts.heading if opts.heading else _title(position, opts)
    desc = _desc(position, opts)
    W, H = int(math.ceil(width - 1e-6)), int(math.ceil(height - 1e-6))
    if opts.width is not None:
        W = opts.width
    return Drawing(W, H, None if opts.transparent else opts.theme.background, root, title, desc,
                   supersample=ss, dpi=opts.dpi if opts.dpi else (300 if opts.size == "print" else None),
                   grey=_all_grey(root) and (opts.transparent or _is_grey(opts.theme.background)))


def _title(position: Position, opts: Options) -> str:
    who = COLOUR_NAMES[position.turn]
    if opts.plays:
        return f"Backgammon position, {who} to play " + "; ".join(opts.plays)
    dice = opts.dice if opts.dice is not None else position.dice
    if dice:
        return f"Backgammon position, {who} to play {dice[0]}-{dice[1]}"
    return f"Backgammon position, {who} on roll"


def _desc(position: Position, opts: Options) -> str:
    parts = []
    try:
        from notation.ids import xgid  # type: ignore[attr-defined]

        parts.append(xgid(position))
    except Exception:  # noqa: BLE001 - the description is optional
        pass
    for player in (0, 1):
        b = position.boards[player]
        pts = " ".join(f"{p}:{b[p]}" for p in range(1, 26) if b[p])
        parts.append(f"{COLOUR_NAMES[player]} ({player}): {pts}; off {b[0]}")
    return "\n".join(parts)


def _is_grey(c: Color) -> bool:
    return c[0] == c[1] == c[2]


def _all_grey(group: Group) -> bool:
    for it in group.items:
        if isinstance(it, Group):
            if not _all_grey(it):
                return False
            continue
        for c in _colours(it):
            if c is not None and not _is_grey(c):
                return False
    return True


def _colours(it: Item) -> Iterable[Color | None]:
    if isinstance(it, Glyphs):
        return (it.fill,)
    if isinstance(it, Polyline):
        return (it.stroke,)
    return (it.fill, it.stroke)
