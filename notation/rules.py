"""The rules: legal plays for a position and a roll, one per distinct resulting position.

A variant is a :class:`Rules` object (``get_rules("nackgammon")``), not an if-chain: the objects
differ in their starting position, number of checkers and the few hooks where the movement rules
differ (Dutch backgammon's hitting restriction, Acey-Deucey's entering).  Every variant is defined
here, so that :func:`get_rules` knows each by name (Acey-Deucey's record conventions, its named double
and checker scoring, are in :mod:`notation.variants`).  The rules work on boards (:data:`Board`); a
position (:mod:`notation.position`, a layer above, whose :attr:`~notation.position.Position.rules` are
these) is read through :class:`OnRoll`.

Boards inside this module are seen from the mover: ``mine`` in the mover's numbering (index 0 off,
1..24 points, 25 bar) and ``theirs`` in the opponent's own numbering, so the opponent's checkers on
the mover's point ``p`` are ``theirs[25 - p]``.

The legal plays are exactly GNU Backgammon's (``tests/test_rules_oracle.py`` compares them with gnubg
on 75,600 rolls of real and random positions): every play that uses as many dice as possible, the
larger die when only one can be played; one play per resulting position (hits count), with the steps
of the first sequence gnubg's own search finds for it, in gnubg's order.

Speed (``benchmarks/movegen.py``): the generator specialises by case instead of searching blindly.
One rule says where a checker may go by one die (:func:`step_to`: bar first, open points, bearing
off); the generators read its answers as tables of the position (:class:`_Setup`), and ask it again only
where the board of the moment decides (bearing off after other steps).
A non-double with two or more checkers outside the home board and none on the bar is a product of the
single-die steps (:func:`_pairs_fast`); doubles with nothing to bear off are four nested loops with
sources never rising (:func:`_doubles_plain`); the rest (the bar, bearing off, Dutch backgammon's hits) is
a small search.  A
play is identified by an integer key built from per-point deltas, step tuples are shared, and the
per-position set-up is cached for the other rolls (:func:`_setup`).  The results of the last few
queries are cached (:func:`_cached_plays`; :func:`clear_caches` empties both caches).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple, Protocol

from .errors import AmbiguousPlayError
from .playtext import ParsedPlay, Segment, Step, format_play, point_name

Board = tuple[int, ...]
"""26 counts: [0] borne off, [1..24] points in the owner's numbering, [25] bar."""


class OnRoll(Protocol):
    """What the rules read of a position (a :class:`~notation.position.Position`): the boards of the
    player on roll and of the opponent, and the dice."""

    @property
    def on_roll(self) -> Board: ...

    @property
    def opponent(self) -> Board: ...

    @property
    def dice(self) -> tuple[int, int] | None: ...


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
        return format_play(self.steps)

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"<Play {self.notation() or '(no move)'}>"


@dataclass(frozen=True, slots=True)
class Resolution:
    """A written play resolved against a position: the legal play and notes about the writing."""

    play: Play
    notes: tuple[str, ...] = field(default=())


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
    bonus_roll: tuple[int, int] | None = None
    """Acey-Deucey: the roll (high, low) after which the player names a double and rolls again."""

    def __repr__(self) -> str:
        return f"<Rules {self.name!r}: {self.title}, {self.checkers} checkers>"

    def start_board(self) -> Board:
        b = [0] * 26
        for p, n in self.start.items():
            b[p] = n
        return tuple(b)

    # ------------------------------------------------------------------ legal plays
    def legal_plays(self, position: OnRoll, dice: tuple[int, int] | None = None) -> list[Play]:
        """Every legal play of the player on roll, one per distinct resulting position.

        An empty list means the roll cannot be played at all.
        """
        d = dice if dice is not None else position.dice
        if d is None:
            raise ValueError("no dice: the position has not been rolled and no roll was given")
        return list(self.plays_for(position.on_roll, position.opponent, d[0], d[1]))

    def plays_for(self, mine: Board, theirs: Board, d1: int, d2: int) -> tuple[Play, ...]:
        """Every legal play of ``mine`` against ``theirs`` with the roll ``d1``-``d2`` (cached)."""
        return _cached_plays(self, mine, theirs, max(d1, d2), min(d1, d2))

    def _generate(self, mine: Board, theirs: Board, hi: int, lo: int) -> tuple[Play, ...]:
        """The legal plays, in the order GNU Backgammon's generator first finds each result, each with
        the single-die steps of that first sequence (a legal order)."""
        return _build(mine, theirs, _found(mine, theirs, hi, lo, self.hit_needs_home_checker))

    def play_steps(self, mine: Board, theirs: Board, d1: int, d2: int) -> Collection[tuple[Step, ...]]:
        """The steps of each legal play, as :meth:`plays_for` gives them and in its order, without making
        the :class:`Play` objects and their boards (for listing plays: ``gammon moves``)."""
        hi, lo = (d1, d2) if d1 >= d2 else (d2, d1)
        if type(self).plays_for is not Rules.plays_for or type(self)._generate is not Rules._generate:
            return [p.steps for p in self.plays_for(mine, theirs, hi, lo)]
        return _found(mine, theirs, hi, lo, self.hit_needs_home_checker).values()

    def as_recorded(self, position: OnRoll, parsed: ParsedPlay) -> Play | None:
        """A written (illegal) play applied as written, ignoring the dice, when the board allows it
        (:func:`as_written`; Acey-Deucey's ``bar/N`` may enter a waiting checker)."""
        mine = position.on_roll
        pool = self.checkers - sum(mine) if self.checkers_start_off_board else 0
        return as_written(mine, position.opponent, parsed.segments, pool)


