"""Analysis held in a record, format-neutral: ranked checker plays, cube decisions and luck.

eXtreme Gammon files, gnubg SGF (``A``, ``DA``, ``LU`` properties) and the XG/BGBlitz text exports all
carry an analysis of some decisions.  Every reader that finds one fills the same model, attached to
the :class:`~notation.record.Action` it is about, and every writer writes it or reports it dropped:

- the checker-play analysis of a roll is on that roll's ``move`` action;
- the cube analysis of a turn (double or not, take or pass) is on the ``double`` action when the
  player doubled, and otherwise on the ``move`` action of that turn (the player chose not to double);
- luck is on the ``move`` action whose dice it rates.

Numbers are the producer's, unchanged: equities as the program showed them (cubeful where the program
gave a cubeful figure; in match play eXtreme Gammon and gnubg show normalised money-equivalent
equities, EMG), probabilities from the point of view of the player who acts, between 0 and 1.
Nothing here computes an evaluation.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = ["Probabilities", "Rollout", "Candidate", "CheckerAnalysis", "CubeAnalysis", "Analysis",
           "analysis_to_dict", "analysis_from_dict", "cube_equities", "EQUITY_BOUND", "drop_out_of_range",
           "figures_in_range"]


@dataclass(frozen=True, slots=True)
class Probabilities:
    """Outcome chances for the player who acts (each 0..1); gammons and backgammons are included
    in the wider figures (``win`` includes ``win_gammon``, which includes ``win_backgammon``)."""

    win: float
    win_gammon: float = 0.0
    win_backgammon: float = 0.0
    lose_gammon: float = 0.0
    lose_backgammon: float = 0.0

    @property
    def lose(self) -> float:
        return 1.0 - self.win


@dataclass(frozen=True, slots=True)
class Rollout:
    """How a figure was rolled out, as the producer stored it (the figures themselves are the candidate's
    or the cube decision's).  A field the producer did not store is None."""

    trials: int | None = None
    """Games rolled (for a cube decision: on the no-double line)."""
    truncation: int | None = None
    """Plies after which each game was stopped and evaluated; None when the games were played out."""
    error: float | None = None
    """The producer's error bound on the equity: eXtreme Gammon stores the half-width of the 95%
    confidence interval (its ``±``)."""
    double_trials: int | None = None
    """For a cube decision: games rolled on the double/take line."""
    double_error: float | None = None
    """For a cube decision: the error bound of the double/take line's equity."""
    checker_level: str | None = None
    """The level checker plays were made at during the rollout (``XG Roller``, ``3-ply`` ...)."""
    cube_level: str | None = None
    """The level cube decisions were made at during the rollout."""
    settings: tuple[tuple[str, str], ...] = ()
    """Everything else the producer stored about the rollout, as (name, text) pairs in its order (seed,
    variance reduction, ...)."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """One ranked play."""

    play: str
    """The play in gnubg's canonical notation (``24/18 13/11``), or ``""`` for no move."""
    equity: float | None = None
    """The producer's equity for this play (cubeful where given)."""
    probabilities: Probabilities | None = None
    level: str | None = None
    """The evaluation level in the producer's words: ``XG Roller+``, ``4-ply``, ``2-ply``, ``Book``,
    ``Rollout`` ..."""
    cubeless_equity: float | None = None
    rollout: Rollout | None = None
    """For a rolled-out play: how it was rolled out."""


@dataclass(frozen=True, slots=True)
class CheckerAnalysis:
    candidates: tuple[Candidate, ...] = ()
    """Best first, as the producer ranked them."""
    played: int | None = None
    """Index in ``candidates`` of the play actually made, when it is among them."""

    @property
    def best(self) -> Candidate | None:
        return self.candidates[0] if self.candidates else None

    @property
    def error(self) -> float | None:
        """Equity lost by the play made against the best one (>= 0), when both are known."""
        if self.played is None or not self.candidates:
            return None
        best, made = self.candidates[0].equity, self.candidates[self.played].equity
        if best is None or made is None:
            return None
        return best - made


@dataclass(frozen=True, slots=True)
class CubeAnalysis:
    """The doubling decision of a turn, from the point of view of the player who may double."""

    no_double: float | None = None
    double_take: float | None = None
    double_pass: float | None = None
    verdict: str | None = None
    """The producer's verdict in its own words (``No double, take``, ``Too good to double, pass`` ...)."""
    probabilities: Probabilities | None = None
    level: str | None = None
    cubeless_equity: float | None = None
    """The cubeless equity of the no-double line (eXtreme Gammon's ``Doubled.Eval[6]``, gnubg's ``DA``)."""
    rollout: Rollout | None = None
    """For a rolled-out cube decision: how it was rolled out."""
    double_probabilities: Probabilities | None = None
    """The outcome chances of the double/take line, where the producer evaluated it apart from the no-double
    line (eXtreme Gammon's ``EvalDouble``: the same as ``probabilities`` at a low ply, different at a deeper
    one or in a rollout, where the cube the games are played with changes them)."""
    double_cubeless_equity: float | None = None
    """The cubeless equity of the double/take line (eXtreme Gammon's ``EvalDouble[6]``)."""


@dataclass(slots=True)
class Analysis:
    checker: CheckerAnalysis | None = None
    cube: CubeAnalysis | None = None
    luck: float | None = None
    """The luck of the roll in equity, as the producer gave it."""
    luck_rating: str | None = None
    """The producer's word for it (``very lucky``, ``unlucky`` ...)."""
    producer: str | None = None
    """Which program analysed it (``eXtreme Gammon``, ``GNU Backgammon``, ``BGBlitz``)."""
    extra: dict[str, str] = field(default_factory=dict)
    """Producer-specific figures kept as text (never interpreted)."""

    def is_empty(self) -> bool:
        return (self.checker is None and self.cube is None and self.luck is None and self.luck_rating is None
                and not self.extra)


def cube_equities(c: CubeAnalysis) -> str:
    """The three equities of a cube decision as ``gammon show`` prints them (``?`` for one the producer
    did not give): ``no double +0.580, double/take +0.689, double/pass +1.000``."""
    def f(v: float | None) -> str:
        return "?" if v is None else f"{v:+.3f}"

    return f"no double {f(c.no_double)}, double/take {f(c.double_take)}, double/pass {f(c.double_pass)}"


# --------------------------------------------------------------------------- plain data (JSON and others)


def _probs_to_dict(p: Probabilities | None) -> dict[str, float] | None:
    if p is None:
        return None
    return {"win": p.win, "win_gammon": p.win_gammon, "win_backgammon": p.win_backgammon,
            "lose_gammon": p.lose_gammon, "lose_backgammon": p.lose_backgammon}


def _probs_from_dict(d: dict[str, Any] | None) -> Probabilities | None:
    if d is None:
        return None
    return Probabilities(win=float(d["win"]), win_gammon=float(d.get("win_gammon", 0.0)),
                         win_backgammon=float(d.get("win_backgammon", 0.0)),
                         lose_gammon=float(d.get("lose_gammon", 0.0)),
                         lose_backgammon=float(d.get("lose_backgammon", 0.0)))


def _opt_float(v: Any) -> float | None:
    return None if v is None else float(v)


def rollout_to_dict(r: Rollout) -> dict[str, Any]:
    """A rollout as plain data: only the fields the producer stored (``settings`` as [name, text] pairs)."""
    out: dict[str, Any] = {}
    for name in ("trials", "truncation", "error", "double_trials", "double_error", "checker_level", "cube_level"):
        v = getattr(r, name)
        if v is not None:
            out[name] = v
    if r.settings:
        out["settings"] = [[k, v] for k, v in r.settings]
    return out


def _opt_int(v: Any) -> int | None:
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"expected an integer, found {v!r}")
    return v


