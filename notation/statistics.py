"""Match statistics from the per-decision analysis (:mod:`notation.decisions`), in GNU Backgammon's
convention and in eXtreme Gammon's, per player, for the match and for each game.

:func:`statistics` computes them for a match (or its replay).  Every figure comes from the decisions the
record analysed; where a record holds no analysis, or only part of it, the counts say so
(:attr:`GnubgFigures.unanalysed_moves` ..., :attr:`Statistics.messages`) and no figure is made from
missing ones: an error or luck figure with nothing analysed behind it is None, never 0.

gnubg's figures follow ``updateStatcontext``, ``getMWCFromError`` and ``formatGS`` of gnubg 1.07
(``analysis.c``, ``formatgs.c``), re-implemented: signs as gnubg prints them (errors and bad luck
negative), errors in EMG, their second figure in MWC percent in a match (in money play, points: cube x
EMG), rates x 1000 ("mEMG"). ``docs/statistics.md`` gives every counting rule and its source.
"""

from __future__ import annotations

import array
import bisect
import itertools
import math
import operator
import random
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .decisions import Decision, _f32, decisions, has_analysis
from .met import KAZAROSS_XG2, Met
from .record import Match
from .replay import MatchReplay, replay_match

__all__ = ["GnubgFigures", "XgFigures", "PlayerStatistics", "Statistics", "statistics", "players_table", "PlayerRow",
           "iter_statistics", "RATINGS",
           "LUCK_RATINGS", "rating", "luck_rating", "CUBE_ERRORS", "BOOTSTRAP_SEED", "BOOTSTRAP_SAMPLES"]

RATE_FACTOR = 1000.0
"""gnubg's ``errorratefactor``: rates are printed per 1000 decisions (mEMG)."""

RATINGS = ((0.002, "Supernatural"), (0.005, "World class"), (0.008, "Expert"), (0.012, "Advanced"),
           (0.018, "Intermediate"), (0.026, "Casual player"), (0.035, "Beginner"))
"""gnubg 1.07's ratings by error per decision (``arThrsRating``): below the threshold; else ``Awful!``."""
LUCK_RATINGS = ((0.06, "Go to Las Vegas"), (0.03, "Good dice, man!"), (-0.03, "None"), (-0.06, "Bad dice, man!"))
"""gnubg's luck ratings by luck per move (``getLuckRating``: 10 x luck rate against 0.3 and 0.6)."""
CUBE_ERRORS = ("missed double below CP", "missed double above CP", "wrong double below DP",
               "wrong double above TG", "wrong take", "wrong pass")
"""gnubg's cube error categories, in its order."""
_CUBE_KEYS = {c: c.replace(" ", "_").lower() for c in CUBE_ERRORS}
_LUCK_MARKS = ("very lucky", "lucky", "unmarked", "unlucky", "very unlucky")

BOOTSTRAP_SEED = 20260312
"""The fixed seed of the PR interval's bootstrap (same input, same interval)."""
BOOTSTRAP_SAMPLES = 1000
BOOTSTRAP_MAX = 500
"""Past this many decisions (a long session, a player's tournament) the interval is the normal one (mean
± 1.96 standard errors), which the bootstrap's converges to, instead of 1,000 resamples of them all."""


def rating(error_per_decision: float) -> str:
    """gnubg's rating for an error per decision (EMG, >= 0)."""
    for threshold, name in RATINGS:
        if error_per_decision < threshold:
            return name
    return "Awful!"


def luck_rating(luck_per_move: float) -> str:
    """gnubg's luck rating for a luck rate (EMG per move)."""
    r = luck_per_move * 10
    if r > 0.6:
        return "Go to Las Vegas"
    if r > 0.3:
        return "Good dice, man!"
    if r < -0.6:
        return "Go to bed"
    if r < -0.3:
        return "Bad dice, man!"
    return "None"


