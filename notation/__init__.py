"""gammon-notation: backgammon records, positions, rules, IDs, replay and conversion."""

from __future__ import annotations

__version__ = "0.1.0"

from . import variants  # noqa: E402,F401  (registers Acey-Deucey)
from .errors import (  # noqa: E402
    AmbiguousPlayError,
    IllegalPlayError,
    InvalidPositionError,
    NotationError,
    ParseError,
)
from .matchio import parse_any, parse_match, read_any, read_match  # noqa: E402
from .position import Position  # noqa: E402
from .replay import Finding, MatchReplay, replay  # noqa: E402
from .rules import Play, Rules, get_rules  # noqa: E402

__all__ = [
    "AmbiguousPlayError",
    "Finding",
    "MatchReplay",
    "IllegalPlayError",
    "InvalidPositionError",
    "NotationError",
    "ParseError",
    "Play",
    "Position",
    "Rules",
    "get_rules",
    "parse_any",
    "parse_match",
    "read_any",
    "read_match",
    "replay",
    "__version__",
]
