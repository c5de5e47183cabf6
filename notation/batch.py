"""One file at a time, as plain data: the functions any engine maps over an archive.

Each function takes a path (or, where `fsspec <https://filesystem-spec.readthedocs.io>`_ is installed,
a URL such as ``s3://bucket/m.mat``) and returns plain, picklable data; none raises for a bad file, so
one file never ends a batch.  ``gammon validate`` and ``gammon convert`` use them for ``--jobs`` (forked
workers, :mod:`notation.parallel`) and for ``--dask`` (a Dask cluster, :mod:`notation.scale`) alike,
which is why both give the same results:

* :func:`validate_file`: the file's summary and findings (what ``gammon validate --json`` prints);
* :func:`convert_file`: convert the file to a target and say what was reported on the way
  (:func:`convert_files`: several, their outputs synced together);
* :func:`decision_rows`: one row per action with the position before it (the Parquet dataset's rows,
  see ``docs/dataset.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from .errors import NotationError, cut_quotes, message_line
from .formats.registry import FORMATS, Format, by_name
from .record import Game, Match
from .replay import Finding, MatchReplay, Replayer, replay_match

if TYPE_CHECKING:
    from collections import Counter

    from .convert import OutputBatch
    from .decisions import Decision

__all__ = ["validate_file", "convert_file", "convert_files", "decision_rows", "read_source", "DATASET_VERSION",
           "DATASET_COLUMNS"]


def _is_url(path: str) -> bool:
    return "://" in path and not path.startswith("file://")


def read_source(path: str) -> list[Match]:
    """The matches in ``path``: a local path, ``-`` (standard input), or a URL read through fsspec
    (``pip install fsspec`` and the package for its protocol, such as ``s3fs``)."""
    from .matchio import parse_any

    data, name = source_bytes(path)
    return parse_any(data, name=name)


def source_bytes(path: str) -> tuple[bytes, str]:
    """The bytes of ``path`` (as :func:`read_source` takes it) and the name to report it by."""
    from .matchio import read_bytes

    if path.startswith("file://"):
        path = path[len("file://"):]
    if not _is_url(path):
        return read_bytes(path), "<stdin>" if path == "-" else path
    try:
        import fsspec  # type: ignore[import-untyped]
    except ImportError:
        raise OSError(f"reading a URL needs fsspec: pip install fsspec (for {path.split('://')[0]}://)") from None
    from ._input import read_stream

    with fsspec.open(path, "rb") as fh:
        return read_stream(fh, path, what="a record"), path


# ------------------------------------------------------------------------------------------ validate

def validate_file(path: str, variant: str | None = None, auto_doubles: int | None = None) -> dict[str, Any]:
    """Validate one file; the result is plain data (it crosses process boundaries).  Nothing escapes:
    a file that cannot be read, is not a record, or makes the reader fail gets one error finding and
    ``unreadable`` set, so the other files of a batch are still checked and reported."""
    out: dict[str, Any] = {"file": path, "games": 0, "plays": 0, "errors": 0, "warnings": 0, "notes": 0,
                           "findings": [], "unreadable": False}

    def unreadable(f: Finding) -> dict[str, Any]:
        out.update(unreadable=True, errors=1, warnings=0, notes=0, games=0, plays=0, findings=[f.to_dict()])
        return out

    stream = None
    stream_of: _Members | None = None
    matches: list[Match] | _Members
    try:
        from .matchio import detect_format, parse_any

        data, name = source_bytes(path)
        is_json = _is_json(data)
        fmt = by_name(detect_format(name, data))
        if fmt.games is not None:  # read and replayed one game at a time: memory is one game, not the file
            stream = fmt.iter_games(data, name=name)
            matches = [stream[0]]
        elif fmt.members is not None:  # a stream's members are matches, read and replayed one at a time
            matches = stream_of = _Members(data, name)  # (memory is one member); a damaged one ends it
        else:
            matches = parse_any(data, name=name, keep=False, fmt=fmt)  # (replayed for findings only: _findings)
        del data
    except BaseException as e:  # noqa: BLE001 - sorted out by _unreadable
        return unreadable(_unreadable(e, path, "reading"))
    if stream_of is None and not matches:
        return unreadable(Finding("error", "no match in this file", path))
    try:
        for k, match in enumerate(matches, 1):
            if stream is not None:
                rep, games, plays = _replay_stream(match, stream[1], path, variant, auto_doubles)
            else:
                _override(match, variant, auto_doubles)
                match.source = path
                rep, games, plays = _findings(match)
            out["games"] += games
            out["plays"] += plays
            found = [f.to_dict() for f in rep.findings]
            for n in match.normalisations:  # what the reader read in a dialect's way, said as notes
                found.append(Finding(n.severity, f"reading: {n.message}", path, n.line, n.column).to_dict())
            if stream_of is not None:  # a stream's member: said in each of its findings (below)
                for f in found:
                    f["member"] = k
            out["findings"] += found
    except _ReadError as e:
        return unreadable(_unreadable(e.error, path, "reading"))
    except Exception as e:  # noqa: BLE001 - as above, for the replay
        return unreadable(_unreadable(e, path, "replaying"))
    if not out["games"]:  # a header alone (a truncated file, "games": []) is not a clean record
        out["findings"].append(Finding("error", NO_GAMES, path).to_dict())
    if stream_of is not None:
        if stream_of.count > 1 or stream_of.tail is not None:  # a stream: its findings sort by member
            for f in out["findings"]:
                if "member" in f:
                    f["message"] = f"stream member {f['member']}: {f['message']}"
        else:  # one match alone: no member to name
            for f in out["findings"]:
                f.pop("member", None)
    if stream_of is not None and stream_of.tail is not None:  # after the stream's complete members, what ended
        f = _unreadable(stream_of.tail, path, "reading").to_dict()  # it: the file is damaged (exit 2)
        f["member"] = stream_of.count + 1
        out["findings"].append(f)
        out["unreadable"] = True
    out["findings"].sort(key=_order)
    if path != "-" and not _is_url(path) and is_json and isinstance(matches, list):
        _json_pointers(matches, out["findings"])
    for f in out["findings"]:
        out[f["severity"] + "s"] += 1
    return out


NO_GAMES = "the record holds no games"
"""The finding of a record with a header and no game (``validate``), and ``convert``'s refusal of it."""


