"""Every decision of a replayed match with its analysis: the one walk that statistics, problem sets and
reports build on.

:func:`decisions` replays a :class:`~notation.record.Match` (or takes a
:class:`~notation.replay.MatchReplay`) and yields a :class:`Decision` for each decision a player made,
in the order they were made:

- ``kind == "checker"``: each roll played (a ``move`` action, "Cannot Move" included), with the ranked
  plays of the producer's analysis when there are some, and the luck of the roll;
- ``kind == "cube"``: each doubling decision the record holds an analysis of, or that the player acted
  on: the player on roll doubled (``action == "double"``) or did not (``"no double"``: only where the
  record analysed that turn's cube decision, since a record cannot say which turns the player
  considered), and the doubled player's answer (``"take"``, ``"pass"``, ``"beaver"``).  A take or pass
  reads the cube analysis on its own action and otherwise the double's (eXtreme Gammon keeps one
  analysis for both).

A decision's figures are the producer's, never invented: where the record holds no analysis of it,
``analysed`` is False and its error is None (never 0).  Where the played move is missing from the
ranked plays, ``missing`` is True and the error is None (gnubg's statistics count such a move as error
0; :mod:`notation.statistics` says so and counts them).

Units and signs:

- equities and errors are in EMG (normalised money equity, as gnubg and XG show them in match play);
  errors are *losses*, >= 0 (gnubg prints them negative);
- ``error_mwc`` and ``luck_mwc`` are in match-winning chance, a fraction (0.01 = 1%), converted as gnubg
  converts them: an EMG difference ``d`` at the decision's score and cube is ``d x (W - L) / 2`` MWC,
  W and L the chances after winning and losing the game at the cube, from gnubg's default table
  (Kazaross XG2, :mod:`notation.met`).  In money play they are None; ``cube`` gives the cube value
  (gnubg's money figure is ``cube x error``, :attr:`Decision.error_cost`);
- gnubg's cube analysis in a match is stored as match-winning chances (SGF ``DA``): it is normalised
  here through the same table, as gnubg does before it compares the three equities (double/pass is
  then +1 by construction; a producer that gives no double/pass equity gets +1 too).

The gnubg rules applied (``analysis.c``, ``eval.c`` of GNU Backgammon 1.07, the installed version;
``docs/statistics.md`` names each): a play is *forced* when it has at most one ranked play; a cube
decision is *close* when the optimal equity less min(double/take, 1) is under 0.16 (every double, take
and pass is close); marks are gnubg's default skill thresholds on the error (doubtful 0.03, bad 0.06,
very bad 0.12); the cube error categories are
gnubg's (``missed double below/above the cash point``, ``wrong double below the double point / above
too good``, ``wrong take``, ``wrong pass``).  ``xg_error`` and ``xg_counted`` are eXtreme Gammon's own
stored error and "counts as a decision" flag, where the record is an ``.xg``.
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from .analysis import Analysis, CubeAnalysis
from .met import KAZAROSS_XG2, Met
from .position import Position
from .record import Action, Match
from .replay import MatchReplay, replay_match

__all__ = ["Decision", "CubeEquities", "CubeVerdict", "decisions", "has_analysis", "legal_choices", "SKILL_DOUBTFUL",
           "SKILL_BAD", "SKILL_VERY_BAD", "CLOSE_CUBE", "mark"]

SKILL_DOUBTFUL, SKILL_BAD, SKILL_VERY_BAD = 0.03, 0.06, 0.12
"""gnubg's default thresholds for marking an error (``arSkillLevel``, gnubg.c), in EMG."""
CLOSE_CUBE = 0.16
"""gnubg's threshold of a close cube decision (``isCloseCubedecision``, eval.c)."""

Kind = Literal["checker", "cube"]
DoublerAction = Literal["double", "no double", "too good"]
Answer = Literal["take", "pass"]
Mark = Literal["doubtful", "bad", "very bad"]
CubeError = Literal["missed double below CP", "missed double above CP", "wrong double below DP",
                    "wrong double above TG", "wrong take", "wrong pass"]

_F32 = struct.Struct("<f")


def _f32(x: float) -> float:
    """``x`` rounded to single precision, as gnubg holds every figure (so that a threshold splits the
    same decisions as gnubg's)."""
    try:
        return float(_F32.unpack(_F32.pack(x))[0])
    except OverflowError:
        return x


