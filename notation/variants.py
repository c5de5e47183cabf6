"""Acey-Deucey in a record: the double named after a 1-2 (:data:`ACEY_DOUBLE`) and scoring by checkers
(:func:`scoring_rule`), which the replay checks.

Its movement is :class:`~notation.rules.AceyDeucey` (``get_rules("acey-deucey")``), defined in
:mod:`notation.rules` with the other variants (Nackgammon, Hypergammon 1/2/3 as GNU Backgammon plays
them, Dutch backgammon), so that the rules know every variant by name; it is importable from here too.

Acey-Deucey, as implemented (the common American rules):

* All 15 checkers start off the board, *waiting* (:meth:`Position.waiting`).  A waiting checker enters
  the opponent's home board as from the bar (``bar/22`` with a 3 in the mover's numbering, point 25 - die).
* Entering is optional: once a side has checkers in play it may move them, enter more, or both.
* A checker that is *hit* goes to the bar (board index 25) and, as in backgammon, every checker on the
  bar must enter before any other checker moves, waiting checkers included.  (Sources differ; this is
  the reading most rule books give, and the only one where "the bar" means anything.)
* The usual rules otherwise: both dice must be played when possible, else the larger; doubles are played
  four times; bearing off needs all 15 checkers in the home board (so none may be waiting).
* The opening: each side throws one die, the higher then throws both dice for its first turn, so the
  first roll may be a double or 1-2.
* The acey-deucey roll, 1-2: the player plays the 1 and the 2, then names any double and plays it four
  times, then rolls again.  When the 1-2 cannot be played in full the turn ends there (no double, no extra
  roll); when the named double cannot be played in full the player plays as much of it as the rules
  require and the turn ends (no extra roll).
* Gammons and backgammons as usual; a waiting checker counts as one on the bar (a backgammon).  A match
  may instead score by checkers: the winner scores one point (times the cube) per checker the loser has
  not borne off (see :func:`scoring_rule`).

In a record, the named double is its own action: ``Action(kind="move", dice=(d, d), play=...,
properties={"acey_double": ["chosen"]})`` by the same player right after the 1-2, and the extra roll is
simply that player's next ``move``.  :mod:`notation.replay` checks this order.

Position IDs cannot tell a waiting checker from one borne off (they store the board and the bar), so
an Acey-Deucey position with waiting checkers has no gnubg ID, XGID or FIBS board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules import ACEY_DEUCEY, AceyDeucey

if TYPE_CHECKING:
    from .record import Match

ACEY_DOUBLE = "acey_double"
"""The :attr:`Action.properties` key that marks the double named after an acey-deucey roll."""

SCORING_KEY = "scoring"
"""``Match.properties["scoring"] = ["checkers"]`` (or a ``Scoring`` header tag) selects checker scoring."""


def scoring_rule(match: Match) -> str:
    """``"checkers"`` when the match scores by checkers left (Acey-Deucey option), else ``"standard"``.

    Read from ``match.rules.scoring`` when the record model has it, else ``match.properties["scoring"]``
    (JSON), else a ``; [Scoring "Checkers"]`` header tag."""
    value = getattr(match.rules, "scoring", None)
    if not value:
        vals = match.properties.get(SCORING_KEY)
        value = vals[0] if vals else match.tag("Scoring")
    return "checkers" if value and value.strip().lower() in ("checkers", "checker", "count") else "standard"


__all__ = ["ACEY_DOUBLE", "ACEY_DEUCEY", "AceyDeucey", "SCORING_KEY", "scoring_rule"]
