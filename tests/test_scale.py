"""Archives at scale: the per-file functions (notation.batch), a Dask LocalCluster with 2 worker
processes giving exactly what --jobs 1 gives, a worker killed mid-run losing nothing, and the Parquet
decision dataset read back equal to the replay.  Needs the [scale] extra (dask[distributed], pyarrow);
the tests that need it skip without it, and the one-line refusal without it is tested either way."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import fake_dask
import pytest
from click.testing import CliRunner
from conftest import sampled_per_kind

from notation import batch
from notation.cli import main
from notation.matchio import read_any
from notation.replay import replay_match

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
DATA = Path(__file__).resolve().parent / "data"
CORPUS = ROOT.parent / "shared" / "corpus"
CLUSTER_TIMEOUT = 240
"""Seconds a test that starts a real local cluster may take (pytest-timeout; about 20 s on a quiet machine),
against the suite's bound for every other test."""


def _records() -> list[str]:
    """Records every clone has (samples, test data), and the shared corpus's where it is present: every
    third of each kind (directory and program that wrote it; all of them with GAMMON_FULL_CORPUS=1)."""
    files = sorted(str(p) for p in SAMPLES.iterdir() if p.suffix in (".mat", ".json", ".sgf"))
    files += sorted(str(p) for p in DATA.iterdir() if p.suffix in (".mat", ".sgf", ".xg"))
    if CORPUS.is_dir():  # the records of the shared corpus, recognised by content as the commands do
        from notation.matchio import expand_inputs

        files += map(str, sampled_per_kind([Path(p) for p in expand_inputs([str(CORPUS)])[0]], 3))
    return files


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


# ----------------------------------------------------------------------------- the per-file functions

def test_validate_file_is_what_validate_json_prints() -> None:
    import json

    path = str(SAMPLES / "illegal_plays.mat")
    res = batch.validate_file(path)
    code, out, _ = run("validate", "--json", path)
    assert code == 1
    printed = json.loads(out)
    assert printed == {k: res[k] for k in printed}
    assert res["errors"] == 4 and not res["unreadable"]


def test_validate_file_never_raises(tmp_path: Path) -> None:
    missing = batch.validate_file(str(tmp_path / "nope.mat"))
    assert missing["unreadable"] and "cannot read" in missing["findings"][0]["message"]
    junk = tmp_path / "junk.mat"
    junk.write_bytes(b"\x00\x01 not a match")
    assert batch.validate_file(str(junk))["unreadable"]


def test_convert_file_reports_and_writes(tmp_path: Path) -> None:
    src = str(SAMPLES / "illegal_plays.mat")
    target = str(tmp_path / "out.sgf")
    res = batch.convert_file(src, target, "sgf")
    assert res["status"] == 0 and Path(target).read_text().startswith("(;")
    assert any(": error: " in m for m in res["messages"])  # findings are reported, the record still converted
    again = batch.convert_file(src, target, "sgf")
    assert again["status"] == 2 and "exists" in again["messages"][-1]
    assert batch.convert_file(str(tmp_path / "no.mat"), str(tmp_path / "x.sgf"), "sgf")["status"] == 2


def test_convert_goes_on_after_a_bad_input(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mat"
    bad.write_text(" 7 point match\n\n Game 1\n A : 0   B : 0\n  1) 52: 13/8 nonsense\n")
    out = tmp_path / "out"
    out.mkdir()
    code, _, err = run("convert", str(bad), str(SAMPLES / "dutch_5point.mat"), str(out), "--to", "json")
    assert code == 2 and "bad.mat" in err
    assert (out / "dutch_5point.json").exists()


def test_decision_rows_follow_the_replay() -> None:
    from notation.ids import xgid

    path = str(SAMPLES / "illegal_plays.mat")
    res = batch.decision_rows(path)
    cols = res["columns"]
    rep = replay_match(read_any(path)[0])
    steps = [s for g in rep.games for s in g]
    assert res["rows"] == len(steps) == len(cols["kind"])
    for i, s in enumerate(steps):
        assert cols["kind"][i] == s.action.kind
        assert cols["xgid"][i] == xgid(s.before)
        assert cols["play"][i] == (str(s.play) if s.play is not None else None)
    # every error of the file is on some row
    errors = [f for f in rep.findings if f.severity == "error"]
    assert sum(1 for sev in cols["severity"] if sev == "error") == len(errors)


# ------------------------------------------------------------------------------------ without the extra

def test_without_the_extra_one_line_names_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "dask", None)
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    code, out, err = run("convert", str(SAMPLES / "dutch_5point.mat"), str(tmp_path / "ds"), "--to", "parquet")
    assert code == 2 and err.count("\n") == 1 and "gammon-notation[scale]" in err and "pyarrow" in err
    code, out, err = run("validate", "--dask", "local", str(SAMPLES / "dutch_5point.mat"))
    assert code == 2 and err.count("\n") == 1 and "gammon-notation[scale]" in err and "dask" in err
    assert not (tmp_path / "ds").exists()