def mark(error: float | None) -> Mark | None:
    """gnubg's mark for an error (a loss in EMG, >= 0): ``doubtful``, ``bad``, ``very bad`` or None."""
    if error is None:
        return None
    r = _f32(-error)
    if r < -_f32(SKILL_VERY_BAD):
        return "very bad"
    if r < -_f32(SKILL_BAD):
        return "bad"
    if r < -_f32(SKILL_DOUBTFUL):
        return "doubtful"
    return None


@dataclass(frozen=True, slots=True)
class CubeEquities:
    """A cube decision's three equities, from the doubler's side, in EMG, and gnubg's optimum."""

    no_double: float
    double_take: float
    double_pass: float
    available: bool = True
    """Whether the player could double (gnubg: otherwise the optimum is no double)."""

    @property
    def optimal(self) -> float:
        """The equity of the best action (gnubg's ``FindBestCubeDecision``)."""
        if not self.available:
            return self.no_double
        return max(self.no_double, min(self.double_take, self.double_pass))

    @property
    def verdict(self) -> CubeVerdict:
        """The right actions, as gnubg's ``FindBestCubeDecision`` finds them (see :class:`CubeVerdict`)."""
        nd, dt, dp = self.no_double, self.double_take, self.double_pass
        answer: Answer = "take" if dt <= dp else "pass"
        if not self.available:
            return CubeVerdict("no double", answer)
        if min(dt, dp) >= nd:
            return CubeVerdict("double", answer)
        if answer == "pass" and nd > dp:
            return CubeVerdict("too good", answer)
        return CubeVerdict("no double", answer)

    @property
    def best(self) -> str:
        """The right actions in words: ``double, take``, ``no double, take``, ``too good, pass`` ..."""
        return self.verdict.words


@dataclass(frozen=True, slots=True)
class CubeVerdict:
    """What a cube decision's three equities say is right: the doubler's action and the answer.

    The one rule (every caption, answer and report says it in its own words from this):

    - the answer is ``take`` when double/take <= double/pass (from the doubler's side: taking costs the
      opponent no more than passing; a tie is a take, as gnubg counts no wrong take there), else ``pass``;
    - the doubler's action is ``double`` when min(double/take, double/pass) >= no double (a tie is a
      double: gnubg's ``FindBestCubeDecision`` doubles when doubling loses nothing); ``too good`` when
      he should not double, passing is right and no double beats double/pass (playing on for a gammon
      is worth more than the cash, as eXtreme Gammon says "Too good to double / Pass"); ``no double``
      otherwise (and always where he may not double).  A position where no double beats double/pass
      but the opponent should take is ``no double, take``, never "too good, take".
    """

    action: DoublerAction
    answer: Answer

    @property
    def words(self) -> str:
        """The verdict in :mod:`notation`'s English words: ``double, take``, ``too good, pass`` ..."""
        return f"{self.action}, {self.answer}"


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of one player, with what the record's analysis says of it (see the module)."""

    game: int
    """The game's number as the record numbers it."""
    game_index: int
    """0-based index of the game in the match."""
    move: int | None
    """The ``.mat`` row number (:attr:`~notation.record.Action.move_number`): "game G, move M" names the
    same decision in every format."""
    player: int
    """0 or 1 (the left / right column of a ``.mat`` score line)."""
    kind: Kind
    action: str
    """What the player did: ``play`` (checker), ``double``, ``no double``, ``take``, ``pass``, ``beaver``."""
    position: Position | None
    """The position of the decision: before the play, dice rolled (checker); before rolling (a double
    or not); with the double offered (take or pass).  None where the replay could not follow the
    record to it (an impossible play before it in the game): the decision and its analysis are still
    here, its score and cube those the replay last knew."""
    match_length: int
    """0 for money play."""
    cube: int
    """The cube value when deciding (before the double)."""
    dice: tuple[int, int] | None
    played: str | None
    """The play made (the producer's spelling when it is among the ranked plays, else as written);
    for a cube decision, ``action``."""
    best: str | None
    """The best play, or the right cube actions in words (``double, take``), when analysed."""
    error: float | None
    """EMG lost against the best choice (>= 0), None when not known."""
    error_mwc: float | None
    """The same in match-winning chance (a fraction), None in money play or when not known."""
    analysed: bool
    """The record holds figures for this decision."""
    forced: bool = False
    """A checker play with at most one choice: at most one ranked play; where the record did not analyse
    it, only when nothing was played (:func:`legal_choices` asks the rules)."""
    missing: bool = False
    """Analysed, but the play made is not among the ranked plays (its error is None)."""
    candidates: int = 0
    """How many ranked plays the analysis holds."""
    close: bool = False
    """Cube: gnubg's close-or-actual decision."""
    cube_error: CubeError | None = None
    """Cube: gnubg's category of the error made, if any."""
    equities: CubeEquities | None = None
    """Cube: the three equities (EMG), when analysed."""
    mark: Mark | None = None
    """gnubg's mark of the error (:func:`mark`)."""
    luck: float | None = None
    """Checker: the luck of the roll in EMG, as the producer gave it (positive: lucky)."""
    luck_mwc: float | None = None
    luck_mark: str | None = None
    """The producer's word for the luck (``very lucky`` ... ``very unlucky``)."""
    producer: str | None = None
    level: str | None = None
    """The evaluation level of the played candidate / the cube decision, in the producer's words."""
    xg_error: float | None = None
    """eXtreme Gammon's own stored error of this decision (``ErrMove``, ``ErrCube``, ``ErrTake``) as a
    loss >= 0, where the record is an ``.xg``."""
    xg_counted: bool | None = None
    """Checker: whether eXtreme Gammon counts it as a decision (its ``Unused`` flag, inverted), where
    stored.  XG stores no such flag for a cube decision (None)."""
    source: Action | None = None
    """The record's action of the decision (for a "no double", the move of that turn)."""

    @property
    def error_cost(self) -> float | None:
        """gnubg's second figure: MWC in a match, ``cube x error`` points in money play."""
        if self.error is None:
            return None
        return self.error_mwc if self.match_length else self.cube * self.error