@lru_cache(maxsize=32)
def _cached_plays(rules: Rules, mine: Board, theirs: Board, hi: int, lo: int) -> tuple[Play, ...]:
    """The last queries' plays: a replay asks about the same roll again when it reads the play.  Kept
    small on purpose: cached plays live long enough for the garbage collector to scan them again
    and again, which costs more than a larger cache saves."""
    return rules._generate(mine, theirs, hi, lo)


# --------------------------------------------------------------------------- the fast generator
#
# A play is identified by a *key*: the sum over its steps of _D[to] - _D[from], plus _H[p] for each
# point p where it hits.  The board part is a signed base-16 number whose digits (the net change on
# each point) lie in -4..4, so it is unique; the hit flags sit above it.  Keys are relative to the
# starting board, so they cost two additions per step and no tuple building.
#
# Step tuples are shared (_STEP[hit][from][to]): a generated play allocates only its steps tuple,
# its board and the Play itself, which keeps the garbage collector's work small.

_D: tuple[int, ...] = tuple(1 << (4 * p) for p in range(26))
_H: tuple[int, ...] = tuple(1 << (108 + p) for p in range(26))
_STEP: tuple[tuple[tuple[Step, ...], ...], tuple[tuple[Step, ...], ...]] = (
    tuple(tuple((s, t, False) for t in range(26)) for s in range(26)),
    tuple(tuple((s, t, True) for t in range(26)) for s in range(26)),
)
_STEP1: tuple[tuple[tuple[tuple[Step], ...], ...], tuple[tuple[tuple[Step], ...], ...]] = (
    tuple(tuple((_STEP[0][s][t],) for t in range(26)) for s in range(26)),
    tuple(tuple((_STEP[1][s][t],) for t in range(26)) for s in range(26)),
)
"""The same steps as 1-tuples, to extend a sequence without building one."""

_StepKey = tuple[int, int, bool, int, Step]
"""(from, to, hit, key, step) of one single-die step."""


class _Setup:
    """What the generator needs to know about a position, shared by all 21 rolls: the rules' single steps
    (:func:`step_to`) as tables."""

    __slots__ = ("mine", "theirs", "srcs", "opn", "blot", "outside", "bar", "_moves")

    def __init__(self, mine: Board, theirs: Board) -> None:
        self.mine = mine
        self.theirs = theirs
        self.outside = outside = sum(mine[7:26])
        opn = [True] * 26
        blot = [False] * 26
        for p in range(1, 25):
            if theirs[25 - p]:  # (a point the opponent does not occupy is open)
                if step_to(mine, theirs, 25, 25 - p, outside) == p:  # a step onto p (from the bar: any distance)
                    blot[p] = True
                else:
                    opn[p] = False
        self.opn = opn
        """The mover may land on p (:func:`step_to`: the opponent has at most one checker there)."""
        self.blot = blot
        self.srcs = tuple(p for p in range(24, 0, -1) if mine[p] > 0)
        """The mover's occupied points, highest first (not the bar)."""
        self.bar = mine[25]
        self._moves: list[list[_StepKey] | None] = [None] * 7

    def moves(self, d: int) -> list[_StepKey]:
        """The single steps of ``d`` the rules allow in the position itself (:func:`single_steps`), highest
        source first: from the bar when a checker is there, bearing off (to 0) when allowed."""
        st = self._moves[d]
        if st is None:
            mine, theirs, outside, blot = self.mine, self.theirs, self.outside, self.blot
            st = []
            for s in (25,) if self.bar else self.srcs:
                t = step_to(mine, theirs, s, d, outside)
                if t < 0:
                    if t == OUTSIDE:  # so are the lower points' steps
                        break
                    continue
                if blot[t]:
                    st.append((s, t, True, _D[t] - _D[s] + _H[t], _STEP[1][s][t]))
                else:
                    st.append((s, t, False, _D[t] - _D[s], _STEP[0][s][t]))
            self._moves[d] = st
        return st


@lru_cache(maxsize=64)
def _setup(mine: Board, theirs: Board) -> _Setup:
    return _Setup(mine, theirs)


_Found = dict[int, tuple[Step, ...]]


