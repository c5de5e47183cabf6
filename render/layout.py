"""The layout of a diagram, computed once: a position and options in, a display list out.

:func:`layout` checks the options, sizes the figure (one board, or several side by side), and has
:class:`_Board` draw each board: the empty board, the checkers, cube and dice, the player lines and
the caption.  Where things are is :mod:`render.geometry`'s; the arrows of a play and their routing are
:mod:`render.arrows`'s.  See :func:`layout` for the options.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from notation.position import GAME_OVER, Position, parse_dice

from . import captions
from ._font import MISSING, Font, default_font
from .arrows import Arrow, Arrows
from .captions import latin_name
from .display import Circle, Color, Drawing, Glyphs, Group, Item, Part, Point, Polygon, Polyline, Rect, close_group
from .geometry import (
    ARROW_HEAD,
    ARROW_WIDTH,
    BAR_MAX,
    CAPTION_LINE,
    CAPTION_SIZE,
    CUBE,
    DIE,
    GRID_GAP,
    HEADING_LINE,
    HEADING_SIZE,
    INFO,
    MARGIN,
    NUMBERS_ALT_SIZE,
    POINT_LEN,
    POINT_MAX,
    Box,
    Geo,
    numbers_band,
    pos_checkers,
)
from .themes import Theme, get_theme

SIZES: dict[str, float] = {"small": 24.0, "medium": 36.0, "large": 60.0}
"""Size presets: the checker diameter ``u`` in pixels."""
PRINT_WIDTH_MM = 120.0
"""The ``print`` size preset: this wide at ``dpi`` (300 unless given)."""
COLOUR_NAMES = ("White", "Black")


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
    on_roll: bool = False
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
    ghost_play: str | None = None
    table: tuple[tuple[str, ...], ...] = ()


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
    if "table" in kw:
        kw["table"] = tuple(tuple(str(cell) for cell in row) for row in kw["table"])
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
        self._laid: dict[tuple[Any, ...], tuple[Glyphs, frozenset[str]]] = {}
        self._widths: dict[tuple[str, float], float] = {}
        self._names: dict[str, str] = {}
        """Text laid out, by its arguments to :meth:`glyphs` (the same text, the same object), with the
        characters no font in use has, which each use of it notes again in :data:`render._font.MISSING`
        (a command says which characters it drew as ``?``, however often it drew them before)."""

    def width(self, s: str, size: float) -> float:
        key = (s, size)
        w = self._widths.get(key)
        if w is None:
            if len(self._widths) >= _KEEP:
                self._widths.clear()
            w = self._widths[key] = self.font.advance(s) * size / self.font.units_per_em
        return w

    def name(self, name: str, player: int) -> str:
        """A player's name as a board line writes it: :func:`render.captions.latin_name` in ASCII
        punctuation, or the colour's name."""
        drawn = self._names.get(name)
        if drawn is None:
            if len(self._names) >= _KEEP:
                self._names.clear()
            drawn = self._names[name] = _ascii(latin_name(name))
        return drawn or COLOUR_NAMES[player]

    def glyphs(self, s: str, x: float, y: float, size: float, fill: Color, *, anchor: str = "mm",
               bold: float = 0.0) -> Glyphs:
        """Text placed by ``anchor``: horizontal l/m/r, vertical m (middle of capitals) or s (baseline)."""
        key = (s, x, y, size, fill, anchor, bold)
        laid = self._laid.get(key)
        if laid is None:
            if len(self._laid) >= _KEEP:
                self._laid.clear()
            missing = frozenset(ch for ch in set(s) if ch != " " and not self.font.has_any(ch))
            laid = self._laid[key] = (self._glyphs(s, x, y, size, fill, anchor, bold), missing)
        elif laid[1]:
            MISSING.update(laid[1])
        return laid[0]

    def _glyphs(self, s: str, x: float, y: float, size: float, fill: Color, anchor: str, bold: float) -> Glyphs:
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
        """``s`` in lines no wider than ``max_width``: broken at spaces, and a word wider than that (a long
        name, text in a script written without spaces) between its characters."""
        lines: list[str] = []
        for para in s.split("\n"):
            cur = ""
            for word in para.split():
                trial = f"{cur} {word}" if cur else word
                if self.width(trial, size) <= max_width:
                    cur = trial
                    continue
                if cur:
                    lines.append(cur)
                    cur = ""
                while self.width(word, size) > max_width and len(word) > 1:
                    k = 1  # the longest beginning that fits (one character at least)
                    while k < len(word) and self.width(word[:k + 1], size) <= max_width:
                        k += 1
                    lines.append(word[:k])
                    word = word[k:]
                cur = word
            lines.append(cur)
        return lines