class _Members:
    """The matches of an OGXM file or stream, read one at a time as they are iterated (none is kept); the
    error of a damaged member after complete ones ends the iteration and is kept as :attr:`tail`.  Any other
    reading error is raised as a :class:`_ReadError`."""

    def __init__(self, data: bytes, name: str) -> None:
        from .matchio import iter_matches

        self._it = iter_matches(data, name=name, keep=False)
        self.count = 0
        self.tail: NotationError | None = None

    def __iter__(self) -> Iterator[Match]:
        while True:
            try:
                m = next(self._it)
            except StopIteration:
                return
            except NotationError as e:
                if not self.count:
                    raise _ReadError(e) from e
                self.tail = e
                return
            except (Exception, MemoryError, RecursionError) as e:
                raise _ReadError(e) from e
            self.count += 1
            yield m
            del m


class _ReadError(Exception):
    """A reading error met while a streamed record was being replayed."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error


def _unreadable(e: BaseException, path: str, doing: str) -> Finding:
    """The one finding of a file that could not be read (or replayed): what went wrong, where."""
    if isinstance(e, OSError):
        return Finding("error", f"cannot read: {e.strerror or e}", path)
    if isinstance(e, NotationError):
        return Finding("error", e.message, path, e.line, e.column, text=(e.text or "").strip())
    if isinstance(e, RecursionError):
        return Finding("error", "the record is nested too deeply to read", path)
    if isinstance(e, MemoryError):
        return Finding("error", "the record is too large to read in memory", path)
    if not isinstance(e, Exception):
        raise e  # KeyboardInterrupt, SystemExit: not this file's problem
    return Finding("error", internal_error(e, doing), path)


def internal_error(e: BaseException, doing: str) -> str:
    """What a file's error says when reading, replaying or converting it met a bug (``e``): the batch
    goes on, and the file is named with it."""
    what = str(e)
    if len(what) > 200:
        what = what[:160] + f"... ({len(what)} characters)"
    return f"internal error while {doing} ({type(e).__name__}: {what}); please report it with this file"


def _source_format(name: str, data: bytes) -> Format | None:
    """The registry line of the record's format (recognised once, for the file's whole way), None when it
    is in no format known: reading it then says what is wrong."""
    from .matchio import detect_format

    try:
        return by_name(detect_format(name, data))
    except NotationError:
        return None


def _replay_stream(match: Match, games: Iterator[Game], path: str, variant: str | None,
                   auto_doubles: int | None) -> tuple[MatchReplay, int, int]:
    """Replay a record read one game at a time, keeping only the findings (see :class:`Replayer`)."""
    r = Replayer(match, keep=False, steps=False)
    while True:
        try:
            game = next(games)
        except StopIteration:
            break
        except BaseException as e:  # noqa: BLE001 - a reading error ends the file as unreadable
            if not isinstance(e, Exception | MemoryError | RecursionError):
                raise
            raise _ReadError(e) from e
        _override(match, variant, auto_doubles)  # the reader may still be setting the rules
        match.source = path
        r.feed(game)
        del game
    match.source = path
    return r.finish(), r.games, r.plays


def _findings(match: Match) -> tuple[MatchReplay, int, int]:
    """The replay's findings (no steps kept: see :class:`Replayer`), its games and its plays."""
    if getattr(match, "replay_override", None) is not None:  # records with their own replay (chouettes)
        rep = replay_match(match)
        return rep, len(rep.games), rep.plays
    r = Replayer(match, keep=False, steps=False)
    for game in match.games:
        r.feed(game)
    return r.finish(), r.games, r.plays


