"""Checking files in several processes: the same results, in order, whatever happens to a worker."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import ctrl_c_default

from notation import parallel

PARENT = os.getpid()


@pytest.fixture(autouse=True)
def _forkable() -> None:
    """These tests check the forked workers (Linux).  A process that runs threads is not forked (see
    ``parallel.can_fork``): after tests/test_scale.py's Dask clusters, whose threads outlive them, the
    tests here would check the other path with the wrong expectations, so they are skipped instead."""
    if not parallel.can_fork():
        pytest.skip("this process cannot fork workers (not Linux, or threads left by an earlier test)")


def _files(tmp_path: Path, n: int = 23) -> list[str]:
    out = []
    for i in range(n):
        p = tmp_path / f"f{i:02d}.txt"
        p.write_text("x" * (i * 37 % 101))
        out.append(str(p))
    return out


def _describe(path: str) -> tuple[str, int]:
    return Path(path).name, os.path.getsize(path)


def _fails_in_children(path: str) -> tuple[str, int]:
    if os.getpid() != PARENT:
        raise RuntimeError("a worker fails")
    return _describe(path)


def _dies_in_children(path: str) -> tuple[str, int]:
    if os.getpid() != PARENT:
        os._exit(9)
    return _describe(path)


@pytest.mark.parametrize("jobs", [1, 2, 3, 8, 50])
def test_results_in_file_order(tmp_path: Path, jobs: int) -> None:
    files = _files(tmp_path)
    calls = []
    out = parallel.map_files(_describe, files, jobs, lambda: calls.append(1))
    assert out == [_describe(f) for f in files]
    assert len(calls) == len(files)


@pytest.mark.parametrize("fn", [_fails_in_children, _dies_in_children])
def test_a_failing_worker_loses_nothing(tmp_path: Path, fn: object) -> None:
    files = _files(tmp_path)
    calls = []
    with pytest.warns(RuntimeWarning, match="a worker process failed"):
        out = parallel.map_files(fn, files, 3, lambda: calls.append(1))  # type: ignore[arg-type]
    assert out == [_describe(f) for f in files]
    assert len(calls) == len(files)


def _fails_in_parent(path: str) -> tuple[str, int]:
    if os.getpid() == PARENT:
        raise KeyError("the main process fails")
    import time

    time.sleep(0.2)
    return _describe(path)


def _parent_fails() -> None:
    raise KeyError("the main process fails")


def test_a_failing_parent_leaves_no_children(tmp_path: Path) -> None:
    """This process fails (here in its progress callback, as it reads no file itself) while the children
    still work: they are stopped and reaped."""
    files = _files(tmp_path)
    with pytest.raises(KeyError):
        parallel.map_files(_fails_in_parent, files, 3, _parent_fails)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # every child was reaped


def test_process_pool_where_there_is_no_fork(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = _files(tmp_path, 9)
    monkeypatch.setattr(parallel, "can_fork", lambda: False)
    calls = []
    assert parallel.map_files(_describe, files, 2, lambda: calls.append(1)) == [_describe(f) for f in files]
    assert len(calls) == len(files)


def test_groups_are_balanced_by_size(tmp_path: Path) -> None:
    files = _files(tmp_path, 40)
    groups = parallel._groups(files, 3)
    assert sorted(i for g in groups for i in g) == list(range(40))
    loads = [sum(os.path.getsize(files[i]) for i in g) for g in groups]
    assert max(loads) - min(loads) <= 101
    assert all(g == sorted(g) for g in groups)


def test_large_results_cross_the_pipe(tmp_path: Path) -> None:
    files = _files(tmp_path, 6)
    out = parallel.map_files(lambda f: [f] * 50_000, files, 3)
    assert [len(x) for x in out] == [50_000] * 6 and out[5][0] == files[5]


def test_automatic_job_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "cpu_count", lambda: 64)
    monkeypatch.setattr(parallel, "can_fork", lambda: True)
    assert [parallel.auto_jobs(n) for n in (1, 7, 8, 20, 120, 1000)] == [1, 1, 2, 5, 16, 16]
    monkeypatch.setattr(parallel, "cpu_count", lambda: 2)
    assert parallel.auto_jobs(120) == 2
    monkeypatch.setattr(parallel, "can_fork", lambda: False)
    assert [parallel.auto_jobs(n) for n in (8, 63, 64)] == [1, 1, 2]


# ------------------------------------------------------------------ stopping the whole command

def _children(pid: int) -> set[int]:
    out = set()
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.add(int(d))
    return out


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc") or not parallel.can_fork(), reason="needs Linux's /proc and fork")
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_a_signal_stops_and_reaps_every_worker(tmp_path: Path, sig: str) -> None:
    """`gammon validate` stopped by SIGTERM (or Ctrl-C) mid-run: its workers stop at once, none is left
    running, and the status says which signal (143 or 130)."""
    import shutil
    import signal
    import subprocess
    import sys
    import time

    src = Path(__file__).resolve().parent / "data" / "gnubg_7p_crawford.mat"
    for i in range(600):
        shutil.copyfile(src, tmp_path / f"m{i:03d}.mat")
    with ctrl_c_default():  # (as a terminal starts it, whatever this run inherited)
        p = subprocess.Popen([sys.executable, "-m", "notation", "validate", "--jobs", "2", "-q", str(tmp_path)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    kids: set[int] = set()
    deadline = time.monotonic() + 60
    while not kids and time.monotonic() < deadline and p.poll() is None:
        kids = _children(p.pid)
        time.sleep(0.02)
    assert kids, "no worker was seen (the run ended too soon?)"
    p.send_signal(getattr(signal, sig))
    _, err = p.communicate(timeout=60)
    assert p.returncode == (143 if sig == "SIGTERM" else 130), err
    assert "Traceback" not in err
    # (a worker told to stop may take a moment to end on a loaded machine: ten seconds at most)
    end = time.monotonic() + 10
    while [k for k in kids if _running(k)] and time.monotonic() < end:
        time.sleep(0.05)
    assert not [k for k in kids if _running(k)], "a worker is still running after the command ended"


# ------------------------------------------------------------------ a file that kills its worker

def _killer_in_a_child(files: list[str], jobs: int) -> str:
    """A file of a forked child's share (of the second group: the first, which holds the largest file, was
    this process's own before every group went to a child)."""
    return files[parallel._groups(files, jobs)[1][1]]


