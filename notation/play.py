"""Play notation: reading every dialect, writing gnubg's canonical form, and checking a written play.

Reading is in two stages:

* :func:`parse_play` is context-free: it turns ``"bar/22 13/8(2) 6/1*"`` (or ``24/18/13``,
  ``6/4*(2)``, ``17-21``, ``Bar/24, 13/Off`` ...) into :class:`Segment` objects, each one checker's
  path as written, and raises :class:`~notation.errors.ParseError` with the column of the offending
  character.  The syntax is ``grammars/play.lark``: its terminals are the tokens read here, and its
  rules the states of the reading (``tests/test_play_notation.py`` holds :func:`parse_play` to lark's
  parser of the grammar).
* :func:`resolve_play` needs the position and roll: it splits compressed moves (``24/15*`` with 63)
  into single-die steps along open points, executes them under the rules and either returns the
  legal :class:`~notation.rules.Play` it denotes or raises :class:`~notation.errors.IllegalPlayError`
  with a precise reason ("the 4 is not played, but 24/20 13/9 plays both dice",
  "8/2 lands on 2, which O holds with 3 checkers") or :class:`~notation.errors.AmbiguousPlayError`.

:func:`format_play` writes gnubg's canonical form: moves sorted by source, one checker's consecutive
steps joined (``24/20``, ``24/21*/20``), identical moves counted (``13/9(2)``), hits marked.  It and the
records of a written play (:class:`Segment`, :class:`ParsedPlay`) are defined in :mod:`notation.playtext`,
below the rules (a :class:`~notation.rules.Play` writes itself with it), and importable from here.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Literal

from .errors import AmbiguousPlayError, IllegalPlayError, ParseError
from .playtext import ParsedPlay, Segment, Step, point_name
from .playtext import format_play as format_play  # re-exported: part of play notation
from .playtext import format_steps_plain as format_steps_plain  # re-exported: part of play notation
from .position import PLAYER_LETTERS, Board, Position
from .position import play_result as play_result  # re-exported: the position after a play
from .rules import Leg, Play, Refusal, Resolution, Rules, chosen_by_marks, examples, play_legs, rule_breach

# --------------------------------------------------------------------------- reading (syntax)


_token_re: re.Pattern[str] | None = None


def _tokens() -> re.Pattern[str]:
    """One token of play notation: the terminals of ``grammars/play.lark`` as lark compiles them
    (:func:`notation._grammar.regexes`), each a named group (``space``, ``point``, ``slash``, ``star``,
    ``count``)."""
    global _token_re
    if _token_re is None:
        from ._grammar import regexes

        t = regexes("play")
        _token_re = re.compile("|".join(f"(?P<{group}>{t[name]})" for group, name in (
            ("space", "SEP"), ("point", "POINT"), ("slash", "SLASH"), ("star", "STAR"), ("count", "COUNT"))))
    return _token_re


def _point_value(tok: str) -> int:
    t = tok.lower()
    if t in ("bar", "b"):
        return 25
    if t in ("off", "o"):
        return 0
    return int(t)


_PLAIN_POINTS: dict[str, int] = {str(i): i for i in range(26)} | {"bar": 25, "Bar": 25, "off": 0, "Off": 0}
_PLAIN_TOKENS: dict[str, Leg | None] = {}
"""Tokens already read by :func:`plain_legs` (at most a few thousand distinct ones exist)."""


def _plain_token(tok: str) -> Leg | None:
    star = tok.endswith("*")
    a, sep, b = (tok[:-1] if star else tok).partition("/")
    s = _PLAIN_POINTS.get(a)
    t = _PLAIN_POINTS.get(b)
    leg = None if not sep or s is None or t is None or t >= s or s == 0 or t == 25 else (s, t, star)
    if len(_PLAIN_TOKENS) < 4096:
        _PLAIN_TOKENS[tok] = leg
    return leg


_PLAIN_TEXTS: dict[str, tuple[Leg, ...] | None] = {}
"""Play texts already read by :func:`plain_legs` (with words), emptied when it reaches
:data:`_PLAIN_TEXTS_MAX`: most files repeat a few thousand plays."""
_PLAIN_TEXTS_MAX = 65_536
known_plain_legs: Callable[[str, Literal[False]], tuple[Leg, ...] | None | Literal[False]] = _PLAIN_TEXTS.get
"""What :func:`plain_legs` (with words) has read of a play text: ``known_plain_legs(text, False)`` is
False for a text not read yet (ask :func:`plain_legs`).  For a caller that reads a play per step of a
replay: a dictionary's look-up, without a call of :func:`plain_legs` for the texts already read."""


