"""Benchmark: reading and validating an OGXM file against our reading of the same match as a ``.mat``.

    python benchmarks/ogxm.py [FILE_OR_DIR ...] [--runs N] [--processes K]

The inputs are ``.mat`` files (by default every ``.mat`` of ../shared/corpus, else tests/data's gnubg
matches); each is written as OGXM by ``gammon``'s own writer, so both files hold the same match.  Three
comparisons, each side taking turns with the other for ``--runs`` rounds (best and median printed, with
the ratio OGXM / .mat; the target is at most 1.2x):

* in this process: ``notation.batch.validate_file`` of every file (read, replay, every check);
* whole ``gammon validate --quiet`` processes, one per file, for the first ``--processes`` files;
* one ``gammon validate --quiet --jobs 1`` process for all the files.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import cli_env, wall  # noqa: E402

from notation.batch import validate_file  # noqa: E402
from notation.errors import NotationError  # noqa: E402
from notation.formats.ogxm import write_ogxm  # noqa: E402
from notation.matchio import read_match  # noqa: E402

GAMMON = [sys.executable, "-m", "notation"]


def inputs(args: list[str]) -> list[Path]:
    paths = [Path(a) for a in args]
    if not paths:
        corpus = ROOT.parent / "shared" / "corpus" / "mat"
        paths = [corpus] if corpus.is_dir() else sorted((ROOT / "tests" / "data").glob("mat_gnubg_*.mat"))
    out: list[Path] = []
    for p in paths:
        out += sorted(q for q in p.rglob("*") if q.is_file()) if p.is_dir() else [p]
    return out


def pairs(mats: list[Path], work: Path) -> list[tuple[str, str]]:
    """Each readable .mat and its OGXM (the first match of the file)."""
    out = []
    for i, mat in enumerate(mats):
        try:
            data, _ = write_ogxm(read_match(mat))
        except (NotationError, OSError, UnicodeDecodeError):
            continue
        target = work / f"{i:04d}.ogxm"
        target.write_bytes(data)
        out.append((str(mat), str(target)))
    return out


def in_process(files: list[str]) -> float:
    t = time.perf_counter()
    for f in files:
        validate_file(f)
    return time.perf_counter() - t


def rounds(runs: int, mat: object, ogxm: object) -> tuple[list[float], list[float]]:
    a, b = [], []
    for _ in range(runs):
        a.append(mat())  # type: ignore[operator]
        b.append(ogxm())  # type: ignore[operator]
    return a, b


def line(what: str, a: list[float], b: list[float]) -> str:
    best = min(b) / min(a)
    median = statistics.median(b) / statistics.median(a)
    return (f"{what:<44} .mat {min(a):8.3f} s (median {statistics.median(a):.3f})   OGXM {min(b):8.3f} s "
            f"(median {statistics.median(b):.3f})   {best:.2f}x (median {median:.2f}x)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("inputs", nargs="*")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--processes", type=int, default=10)
    args = ap.parse_args()
    env = cli_env()
    with tempfile.TemporaryDirectory(prefix="gammon-bench-ogxm-") as tmp:
        work = Path(tmp)
        both = pairs(inputs(args.inputs), work)
        mats = [m for m, _ in both]
        ogxms = [o for _, o in both]
        size = sum(Path(m).stat().st_size for m in mats), sum(Path(o).stat().st_size for o in ogxms)
        print(f"{len(both)} matches: .mat {size[0] / 1e6:.2f} MB, OGXM {size[1] / 1e6:.2f} MB")
        in_process(mats[:3] + ogxms[:3])  # (the modules imported, the caches warm)
        a, b = rounds(args.runs, lambda: in_process(mats), lambda: in_process(ogxms))
        print(line("in process: validate_file of every file", a, b))
        k = min(args.processes, len(both))
        for f in (mats[0], ogxms[0]):  # (compiled modules cached)
            wall([*GAMMON, "validate", "--quiet", f], env=env, check=False)

        def one_each(files: list[str]) -> float:
            return sum(wall([*GAMMON, "validate", "--quiet", f], env=env, check=False)[0] for f in files)

        a, b = rounds(args.runs, lambda: one_each(mats[:k]), lambda: one_each(ogxms[:k]))
        print(line(f"gammon validate, a process per file ({k} files)", a, b))
        a, b = rounds(args.runs, lambda: wall([*GAMMON, "validate", "--quiet", "--jobs", "1", *mats], env=env,
                                              check=False)[0],
                      lambda: wall([*GAMMON, "validate", "--quiet", "--jobs", "1", *ogxms], env=env, check=False)[0])
        print(line(f"gammon validate --jobs 1, all {len(both)} files", a, b))


if __name__ == "__main__":
    main()
