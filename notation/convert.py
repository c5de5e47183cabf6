"""Converting match records between formats, saying exactly what the target cannot hold."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._term import utf8
from .errors import message_line
from .formats.registry import by_name, for_extension, writable, write
from .record import Match

if TYPE_CHECKING:
    from .replay import GameReplay, MatchReplay

WRITABLE = writable()
"""The formats ``convert`` writes (:mod:`notation.formats.registry`)."""
EXTENSIONS = {name: by_name(name).extensions[0] for name in WRITABLE}
"""The extension of a file written in each format."""


def format_for(path: str | None, to: str | None) -> str:
    """The target format from ``--to`` or the output file's extension."""
    if to:
        f = by_name(to)  # (ValueError: not a format)
        if f.writer is None:
            raise ValueError(f"unknown format {to!r} (known: {', '.join(WRITABLE)})")
        return f.name
    if path and path != "-":
        found = for_extension(Path(path).suffix, writing=True) if Path(path).suffix else None
        if found is not None:
            return found.name
        raise ValueError(f"cannot tell the format of {path!r} from its extension; use --to")
    raise ValueError("writing to standard output needs --to FORMAT")


def reporters(out: dict[str, Any]) -> tuple[Callable[[str], None], Callable[[str], dict[str, Any]]]:
    """``say(message)``, which adds one line to a conversion's result ``out`` (its ``messages``), and
    ``failed(message)``, which says it and marks the result failed (status 2), returning ``out``."""
    def say(message: str) -> None:
        out["messages"].append(message_line(message))

    def failed(message: str) -> dict[str, Any]:
        say(message)
        out["status"] = 2
        return out

    return say, failed


def say_losses(say: Callable[[str], None], name: str, dropped: Sequence[str], notes: Sequence[str], *,
               strict: bool, quiet: bool) -> None:
    """Say what a conversion of ``name`` dropped (as errors with ``strict``) and its notes, unless
    ``quiet`` (which never hides an error)."""
    if strict or not quiet:
        for d in dropped:
            say(f"{name}: {'error' if strict else 'dropped'}: {d}")
    if not quiet:
        for n in notes:
            say(f"{name}: note: {n}")


def say_doubts(say: Callable[[str], None], name: str, match: Match, *, strict: bool, quiet: bool) -> bool:
    """Say what the reader of ``match`` doubted (its normalisations that are not notes: analysis figures out of
    range dropped, an OGXM signature that does not verify), as errors with ``strict``; whether there was any
    (with ``strict`` the conversion then refuses)."""
    doubts = [n for n in match.normalisations if n.severity != "note"]
    if strict or not quiet:
        for n in doubts:
            say(f"{name}: {'error' if strict else n.severity}: reading: {n.message}")
    return bool(doubts)


def write_error(target: str, e: BaseException) -> str:
    """The one line that says why ``target`` was not written; an error that is not about writing (not
    an :class:`OSError`) is raised again."""
    if isinstance(e, FileExistsError):
        return str(e)
    if isinstance(e, OSError):
        return f"{target}: cannot write: {e.strerror or e}"
    raise e


def canonical_plays(match: Match) -> tuple[Match, int]:
    """A copy of ``match`` whose legal plays are written as gnubg writes them in ``.mat`` files: one
    step per die in the order played, every hit marked (``24/18 18/13*``).  Illegal plays and
    everything else stay as recorded.  Returns the copy and how many plays were rewritten."""
    import copy

    from .replay import replay_match

    out = copy.deepcopy(match)
    return out, sum(canonical_game_plays(g) for g in replay_match(out).games)


def canonical_game_plays(gr: GameReplay) -> int:
    """Rewrite in place, in canonical form, the legal plays of one replayed game (its actions, so a copy
    when the record must stay as read); returns how many plays were rewritten."""
    from .play import format_steps_plain

    changed = 0
    for step in gr.steps:
        a = step.action
        if a.kind != "move" or not step.legal or step.play is None or not step.play.steps:
            continue
        text = format_steps_plain(step.play.steps)
        if text != (a.play or ""):
            a.play = text
            changed += 1
    return changed


