"""Checking many files on several CPUs.

:func:`map_files` runs a function on each file in ``jobs`` processes and returns the results in the
files' order. On Linux the work is shared out by forking: the files are split into ``jobs`` groups of
about equal size in bytes, and each forked child checks one group, sending each result back through a
pipe as soon as it has it (the parent only reads them, so a progress bar stays exact, and no file is
read in this process: one that kills its process costs only itself). A child inherits everything already
imported and every parser already built, so starting one costs about a millisecond; a pool of worker
processes costs a hundred times more, which is as much as a whole validation of a hundred matches takes.
If a child fails with a Python exception, its files are checked again here, with a warning: a result is
never lost. If a child dies (a crash, the out-of-memory killer), the files it had not finished are tried
again each alone in a new process, and a caller that passes ``lost`` gets a result saying so for a file
that kills that process too, instead of reading it here and dying with it. If this process fails or is
interrupted, its children are stopped and reaped. Elsewhere (no ``fork``, macOS, where forking is
unsafe, or a program that runs threads) a :class:`concurrent.futures.ProcessPoolExecutor` does the same.

Why not :mod:`concurrent.futures` everywhere: its only use here would be crash isolation, and it cannot
give what a user sees.  When a worker of a ``ProcessPoolExecutor`` dies, every pending future fails
with ``BrokenProcessPool`` and the pool is unusable: nothing says which file killed the worker, and
the other files' work is lost with it.  This module's own fork pool knows which files each child had
not finished, tries each again alone, and reports the one that kills its process by name
(``lost(file, reason)``), while every other file is still checked.  (It is also a hundred times
cheaper to start, which matters for a run of a few files.)
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Generator, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

GC_SURVIVORS = 20_000
"""Objects allocated (and not freed) since the last collection past which :func:`collect_if_piled`
runs the cycle collector."""


class collector_paused:  # noqa: N801  (used as a function: ``with collector_paused():``)
    """The cycle collector off, and what exists now frozen (never scanned again), for work on many
    files: a file's many small objects are freed by their reference counts when it is done, so the
    collector would scan them again and again for nothing; it runs between files instead
    (:func:`collect_if_piled`).  Afterwards the collector is as it was, for a caller that goes on
    (tests, an embedding program)."""

    __slots__ = ("_enabled",)

    def __enter__(self) -> None:
        self._enabled = gc.isenabled()
        gc.freeze()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        gc.unfreeze()
        if self._enabled:
            gc.enable()


def collect_if_piled() -> None:
    """Between files, while :class:`collector_paused`: collect cycles if objects have piled up."""
    if gc.get_count()[0] > GC_SURVIVORS:
        gc.collect()


def cpu_count() -> int:
    """The CPUs this process may use: those it may run on, fewer under a container's CPU quota
    (cgroup v2 ``cpu.max``)."""
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
    try:
        quota, period = open("/sys/fs/cgroup/cpu.max", encoding="ascii").read().split()[:2]
        if quota != "max":
            n = min(n, max(1, -(-int(quota) // int(period))))
    except (OSError, ValueError):
        pass
    return n


def can_fork() -> bool:
    """Workers are started by forking (cheap) rather than as new interpreters (a tenth of a second
    each): on Linux, in a process without other threads (forking one that has them can deadlock)."""
    import threading

    return hasattr(os, "fork") and sys.platform.startswith("linux") and threading.active_count() == 1


def auto_jobs(files: int) -> int:
    """How many processes ``--jobs 0`` uses for ``files`` files: one per CPU, at most 16 and one per
    four files; where workers are whole new interpreters, only for 64 files or more."""
    if files < (8 if can_fork() else 64):
        return 1
    return max(1, min(cpu_count(), 16, files // 4))


def _groups(files: Sequence[str], jobs: int) -> list[list[int]]:
    """Indexes of ``files`` in ``jobs`` groups of about equal total size (largest file first, each to
    the lightest group), each group in file order."""
    def size(i: int) -> int:
        try:
            return os.path.getsize(files[i])
        except (OSError, TypeError, ValueError):  # not a file (a URL, a batch's own item): by count
            return 0

    order = sorted(range(len(files)), key=lambda i: (-size(i), i))
    loads = [0] * jobs
    groups: list[list[int]] = [[] for _ in range(jobs)]
    for i in order:
        k = loads.index(min(loads))
        groups[k].append(i)
        loads[k] += size(i) + 1
    return [sorted(g) for g in groups if g]


def map_files(fn: Callable[[str], T], files: Sequence[str], jobs: int,
              on_result: Callable[[], None] | None = None, lost: Callable[[str, str], T] | None = None) -> list[T]:
    """``[fn(f) for f in files]``, computed in up to ``jobs`` processes; ``on_result`` is called once
    per finished file (in any order).  ``fn`` and its results must be picklable where no fork exists.

    A forked worker that dies (a signal, such as the kernel's out-of-memory killer, or an exit status
    other than 0 and 1) leaves files unfinished: with ``lost``, each of them is then tried again alone, in
    a process of its own, and a file that kills that one too gets ``lost(file, reason)`` as its result
    (the run goes on and says so); without ``lost``, or for a worker that ended with a Python exception,
    they are done again in this process, where the exception is raised as with one process."""
    jobs = max(1, min(jobs, len(files)))
    done = on_result if on_result is not None else _nothing
    if jobs == 1:
        out = []
        for f in files:
            out.append(fn(f))
            done()
        return out
    if can_fork():
        return _forked(_Each(fn), files, jobs, done, 1, lost)
    return _pooled(fn, files, jobs, done)


def map_batches(fn: Callable[[list[str]], list[T]], files: Sequence[str], jobs: int, size: int,
                on_result: Callable[[], None] | None = None, lost: Callable[[str, str], T] | None = None) -> list[T]:
    """As :func:`map_files`, but ``fn`` takes up to ``size`` consecutive files of a process's share at
    once and returns their results in order (a list as long as its argument): for work that is cheaper
    done for several files together, such as ``gammon convert`` syncing its outputs together.  The files
    are shared out as :func:`map_files` shares them; ``on_result`` is called once per file, and ``lost``
    is :func:`map_files`'s (a file tried again alone is ``fn`` of a batch of one)."""
    jobs = max(1, min(jobs, len(files)))
    size = max(1, size)
    done = on_result if on_result is not None else _nothing
    if jobs == 1 or not can_fork():
        if jobs > 1:
            return _pooled_batches(fn, files, jobs, size, done)
        out: list[T] = []
        for lo in range(0, len(files), size):
            out.extend(_checked(fn, list(files[lo:lo + size])))
            for _ in range(min(size, len(files) - lo)):
                done()
        return out
    return _forked(fn, files, jobs, done, size, lost)


