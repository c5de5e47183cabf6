"""The rules: legal plays for a position and a roll, one per distinct resulting position.

A variant is a :class:`Rules` object (``get_rules("nackgammon")``), not an if-chain: the objects
differ in their starting position, number of checkers and the few hooks where the movement rules
differ (Dutch backgammon's hitting restriction, Acey-Deucey's entering).

Boards inside this module are seen from the mover: ``mine`` in the mover's numbering (index 0 off,
1..24 points, 25 bar) and ``theirs`` in the opponent's own numbering, so the opponent's checkers on
the mover's point ``p`` are ``theirs[25 - p]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .position import STANDARD_START, Board, Position

Step = tuple[int, int, bool]
"""One checker moved by one die: (from, to, hit) in the mover's numbering; 25 = bar, 0 = off."""


@dataclass(frozen=True, slots=True)
class Play:
    """A legal play: its single-die steps in a legal order, and the boards it leaves."""

    steps: tuple[Step, ...]
    mine: Board
    """The mover's board afterwards."""
    theirs: Board
    """The opponent's board afterwards (hit checkers on its bar)."""

    @property
    def dice_used(self) -> int:
        return len(self.steps)

    def notation(self) -> str:
        from .play import format_play

        return format_play(self.steps)

    def __str__(self) -> str:
        return self.notation()


ALL_ROLLS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(6, 0, -1) for b in range(a, 0, -1))
"""The 21 distinct rolls, high die first: 66, 65, ..., 11."""


class Rules:
    """Standard backgammon.  Subclasses override the class attributes and hooks."""

    name = "standard"
    title = "Backgammon"
    checkers = 15
    checkers_start_off_board = False
    start: dict[int, int] = {24: 2, 13: 5, 8: 3, 6: 5}
    hit_needs_home_checker = False
    """Dutch backgammon: a blot may be hit only once the hitter has a checker in its home board."""

    def start_board(self) -> Board:
        b = [0] * 26
        for p, n in self.start.items():
            b[p] = n
        return tuple(b)

    # ------------------------------------------------------------------ legal plays
    def legal_plays(self, position: Position, dice: tuple[int, int] | None = None) -> list[Play]:
        """Every legal play of the player on roll, one per distinct resulting position.

        An empty list means the roll cannot be played at all.
        """
        d = dice if dice is not None else position.dice
        if d is None:
            raise ValueError("no dice: the position has not been rolled and no roll was given")
        return list(self.plays_for(position.on_roll, position.opponent, d[0], d[1]))

    def plays_for(self, mine: Board, theirs: Board, d1: int, d2: int) -> tuple[Play, ...]:
        return _cached_plays(self, mine, theirs, max(d1, d2), min(d1, d2))

    def _generate(self, mine: Board, theirs: Board, hi: int, lo: int) -> tuple[Play, ...]:
        blocked = [False] * 26
        blot = [False] * 26
        for p in range(1, 25):
            n = theirs[25 - p]
            if n >= 2:
                blocked[p] = True
            elif n == 1:
                blot[p] = True
        m = list(mine)
        outside = sum(m[7:26])
        best = [0]
        dutch = self.hit_needs_home_checker

        hits_now = [0]
        outside_now = [outside]
        first_die = [0]

        def options(die: int, lowest_src: int) -> list[Step]:
            res: list[Step] = []
            srcs: range | tuple[int, ...] = (25,) if m[25] else range(min(lowest_src, 24), 0, -1)
            for s in srcs:
                if not m[s]:
                    continue
                t = s - die
                if t >= 1:
                    if blocked[t]:
                        continue
                    hit = blot[t] and not (hits_now[0] >> t) & 1
                    if hit and dutch and not any(m[1:7]):
                        continue
                    res.append((s, t, hit))
                elif outside_now[0] == 0 and (t == 0 or not any(m[s + 1:7])):
                    res.append((s, 0, False))
            return res

        def apply(s: int, t: int, hit: bool) -> None:
            m[s] -= 1
            m[t] += 1
            if s >= 7 and t <= 6:
                outside_now[0] -= 1
            if hit:
                hits_now[0] |= 1 << t

        def undo(s: int, t: int, hit: bool) -> None:
            m[s] += 1
            m[t] -= 1
            if s >= 7 and t <= 6:
                outside_now[0] += 1
            if hit:
                hits_now[0] &= ~(1 << t)

        found: dict[tuple[tuple[int, ...], int], tuple[tuple[Step, ...], int]] = {}

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
                for s, t, hit in opts:
                    apply(s, t, hit)
                    rec(depth + 1, s, steps + ((s, t, hit),))
                    undo(s, t, hit)

            rec(0, 25, ())
        else:
            for first, second in ((hi, lo), (lo, hi)):
                first_die[0] = first
                for s, t, hit in options(first, 25):
                    apply(s, t, hit)
                    opts2 = options(second, 25)
                    if opts2:
                        for s2, t2, hit2 in opts2:
                            apply(s2, t2, hit2)
                            record(((s, t, hit), (s2, t2, hit2)))
                            undo(s2, t2, hit2)
                    else:
                        record(((s, t, hit),))
                    undo(s, t, hit)
            if best[0] == 1:
                # Either die but not both can be played: the larger one when it can be.
                larger = {k: v for k, v in found.items() if v[1] == hi}
                if larger:
                    found = larger

        plays = []
        for (board, hits), (steps, _die) in found.items():
            if not steps:
                continue
            if hits:
                th = list(theirs)
                for p in range(1, 25):
                    if (hits >> p) & 1:
                        th[25 - p] -= 1
                        th[25] += 1
                theirs_after = tuple(th)
            else:
                theirs_after = theirs
            plays.append(Play(steps, board, theirs_after))
        return tuple(plays)