def plain_legs(text: str, *, words: bool = True) -> tuple[Leg, ...] | None:
    """The moves of a play written in the common shape, as :func:`parse_play` reads them: blank-separated
    ``from/to`` moves, each perhaps marked ``*`` (``13/8 24/22``, ``25/20*``, ``6/0``; with ``words``
    also ``bar/20``, ``6/off``), each moving down (from 25..1 to 24..0); ``""`` is no move.  None for
    any other shape (chains, counts, commas, upward numbering, other words), which only
    :func:`parse_play` reads.  Most plays of most files have this shape: each format's reader and writer
    asks this first (it remembers the plays it has read)."""
    if words:
        legs = _PLAIN_TEXTS.get(text, False)
        if legs is not False:
            return legs  # type: ignore[return-value]
    out: list[Leg] = []
    known = _PLAIN_TOKENS
    found: tuple[Leg, ...] | None = None
    for tok in text.split():
        leg = known[tok] if tok in known else _plain_token(tok)
        if leg is None or (not words and not (tok[0].isdigit() and tok[-1 - leg[2]].isdigit())):
            break
        out.append(leg)
    else:
        found = tuple(out)
    if words:
        if len(_PLAIN_TEXTS) >= _PLAIN_TEXTS_MAX:
            _PLAIN_TEXTS.clear()
        _PLAIN_TEXTS[text] = found
    return found


def point_words(text: str) -> set[int]:
    """The points ``text`` names by a word, as :func:`parse_play` reads its tokens: 25 for ``bar``
    (``b``), 0 for ``off`` (``o``), in any case."""
    if plain_legs(text, words=False) is not None:
        return set()
    out: set[int] = set()
    token = _tokens().match
    pos, n = 0, len(text)
    while pos < n:
        m = token(text, pos)
        if m is None:
            pos += 1
            continue
        if m.lastgroup == "point" and not m.group()[0].isdigit():
            out.add(_point_value(m.group()))
        pos = m.end()
    return out


def parse_play(text: str, *, column: int = 1) -> ParsedPlay:
    """Parse play notation without a position.  ``column`` is the column of ``text[0]`` for errors."""
    segments: list[Segment] = []
    pts: list[int] = []
    marks: list[bool] = []
    seg_start = 0
    expect_point = True  # after '/' a point must follow
    count = 0  # 0: no (n) written yet
    pending_star = False
    pos = 0
    n = len(text)

    def close() -> None:
        nonlocal pts, marks, count
        if pts:
            if len(pts) < 2:
                raise ParseError(f"'{text[seg_start:pos].strip()}' is not a move (from/to)",
                                 column=column + seg_start, text=text)
            segments.append(Segment(tuple(pts), tuple(marks), count or 1, column + seg_start,
                                    text[seg_start:pos].strip()))
        pts, marks, count = [], [], 0

    token = _tokens().match
    while pos < n:
        m = token(text, pos)
        if m is None:
            raise ParseError(f"unexpected character {text[pos]!r} in play {text.strip()!r}",
                             column=column + pos, text=text)
        kind = m.lastgroup
        if kind == "space":
            if pts and not expect_point:
                # a space ends a move unless a '/', '*' or '(n)' continues it; a '*' right before
                # a point ('24/23 *13/10') marks that point instead
                nxt = token(text, m.end())
                if nxt is not None and nxt.lastgroup in ("slash", "star", "count"):
                    after = token(text, nxt.end()) if nxt.lastgroup == "star" else None
                    if after is None or after.lastgroup != "point":
                        pos = m.end()
                        continue
                close()
            pos = m.end()
            continue
        if kind == "point":
            value = _point_value(m.group("point"))
            if value > 25:
                raise ParseError(f"point {value} is not 0..25", column=column + pos, text=text)
            if pts and not expect_point:
                close()
            if not pts:
                seg_start = pos
            pts.append(value)
            marks.append(pending_star)
            pending_star = False
            expect_point = False
        elif kind == "slash":
            if pts and expect_point:
                raise ParseError(f"'{m.group()}' follows another '/' without a point between",
                                 column=column + pos, text=text)
            if not pts:
                raise ParseError(f"'{m.group()}' without a point before it", column=column + pos, text=text)
            expect_point = True
        elif kind == "star":
            if pts and not expect_point:
                marks[-1] = True
            else:
                pending_star = True  # misplaced mark before a point: give it to that point
        else:  # count
            if not pts or expect_point:
                raise ParseError("a repeat count '(n)' must follow a move", column=column + pos, text=text)
            if count:
                raise ParseError("a second repeat count for one move", column=column + pos, text=text)
            count = int(m.group()[1:-1])
            if not 1 <= count <= 4:
                raise ParseError(f"repeat count {count} is not 1..4", column=column + pos, text=text)
        pos = m.end()
    if expect_point and pts:
        raise ParseError(f"move {text[seg_start:].strip()!r} ends without a point",
                         column=column + n, text=text)
    close()
    return _normalise_direction(ParsedPlay(tuple(segments), text))


