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
home, bottom, numbers, theme, dice, on_roll, names, pips, score, caption, heading, title, play, arrows, ghosts,
direction, ghost_play, table).  Problem sets: :mod:`render.problems`; book captions: :mod:`render.captions`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any, TypedDict, TypeVar, Unpack

from PIL import Image

from notation import notebook
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
    "RenderOptions",
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


class RenderOptions(TypedDict, total=False):
    """Every option of :func:`png`, :func:`svg`, :func:`image` and :func:`drawing` (all keyword-only);
    :func:`render.layout.layout` documents each."""

    size: str
    u: float | None
    width: int | None
    dpi: int | None
    home: str
    bottom: int | str
    numbers: str
    theme: str | Theme
    dice: tuple[int, int] | str | None
    show_dice: bool
    show_cube: bool
    on_roll: bool
    names: bool | tuple[str, str]
    pips: bool
    score: bool
    caption: str | None
    captions: Sequence[str] | None
    play: str | Sequence[str] | None
    plays: Sequence[str]
    arrows: Sequence[tuple[int, int, bool] | tuple[int, int]]
    ghosts: bool
    direction: bool
    columns: int | None
    title: str | None
    heading: str | None
    transparent: bool
    ghost_play: str | None
    table: Sequence[Sequence[str]]


_DEFAULTS: dict[str, Any] = {
    "size": "medium", "u": None, "width": None, "dpi": None, "home": "right", "bottom": "on_roll",
    "numbers": "viewer", "theme": "print", "dice": None, "show_dice": True, "show_cube": True, "on_roll": False,
    "names": False, "pips": False, "score": False, "caption": None, "captions": None, "play": None, "plays": (),
    "arrows": (), "ghosts": True, "direction": False, "columns": None, "title": None, "heading": None,
    "transparent": False, "ghost_play": None, "table": (),
}

_F = TypeVar("_F", bound=Callable[..., Any])


def _with_options(fn: _F) -> _F:
    """Show every option in the signature (``help(render.png)``, IDEs): keyword-only, typed, defaulted."""
    params = [inspect.Parameter("position", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                annotation="Position | str")]
    params += [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=_DEFAULTS[name],
                                 annotation=getattr(RenderOptions.__annotations__[name], "__forward_arg__",
                                                    RenderOptions.__annotations__[name]))
               for name in _DEFAULTS]
    ret = inspect.signature(fn).return_annotation
    fn.__signature__ = inspect.Signature(params, return_annotation=ret)  # type: ignore[attr-defined]
    return fn


def _position(position: Position | str) -> Position:
    if isinstance(position, Position):
        return position
    if isinstance(position, str):
        from notation import ids  # type: ignore[attr-defined]

        return ids.parse_position(position)  # type: ignore[no-any-return]
    raise TypeError(f"expected a Position or a position ID, not {type(position).__name__}")


@_with_options
def drawing(position: Position | str, **options: Unpack[RenderOptions]) -> Drawing:
    """The display list (geometry in output pixels) of a diagram."""
    return layout(_position(position), **options)


@_with_options
def image(position: Position | str, **options: Unpack[RenderOptions]) -> Image.Image:
    """The diagram as a PIL image: mode ``L`` for all-grey themes (the default), ``RGB`` otherwise
    (``LA`` / ``RGBA`` with ``transparent=True``)."""
    return raster.image(drawing(position, **options))


@_with_options
def png(position: Position | str, **options: Unpack[RenderOptions]) -> bytes:
    """The diagram as PNG bytes (deterministic: equal input gives equal bytes with the same Pillow)."""
    return raster.png(drawing(position, **options))


@_with_options
def svg(position: Position | str, **options: Unpack[RenderOptions]) -> SvgString:
    """The diagram as a standalone SVG document (no external fonts or images)."""
    return vector.svg(drawing(position, **options))


def _position_svg(position: Position) -> str:
    return str(svg(position, names=any(position.names), score=position.match_length > 0, on_roll=True))


def _match_html(match: Any) -> str:
    from .html import notebook_page

    return notebook_page(match)


# Jupyter shows a Position as this diagram and a Match or a replay as its page (see notation.notebook)
notebook.register("position_svg", _position_svg)
notebook.register("match_html", _match_html)