def render_match(match: Match, fmt: str, *, rep: MatchReplay | None = None, notes: list[str] | None = None,
                 **options: Any) -> tuple[str | bytes, list[str]]:
    """Write ``match`` as ``fmt``; return the text (bytes for OGXM) and what was dropped (human-readable,
    one item each): everything the written text does not hold of the record (:mod:`notation.losses`: the
    writer tallies what it wrote, and what the record holds beyond that is said), and what it writes
    otherwise.  :func:`notation.formats.registry.write` gives the same as one
    :class:`~notation.formats.registry.WriteResult`.

    ``rep``, when given, is ``replay_match(match)`` already made by the caller: the writers that replay the
    match (SGF, text) use it instead of replaying it again.  It must be the replay of ``match`` as it
    is now (not of a copy changed since).  ``notes``, when given, gets what the writer keeps in a form
    of its own (SGF's private properties, which gnubg does not read): not lost, but worth saying."""
    result = write(match, fmt, rep, **options)
    if notes is not None:
        notes.extend(result.notes)
    return result.data, result.dropped


TMP_MARK = ".gammon-tmp-"
"""Temporary files are named ``.NAME.gammon-tmp-PID`` beside their target: a write killed with SIGKILL
leaves one that the next write of the same target removes (when process PID is gone)."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _temporaries(directory: Path) -> list[str]:
    """The names in ``directory`` that look like temporary files of ours (none when it cannot be read)."""
    try:
        return [e for e in os.listdir(directory) if TMP_MARK in e]
    except OSError:
        return []


def _clean_stale(directory: Path, name: str, listed: list[str] | None = None) -> None:
    """Remove the temporary files of ``directory / name`` left by processes that are gone; ``listed``:
    :func:`_temporaries` of the directory, when the caller has it (else the directory is read)."""
    prefix = f".{name}{TMP_MARK}"
    entries = [e for e in (_temporaries(directory) if listed is None else listed) if e.startswith(prefix)]
    for e in entries:
        pid = e[len(prefix):]
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
            continue  # still writing
        except ProcessLookupError:
            pass
        except OSError:
            continue
        with contextlib.suppress(OSError):
            os.unlink(directory / e)


_IGNORED = frozenset({errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP})
"""The errors for which :meth:`pathlib.Path.exists` (and ``is_dir``, ``is_symlink``) answer False."""


def not_regular(st: os.stat_result | None) -> str | None:
    """What an existing output path is when a writer must leave it alone: ``a FIFO``, ``a device`` or
    ``a socket`` (a file is never written over one of them: renaming over ``/dev/null`` as root would put
    a regular file in its place, and opening a FIFO waits for a reader); None for a regular file, a
    directory or nothing."""
    if st is None or stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode):
        return None
    if stat.S_ISFIFO(st.st_mode):
        return "a FIFO"
    if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
        return "a device"
    if stat.S_ISSOCK(st.st_mode):
        return "a socket"
    return "not a regular file"


def _refuse_special(p: Path, st: os.stat_result | None) -> None:
    what = not_regular(st)
    if what is not None:
        raise FileExistsError(f"{p} is {what}, not a regular file: not written over, even with --force "
                              "(use '-' for standard output)")


def _stat(p: Path, follow: bool) -> os.stat_result | None:
    """``os.stat`` (or ``os.lstat``), None where :meth:`pathlib.Path.exists` says False."""
    try:
        return os.stat(p) if follow else os.lstat(p)
    except OSError as e:
        if e.errno not in _IGNORED:
            raise
        return None
    except ValueError:
        return None


class InputSet(tuple):  # type: ignore[type-arg]
    """A command's inputs, for :func:`check_target`, with what it compares them by (each file's
    identity, each path resolved) gathered once instead of for every output: a command checks every
    output before any work and again as it writes, which is quadratic in the number of files otherwise.
    The inputs must not be moved or relinked while the command runs (nor the outputs' directories)."""

    _gathered: tuple[frozenset[tuple[int, int]], frozenset[Path]] | None = None
    _dirs: dict[Path, Path] | None = None
    """Each output directory resolved, once."""

    def check(self, p: Path, force: bool) -> None:
        """:func:`check_target` of ``p`` against these inputs, with a stat or two and each directory
        resolved once (``tests/test_convert_fast_path.py`` holds it to the general check)."""
        ids, resolved = self.gathered()
        lst = _stat(p, follow=False)
        link = lst is not None and stat.S_ISLNK(lst.st_mode)
        st = _stat(p, follow=True) if link else lst
        if resolved:
            if st is not None and (st.st_dev, st.st_ino) in ids:
                raise FileExistsError(f"{p}: refusing to overwrite an input file")
            if link or p.name in ("", ".", ".."):
                real = _resolve(p)
            else:  # not a link: the resolved directory and the name
                if self._dirs is None:
                    self._dirs = {}
                parent = self._dirs.get(p.parent)
                if parent is None:
                    parent = self._dirs[p.parent] = _resolve(p.parent)
                real = parent / p.name
            if real in resolved:
                raise FileExistsError(f"{p}: refusing to overwrite an input file")
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise FileExistsError(f"{p} is a directory")
        _refuse_special(p, st)
        if lst is not None and not force:
            raise FileExistsError(f"{p} exists (use --force to overwrite it)")

    def gathered(self) -> tuple[frozenset[tuple[int, int]], frozenset[Path]]:
        """((device, inode) of each existing input, each input's resolved path); "-" is left out."""
        if self._gathered is None:
            ids = set()
            resolved = set()
            for i in self:
                if str(i) == "-":
                    continue
                st = _stat(Path(i), follow=True)  # (None: no file there, or a link in a loop, which cannot be read)
                if st is not None:
                    ids.add((st.st_dev, st.st_ino))
                resolved.add(_resolve(Path(i)))
            self._gathered = (frozenset(ids), frozenset(resolved))
        return self._gathered


def _resolve(p: Path) -> Path:
    """``p.resolve()``, or for a link that leads round in a loop (which is no file, so none of the inputs;
    Python 3.11's ``resolve`` raises RuntimeError there) ``p`` made absolute."""
    try:
        return p.resolve()
    except RuntimeError:
        return p.absolute()


def check_target(path: str | Path, *, force: bool = False, inputs: Sequence[str | Path] = ()) -> None:
    """Raise :class:`FileExistsError` when ``path`` is one of ``inputs`` (even through a link) or
    exists and ``force`` is not given: called before any work, and again by :func:`atomic_write`.
    ``inputs`` may be an :class:`InputSet` (the same answers, held so by ``tests/test_convert_fast_path.py``)."""
    p = Path(path)
    if isinstance(inputs, InputSet):
        inputs.check(p, force)
        return
    for i in inputs:
        if str(i) == "-":
            continue
        try:
            if p.exists() and os.path.samefile(p, i):
                raise FileExistsError(f"{p}: refusing to overwrite an input file")
        except OSError as e:
            if e.errno not in _IGNORED:
                raise
        if _resolve(p) == _resolve(Path(i)):
            raise FileExistsError(f"{p}: refusing to overwrite an input file")
    if p.is_dir():
        raise FileExistsError(f"{p} is a directory")
    _refuse_special(p, _stat(p, follow=True))
    if (p.exists() or p.is_symlink()) and not force:
        raise FileExistsError(f"{p} exists (use --force to overwrite it)")


_sync = getattr(os, "fdatasync", os.fsync)
"""The data on disk before the rename: ``fdatasync`` where there is one (the data and the size, which
is what reading the file back needs; not the times), else ``fsync``."""


def atomic_write(path: str | Path, data: str | bytes, *, force: bool = False,
                 inputs: Sequence[str | Path] = ()) -> None:
    """Write through a temporary file in the same directory and a rename.

    Refuses to overwrite one of ``inputs`` (always, even through a link) or an existing file (unless
    ``force``); makes the target's folder where it is missing.  An interrupted write leaves no partial
    file.  A new file gets the usual mode under the user's umask (0644 with umask 022); a replaced file
    keeps its mode, and a file with several hard links is rewritten in place once the new content is
    complete, so every link sees it.  A symbolic link is replaced by the file: nothing is written through
    it into the file it points to.
    """
    pending = _begin(path, data, force=force, inputs=inputs)
    try:
        _sync(pending.fd)
    except BaseException:
        pending.abandon()
        raise
    pending.finish(force=True)  # checked above, as it always was: once, before the temporary file


class _Pending:
    """A target's temporary file, written and still open, not yet renamed over the target."""

    __slots__ = ("path", "tmp", "fd", "raw")

    def __init__(self, path: Path, tmp: Path, fd: int, raw: bytes | None) -> None:
        self.path, self.tmp, self.fd, self.raw = path, tmp, fd, raw

    def abandon(self) -> None:
        """Close and remove the temporary file (the target is left as it was)."""
        if self.fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = -1
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.tmp)

    def finish(self, *, force: bool) -> None:
        """Put the (synced) content in place: the temporary file renamed over the target, keeping a
        replaced file's mode; a file with several hard links rewritten in place.  Without ``force``, a
        target that appeared since :func:`_begin` checked it is refused (FileExistsError)."""
        p, tmp = self.path, self.tmp
        try:
            os.close(self.fd)
            self.fd = -1
            if not force and os.path.lexists(p):
                raise FileExistsError(f"{p} exists (use --force to overwrite it)")
            st = _stat(p, follow=True)  # (None for a link to nothing, or in a loop: replaced as every link is)
            _refuse_special(p, st)  # (made since it was checked: a FIFO opened here would wait for ever)
            if os.path.islink(p):  # a symbolic link: the entry is replaced, never written through
                st = None
            if st is not None and st.st_nlink > 1:  # keep the links: copy the finished content in place
                with open(os.open(p, os.O_RDWR | getattr(os, "O_NOFOLLOW", 0)), "r+b") as fh:
                    if self.raw is None:  # written in pieces (open_pending): copied from the temporary file
                        with open(tmp, "rb") as done:
                            shutil.copyfileobj(done, fh)
                    else:
                        fh.write(self.raw)
                    fh.truncate()
                os.unlink(tmp)
                return
            os.chmod(tmp, (st.st_mode & 0o7777) if st is not None else (0o666 & ~_umask()))
            os.replace(tmp, p)
        except BaseException:
            self.abandon()
            raise