def _kills_its_process(killer: str, sig: int) -> object:
    def fn(path: str) -> tuple[str, int]:
        if path == killer and os.getpid() != PARENT:
            os.kill(os.getpid(), sig)
        return _describe(path)
    return fn


def _lost(path: str, why: str) -> tuple[str, str]:
    return Path(path).name, why


@pytest.mark.parametrize("batch", [0, 4])
def test_a_file_that_kills_its_worker_is_lost_alone(tmp_path: Path, batch: int) -> None:
    """A file that kills the process reading it (a crash, or the out-of-memory killer): the other files
    of that worker's share are read again, each alone in a new process, and only that file is lost,
    with the reason; the run goes on, and nothing is re-read in this process (where it would kill the
    whole run).  Before, the share was read again here."""
    import signal

    files = _files(tmp_path)
    killer = _killer_in_a_child(files, 3)
    calls = []
    fn = _kills_its_process(killer, signal.SIGKILL)
    with pytest.warns(RuntimeWarning, match="was killed by SIGKILL .*tried again, each alone"):
        if batch:
            out = parallel.map_batches(lambda fs: [fn(f) for f in fs], files, 3, batch,  # type: ignore[operator]
                                       lambda: calls.append(1), lost=_lost)
        else:
            out = parallel.map_files(fn, files, 3, lambda: calls.append(1), lost=_lost)  # type: ignore[arg-type]
    k = files.index(killer)
    assert out[k] == (Path(killer).name, "the process that read it was killed by SIGKILL (out of memory?)")
    assert out[:k] + out[k + 1:] == [_describe(f) for f in files if f != killer]
    assert len(calls) == len(files)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # every child was reaped


@pytest.mark.parametrize("batch", [0, 4])
def test_the_largest_file_too_runs_in_a_child(tmp_path: Path, batch: int) -> None:
    """The first group, which holds the largest file, was read in this process: an out-of-memory kill of
    that file ended the whole run with no output (issue 38, item 7).  Every group is a child's now, so
    the largest file that kills its process is lost alone, as any other."""
    import signal

    files = _files(tmp_path)
    killer = max(files, key=os.path.getsize)
    assert files.index(killer) in parallel._groups(files, 3)[0]

    def fn(path: str) -> tuple[str, int]:
        if path == killer:
            if os.getpid() == PARENT:
                return ("read in the main process", 0)
            os.kill(os.getpid(), signal.SIGKILL)
        return _describe(path)

    with pytest.warns(RuntimeWarning, match="was killed by SIGKILL"):
        if batch:
            out = parallel.map_batches(lambda fs: [fn(f) for f in fs], files, 3, batch, lost=_lost)
        else:
            out = parallel.map_files(fn, files, 3, lost=_lost)
    k = files.index(killer)
    assert out[k] == (Path(killer).name, "the process that read it was killed by SIGKILL (out of memory?)")
    assert out[:k] + out[k + 1:] == [_describe(f) for f in files if f != killer]


def test_a_worker_that_raises_is_still_done_again_here(tmp_path: Path) -> None:
    """A Python exception in a worker is not a crash: its files are done again in this process (where
    the exception, if it is the file's, is raised as with one process), ``lost`` or not."""
    files = _files(tmp_path)
    with pytest.warns(RuntimeWarning, match="checked again in the main process"):
        out = parallel.map_files(_fails_in_children, files, 3, lost=_lost)
    assert out == [_describe(f) for f in files]


def test_validate_reports_the_file_that_killed_its_worker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capfd: pytest.CaptureFixture[str]) -> None:
    """The whole command: one line saying a worker died, the file's error, status 2, the other files
    checked as usual."""
    import shutil
    import signal

    from notation import cli
    from notation.commands import validate

    src = Path(__file__).resolve().parent / "data"
    files = []
    for i, name in enumerate(["gnubg_7p_crawford.mat", "mat_gnubg_selfplay_3p.mat", "gnubg_larger_die.mat"] * 4):
        files.append(str(tmp_path / f"m{i:02d}.mat"))
        shutil.copyfile(src / name, files[-1])
    killer = _killer_in_a_child(files, 2)
    check = validate.check_file

    def crashing(path: str, *args: object, **kwargs: object) -> object:
        if path == killer and os.getpid() != PARENT:
            import faulthandler

            faulthandler.disable()  # (pytest's: it would print the child's stack to the test's output)
            os.kill(os.getpid(), signal.SIGSEGV)
        return check(path, *args, **kwargs)

    monkeypatch.setattr(validate, "check_file", crashing)
    with pytest.raises(SystemExit) as e:
        cli.run(["validate", "--jobs", "2", "--quiet", *files])
    out, err = capfd.readouterr()
    assert e.value.code == 2
    assert err.count("\n") == 1 and err.startswith("gammon: warning: a worker process was killed by SIGSEGV;")
    assert f"{killer}: error: not checked: the process that read it was killed by SIGSEGV" in out
    assert sum(": error: " in line for line in out.splitlines()) == 1, out
