"""Backgammon diagrams in the style of a rules book: PNG (Pillow) and standalone SVG.

>>> from notation import Position
>>> import render
>>> data = render.png(Position.initial(dice=(5, 3)), play=["13/8 13/10", "8/3 6/3"])
>>> data[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True

The geometry is computed once (:func:`layout` returns a display list) and written by two backends
that only translate it, so a PNG and an SVG of the same diagram agree.  Same input, same pixels:
there are no textures and no randomness, and text is drawn from the outlines of the fonts in
``render/fonts`` (Aileron, the font Pillow embeds, and DejaVu Sans for every character Aileron lacks:
Latin with accents, Greek, Cyrillic ...), not by a font engine and never from system fonts.
:func:`add_font` adds a TrueType font for other scripts (CJK); characters no font has are drawn as
``?`` and listed in ``render._font.MISSING``.

All options are keyword-only; see :func:`render.layout.layout` for the full list (size, width, dpi,
home, bottom, numbers, theme, dice, names, pips, score, caption, play, arrows, ghosts, direction).
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from notation.position import Position

from . import raster, vector
from ._font import add_font
from .display import Drawing
from .layout import SIZES, Options, layout, make_options
from .themes import THEMES, Theme, get_theme
from .vector import SvgString

__all__ = [
    "SIZES",
    "THEMES",
    "Drawing",
    "Options",
    "SvgString",
    "Theme",
    "add_font",
    "drawing",
    "get_theme",
    "image",
    "layout",
    "make_options",
    "png",
    "svg",
]


def _position(position: Position | str) -> Position:
    if isinstance(position, Position):
        return position
    if isinstance(position, str):
        from notation import ids  # type: ignore[attr-defined]

        return ids.parse_position(position)  # type: ignore[no-any-return]
    raise TypeError(f"expected a Position or a position ID, not {type(position).__name__}")


def drawing(position: Position | str, **options: Any) -> Drawing:
    """The display list (geometry in output pixels) of a diagram."""
    return layout(_position(position), **options)


def image(position: Position | str, **options: Any) -> Image.Image:
    """The diagram as a PIL image: mode ``L`` for all-grey themes (the default), ``RGB`` otherwise
    (``LA`` / ``RGBA`` with ``transparent=True``)."""
    return raster.image(drawing(position, **options))


def png(position: Position | str, **options: Any) -> bytes:
    """The diagram as PNG bytes (deterministic: equal input gives equal bytes with the same Pillow)."""
    return raster.png(drawing(position, **options))


def svg(position: Position | str, **options: Any) -> SvgString:
    """The diagram as a standalone SVG document (no external fonts or images)."""
    return vector.svg(drawing(position, **options))