def rollout_from_dict(d: dict[str, Any]) -> Rollout:
    """The inverse of :func:`rollout_to_dict`."""
    if not isinstance(d, dict):
        raise TypeError("a rollout is an object")
    settings = tuple((str(k), str(v)) for k, v in d.get("settings") or ())
    level = d.get("checker_level"), d.get("cube_level")
    return Rollout(trials=_opt_int(d.get("trials")), truncation=_opt_int(d.get("truncation")),
                   error=_opt_float(d.get("error")), double_trials=_opt_int(d.get("double_trials")),
                   double_error=_opt_float(d.get("double_error")),
                   checker_level=None if level[0] is None else str(level[0]),
                   cube_level=None if level[1] is None else str(level[1]), settings=settings)


def _candidate_to_dict(c: Candidate) -> dict[str, Any]:
    out = {"play": c.play, "equity": c.equity, "probabilities": _probs_to_dict(c.probabilities), "level": c.level,
           "cubeless_equity": c.cubeless_equity}
    if c.rollout is not None:
        out["rollout"] = rollout_to_dict(c.rollout)
    return out


def analysis_to_dict(a: Analysis) -> dict[str, Any]:
    """Plain data in a fixed key order (the JSON format's ``analysis`` object)."""
    out: dict[str, Any] = {}
    if a.checker is not None:
        out["checker"] = {
            "candidates": [_candidate_to_dict(c) for c in a.checker.candidates],
            "played": a.checker.played,
        }
    if a.cube is not None:
        c = a.cube
        out["cube"] = {"no_double": c.no_double, "double_take": c.double_take, "double_pass": c.double_pass,
                       "verdict": c.verdict, "probabilities": _probs_to_dict(c.probabilities), "level": c.level,
                       "cubeless_equity": c.cubeless_equity}
        if c.rollout is not None:
            out["cube"]["rollout"] = rollout_to_dict(c.rollout)
        if c.double_probabilities is not None:
            out["cube"]["double_probabilities"] = _probs_to_dict(c.double_probabilities)
        if c.double_cubeless_equity is not None:
            out["cube"]["double_cubeless_equity"] = c.double_cubeless_equity
    if a.luck is not None:
        out["luck"] = a.luck
    if a.luck_rating is not None:
        out["luck_rating"] = a.luck_rating
    if a.producer is not None:
        out["producer"] = a.producer
    if a.extra:
        out["extra"] = dict(a.extra)
    return out


