"""``gammon convert`` of an SGF collection one game at a time: memory is the file's text and one game,
whatever the number of games (issue 16, item 7).

The output is the whole-match conversion's (:func:`notation.batch.convert_file`), byte for byte, with
the same messages and status; ``tests/test_streaming.py`` holds the two equal on every SGF file it has.
What a writer needs from the whole match is known before its first game is written, by reading the
file twice with :func:`notation.formats.sgf.iter_sgf`:

1. the first pass reads every game and keeps the header as complete as a whole read leaves it (tags
   first seen in a later game tree, rules, normalisations), and of each game a *stub*: its score, names,
   comments, properties, starting position and the few actions the writers' whole-match questions look
   at (results, cube actions, set-ups, plays written with words or marks, comments, analysis as a
   marker), not its plain moves;
2. the second pass reads the games again and, one at a time, replays each (:class:`Replayer`), makes it
   canonical (``--canonical``), has the writer write it into the output's temporary file, and drops it.

The writers are the ones the whole conversion uses, reached through their format's line
(:meth:`notation.formats.registry.Format.write_games`) and driven over the stubs: each writes with the
stubs as the match's games (Crawford games, rules, the header and the reports come from them) and swaps
each stub for the real game as it is written.  What is said as dropped comes from the same functions,
given the match with its stubs (with ``--canonical``, the stubs of the games as written).

A failure that is not the record's (the replay raises, say) leaves the temporary file removed and hands
the file back to the whole conversion (which then does what it always did); a reading error is found
by the first pass, before any output is opened, and said as the whole conversion says it.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ._term import utf8
from .errors import NotationError
from .formats.registry import FORMATS, Format, by_name
from .play import plain_legs
from .record import Action, Game, Match
from .replay import GameReplay, Replayer

if TYPE_CHECKING:
    from .analysis import Analysis
    from .convert import OutputBatch, _Pending

__all__ = ["STREAMED", "STREAM_FROM", "wants_stream", "convert_sgf", "stub_game"]

STREAMED = frozenset(f.name for f in FORMATS if f.streams)
"""The targets an SGF collection is converted to one game at a time."""

STREAM_FROM = 1 << 18
"""SGF inputs of at least this many bytes are converted one game at a time (smaller ones are read
whole, which is faster: the streamed conversion reads the file twice)."""

FLUSH = 1 << 14
"""Output text is written to the temporary file in pieces of about this many characters."""


def wants_stream(src: str, target: str, fmt: str, stream: bool | None) -> bool:
    """Whether :func:`notation.batch.convert_file` tries the streamed conversion: ``stream`` True
    (always, for an SGF input), False (never), or None (for local files of :data:`STREAM_FROM` bytes
    or more).  Standard input, URLs and a target ``-`` are converted whole."""
    if stream is False or fmt not in STREAMED or target == "-" or src == "-" or "://" in src:
        return False
    if stream:
        return True
    try:
        return os.stat(src).st_size >= STREAM_FROM
    except (OSError, ValueError):
        return False  # the whole conversion says why it cannot read it


# ------------------------------------------------------------------------------------------ stubs

def _uncounted(play: str) -> bool:
    """A play the whole-match questions never count: plain moves in digits (no word for the bar or the
    tray, no hit mark: :func:`~notation.play.plain_legs`)."""
    legs = plain_legs(play, words=False)
    return legs is not None and not any(h for _s, _t, h in legs)

_MARKERS: dict[tuple[object, ...], Analysis] = {}


def _marker(a: Analysis) -> Analysis:
    """A shared stand-in for an analysis: the same producer, empty or not as it is, with what
    :func:`notation.losses.action_items` counts of it (ranked plays, a cube decision, luck, rollouts)."""
    checker = a.checker is not None and bool(a.checker.candidates)
    rolled = sum(1 for c in a.checker.candidates if c.rollout is not None) if checker and a.checker else 0
    cube = a.cube is not None
    cube_rolled = cube and a.cube is not None and a.cube.rollout is not None
    luck = a.luck is not None or a.luck_rating is not None
    key = (a.producer, a.is_empty(), checker, rolled, cube, cube_rolled, luck)
    m = _MARKERS.get(key)
    if m is None:
        from .analysis import Analysis, Candidate, CheckerAnalysis, CubeAnalysis, Rollout

        ro = Rollout()
        cands = (Candidate(""),) * (1 if checker and not rolled else 0) + (Candidate("", rollout=ro),) * rolled
        m = _MARKERS[key] = Analysis(
            checker=CheckerAnalysis(cands) if checker else None,
            cube=CubeAnalysis(rollout=ro if cube_rolled else None) if cube else None,
            luck=0.0 if luck else None, producer=a.producer, extra={} if key[1] else {"stub": ""})
    return m


def _stub_action(a: Action) -> Action | None:
    if (a.kind == "move" and not a.properties and not a.comment and a.analysis is None and not a.no_move
            and (not a.play or _uncounted(a.play))):
        return None  # (a play that is no play, '13/7 (' say, is kept: the .mat report counts it)
    return Action(a.kind, a.player, dice=a.dice, play=a.play, no_move=a.no_move, value=a.value,
                  text=a.text if a.kind == "setup" else "", comment=a.comment, setup=a.setup,
                  properties=a.properties, analysis=None if a.analysis is None else _marker(a.analysis))


def stub_game(g: Game) -> Game:
    """What the writers' whole-match questions read of ``g`` (see the module's docstring): the game
    without its plain moves, its analysis replaced by a marker.  ``mat_write.mat_losses`` and the other
    reports, ``sgf_write._crawford_games`` and the SGF writer's ``private``/``losses`` give for a match of
    stubs what they give for the match (``tests/test_streaming.py``)."""
    acts = [s for s in map(_stub_action, g.actions) if s is not None]
    return Game(g.number, score=g.score, names=g.names, ratings=g.ratings, actions=acts, start=g.start,
                crawford=g.crawford, comments=g.comments, properties=g.properties)


# ------------------------------------------------------------------------------------------ output

class _Sink:
    """Text written to a file descriptor in pieces; a write error is kept (and nothing more written)."""

    __slots__ = ("fd", "parts", "size", "error")

    def __init__(self, fd: int | None) -> None:
        self.fd = fd
        self.parts: list[str] = []
        self.size = 0
        self.error: OSError | None = None

    def write(self, text: str) -> None:
        self.parts.append(text)
        self.size += len(text)
        if self.size >= FLUSH:
            self.flush()

    def flush(self) -> None:
        data = utf8("".join(self.parts))
        self.parts, self.size = [], 0
        if self.fd is None or self.error is not None:
            return
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self.fd, view):]
        except OSError as e:
            self.error = e


# ------------------------------------------------------------------------------------------ convert

class _Fallback(Exception):
    """The streamed conversion gives up: the whole conversion does the file."""


def convert_sgf(data: bytes, src: str, target: str, fmt: str, *, source: Format, force: bool = False,
                strict: bool = False, quiet: bool = False, canonical: bool = False, inputs: Any = (),
                options: dict[str, Any] | None = None, batch: OutputBatch | None = None
                ) -> dict[str, Any] | None:
    """:func:`notation.batch.convert_file` of the SGF ``data`` read from ``src`` (a local file), one
    game at a time (``source``: its format's registry line, whose ``games`` reads it so); the same result.
    None: not done (nothing is left behind), the caller converts ``data`` whole."""
    try:
        return _convert(data, src, target, fmt, source, force=force, strict=strict, quiet=quiet,
                        canonical=canonical, inputs=inputs, options=options or {}, batch=batch)
    except _Fallback:
        return None


def _convert(data: bytes, src: str, target: str, fmt: str, source: Format, *, force: bool, strict: bool, quiet: bool,
             canonical: bool, inputs: Any, options: dict[str, Any], batch: OutputBatch | None
             ) -> dict[str, Any]:
    from .convert import reporters, say_doubts, say_losses, write_error

    name = src
    out: dict[str, Any] = {"file": src, "target": target, "status": 0, "messages": [], "text": None}
    say, failed = reporters(out)

    # pass 1: the header, complete, and each game's stub
    try:
        header, games = source.iter_games(data, name=name)  # (which cuts and checks each game: record.Bounds)
        stubs = [stub_game(g) for g in games]
        del games
    except NotationError as e:
        e.located(file=name)
        return failed(str(e))
    except (RecursionError, MemoryError):
        return failed(f"{name}: the record is too large or nested too deeply to read")
    except Exception as e:  # noqa: BLE001 - the whole conversion meets it as it always did
        raise _Fallback from e
    header.source = name
    if fmt not in STREAMED or not stubs:
        raise _Fallback

    pending: _Pending | None = None
    open_error: OSError | None = None
    try:
        from .convert import open_pending

        pending = open_pending(target, force=force, inputs=inputs or (src,),
                               listings=None if batch is None else batch.listings())
    except OSError as e:
        open_error = e  # said where the whole conversion says it: after the reports
    try:
        sink = _Sink(None if pending is None else pending.fd)
        findings, changed, dropped, notes = _pass2(data, name, source, header, stubs, fmt, sink, quiet=quiet,
                                                   canonical=canonical, options=options)
        sink.flush()
    except BaseException as e:
        if pending is not None:
            pending.abandon()
        if isinstance(e, Exception):
            raise _Fallback from e
        raise
    for f in findings:
        if f.severity != "note":
            say(f.format())
    if say_doubts(say, name, header, strict=strict, quiet=quiet) and strict:
        if pending is not None:
            pending.abandon()
        out["status"] = 1
        return out
    if canonical and changed and not quiet:
        say(f"{name}: {changed} plays rewritten in canonical form (--canonical)")
    say_losses(say, name, dropped, notes, strict=strict, quiet=quiet)

    def write_failed(e: BaseException) -> None:
        failed(write_error(target, e))

    if dropped and strict:
        if pending is not None:
            pending.abandon()
        out["status"] = 1
        return out
    error = open_error or sink.error
    if error is not None or pending is None:
        if pending is not None:
            pending.abandon()
        write_failed(error or OSError("not written"))
        return out
    try:
        if batch is not None:
            batch.adopt(pending, force=force, on_error=write_failed)
        else:
            from .convert import _sync

            try:
                _sync(pending.fd)
            except BaseException:
                pending.abandon()
                raise
            pending.finish(force=True)
    except OSError as e:
        write_failed(e)
    return out


def _pass2(data: bytes, name: str, source: Format, header: Match, stubs: list[Game], fmt: str, sink: _Sink, *,
           quiet: bool, canonical: bool, options: dict[str, Any]) -> tuple[list[Any], int, list[str], list[str]]:
    """Read the games again and write each: (the findings to report, the plays made canonical, what
    the writer says it dropped, what it keeps in a form of its own)."""
    from .convert import canonical_game_plays

    target = by_name(fmt)
    _, games = source.iter_games(data, name=name)
    findings = Replayer(header, keep=False) if not quiet else None
    # the writer's replay, for a writer that uses it: of what it writes (the canonical copy with --canonical)
    writer = None
    if target.replays:
        writer = findings if findings is not None and not canonical else Replayer(header, keep=False)
    making = Replayer(header, keep=False) if canonical else None
    count = [0]
    view = _with_games(header, stubs)

    def each() -> Iterator[tuple[Game, GameReplay | None]]:
        for i, g in enumerate(games):
            gr = findings.feed(g) if findings is not None else None
            if making is not None:
                g = copy.deepcopy(g)
                count[0] += canonical_game_plays(making.feed(g))
                # the match as written holds the canonical plays: what the writer's reports count at the end
                view.games[i] = stub_game(g)
            if writer is not None:
                gr = writer.feed(g) if writer is not findings else gr
            yield g, gr
            del g, gr

    pipeline = each()
    result = target.write_games(view, pipeline, sink.write, **options)
    if next(pipeline, None) is not None:
        raise RuntimeError("the writer did not write every game")
    return ((findings.finish().findings if findings is not None else []), count[0], list(result.dropped),
            list(result.notes))


def _with_games(header: Match, games: list[Game]) -> Match:
    view = copy.copy(header)
    view.games = games
    return view