def _found(mine: Board, theirs: Board, hi: int, lo: int, dutch: bool = False) -> _Found:
    """The fast generator's plays (key → steps), ``hi`` >= ``lo``.  ``dutch``: a blot may be hit only by a
    player with a checker in the home board (Dutch backgammon), so that one step can allow the next
    one's hit: the searches that try every order."""
    su = _setup(mine, theirs)
    if hi == lo:
        return _doubles(su, hi, dutch)
    if su.bar or su.outside < 2 or dutch:
        return _pairs_generic(su, hi, lo, dutch)
    return _pairs_fast(su, hi, lo)


def _pairs_fast(su: _Setup, hi: int, lo: int) -> _Found:
    """A non-double with nothing on the bar and at least two checkers outside the home board (so
    nothing can bear off and every step's legality is independent of the other step).

    The two-dice plays are: two different checkers (a with the ``hi``, b with the ``lo``), both steps
    legal in the position itself; and one checker taking both dice through a point where none of the
    mover's checkers stood.  They are produced in the order of GNU Backgammon's search (``hi`` first,
    sources from the back), so the first sequence found for each result is the same.  Only the
    one-checker plays can coincide (13/7/6 with 12/6 13/12), hence the ``in found`` tests.
    """
    mine, opn, blot = su.mine, su.opn, su.blot
    first = su.moves(hi)  # (no bar, and nothing can bear off: only steps onto points)
    second = su.moves(lo)
    found: _Found = {}
    for a, ta, ha, ka, sa in first:
        lone = mine[a] == 1
        tc = ta - lo
        chain = not mine[ta] and tc >= 1 and opn[tc]
        if chain:
            if blot[tc]:
                kc = ka + _D[tc] - _D[ta] + _H[tc]
                sc = _STEP[1][ta][tc]
            else:
                kc = ka + _D[tc] - _D[ta]
                sc = _STEP[0][ta][tc]
        elif not (lone or ha):
            for _b, _tb, _hb, kb, sb in second:
                k = ka + kb
                if k not in found:
                    found[k] = (sa, sb)
            continue
        for b, tb, _hb, kb, sb in second:
            if chain and b < ta:
                chain = False
                if kc not in found:
                    found[kc] = (sa, sc)
            if b == a and lone:
                continue
            if ha and tb == ta:  # the second checker lands where the first one hit
                k = ka + kb - _H[tb]
                if k not in found:
                    found[k] = (sa, _STEP[0][b][tb])
            else:
                k = ka + kb
                if k not in found:
                    found[k] = (sa, sb)
        if chain and kc not in found:
            found[kc] = (sa, sc)
    # The low die first: only one checker moving on from a point it made is new.
    for _b, tb, _hb, kb, sb in second:
        if mine[tb]:
            continue
        tc = tb - hi
        if tc >= 1 and opn[tc]:
            if blot[tc]:
                k = kb + _D[tc] - _D[tb] + _H[tc]
                if k not in found:
                    found[k] = (sb, _STEP[1][tb][tc])
            else:
                k = kb + _D[tc] - _D[tb]
                if k not in found:
                    found[k] = (sb, _STEP[0][tb][tc])
    if found:
        return found
    # Only one die can be played: the larger when it can be.
    for _s, _t, _h, k, st in first or second:
        found[k] = (st,)
    return found


def _pairs_generic(su: _Setup, hi: int, lo: int, dutch: bool = False) -> _Found:
    """A non-double in general (checkers on the bar, bearing off, Dutch backgammon's hits), by trying both
    orders."""
    mine, theirs, opn, blot = su.mine, su.theirs, su.opn, su.blot
    m = list(mine)
    outside = su.outside
    offs = outside < 2  # a second step may bear off only when the first can bring the last checker home
    both: _Found = {}
    singles: tuple[_Found, _Found] = ({}, {})
    for x, y, single in ((hi, lo, singles[0]), (lo, hi, singles[1])):
        for s1, t1, h1, k1, st1 in su.moves(x):
            if h1 and dutch and not any(m[1:7]):
                continue
            m[s1] -= 1
            m[t1] += 1
            out1 = outside - 1 if s1 >= 7 and t1 <= 6 else outside
            if m[25]:
                srcs2: tuple[int, ...] | list[int] = (25,)
            elif t1 and not mine[t1]:
                srcs2 = sorted((*su.srcs, t1), reverse=True)
            else:
                srcs2 = su.srcs
            moved = False
            for s2 in srcs2:
                if not m[s2]:
                    continue
                t2 = s2 - y
                if t2 >= 1:  # (landing: the set-up's table of step_to)
                    if not opn[t2]:
                        continue
                    h2 = blot[t2] and not (h1 and t2 == t1)
                    if h2 and dutch and not any(m[1:7]):
                        continue
                elif not offs or step_to(m, theirs, s2, y, out1):  # bearing off after the first step
                    continue
                else:
                    t2 = 0
                    h2 = False
                moved = True
                k = k1 + _D[t2] - _D[s2] + (_H[t2] if h2 else 0)
                if k not in both:
                    both[k] = (st1, _STEP[h2][s2][t2])
            if not moved and k1 not in single:
                single[k1] = (st1,)
            m[s1] += 1
            m[t1] -= 1
    return both or singles[0] or singles[1]