def analysis_from_dict(d: dict[str, Any]) -> Analysis:
    """The inverse of :func:`analysis_to_dict` (types are checked by the caller's schema)."""
    checker = None
    if d.get("checker") is not None:
        cd = d["checker"]
        checker = CheckerAnalysis(
            candidates=tuple(
                Candidate(play=str(c["play"]), equity=_opt_float(c.get("equity")),
                          probabilities=_probs_from_dict(c.get("probabilities")), level=c.get("level"),
                          cubeless_equity=_opt_float(c.get("cubeless_equity")),
                          rollout=None if c.get("rollout") is None else rollout_from_dict(c["rollout"]))
                for c in cd.get("candidates", [])
            ),
            played=cd.get("played"),
        )
    cube = None
    if d.get("cube") is not None:
        c = d["cube"]
        cube = CubeAnalysis(no_double=_opt_float(c.get("no_double")), double_take=_opt_float(c.get("double_take")),
                            double_pass=_opt_float(c.get("double_pass")), verdict=c.get("verdict"),
                            probabilities=_probs_from_dict(c.get("probabilities")), level=c.get("level"),
                            cubeless_equity=_opt_float(c.get("cubeless_equity")),
                            rollout=None if c.get("rollout") is None else rollout_from_dict(c["rollout"]),
                            double_probabilities=_probs_from_dict(c.get("double_probabilities")),
                            double_cubeless_equity=_opt_float(c.get("double_cubeless_equity")))
    return Analysis(checker=checker, cube=cube, luck=_opt_float(d.get("luck")), luck_rating=d.get("luck_rating"),
                    producer=d.get("producer"), extra={str(k): str(v) for k, v in (d.get("extra") or {}).items()})


EQUITY_BOUND = 6.0
"""The largest equity (and luck) a figure may hold, either sign: a normalised equity is at most 3 (a
backgammon), a difference of two (an error, the luck of a roll) at most 6.  Beyond it a figure is no
producer's (a damaged or made-up file: ``1e300``, ``.xg``'s float ``3.4e38``)."""
PROBABILITY_SLACK = 1e-3
"""How far a probability may lie outside 0..1 (the producer's rounding of a figure it printed)."""


def _equity_ok(v: float | None) -> bool:
    return v is None or -EQUITY_BOUND <= v <= EQUITY_BOUND  # (NaN is not)