def _override(match: Match, variant: str | None, auto_doubles: int | None) -> None:
    if variant:
        match.rules.variant = variant
    if auto_doubles is not None:
        match.rules.auto_doubles = auto_doubles


def _is_json(data: bytes) -> bool:
    return data[:64].lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")


def _json_pointers(matches: list[Any], findings: list[dict[str, Any]]) -> None:
    """Findings in a JSON record: located by a JSON pointer into the document (``/match/games/2/actions/5``);
    the lines and columns the record keeps are those of the file it was first read from, so they are
    said as such, not as places in the JSON file."""
    m = matches[0]
    places: dict[int, list[tuple[int, str]]] = {}
    for gi, g in enumerate(m.games):
        if g.span is not None:
            places.setdefault(g.span.line, []).append((g.span.column, f"/match/games/{gi}"))
        for ai, a in enumerate(g.actions):
            if a.span is not None:
                places.setdefault(a.span.line, []).append((a.span.column, f"/match/games/{gi}/actions/{ai}"))
    for f in findings:
        line, col = f.get("line"), f.get("column")
        pointer = None
        if line is not None:
            for c, ptr in sorted(places.get(line, [])):
                if col is None or c <= col:
                    pointer = ptr
        if pointer is None and f.get("game") is not None:
            game_at = next((k for k, g in enumerate(m.games) if g.number == f["game"]), None)
            pointer = f"/match/games/{game_at}" if game_at is not None else None
        f["pointer"] = pointer or ""
        if line is not None:
            f["message"] += f" (line {line}{', column ' + str(col) if col else ''} of the original record)"
        f["line"] = f["column"] = None


def _order(f: dict[str, Any]) -> tuple[int, int, int]:
    """Findings in file order: by stream member (OGXM), line and column; those with no line (the match as
    a whole) last."""
    line = f.get("line")
    return (f.get("member", 0), line if line is not None else 1 << 60, f.get("column") or 0)


