"""What a reader of one position gives: the :class:`PositionRecord` (a position with what came with it)
and the :class:`Normalisation` a reader reports for anything it changed or interpreted (both re-exported
by :mod:`notation.record`).

Apart from :mod:`notation.record` so that ``gammon show XGID`` does not pay for the match record's
classes (each dataclass costs its start-up a millisecond or more).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from .position import Position

if TYPE_CHECKING:  # pragma: no cover - imported where an analysis is read or written (start-up time)
    from .analysis import Analysis

__all__ = ["Normalisation", "PositionRecord"]


@dataclass(frozen=True, slots=True)
class Normalisation:
    """Something a reader changed or interpreted while reading (reported, never silent)."""

    message: str
    line: int | None = None
    column: int | None = None
    severity: Literal["note", "warning"] = "note"
    """``note``; ``warning`` for what a reader could not vouch for (an OGXM signature that does not verify,
    a checksum it cannot check): said as a warning by validate, refused by ``convert --strict``."""


@dataclass(slots=True)
class PositionRecord:
    """One position read from a position file or pasted text (``.xgp``, an XG or BGBlitz text export,
    a bare ID), with what came with it."""

    position: Position
    names: tuple[str, str] | None = None
    """Player 0's and player 1's names, when the source gave them."""
    analysis: Analysis | None = None
    """The ranked plays or the cube decision the source listed, when it did."""
    format: str = ""
    """``xgp``, ``xg-text``, ``bgblitz-text``, ``xgid``, ``gnubg-id``, ``fibs`` ..."""
    source: str | None = None
    comment: str | None = None
    tags: list[tuple[str, str]] = field(default_factory=list)
    """Anything else the source named (event, date ...), in source order."""
    normalisations: list[Normalisation] = field(default_factory=list)