def _probs_ok(p: Probabilities | None) -> bool:
    return p is None or all(-PROBABILITY_SLACK <= x <= 1 + PROBABILITY_SLACK
                            for x in (p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon))


def figures_in_range(equities: Iterable[float], chances: Iterable[float] = ()) -> bool:
    """Whether every one of ``equities`` (and luck) is within :data:`EQUITY_BOUND` and every one of ``chances``
    within 0..1 (NaN is neither): what :func:`drop_out_of_range` keeps, asked of raw figures (a reader that
    decodes an analysis when first used, ``.xg``'s, decodes at once one that holds a figure out of range, for
    :func:`drop_out_of_range` to drop and say)."""
    return all(-EQUITY_BOUND <= v <= EQUITY_BOUND for v in equities) and all(
        -PROBABILITY_SLACK <= x <= 1 + PROBABILITY_SLACK for x in chances)


def _rollout_ok(r: Rollout | None) -> bool:
    return r is None or (_equity_ok(r.error) and _equity_ok(r.double_error))


def _probs_text(p: Probabilities) -> str:
    return "/".join(f"{x:g}" for x in (p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon))


def drop_out_of_range(a: Analysis) -> list[str]:
    """Drop from ``a`` every figure out of range (an equity or the luck beyond :data:`EQUITY_BOUND`, a
    probability outside 0..1, a NaN): the one range check of every reader (through
    :func:`notation.record.bound_text`).  Returns what was dropped, one item each (empty: all in range)."""
    bad: list[str] = []

    def eq(v: float | None, what: str) -> float | None:
        if _equity_ok(v):
            return v
        bad.append(f"{what} {v:g}")
        return None

    def pr(p: Probabilities | None, what: str) -> Probabilities | None:
        if _probs_ok(p):
            return p
        assert p is not None
        bad.append(f"{what} {_probs_text(p)}")
        return None

    def ro(r: Rollout | None, what: str) -> Rollout | None:
        if _rollout_ok(r):
            return r
        assert r is not None
        return replace(r, error=eq(r.error, f"the rollout error of {what}"),
                       double_error=eq(r.double_error, f"the double/take rollout error of {what}"))

    # (an analysis decoded when first used, as .xg's is, is not decoded here: its reader decodes at once one
    # with a figure out of range, figures_in_range)
    ch = a.checker
    if ch is not None and type(ch) is CheckerAnalysis and not all(
            _equity_ok(c.equity) and _equity_ok(c.cubeless_equity) and _probs_ok(c.probabilities)
            and _rollout_ok(c.rollout) for c in ch.candidates):
        a.checker = CheckerAnalysis(tuple(
            Candidate(c.play, eq(c.equity, f"the equity of {c.play or 'no move'!r}"),
                      pr(c.probabilities, f"the probabilities of {c.play or 'no move'!r}"), c.level,
                      eq(c.cubeless_equity, f"the cubeless equity of {c.play or 'no move'!r}"),
                      ro(c.rollout, repr(c.play or 'no move')))
            for c in ch.candidates), ch.played)
    cu = a.cube
    if cu is not None and type(cu) is CubeAnalysis and not (
            all(_equity_ok(v) for v in (cu.no_double, cu.double_take, cu.double_pass, cu.cubeless_equity,
                                        cu.double_cubeless_equity))
            and _probs_ok(cu.probabilities) and _probs_ok(cu.double_probabilities) and _rollout_ok(cu.rollout)):
        a.cube = replace(cu, no_double=eq(cu.no_double, "the no-double equity"),
                         double_take=eq(cu.double_take, "the double/take equity"),
                         double_pass=eq(cu.double_pass, "the double/pass equity"),
                         cubeless_equity=eq(cu.cubeless_equity, "the cube decision's cubeless equity"),
                         probabilities=pr(cu.probabilities, "the cube decision's probabilities"),
                         double_cubeless_equity=eq(cu.double_cubeless_equity, "the double/take cubeless equity"),
                         double_probabilities=pr(cu.double_probabilities, "the double/take probabilities"),
                         rollout=ro(cu.rollout, "the cube decision"))
    if not _equity_ok(a.luck):
        a.luck = eq(a.luck, "the luck")
    return bad
