"""gammon-notation: backgammon records, positions, rules, IDs, replay and conversion.

The names below are imported on first use (PEP 562), so that ``gammon --version`` and commands that
need little start fast; ``from notation import read_match`` works as usual.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_LAZY = {
    "AmbiguousPlayError": "errors",
    "IllegalPlayError": "errors",
    "InvalidPositionError": "errors",
    "NotationError": "errors",
    "ParseError": "errors",
    "parse_any": "matchio",
    "parse_match": "matchio",
    "read_any": "matchio",
    "read_match": "matchio",
    "Position": "position",
    "Finding": "replay",
    "MatchReplay": "replay",
    "replay": "replay",
    "Play": "rules",
    "Rules": "rules",
    "get_rules": "rules",
}

__all__ = [
    "AmbiguousPlayError",
    "Finding",
    "IllegalPlayError",
    "InvalidPositionError",
    "MatchReplay",
    "NotationError",
    "ParseError",
    "Play",
    "Position",
    "Rules",
    "__version__",
    "get_rules",
    "parse_any",
    "parse_match",
    "read_any",
    "read_match",
    "replay",
]

if TYPE_CHECKING:  # pragma: no cover
    from .errors import AmbiguousPlayError, IllegalPlayError, InvalidPositionError, NotationError, ParseError
    from .matchio import parse_any, parse_match, read_any, read_match
    from .position import Position
    from .replay import Finding, MatchReplay, replay
    from .rules import Play, Rules, get_rules


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'notation' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
