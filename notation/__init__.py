"""gammon-notation: backgammon records, positions, rules, IDs, replay and conversion.

The names below are imported on first use (PEP 562), so that ``gammon --version`` and commands that
need little start fast; ``from notation import read_match`` works as usual.

Layers, lowest first.  A module imports only from its own layer and the layers before it, and no
circle forms, counting imports inside functions and under ``TYPE_CHECKING``
(``tests/test_imports.py`` holds the code to this list).  The renderer (:mod:`render`) may import any
of it and is imported only by the commands, when they draw, and by ``notebook.shown``, when a notebook shows
an object::

    errors, _term, _grammar, _terminals, _version, _digits, parallel, _input, met, notebook  -- imports only errors
    playtext                                      -- a play as text: steps, the written play, gnubg's writer
    rules                                         -- every variant's legal plays, by name (get_rules)
    position                                      -- Position, its gnubg ID and text board
    play                                          -- reading written plays and checking them
    analysis, ogid, ids                           -- analyses; every position ID, read and written
    moves                                         -- a roll's plays as `gammon moves` lists them, and their results' IDs
    positionrecord                                -- a position read with what came with it; normalisations
    record                                        -- the match record that readers fill
    rows, losses                                  -- the .mat rows of a record; what each writer cannot hold
    variants                                      -- Acey-Deucey's named double and checker scoring
    replay                                        -- the rules-checked replay and its findings
    navigate                                      -- a replayed match's positions by the names validate gives
    decisions, statistics                         -- each decision with its analysis; gnubg's and XG's statistics
    formats.*, chouette                           -- each format's reader and writer
    matchio, positionio                           -- reading any record or position file
    stream, convert, batch, scale, dataset, reports  -- conversion, work on many files, validation reports
    notation                                      -- this module, the library's front door
    commands.*, cli, __main__                     -- the command line
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._version import __version__

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
    "replay_match": "replay",
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
    "replay_match",
]

if TYPE_CHECKING:  # pragma: no cover
    from .errors import AmbiguousPlayError, IllegalPlayError, InvalidPositionError, NotationError, ParseError
    from .matchio import parse_any, parse_match, read_any, read_match
    from .position import Position
    from .replay import Finding, MatchReplay, replay_match
    from .rules import Play, Rules, get_rules


def __getattr__(name: str) -> Any:
    if name == "replay":  # the module (its function is replay_match)
        return importlib.import_module(".replay", __name__)
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'notation' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