def _doubles(su: _Setup, d: int, dutch: bool = False) -> _Found:
    """A double: every sequence of up to four steps with the sources never rising (which reaches
    every play once), keeping those that use the most dice.  ``dutch``: every order (a checker reaching
    home first may allow a hit by one from further back)."""
    mine, theirs, opn, blot = su.mine, su.theirs, su.opn, su.blot
    m = list(mine)
    found: _Found = {}
    pre: tuple[Step, ...] = ()
    key = 0
    hm = 0
    left = 4
    if m[25]:
        entry = su.moves(d)
        if not entry or (dutch and entry[0][2] and not any(m[1:7])):  # (entering never reaches the home board)
            return found
        e = entry[0][1]
        n = min(m[25], 4)
        if blot[e]:
            pre = (_STEP[1][25][e],) + (_STEP[0][25][e],) * (n - 1)
            key = n * (_D[e] - _D[25]) + _H[e]
            hm = 1 << e
        else:
            pre = (_STEP[0][25][e],) * n
            key = n * (_D[e] - _D[25])
        m[25] -= n
        m[e] += n
        left = 4 - n
        if not left or m[25]:
            found[key] = pre
            return found
    outside = sum(m[7:26])
    if left == 4 and outside >= 4 and not dutch:
        plain = _doubles_plain(m, opn, blot, d)
        if plain is not None:
            return plain
    # Candidate steps: from every point a checker is on or can reach, highest first.
    reach = {p for p in range(1, 25) if m[p]}
    for p in tuple(reach):
        for j in range(1, left):
            if p - j * d >= 1:
                reach.add(p - j * d)
    cand: list[tuple[int, int, bool, int, int, tuple[Step], tuple[Step]]] = []
    for s in sorted(reach, reverse=True):
        t = s - d
        if t >= 1:  # (landing: the set-up's table of step_to)
            if opn[t]:
                cand.append((s, t, blot[t], _D[t] - _D[s], _H[t], _STEP1[1][s][t], _STEP1[0][s][t]))
        elif outside < left:  # bearing off (step_to on the board of the moment), once all can be home
            one = _STEP1[0][s][0]
            cand.append((s, 0, False, _D[0] - _D[s], 0, one, one))
    ncand = len(cand)
    best = [len(pre)]
    if left == 4 and not ncand:
        return found

    def rec(i0: int, left: int, key: int, hm: int, steps: tuple[Step, ...], outside: int) -> None:
        moved = False
        for i in range(0 if dutch else i0, ncand):
            s, t, bl, dk, hk, one_hit, one = cand[i]
            if not m[s]:
                continue
            if t == 0:
                if step_to(m, theirs, s, d, outside):
                    continue
                h = False
            else:
                h = bl and not (hm >> t) & 1
                if h and dutch and not any(m[1:7]):
                    continue
            moved = True
            m[s] -= 1
            m[t] += 1
            if left > 1:
                if h:
                    rec(i, left - 1, key + dk + hk, hm | (1 << t), steps + one_hit,
                        outside - 1 if s >= 7 and t <= 6 else outside)
                else:
                    rec(i, left - 1, key + dk, hm, steps + one,
                        outside - 1 if s >= 7 and t <= 6 else outside)
            else:
                if best[0] < 4:
                    best[0] = 4
                    found.clear()
                k = key + dk + hk if h else key + dk
                if k not in found:
                    found[k] = steps + (one_hit if h else one)
            m[s] += 1
            m[t] -= 1
        if not moved:
            n = len(steps)
            if n >= best[0]:
                if n > best[0]:
                    best[0] = n
                    found.clear()
                if key not in found:
                    found[key] = steps

    rec(0, left, key, hm, pre, outside)
    rec = None  # type: ignore[assignment]  # a recursive closure is a reference cycle: broken here
    if not best[0]:
        found.clear()
    return found