def _begin(path: str | Path, data: str | bytes, *, force: bool, inputs: Sequence[str | Path],
           listings: dict[Path, list[str]] | None = None) -> _Pending:
    """Check ``path`` (:func:`check_target`), remove a killed run's temporary file of it, and write
    ``data`` to a new temporary file beside it, left open and not yet synced.  ``listings`` keeps
    :func:`_temporaries` of each directory for the next calls (a batch reads a directory once)."""
    raw = utf8(data) if isinstance(data, str) else data
    pending = open_pending(path, force=force, inputs=inputs, listings=listings)
    pending.raw = raw
    fd = pending.fd
    try:
        view = memoryview(raw)
        while view:
            view = view[os.write(fd, view):]
    except BaseException:
        pending.abandon()
        raise
    return pending


def open_pending(path: str | Path, *, force: bool, inputs: Sequence[str | Path],
                 listings: dict[Path, list[str]] | None = None) -> _Pending:
    """:func:`_begin` with nothing written yet: the caller writes the content to the returned temporary
    file's ``fd`` in pieces (a streamed conversion, :mod:`notation.stream`), then syncs and finishes
    it (or gives it to :meth:`OutputBatch.adopt`), or abandons it."""
    p = Path(path)
    check_target(p, force=force, inputs=inputs)
    directory = p.parent if str(p.parent) else Path(".")
    directory.mkdir(parents=True, exist_ok=True)  # (a target's missing folders are made, as for every command)
    if listings is None:
        _clean_stale(directory, p.name)
    else:
        listed = listings.get(directory)
        if listed is None:
            listed = listings[directory] = _temporaries(directory)
        _clean_stale(directory, p.name, listed)
    tmp = directory / f".{p.name}{TMP_MARK}{os.getpid()}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    return _Pending(p, tmp, fd, None)


