"""An archive on a Dask cluster: :func:`dask_map` runs a per-file function of :mod:`notation.batch` on
``dask.distributed`` workers and gives the results back in the files' order, as
:func:`notation.parallel.map_files` does on one machine.

``address`` is a scheduler's address (``tcp://host:8786``), or ``local`` for a
:class:`~dask.distributed.LocalCluster` of one single-threaded worker process per CPU (``local:N`` for N
workers).  Workers must see the files: paths on a shared filesystem, or URLs read through fsspec.

A worker that dies loses no file: the scheduler runs its tasks again on another worker.  A file whose
task kills workers again and again (``distributed.scheduler.allowed-failures``, 3 by default) ends as
failed, through ``on_failure``, and the rest of the batch goes on.

Dask is optional: ``pip install 'gammon-notation[scale]'``.  Without it, :func:`need` raises
:class:`ExtraMissing` with one line that says so.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

EXTRA = "pip install 'gammon-notation[scale]'"


class ExtraMissing(RuntimeError):
    """An optional dependency of the ``[scale]`` extra is not installed."""


def need(module: str, what: str) -> Any:
    """Import ``module`` for ``what`` (``--dask``, ``--to parquet``), or raise :class:`ExtraMissing`."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise ExtraMissing(f"{what} needs {module.split('.')[0]}, which is not installed: {EXTRA}") from None


def _workers(address: str) -> int | None:
    if address == "local":
        from .parallel import cpu_count

        return cpu_count()
    if address.startswith("local:"):
        try:
            n = int(address[len("local:"):])
        except ValueError:
            n = 0
        if not 1 <= n <= 256:
            raise ValueError(f"--dask {address}: the number of local workers must be 1 to 256")
        return n
    return None


def check_cluster(address: str, paths: Sequence[str]) -> None:
    """Refuse at once, before any work, what a cluster cannot do (``--dask``): :class:`ExtraMissing`
    without Dask, ValueError for a bad number of local workers or standard input among ``paths`` (every
    worker must see the files)."""
    need("dask.distributed", "--dask")
    _workers(address)
    if "-" in paths:
        raise ValueError("--dask cannot read standard input: give the files' paths (every worker must see them)")


def dask_map(fn: Callable[[str], T], files: Sequence[str], address: str,
             on_failure: Callable[[str, str], T], on_result: Callable[[], None] | None = None) -> list[T]:
    """``[fn(f) for f in files]`` computed on the Dask cluster at ``address`` (``local``: a new local
    cluster, closed at the end).  A file whose task failed (its worker died too often, or ``fn``
    raised) gives ``on_failure(file, reason)``.  ``on_result`` is called once per finished file."""
    return list(dask_imap(fn, files, address, on_failure, on_result))


Salvage = Callable[[Any, Any, str], Any]
"""``salvage(client, item, reason)``: the result of an item whose own task failed, made with more tasks
on the cluster (see :func:`dask_imap`)."""


def dask_imap(fn: Callable[[str], T], files: Sequence[str], address: str,
              on_failure: Callable[[str, str], T], on_result: Callable[[], None] | None = None,
              salvage: Salvage | None = None) -> Iterator[T]:
    """As :func:`dask_map`, but each result is given as soon as it and all before it are done, so a
    consumer (the dataset writer) holds only the results that came early.  With ``salvage``, an item
    whose own task failed gives ``salvage(client, item, reason)`` (``on_failure``'s result if that
    raises): the dataset writer checks each file of a failed part alone and writes the others."""
    need("dask.distributed", "--dask")
    import logging

    from dask.distributed import Client, LocalCluster, as_completed

    n = _workers(address)
    cluster = None
    if n is not None:
        try:
            # (its logs silenced: a worker's traceback, "Worker process died", are said by the command as
            # one line for the file that caused them, or not at all)
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0",
                                   silence_logs=logging.CRITICAL)
            client = Client(cluster)
        except Exception as e:  # noqa: BLE001 - said in one line by the command
            raise OSError(f"--dask {address}: the local cluster did not start ({type(e).__name__}: {e})") from None
    else:
        try:
            client = Client(address, timeout="20s")
        except (OSError, TimeoutError) as e:
            raise OSError(f"--dask {address}: cannot reach the scheduler ({e})") from None
    done = on_result or (lambda: None)
    early: dict[int, Any] = {}
    nxt = 0
    try:
        workers = max(1, sum(client.nthreads().values()))
        size = chunk_size(len(files), workers)
        chunks = [(k, k + size) for k in range(0, len(files), size)]
        window = max(4, workers * IN_FLIGHT)
        where: dict[Hashable, int] = {}  # (a future's key: dask's Key, a str or a tuple)

        def submit(k: int) -> Any:
            lo, hi = chunks[k]
            fut = client.submit(_run_chunk, fn, list(files[lo:hi]), pure=False)
            where[fut.key] = k
            return fut

        pending = as_completed([submit(k) for k in range(min(window, len(chunks)))])
        submitted = min(window, len(chunks))
        for fut in pending:
            k = where.pop(fut.key)
            try:
                early[k] = fut.result()
                for _ in early[k]:
                    done()
            except Exception:  # noqa: BLE001 - a worker died on this chunk too often: one file at a time
                lo, hi = chunks[k]
                early[k] = _one_by_one(client, fn, list(files[lo:hi]), on_failure, done, salvage)
            fut.release()
            while nxt in early:
                yield from early.pop(nxt)
                nxt += 1
            # keep the cluster busy, and memory bounded however many files there are
            while submitted < len(chunks) and pending.count() < window and len(early) < 4 * window:
                pending.add(submit(submitted))
                submitted += 1
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