def _normalise_direction(parsed: ParsedPlay) -> ParsedPlay:
    """Mirror FIBS absolute numbering (points counting upward: ``1-3 12-15``) into the mover's own.
    Every leg votes: a move between points by its direction; an entry landing on 19..24 or a bear-off
    from 1..6 for the own numbering.  The points are mirrored only when every vote says upward.  An
    entry landing on 1..6 or a bear-off from 19..24 is only a hint (``bar/5`` and ``20/off`` can be
    one checker playing 55), see :attr:`ParsedPlay.maybe_upward`."""
    up = down = hint = 0
    for seg in parsed.segments:
        for a, b in itertools.pairwise(seg.points):
            if a == 25 and 1 <= b <= 24:
                down += b >= 19
                hint += b <= 6
            elif b == 0 and 1 <= a <= 24:
                down += a <= 6
                hint += a >= 19
            elif 1 <= a <= 24 and 1 <= b <= 24:
                up += a < b
                down += a > b
    if down or not (up or hint):
        return parsed
    if not up:
        return replace(parsed, maybe_upward=True)
    return _mirrored(parsed)


def _mirrored(parsed: ParsedPlay) -> ParsedPlay:
    segs = tuple(
        Segment(tuple(p if p in (0, 25) else 25 - p for p in s.points), s.marks, s.count, s.column, s.text)
        for s in parsed.segments
    )
    return ParsedPlay(segs, parsed.text, upward=True,
                      normalisations=("points counted upward (FIBS numbering) were mirrored",))


# --------------------------------------------------------------------------- reading (meaning)


def _player_letter(position: Position) -> str:
    return PLAYER_LETTERS[1 - position.turn]


class _Sim:
    """Executes single-die steps on the mover's board by the rules' :func:`~notation.rules.play_legs`,
    with its reason for each refusal."""

    __slots__ = ("m", "th", "rules", "opp_letter")

    def __init__(self, mine: Board, theirs: Board, rules: Rules, opp_letter: str) -> None:
        self.m = mine
        self.th = theirs
        self.rules = rules
        self.opp_letter = opp_letter

    def step(self, s: int, t: int, die: int) -> str | None:
        """None (moved), ``"hit"`` (moved and hit a blot), or why the step is refused."""
        r = play_legs(self.m, self.th, ((s, t, False),), [die], self.rules, whole=False, opponent=self.opp_letter)
        if isinstance(r, Refusal):
            return r.reason
        steps, self.m, self.th = r
        return "hit" if steps[0][2] else None


class _LazyLegal(Sequence[Play]):
    """The legal plays, generated only when a check needs them (most written plays use every die)."""

    def __init__(self, rules: Rules, mine: Board, theirs: Board, roll: tuple[int, int]) -> None:
        self._args = (mine, theirs, roll[0], roll[1])
        self._rules = rules
        self._plays: tuple[Play, ...] | None = None
        self._by_key: dict[tuple[Board, Board], Play] | None = None

    @property
    def plays(self) -> tuple[Play, ...]:
        if self._plays is None:
            self._plays = tuple(self._rules.plays_for(*self._args))
        return self._plays

    @property
    def by_key(self) -> dict[tuple[Board, Board], Play]:
        if self._by_key is None:
            self._by_key = {(p.mine, p.theirs): p for p in self.plays}
        return self._by_key

    def __getitem__(self, i):  # type: ignore[no-untyped-def]
        return self.plays[i]

    def __len__(self) -> int:
        return len(self.plays)