# --------------------------------------------------------------------------- the walk


def has_analysis(match: Match) -> bool:
    """The record holds an analysis of at least one decision (read from the record, without a replay)."""
    return any(a.analysis is not None for g in match.games for a in g.actions)


def decisions(record: Match | MatchReplay, *, met: Met = KAZAROSS_XG2) -> Iterator[Decision]:
    """Every decision of ``record`` (a match, replayed here, or its replay) in order: see the module.
    ``met`` converts EMG to match-winning chance (gnubg's default table)."""
    rep = record if isinstance(record, MatchReplay) else replay_match(record)
    for gi, gr in enumerate(rep.games):
        number = gr.game.number
        stepped = {id(s.action): s for s in gr.steps}
        last = gr.start
        double: tuple[Action, CubeAnalysis | None] | None = None
        for a in gr.game.actions:
            step = stepped.get(id(a))
            if step is not None:
                at = _At(a, step.before, True)
                last = step.after
            else:  # the replay could not follow the record here (an impossible play before)
                at = _At(a, last.replace(turn=a.player, dice=a.dice if a.kind == "move" else None), False)
            kind = a.kind
            an = a.analysis
            if kind == "move":
                if an is not None and an.cube is not None:
                    yield _cube_decision(number, gi, at, an, an.cube, "no double", met)
                yield _checker_decision(number, gi, at, met)
            elif kind == "double" and not at.before.double_offered:
                cube = an.cube if an is not None else None
                double = (a, cube)
                yield _cube_decision(number, gi, at, an, cube, "double", met)
            elif kind == "double":  # SGF writes a beaver as the doubled player's double
                yield _cube_decision(number, gi, at, an, None, "beaver", met)
                double = None
            elif kind in ("roll", "resign", "accept", "win") and an is not None and an.cube is not None:
                # the last cube decision of a game that ended before a play (eXtreme Gammon)
                yield _cube_decision(number, gi, at, an, an.cube, "no double", met)
            elif kind in ("take", "drop", "beaver"):
                cube = an.cube if an is not None and an.cube is not None else (double[1] if double else None)
                if an is None and double is not None:
                    an = double[0].analysis
                what = {"take": "take", "drop": "pass", "beaver": "beaver"}[kind]
                yield _cube_decision(number, gi, at, an, cube, what, met)
                double = None


@dataclass(frozen=True, slots=True)
class _At:
    """Where a decision is: its action, the position before it, and whether the replay followed the
    record to it (else the position is the last one it knew, for the score and the cube only)."""

    action: Action
    before: Position
    known: bool