SYNC_THREADS = 4
"""How many threads of an :class:`OutputBatch` sync its files at once."""
MAX_PENDING = 64
"""How many files an :class:`OutputBatch` holds open at most: the next one finishes those first (an OGXM
stream of 10,000 members into a folder ran out of file descriptors)."""


class OutputBatch:
    """Files written as :func:`atomic_write` writes each one (the same checks, temporary file, mode and
    hard links, and the data on disk before the rename), with the waits for the disk shared:
    :meth:`add` checks a target and writes its temporary file, which a few threads sync while the
    caller goes on (the next file's work overlaps this one's wait, and syncs made together share the
    file system's journal commits); :meth:`finish` waits for the syncs and then renames each temporary
    file over its target, in the order added.  Until then (or until :data:`MAX_PENDING` files wait) no
    target is touched; a target that appeared
    in the meantime is refused unless ``force`` was given.  Used as a context manager, whatever is
    not finished (an error, an interruption) is removed.

    The threads end in :meth:`finish`: a process forks its workers (:mod:`notation.parallel`) only
    while it has no other thread."""

    def __init__(self) -> None:
        import queue
        import threading

        self._threading = threading
        self._queue: queue.SimpleQueue[int | None] = queue.SimpleQueue()
        self._threads: list[Any] = []
        self._items: list[tuple[_Pending, bool, Any]] = []
        self._failed: dict[int, BaseException] = {}
        """Sync errors by file descriptor."""
        self._listings: dict[Path, list[str]] = {}
        """The temporary files in each directory written to, read once (for :func:`_clean_stale`)."""

    def __enter__(self) -> OutputBatch:
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop()
        for pending, _, _ in self._items:
            pending.abandon()
        self._items = []

    def add(self, path: str | Path, data: str | bytes, *, force: bool = False,
            inputs: Sequence[str | Path] = (), on_error: Any = None) -> None:
        """Check ``path`` and write ``data`` to its temporary file (raises as :func:`atomic_write` does
        when the target is refused or cannot be written); ``on_error(exc)`` is called from
        :meth:`finish` if syncing or renaming it fails (the target is then left as it was)."""
        self.adopt(_begin(path, data, force=force, inputs=inputs, listings=self._listings), force=force,
                   on_error=on_error)

    def adopt(self, pending: _Pending, *, force: bool = False, on_error: Any = None) -> None:
        """:meth:`add` of a temporary file already written (:func:`open_pending`): synced with the
        others, put in place by :meth:`finish` (or when :data:`MAX_PENDING` wait)."""
        if len(self._items) >= MAX_PENDING:
            self.finish()
        self._items.append((pending, force, on_error))
        self._queue.put(pending.fd)
        if len(self._threads) < SYNC_THREADS:
            t = self._threading.Thread(target=self._sync_loop, name="gammon-sync", daemon=True)
            t.start()
            self._threads.append(t)

    def listings(self) -> dict[Path, list[str]]:
        """The temporary files of each directory written to, as read once (for :func:`open_pending`)."""
        return self._listings

    def _sync_loop(self) -> None:
        get = self._queue.get
        while (fd := get()) is not None:
            try:
                _sync(fd)
            except BaseException as e:  # noqa: BLE001 - said for its file by finish()
                self._failed[fd] = e

    def _stop(self) -> None:
        for _ in self._threads:
            self._queue.put(None)
        for t in self._threads:
            t.join()
        self._threads = []

    def finish(self) -> None:
        """Wait for every sync, then put each file in place (a failure is given to its ``on_error``)."""
        self._stop()
        items, self._items = self._items, []
        done = 0
        try:
            for pending, force, on_error in items:
                done += 1
                try:
                    err = self._failed.pop(pending.fd, None)
                    if err is not None:
                        pending.abandon()
                        raise err
                    pending.finish(force=force)
                except Exception as e:
                    if on_error is None:
                        raise
                    on_error(e)  # this file's failure, said by its caller
        finally:
            for pending, _, _ in items[done:]:
                pending.abandon()