@dataclass(slots=True)
class _Acc:
    """gnubg's ``statcontext`` for one player (sums; the figures are made from it)."""

    total_moves: int = 0
    unforced_moves: int = 0
    marks: list[int] = field(default_factory=lambda: [0, 0, 0])  # doubtful, bad, very bad
    checker: list[float] = field(default_factory=lambda: [0.0, 0.0])  # EMG, cost (losses)
    luck: list[float] = field(default_factory=lambda: [0.0, 0.0])
    luck_marks: list[int] = field(default_factory=lambda: [0] * 5)
    luck_rolls: int = 0
    cube_total: int = 0
    cube_close: int = 0
    doubles: int = 0
    takes: int = 0
    passes: int = 0
    cube_errors: dict[str, list[float]] = field(default_factory=lambda: {c: [0, 0.0, 0.0] for c in CUBE_ERRORS})
    analysed_moves: int = 0
    unanalysed_moves: int = 0
    missing_moves: int = 0
    unanalysed_cube: int = 0
    producers: set[str] = field(default_factory=set)
    levels: set[str] = field(default_factory=set)

    def add(self, o: _Acc) -> None:
        _add_up(self, o, _ACC_COUNTS)
        for i in range(3):
            self.marks[i] += o.marks[i]
        for i in range(2):  # in single precision, as gnubg adds each game's statistics to the match's
            self.checker[i] = _f32(self.checker[i] + o.checker[i])
            self.luck[i] = _f32(self.luck[i] + o.luck[i])
        for i in range(5):
            self.luck_marks[i] += o.luck_marks[i]
        for c in CUBE_ERRORS:
            e, f = self.cube_errors[c], o.cube_errors[c]
            e[0] += f[0]
            e[1], e[2] = _f32(e[1] + f[1]), _f32(e[2] + f[2])
        self.producers |= o.producers
        self.levels |= o.levels


_ACC_COUNTS = ("total_moves", "unforced_moves", "luck_rolls", "cube_total", "cube_close", "doubles", "takes", "passes",
               "analysed_moves", "unanalysed_moves", "missing_moves", "unanalysed_cube")
"""The plain counts of :class:`_Acc` (its lists and sets are added element by element)."""


def _add_up(acc: object, o: object, names: Sequence[str]) -> None:
    """``acc.name += o.name`` for each of ``names`` (a count, a sum, a list extended)."""
    for name in names:
        setattr(acc, name, operator.iadd(getattr(acc, name), getattr(o, name)))


def _gnubg_add(acc: _Acc, d: Decision, cube_in_use: bool) -> None:
    """One decision into a player's ``statcontext``, as gnubg's ``updateStatcontext`` counts it."""
    if d.producer:
        acc.producers.add(d.producer)
    if d.level:
        acc.levels.add(d.level)
    if d.kind == "checker":
        if d.luck is not None:
            acc.luck[0] = _f32(acc.luck[0] + _f32(d.luck))
            cost = d.luck_mwc if d.luck_mwc is not None else _f32(d.cube * _f32(d.luck))
            acc.luck[1] = _f32(acc.luck[1] + cost)
            acc.luck_rolls += 1
            word = d.luck_mark or "unmarked"
            acc.luck_marks[_LUCK_MARKS.index(word) if word in _LUCK_MARKS else 2] += 1
        acc.total_moves += 1
        no_move = not d.played
        if d.analysed or no_move:
            if d.analysed:
                acc.analysed_moves += 1
            if d.missing:
                acc.missing_moves += 1
            if d.mark is not None:
                acc.marks[("doubtful", "bad", "very bad").index(d.mark)] += 1
            if d.candidates > 1:
                acc.unforced_moves += 1
                if d.error is not None:
                    acc.checker[0] = _f32(acc.checker[0] + d.error)
                    acc.checker[1] = _f32(acc.checker[1] + _cost(d))
        else:
            acc.unanalysed_moves += 1
        return
    # cube decisions
    if d.action == "beaver" or (d.action == "take" and d.position is not None and d.position.beaver):
        return  # gnubg counts neither a beaver nor the take of one (DoubleType != normal)
    if not cube_in_use:
        return
    if not d.analysed:
        if d.action != "no double":
            acc.unanalysed_cube += 1
        return
    acc.cube_total += 1
    if d.close:
        acc.cube_close += 1
    if d.action == "double":
        acc.doubles += 1
    elif d.action == "take":
        acc.takes += 1
    elif d.action == "pass":
        acc.passes += 1
    if d.cube_error is not None and d.error is not None:
        e = acc.cube_errors[d.cube_error]
        e[0] += 1
        e[1] = _f32(e[1] + d.error)
        e[2] = _f32(e[2] + _cost(d))