class _Each:
    """``fn`` of each file of a list: :func:`map_files`'s function as :func:`_forked` calls it."""

    __slots__ = ("fn",)

    def __init__(self, fn: Callable[[str], Any]) -> None:
        self.fn = fn

    def __call__(self, files: list[str]) -> list[Any]:
        return [self.fn(f) for f in files]


def _checked(fn: Callable[[list[str]], list[T]], files: list[str]) -> list[T]:
    out = fn(files)
    if len(out) != len(files):
        raise ValueError(f"a batch function returned {len(out)} results for {len(files)} files")
    return out


def _slices(group: list[int], size: int) -> list[list[int]]:
    return [group[lo:lo + size] for lo in range(0, len(group), size)]


def _nothing() -> None:
    pass


def _send(fd: int, data: bytes) -> None:
    view = memoryview(len(data).to_bytes(8, "little") + data)
    while view:
        view = view[os.write(fd, view):]


def _receive(fd: int) -> bytes | None:
    """One message written by :func:`_send`, or None at the end of the pipe."""
    def exactly(n: int) -> bytes | None:
        parts = []
        while n:
            part = os.read(fd, min(n, 1 << 20))
            if not part:
                return None
            parts.append(part)
            n -= len(part)
        return b"".join(parts)

    head = exactly(8)
    return None if head is None else exactly(int.from_bytes(head, "little"))