_ASCII = {"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u00d7": "x", "\u2192": "->", "\u00bd": "1/2",
          "\u2044": "/"}


def _ascii(s: str) -> str:
    """Typographic characters that no font in use has, as ASCII; every other character as it is."""
    font = default_font()
    return "".join(c if c not in _ASCII or font.has_any(c) else _ASCII[c] for c in s)


# --------------------------------------------------------------------------- the board builder

_KEEP = 4096
"""How many laid-out texts, or units of one :class:`_Parts`, are kept for reuse (then they are dropped, and
made again as needed)."""


class _Parts:
    """What the boards drawn with one geometry, theme and text share, made once: the empty board, and each
    unit that depends on a few numbers only (:meth:`_Board.unit`).  A match page lays out hundreds of
    positions on one board: most of what each shows was made for an earlier one, and is the same object
    (the page writer, :mod:`render.html`, recognises a unit it has stored by identity)."""

    def __init__(self) -> None:
        self.static: tuple[Part, ...] | None = None
        self.units: dict[tuple[Any, ...], Part] = {}
        self.grey: dict[int, tuple[Part, bool]] = {}
        """Whether a group is all grey (:func:`_all_grey`), by its ``id``, with the group."""

    def keep(self, key: tuple[Any, ...], part: Part) -> Part:
        if len(self.units) >= _KEEP:
            self.units.clear()
        self.units[key] = part
        return part


_SHARED: dict[tuple[Any, ...], _Parts] = {}
_TEXTS: dict[tuple[Any, ...], _Text] = {}


def _parts(geo: Geo, theme: Theme, text: _Text) -> _Parts:
    key = (geo.u, geo.home_right, geo.numbers, geo.info, geo.caption_lines, theme, id(text))
    parts = _SHARED.get(key)
    if parts is None:
        if len(_SHARED) >= 16:
            _SHARED.clear()
        parts = _SHARED[key] = _Parts()
    return parts


def _text(snap: int) -> _Text:
    """The text of diagrams drawn on the grid of ``snap`` with the fonts in use (one object for each, whose
    laid-out texts are reused; :func:`render.add_font` changes the fonts, and so the object)."""
    font = default_font()
    key = (snap, *font.fallbacks)  # (the fonts themselves: the same number of other fonts is no match)
    text = _TEXTS.get(key)
    if text is None:
        text = _TEXTS[key] = _Text(font, snap)
    return text