def _cost(d: Decision) -> float:
    """gnubg's second figure of an error: MWC in a match, cube x EMG (single precision) in money play."""
    if d.match_length:
        return d.error_mwc or 0.0
    return _f32(d.cube * (d.error or 0.0))


# --------------------------------------------------------------------------- figures


def _rate(total: float, n: int) -> float | None:
    """A rate as gnubg prints it: ``errorratefactor x total / n`` (single precision)."""
    return _f32(RATE_FACTOR * _f32(total / n)) if n else None


def _pct(x: float, pct: float) -> float:
    """A MWC figure in percent as gnubg prints it (``100.0f x``), points in money play."""
    return _f32(x * pct)


@dataclass(slots=True)
class GnubgFigures:
    """One player's statistics as gnubg prints them (``export match text``): counts, totals with
    gnubg's signs (errors negative), EMG, the second figure in MWC percent (money: points), rates x 1000.
    A figure with nothing analysed behind it is None."""

    total_moves: int
    unforced_moves: int
    unmarked: int
    doubtful: int
    bad: int
    very_bad: int
    checker_error_emg: float | None
    checker_error_mwc: float | None
    checker_error_rate: float | None
    checker_error_rate_mwc: float | None
    checker_rating: str | None
    luck_very_lucky: int
    luck_lucky: int
    luck_unmarked: int
    luck_unlucky: int
    luck_very_unlucky: int
    luck_emg: float | None
    luck_mwc: float | None
    luck_rate: float | None
    luck_rate_mwc: float | None
    luck_rating: str | None
    cube_decisions: int
    close_cube_decisions: int
    doubles: int
    takes: int
    passes: int
    cube_errors: dict[str, dict[str, float | int]]
    """Per gnubg category (``missed_double_below_cp`` ...): ``count``, ``emg``, ``mwc`` (negative)."""
    cube_error_emg: float | None
    cube_error_mwc: float | None
    cube_error_rate: float | None
    cube_error_rate_mwc: float | None
    cube_rating: str | None
    error_emg: float | None
    error_mwc: float | None
    error_rate: float | None
    error_rate_mwc: float | None
    snowie_error_rate: float | None
    overall_rating: str | None
    analysed_moves: int
    """Checker plays with figures (forced ones included)."""
    unanalysed_moves: int
    """Checker plays the record holds no analysis of (not in any figure; forced ones included, as a
    record without analysis does not say which were)."""
    missing_moves: int
    """Analysed plays whose played move is not among the ranked plays (gnubg counts them as error 0)."""
    unanalysed_cube: int
    """Doubles, takes and passes the record holds no cube analysis of (not counted, as gnubg)."""

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}  # type: ignore[attr-defined]