def _doubles_plain(m: list[int], opn: list[bool], blot: list[bool], d: int) -> _Found | None:
    """A double where nothing can bear off and nothing is on the bar, when all four dice can be
    played (else None): four nested loops over the movable points, sources never rising.

    Each sequence is a different play, so no key is needed.  A step hits when it lands on a blot
    that the step before did not land on (equal landings come from equal sources, which are
    consecutive)."""
    cap = [0] * 26  # how many steps of d a checker on p can make in a row
    for s in range(d + 1, 25):
        if opn[s - d]:
            cap[s] = min(4, cap[s - d] + 1)
    total = 0
    for s in range(d + 1, 25):
        if cap[s] and m[s]:
            total += m[s] * cap[s]
    if total < 4:
        return None
    # The points a checker is on or can reach, with their step (hit or not) and the plain step.
    reach = [False] * 26
    cand: list[tuple[int, int, Step, Step]] = []
    for s in range(24, d, -1):
        if cap[s] and (m[s] or reach[s]):
            t = s - d
            reach[t] = True
            cand.append((s, t, _STEP[blot[t]][s][t], _STEP[0][s][t]))
    out: list[tuple[Step, ...]] = []
    append = out.append
    n = len(cand)
    for i1, t1, st1 in _moved(m, cand, 0, 0):
        for i2, t2, st2 in _moved(m, cand, i1, t1):
            for i3, t3, st3 in _moved(m, cand, i2, t2):
                for i4 in range(i3, n):
                    s4, t4, h4, n4 = cand[i4]
                    if m[s4]:
                        append((st1, st2, st3, n4 if t4 == t3 else h4))
    return dict(enumerate(out))


def _moved(m: list[int], cand: list[tuple[int, int, Step, Step]], i0: int,
           last: int) -> Iterator[tuple[int, int, Step]]:
    """One step of :func:`_doubles_plain`'s sequences: each candidate from ``i0`` on whose point holds a
    checker, made on ``m`` while the caller looks further (and unmade after): its index, where it lands and
    its step (no hit where the step before, which landed on ``last``, hit)."""
    for i in range(i0, len(cand)):
        s, t, hit, plain = cand[i]
        if m[s]:
            m[s] -= 1
            m[t] += 1
            yield i, t, plain if t == last else hit
            m[s] += 1
            m[t] -= 1


_new = object.__new__
_set_steps = Play.__dict__["steps"].__set__  # (the slots' descriptors)
_set_mine = Play.__dict__["mine"].__set__
_set_theirs = Play.__dict__["theirs"].__set__


def boards_after(mine: Board, theirs: Board, steps: tuple[Step, ...] | list[Step]) -> tuple[Board, Board]:
    """(mover's board, opponent's board) after ``steps`` (as :class:`Play` holds them: from, to, hit),
    the opponent's board the same object when nothing is hit.  Steps move checkers between the points
    0..25 of ``mine``, as every generator but Acey-Deucey's entering steps makes them."""
    m = list(mine)
    th = None
    for s, t, h in steps:
        m[s] -= 1
        m[t] += 1
        if h:
            if th is None:
                th = list(theirs)
            th[25 - t] -= 1
            th[25] += 1
    return tuple(m), (theirs if th is None else tuple(th))


def _build(mine: Board, theirs: Board, found: _Found) -> tuple[Play, ...]:
    plays = []
    for steps in found.values():
        m, th = boards_after(mine, theirs, steps)
        p = _new(Play)
        _set_steps(p, steps)
        _set_mine(p, m)
        _set_theirs(p, th)
        plays.append(p)
    return tuple(plays)


ON_BAR = -1
"""What :func:`step_to` answers for a checker that may not move while one is on the bar."""
BLOCKED = -2
"""... for a step onto a point the opponent holds (two or more checkers)."""
OUTSIDE = -3
"""... for bearing off while a checker is outside the home board (or on the bar)."""
HIGHER = -4
"""... for bearing off by a larger die than the point's while a checker is on a higher point."""


def step_to(m: Board | list[int], theirs: Board | list[int], s: int, d: int, outside: int) -> int:
    """Where a checker on ``s`` (25 the bar) of the mover's board ``m`` may go by the die ``d`` against
    ``theirs`` (the opponent's board in its own numbering), ``outside`` being the mover's checkers on 7..25:
    the rules' one single step.  The point (1..24) or 0 (off), else why not: :data:`ON_BAR` (a checker on
    the bar enters first), :data:`BLOCKED` (the opponent holds the point), :data:`OUTSIDE` (bearing off
    needs every checker home), :data:`HIGHER` (a larger die than the point's bears off only from the
    highest point held).  ``outside`` is read only when bearing off.

    The generators' set-up (:class:`_Setup`), :func:`single_steps`/:func:`can_move`, :func:`play_legs` and
    Acey-Deucey's generator ask it; the generators read its answers for landing as tables of the position,
    since they do not change while the mover moves."""
    if m[25] and s != 25:
        return ON_BAR
    t = s - d
    if t >= 1:
        return t if theirs[25 - t] < 2 else BLOCKED
    if outside:
        return OUTSIDE
    if t and any(m[s + 1:7]):
        return HIGHER
    return 0


def single_steps(mine: Board | list[int], theirs: Board, d: int) -> Iterator[tuple[int, int]]:
    """Each step (from, to; 0 is off) of one checker of ``mine`` by ``d`` that the rules allow (:func:`step_to`),
    highest source first: entering from the bar (where one is), moving to a point ``theirs`` does not hold,
    or bearing off (every checker home; by a larger die only from the highest point).  One die's step, not a
    play: whether a play must use more dice is the generator's."""
    outside = 0 if mine[25] else sum(mine[7:26])  # (step_to does not read it for a step from the bar)
    for s in (25,) if mine[25] else range(24, 0, -1):
        if mine[s]:
            t = step_to(mine, theirs, s, d, outside)
            if t >= 0:
                yield s, t