def _interleave(path_steps: list[list[tuple[int, int, int, bool]]], sim: _Sim, legal: _LazyLegal, n_dice: int,
                successes: list[tuple[tuple[Step, ...], Play | None, bool]],
                errors: list[tuple[int, str]]) -> bool:
    """Try every order of the paths' steps (each path in its own order); True once a complete legal
    play with no hidden hit is found.  Failures are appended to ``errors`` as (steps done, reason)."""
    idx = [0] * len(path_steps)

    def explore(done: tuple[Step, ...], hidden: bool) -> bool:
        finished = True
        for pi, steps in enumerate(path_steps):
            k = idx[pi]
            if k == len(steps):
                continue
            finished = False
            if any(idx[pj] == k and path_steps[pj] == steps for pj in range(pi)):
                continue  # the same path at the same stage: already explored
            s, t, d, explicit = steps[k]
            saved = sim.m, sim.th
            r = sim.step(s, t, d)
            if r is not None and r != "hit":
                errors.append((len(done), r))
                continue
            idx[pi] += 1
            if explore(done + ((s, t, r == "hit"),), hidden or (r == "hit" and not explicit)):
                return True
            idx[pi] -= 1
            sim.m, sim.th = saved
        if not finished:
            return False
        if len(done) == n_dice:
            # Every die used, each step legal: a legal play without consulting the generator.
            result: Play | None = Play(done, sim.m, sim.th)
        else:
            result = legal.by_key.get((sim.m, sim.th))
        successes.append((done, result, hidden))
        return len(done) == n_dice and result is not None and not hidden

    try:
        return explore((), False)
    finally:
        explore = None  # type: ignore[assignment]  # a recursive closure is a reference cycle: broken here


def _die_sequences(dist: int, bear_off: bool, dice: list[int]) -> list[tuple[int, ...]]:
    """Ordered dice (a sub-multiset of ``dice``) that carry one checker exactly ``dist`` pips, or
    at least ``dist`` pips when bearing off with the last die only overshooting."""
    out: set[tuple[int, ...]] = set()

    def rec(remaining: list[int], acc: tuple[int, ...], total: int) -> None:
        for i, d in enumerate(remaining):
            if i and d == remaining[i - 1]:
                continue
            nt = total + d
            if nt == dist or (bear_off and nt > dist):
                out.add(acc + (d,))
            if nt < dist:
                rec(remaining[:i] + remaining[i + 1:], acc + (d,), nt)

    rec(sorted(dice), (), 0)
    rec = None  # type: ignore[assignment]  # a recursive closure is a reference cycle: broken here
    return sorted(out, key=lambda seq: (len(seq), seq))


def resolve_play(position: Position, play: str | ParsedPlay, dice: tuple[int, int] | None = None,
                 *, column: int = 1) -> Resolution:
    """The legal play that ``play`` denotes for the player on roll, or an error saying why not."""
    parsed = parse_play(play, column=column) if isinstance(play, str) else play
    try:
        return _resolve(position, parsed, dice, column)
    except (IllegalPlayError, AmbiguousPlayError) as e:
        if not parsed.maybe_upward:
            raise
        try:
            return _resolve(position, _mirrored(parsed), dice, column)
        except (IllegalPlayError, AmbiguousPlayError) as mirrored_error:
            if isinstance(e, _Unmakeable) and not isinstance(mirrored_error, _Unmakeable):
                raise mirrored_error from None
        raise


class _Unmakeable(IllegalPlayError):
    """The written moves cannot be made with the roll at all, whatever the position."""