# ------------------------------------------------------------------------------------------- convert

def convert_file(src: str, target: str, fmt: str, *, force: bool = False, strict: bool = False,
                 quiet: bool = False, canonical: bool = False, inputs: Sequence[str] = (),
                 options: dict[str, Any] | None = None,
                 page: Page | None = None,
                 batch: OutputBatch | None = None, stream: bool | None = None,
                 per_match: bool = False) -> dict[str, Any]:
    """Convert ``src`` to ``target`` (``-``: the text is returned, not written) in format ``fmt``.

    Returns ``{"file", "target", "status", "messages", "text"}``: ``messages`` are the lines to report
    (findings, notes on what was rewritten or dropped), in order; ``status`` is 0 (written), 1
    (``strict`` refused a lossy conversion) or 2 (the input could not be read or the target not written;
    the last message says why); ``text`` is the output when ``target`` is ``-``, else None.  For ``fmt``
    ``html``, ``page(match, replay, written=shown)`` makes the page (the library does not import the renderer) and
    counts in ``shown`` what it shows (the rest is reported as dropped).
    With ``batch`` (see :func:`convert_files`), the output is added to it, and is in place (or the
    result says why not) once the batch is finished.  An SGF collection is converted to SGF, JSON or
    ``.mat`` one game at a time (:mod:`notation.stream`, the same result): when ``stream`` is True, or
    when it is None and the file has :data:`~notation.stream.STREAM_FROM` bytes or more.

    A file of several matches (an OGXM stream, a ``.mat`` of several) is a batch: with ``per_match``
    (``target`` is in a directory), each match is written to a file of its own, the first to ``target``
    (``NAME.json``), the next ones beside it (``NAME.2.json`` ...), each checked as ``target`` is; without,
    it is refused (status 2): ``target`` holds one match."""

    name = "<stdin>" if src == "-" else src
    out: dict[str, Any] = {"file": src, "target": target, "status": 0, "messages": [], "text": None}
    try:
        return _convert_file(src, target, fmt, out, force=force, strict=strict, quiet=quiet, canonical=canonical,
                             inputs=inputs, options=options, page=page, batch=batch, stream=stream,
                             per_match=per_match)
    except Exception as e:  # noqa: BLE001 - a bug met in one file is that file's error: the batch goes on
        out.update(status=2, text=None)
        out["messages"].append(message_line(f"{name}: {internal_error(e, 'converting')}"))
        return out