def _gnubg_figures(acc: _Acc, both_moves: int, match_play: bool) -> GnubgFigures:
    pct = 100.0 if match_play else 1.0
    any_moves = acc.analysed_moves > 0
    any_cube = acc.cube_total > 0
    ch_emg = -acc.checker[0] if any_moves else None
    ch_mwc = _pct(-acc.checker[1], pct) if any_moves else None
    cube_emg_sum = cube_cost_sum = 0.0
    for v in acc.cube_errors.values():  # gnubg's order, in single precision (getMWCFromError)
        cube_emg_sum, cube_cost_sum = _f32(cube_emg_sum + v[1]), _f32(cube_cost_sum + v[2])
    cu_emg = -cube_emg_sum if any_cube else None
    cu_mwc = _pct(-cube_cost_sum, pct) if any_cube else None
    ch_rate = _rate(-acc.checker[0], acc.unforced_moves) if any_moves else None
    ch_rate_mwc = _pct(_f32(-acc.checker[1] / acc.unforced_moves), pct) if any_moves and acc.unforced_moves else None
    cu_rate = _rate(-cube_emg_sum, acc.cube_close) if any_cube else None
    cu_rate_mwc = _pct(_f32(-cube_cost_sum / acc.cube_close), pct) if any_cube and acc.cube_close else None
    anything = any_moves or any_cube
    tot_emg = -_f32(acc.checker[0] + cube_emg_sum)
    tot_cost = -_f32(acc.checker[1] + cube_cost_sum)
    n = acc.unforced_moves + acc.cube_close
    luck = acc.luck_rolls > 0
    return GnubgFigures(
        total_moves=acc.total_moves, unforced_moves=acc.unforced_moves,
        unmarked=acc.total_moves - sum(acc.marks), doubtful=acc.marks[0], bad=acc.marks[1], very_bad=acc.marks[2],
        checker_error_emg=ch_emg, checker_error_mwc=ch_mwc, checker_error_rate=ch_rate,
        checker_error_rate_mwc=ch_rate_mwc,
        checker_rating=rating(acc.checker[0] / acc.unforced_moves) if any_moves and acc.unforced_moves else None,
        luck_very_lucky=acc.luck_marks[0], luck_lucky=acc.luck_marks[1], luck_unmarked=acc.luck_marks[2],
        luck_unlucky=acc.luck_marks[3], luck_very_unlucky=acc.luck_marks[4],
        luck_emg=acc.luck[0] if luck else None, luck_mwc=_pct(acc.luck[1], pct) if luck else None,
        luck_rate=_rate(acc.luck[0], acc.total_moves) if luck else None,
        luck_rate_mwc=_pct(_f32(acc.luck[1] / acc.total_moves), pct) if luck and acc.total_moves else None,
        luck_rating=luck_rating(acc.luck[0] / acc.total_moves) if luck and acc.total_moves else None,
        cube_decisions=acc.cube_total, close_cube_decisions=acc.cube_close, doubles=acc.doubles, takes=acc.takes,
        passes=acc.passes,
        cube_errors={_CUBE_KEYS[c]: {"count": int(v[0]), "emg": -v[1], "mwc": _pct(-v[2], pct)}
                     for c, v in acc.cube_errors.items()},
        cube_error_emg=cu_emg, cube_error_mwc=cu_mwc, cube_error_rate=cu_rate, cube_error_rate_mwc=cu_rate_mwc,
        cube_rating=rating(cube_emg_sum / acc.cube_close) if any_cube and acc.cube_close else None,
        error_emg=tot_emg if anything else None, error_mwc=_pct(tot_cost, pct) if anything else None,
        error_rate=_rate(tot_emg, n) if anything else None,
        error_rate_mwc=_pct(_f32(tot_cost / n), pct) if anything and n else None,
        snowie_error_rate=_rate(tot_emg, both_moves) if anything else None,
        overall_rating=rating(-tot_emg / n) if anything and n else None,
        analysed_moves=acc.analysed_moves, unanalysed_moves=acc.unanalysed_moves, missing_moves=acc.missing_moves,
        unanalysed_cube=acc.unanalysed_cube)


# --------------------------------------------------------------------------- XG's convention


@dataclass(slots=True)
class XgFigures:
    """One player's eXtreme Gammon figures: PR = 500 x EMG error / decisions (see ``docs/statistics.md``)."""

    pr: float | None
    checker_pr: float | None
    cube_pr: float | None
    decisions: int
    """Decisions counted in PR: unforced moves + cube decisions + take decisions."""
    checker_decisions: int
    cube_decisions: int
    error_emg: float | None
    """The error behind PR (a loss, >= 0)."""
    luck: float | None
    """Luck (EMG) as XG prints it, zero-sum: the luck of the player's rolls less the opponent's (each as
    the producer rated it)."""
    luck_per_roll: float | None
    """``luck`` over the rolls of both players (XG's luck rate)."""
    source: str
    """``stored``: XG's own per-decision errors (an ``.xg``); ``ranked``: from the ranked plays and the
    cube equities; ``mixed``; ``none``."""
    uncounted: int
    """Decisions a PR could not count: not analysed, or the played move missing from the ranked plays."""
    errors: tuple[float, ...] = field(default=(), repr=False, compare=False)
    """The errors behind PR, one a decision (what :attr:`pr_low` and :attr:`pr_high` resample)."""
    seed: int = field(default=0, repr=False, compare=False)
    _interval: tuple[float | None, float | None] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def pr_low(self) -> float | None:
        """The 95% interval of PR: a bootstrap over the decisions (fixed seed); the normal interval past
        :data:`BOOTSTRAP_MAX` decisions.  Computed when first asked for (a folder's players' table asks
        only for the players' intervals, never a match's or a game's)."""
        return self.interval[0]

    @property
    def pr_high(self) -> float | None:
        return self.interval[1]

    @property
    def interval(self) -> tuple[float | None, float | None]:
        """(:attr:`pr_low`, :attr:`pr_high`)."""
        if self._interval is None:
            self._interval = _bootstrap(self.errors, self.seed)
        return self._interval

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in _XG_KEYS}