class _Board:
    """Builds the items of one board."""

    def __init__(self, position: Position, opts: Options, geo: Geo, text: _Text,
                 caption: str | None, arrows: Sequence[Arrow], mover: int,
                 ghost_arrows: Sequence[Arrow] = (), table: tuple[tuple[str, ...], ...] = ()) -> None:
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
        self.ghost_arrows = ghost_arrows
        """Another play, drawn as pale arrows under this one's (the play made, beside the best)."""
        self.table = table
        """Rows of cells drawn under the caption (ranked plays and their equities)."""
        self.static: list[Part] = []
        self.items: list[Part] = []
        self.checkers_at = 0
        self.parts = _parts(geo, self.th, text)
        self._texts: list[tuple[str, str] | None] = [None, None]
        """Each player's line (:meth:`_line_texts`), once made."""
        self._fits: bool | None = None
        """:meth:`match_label_fits`, once known."""

    # ------------------------------------------------------------ helpers
    def side(self, player: int) -> bool:
        """True when ``player`` sits at the bottom."""
        return player == self.bottom

    def to_bottom_numbering(self, player: int, p: int) -> int:
        return p if player == self.bottom else 25 - p

    def checker(self, out: list[Part], x: float, y: float, player: int, *, r: float | None = None) -> None:
        th, u = self.th, self.u
        r = u / 2 - self.lw * 0.3 if r is None else r
        rim = Circle(x, y, r - self.lw / 2, th.checker[player], th.checker_line[player], self.lw * 1.1)
        if th.checker_ring is None:
            out.append(rim)
        else:
            out.append(Group(0.0, 0.0, (rim, Circle(x, y, r * 0.66, None, th.checker_ring[player], self.lw * 0.9))))

    def count(self, out: list[Part], x: float, y: float, n: int, player: int) -> None:
        size = 0.5 * self.u if n < 10 else 0.46 * self.u
        out.append(self.t.glyphs(str(n), x, y, size, self.th.checker_text[player], bold=0.03 * self.u))

    # ------------------------------------------------------------ static board
    def board(self) -> None:
        """The empty board (made once for the boards sharing :attr:`parts`)."""
        if self.parts.static is None:
            self.empty_board()
            self.parts.static = tuple(self.static)
        else:
            self.static = list(self.parts.static)

    def empty_board(self) -> None:
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
        pos, out = self.pos, self.items
        self.checkers_at = len(out)
        total = pos_checkers(pos)
        unit = self.unit
        for player in (0, 1):
            bside = self.side(player)
            board = pos.boards[player]
            for p in range(1, 25):
                n = board[p]
                if n > 0:
                    unit(self.stack, player, self.to_bottom_numbering(player, p), n)
            if board[25] > 0:
                unit(self.bar_stack, player, bside, board[25])
            if board[0] > 0:
                unit(self.borne_off, player, bside, board[0], total)
            waiting = self.pos.rules.checkers - sum(board)
            if waiting > 0:
                unit(self.waiting, player, bside, waiting)

    def unit(self, draw: Callable[..., None], *args: Any) -> None:
        """Add what ``draw(out, *args)`` draws, as one unit (:func:`close_group`).  ``draw`` depends on its
        arguments and on what the boards sharing :attr:`parts` share, nothing else: the unit is made once
        for them all, and is the same object each time."""
        key = (draw.__name__, *args)
        part = self.parts.units.get(key)
        if part is None:
            out: list[Part] = []
            draw(out, *args)
            close_group(out, 0)
            part = self.parts.keep(key, out[0])
        self.items.append(part)

    def stack(self, out: list[Part], player: int, bp: int, n: int) -> None:
        """The ``n`` checkers of ``player`` on the bottom player's point ``bp``."""
        self._pile(out, player, n, POINT_MAX, partial(self.g.slot, bp))

    def bar_stack(self, out: list[Part], player: int, bside: bool, n: int) -> None:
        self._pile(out, player, n, BAR_MAX, partial(self.g.bar_slot, bside))

    def _pile(self, out: list[Part], player: int, n: int, most: int, slot: Callable[[int], Point]) -> None:
        """``n`` checkers in the slots ``slot(0)``, ``slot(1)`` ...: at most ``most`` drawn, the last with
        the count when there are more."""
        for k in range(min(n, most)):
            x, y = slot(k)
            self.checker(out, x, y, player)
        if n > most:
            x, y = slot(most - 1)
            self.count(out, x, y, n, player)

    def waiting(self, out: list[Part], player: int, bside: bool, n: int) -> None:
        """Checkers not yet entered (Acey-Deucey): round checkers standing in the tray, with the count.
        (Bearing off needs every checker home, so the tray never holds both kinds.)"""
        g, u = self.g, self.u
        x0, y0, x1, y1 = g.tray_box(bside)
        cx = (x0 + x1) / 2
        cy = 0.0
        for k in range(min(n, 5)):
            cy = y1 - (k + 0.5) * u if bside else y0 + (k + 0.5) * u
            self.checker(out, cx, cy, player)
        if n > 1:
            self.count(out, cx, cy, n, player)

    def borne_off(self, out: list[Part], player: int, bside: bool, n: int, total: int) -> None:
        """The ``n`` checkers ``player`` has borne off, of ``total``: slabs in the tray, and the count."""
        g, th, u = self.g, self.th, self.u
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
            self.unit(self.cube_at, cx, g.cy, value)
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
        self.unit(self.cube_at, rx, cy, value)

    def cube_at(self, out: list[Part], cx: float, cy: float, value: int) -> None:
        th, u = self.th, self.u
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
        self.unit(self.dice_pair, half_x, roller, (dice[0], dice[1]))

    def dice_pair(self, out: list[Part], half_x: float, roller: int, dice: tuple[int, int]) -> None:
        """The dice of ``roller`` on the centre line of the half of the board centred on ``half_x``."""
        s, gap = DIE * self.u, 0.22 * self.u
        for i, d in enumerate(dice):
            cx = half_x + (i - 0.5) * (s + gap)
            self.die(out, cx, self.g.cy, d, roller)

    def dice_box(self) -> Box | None:
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

    def marks_turn(self) -> bool:
        """``on_roll`` asks for the side on roll to be marked, and nothing else says it: no dice, no offered
        cube, a game not over."""
        return self.o.on_roll and not self.centre_is_taken() and self.pos.game_state < GAME_OVER

    def turn_marker(self) -> None:
        """The side on roll: a triangle in the middle of the tray rail, in that side's checker colours,
        pointing at it."""
        if not self.marks_turn():
            return
        g, th, u = self.g, self.th, self.u
        player = self.pos.turn
        x = (g.tray_rail[0] + g.tray_rail[1]) / 2
        h = 0.5 * u if self.side(player) else -0.5 * u  # towards the player on roll
        half = 0.36 * u
        self.items.append(Polygon(((x - half, g.cy - h / 2), (x + half, g.cy - h / 2), (x, g.cy + h / 2)),
                                  th.checker[player], th.checker_line[player], self.lw * 1.2))

    def die(self, out: list[Part], cx: float, cy: float, value: int, player: int) -> None:
        th, u = self.th, self.u
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
            return self.t.name(names[player], player)
        if names:
            return self.t.name(self.pos.names[player], player)
        return COLOUR_NAMES[player]

    def match_label(self) -> str:
        pos = self.pos
        if not self.o.score:
            return ""
        w = captions.WORDS
        if pos.match_length:
            return w["match_label"].format(length=pos.match_length) + (", " + w["crawford"] if pos.crawford else "")
        return w["money"]

    def info(self) -> None:
        """A line above and below the board: the player's checker, name, score and pip count."""
        if not self.g.info:
            return
        g, th, u, out = self.g, self.th, self.u, self.items
        size = 0.4 * u
        nb = numbers_band(self.o.numbers) * u
        centre_label = self.match_label()
        for player in (0, 1):
            bside = self.side(player)
            y = g.by1 + nb + INFO * u / 2 if bside else g.by0 - nb - INFO * u / 2
            x = g.bx0 + 0.05 * u
            r = 0.2 * u
            out.append(Circle(x + r, y, r - self.lw / 2, th.checker[player], th.checker_line[player],
                              self.lw))
            name, right = self._line_texts(player)
            out.append(self.t.glyphs(name, self._line_ends(right, size)[0], y, size, th.text, anchor="lm"))
            if right:
                out.append(self.t.glyphs(right, g.bx1 - 0.05 * u, y, size, th.text, anchor="rm"))
            if not bside and centre_label and self.match_label_fits():
                out.append(self.t.glyphs(centre_label, (g.bx0 + g.bx1) / 2, y, size, th.text))

    def _line_texts(self, player: int) -> tuple[str, str]:
        """(the left text, the right text) of ``player``'s line; a name too long for the room between
        them is cut, ending in "...", so the line never overflows the board."""
        made = self._texts[player]
        if made is None:
            made = self._texts[player] = self._make_line_texts(player)
        return made

    def _make_line_texts(self, player: int) -> tuple[str, str]:
        pos = self.pos
        name = self.player_name(player)
        suffix = ""
        if pos.turn == player and pos.double_offered:
            suffix = "  (doubles)"
        elif pos.turn == player and (pos.dice is not None or self.o.dice is not None or self.arrows
                                     or self.marks_turn()):
            suffix = "  (on roll)"
        right: list[str] = []
        if self.o.score and pos.match_length:
            right.append(f"Score {pos.score[player]}")
        if self.o.pips:
            right.append(f"Pips {pos.pips(player)}")
        right_text = "     ".join(right)
        size = 0.4 * self.u
        left, right_start = self._line_ends(right_text, size)
        room = right_start - (0.4 * self.u if right_text else 0.0) - left - self.t.width(suffix, size)
        return self._cut(name, size, room) + suffix, right_text

    def _line_ends(self, right: str, size: float) -> tuple[float, float]:
        """Where a player line's left text starts (after its checker, :meth:`info`), and where its right
        text ``right`` starts (it ends at the board's right edge, less 0.05 u)."""
        g, u = self.g, self.u
        return g.bx0 + 0.65 * u, g.bx1 - 0.05 * u - (self.t.width(right, size) if right else 0.0)

    def _cut(self, text: str, size: float, room: float) -> str:
        """``text``, or its longest beginning that fits ``room`` with "..." after it."""
        if self.t.width(text, size) <= room:
            return text
        lo, hi = 0, len(text)  # the longest fitting beginning: lo fits, hi does not
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self.t.width(text[:mid].rstrip() + "...", size) <= room:
                lo = mid
            else:
                hi = mid
        return text[:lo].rstrip() + "..."

    def match_label_fits(self) -> bool:
        """The match length fits in the middle of the top player's line (else it goes in the caption)."""
        if self._fits is None:
            self._fits = self._label_fits()
        return self._fits

    def _label_fits(self) -> bool:
        label = self.match_label()
        if not label or not self.g.info:
            return False
        g, u = self.g, self.u
        size = 0.4 * u
        top = 1 - self.bottom
        name, right = self._line_texts(top)
        w = self.t.width(label, size)
        mid = (g.bx0 + g.bx1) / 2
        left, right_start = self._line_ends(right, size)
        left_end = left + self.t.width(name, size)
        return mid - w / 2 > left_end + 0.4 * u and mid + w / 2 < right_start - 0.4 * u

    def caption_text(self) -> str:
        parts = []
        if self.g.info and self.match_label() and not self.match_label_fits() and not (
                self.caption and captions.says_game(self.caption, self.pos)):
            parts.append(self.match_label() + ".")
        if self.caption:
            parts.append(_ascii(self.caption))
        return " ".join(parts)

    def caption_items(self) -> None:
        text = self.caption_text()
        g, th, u = self.g, self.th, self.u
        size = CAPTION_SIZE * u
        nb = numbers_band(self.o.numbers) * u
        ib = INFO * u if self.g.info else 0.0
        lines = self.t.wrap(text, size, g.bx1 - g.bx0) if text else []
        y = g.by1 + nb + ib + 0.25 * u + CAPTION_LINE * u / 2
        for line in lines:
            self.items.append(self.t.glyphs(line, (g.bx0 + g.bx1) / 2, y, size, th.text))
            y += CAPTION_LINE * u
        if self.table:
            self.table_items(y)

    def table_items(self, y: float) -> None:
        """The table, a row a caption line from ``y`` (the middle of its first row), centred under the
        board: the first two columns left-aligned (a rank, a play), the others right-aligned (figures);
        its text made smaller where the table would be wider than the board."""
        g, th, u, t = self.g, self.th, self.u, self.t
        rows = [tuple(_ascii(c) for c in row) for row in self.table]
        ncols = max(len(r) for r in rows)
        size = CAPTION_SIZE * u * 0.9
        gap = 0.5 * u
        widths = [max((t.width(r[k], size) for r in rows if k < len(r)), default=0.0) for k in range(ncols)]
        total = sum(widths) + gap * (ncols - 1)
        room = g.bx1 - g.bx0
        if total > room:
            shrink = room / total
            size, gap = size * shrink, gap * shrink
            widths = [w * shrink for w in widths]
            total = room
        x0 = (g.bx0 + g.bx1) / 2 - total / 2
        for row in rows:
            x = x0
            for k, cell in enumerate(row):
                if cell:
                    left = k < 2
                    self.items.append(t.glyphs(cell, x if left else x + widths[k], y, size, th.text,
                                               anchor="lm" if left else "rm"))
                x += widths[k] + gap
            y += CAPTION_LINE * u

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
        """The board's items: the empty board first (``static``), then each unit of what is on it (a
        stack, the cube, the dice, an arrow, a line of text) as one item or one :class:`Group`."""
        self.board()
        self.position()
        out = self.items
        for part in (self.cube, self.dice, self.turn_marker, self.direction_items if self.o.direction else None):
            if part is not None:
                start = len(out)
                part()
                close_group(out, start)
        if self.ghost_arrows:  # the other play, pale, under this one's arrows
            pale = replace(self.th, arrow=_mix(self.th.arrow, self.th.field, 0.55))
            Arrows(self, self.ghost_arrows, self.mover, pale).draw(out, self.checkers_at, False, show_hits=False)
        Arrows(self, self.arrows, self.mover).draw(out, self.checkers_at, self.o.ghosts)
        self.info()
        start = len(out)
        self.caption_items()
        close_group(out, start)
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
        geo1 = Geo(1.0, True, opts.numbers, False, 0)
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
    * ``dice``: the roll to show (default: the position's); ``show_dice``, ``show_cube``.  ``on_roll``:
      mark the side on roll where no dice say it (a cube decision): a triangle in the tray rail pointing
      at that side, and "(on roll)" on its player line.
    * ``names`` (True: the position's names, or a pair), ``pips``, ``score``: player lines above and
      below the board.  ``caption``: text under the figure.
    * ``play``: a play in any notation (``"13/8 13/10"``), drawn as arrows on the position before it;
      a list of plays draws one board per play side by side, each captioned with its play
      (``captions`` overrides), in ``columns`` columns.  ``arrows``: explicit ``(from, to)`` steps of the
      player on roll instead.  ``ghosts``: dashed outlines where the moved checkers land (default on).
    * ``direction``: draw the bottom player's direction of movement.
    * ``ghost_play``: another play (the one made, beside the best), drawn as pale arrows under
      ``play``'s.  ``table``: rows of cells drawn under the caption (ranked plays and equities): the
      first two columns left-aligned, the others right-aligned.
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
    ghost_arrows: list[Arrow] = []
    if opts.ghost_play is not None:
        ghost_arrows = resolve_arrows(position, opts, opts.ghost_play)[0]
    table = opts.table if boards == 1 else ()
    u0 = _u_for(opts, columns)
    ss = 4 if u0 <= 44 else 3 if u0 <= 80 else 2
    text = _text(ss)
    info = bool(opts.names or opts.pips or opts.score)
    # Boards in a grid share one caption height (the tallest wrapped caption).
    probe = Geo(u0, opts.home == "right", opts.numbers, info, 0)
    board_w = probe.bx1 - probe.bx0
    cap_lines = 0
    for i, (arrows, mover) in enumerate(resolved):
        cap = _Board(position, opts, probe, text, captions[i], arrows, mover).caption_text()
        if cap:
            cap_lines = max(cap_lines, len(text.wrap(cap, CAPTION_SIZE * u0, board_w)))
    cap_lines += len(table)
    geo = Geo(u0, opts.home == "right", opts.numbers, info, cap_lines)
    groups: list[Group] = []
    for i, (arrows, mover) in enumerate(resolved):
        b = _Board(position, opts, geo, text, captions[i], arrows, mover, ghost_arrows if boards == 1 else (), table)
        grp = b.build()
        r, c = divmod(i, columns)
        dx = round(c * (geo.width + GRID_GAP * u0 - 2 * MARGIN * u0))
        dy = round(r * (geo.height - MARGIN * u0))
        groups.append(Group(dx, dy, grp.items, grp.static))
    width = geo.width + (columns - 1) * (geo.width + GRID_GAP * u0 - 2 * MARGIN * u0)
    height = geo.height + (rows - 1) * (geo.height - MARGIN * u0)
    extra: list[Part] = []
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
        heading: list[Part] = [text.glyphs(line, width / 2, y + k * HEADING_LINE * u0, size, opts.theme.text,
                                           bold=0.02 * u0) for k, line in enumerate(lines)]
        groups = [Group(g.dx, g.dy + band, g.items, g.static) for g in groups]
        extra = [Group(0.0, band, tuple(extra)), *heading] if extra else heading
        height += band
    if len(groups) == 1 and not extra:
        root = groups[0]
    else:
        root = Group(0.0, 0.0, tuple(groups) + tuple(extra))
    shown_caption = (captions[0] if boards == 1 else opts.caption) or None
    title = opts.title if opts.title is not None else opts.heading if opts.heading else \
        shown_caption or _title(position, opts)
    desc = partial(_desc, position, opts, shown_caption)  # made when an SVG is written, not for a PNG or a page
    W, H = int(math.ceil(width - 1e-6)), int(math.ceil(height - 1e-6))
    if opts.width is not None:
        W = opts.width
    return Drawing(W, H, None if opts.transparent else opts.theme.background, root, title, "",
                   supersample=ss, dpi=opts.dpi if opts.dpi else (300 if opts.size == "print" else None),
                   find_grey=partial(_grey, root, _parts(geo, opts.theme, text).grey,
                                     opts.transparent or _is_grey(opts.theme.background)),
                   describe=desc)


def text_lines(line: str, u: float, width: float, snap: int = 2) -> list[str]:
    """``line`` as :func:`text_items` draws it: wrapped, caption-sized for ``u``, to ``width`` less the
    margins."""
    return _text(snap).wrap(_ascii(line), CAPTION_SIZE * u, width - 4 * MARGIN * u)


def text_items(lines: Sequence[str], u: float, width: float, y: float, *, left: bool = False, bold: bool = False,
               line_height: float | None = None, snap: int = 2) -> list[Part]:
    """Lines of text for a page without a board (the index of a problem set): caption-sized for the
    checker size ``u``, each wrapped to ``width`` less the margins (:func:`text_lines`), centred (or from
    the left margin), the first line's middle at ``y``, a line every ``line_height`` (default the
    caption's)."""
    text = _text(snap)
    size = CAPTION_SIZE * u
    step = CAPTION_LINE * u if line_height is None else line_height
    margin = MARGIN * u * 2
    out: list[Part] = []
    for line in lines:
        for piece in text_lines(line, u, width, snap):
            x = margin if left else width / 2
            out.append(text.glyphs(piece, x, y, size, (0, 0, 0), anchor="lm" if left else "mm",
                                   bold=0.02 * u if bold else 0.0))
            y += step
    return out


def _title(position: Position, opts: Options) -> str:
    return captions.title(position, plays=opts.plays, dice=opts.dice)


def _desc(position: Position, opts: Options, caption: str | None) -> str:
    """The diagram in words (:func:`render.captions.describe`), then its XGID."""
    names = opts.names if isinstance(opts.names, tuple) else None
    parts = [captions.describe(position, caption=caption, names=names, plays=opts.plays, dice=opts.dice,
                                ghost_play=opts.ghost_play, table=opts.table)]
    try:
        from notation.ids import xgid  # type: ignore[attr-defined]

        parts.append(xgid(position))
    except Exception:  # noqa: BLE001 - the description is optional
        pass
    return "\n".join(parts)


def _mix(a: Color, b: Color, t: float) -> Color:
    """``a`` moved the fraction ``t`` of the way to ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _is_grey(c: Color) -> bool:
    return c[0] == c[1] == c[2]


def _grey(root: Group, known: dict[int, tuple[Part, bool]], background: bool) -> bool:
    """Whether a drawing whose background is grey (or transparent) with ``background`` is all grey, its
    ``root`` too (:func:`_all_grey`)."""
    return background and _all_grey(root, known)


def _all_grey(group: Group, known: dict[int, tuple[Part, bool]] | None = None) -> bool:
    """Whether every colour of ``group`` is a shade of grey (``known``: the answers for groups seen
    before, by their ``id``, with the group)."""
    for it in group.items:
        if isinstance(it, Group):
            seen = known.get(id(it)) if known is not None else None
            if seen is not None and seen[0] is it:
                grey = seen[1]
            else:
                grey = _all_grey(it, known)
                if known is not None:
                    if len(known) >= _KEEP:
                        known.clear()
                    known[id(it)] = (it, grey)
            if not grey:
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
