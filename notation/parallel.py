"""Checking many files on several CPUs.

:func:`map_files` runs a function on each file in ``jobs`` processes and returns the results in the
files' order.  On Linux the work is shared out by forking: the files are split into ``jobs`` groups
of about equal size in bytes, this process checks one group and each forked child another, sending
each result back through a pipe as soon as it has it (the parent reads them between its own files,
so a progress bar stays exact).  A child inherits everything already imported and every parser
already built, so starting one costs about a millisecond; a pool of worker processes costs a
hundred times more, which is as much as a whole validation of a hundred matches takes.  If a child
fails, its files are checked again here: a result is never lost.  Elsewhere (no ``fork``, or macOS,
where forking is unsafe) a :class:`concurrent.futures.ProcessPoolExecutor` does the same.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, BinaryIO, TypeVar

T = TypeVar("T")


def cpu_count() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def can_fork() -> bool:
    """Workers are started by forking (cheap) rather than as new interpreters (a tenth of a second each)."""
    return hasattr(os, "fork") and sys.platform.startswith("linux")


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
        except OSError:
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
              on_result: Callable[[], None] | None = None) -> list[T]:
    """``[fn(f) for f in files]``, computed in up to ``jobs`` processes; ``on_result`` is called once
    per finished file (in any order).  ``fn`` and its results must be picklable where no fork exists."""
    jobs = max(1, min(jobs, len(files)))
    if jobs == 1:
        out = []
        for f in files:
            out.append(fn(f))
            if on_result is not None:
                on_result()
        return out
    if can_fork():
        return _forked(fn, files, jobs, on_result)
    return _pooled(fn, files, jobs, on_result)


def _forked(fn: Callable[[str], T], files: Sequence[str], jobs: int,
            on_result: Callable[[], None] | None) -> list[T]:
    import pickle
    import select

    groups = _groups(files, jobs)
    results: list[Any] = [_MISSING] * len(files)
    children: list[tuple[int, BinaryIO]] = []
    sys.stdout.flush()
    sys.stderr.flush()
    for group in groups[1:]:
        rfd, wfd = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: check its group, send each result, leave without any clean-up
            code = 0
            try:
                os.close(rfd)
                with os.fdopen(wfd, "wb") as out:
                    for i in group:
                        pickle.dump((i, fn(files[i])), out, protocol=pickle.HIGHEST_PROTOCOL)
                        out.flush()
            except BaseException:  # noqa: BLE001 - the parent checks these files again
                code = 1
            finally:
                os._exit(code)
        os.close(wfd)
        children.append((pid, os.fdopen(rfd, "rb")))

    readers = [r for _, r in children]

    def receive(block: bool) -> None:
        while readers:
            ready = readers if block else select.select(readers, [], [], 0)[0]
            if not ready:
                return
            for r in ready:
                try:
                    i, res = pickle.load(r)  # a whole result: the child writes each at once
                except (EOFError, OSError, pickle.UnpicklingError):
                    readers.remove(r)
                    r.close()
                    continue
                results[i] = res
                if on_result is not None:
                    on_result()

    for i in groups[0]:
        results[i] = fn(files[i])
        if on_result is not None:
            on_result()
        receive(block=False)
    receive(block=True)
    for pid, _ in children:
        os.waitpid(pid, 0)
    for i, res in enumerate(results):
        if res is _MISSING:  # a child failed: check its files here
            results[i] = fn(files[i])
            if on_result is not None:
                on_result()
    return results


def _pooled(fn: Callable[[str], T], files: Sequence[str], jobs: int,
            on_result: Callable[[], None] | None) -> list[T]:
    from concurrent.futures import ProcessPoolExecutor

    out = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for res in pool.map(fn, files, chunksize=max(1, len(files) // (jobs * 8))):
            out.append(res)
            if on_result is not None:
                on_result()
    return out


class _Missing:
    pass


_MISSING: Any = _Missing()