def test_bad_dask_address_and_stdin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("dask.distributed")

    def unreachable(address: str, timeout: str = "") -> None:
        raise OSError(f"Timed out trying to connect to {address}")

    monkeypatch.setattr("dask.distributed.Client", unreachable)
    for cmd in (["validate"], ["convert", "--to", "json"], ["convert", "--to", "parquet"]):
        args = [*cmd, "--dask", "tcp://127.0.0.1:9", str(SAMPLES / "dutch_5point.mat")]
        if cmd[0] == "convert":
            args.append(str(tmp_path / f"out-{cmd[-1]}"))
        code, _, err = run(*args)
        assert code == 2 and err.count("\n") == 1 and "cannot reach the scheduler" in err, (cmd, err)
    code, _, err = run("validate", "--dask", "local:0", str(SAMPLES / "dutch_5point.mat"))
    assert code == 2 and "number of local workers" in err
    code, _, err = run("validate", "--dask", "local", "-")
    assert code == 2 and "standard input" in err


# ------------------------------------------------------------------------------------------ the cluster

@pytest.fixture(scope="module")
def dask_ok() -> None:
    pytest.importorskip("dask.distributed", reason="the [scale] extra (dask[distributed]) is not installed")


@pytest.mark.timeout(CLUSTER_TIMEOUT)
def test_local_cluster_gives_what_jobs_1_gives(dask_ok: None) -> None:
    files = _records()
    code1, out1, err1 = run("validate", "--jobs", "1", *files)
    code2, out2, err2 = run("validate", "--dask", "local:2", *files)
    assert (code1, out1) == (code2, out2)
    code1, json1, _ = run("validate", "--json", "--jobs", "1", *files)
    code2, json2, _ = run("validate", "--json", "--dask", "local:2", *files)
    assert json1 == json2 and json1.count("\n") == len(files)


@pytest.mark.timeout(CLUSTER_TIMEOUT)
def test_convert_on_the_cluster_writes_what_jobs_1_writes(dask_ok: None, tmp_path: Path) -> None:
    files = [str(SAMPLES / n) for n in ("dutch_5point.mat", "illegal_plays.mat", "gnubg_selfplay_7p.mat")]
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    code1, _, err1 = run("convert", *files, str(a), "--to", "sgf")
    code2, _, err2 = run("convert", *files, str(b), "--to", "sgf", "--dask", "local:2")
    assert (code1, err1) == (code2, err2)
    for f in sorted(os.listdir(a)):
        assert (a / f).read_bytes() == (b / f).read_bytes()
    assert sorted(os.listdir(a)) == sorted(os.listdir(b)) and len(os.listdir(a)) == 3


def _failed(path: str, reason: str) -> dict[str, object]:
    return {"file": path, "failed": reason}


_DIES_ONCE = """
import json, os, sys
from pathlib import Path

from notation import batch
from notation.scale import dask_map


def dies_once(path):
    mark = Path(os.environ["GAMMON_TEST_KILL_MARK"])
    if path.endswith("illegal_plays.mat") and not mark.exists():
        mark.write_text("killed once")
        os._exit(1)
    return batch.validate_file(path)


print(json.dumps(dask_map(dies_once, sys.argv[1:], "local:2", lambda p, r: {"file": p, "failed": r})))
"""
"""A process that kills one of its local cluster's workers the first time the worker sees illegal_plays.mat."""