_XG_KEYS = ("pr", "checker_pr", "cube_pr", "decisions", "checker_decisions", "cube_decisions", "error_emg", "pr_low",
            "pr_high", "luck", "luck_per_roll", "source", "uncounted")
"""The keys of :meth:`XgFigures.to_dict`, in the order ``gammon stats --json`` writes them."""


@dataclass(slots=True)
class _XgAcc:
    checker: list[float] = field(default_factory=list)
    cube: list[float] = field(default_factory=list)
    stored: int = 0
    ranked: int = 0
    uncounted: int = 0
    luck: float = 0.0
    rolls: int = 0

    def add(self, o: _XgAcc) -> None:
        _add_up(self, o, ("checker", "cube", "stored", "ranked", "uncounted", "luck", "rolls"))


XG_CLOSE_CUBE = 0.2
"""A no-double counts as one of XG's cube decisions when the player should have doubled (an error) or
the double and no-double equities are within this (inferred from XG's summaries; docs/statistics.md)."""


def _xg_add(acc: _XgAcc, d: Decision) -> None:
    """One decision into a player's XG sums (the rules: ``docs/statistics.md``): XG's own stored error
    where the record is an ``.xg``, else the error from the ranked plays / cube equities."""
    if d.kind == "checker":
        if d.luck is not None:
            acc.luck += d.luck
            acc.rolls += 1
        if d.xg_counted is not None:  # an .xg: XG's Unused flag says which plays are decisions
            if not d.xg_counted:
                return
            if d.xg_error is None:
                acc.uncounted += 1
                return
            acc.checker.append(d.xg_error)
            acc.stored += 1
            return
        if not d.played:
            return
        if not d.analysed or d.error is None:
            acc.uncounted += 1
            return
        if d.forced:
            return
        acc.checker.append(d.error)
        acc.ranked += 1
        return
    if d.action == "beaver":
        return
    stored = d.xg_error is not None
    error = d.xg_error if stored else d.error
    if error is None:
        if d.action != "no double":
            acc.uncounted += 1
        return
    if d.action == "no double" and error <= 0:
        eq = d.equities
        if eq is None or abs(min(eq.double_take, eq.double_pass) - eq.no_double) > XG_CLOSE_CUBE:
            return  # not a decision: clearly no double
    acc.cube.append(error)
    if stored:
        acc.stored += 1
    else:
        acc.ranked += 1


def _pr(errors: list[float]) -> float | None:
    return 500.0 * sum(errors) / len(errors) if errors else None


def _draws(rng: random.Random, values: list[float], k: int) -> tuple[float, ...]:
    """``k`` draws from ``values`` with replacement, uniform: one 32-bit word a draw from ``rng``, scaled
    to an index (``word x len >> 32``; its bias is under len / 2**32), each step a C loop."""
    if k == 0:
        return ()
    words = array.array("I")
    if words.itemsize != 4:  # pragma: no cover - no such platform in use
        return tuple(rng.choices(values, k=k))
    words.frombytes(rng.getrandbits(32 * k).to_bytes(4 * k, "little"))
    if sys.byteorder == "big":  # pragma: no cover
        words.byteswap()
    index = list(map(int.__rshift__, map(len(values).__mul__, words), itertools.repeat(32)))
    if k == 1:
        return (values[index[0]],)
    return operator.itemgetter(*index)(values)  # type: ignore[no-any-return]