def _fork(work: Callable[[int], None], close: Sequence[int] = (), grow: bool = False) -> tuple[int, int]:
    """A forked child that runs ``work(fd)``, ``fd`` the writing end of a pipe to this process (grown to a
    megabyte with ``grow``), after closing its reading end and ``close``; it leaves without any clean-up,
    with status 0 when ``work`` is done and 1 when it raised (:func:`_ended` reads these).  Returns the
    child's pid and the pipe's reading end."""
    rfd, wfd = os.pipe()
    if grow:
        _grow_pipe(wfd)
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            for fd in (rfd, *close):
                os.close(fd)
            work(wfd)
        except BaseException:  # noqa: BLE001 - the parent does this work again, where it raises
            code = 1
        finally:
            os._exit(code)
    os.close(wfd)
    return pid, rfd


def _ended(status: int) -> str | None:
    """How a child that did not end as :func:`_forked`'s children end (0: done, 1: a Python exception)
    ended, in words; None for those two."""
    import signal

    if os.WIFSIGNALED(status):
        n = os.WTERMSIG(status)
        try:
            name = signal.Signals(n).name
        except ValueError:
            name = f"signal {n}"
        return f"killed by {name}" + (" (out of memory?)" if n == signal.SIGKILL else "")
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1
    return None if code in (0, 1) else f"ended with status {code}"


def _forked(fn: Callable[[list[str]], list[T]], files: Sequence[str], jobs: int, done: Callable[[], None],
            size: int, lost: Callable[[str, str], T] | None = None) -> list[T]:
    """``fn`` over ``files`` in ``jobs`` processes, on up to ``size`` files of a group at a time (``lost``:
    see :func:`map_files`)."""
    import pickle
    import select
    import signal

    groups = _groups(files, jobs)
    results: list[Any] = [_MISSING] * len(files)
    children: dict[int, int] = {}  # pipe's reading end -> child's pid
    shares: dict[int, list[int]] = {}  # child's pid -> its files
    died: dict[int, str] = {}  # child's pid -> how it died (see _ended)
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        for group in groups:  # every group in a child: a file that kills its process costs only itself
            def check(wfd: int, group: list[int] = group) -> None:  # the child: its group, each result sent
                for part in _slices(group, size):
                    for i, res in zip(part, _checked(fn, [files[i] for i in part]), strict=True):
                        _send(wfd, pickle.dumps((i, res), protocol=pickle.HIGHEST_PROTOCOL))

            pid, rfd = _fork(check)
            children[rfd] = pid
            shares[pid] = group

        def receive(block: bool) -> None:
            while children:
                ready = select.select(list(children), [], [], None if block else 0)[0]
                if not ready:
                    return
                for fd in ready:
                    data = _receive(fd)  # a whole message: the child writes each at once
                    if data is None:
                        os.close(fd)
                        pid = children.pop(fd)
                        how = _ended(os.waitpid(pid, 0)[1])
                        if how is not None:
                            died[pid] = how
                        continue
                    i, res = pickle.loads(data)
                    results[i] = res
                    done()

        receive(block=True)
    finally:  # this process failed or was interrupted: stop the children and reap them
        for fd, pid in children.items():
            os.close(fd)
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
    missing = [i for i, res in enumerate(results) if res is _MISSING]
    if missing and lost is not None and died:  # a child died: each of its files again, alone
        import warnings

        for pid, how in died.items():
            left = [i for i in shares[pid] if results[i] is _MISSING]
            warnings.warn(f"a worker process was {how}; its {len(left)} unfinished files are tried again, "
                          f"each alone in a new process", RuntimeWarning, stacklevel=3)
            for i in left:
                res = _alone(fn, files[i])
                if res is _MISSING:
                    continue  # a Python exception: raised here, below, as with one process
                results[i] = res[1] if res[0] else lost(files[i], f"the process that read it was {res[1]}")
                done()
        missing = [i for i, res in enumerate(results) if res is _MISSING]
    if missing:  # a child failed: check its files here
        import warnings

        warnings.warn(f"a worker process failed; {len(missing)} of {len(files)} files were checked again "
                      f"in the main process", RuntimeWarning, stacklevel=3)
        for part in _slices(missing, size):
            for i, res in zip(part, _checked(fn, [files[i] for i in part]), strict=True):
                results[i] = res
                done()
    return results