def _convert_file(src: str, target: str, fmt: str, out: dict[str, Any], *, force: bool, strict: bool,
                  quiet: bool, canonical: bool, inputs: Sequence[str], options: dict[str, Any] | None,
                  page: Page | None, batch: OutputBatch | None,
                  stream: bool | None, per_match: bool) -> dict[str, Any]:
    from .convert import check_target, reporters

    name = "<stdin>" if src == "-" else src
    say, failed = reporters(out)

    from .stream import wants_stream

    data: bytes | None = None
    # a file's own bytes (an OGXM file's) are for writing it back, not for other formats: read only for its own
    keeps = () if fmt == "html" else by_name(fmt).private
    try:
        source: Format | None = None
        if wants_stream(src, target, fmt, stream):
            data = source_bytes(src)[0]
            source = _source_format(name, data)
            if source is not None and source.games is not None:  # one game at a time; None: not done,
                from .stream import convert_sgf  # converted whole below

                done = convert_sgf(data, src, target, fmt, source=source, force=force, strict=strict,
                                   quiet=quiet, canonical=canonical, inputs=inputs, options=options, batch=batch)
                if done is not None:
                    return done
        if data is None:
            data = source_bytes(src)[0]
            source = _source_format(name, data)
        matches: list[Match] | _Stream = (_Stream(data, name, bool(keeps))
                                          if source is not None and source.several(data)
                                          else _parse(data, name, keep=bool(keeps), source=source))
        del data
    except OSError as e:
        return failed(f"{name}: cannot read: {e.strerror or e}")
    except NotationError as e:
        e.located(file=name)
        return failed(str(e))
    except (RecursionError, MemoryError):
        return failed(f"{name}: the record is too large or nested too deeply to read")
    count = len(matches)
    if not count:
        return failed(f"{name}: no match found")
    if not (matches.games if isinstance(matches, _Stream) else any(m.games for m in matches)):
        return failed(f"{name}: {NO_GAMES}: nothing to convert")
    from pathlib import Path

    drop = [p for f in FORMATS for p in f.private if p not in keeps]
    first = Path(target)

    def target_of(k: int) -> str:
        return target if k == 1 else str(first.with_name(f"{first.stem}.{k}{first.suffix}"))

    if count > 1:
        if not per_match or target == "-":
            where = "standard output" if target == "-" else target
            return failed(f"{name}: holds {count} matches, and {where} one: not converted (convert into a "
                          "directory, a file for each match, or to .ogxms, a stream of them)")
        for k in range(2, count + 1):
            try:
                check_target(target_of(k), force=force, inputs=inputs or (src,))
            except (FileExistsError, OSError) as e:
                return failed(str(e))
    from contextlib import nullcontext

    from .convert import OutputBatch

    # the files of several matches written as a batch (the folder read once, not once a file)
    with OutputBatch() if batch is None and count > 1 else nullcontext(batch) as files:
        for k, match in enumerate(matches, 1):  # (a stream's members read one at a time: see _Stream)
            for p in drop:
                match.properties.pop(p, None)
            _convert_match(match, name, k if count > 1 else 0, target_of(k), fmt, out, say, failed, force=force,
                           strict=strict, quiet=quiet, canonical=canonical, inputs=inputs or (src,),
                           options=options, page=page, batch=files)
            del match
        if files is not None and files is not batch:
            files.finish()
    return out


class _Stream:
    """The matches of an OGXM stream for :func:`convert_file`, one at a time: made with a first reading of
    every member (which raises as reading the whole stream does, before anything is written, and counts
    them), each read again as it is iterated; memory is one member, whatever their number."""

    def __init__(self, data: bytes, name: str, keep: bool) -> None:
        from .matchio import iter_matches

        self.data, self.name, self.keep = data, name, keep
        self.count = 0
        self.games = False
        for m in iter_matches(data, name=name, keep=False):
            self.count += 1
            self.games = self.games or bool(m.games)
            del m

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Match]:
        from .matchio import iter_matches

        return iter_matches(self.data, name=self.name, keep=self.keep)


class Page(Protocol):
    """What makes a match's web page (``render.html.match_page``: the library does not import the renderer, the
    command hands it over); ``written`` gets what the page shows of what :func:`notation.losses.holdings`
    counts."""

    def __call__(self, match: Match, rep: MatchReplay | None = None, *,
                 written: Counter[tuple[str, ...]] | None = None) -> str: ...


PAGE_REASONS = {
    "property": "the page does not show them (convert to json keeps them)",
    "thumbnail": "the page does not show it",
    "analysis": "the page does not show it",
}
"""Why the web page (``convert --to html``, made by the renderer) cannot hold what :func:`notation.losses.lost`
says it lost (by kind)."""


