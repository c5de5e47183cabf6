"""Benchmark: `gammon stats` of a folder against `gammon validate -q` of the same folder (budget 1.5x).

    python benchmarks/stats.py [DIR ...] [--runs N]

Without a directory it times two folders: matches gnubg analysed (SGF: the per-decision analysis is
what stats reads; made once with ../shared/tools/gnubg-corpus and gnubg-analysed, cached in
/tmp/gammon-bench-stats) and the same matches as plain .mat files (no analysis: counts only).  Both
commands run as whole processes, taking turns, ``--runs`` rounds; the best and the median of each are
printed with the ratio stats / validate.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._common import cli_env, wall  # noqa: E402

CACHE = Path(tempfile.gettempdir()) / "gammon-bench-stats"
TOOLS = ROOT.parent / "shared" / "tools"


def folders(count: int) -> list[Path]:
    mats = CACHE / "corpus" / "mat"
    if len(list(mats.glob("*.mat"))) < count:
        subprocess.run(["bash", str(TOOLS / "gnubg-corpus"), str(CACHE / "corpus"), str(count)], check=True,
                       capture_output=True)
    analysed = CACHE / "analysed"
    if len(list(analysed.glob("*.sgf"))) < count:
        subprocess.run(["bash", str(TOOLS / "gnubg-analysed"), str(analysed), *map(str, sorted(mats.glob("*.mat")))],
                       check=True, capture_output=True)
    sgf = CACHE / "sgf"
    sgf.mkdir(exist_ok=True)
    for f in analysed.glob("*.sgf"):  # the SGF alone (the folder also holds gnubg's logs and exports)
        target = sgf / f.name
        if not target.exists():
            target.write_bytes(f.read_bytes())
    return [sgf, mats]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("dirs", nargs="*")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--count", type=int, default=40, help="matches to make when no folder is given")
    args = ap.parse_args()
    dirs = [Path(d) for d in args.dirs] or folders(args.count)
    gammon = str(Path(sys.executable).with_name("gammon"))
    env = cli_env()
    for d in dirs:
        times: dict[str, list[float]] = {"validate -q": [], "stats": []}
        for _ in range(args.runs):
            times["validate -q"].append(wall([gammon, "validate", "-q", str(d)], env=env, check=False)[0])
            times["stats"].append(wall([gammon, "stats", str(d)], env=env, check=False)[0])
        files = sum(1 for _ in d.iterdir())
        print(f"{d} ({files} files), {args.runs} rounds:")
        for k, v in times.items():
            print(f"  {k:12} best {min(v):.3f} s, median {statistics.median(v):.3f} s")
        best = min(times["stats"]) / min(times["validate -q"])
        med = statistics.median(times["stats"]) / statistics.median(times["validate -q"])
        print(f"  stats / validate: {best:.2f}x best, {med:.2f}x median (budget 1.5x)")


if __name__ == "__main__":
    main()
