"""Benchmark: `gammon validate` on gnubg-written matches against gnubg importing the same files.

    python benchmarks/validate.py [DIR_WITH_MAT_FILES] [--jobs N]

Without a directory it generates 120 matches with ../shared/tools/gnubg-corpus (a few minutes, once;
cached in /tmp/gammon-bench-corpus).  Both sides run in one process each, in the same run:

* ours: the `validate` command's work (read, replay, every check) in this Python process;
* gnubg: ``gnubg -t -q`` fed ``import mat FILE`` lines for the same files (it checks almost nothing).

Prints plays/s, wall time, peak memory and the ratio (ours / gnubg).  Peak memory is also measured for
the first half of the files, to show it does not grow with the number of files.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from notation.commands.validate import check_file  # noqa: E402

GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")
CACHE = Path(tempfile.gettempdir()) / "gammon-bench-corpus"


def corpus(count: int) -> list[str]:
    mats = sorted(str(p) for p in (CACHE / "mat").glob("*.mat")) if CACHE.exists() else []
    if len(mats) < count:
        tool = ROOT.parent / "shared" / "tools" / "gnubg-corpus"
        subprocess.run(["bash", str(tool), str(CACHE), str(count)], check=True, capture_output=True)
        mats = sorted(str(p) for p in (CACHE / "mat").glob("*.mat"))
    return mats[:count]


def time_ours(files: list[str]) -> tuple[float, int, int]:
    plays = errors = 0
    t0 = time.perf_counter()
    for f in files:
        r = check_file(f)
        plays += r["plays"]
        errors += r["errors"]
    return time.perf_counter() - t0, plays, errors


def peak_memory(files: list[str]) -> int:
    tracemalloc.start()
    for f in files:
        check_file(f)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def time_gnubg(files: list[str]) -> tuple[float, float]:
    """(whole process wall time, the same less an empty run's start-up), best of five."""
    cmds = "".join(f"import mat {f}\n" for f in files)
    best_total = best_startup = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        subprocess.run([GNUBG, "-t", "-q"], input="", capture_output=True, text=True, check=False)
        best_startup = min(best_startup, time.perf_counter() - t0)
        t0 = time.perf_counter()
        subprocess.run([GNUBG, "-t", "-q"], input=cmds, capture_output=True, text=True, check=False)
        best_total = min(best_total, time.perf_counter() - t0)
    return best_total, best_total - best_startup


def _cli_env() -> dict[str, str]:
    """As an installed package runs: compiled modules cached (pip compiles them at install time; a
    PYTHONDONTWRITEBYTECODE environment would otherwise compile every module at every start)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "gammon-bench-pycache")
    return env


def time_cli(files: list[str], jobs: int | None) -> float:
    """Wall time of the whole `gammon validate` process (start-up included), best of five after a
    warm-up run (which fills the module and parser caches)."""
    best = float("inf")
    cmd = [sys.executable, "-m", "notation.cli", "validate", "--quiet", *files]
    if jobs is not None:
        cmd[5:5] = ["--jobs", str(jobs)]
    for i in range(6):
        t0 = time.perf_counter()
        subprocess.run(cmd, capture_output=True, cwd=ROOT, env=_cli_env(), check=False)
        if i:
            best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("directory", nargs="?")
    ap.add_argument("--count", type=int, default=120)
    args = ap.parse_args()
    if args.directory:
        files = sorted(str(p) for p in Path(args.directory).glob("*.mat"))
    else:
        files = corpus(args.count)
    print(f"{len(files)} files")
    ours, plays, errors = time_ours(files)
    ours2, _, _ = time_ours(files)  # warm: parser built, tables cached
    best = min(ours, ours2)
    gnubg_total, gnubg = time_gnubg(files)
    cli1 = time_cli(files, 1)
    cli2 = time_cli(files, 2)
    half = peak_memory(files[: len(files) // 2])
    full = peak_memory(files)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(f"ours, in process : {best:.2f} s for {plays} plays = {plays / best:,.0f} plays/s ({errors} errors found)")
    print(f"gnubg, import only (start-up excluded): {gnubg:.2f} s = {plays / gnubg:,.0f} plays/s")
    print(f"ratio, work only: {best / gnubg:.1f} x gnubg's time (target <= 3)")
    print(f"whole processes: gammon validate {cli1:.2f} s (--jobs 2: {cli2:.2f} s), gnubg {gnubg_total:.2f} s; "
          f"ratio {cli1 / gnubg_total:.1f} ({cli2 / gnubg_total:.1f} with --jobs 2)")
    print(f"peak traced memory: {half / 1e6:.1f} MB for {len(files) // 2} files, {full / 1e6:.1f} MB for "
          f"{len(files)} files; process max RSS {rss} MB")


if __name__ == "__main__":
    main()