@lru_cache(maxsize=65536)
def _cached_plays(rules: Rules, mine: Board, theirs: Board, hi: int, lo: int) -> tuple[Play, ...]:
    return rules._generate(mine, theirs, hi, lo)


class Nackgammon(Rules):
    name = "nackgammon"
    title = "Nackgammon"
    start = {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}


class Hypergammon(Rules):
    name = "hypergammon3"
    title = "Hypergammon"
    checkers = 3
    start = {24: 1, 23: 1, 22: 1}


class Hypergammon1(Hypergammon):
    name = "hypergammon1"
    title = "1-checker Hypergammon"
    checkers = 1
    start = {24: 1}


class Hypergammon2(Hypergammon):
    name = "hypergammon2"
    title = "2-checker Hypergammon"
    checkers = 2
    start = {24: 1, 23: 1}


class Dutch(Rules):
    """Dutch backgammon: all checkers start off the board and enter as from the bar; a blot may be
    hit only once the hitter has at least one checker in its home board."""

    name = "dutch"
    title = "Dutch backgammon"
    start = {25: 15}
    hit_needs_home_checker = True


_RULES: dict[str, Rules] = {}
_ALIASES = {
    "backgammon": "standard",
    "standard": "standard",
    "nackgammon": "nackgammon",
    "hypergammon": "hypergammon3",
    "hypergammon1": "hypergammon1",
    "hypergammon2": "hypergammon2",
    "hypergammon3": "hypergammon3",
    "1-chequer-hypergammon": "hypergammon1",
    "2-chequer-hypergammon": "hypergammon2",
    "3-chequer-hypergammon": "hypergammon3",
    "dutch": "dutch",
    "dutch-backgammon": "dutch",
}

for _cls in (Rules, Nackgammon, Hypergammon, Hypergammon1, Hypergammon2, Dutch):
    _RULES[_cls.name] = _cls()


def register_rules(rules: Rules, *aliases: str) -> None:
    """Add a variant (used by modules that define more elaborate variants)."""
    _RULES[rules.name] = rules
    _ALIASES[rules.name] = rules.name
    for a in aliases:
        _ALIASES[a] = rules.name


def variant_names() -> list[str]:
    return sorted(_RULES)


def get_rules(variant: str | Rules) -> Rules:
    """The rules object for a variant name (case and punctuation are ignored: ``HyperGammon (3)``)."""
    if isinstance(variant, Rules):
        return variant
    key = variant.strip().lower().replace(" ", "").replace("(", "").replace(")", "").replace("_", "-")
    name = _ALIASES.get(key) or _ALIASES.get(key.replace("-", ""))
    if name is None or name not in _RULES:
        raise ValueError(f"unknown variant {variant!r} (known: {', '.join(variant_names())})")
    return _RULES[name]


assert Rules().start_board() == STANDARD_START