def can_move(mine: Board | list[int], theirs: Board, d: int) -> bool:
    """Some checker of ``mine`` can move by ``d`` (:func:`single_steps`)."""
    return next(single_steps(mine, theirs, d), None) is not None


Leg = tuple[int, int, bool]
"""One move of a checker as written, by one die: (from, to, hit mark) in the mover's numbering, 25 the bar,
0 off (:func:`notation.play.plain_legs` reads them from text)."""

Played = tuple[list[Step] | tuple[Step, ...], Board, Board]
"""A play :func:`play_legs` accepts: its steps, then the mover's and the opponent's boards after it (the
fields of :class:`Play`, without making one)."""


class Refusal(NamedTuple):
    """Why :func:`play_legs` does not accept a written play: ``leg``, the index of the move refused (the
    number of moves when the play as a whole is refused: it uses too few dice), and the reason."""

    leg: int
    reason: str


def play_legs(mine: Board, theirs: Board, legs: Sequence[Leg], dice: tuple[int, int] | list[int],
              rules: Rules | None = None, *, whole: bool = True, used: list[int] | None = None,
              opponent: str = "the opponent") -> Played | Refusal:
    """Is the play written as ``legs`` (one die each, in the order written) legal for ``dice`` here, and
    if not, why: the rules' one answer for a written play (the replay, :func:`notation.play.resolve_play`
    step by step, the OGXM writer's dice of each step).

    Each leg must be a step the rules allow (:func:`step_to`) with a die left, in its turn: a checker on its point, none
    on the bar unless it enters, not onto a point the opponent holds (``rules``' hitting restriction
    too), bearing off only with every checker home, by a larger die only from the highest point (then
    the smallest such die), a hit mark only where a blot is hit.  With ``whole`` (``dice`` is the roll)
    the play must use as many dice as the roll allows, the larger die when only one can be played: a
    play that uses every die needs nothing more, most others a look at single steps, the rest the
    generator (:meth:`Rules.plays_for`).  Without ``whole`` ``dice`` are the dice left to use, a list
    that the legs consume; ``used`` gets each leg's die.  Where ``rules``' checkers start off the board
    (Acey-Deucey), ``bar/N`` enters a waiting checker when none is on the bar, and a play of fewer dice
    is always checked by the generator.  Written for speed: it runs once per play of every file validated."""
    remaining: list[int]
    if whole:
        d1, d2 = dice
        remaining = [d1, d1, d1, d1] if d1 == d2 else [d1, d2]
    else:
        remaining = dice  # type: ignore[assignment]
    n = len(remaining)
    if len(legs) > n:
        return Refusal(n, f"{len(legs)} moves, but the dice give {n}")
    dutch = rules is not None and rules.hit_needs_home_checker
    # Acey-Deucey: checkers waiting off the board, which bar/N enters when none is on the bar.
    pool = rules.checkers - sum(mine) if rules is not None and rules.checkers_start_off_board else 0
    m = list(mine)
    th: Board | list[int] = theirs  # copied at the first hit
    outside = -1  # checkers outside the home board (waiting ones too), counted at the first bear-off
    steps: list[Step] = []
    for s, t, star in legs:
        if t:
            die = s - t
        else:  # bearing off: the exact die, else the smallest larger one
            if outside < 0:
                outside = sum(m[7:26]) + pool
            die = s if s in remaining else min((d for d in remaining if d > s), default=s)
        to = step_to(m, th, s, die, outside)
        if not (m[s] or (s == 25 and pool > 0)) or to == ON_BAR:
            return Refusal(len(steps), _leg_refusal(m, s, t, pool))
        if t:
            if die not in remaining:
                return Refusal(len(steps), f"{_written(s, t)} moves {die} pips, which the dice left "
                                           f"({_dice_words(remaining)}) cannot make")
            o = th[25 - t]
            if to < 0:
                return Refusal(len(steps), f"{_written(s, t)} lands on {t}, which {opponent} holds with "
                                           f"{o} checkers")
            if o:
                if dutch and not any(m[1:7]):
                    return Refusal(len(steps), f"{_written(s, t)} hits on {t}, but a blot may be hit only "
                                               "with a checker in the home board")
                if th is theirs:
                    th = list(theirs)
                th[25 - t] = 0  # type: ignore[index]
                th[25] += 1  # type: ignore[index]
                steps.append(_STEP[1][s][t])
            elif star:
                return Refusal(len(steps), f"{t} is marked as a hit, but no blot is hit there")
            else:
                steps.append(_STEP[0][s][t])
            if outside > 0 and s >= 7 and t <= 6:
                outside -= 1
        else:
            if star:
                return Refusal(len(steps), "off is marked as a hit, but no blot is hit there")
            if to == OUTSIDE:
                where = f"on {_highest(m, 7, 25)}" if any(m[7:26]) else "waiting to enter"
                return Refusal(len(steps), f"{_written(s, t)} bears off while a checker is still outside the "
                                           f"home board ({where})")
            if die not in remaining:
                return Refusal(len(steps), f"{_written(s, t)} needs at least {s}, which the dice left "
                                           f"({_dice_words(remaining)}) cannot give")
            if to == HIGHER:
                return Refusal(len(steps), f"{_written(s, t)} bears off from {s} with a {die}, but a "
                                           f"checker on {_highest(m, 1, 6)} must move first")
            steps.append(_STEP[0][s][0])
        remaining.remove(die)
        if used is not None:
            used.append(die)
        if m[s]:
            m[s] -= 1
        else:  # entering a waiting checker
            pool -= 1
        m[t] += 1
    if len(steps) == n or not whole:
        return steps, tuple(m), tuple(th)
    d1, d2 = dice
    hi, lo = (d1, d2) if d1 >= d2 else (d2, d1)
    if not dutch and not (rules is not None and rules.checkers_start_off_board):  # (single_steps: no pool)
        if not steps:  # nothing played: legal when no die can move any checker
            if not (can_move(mine, theirs, d1) or can_move(mine, theirs, d2)):
                return (), mine, theirs
            return Refusal(0, rule_breach((), (), hi, lo))
        elif n == 2:
            # One die of two (most often blocked, or on the bar against a strong board): legal when no
            # play uses both dice and it played the larger one, or the larger cannot be played at all.
            unused = remaining[0]
            if (d1 + d2 - unused > unused or not can_move(mine, theirs, unused)) \
                    and not _both_dice(mine, theirs, d1, d2):
                return steps, tuple(m), tuple(th)
    # Fewer dice than the roll: legal only if no legal play uses more, and the result is a legal one.
    legal = (rules or _RULES["standard"]).plays_for(mine, theirs, d1, d2)
    if not legal and not steps:
        return (), mine, theirs
    after_mine, after_theirs = tuple(m), tuple(th)
    for play in legal:
        if play.dice_used == len(steps) and play.mine == after_mine and play.theirs == after_theirs:
            return play.steps, play.mine, play.theirs
    return Refusal(len(steps), rule_breach(steps, legal, hi, lo))


