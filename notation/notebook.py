"""How a notebook shows the library's objects: a :class:`~notation.position.Position` as a diagram, a
:class:`~notation.record.Match` and a :class:`~notation.replay.MatchReplay` as the match page (as
python-chess shows its boards).

The library draws nothing and never imports the renderer (``render`` imports ``notation``, never the
reverse), so the renderer registers its drawing here when it is imported: after ``import render``,
Jupyter calls ``_repr_svg_`` / ``_repr_html_`` and shows the pictures; before, those return None and
Jupyter shows the text representation.  This module imports nothing from the library.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["register", "shown"]

KINDS = ("position_svg", "match_html")
"""``position_svg``: a Position as an SVG document; ``match_html``: a Match or a MatchReplay as HTML."""

_SHOW: dict[str, Callable[[Any], str]] = {}


def register(kind: str, show: Callable[[Any], str]) -> None:
    """Draw objects of ``kind`` (one of :data:`KINDS`) with ``show`` from now on."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r} (known: {', '.join(KINDS)})")
    _SHOW[kind] = show


def shown(kind: str, obj: Any) -> str | None:
    """``obj`` drawn by what is registered for ``kind``, or None when nothing is."""
    show = _SHOW.get(kind)
    return None if show is None else show(obj)