IN_FLIGHT = 8
"""Chunks submitted ahead per worker: the scheduler and this process hold at most this many tasks
per worker (and four times as many finished chunks waiting for an earlier one), however many files."""


CHUNK_MAX = 256
"""At most this many files a task: a task of gnubg's 7-point matches takes about 1.5 s, which keeps the
scheduler's work (about a millisecond a task) small on hundreds of workers, and a retried task cheap."""


def chunk_size(files: int, workers: int) -> int:
    """Files per task: enough that the scheduler's cost per task (about a millisecond) is small
    against the work, and few enough that every worker gets about 16 tasks to balance the load."""
    return max(1, min(CHUNK_MAX, -(-files // (workers * 16))))


def _run_chunk(fn: Callable[[str], T], paths: list[str]) -> list[T]:
    """A task: ``fn`` over ``paths`` in a worker, with the cycle collector run between files when
    objects pile up rather than during the work (as ``--jobs`` workers do)."""
    from .parallel import collect_if_piled, collector_paused

    with collector_paused():  # the worker's own objects (Dask's, the imports') are not scanned again and again
        out = []
        for p in paths:
            out.append(fn(p))
            collect_if_piled()
        return out


def _one_by_one(client: Any, fn: Callable[[str], T], paths: list[str], on_failure: Callable[[str, str], T],
                done: Callable[[], None], salvage: Salvage | None = None) -> list[T]:
    """A chunk whose task failed: each file again as its own task, so that only a file that kills its
    workers fails (and, with ``salvage``, what can be saved of it is)."""
    out = []
    for path, (ok, result) in zip(paths, _outcomes(client, fn, paths), strict=True):
        failed = None if ok else result
        if failed is None:
            out.append(result)
        elif salvage is None:
            out.append(on_failure(path, failed))
        else:
            try:
                out.append(salvage(client, path, failed))
            except Exception:  # noqa: BLE001 - the salvage failed too: the item failed
                out.append(on_failure(path, failed))
        done()
    return out


def task_results(client: Any, fn: Callable[[Any], T], items: Sequence[Any]) -> list[tuple[bool, Any]]:
    """``fn`` of each item as its own task on the cluster: (True, its result), or (False, why it failed)."""
    return list(_outcomes(client, fn, items))


def _outcomes(client: Any, fn: Callable[[Any], T], items: Sequence[Any]) -> Iterator[tuple[bool, Any]]:
    """:func:`task_results`, each given as soon as it is done (the tasks are all submitted first)."""
    futures = client.map(fn, list(items), pure=False)
    for fut in futures:
        try:
            outcome: tuple[bool, Any] = (True, _result(client, fut))
        except Exception as e:  # noqa: BLE001 - KilledWorker, or fn's own failure: this item's result
            outcome = (False, _reason(e))
        fut.release()
        yield outcome


NO_WORKER_WAIT = 120.0
"""Seconds a task may wait with no worker in the cluster (every worker died and none came back) before
it is given up as failed, instead of waiting for ever."""


class NoWorker(RuntimeError):
    """The cluster had no worker for :data:`NO_WORKER_WAIT` seconds while a task waited."""


def _result(client: Any, fut: Any) -> Any:
    """``fut.result()``, waiting as long as the task takes while the cluster has a worker; raises
    :class:`NoWorker` once it has had none for :data:`NO_WORKER_WAIT` seconds."""
    import time

    alone_since: float | None = None
    while True:
        try:
            return fut.result(timeout=5)
        except TimeoutError:
            if client.scheduler_info().get("workers"):
                alone_since = None
            elif alone_since is None:
                alone_since = time.monotonic()
            elif time.monotonic() - alone_since > NO_WORKER_WAIT:
                raise NoWorker(f"no worker left in the cluster for {NO_WORKER_WAIT:.0f} s") from None


def _reason(e: BaseException) -> str:
    name = type(e).__name__
    if name == "KilledWorker":
        return "it stopped every worker process that tried it (the worker died each time)"
    if isinstance(e, NoWorker):
        return f"not checked: {e}"
    return f"internal error ({name}: {e})"


def local_worker_count() -> int:
    """How many workers ``--dask local`` starts here."""
    return _workers("local") or os.cpu_count() or 1
