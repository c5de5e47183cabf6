"""Where things are on a board: the geometry every part of a diagram shares, in units of ``u`` (the
checker diameter in output pixels).

Board, left to right (home board on the right): frame, cube rail, outer board (6 points), bar, home
board (6 points), tray rail, frame; point numbers above and below, optional player lines (name, score,
pips) and a caption.  :class:`Geo` turns a point, a bar or tray slot into pixels.
"""

from __future__ import annotations

from notation.position import Position

from .display import Point

POINT_MAX = 5
"""Checkers drawn on a point; with more, the count is written on the last one drawn."""
BAR_MAX = 4

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

Box = tuple[float, float, float, float]
"""x0, y0, x1, y1."""


class Geo:
    """A board's geometry at checker size ``u``: made from the five arguments, every other attribute
    computed from them (in pixels)."""

    __slots__ = ("u", "home_right", "numbers", "info", "caption_lines", "width", "height", "bx0", "by0", "bx1",
                 "by1", "fy0", "fy1", "cy", "left_field", "right_field", "bar_x", "cube_rail", "tray_rail")

    def __init__(self, u: float, home_right: bool, numbers: str, info: bool, caption_lines: int) -> None:
        self.u = u
        self.home_right = home_right
        self.numbers = numbers
        self.info = info
        self.caption_lines = caption_lines
        nb = numbers_band(numbers) * u
        ib = INFO * u if info else 0.0
        self.bx0: float = MARGIN * u
        """The board's box (frame included): x0, y0, x1, y1."""
        self.by0: float = MARGIN * u + ib + nb
        board_w = 2 * FRAME * u + 2 * RAIL * u + 12 * u + BAR * u
        board_h = 2 * FRAME * u + 10 * u + GAP * u
        self.bx1: float = self.bx0 + board_w
        self.by1: float = self.by0 + board_h
        self.fy0: float = self.by0 + FRAME * u
        """Where the points start at the top, and at the bottom (:attr:`fy1`)."""
        self.fy1: float = self.by1 - FRAME * u
        self.cy: float = (self.fy0 + self.fy1) / 2
        rail_l = (self.bx0 + FRAME * u, self.bx0 + FRAME * u + RAIL * u)
        rail_r = (self.bx1 - FRAME * u - RAIL * u, self.bx1 - FRAME * u)
        self.left_field: float = rail_l[1]
        self.bar_x: float = self.left_field + 6 * u
        self.right_field: float = self.bar_x + BAR * u
        self.cube_rail, self.tray_rail = (rail_l, rail_r) if home_right else (rail_r, rail_l)
        self.width: float = self.bx1 + MARGIN * u
        cap = (0.25 * u + caption_lines * CAPTION_LINE * u) if caption_lines else 0.0
        self.height: float = self.by1 + nb + ib + cap + MARGIN * u

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


def numbers_band(numbers: str) -> float:
    return 0.0 if numbers == "none" else NUMBERS_BOTH if numbers == "both" else NUMBERS


def pos_checkers(pos: Position) -> int:
    try:
        return int(pos.rules.checkers)
    except Exception:  # noqa: BLE001 - an unknown variant still renders
        return max(15, sum(pos.boards[0]), sum(pos.boards[1]))

