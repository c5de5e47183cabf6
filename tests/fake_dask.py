"""A stand-in for ``dask.distributed`` that runs every task at once in this process: the logic of
:mod:`notation.scale` around a cluster (the window of tasks in flight, the results put back in order, a
chunk that failed tried one file at a time, a part salvaged, a cluster left with no worker) is tested
without starting one, and without Dask installed.

A task "kills its worker" by raising :class:`WorkerDies`: the fake scheduler runs it again, as Dask
does, until it has killed ``allowed_failures + 1`` workers, and then fails it with :class:`KilledWorker`
(the name ``notation.scale`` reads).  A task that raises :class:`NeverEnds` never finishes: its result
times out for ever.  :func:`install` puts the stand-in in ``sys.modules`` for one test and gives back
its :class:`Log` (what was submitted, what was in flight, which workers died)."""

from __future__ import annotations

import itertools
import sys
import types
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest


class WorkerDies(Exception):
    """Raised by a task to stand for its worker process dying under it."""


class NeverEnds(Exception):
    """Raised by a task to stand for a task that waits for ever (no worker ever runs it)."""


class KilledWorker(Exception):
    """What Dask raises for a task that killed more workers than ``allowed-failures`` allows."""


@dataclass
class Log:
    allowed_failures: int = 3
    workers: int = 2
    workers_left: bool = True
    """False: ``scheduler_info`` says the cluster has no worker (every one died and none came back)."""
    submitted: list[Any] = field(default_factory=list)
    """The argument of each task, in the order it was submitted."""
    deaths: int = 0
    most_in_flight: int = 0
    clusters: int = 0
    closed: int = 0


class Future:
    _keys = itertools.count()

    def __init__(self, log: Log, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.key = f"task-{next(Future._keys)}"
        self._never = False
        self._error: BaseException | None = None
        self._value: Any = None
        log.submitted.append(args[-1] if args else None)
        for _ in range(log.allowed_failures + 1):
            try:
                self._value = fn(*args)
                self._error = None
                break
            except WorkerDies:
                log.deaths += 1
                self._error = KilledWorker(f"{self.key}: the worker died")
            except NeverEnds:
                self._never = True
                break
            except Exception as e:  # noqa: BLE001 - the task's own failure, given by result() as Dask does
                self._error = e
                break

    def result(self, timeout: float | None = None) -> Any:
        if self._never:
            raise TimeoutError(f"{self.key}: not done")
        if self._error is not None:
            raise self._error
        return self._value

    def release(self) -> None:
        pass


class AsCompleted:
    """The futures given back last-submitted first: an order other than the files' order, which the
    caller must put right."""

    def __init__(self, futures: Iterable[Future], log: Log) -> None:
        self._waiting = list(futures)
        self._log = log
        self._note()

    def _note(self) -> None:
        self._log.most_in_flight = max(self._log.most_in_flight, len(self._waiting))

    def add(self, fut: Future) -> None:
        self._waiting.append(fut)
        self._note()

    def count(self) -> int:
        return len(self._waiting)

    def __iter__(self) -> Iterator[Future]:
        while self._waiting:
            fut = self._waiting.pop()
            if fut._never:  # Dask's as_completed would wait for it for ever: no test may come here
                raise AssertionError(f"{fut.key} never ends: as_completed would wait for ever")
            yield fut


class Client:
    def __init__(self, log: Log) -> None:
        self._log = log

    def submit(self, fn: Callable[..., Any], *args: Any, pure: bool = True) -> Future:
        return Future(self._log, fn, args)

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any], pure: bool = True) -> list[Future]:
        return [Future(self._log, fn, (item,)) for item in items]

    def nthreads(self) -> dict[str, int]:
        return {f"worker-{i}": 1 for i in range(self._log.workers)}

    def scheduler_info(self) -> dict[str, Any]:
        return {"workers": self.nthreads() if self._log.workers_left else {}}

    def close(self) -> None:
        self._log.closed += 1


def install(monkeypatch: pytest.MonkeyPatch, **settings: Any) -> Log:
    """The stand-in as ``dask.distributed`` (and ``dask``) for this test; ``settings`` set the
    :class:`Log`'s cluster (``allowed_failures``, ``workers``, ``workers_left``)."""
    log = Log(**settings)

    class LocalCluster:
        def __init__(self, **kw: Any) -> None:
            log.clusters += 1

        def close(self) -> None:
            pass

    distributed = types.ModuleType("dask.distributed")
    distributed.Client = lambda address=None, timeout=None: Client(log)  # type: ignore[attr-defined]
    distributed.LocalCluster = LocalCluster  # type: ignore[attr-defined]
    distributed.as_completed = lambda futures: AsCompleted(futures, log)  # type: ignore[attr-defined]
    distributed.KilledWorker = KilledWorker  # type: ignore[attr-defined]
    dask = types.ModuleType("dask")
    dask.distributed = distributed  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "dask", dask)
    monkeypatch.setitem(sys.modules, "dask.distributed", distributed)
    return log