def rule_breach(done: Sequence[Step], legal: Sequence[Play], hi: int, lo: int) -> str:
    """Why a play whose every step the rules allow in its turn (``done``) is still not a legal play of
    the roll ``hi``-``lo`` (``hi`` >= ``lo``), whose legal plays are ``legal``: it plays fewer dice than the
    roll allows, or the smaller die where only one can be played.  The rules' one wording of it, for
    :func:`play_legs` and :func:`notation.play.resolve_play`; ``legal`` is not read when nothing is played."""
    roll_s = f"{hi}{lo}"
    used = len(done)
    if not used:
        return f"nothing is played, but {roll_s} can be played"
    most = max((p.dice_used for p in legal), default=0)
    # Examples that keep what was written and add what is missing come first.
    written = sorted((s, t) for s, t, _ in done)
    containing = [p for p in legal if _contains(sorted((s, t) for s, t, _ in p.steps), written)]
    shown = containing + [p for p in legal if p not in containing]
    if used < most:
        if hi == lo:
            return f"only {used} of the four {hi}s are played, but {shown[0].notation()} plays {most}"
        return f"the {_unused_die(done, hi, lo)} is not played, but {shown[0].notation()} plays both dice"
    if used == 1 and hi != lo:
        return f"only one die can be played, and then it must be the larger one, the {hi}: {examples(shown)}"
    return f"{format_play(tuple(done))} is not a legal play of {roll_s}; legal: {examples(shown)}"


def chosen_by_marks(options: Sequence[Sequence[Step]], parsed: ParsedPlay,
                    column: int = 1) -> tuple[int, tuple[str, ...]]:
    """Which of the legal plays a written play can mean (``options``, their steps; not empty) its hit marks
    choose, and the notes on its marks (a hit not marked, a mark where nothing is hit); raises
    :class:`AmbiguousPlayError` when the marks do not choose one.  For every resolver of written plays."""
    marked = {p for seg in parsed.segments for p, mk in zip(seg.points, seg.marks, strict=True) if mk}
    i = 0
    if len(options) > 1:
        exact = [k for k, steps in enumerate(options) if {t for _, t, h in steps if h} == marked]
        if len(exact) != 1:
            raise AmbiguousPlayError(f"{parsed.text.strip()!r} can mean {'; '.join(map(format_play, options))}",
                                     column=column, text=parsed.text)
        i = exact[0]
    hit_points = {t for _, t, h in options[i] if h}
    notes = [f"the hit on {p} is not marked" for p in sorted(hit_points - marked, reverse=True)]
    notes += [f"{point_name(p)} is marked as a hit, but no blot is hit there" for p in sorted(marked - hit_points,
                                                                                              reverse=True)]
    return i, tuple(notes)