def _convert_match(match: Match, name: str, member: int, target: str, fmt: str, out: dict[str, Any],
                   say: Callable[[str], None], failed: Callable[[str], dict[str, Any]], *, force: bool,
                   strict: bool, quiet: bool, canonical: bool, inputs: Sequence[str],
                   options: dict[str, Any] | None, page: Page | None,
                   batch: OutputBatch | None) -> None:
    """One match of :func:`convert_file` written to ``target``; ``member`` is its number in a file of several
    (0 in a file of one), said in what is reported of it.  A refusal sets ``out``'s status, not lowered by
    the next match's."""
    from .convert import atomic_write, canonical_plays, say_doubts, say_losses, write_error
    from .formats.registry import by_name

    match.source = name
    label = f"{name}: match {member}" if member else name
    rep = None
    if not quiet or fmt == "html":
        # the writers that use the replay's steps get the whole replay; for the others the findings-only
        # replay (a replay holds about twice the record's memory, and the steps take time to make)
        rep = replay_match(match) if fmt == "html" or by_name(fmt).replays else _findings(match)[0]
    if not quiet and rep is not None:
        for f in rep.findings:
            if f.severity != "note":
                if member:
                    f.message = f"match {member}: {f.message}"
                say(f.format())
    if say_doubts(say, name, match, strict=strict, quiet=quiet) and strict:
        out["status"] = 1
        return
    if canonical:
        match, changed = canonical_plays(match)
        if changed and not quiet:
            say(f"{label}: {changed} plays rewritten in canonical form (--canonical)")
    notes: list[str] = []
    text: str | bytes
    if fmt == "html":  # the page (``page``, from render.html), and what it does not show of the record
        if page is None:
            failed(f"{target}: a web page needs the renderer (render.html.match_page) as ``page``")
            return
        from collections import Counter

        shown: Counter[tuple[str, ...]] = Counter()
        text = page(match, None if canonical else rep, written=shown)
        from .losses import dropped as losses

        dropped = losses(match, shown, PAGE_REASONS)
    else:
        # the writers that replay (SGF, text, OGXM) take the replay made above, unless --canonical made a new
        # match
        try:
            written = by_name(fmt).write(match, None if canonical else rep, **(options or {}))
            text, dropped, notes = written.data, written.dropped, written.notes
        except NotationError as e:  # a record the target cannot hold at all (OGXM: a variant it has no number for)
            failed(f"{label}: not converted: {e.message}")
            return
    if isinstance(text, str):  # a lone surrogate in a record's text: written as its escape (utf8), and said
        from ._term import unencodable

        escaped = unencodable(text)
        if escaped is not None:
            dropped = [*dropped, escaped]
    say_losses(say, label, dropped, notes, strict=strict, quiet=quiet)
    if dropped and strict:
        out["status"] = max(out["status"], 1)
        return
    if target == "-":
        out["text"] = text
        return
    def write_failed(e: BaseException) -> None:
        failed(write_error(target, e))

    try:
        if batch is not None:
            batch.add(target, text, force=force, inputs=inputs, on_error=write_failed)
        else:
            atomic_write(target, text, force=force, inputs=inputs)
    except OSError as e:
        write_failed(e)


def _parse(data: bytes, name: str, *, keep: bool = True, source: Format | None = None) -> list[Match]:
    from .matchio import parse_any

    return parse_any(data, name=name, keep=keep, fmt=source)


BATCH = 16
"""How many files :func:`convert_files` writes together (``gammon convert`` gives it this many)."""


def convert_files(srcs: Sequence[str], targets: Sequence[str], fmt: str, **options: Any) -> list[dict[str, Any]]:
    """:func:`convert_file` of each ``srcs[i]`` to ``targets[i]`` (the same ``options``), the outputs
    written together (:class:`~notation.convert.OutputBatch`): each is in place, with its data on disk,
    when this returns; the results are what :func:`convert_file` returns for each.  A target ``-`` is
    not written (its text is in its result)."""
    from .convert import OutputBatch

    out = []
    with OutputBatch() as batch:
        for src, target in zip(srcs, targets, strict=True):
            out.append(convert_file(src, target, fmt, batch=None if target == "-" else batch, **options))
        batch.finish()
    return out


# ------------------------------------------------------------------------------------------- dataset

DATASET_VERSION = 1
"""The version of the decision dataset's schema (``docs/dataset.md``); it changes only when a column
changes meaning or goes; new columns may be added within a version."""

