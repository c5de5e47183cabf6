"""Variants whose movement rules need more than :mod:`notation.rules` offers: Acey-Deucey.

The simpler variants live in :mod:`notation.rules` (Nackgammon, Hypergammon 1/2/3 as GNU Backgammon
plays them, Dutch backgammon).  This module adds :class:`AceyDeucey` and registers it with
:func:`~notation.rules.register_rules` when it is imported (``get_rules("acey-deucey")``).

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

from functools import lru_cache
from typing import TYPE_CHECKING

from .errors import AmbiguousPlayError, IllegalPlayError
from .position import Board, Position
from .rules import Play, Rules, Step, register_rules

if TYPE_CHECKING:
    from .play import ParsedPlay, Resolution
    from .record import Match

ACEY_DOUBLE = "acey_double"
"""The :attr:`Action.properties` key that marks the double named after an acey-deucey roll."""

SCORING_KEY = "scoring"
"""``Match.properties["scoring"] = ["checkers"]`` (or a ``Scoring`` header tag) selects checker scoring."""


class AceyDeucey(Rules):
    """Acey-Deucey: all checkers start waiting off the board; 1-2 earns a named double and a new roll."""

    name = "acey-deucey"
    title = "Acey-Deucey"
    checkers = 15
    checkers_start_off_board = True
    start: dict[int, int] = {}
    bonus_roll: tuple[int, int] | None = (2, 1)
    """The roll (high die first) that earns a named double and another roll."""
    opening_doubles_allowed = True

    def start_board(self) -> Board:
        return (0,) * 26

    def plays_for(self, mine: Board, theirs: Board, d1: int, d2: int) -> tuple[Play, ...]:
        return _acey_cached(self.checkers, mine, theirs, max(d1, d2), min(d1, d2))

    def _generate(self, mine: Board, theirs: Board, hi: int, lo: int) -> tuple[Play, ...]:
        return _acey_generate(self.checkers, mine, theirs, hi, lo)

    # ------------------------------------------------------------------ written plays
    def resolve_written(self, position: Position, parsed: ParsedPlay, dice: tuple[int, int],
                        *, column: int = 1) -> Resolution:
        """The legal play a written play denotes (or :class:`IllegalPlayError`/:class:`AmbiguousPlayError`).

        ``bar/N`` enters a checker from the bar when one is there, else a waiting one.  A written play
        is matched to the legal plays by the board it leaves; hit marks choose between plays that
        leave the same board but hit differently."""
        from .play import Resolution, format_play

        text = parsed.text.strip()
        hi, lo = max(dice), min(dice)
        roll_s = f"{hi}{lo}"
        mine, theirs = position.on_roll, position.opponent
        legal = self.plays_for(mine, theirs, hi, lo)
        if not parsed.segments:
            if not legal:
                return Resolution(Play((), mine, theirs))
            raise IllegalPlayError(f"no move is written, but {roll_s} can be played, e.g. "
                                   f"{_examples(legal)}", column=column, text=parsed.text)
        after, problem = _written_result(mine, theirs, parsed, self.checkers)
        if after is None:
            raise IllegalPlayError(problem or f"{text!r} cannot be made", column=column, text=parsed.text)
        matching = [p for p in legal if p.mine == after]
        if not matching:
            if not legal:
                raise IllegalPlayError(f"{roll_s} cannot be played at all here, yet {text!r} is written",
                                       column=column, text=parsed.text)
            most = max(p.dice_used for p in legal)
            moved = sum(seg.count * (len(seg.points) - 1) for seg in parsed.segments)
            if moved < most and hi != lo:
                raise IllegalPlayError(f"{text!r} does not play both dice, but {legal[0].notation()} does",
                                       column=column, text=parsed.text)
            raise IllegalPlayError(f"{text!r} is not a legal play of {roll_s}; legal: {_examples(legal)}",
                                   column=column, text=parsed.text)
        marked = {p for seg in parsed.segments for p, mk in zip(seg.points, seg.marks, strict=True) if mk}
        if len(matching) > 1:
            exact = [p for p in matching if {t for _, t, h in p.steps if h} == marked]
            if len(exact) == 1:
                matching = exact
            else:
                options = "; ".join(format_play(p.steps) for p in matching)
                raise AmbiguousPlayError(f"{text!r} can mean {options}", column=column, text=parsed.text)
        play = matching[0]
        notes = []
        hit_points = {t for _, t, h in play.steps if h}
        for p in sorted(hit_points - marked, reverse=True):
            notes.append(f"the hit on {p} is not marked")
        for p in sorted(marked - hit_points, reverse=True):
            notes.append(f"{p} is marked as a hit, but no blot is hit there")
        return Resolution(play, tuple(notes))

    def as_recorded(self, position: Position, parsed: ParsedPlay) -> Play | None:
        """A written (illegal) play applied checker by checker ignoring the dice, when physically possible."""
        mine, theirs = position.on_roll, position.opponent
        after, _problem = _written_result(mine, theirs, parsed, self.checkers)
        if after is None:
            return None
        th = list(theirs)
        steps: list[Step] = []
        for seg in parsed.segments:
            for _ in range(seg.count):
                a, b = seg.points[0], max(seg.points[-1], 0)
                hit = b > 0 and th[25 - b] == 1
                if hit:
                    th[25 - b] = 0
                    th[25] += 1
                steps.append((a, b, hit))
        return Play(tuple(steps), after, tuple(th))


def _examples(plays: tuple[Play, ...], n: int = 5) -> str:
    shown = sorted(p.notation() for p in plays)[:n]
    more = len(plays) - len(shown)
    return ", ".join(shown) + (f" (and {more} more)" if more > 0 else "")


def _written_result(mine: Board, theirs: Board, parsed: ParsedPlay,
                    checkers: int) -> tuple[Board | None, str | None]:
    """The mover's board after a written play (each checker from its first to its last point), or
    (None, reason) when the writing is impossible on this board."""
    m = list(mine)
    pool = checkers - sum(mine)
    bar = m[25]
    for seg in parsed.segments:
        pts = seg.points
        for a, b in zip(pts, pts[1:], strict=False):
            if a == 0 or b == 25:
                return None, f"{seg.text}: a checker cannot move from off or to the bar"
            if b >= a:
                return None, f"{seg.text}: {a}/{b} does not move forward"
        for _ in range(seg.count):
            a, b = pts[0], pts[-1]
            if a == 25:
                if bar > 0:
                    bar -= 1
                    m[25] -= 1
                elif pool > 0:
                    pool -= 1
                else:
                    return None, f"{seg.text}: no checker is on the bar or waiting to enter"
            else:
                m[a] -= 1
            m[max(b, 0)] += 1
            if b > 0 and theirs[25 - b] >= 2:
                return None, (f"{seg.text} lands on {b}, which the opponent holds with {theirs[25 - b]} "
                              "checkers")
    for p in range(1, 25):
        if m[p] < 0:
            return None, f"there is no checker on {p} to move"
    return tuple(m), None


@lru_cache(maxsize=16384)
def _acey_cached(checkers: int, mine: Board, theirs: Board, hi: int, lo: int) -> tuple[Play, ...]:
    return _acey_generate(checkers, mine, theirs, hi, lo)


def _acey_generate(checkers: int, mine: Board, theirs: Board, hi: int, lo: int) -> tuple[Play, ...]:
    """Every legal Acey-Deucey play, one per resulting position: a depth-first search over single-die
    steps in which a waiting checker may enter whenever nothing is on the bar."""
    blocked = [False] * 26
    blot = [False] * 26
    for p in range(1, 25):
        n = theirs[25 - p]
        if n >= 2:
            blocked[p] = True
        elif n == 1:
            blot[p] = True
    m = list(mine)
    pool = [checkers - sum(mine)]
    outside = [sum(m[7:26]) + pool[0]]  # waiting checkers are not in the home board
    hits_now = [0]
    best = [0]
    first_die = [0]
    found: dict[tuple[tuple[int, ...], int], tuple[tuple[Step, ...], int]] = {}

    # An option is (from, to, hit, from_pool).
    def options(die: int, lowest: int) -> list[tuple[int, int, bool, bool]]:
        res: list[tuple[int, int, bool, bool]] = []
        if m[25]:
            srcs: list[tuple[int, bool]] = [(25, False)]
        else:
            srcs = [(25, True)] if pool[0] and lowest >= 25 else []
            srcs += [(s, False) for s in range(min(lowest, 24), 0, -1) if m[s]]
        for s, from_pool in srcs:
            t = s - die
            if t >= 1:
                if blocked[t]:
                    continue
                res.append((s, t, blot[t] and not (hits_now[0] >> t) & 1, from_pool))
            elif outside[0] == 0 and (t == 0 or not any(m[s + 1:7])):
                res.append((s, 0, False, False))
        return res

    def apply(s: int, t: int, hit: bool, from_pool: bool, sign: int) -> None:
        if from_pool:
            pool[0] -= sign
        else:
            m[s] -= sign
        m[t] += sign
        if s >= 7 and t <= 6:
            outside[0] -= sign
        if hit:
            hits_now[0] ^= 1 << t

    def record(steps: tuple[Step, ...]) -> None:
        n = len(steps)
        if n < best[0]:
            return
        if n > best[0]:
            best[0] = n
            found.clear()
        key = (tuple(m), hits_now[0])
        if key not in found:
            found[key] = (steps, first_die[0])

    if hi == lo:
        def rec(depth: int, lowest: int, steps: tuple[Step, ...]) -> None:
            opts = options(hi, lowest) if depth < 4 else None
            if not opts:
                record(steps)
                return
            for s, t, hit, fp in opts:
                apply(s, t, hit, fp, 1)
                rec(depth + 1, s, steps + ((s, t, hit),))
                apply(s, t, hit, fp, -1)

        rec(0, 25, ())
        rec = None  # type: ignore[assignment]  # a recursive closure is a reference cycle: broken here
    else:
        for first, second in ((hi, lo), (lo, hi)):
            first_die[0] = first
            for s, t, hit, fp in options(first, 25):
                apply(s, t, hit, fp, 1)
                opts2 = options(second, 25)
                if opts2:
                    for s2, t2, hit2, fp2 in opts2:
                        apply(s2, t2, hit2, fp2, 1)
                        record(((s, t, hit), (s2, t2, hit2)))
                        apply(s2, t2, hit2, fp2, -1)
                else:
                    record(((s, t, hit),))
                apply(s, t, hit, fp, -1)
        if best[0] == 1:
            larger = {k: v for k, v in found.items() if v[1] == hi}
            if larger:
                found = larger

    plays = []
    for (board, hits), (steps, _die) in found.items():
        if not steps:
            continue
        th = list(theirs)
        for p in range(1, 25):
            if (hits >> p) & 1:
                th[25 - p] -= 1
                th[25] += 1
        plays.append(Play(steps, board, tuple(th)))
    return tuple(plays)


def scoring_rule(match: Match) -> str:
    """``"checkers"`` when the match scores by checkers left (Acey-Deucey option), else ``"standard"``.

    Read from ``match.rules.scoring`` when the record model has it, else ``match.properties["scoring"]``
    (JSON), else a ``; [Scoring "Checkers"]`` header tag."""
    value = getattr(match.rules, "scoring", None)
    if not value:
        vals = match.properties.get(SCORING_KEY)
        value = vals[0] if vals else match.tag("Scoring")
    return "checkers" if value and value.strip().lower() in ("checkers", "checker", "count") else "standard"


ACEY_DEUCEY = AceyDeucey()
register_rules(ACEY_DEUCEY, "acey-deucey", "aceydeucey", "acey-ducey", "aceyducey", "acey")

__all__ = ["ACEY_DOUBLE", "ACEY_DEUCEY", "AceyDeucey", "SCORING_KEY", "scoring_rule"]
