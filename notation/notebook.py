"""How a notebook shows the library's objects: a :class:`~notation.position.Position` as a diagram, a
:class:`~notation.record.Match` and a :class:`~notation.replay.MatchReplay` as the match page (as
python-chess shows its boards).

The library draws nothing and never names the renderer: the renderer (``render``, which imports
``notation``, never the reverse) registers its drawing here when it is imported, and the package
declares it as an entry point of the group :data:`GROUP` (``pyproject.toml``).  ``import notation`` is
enough in a notebook: the first time Jupyter asks an object for its picture (``_repr_svg_`` /
``_repr_html_``), :func:`shown` loads what that group declares, inside the call, and draws (as
python-chess's boards draw themselves after ``import chess``).  Importing the library never imports the
renderer; only showing an object does.  Where nothing is declared or it cannot be imported, those return
None and Jupyter shows the text representation.  This module imports nothing from the library.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["GROUP", "register", "shown"]

GROUP = "gammon_notation.notebook"
"""The entry-point group whose members, when loaded, register drawings here (the renderer: ``render``)."""

KINDS = ("position_svg", "match_html")
"""``position_svg``: a Position as an SVG document; ``match_html``: a Match or a MatchReplay as HTML."""

_SHOW: dict[str, Callable[[Any], str]] = {}


def register(kind: str, show: Callable[[Any], str]) -> None:
    """Draw objects of ``kind`` (one of :data:`KINDS`) with ``show`` from now on."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r} (known: {', '.join(KINDS)})")
    _SHOW[kind] = show


def shown(kind: str, obj: Any) -> str | None:
    """``obj`` drawn by what is registered for ``kind`` (the renderer's drawing, imported now when it was
    not before), or None when nothing is."""
    show = _SHOW.get(kind)
    if show is None:
        from importlib.metadata import entry_points  # (only when a notebook first asks for a picture)

        for drawer in entry_points(group=GROUP):
            try:
                drawer.load()  # its import registers its drawings (render/__init__.py)
            except ImportError:
                continue
        show = _SHOW.get(kind)
    return None if show is None else show(obj)