def _alone(fn: Callable[[list[str]], list[T]], file: str) -> Any:
    """``fn([file])`` in a process of its own: ``(True, result)``; ``(False, how it died)`` when the
    process died (:func:`_ended`); :data:`_MISSING` when it ended with a Python exception."""
    import pickle
    import signal

    sys.stdout.flush()
    sys.stderr.flush()
    pid, rfd = _fork(lambda wfd: _send(wfd, pickle.dumps(_checked(fn, [file])[0], protocol=pickle.HIGHEST_PROTOCOL)))
    try:
        data = _receive(rfd)
    except BaseException:  # interrupted: the child is stopped too
        os.kill(pid, signal.SIGKILL)
        raise
    finally:
        os.close(rfd)
        status = os.waitpid(pid, 0)[1]
    if data is not None:
        return True, pickle.loads(data)
    how = _ended(status)
    return _MISSING if how is None else (False, how)


def _pooled(fn: Callable[[str], T], files: Sequence[str], jobs: int, done: Callable[[], None]) -> list[T]:
    from concurrent.futures import ProcessPoolExecutor

    out = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for res in pool.map(fn, files, chunksize=max(1, len(files) // (jobs * 8))):
            out.append(res)
            done()
    return out


def _pooled_batches(fn: Callable[[list[str]], list[T]], files: Sequence[str], jobs: int, size: int,
                    done: Callable[[], None]) -> list[T]:
    from concurrent.futures import ProcessPoolExecutor

    parts = [list(files[lo:lo + size]) for lo in range(0, len(files), size)]
    out: list[T] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for part, res in zip(parts, pool.map(fn, parts), strict=True):
            if len(res) != len(part):
                raise ValueError(f"a batch function returned {len(res)} results for {len(part)} files")
            out.extend(res)
            for _ in part:
                done()
    return out


class _Missing:
    pass


_MISSING: Any = _Missing()


def map_ordered(fn: Callable[[int], T], n: int, jobs: int) -> Generator[T, None, None]:
    """``fn(k)`` for ``k`` in ``range(n)``, yielded in that order as each is ready: computed in up to
    ``jobs`` processes, this one and forked children taking the ``k`` in turn (this process ``0``,
    ``jobs``, ...; child ``w`` ``w``, ``w + jobs``, ...), each child sending its results back through a
    pipe in its order.  For output that must stream in its order (``gammon moves``): a consumer
    writes each result as it comes, and a child runs at most a pipe's worth (1 MB where Linux allows)
    ahead.  Close the generator (or let it end) to stop and reap the children, as a consumer that stops
    early must.  A child that fails leaves its ``k`` to this process (with a warning), so a result is
    never lost and an exception in ``fn`` is raised here, as with one process.  Without ``fork``, one
    process computes them all.  ``fn``'s results must be picklable."""
    jobs = max(1, min(jobs, n))
    if jobs == 1 or not can_fork():
        for k in range(n):
            yield fn(k)
        return
    import pickle
    import signal

    pipes: list[int | None] = [None]  # the reading end of child w's pipe (None: this process, or failed)
    pids: list[int] = []
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        for w in range(1, jobs):
            def compute(wfd: int, w: int = w) -> None:  # the child: its share in order, each result sent
                for k in range(w, n, jobs):
                    _send(wfd, pickle.dumps(fn(k), protocol=pickle.HIGHEST_PROTOCOL))

            pid, rfd = _fork(compute, [fd for fd in pipes if fd is not None], grow=True)
            pipes.append(rfd)
            pids.append(pid)
        warned = False
        for k in range(n):
            w = k % jobs
            fd = pipes[w]
            data = _receive(fd) if fd is not None else None
            if data is None:
                if fd is not None:  # the child ended early: its share is computed here from now on
                    os.close(fd)
                    pipes[w] = None
                    if not warned:
                        import warnings

                        warnings.warn("a worker process failed; its share was computed again in the main "
                                      "process", RuntimeWarning, stacklevel=2)
                        warned = True
                yield fn(k)
            else:
                yield pickle.loads(data)
    finally:  # done, failed, interrupted or closed early: stop the children and reap them
        for fd in pipes:
            if fd is not None:
                os.close(fd)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)


def _grow_pipe(fd: int) -> None:
    """Let a pipe hold 1 MB (Linux's default limit for a user; 64 KB otherwise)."""
    try:
        import fcntl

        fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)
    except (OSError, ImportError):
        pass
