"""Benchmark: an archive of 10,000 matches, `--dask local:N` against `--jobs N`, and the decision dataset.

    python benchmarks/scale.py [--matches 10000] [--workers 2] [--runs 2]

The archive is gnubg's own matches (120 made once with ../shared/tools/gnubg-corpus and cached in
/tmp/gammon-bench-corpus, as benchmarks/validate.py does) copied under new names until there are
``--matches`` files.  Every measure is a whole ``gammon`` process, as a user runs it:

* ``gammon validate --quiet --jobs N DIR`` and ``gammon validate --quiet --dask local:N DIR``: seconds
  and plays per second (best and median of ``--runs`` rounds, taking turns); the Dask run includes
  starting and closing its local cluster;
* ``gammon convert DIR OUT --to parquet --jobs N``: rows per second, and the dataset's size per 1,000
  matches next to the ``.mat`` files' size.

It also measures, for docs/scale.md, the per-file cost in this process and Dask's per-task overhead
(a task that does nothing, mapped 2,000 times on the same local cluster).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# this script's folder comes first on sys.path, and its html.py would hide the standard ``html`` (which
# dask imports)
sys.path[:] = [str(ROOT)] + [x for x in sys.path if Path(x or ".").resolve() != Path(__file__).parent]


def _corpus(count: int) -> list[str]:
    """benchmarks/validate.py's cached gnubg corpus (loaded by path: this directory holds an html.py,
    which must not shadow the standard library's)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_bench_validate", ROOT / "benchmarks" / "validate.py")
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod.corpus(count)  # type: ignore[no-any-return]


GAMMON = [sys.executable, "-m", "notation"]


def archive(n: int) -> Path:
    base = _corpus(120)
    out = Path(tempfile.gettempdir()) / f"gammon-bench-archive-{n}"
    if out.is_dir() and len(list(out.glob("*.mat"))) == n:
        return out
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    for i in range(n):
        shutil.copyfile(base[i % len(base)], out / f"m{i:06d}.mat")
    return out


def timed(cmd: list[str]) -> tuple[float, str, str]:
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if r.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr[-500:]}")
    return dt, r.stdout, r.stderr


def plays_in(stdout: str) -> int:
    for line in stdout.splitlines():
        if line.startswith("total:"):
            return int(line.split(" games, ")[1].split(" play")[0])
    raise SystemExit("no total line")


def task_overhead(workers: int, tasks: int = 2000) -> float:
    from dask.distributed import Client, LocalCluster, wait

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cl, \
            Client(cl) as client:
        client.submit(int, 0).result()
        t0 = time.perf_counter()
        futs = client.map(int, range(tasks), pure=False)
        wait(futs)
        return (time.perf_counter() - t0) / tasks


def per_file_cost(files: list[str]) -> float:
    from notation.batch import validate_file

    t0 = time.perf_counter()
    for f in files:
        validate_file(f)
    return (time.perf_counter() - t0) / len(files)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--matches", type=int, default=10_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--runs", type=int, default=2)
    args = ap.parse_args()
    d = archive(args.matches)
    files = sorted(str(p) for p in d.glob("*.mat"))
    mat_bytes = sum(Path(f).stat().st_size for f in files)
    n = args.workers
    print(f"archive: {len(files)} matches, {mat_bytes / 1e6:.1f} MB of .mat, {n} workers, {args.runs} rounds")
    jobs_t: list[float] = []
    dask_t: list[float] = []
    plays = 0
    for _ in range(args.runs):
        dt, out, _ = timed(GAMMON + ["validate", "--quiet", "--jobs", str(n), str(d)])
        jobs_t.append(dt)
        plays = plays_in(out) if "total:" in out else plays
        dt, out2, _ = timed(GAMMON + ["validate", "--quiet", "--dask", f"local:{n}", str(d)])
        dask_t.append(dt)
        assert out == out2, "the Dask run printed something else than --jobs"
    if not plays:
        _, out, _ = timed(GAMMON + ["validate", "--jobs", str(n), str(d)])
        plays = plays_in(out)
    print(f"plays: {plays}")
    for name, ts in ((f"validate --jobs {n}", jobs_t), (f"validate --dask local:{n}", dask_t)):
        print(f"{name:28s} best {min(ts):7.2f} s  median {statistics.median(ts):7.2f} s  "
              f"{plays / min(ts):9.0f} plays/s")
    print(f"dask / jobs (best): {min(dask_t) / min(jobs_t):.3f}   (median): "
          f"{statistics.median(dask_t) / statistics.median(jobs_t):.3f}")
    out_dir = Path(tempfile.mkdtemp(prefix="gammon-bench-ds-"))
    try:
        dt, _, err = timed(GAMMON + ["convert", str(d), str(out_dir / "ds"), "--to", "parquet", "--jobs", str(n)])
        rows = int(err.strip().splitlines()[-1].split(": ")[1].split(" row")[0].replace(",", ""))
        size = sum(p.stat().st_size for p in (out_dir / "ds").glob("*.parquet"))
        print(f"parquet: {rows} rows in {dt:.2f} s = {rows / dt:.0f} rows/s; "
              f"{size / len(files) * 1000 / 1e6:.2f} MB per 1,000 matches "
              f"(.mat: {mat_bytes / len(files) * 1000 / 1e6:.2f} MB), {size / mat_bytes:.2f}x the .mat size")
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)
    cost = per_file_cost(files[:200])
    print(f"per-file cost in one process: {cost * 1000:.2f} ms "
          f"(validate, a {mat_bytes / len(files) / 1e3:.1f} kB match)")
    print(f"dask per-task overhead on local:{n}: {task_overhead(n) * 1e6:.0f} us")


if __name__ == "__main__":
    main()