def examples(plays: Sequence[Play], n: int = 5) -> str:
    """The first ``n`` of ``plays`` written out, and how many more there are (for messages)."""
    shown = [p.notation() for p in plays[:n]]
    more = len(plays) - len(shown)
    return ", ".join(shown) + (f" (and {more} more)" if more > 0 else "")


def _contains(big: list[tuple[int, int]], small: list[tuple[int, int]]) -> bool:
    rest = list(big)
    for x in small:
        if x not in rest:
            return False
        rest.remove(x)
    return True


def _unused_die(done: Sequence[Step], hi: int, lo: int) -> int:
    """The die a one-step play of a non-double leaves (the smaller one when bearing off needs the larger)."""
    s, t, _ = done[0]
    dist = s - t
    if t > 0:
        return lo if dist == hi else hi
    return lo if dist > lo else hi


def _written(s: int, t: int) -> str:
    return f"{point_name(s)}/{point_name(t)}"


def _dice_words(dice: list[int]) -> str:
    return ", ".join(map(str, dice)) or "none"


def _highest(m: list[int], low: int, high: int) -> str:
    p = max(q for q in range(low, high + 1) if m[q])
    return "the bar" if p == 25 else str(p)


def _leg_refusal(m: list[int], s: int, t: int, pool: int = 0) -> str:
    if not m[s] and not (s == 25 and pool > 0):
        return f"{_written(s, t)}: there is no checker {'on the bar' if s == 25 else f'on {s}'} to move"
    return f"{_written(s, t)}: a checker is on the bar and must enter before {s} can move"


def _both_dice(mine: Board, theirs: Board, d1: int, d2: int) -> bool:
    """Some play of ``mine`` uses both dice of the roll ``d1``-``d2`` (not a double): a step by one die
    after which the other can be played.  A hit on the way changes nothing here: the point hit stays
    open, and the checker hit goes to the opponent's bar."""
    for a, b in ((d1, d2), (d2, d1)):
        for s, t in single_steps(mine, theirs, a):
            m = list(mine)
            m[s] -= 1
            m[t] += 1
            if can_move(m, theirs, b):
                return True
    return False


def clear_caches() -> None:
    """Forget every cached play and position set-up (for cold timings)."""
    _cached_plays.cache_clear()
    _setup.cache_clear()


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


def as_written(mine: Board, theirs: Board, segments: Sequence[Segment], pool: int = 0) -> Play | None:
    """A written play applied as written, ignoring the dice: each checker from each written point to the
    next, in the order written, hitting a blot where it lands (the record of an illegal play).  None when
    the board does not allow it: no checker on a point it leaves, a move that does not go forward or goes
    from off or to the bar, a landing on a point the opponent holds.  ``pool``: checkers waiting off the
    board, which ``bar/N`` enters when none is on the bar (Acey-Deucey)."""
    m = list(mine)
    th = list(theirs)
    steps: list[Step] = []
    for seg in segments:
        pts = seg.points
        for _ in range(seg.count):
            for a, b in zip(pts, pts[1:], strict=False):
                if a == 0 or b == 25 or b >= a:
                    return None
                if m[a] > 0:
                    m[a] -= 1
                elif a == 25 and pool > 0:
                    pool -= 1
                else:
                    return None
                hit = False
                if b > 0:
                    o = th[25 - b]
                    if o >= 2:
                        return None
                    if o:
                        th[25 - b] = 0
                        th[25] += 1
                        hit = True
                m[b] += 1
                steps.append((a, b, hit))
    return Play(tuple(steps), tuple(m), tuple(th))


@lru_cache(maxsize=16384)
def _acey_cached(checkers: int, mine: Board, theirs: Board, hi: int, lo: int) -> tuple[Play, ...]:
    return _acey_generate(checkers, mine, theirs, hi, lo)


def _acey_generate(checkers: int, mine: Board, theirs: Board, hi: int, lo: int) -> tuple[Play, ...]:
    """Every legal Acey-Deucey play, one per resulting position: a depth-first search over single-die
    steps in which a waiting checker may enter whenever nothing is on the bar."""
    blot = [theirs[25 - p] == 1 for p in range(25)]
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
            t = step_to(m, theirs, s, die, outside[0])
            if t > 0:
                res.append((s, t, blot[t] and not (hits_now[0] >> t) & 1, from_pool))
            elif t == 0:
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
    """Add a variant: a program's own :class:`Rules` subclass under its name and ``aliases``."""
    _RULES[rules.name] = rules
    _ALIASES[rules.name] = rules.name
    for a in aliases:
        _ALIASES[a] = rules.name


ACEY_DEUCEY = AceyDeucey()
register_rules(ACEY_DEUCEY, "acey-deucey", "aceydeucey", "acey-ducey", "aceyducey", "acey")


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

