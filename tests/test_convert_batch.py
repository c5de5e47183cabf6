"""Outputs written together (``notation.convert.OutputBatch``, ``notation.batch.convert_files``,
``notation.parallel.map_batches``): the same files, modes, links and refusals as one
:func:`~notation.convert.atomic_write` each, every file's data synced before its rename, and nothing
left behind by a failure or an interruption."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA

from notation import convert, parallel
from notation.batch import convert_file, convert_files
from notation.convert import TMP_MARK, InputSet, OutputBatch, atomic_write

ROOT = Path(__file__).resolve().parents[1]


def _temps(d: Path) -> list[str]:
    return [p for p in os.listdir(d) if TMP_MARK in p]


def test_batch_writes_what_atomic_write_writes(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        (tmp_path / "kept.txt").write_text("old")
        os.chmod(tmp_path / "kept.txt", 0o640)
        (tmp_path / "linked.txt").write_text("old")
        os.link(tmp_path / "linked.txt", tmp_path / "link2.txt")
        threads = threading.active_count()
        with OutputBatch() as batch:
            batch.add(tmp_path / "new.txt", "a")
            batch.add(tmp_path / "kept.txt", "b", force=True)
            batch.add(tmp_path / "linked.txt", "c", force=True)
            batch.add(tmp_path / "bytes.bin", b"\x00\x01")
            assert not (tmp_path / "new.txt").exists()  # nothing is in place before finish
            assert (tmp_path / "kept.txt").read_text() == "old"
            batch.finish()
        assert threading.active_count() == threads  # the syncing threads are gone (forking stays possible)
        assert (tmp_path / "new.txt").read_text() == "a"
        assert stat.S_IMODE(os.stat(tmp_path / "new.txt").st_mode) == 0o644
        assert (tmp_path / "kept.txt").read_text() == "b"
        assert stat.S_IMODE(os.stat(tmp_path / "kept.txt").st_mode) == 0o640
        assert (tmp_path / "link2.txt").read_text() == "c"
        assert (tmp_path / "bytes.bin").read_bytes() == b"\x00\x01"
        assert not _temps(tmp_path)
    finally:
        os.umask(old)


def test_batch_refuses_what_atomic_write_refuses(tmp_path: Path) -> None:
    src = tmp_path / "in.mat"
    src.write_text("input")
    (tmp_path / "there.txt").write_text("keep")
    os.symlink(src, tmp_path / "alias.mat")
    with OutputBatch() as batch:
        with pytest.raises(FileExistsError, match="exists"):
            batch.add(tmp_path / "there.txt", "x")
        for target in (src, tmp_path / "alias.mat"):
            for inputs in ([str(src)], InputSet([str(src)])):
                with pytest.raises(FileExistsError, match="input"):
                    batch.add(target, "x", force=True, inputs=inputs)
        with pytest.raises(FileExistsError, match="directory"):
            batch.add(tmp_path, "x", force=True)
        batch.finish()
    assert src.read_text() == "input" and (tmp_path / "there.txt").read_text() == "keep"
    assert not _temps(tmp_path)


def test_a_target_that_appears_meanwhile_is_refused_without_force(tmp_path: Path) -> None:
    errors: list[BaseException] = []
    with OutputBatch() as batch:
        batch.add(tmp_path / "a.txt", "mine", on_error=errors.append)
        batch.add(tmp_path / "b.txt", "mine", force=True, on_error=errors.append)
        (tmp_path / "a.txt").write_text("theirs")
        (tmp_path / "b.txt").write_text("theirs")
        batch.finish()
    assert [type(e) for e in errors] == [FileExistsError]
    assert (tmp_path / "a.txt").read_text() == "theirs" and (tmp_path / "b.txt").read_text() == "mine"
    assert not _temps(tmp_path)


def test_every_file_is_synced_before_any_is_renamed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []
    real_replace = os.replace
    lock = threading.Lock()

    def sync(fd: int) -> None:
        os.fsync(fd)
        with lock:
            events.append("sync")

    def replace(a: object, b: object) -> None:
        events.append("rename")
        real_replace(a, b)  # type: ignore[arg-type]

    monkeypatch.setattr(convert, "_sync", sync)
    monkeypatch.setattr(os, "replace", replace)
    with OutputBatch() as batch:
        for i in range(7):
            batch.add(tmp_path / f"f{i}.txt", str(i))
        batch.finish()
    assert events == ["sync"] * 7 + ["rename"] * 7
    assert [(tmp_path / f"f{i}.txt").read_text() for i in range(7)] == [str(i) for i in range(7)]


def test_a_failed_sync_fails_its_file_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "bad.txt"
    failing: list[int] = []

    def sync(fd: int) -> None:
        if fd in failing:
            raise OSError(5, "Input/output error")
        os.fsync(fd)

    real_begin = convert._begin

    def begin(path: str | Path, data: str | bytes, **kw: object) -> convert._Pending:
        p = real_begin(path, data, **kw)  # type: ignore[arg-type]
        if Path(path) == bad:
            failing.append(p.fd)
        return p

    monkeypatch.setattr(convert, "_sync", sync)
    monkeypatch.setattr(convert, "_begin", begin)
    errors: list[BaseException] = []
    with OutputBatch() as batch:
        for name in ("a.txt", "bad.txt", "c.txt"):
            batch.add(tmp_path / name, name, on_error=errors.append)
        batch.finish()
    assert [e.errno for e in errors if isinstance(e, OSError)] == [5]
    assert sorted(os.listdir(tmp_path)) == ["a.txt", "c.txt"]


def test_an_interrupted_batch_leaves_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_replace = os.replace
    calls = []

    def replace(a: object, b: object) -> None:
        calls.append(b)
        if len(calls) == 2:
            raise KeyboardInterrupt
        real_replace(a, b)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(KeyboardInterrupt), OutputBatch() as batch:
        for i in range(4):
            batch.add(tmp_path / f"f{i}.txt", "x")
        batch.finish()
    assert sorted(os.listdir(tmp_path)) == ["f0.txt"]
    # and interrupted before finish
    with pytest.raises(KeyboardInterrupt), OutputBatch() as batch:
        batch.add(tmp_path / "g.txt", "x")
        raise KeyboardInterrupt
    assert sorted(os.listdir(tmp_path)) == ["f0.txt"]


def test_stale_temporary_files_are_removed_by_a_batch(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f".out.json{TMP_MARK}{dead.pid}"
    stale.write_text("half")
    with OutputBatch() as batch:
        batch.add(tmp_path / "out.json", "{}")
        batch.finish()
    assert not stale.exists() and (tmp_path / "out.json").read_text() == "{}"


def test_atomic_write_still_syncs_before_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []
    target = tmp_path / "o.txt"
    monkeypatch.setattr(convert, "_sync", lambda fd: seen.append(not target.exists()))
    atomic_write(target, "x")
    assert seen == [True] and target.read_text() == "x"


# ---------------------------------------------------------------- convert_files


def _inputs(tmp_path: Path) -> list[str]:
    bad = tmp_path / "bad.mat"
    bad.write_text("this is not a match\n")
    files = [str(p) for p in sorted(DATA.glob("*.mat"))] + [str(p) for p in sorted((ROOT / "samples").glob("*.mat"))]
    return [*files[:3], str(bad), *files[3:], str(tmp_path / "missing.mat")]


@pytest.mark.parametrize("fmt", ["sgf", "json", "mat", "txt"])
def test_convert_files_as_convert_file_each(tmp_path: Path, fmt: str) -> None:
    srcs = _inputs(tmp_path)
    one, many = tmp_path / "one", tmp_path / "many"
    one.mkdir()
    many.mkdir()
    (one / "refused").mkdir()
    (many / "refused").mkdir()
    names = [f"{i:02d}.{fmt}" for i in range(len(srcs))]
    names[1] = "refused"  # a directory: refused
    names[2] = "-"  # the text is returned
    kw = {"inputs": InputSet(srcs)}
    expected = [convert_file(s, n if n == "-" else str(one / n), fmt, **kw) for s, n in zip(srcs, names, strict=True)]
    got = convert_files(srcs, [n if n == "-" else str(many / n) for n in names], fmt, **kw)
    for e, g in zip(expected, got, strict=True):
        for k in ("status", "text", "file"):
            assert e[k] == g[k]
        assert [m.replace(str(one), "OUT") for m in e["messages"]] == \
            [m.replace(str(many), "OUT") for m in g["messages"]]
    assert {e["status"] for e in expected} == {0, 2}
    assert sorted(os.listdir(one)) == sorted(os.listdir(many))
    for name in os.listdir(one):
        if name != "refused":
            assert (one / name).read_bytes() == (many / name).read_bytes(), name


# ---------------------------------------------------------------- map_batches


def _files(tmp_path: Path, n: int = 23) -> list[str]:
    out = []
    for i in range(n):
        p = tmp_path / f"f{i:02d}.txt"
        p.write_text("x" * (i * 37 % 101))
        out.append(str(p))
    return out


def _sizes(paths: list[str]) -> list[tuple[str, int, int]]:
    return [(Path(p).name, os.path.getsize(p), len(paths)) for p in paths]


PARENT = os.getpid()


def _sizes_failing_in_children(paths: list[str]) -> list[tuple[str, int, int]]:
    if os.getpid() != PARENT:
        raise RuntimeError("a worker fails")
    return _sizes(paths)


@pytest.mark.parametrize("jobs", [1, 2, 3, 8, 50])
@pytest.mark.parametrize("size", [1, 3, 16])
def test_map_batches_in_file_order(tmp_path: Path, jobs: int, size: int) -> None:
    files = _files(tmp_path)
    calls: list[int] = []
    out = parallel.map_batches(_sizes, files, jobs, size, lambda: calls.append(1))
    assert [(n, s) for n, s, _ in out] == [(Path(f).name, os.path.getsize(f)) for f in files]
    assert max(k for *_, k in out) <= size  # at most ``size`` files a call
    if jobs == 1:
        assert max(k for *_, k in out) == min(size, len(files))
    assert len(calls) == len(files)


def test_map_batches_loses_nothing_when_a_worker_fails(tmp_path: Path) -> None:
    if not parallel.can_fork():  # (as in test_parallel.py: forked workers only)
        pytest.skip("this process cannot fork workers (not Linux, or threads left by an earlier test)")
    files = _files(tmp_path)
    with pytest.warns(RuntimeWarning, match="a worker process failed"):
        out = parallel.map_batches(_sizes_failing_in_children, files, 3, 4)
    assert [(n, s) for n, s, _ in out] == [(Path(f).name, os.path.getsize(f)) for f in files]


def test_map_batches_refuses_a_short_answer(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="results"):
        parallel.map_batches(lambda fs: fs[:-1], _files(tmp_path, 5), 1, 2)


# ---------------------------------------------------------------- one bad file in a batch (issue 26, item 3)

_BAD_SGF = "(;FF[4]GM[6]CA[UTF-8]MI[length:1]PW[a]PB[b]RE[B+" + "9" * 5000 + "];B[52lqlq])\n"


def _batch_with_one_bad_file(d: Path, bad: str) -> None:
    d.mkdir()
    for i in range(9):
        (d / f"m{i}.mat").write_bytes((DATA / "gnubg_7p_crawford.mat").read_bytes())
    (d / bad).write_text(_BAD_SGF if bad.endswith(".sgf") else
                         '{"format": "gammon-notation", "version": 2, "match": {"games": [{"number": 1, "actions": '
                         '[{"kind": "move", "player": 0, "dice": [7, 0], "play": "8/1"}]}]}}')


def test_an_internal_error_in_one_file_is_that_files_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from notation import batch

    _batch_with_one_bad_file(tmp_path / "in", "bad.sgf")
    (tmp_path / "in" / "bad.sgf").unlink()
    (tmp_path / "in" / "bug.mat").write_bytes((DATA / "gnubg_7p_crawford.mat").read_bytes())
    srcs = sorted(str(p) for p in (tmp_path / "in").iterdir())
    out = tmp_path / "out"
    out.mkdir()
    real = batch.replay_match

    def replay_match(m: Any, *args: Any, **kw: Any) -> Any:  # a bug met in one file only
        if m.source.endswith("bug.mat"):
            raise IndexError("list index out of range")
        return real(m, *args, **kw)

    monkeypatch.setattr(batch, "replay_match", replay_match)
    res = convert_files(srcs, [str(out / (Path(s).stem + ".sgf")) for s in srcs], "sgf")
    assert [r["status"] for r in res] == [2 if s.endswith("bug.mat") else 0 for s in srcs]
    (failed,) = [r for r in res if r["status"]]
    assert failed["messages"][-1] == (f"{failed['file']}: internal error while converting (IndexError: list index "
                                      "out of range); please report it with this file")
    assert len(os.listdir(out)) == 9


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("bad", ["bad.sgf", "bad.json"])
def test_one_bad_file_does_not_stop_a_convert_batch(tmp_path: Path, bad: str, jobs: str) -> None:
    _batch_with_one_bad_file(tmp_path / "in", bad)
    (tmp_path / "out").mkdir()
    r = subprocess.run([sys.executable, "-m", "notation", "convert", "--jobs", jobs, "-q", "--to", "sgf",
                        str(tmp_path / "in"), str(tmp_path / "out")], capture_output=True, text=True, cwd=ROOT,
                       timeout=300)
    assert r.returncode == 2 and "internal error" not in r.stderr, r.stderr[-2000:]
    assert r.stderr.count("\n") == 1 and str(tmp_path / "in" / bad) in r.stderr
    assert sorted(os.listdir(tmp_path / "out")) == [f"m{i}.sgf" for i in range(9)]


def test_parquet_rows_of_a_batch_with_one_bad_file(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    _batch_with_one_bad_file(tmp_path / "in", "bad.sgf")
    r = subprocess.run([sys.executable, "-m", "notation", "convert", "--jobs", "1", "--to", "parquet",
                        str(tmp_path / "in"), str(tmp_path / "ds")], capture_output=True, text=True, cwd=ROOT,
                       timeout=300)
    assert r.returncode == 2 and "bad.sgf:1:" in r.stderr and "internal error" not in r.stderr
    assert "from 10 files in 1 part" in r.stderr and " 0 rows" not in r.stderr
