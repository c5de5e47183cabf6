"""Benchmark: `gammon validate` on gnubg-written matches against gnubg importing the same files.

    python benchmarks/validate.py [DIR_WITH_MAT_FILES] [--jobs N]

Without a directory it generates 120 matches with ../shared/tools/gnubg-corpus (a few minutes, once;
cached in /tmp/gammon-bench-corpus).  Both sides run in one process each, in the same run:

* ours: ``gammon validate --quiet FILES`` (read, replay, every check), as it runs by default (one
  process per CPU) and with ``--jobs 1``; also its work in this Python process, for plays/s;
* gnubg: ``gnubg -t -q`` fed ``import mat FILE`` lines for the same files (it checks almost nothing).

The whole-process runs take turns, ``--runs`` rounds, so that all see the same machine; the best and
the median of each are printed, with the ratios (ours / gnubg).  Peak memory is also measured for the
first half of the files, to show it does not grow with the number of files.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
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
    """The command's work in this process, as the command does it: the cycle collector paused, and run only
    when objects have piled up between files (:class:`notation.parallel.collector_paused`)."""
    from notation.parallel import collect_if_piled, collector_paused

    plays = errors = 0
    t0 = time.perf_counter()
    with collector_paused():
        for f in files:
            r = check_file(f)
            plays += r["plays"]
            errors += r["errors"]
            collect_if_piled()
    return time.perf_counter() - t0, plays, errors


def peak_memory(files: list[str]) -> int:
    tracemalloc.start()
    for f in files:
        check_file(f)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def _cli_env() -> dict[str, str]:
    """As an installed package runs: compiled modules cached (pip compiles them at install time; a
    PYTHONDONTWRITEBYTECODE environment would otherwise compile every module at every start)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "gammon-bench-pycache")
    return env


def _wall(cmd: list[str], **kwargs: object) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, capture_output=True, check=False, **kwargs)  # type: ignore[call-overload]
    return time.perf_counter() - t0


def time_processes(files: list[str], runs: int) -> dict[str, list[float]]:
    """Wall times of whole processes, the three commands taking turns so that each sees the same
    machine: gnubg importing every file, ``gammon validate`` as it runs by default (one process per
    CPU) and with ``--jobs 1``; also gnubg with no file (its start-up).  One warm-up round first
    (it fills the module and parser caches)."""
    gnubg_input = "".join(f"import mat {f}\n" for f in files)
    ours = [sys.executable, "-m", "notation.cli", "validate", "--quiet", *files]
    ours1 = [*ours[:5], "--jobs", "1", *ours[5:]]
    env = _cli_env()
    times: dict[str, list[float]] = {"gnubg": [], "gnubg start-up": [], "ours": [], "ours --jobs 1": []}
    for i in range(runs + 1):
        t = {
            "gnubg": _wall([GNUBG, "-t", "-q"], input=gnubg_input.encode()),
            "gnubg start-up": _wall([GNUBG, "-t", "-q"], input=b""),
            "ours": _wall(ours, cwd=ROOT, env=env),
            "ours --jobs 1": _wall(ours1, cwd=ROOT, env=env),
        }
        if i:
            for k, v in t.items():
                times[k].append(v)
    return times


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("directory", nargs="?")
    ap.add_argument("--count", type=int, default=120)
    ap.add_argument("--runs", type=int, default=15, help="rounds of whole-process timings")
    args = ap.parse_args()
    if args.directory:
        files = sorted(str(p) for p in Path(args.directory).glob("*.mat"))
    else:
        files = corpus(args.count)
    from notation.parallel import cpu_count

    print(f"{len(files)} files, {cpu_count()} CPUs, Python {sys.version.split()[0]}")
    runs = [time_ours(files) for _ in range(5)]  # the first is cold: parser loaded, memory first touched
    best = min(r[0] for r in runs)
    plays, errors = runs[0][1], runs[0][2]
    print(f"ours, in one process (read, replay, every check): {best:.2f} s for {plays} plays = "
          f"{plays / best:,.0f} plays/s ({errors} errors found)")
    times = time_processes(files, args.runs)
    lo = {k: min(v) for k, v in times.items()}
    mid = {k: statistics.median(v) for k, v in times.items()}
    g, g_mid = lo["gnubg"], mid["gnubg"]
    print(f"gnubg: whole process {g:.3f} s (median {g_mid:.3f}); with no file {lo['gnubg start-up']:.3f} s, "
          f"so importing takes about {max(g - lo['gnubg start-up'], 0.0):.3f} s")
    for k in ("ours", "ours --jobs 1"):
        label = "gammon validate" + (" --jobs 1" if k.endswith("1") else " (default: a process per CPU)")
        print(f"{label}: {lo[k]:.3f} s (median {mid[k]:.3f}) = {plays / lo[k]:,.0f} plays/s; "
              f"ratio to gnubg {lo[k] / g:.1f} (medians {mid[k] / g_mid:.1f}); "
              f"target <= {2.0 if k.endswith('1') else 1.3}")
    half = peak_memory(files[: len(files) // 2])
    full = peak_memory(files)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(f"peak traced memory: {half / 1e6:.1f} MB for {len(files) // 2} files, {full / 1e6:.1f} MB for "
          f"{len(files)} files; process max RSS {rss} MB")


if __name__ == "__main__":
    main()