def _resolve(position: Position, parsed: ParsedPlay, dice: tuple[int, int] | None, column: int) -> Resolution:
    roll = dice if dice is not None else position.dice
    if roll is None:
        raise IllegalPlayError("no roll to play", column=column, text=parsed.text)
    rules = position.rules
    mine, theirs = position.on_roll, position.opponent
    legal = _LazyLegal(rules, mine, theirs, roll)
    text = parsed.text.strip()
    hi, lo = max(roll), min(roll)
    roll_s = f"{hi}{lo}"
    if not parsed.segments:
        if not legal:
            return Resolution(Play((), mine, theirs))
        raise IllegalPlayError(
            f"no move is written, but {roll_s} can be played, e.g. {examples(legal)}",
            column=column, text=parsed.text)

    dice_list = [hi, hi, hi, hi] if hi == lo else [hi, lo]
    # Expand segments into legs (one checker, from a written point to the next written point).
    paths: list[tuple[Segment, list[tuple[int, int]]]] = []
    for seg in parsed.segments:
        legs = list(itertools.pairwise(seg.points))
        for a, b in legs:
            if a == 0 or (b == 25):
                raise _Unmakeable(f"{seg.text}: a checker cannot move from off or to the bar",
                                  column=seg.column, text=seg.text)
            if b >= a:
                raise _Unmakeable(f"{seg.text}: {a}/{b} does not move forward",
                                  column=seg.column, text=seg.text)
        for _ in range(seg.count):
            paths.append((seg, legs))
    n_legs = sum(len(legs) for _, legs in paths)
    if n_legs > len(dice_list):
        raise _Unmakeable(
            f"{text!r} moves {n_legs} times, but {roll_s} gives only {len(dice_list)} moves",
            column=column, text=parsed.text)

    # Every way of assigning dice to legs.
    assignments: list[list[list[tuple[int, ...]]]] = []
    pip_problem: str | None = None
    pip_column = column

    def assign(pi: int, li: int, remaining: list[int], acc: list[list[tuple[int, ...]]]) -> None:
        nonlocal pip_problem, pip_column
        if pi == len(paths):
            assignments.append([list(x) for x in acc])  # type: ignore[arg-type]
            return
        seg, legs = paths[pi]
        if li == len(legs):
            assign(pi + 1, 0, remaining, acc)
            return
        a, b = legs[li]
        seqs = _die_sequences(a - b, b == 0, remaining)
        if not seqs and pip_problem is None and not _die_sequences(a - b, b == 0, dice_list):
            what = f"{point_name(a)}/{point_name(b)}"
            pips = a - b
            pip_problem = (f"{what} moves {pips} pip{'s' if pips != 1 else ''}, which {roll_s} cannot make"
                           if b else f"{what} needs at least {a}, which {roll_s} cannot give")
            pip_column = column + seg.column - 1  # where this move is written
        for seq in seqs:
            rest = list(remaining)
            for d in seq:
                rest.remove(d)
            acc[pi].append(seq)
            assign(pi, li + 1, rest, acc)
            acc[pi].pop()

    assign(0, 0, list(dice_list), [[] for _ in paths])
    assign = None  # type: ignore[assignment]  # a recursive closure is a reference cycle: broken here
    if not assignments:
        if pip_problem is None:
            needs = " + ".join(str(a - b) if b else f"at least {a}" for _seg, legs in paths for a, b in legs)
            pip_problem = f"{text!r} needs {needs} pips, which {roll_s} cannot give"
        raise _Unmakeable(pip_problem, column=pip_column, text=parsed.text)

    opp_letter = PLAYER_LETTERS[1 - position.turn]
    successes: list[tuple[tuple[Step, ...], Play | None, bool]] = []
    first_error: tuple[int, str] | None = None
    tried: set[tuple] = set()
    errors: list[tuple[int, str]] = []
    for assignment in assignments:
        # Per path: its list of single-die steps with their landing points.
        path_steps: list[list[tuple[int, int, int, bool]]] = []
        for (_seg, legs), seqs in zip(paths, assignment, strict=True):
            steps: list[tuple[int, int, int, bool]] = []
            for (a, _b), seq in zip(legs, seqs, strict=True):
                cur = a
                for k, d in enumerate(seq):
                    nxt = max(cur - d, 0)
                    explicit = k == len(seq) - 1
                    steps.append((cur, nxt, d, explicit))
                    cur = nxt
            path_steps.append(steps)
        key = tuple(tuple(ps) for ps in path_steps)
        if key in tried:
            continue
        tried.add(key)
        stop = _interleave(path_steps, _Sim(mine, theirs, rules, opp_letter), legal,
                           len(dice_list), successes, errors)
        if stop:
            break
    if errors:
        first_error = max(errors, key=lambda e: e[0])

    if not successes:
        assert first_error is not None
        if not legal:
            raise IllegalPlayError(f"{roll_s} cannot be played at all here, yet {text!r} is written",
                                   column=column, text=parsed.text)
        raise IllegalPlayError(first_error[1], column=column, text=parsed.text)
    good = [s for s in successes if s[1] is not None]
    if not good:
        raise IllegalPlayError(rule_breach(successes[0][0], legal, hi, lo), column=column, text=parsed.text)
    visible = [s for s in good if not s[2]] or good
    distinct: dict[tuple[Board, Board], tuple[tuple[Step, ...], Play]] = {}
    for done, result, _hidden in visible:
        assert result is not None
        distinct.setdefault((result.mine, result.theirs), (done, result))
    options = list(distinct.values())
    i, notes = chosen_by_marks([done for done, _result in options], parsed, column)
    done, result = options[i]
    return Resolution(Play(done, result.mine, result.theirs), notes + parsed.normalisations)


def check_play(position: Position, play: str, dice: tuple[int, int] | None = None) -> str | None:
    """None when ``play`` is legal for the position and roll, otherwise the reason it is not."""
    try:
        resolve_play(position, play, dice)
    except (IllegalPlayError, AmbiguousPlayError, ParseError) as e:
        return e.message
    return None