def _get_me(met: Met, length: int, score: tuple[int, int], player: int, points: int, winner: int,
            crawford: bool) -> float:
    """gnubg's ``getME``, in single precision as gnubg computes it: the chance of ``player`` winning the
    match once ``winner`` wins ``points``.  The table is read from player 0's side and player 1's chance
    is 1 less it (not the table read from player 1's side: the two differ in the last digit)."""
    n0 = length - (score[0] + (points if winner == 0 else 0)) - 1
    n1 = length - (score[1] + (points if winner == 1 else 0)) - 1
    if n0 < 0:
        return 0.0 if player else 1.0
    if n1 < 0:
        return 1.0 if player else 0.0
    if crawford or length - score[0] == 1 or length - score[1] == 1:
        if n0 == 0:  # player 0 leads: the table holds the trailer's (player 1's) chance
            v = _f32(met.post[min(n1, len(met.post) - 1)])
            return v if player else _f32(1.0 - v)
        v = _f32(met.post[min(n0, len(met.post) - 1)])
        return _f32(1.0 - v) if player else v
    n = len(met.pre) - 1
    v = _f32(met.pre[min(n0, n)][min(n1, n)])
    return _f32(1.0 - v) if player else v


def _frame(met: Met, pos: Position, player: int, cube: int) -> tuple[float, float] | None:
    """``(win, lose)``: the match-winning chances of ``player`` after winning and after losing the game
    at ``cube``, as gnubg's ``getME`` gives them (the post-Crawford table once either side is one away
    or the game is marked Crawford; the cube as it stands, even where the Crawford rule says it is
    dead).  None in money play or at a score past the end."""
    length = pos.match_length
    if not length or max(pos.score) >= length:
        return None
    return _anchors(met, length, pos.score[0], pos.score[1], player, cube, pos.crawford)


@functools.lru_cache(maxsize=4096)
def _anchors(met: Met, length: int, s0: int, s1: int, player: int, cube: int, crawford: bool) -> tuple[float, float]:
    score = (s0, s1)
    return (_get_me(met, length, score, player, cube, player, crawford),
            _get_me(met, length, score, player, cube, 1 - player, crawford))


def _eq2mwc(eq: float, f: tuple[float, float]) -> float:
    """gnubg's ``eq2mwc`` in single precision."""
    win, lose = f
    return _f32(0.5 * _f32(_f32(eq * _f32(win - lose)) + _f32(win + lose)))


def _mwc2eq(mwc: float, f: tuple[float, float]) -> float:
    """gnubg's ``mwc2eq`` in single precision."""
    win, lose = f
    return _f32(_f32(_f32(2.0 * mwc) - _f32(win + lose)) / _f32(win - lose))


def _cost(eq: float | None, f: tuple[float, float] | None) -> float | None:
    """An EMG difference as gnubg converts it to MWC: ``eq2mwc(eq) - eq2mwc(0)`` (single precision)."""
    if eq is None or f is None:
        return None
    return _f32(_eq2mwc(eq, f) - _eq2mwc(0.0, f))


def _checker_decision(number: int, gi: int, at: _At, met: Met) -> Decision:
    a = at.action
    pos = at.before
    an = a.analysis
    ch = an.checker if an is not None else None
    f = _frame(met, pos, a.player, pos.cube)
    played = a.play
    best = error = level = None
    analysed = missing = False
    n = 0
    if ch is not None and ch.candidates:
        n = len(ch.candidates)
        b = ch.candidates[0]
        best = b.play
        if ch.played is not None and 0 <= ch.played < n:
            made = ch.candidates[ch.played]
            played = made.play
            level = made.level
            if made.equity is not None and b.equity is not None:
                analysed = True
                error = -_f32(_f32(made.equity) - _f32(b.equity))
        elif b.equity is not None:
            analysed = missing = True
            level = b.level
    forced = n <= 1 if ch is not None and ch.candidates else not played
    if forced and error is None and analysed:
        error = 0.0
    luck = an.luck if an is not None else None
    return Decision(
        number, gi, a.move_number, a.player, "checker", "play", pos if at.known else None,
        pos.match_length, pos.cube, a.dice, played, best, error,
        _neg(_cost(_neg(error), f)), analysed, forced=forced, missing=missing,
        candidates=n, mark=mark(error), luck=luck, luck_mwc=_cost(luck, f),
        luck_mark=an.luck_rating if an is not None else None, producer=an.producer if an is not None else None,
        level=level, xg_error=_xg(an, "xg:err_move"), xg_counted=_xg_counted(an), source=a)


def _neg(x: float | None) -> float | None:
    return None if x is None else -x