DATASET_COLUMNS: tuple[tuple[str, str], ...] = (
    ("source", "string"), ("line", "int32"), ("column", "int32"), ("end_line", "int32"), ("end_column", "int32"),
    ("match", "int32"), ("game", "int32"), ("move", "int32"), ("index", "int32"),
    ("player", "int8"), ("player_name", "string"),
    ("die1", "int8"), ("die2", "int8"),
    ("kind", "string"), ("value", "int32"), ("play", "string"), ("written", "string"), ("legal", "bool"),
    ("xgid", "string"), ("position_id", "string"), ("match_id", "string"), ("ogid", "string"),
    ("cube", "int32"), ("cube_owner", "int8"), ("score0", "int32"), ("score1", "int32"),
    ("match_length", "int32"), ("crawford", "bool"), ("variant", "string"),
    ("severity", "string"), ("message", "string"),
    ("equity_played", "float64"), ("best_play", "string"), ("equity_best", "float64"), ("equity_loss", "float64"),
    ("error_mwc", "float64"), ("mark", "string"), ("luck", "float64"), ("cube_decision", "string"),
    ("cube_error", "float64"), ("cube_error_mwc", "float64"), ("cube_error_kind", "string"),
    ("xg_error", "float64"), ("xg_cube_error", "float64"),
)
"""Every column of a row, with its Arrow type, in order (documented in ``docs/dataset.md``)."""

_SEVERITY_RANK = {"error": 0, "warning": 1, "note": 2}


def _decisions_by_action(rep: MatchReplay) -> dict[int, list[Decision]]:
    """The decisions (:mod:`notation.decisions`) of a replayed match, by the id of their action (a
    move's row carries its no-double decision and its play); none for a record without analysis."""
    from .decisions import decisions, has_analysis

    out: dict[int, list[Decision]] = {}
    if has_analysis(rep.match):
        for d in decisions(rep):
            out.setdefault(id(d.source), []).append(d)
    return out


def _decision_columns(ds: Iterable[Decision]) -> tuple[Any, ...]:
    """The per-decision columns of a row: its play's MWC error, mark and luck, its cube decision's
    error (EMG, MWC, gnubg's kind), XG's stored errors."""
    play = cube = None
    for d in ds:
        if d.kind == "checker":
            play = d
        else:
            cube = d
    return (
        play.error_mwc if play else None, play.mark if play else None, play.luck if play else None,
        cube.action if cube else None, cube.error if cube else None, cube.error_mwc if cube else None,
        cube.cube_error if cube else None, play.xg_error if play else None, cube.xg_error if cube else None,
    )


def decision_rows(path: str, variant: str | None = None, auto_doubles: int | None = None) -> dict[str, Any]:
    """The rows of one file for the decision dataset, as columns (``{column: [values...]}``, see
    :data:`DATASET_COLUMNS`), with ``error`` set (and no rows) when the file cannot be read.

    One row per action of every game, in record order: the position before the action (for a move,
    with the dice rolled), what was done, the finding that names the action (the most severe one; all
    of them joined by ``"; "``), and the analysis the record holds.  Findings that name no action (a
    score line, a result) go to the game's last action."""
    cols: dict[str, list[Any]] = {name: [] for name, _ in DATASET_COLUMNS}
    result: dict[str, Any] = {"file": path, "columns": cols, "rows": 0, "error": None}
    try:
        return _decision_rows(path, variant, auto_doubles, result)
    except Exception as e:  # noqa: BLE001 - a bug met in one file is that file's error: the part goes on
        result.update(columns={name: [] for name, _ in DATASET_COLUMNS}, rows=0,
                      error=f"{path}: {internal_error(e, 'reading')}")
        return result


