"""The display list: what a diagram is made of, in output pixels, for both backends.

The layout (:mod:`render.layout`) computes the geometry once and emits these primitives; the Pillow
backend (:mod:`render.raster`) and the SVG backend (:mod:`render.vector`) only translate them, so a
PNG and an SVG of the same diagram show the same thing.  Coordinates are floats in output pixels,
y downwards.  A stroke is centred on the outline, as in SVG.  Colours are ``(r, g, b)`` tuples.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

Color = tuple[int, int, int]
Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: Color | None
    stroke: Color | None = None
    width: float = 0.0
    radius: float = 0.0
    dashes: int = 0
    """When > 0 the outline is drawn as this many dashes (from the end of the top-left corner, clockwise)."""


@dataclass(frozen=True, slots=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: Color | None
    stroke: Color | None = None
    width: float = 0.0
    dashes: int = 0
    """When > 0 the outline is drawn as this many dashes (starting at 3 o'clock, clockwise)."""


@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[Point, ...]
    fill: Color | None
    stroke: Color | None = None
    width: float = 0.0
    """Strokes have round joins."""


@dataclass(frozen=True, slots=True)
class Polyline:
    """An open line with round caps and joins (used for arrow shafts, already flattened)."""

    points: tuple[Point, ...]
    stroke: Color
    width: float
    curve: tuple[Point, Point, Point] | None = None
    """The quadratic curve (start, control, end) that ``points`` flattens, for the SVG backend."""


@dataclass(frozen=True, slots=True)
class Glyphs:
    """Text, already laid out: each character with its baseline origin; ``size`` is the em size in px."""

    chars: tuple[tuple[str, float, float], ...]
    size: float
    fill: Color
    bold: float = 0.0
    """Extra outline thickness in px (a faux bold drawn as a stroke of the glyph outlines)."""


Item = Rect | Circle | Polygon | Polyline | Glyphs


@dataclass(frozen=True, slots=True)
class Group:
    """Items drawn shifted by (dx, dy): one board of a figure with several boards."""

    dx: float
    dy: float
    items: tuple[Item | Group, ...]
    static: int = 0
    """The first ``static`` items do not depend on the position (the empty board); backends may cache them."""


def close_group(out: list[Part], start: int) -> None:
    """Make the items appended to ``out`` since index ``start`` one unit (a :class:`Group` in place, not
    shifted) when there are several: one stack of checkers, one arrow, one die.  The backends draw it as
    they drew the items; the page writer (:mod:`render.html`) stores a unit once and places it by name."""
    if len(out) - start > 1:
        out[start:] = [Group(0.0, 0.0, tuple(out[start:]))]


Part = Item | Group
"""What a group holds."""


@dataclass(frozen=True, slots=True)
class Drawing:
    width: int
    height: int
    background: Color | None
    """None = transparent."""
    root: Group
    title: str = ""
    desc: str = ""
    supersample: int = 4
    """Oversampling factor of the Pillow backend (it draws this much larger and reduces)."""
    dpi: int | None = None
    grey: bool = field(default=False)
    """Every colour used is a shade of grey, as the drawing's maker knows: the PNG is written as 8-bit
    greyscale (:meth:`is_grey`)."""
    describe: Callable[[], str] | None = field(default=None, compare=False)
    """Makes :attr:`desc` when it is empty and asked for (:meth:`description`): only the SVG writes it."""

    find_grey: Callable[[], bool] | None = field(default=None, compare=False)
    """Finds whether every colour used is a shade of grey where :attr:`grey` does not say so, when asked
    (:meth:`is_grey`): only the PNG asks (a page of boards never does)."""

    def is_grey(self) -> bool:
        """Whether every colour used is a shade of grey (:attr:`grey`, else :attr:`find_grey`)."""
        return self.grey or (self.find_grey is not None and self.find_grey())

    def description(self) -> str:
        """The diagram in words (the SVG's ``<desc>``): :attr:`desc`, or what :attr:`describe` makes."""
        if self.desc or self.describe is None:
            return self.desc
        return self.describe()