def legal_choices(d: Decision) -> int | None:
    """How many distinct plays the rules allow at a checker decision (None for a cube decision or where
    the replay could not follow the record): what says whether a play the record did not analyse was
    forced (:attr:`Decision.forced` says it only from the analysis)."""
    pos = d.position
    if d.kind != "checker" or pos is None or pos.dice is None:
        return None
    from .rules import get_rules

    try:
        return len(get_rules(pos.variant).legal_plays(pos))
    except ValueError:
        return None


def _xg(an: Analysis | None, key: str) -> float | None:
    """An XG stored error kept by the ``.xg`` reader, as a loss >= 0."""
    if an is None:
        return None
    v = an.extra.get(key)
    if v is None:
        return None
    try:
        return abs(float(v))
    except ValueError:
        return None


def _xg_counted(an: Analysis | None) -> bool | None:
    if an is None or "xg:unused" not in an.extra:
        return None
    return an.extra["xg:unused"] not in ("1", "true")


def _available(pos: Position, player: int) -> bool:
    """gnubg's ``GetDPEq``: whether ``player`` may double at ``pos``."""
    if pos.cube_owner is not None and pos.cube_owner != player:
        return False
    length = pos.match_length
    if not length:
        return True
    if pos.crawford:
        return False
    if pos.score[player] + pos.cube >= length:
        return False
    return not (pos.post_crawford and pos.score[player] == length - 1)


def _equities(c: CubeAnalysis | None, an: Analysis | None, pos: Position, doubler: int,
              met: Met) -> CubeEquities | None:
    """The cube decision's equities in EMG from the doubler's side, as gnubg compares them."""
    if c is None:
        return None
    nd, dt, dp = c.no_double, c.double_take, c.double_pass
    extra = an.extra if an is not None else {}
    if (nd is None or dt is None) and "mwc_no_double" in extra and "mwc_double_take" in extra:
        f = _frame(met, pos, doubler, pos.cube)
        if f is None:
            return None
        try:
            m_nd, m_dt = _f32(float(extra["mwc_no_double"])), _f32(float(extra["mwc_double_take"]))
        except ValueError:
            return None
        nd, dt = _mwc2eq(m_nd, f), _mwc2eq(m_dt, f)
        dp = _mwc2eq(f[0], f)  # gnubg converts the double/pass MWC too: +1, give or take the last digit
    if nd is None or dt is None:
        return None
    return CubeEquities(_f32(nd), _f32(dt), 1.0 if dp is None else _f32(dp), _available(pos, doubler))


def _cube_decision(number: int, gi: int, at: _At, an: Analysis | None, c: CubeAnalysis | None,
                   what: str, met: Met) -> Decision:
    a = at.action
    pos = at.before
    taker = what in ("take", "pass", "beaver")
    doubler = 1 - a.player if taker else a.player
    if what == "no double":
        pos = pos.replace(dice=None)
    eq = _equities(c, an, pos, doubler, met)
    f = _frame(met, pos, doubler, pos.cube)  # gnubg's cube info is the doubler's, for the answer too
    error: float | None = None
    close = what != "no double"
    category: CubeError | None = None
    best: str | None = None
    if eq is not None:
        nd, dt, dp, opt = eq.no_double, eq.double_take, eq.double_pass, _f32(eq.optimal)
        best = eq.best
        if what == "no double":
            close = _f32(opt - min(dt, 1.0)) < _f32(CLOSE_CUBE)
            error = 0.0
            if nd < opt:
                error = _f32(opt - nd)
                category = "missed double above CP" if dt > 1.0 else "missed double below CP"
        elif what == "double":
            skill = _f32((dt if dt < dp else dp) - opt)
            error = 0.0
            if skill < 0:
                error = -skill
                category = "wrong double above TG" if nd > 1.0 else "wrong double below DP"
        elif what == "take":
            error = 0.0
            if -dt < -dp:
                error = _f32(dt - dp)
                category = "wrong take"
        elif what == "pass":
            error = 0.0
            if -dp < -dt:
                error = _f32(dp - dt)
                category = "wrong pass"
    xg_key = "xg:err_take" if taker else "xg:err_cube"
    return Decision(
        number, gi, a.move_number, a.player, "cube", what, pos if at.known else None,
        pos.match_length, pos.cube, None, what, best, error,
        _neg(_cost(_neg(error), f)), eq is not None, close=close,
        cube_error=category, equities=eq, mark=mark(error), producer=an.producer if an is not None else None,
        level=c.level if c is not None else None, xg_error=_xg(an, xg_key),
        source=a)