@pytest.mark.timeout(CLUSTER_TIMEOUT)
def test_a_killed_worker_loses_no_file_and_prints_nothing(dask_ok: None, tmp_path: Path) -> None:
    """The one test that kills a real worker process (the rest of the cluster's logic is tested on a
    stand-in below): the worker dies once, its nanny starts another, the scheduler runs the task again,
    and no file is lost.  Issue 26 (low): ``--dask`` printed the workers' tracebacks and the nanny's
    complaints ("distributed.nanny - WARNING - Restarting worker") on stderr; nothing is printed.  (In a
    process of its own: Dask's log handlers write past pytest's capture of this one.)"""
    import json
    import subprocess

    files = [str(SAMPLES / n) for n in ("dutch_5point.mat", "illegal_plays.mat", "gnubg_selfplay_7p.mat",
                                        "hyper1_5point.mat")]
    r = subprocess.run([sys.executable, "-c", _DIES_ONCE, *files], capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "GAMMON_TEST_KILL_MARK": str(tmp_path / "mark")},
                       timeout=CLUSTER_TIMEOUT - 20)
    assert r.returncode == 0, r.stderr[-2000:]
    assert (tmp_path / "mark").exists()  # a worker did die
    assert json.loads(r.stdout) == json.loads(json.dumps([batch.validate_file(f) for f in files]))
    assert r.stderr == ""


# ------------------------------------------------- the cluster's logic, on a stand-in (tests/fake_dask.py)

KILLER = "illegal_plays.mat"


def _kills_its_worker(path: str) -> dict[str, object]:
    if path.endswith(KILLER):
        raise fake_dask.WorkerDies
    return batch.validate_file(path)