def _decision_rows(path: str, variant: str | None, auto_doubles: int | None, result: dict[str, Any]
                   ) -> dict[str, Any]:
    from .formats.ogxm import game_ogids
    from .ids import match_id, position_id, xgid

    cols = result["columns"]
    try:
        matches = read_source(path)
    except OSError as e:
        result["error"] = f"{path}: cannot read: {e.strerror or e}"
        return result
    except NotationError as e:
        e.located(file=path)
        result["error"] = str(e)
        return result
    except (RecursionError, MemoryError):
        result["error"] = f"{path}: the record is too large or nested too deeply to read"
        return result
    if not matches:
        result["error"] = f"{path}: no match in this file"
        return result
    if not any(m.games for m in matches):
        result["error"] = f"{path}: {NO_GAMES}"
        return result
    rows: list[tuple[Any, ...]] = []
    for mi, match in enumerate(matches):
        _override(match, variant, auto_doubles)
        match.source = path
        rep = replay_match(match)
        judged = _decisions_by_action(rep)
        by_action: dict[tuple[int | None, int | None, str | None], list[Finding]] = {}
        by_game: dict[int | None, list[Finding]] = {}
        for f in rep.findings:
            if f.move is not None:
                by_action.setdefault((f.game, f.move, f.player), []).append(f)
            else:
                by_game.setdefault(f.game, []).append(f)
        for grep in rep.games:
            game = grep.game
            names = game.names or match.names
            steps = list(grep)
            # each action's OGID before it, as OGXM's reference codec gives it (state, cube action, move number);
            # an action that is no OGXM ply (an acceptance, the result) the one after the ply before it
            ogids = {id(st.action): (before, after) for st, before, after in
                     game_ogids(grep, crawford_rule=match.rules.crawford) if st is not None}
            last_ogid: str | None = None
            for si, step in enumerate(steps):
                a = step.action
                before = step.before
                player_name = names[a.player] if names and 0 <= a.player < 2 else ""
                key = (game.number, a.move_number, player_name or ("O", "X")[a.player & 1])
                found = by_action.pop(key, []) if a.move_number is not None else []
                if si == len(steps) - 1:
                    found += by_game.pop(game.number, [])
                found.sort(key=lambda f: _SEVERITY_RANK.get(f.severity, 3))
                span = a.span
                try:
                    x = xgid(before)
                except Exception:  # noqa: BLE001 - a position no ID can hold (a variant's) has none
                    x = None
                pid: str | None
                mid: str | None
                try:
                    pid, mid = position_id(before), match_id(before)
                except Exception:  # noqa: BLE001 - as above
                    pid = mid = None
                og_pair = ogids.get(id(a))
                og = last_ogid if og_pair is None else og_pair[0]
                if og_pair is not None:
                    last_ogid = og_pair[1]
                eq_played = eq_best = loss = None
                best = None
                an = a.analysis
                if an is not None and an.checker is not None and an.checker.candidates:
                    ch = an.checker
                    best = ch.candidates[0].play
                    eq_best = ch.candidates[0].equity
                    if ch.played is not None:
                        eq_played = ch.candidates[ch.played].equity
                    loss = ch.error
                play_text = None
                if step.play is not None:
                    play_text = str(step.play)
                row = (
                    path, span.line if span else None, span.column if span else None,
                    span.end_line if span else None, span.end_column if span else None,
                    mi, game.number, a.move_number, si,
                    a.player, player_name,
                    a.dice[0] if a.dice else None, a.dice[1] if a.dice else None,
                    a.kind, a.value, play_text, a.play, step.legal,
                    x, pid, mid, og,
                    before.cube, before.cube_owner if before.cube_owner is not None else -1,
                    before.score[0], before.score[1], before.match_length, before.crawford, before.variant,
                    found[0].severity if found else None,
                    cut_quotes("; ".join(f.message for f in found)) if found else None,
                    eq_played, best, eq_best, loss,
                    *_decision_columns(judged.get(id(a), ())),
                )
                rows.append(row)
    if rows:  # one list per column, made at once
        for (name, _), values in zip(DATASET_COLUMNS, zip(*rows, strict=True), strict=True):
            cols[name] = list(values)
    result["rows"] = len(rows)
    return result
