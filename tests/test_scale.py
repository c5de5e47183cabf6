"""Archives at scale: the per-file functions (notation.batch), a Dask LocalCluster with 2 worker
processes giving exactly what --jobs 1 gives, a worker killed mid-run losing nothing, and the Parquet
decision dataset read back equal to the replay.  Needs the [scale] extra (dask[distributed], pyarrow);
the tests that need it skip without it, and the one-line refusal without it is tested either way."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import sampled_per_kind

from notation import batch
from notation.cli import main
from notation.matchio import read_any
from notation.replay import replay

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
DATA = Path(__file__).resolve().parent / "data"
CORPUS = ROOT.parent / "shared" / "corpus"


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
    rep = replay(read_any(path)[0])
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


def test_local_cluster_gives_what_jobs_1_gives(dask_ok: None) -> None:
    files = _records()
    code1, out1, err1 = run("validate", "--jobs", "1", *files)
    code2, out2, err2 = run("validate", "--dask", "local:2", *files)
    assert (code1, out1) == (code2, out2)
    code1, json1, _ = run("validate", "--json", "--jobs", "1", *files)
    code2, json2, _ = run("validate", "--json", "--dask", "local:2", *files)
    assert json1 == json2 and json1.count("\n") == len(files)


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


_MARK = "GAMMON_TEST_KILL_MARK"


def _dies_once(path: str) -> dict[str, object]:
    """Kills its worker process the first time it sees the file named in the mark's directory."""
    mark = Path(os.environ[_MARK])
    if path.endswith("illegal_plays.mat") and not mark.exists():
        mark.write_text("killed once")
        os._exit(1)
    return batch.validate_file(path)


def _always_dies(path: str) -> dict[str, object]:
    if path.endswith("illegal_plays.mat"):
        os._exit(1)
    return batch.validate_file(path)


def _failed(path: str, reason: str) -> dict[str, object]:
    return {"file": path, "failed": reason}


def test_a_killed_worker_loses_no_file(dask_ok: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cloudpickle  # type: ignore[import-untyped]

    from notation.scale import dask_map

    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    monkeypatch.setenv(_MARK, str(tmp_path / "mark"))
    files = [str(SAMPLES / n) for n in ("dutch_5point.mat", "illegal_plays.mat", "gnubg_selfplay_7p.mat",
                                        "hyper1_5point.mat")]
    got = dask_map(_dies_once, files, "local:2", _failed)
    assert (tmp_path / "mark").exists()  # a worker did die
    assert got == [batch.validate_file(f) for f in files]


def test_a_file_that_kills_every_worker_is_reported_failed(dask_ok: None) -> None:
    import cloudpickle
    import dask

    from notation.scale import dask_map

    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    files = [str(SAMPLES / n) for n in ("dutch_5point.mat", "illegal_plays.mat", "hyper1_5point.mat")]
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}):
        got = dask_map(_always_dies, files, "local:2", _failed)
    assert got[0] == batch.validate_file(files[0]) and got[2] == batch.validate_file(files[2])
    assert "worker" in str(got[1]["failed"])  # type: ignore[index]


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
            for g in replay(m).games:
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


def _part_or_die(item: tuple[int, list[str]], out: str) -> dict[str, object]:
    """The command's part writer, killing its worker when the part holds the killer file."""
    if any(p.endswith("illegal_plays.mat") for p in item[1]):
        os._exit(1)
    from notation.commands.convert import _part

    return _part(item, out)


def _probe_or_die(path: str) -> int:
    if path.endswith("illegal_plays.mat"):
        os._exit(1)
    return int(batch.decision_rows(path)["rows"])


def test_a_file_that_kills_its_workers_loses_only_itself_from_the_dataset(arrow_ok: None, dask_ok: None,
                                                                           tmp_path: Path) -> None:
    """A part whose task kills every worker that tries it: its files are read alone, and the part is
    written from the others, the killer reported (it used to lose the whole part)."""
    from functools import partial

    import cloudpickle
    import dask

    from notation import dataset
    from notation.commands.convert import _failed_part, salvage_part
    from notation.scale import dask_imap

    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    files = [str(SAMPLES / n) for n in ("dutch_5point.mat", "illegal_plays.mat", "gnubg_selfplay_7p.mat",
                                        "hyper1_5point.mat")]
    good = [f for f in files if not f.endswith("illegal_plays.mat")]
    out = tmp_path / "ds"
    dataset.prepare(out)
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}):
        got = list(dask_imap(partial(_part_or_die, out=str(out)), [(0, files)], "local:2", _failed_part,
                             salvage=partial(salvage_part, out=str(out), probe=_probe_or_die)))
    assert len(got) == 1 and got[0]["part"] == 0 and got[0]["files"] == 4
    assert len(got[0]["errors"]) == 1 and "illegal_plays.mat: not in the dataset" in got[0]["errors"][0]
    assert "worker" in got[0]["errors"][0]
    dataset.write_dataset(good, tmp_path / "expected")  # the three other files, in one part
    assert dataset.read_dataset(out).equals(dataset.read_dataset(tmp_path / "expected"))
    assert got[0]["rows"] == dataset.read_dataset(out).num_rows > 0


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


def test_many_chunks_through_a_small_window(dask_ok: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """However many files, only a window of tasks is in flight; results still come back in order."""
    from notation import scale

    monkeypatch.setattr(scale, "IN_FLIGHT", 1)
    monkeypatch.setattr(scale, "chunk_size", lambda files, workers: 2)
    files = _records()[:40]
    got = scale.dask_map(batch.validate_file, files, "local:2", lambda p, r: {"file": p, "failed": r})
    assert got == [batch.validate_file(f) for f in files]


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


def test_a_dying_worker_prints_no_traceback(dask_ok: None, capfd: pytest.CaptureFixture[str]) -> None:
    """Issue 26 (low): ``--dask`` printed the workers' tracebacks and the nanny's complaints on stderr;
    the file is reported as not checked, in one line, by the command."""
    import cloudpickle
    import dask

    from notation.scale import dask_map

    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    files = [str(SAMPLES / n) for n in ("dutch_5point.mat", "illegal_plays.mat")]
    capfd.readouterr()
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        got = dask_map(_always_dies, files, "local:2", _failed)
    assert "failed" in got[1]
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Worker process" not in err, err[-2000:]