def _bootstrap(errors: Sequence[float], seed: int) -> tuple[float | None, float | None]:
    """The 2.5% and 97.5% quantiles of PR over :data:`BOOTSTRAP_SAMPLES` resamples of the decisions (with
    replacement, as many as there are), drawn with a fixed seed.

    Most errors are 0, and a resample's sum depends only on the draws that land on the others: how many
    do is binomial (drawn by its distribution function), and those are drawn among the non-zero errors
    alone.  The sums are distributed exactly as those of plain resampling, at a fraction of the cost."""
    n = len(errors)
    if n < 2:
        return None, None
    if n > BOOTSTRAP_MAX:  # the bootstrap's interval is the normal one by then, and it would cost n x 1,000 draws
        mean = sum(errors) / n
        sd = math.sqrt(sum((e - mean) ** 2 for e in errors) / (n - 1))
        half = 1.959964 * sd / math.sqrt(n)
        return 500.0 * max(0.0, mean - half), 500.0 * (mean + half)
    nonzero = [e for e in errors if e > 0]
    m = len(nonzero)
    if m == 0:
        return 0.0, 0.0
    rng = random.Random(seed)
    if m == n:
        ks = [n] * BOOTSTRAP_SAMPLES
    else:
        p = m / n
        lp, lq, ln1 = math.log(p), math.log1p(-p), math.lgamma(n + 1)
        cdf, total = [], 0.0
        for k in range(n + 1):
            total += math.exp(ln1 - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * lp + (n - k) * lq)
            cdf.append(total)
        ks = [min(bisect.bisect_left(cdf, rng.random() * total), n) for _ in range(BOOTSTRAP_SAMPLES)]
    draws = sum(ks)
    values = _draws(rng, nonzero, draws)
    cum = [0.0, *itertools.accumulate(values)]
    sums = []
    at = 0
    for k in ks:
        sums.append(cum[at + k] - cum[at])
        at += k
    prs = sorted(500.0 * x / n for x in sums)
    return prs[int(0.025 * (BOOTSTRAP_SAMPLES - 1))], prs[int(0.975 * (BOOTSTRAP_SAMPLES - 1))]


def _xg_figures(acc: _XgAcc, opp: _XgAcc, seed: int) -> XgFigures:
    errors = acc.checker + acc.cube
    source = "none" if not errors else "stored" if not acc.ranked else "ranked" if not acc.stored else "mixed"
    rolls = acc.rolls + opp.rolls
    luck = acc.luck - opp.luck if rolls else None  # zero-sum, as XG prints it
    return XgFigures(
        pr=_pr(errors), checker_pr=_pr(acc.checker), cube_pr=_pr(acc.cube), decisions=len(errors),
        checker_decisions=len(acc.checker), cube_decisions=len(acc.cube), error_emg=sum(errors) if errors else None,
        luck=luck, luck_per_roll=luck / rolls if luck is not None else None,
        source=source, uncounted=acc.uncounted, errors=tuple(errors), seed=seed)


# --------------------------------------------------------------------------- the whole


@dataclass(slots=True)
class PlayerStatistics:
    """Both conventions for both players, over one scope (the match or one game)."""

    gnubg: tuple[GnubgFigures, GnubgFigures]
    xg: tuple[XgFigures, XgFigures]

    def to_dict(self) -> dict[str, Any]:
        return {"gnubg": [f.to_dict() for f in self.gnubg], "xg": [f.to_dict() for f in self.xg]}