@pytest.mark.parametrize("chunk", [1, 3])
def test_a_file_that_kills_every_worker_is_reported_failed(monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    """A file whose task kills every worker that tries it (``allowed-failures`` + 1 of them) gives
    ``on_failure``; the other files of its chunk are checked again, each as its own task."""
    from notation import scale

    log = fake_dask.install(monkeypatch, allowed_failures=1)
    monkeypatch.setattr(scale, "chunk_size", lambda files, workers: chunk)
    files = [str(SAMPLES / n) for n in ("dutch_5point.mat", KILLER, "hyper1_5point.mat")]
    got = scale.dask_map(_kills_its_worker, files, "local:2", _failed)
    assert got[0] == batch.validate_file(files[0]) and got[2] == batch.validate_file(files[2])
    assert got[1] == {"file": files[1], "failed": "it stopped every worker process that tried it "
                                                  "(the worker died each time)"}
    assert log.deaths == 2 * 2  # its chunk's task, then its own, each killing two workers
    if chunk == 3:  # the chunk, then each of its files alone
        assert log.submitted == [files, files[0], files[1], files[2]]
    assert log.clusters == log.closed == 1


def test_a_task_that_fails_is_said_and_the_rest_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    from notation import scale

    fake_dask.install(monkeypatch)
    monkeypatch.setattr(scale, "chunk_size", lambda files, workers: 2)

    def broken(path: str) -> str:
        if path == "b":
            raise KeyError(path)
        return path.upper()

    assert scale.dask_map(broken, ["a", "b", "c"], "local:2", lambda p, r: r) == \
        ["A", "internal error (KeyError: 'b')", "C"]


def test_a_task_left_with_no_worker_is_given_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every worker died and none came back: a task still waiting is given up (``on_failure``) after
    ``NO_WORKER_WAIT`` seconds without a worker, not waited for for ever."""
    from notation import scale

    log = fake_dask.install(monkeypatch, allowed_failures=0, workers_left=False)
    monkeypatch.setattr(scale, "NO_WORKER_WAIT", 0.0)
    tries: list[str] = []

    def dies_then_waits(path: str) -> str:
        tries.append(path)
        if path == "killer":
            raise fake_dask.WorkerDies if tries.count(path) == 1 else fake_dask.NeverEnds
        return path

    got = scale.dask_map(dies_then_waits, ["killer"], "local:2", lambda p, r: r)
    assert got == [f"not checked: no worker left in the cluster for {scale.NO_WORKER_WAIT:.0f} s"]
    assert log.deaths == 1 and tries == ["killer", "killer"]


def test_many_chunks_through_a_small_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """However many files, only a window of tasks is in flight; results still come back in order (the
    stand-in gives them back last-submitted first)."""
    from notation import scale

    log = fake_dask.install(monkeypatch, workers=2)
    monkeypatch.setattr(scale, "IN_FLIGHT", 1)
    monkeypatch.setattr(scale, "chunk_size", lambda files, workers: 2)
    files = [f"f{i:02d}" for i in range(40)]
    seen = []
    got = scale.dask_map(str.upper, files, "local:2", _failed, on_result=lambda: seen.append(1))
    assert got == [f.upper() for f in files] and len(seen) == 40
    assert len(log.submitted) == 20 and log.most_in_flight == 4  # max(4, workers * IN_FLIGHT)
    monkeypatch.setattr(scale, "IN_FLIGHT", 8)
    log.most_in_flight = 0
    assert scale.dask_map(str.upper, files, "local:2", _failed) == [f.upper() for f in files]
    assert log.most_in_flight == 16


# -------------------------------------------------------------------------------------- the dataset

@pytest.fixture(scope="module")
def arrow_ok() -> None:
    pytest.importorskip("pyarrow", reason="the [scale] extra (pyarrow) is not installed")


def test_dataset_reads_back_as_the_replay(arrow_ok: None, tmp_path: Path) -> None:
    from notation.dataset import read_dataset
    from notation.ids import gnubg_id, xgid

    files = _records()
    out = tmp_path / "ds"
    code, _, err = run("convert", *files, str(out), "--to", "parquet")
    assert code in (0, 2), err
    table = read_dataset(out)
    assert table.schema.metadata[b"gammon.dataset_version"] == str(batch.DATASET_VERSION).encode()
    rows = table.to_pylist()
    k = 0
    checked = 0
    for f in files:
        try:
            matches = read_any(f)
        except Exception:  # noqa: BLE001 - an unreadable file has no rows (and its error went to stderr)
            assert f in err
            continue
        for mi, m in enumerate(matches):
            m.source = f
            for g in replay_match(m).games:
                for s in g:
                    row = rows[k]
                    assert (row["source"], row["match"], row["game"]) == (f, mi, g.game.number)
                    assert row["kind"] == s.action.kind and row["player"] == s.action.player
                    assert row["play"] == (str(s.play) if s.play is not None else None)
                    try:
                        assert row["xgid"] == xgid(s.before)
                        assert f"{row['position_id']}:{row['match_id']}" == gnubg_id(s.before)
                    except ValueError:
                        assert row["xgid"] is None
                    if s.action.dice:
                        assert (row["die1"], row["die2"]) == s.action.dice
                    k += 1
                    checked += 1
    assert k == len(rows) and checked > 1000


@pytest.mark.timeout(CLUSTER_TIMEOUT)
def test_dataset_is_the_same_from_the_cluster_and_in_parts(arrow_ok: None, dask_ok: None, tmp_path: Path) -> None:
    from notation import dataset

    files = _records()[:12]
    run("convert", *files, str(tmp_path / "a"), "--to", "parquet")
    run("convert", *files, str(tmp_path / "b"), "--to", "parquet", "--dask", "local:2")
    assert dataset.read_dataset(tmp_path / "a").equals(dataset.read_dataset(tmp_path / "b"))
    counts = dataset.write_dataset(files, tmp_path / "c")  # in this process
    assert counts["parts"] == len(dataset.parts(len(files))) == len(dataset.existing_parts(tmp_path / "c"))
    assert dataset.read_dataset(tmp_path / "c").equals(dataset.read_dataset(tmp_path / "a"))
    names = [[p.name for p in dataset.existing_parts(tmp_path / d)] for d in "abc"]
    assert names[0] == names[1] == names[2]
    big = dataset.parts(10_000_000)
    assert len(big) == 10_000 and big[-1] == (9_999_000, 10_000_000)


def _part_or_dies(item: tuple[int, list[str]], out: str) -> dict[str, object]:
    """The command's part writer, killing its worker when the part holds the killer file."""
    if any(p.endswith(KILLER) for p in item[1]):
        raise fake_dask.WorkerDies
    from notation.dataset import part_task

    return part_task(item, out)


def _probe_or_dies(path: str) -> int:
    if path.endswith(KILLER):
        raise fake_dask.WorkerDies
    return int(batch.decision_rows(path)["rows"])


def test_a_file_that_kills_its_workers_loses_only_itself_from_the_dataset(arrow_ok: None, tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A part whose task kills every worker that tries it: its files are read alone, and the part is
    written from the others, the killer reported (it used to lose the whole part).  On the stand-in."""
    from functools import partial

    from notation import dataset
    from notation.dataset import failed_part, salvage_part
    from notation.scale import dask_imap

    log = fake_dask.install(monkeypatch, allowed_failures=1)
    files = [str(SAMPLES / n) for n in ("dutch_5point.mat", KILLER, "gnubg_selfplay_7p.mat", "hyper1_5point.mat")]
    good = [f for f in files if not f.endswith(KILLER)]
    out = tmp_path / "ds"
    dataset.prepare(out)
    got = list(dask_imap(partial(_part_or_dies, out=str(out)), [(0, files)], "local:2", failed_part,
                         salvage=partial(salvage_part, out=str(out), probe=_probe_or_dies)))
    assert len(got) == 1 and got[0]["part"] == 0 and got[0]["files"] == 4
    assert len(got[0]["errors"]) == 1 and f"{KILLER}: not in the dataset" in got[0]["errors"][0]
    assert "worker" in got[0]["errors"][0]
    dataset.write_dataset(good, tmp_path / "expected")  # the three other files, in one part
    assert dataset.read_dataset(out).equals(dataset.read_dataset(tmp_path / "expected"))
    assert got[0]["rows"] == dataset.read_dataset(out).num_rows > 0
    # the part's task, its one-file task, each file probed, the killer's probe alone again, the part written
    assert log.submitted == [[(0, files)], (0, files), *files, files[1], (0, good)]


def test_dataset_refuses_to_overwrite_without_force(arrow_ok: None, tmp_path: Path) -> None:
    src = str(SAMPLES / "dutch_5point.mat")
    out = tmp_path / "ds"
    assert run("convert", src, str(out), "--to", "parquet")[0] == 0
    code, _, err = run("convert", src, str(out), "--to", "parquet")
    assert code == 2 and "--force" in err
    assert run("convert", src, str(out), "--to", "parquet", "--force")[0] == 0
    assert not [p for p in os.listdir(out) if "tmp" in p]
    shutil.rmtree(out)
    (tmp_path / "file").write_text("x")
    code, _, err = run("convert", src, str(tmp_path / "file"), "--to", "parquet")
    assert code == 2 and "directory" in err


def test_urls_are_read_through_fsspec() -> None:
    fsspec = pytest.importorskip("fsspec", reason="fsspec is not installed")
    fs = fsspec.filesystem("memory")
    for name in ("dutch_5point.mat", "illegal_plays.mat"):
        fs.pipe(f"/archive/{name}", (SAMPLES / name).read_bytes())
    local = batch.validate_file(str(SAMPLES / "illegal_plays.mat"))
    remote = batch.validate_file("memory://archive/illegal_plays.mat")
    assert {k: v for k, v in remote.items() if k not in ("file", "findings")} == \
        {k: v for k, v in local.items() if k not in ("file", "findings")}
    code, out, _ = run("validate", "memory://archive/*.mat")
    assert code == 1 and "total: 2 files" in out
    assert [line.split(":")[0] for line in out.splitlines() if "games," in line][:2] == ["memory", "memory"]
    code, _, err = run("validate", "memory://archive/none*.mat")
    assert code == 2 and "no file matches" in err