@dataclass(slots=True)
class Statistics:
    """A match's statistics: :attr:`match`, and one :class:`PlayerStatistics` a game in :attr:`games`."""

    file: str | None
    players: tuple[str, str]
    match: PlayerStatistics
    games: list[PlayerStatistics]
    game_numbers: list[int]
    messages: list[str]
    """What the figures rest on, in words: no analysis, part of it, missing plays, mixed levels."""
    decisions: list[Decision]
    """Every decision (:mod:`notation.decisions`); empty for a record that holds no analysis (its
    statistics are then counted from the record, without a replay)."""
    sums: tuple[tuple[_Acc, _Acc], tuple[_XgAcc, _XgAcc]] = field(default_factory=lambda: ((_Acc(), _Acc()),
                                                                                         (_XgAcc(), _XgAcc())))
    """The match's sums behind the figures (for :func:`players_table`)."""
    match_length: int = 0
    """0 for money play (the second figure of an error is then points, not MWC)."""

    def to_dict(self) -> dict[str, Any]:
        """The ``gammon stats --json`` object of the file."""
        return {"file": self.file, "players": list(self.players), "match": self.match.to_dict(),
                "games": [g.to_dict() for g in self.games], "messages": list(self.messages)}


def _scope(dec: Iterable[Decision], cube_in_use: bool, match_play: bool, seed: int
           ) -> tuple[PlayerStatistics, tuple[_Acc, _Acc], tuple[_XgAcc, _XgAcc]]:
    accs = (_Acc(), _Acc())
    xaccs = (_XgAcc(), _XgAcc())
    for d in dec:
        _gnubg_add(accs[d.player], d, cube_in_use)
        _xg_add(xaccs[d.player], d)
    return _finish(accs, xaccs, match_play, seed), accs, xaccs


def _finish(accs: tuple[_Acc, _Acc], xaccs: tuple[_XgAcc, _XgAcc], match_play: bool, seed: int) -> PlayerStatistics:
    both = accs[0].total_moves + accs[1].total_moves
    return PlayerStatistics(
        (_gnubg_figures(accs[0], both, match_play), _gnubg_figures(accs[1], both, match_play)),
        (_xg_figures(xaccs[0], xaccs[1], seed), _xg_figures(xaccs[1], xaccs[0], seed + 1)))


def statistics(record: Match | MatchReplay, *, met: Met = KAZAROSS_XG2, seed: int = BOOTSTRAP_SEED) -> Statistics:
    """The statistics of a match (see the module): per game and for the match, both players."""
    if isinstance(record, Match) and not has_analysis(record):
        return _counts_only(record, seed)
    rep = record if isinstance(record, MatchReplay) else replay_match(record)
    match = rep.match
    all_dec = list(decisions(rep, met=met))
    by_game: dict[int, list[Decision]] = {}
    for d in all_dec:
        by_game.setdefault(d.game_index, []).append(d)
    cube_in_use = match.rules.cube
    match_play = match.length > 0
    games: list[PlayerStatistics] = []
    total = (_Acc(), _Acc())
    xtotal = (_XgAcc(), _XgAcc())
    numbers = []
    for gi, gr in enumerate(rep.games):
        ps, accs, xaccs = _scope(by_game.get(gi, []), cube_in_use, match_play, seed + 2 * (gi + 1))
        games.append(ps)
        numbers.append(gr.game.number)
        for p in (0, 1):
            total[p].add(accs[p])
            xtotal[p].add(xaccs[p])
    whole = _finish(total, xtotal, match_play, seed)
    names = tuple(n or ("O", "X")[i] for i, n in enumerate(match.names))
    return Statistics(match.source, (names[0], names[1]), whole, games, numbers, _messages(total, xtotal), all_dec,
                      (total, xtotal), match.length)


def _counts_only(match: Match, seed: int) -> Statistics:
    """The statistics of a match that holds no analysis: counts, read from the record without a replay
    (what the replay would give: every decision unanalysed)."""
    match_play = match.length > 0
    games: list[PlayerStatistics] = []
    total = (_Acc(), _Acc())
    xtotal = (_XgAcc(), _XgAcc())
    for g in match.games:
        accs = (_Acc(), _Acc())
        xaccs = (_XgAcc(), _XgAcc())
        for a in g.actions:
            if a.player not in (0, 1):
                continue
            if a.kind == "move":
                accs[a.player].total_moves += 1
                if a.play:
                    accs[a.player].unanalysed_moves += 1
                    xaccs[a.player].uncounted += 1
            elif a.kind in ("double", "take", "drop") and match.rules.cube:
                accs[a.player].unanalysed_cube += 1
                xaccs[a.player].uncounted += 1
        games.append(_finish(accs, xaccs, match_play, seed))
        for p in (0, 1):
            total[p].add(accs[p])
            xtotal[p].add(xaccs[p])
    names = tuple(n or ("O", "X")[i] for i, n in enumerate(match.names))
    return Statistics(match.source, (names[0], names[1]), _finish(total, xtotal, match_play, seed), games,
                      [g.number for g in match.games], _messages(total, xtotal), [], (total, xtotal), match.length)


def _messages(accs: tuple[_Acc, _Acc], xaccs: tuple[_XgAcc, _XgAcc]) -> list[str]:
    out: list[str] = []
    moves = sum(a.total_moves for a in accs)
    analysed = sum(a.analysed_moves for a in accs)
    cube = sum(a.cube_total for a in accs)
    if not analysed and not cube:
        out.append(f"the record holds no analysis: {moves} moves counted, no error, luck or PR figure")
        return out
    unanalysed = sum(a.unanalysed_moves for a in accs)
    if unanalysed:
        out.append(f"{unanalysed} move{'s' if unanalysed != 1 else ''} not analysed: left out of every figure")
    missing = sum(a.missing_moves for a in accs)
    if missing:
        out.append(f"{missing} played move{'s' if missing != 1 else ''} missing from the ranked plays: gnubg's "
                   f"figures count {'them' if missing != 1 else 'it'} as error 0, XG's PR leaves "
                   f"{'them' if missing != 1 else 'it'} out")
    ucube = sum(a.unanalysed_cube for a in accs)
    if ucube:
        out.append(f"{ucube} double{'s' if ucube != 1 else ''}, take{'s' if ucube != 1 else ''} or "
                   f"pass{'es' if ucube != 1 else ''} without a cube analysis: not counted")
    levels = set().union(*(a.levels for a in accs))
    producers = set().union(*(a.producers for a in accs))
    if len(producers) > 1:
        out.append(f"analysis by several programs: {', '.join(sorted(producers))}")
    if len(levels) > 1:
        shown = sorted(levels)
        out.append(f"mixed evaluation levels: {', '.join(shown[:6])}{', ...' if len(shown) > 6 else ''}")
    return out


def iter_statistics(records: Iterable[Match]) -> Iterator[Statistics]:
    """:func:`statistics` of each match."""
    for m in records:
        yield statistics(m)


@dataclass(slots=True)
class PlayerRow:
    """One player's figures over several matches (a tournament's table): gnubg's and XG's, computed
    from the sums of every match the player played, as if one long match."""

    name: str
    matches: int
    gnubg: GnubgFigures
    xg: XgFigures

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.name, "matches": self.matches, "gnubg": self.gnubg.to_dict(), "xg": self.xg.to_dict()}


def players_table(stats: Iterable[Statistics], seed: int = BOOTSTRAP_SEED) -> list[PlayerRow]:
    """Every player of ``stats`` (by name, as the records write it), with their figures over all their
    matches, in order of PR (best first; players without a PR last, by name)."""
    acc: dict[str, tuple[_Acc, _XgAcc, _XgAcc, list[int]]] = {}  # ..., [matches, both players' moves, money]
    for st in stats:
        (g0, g1), (x0, x1) = st.sums
        both = g0.total_moves + g1.total_moves
        for p, (g, x, opp) in enumerate(((g0, x0, x1), (g1, x1, x0))):
            a = acc.setdefault(st.players[p], (_Acc(), _XgAcc(), _XgAcc(), [0, 0, 0]))
            a[0].add(g)
            a[1].add(x)
            a[2].add(opp)
            a[3][0] += 1
            a[3][1] += both
            a[3][2] += not st.match_length
    rows = []
    for name, (g, x, opp, (n, both, money)) in acc.items():
        # (a player of both matches and money sessions: the second figures add MWC and points, as gnubg's
        # session statistics would not; they are given in percent when most of the matches are matches)
        rows.append(PlayerRow(name, n, _gnubg_figures(g, both, money * 2 < n), _xg_figures(x, opp, seed)))
    rows.sort(key=lambda r: (r.xg.pr is None, r.xg.pr if r.xg.pr is not None else 0.0, r.name))
    return rows
