"""Benchmark: SGF reading time and peak memory against file size (issue 16 item 7).

    python benchmarks/sgf_memory.py [--quick] [--corpus DIR]

Files are generated in a temporary directory from the gnubg games in ``tests/data`` (nothing from
``../shared`` is needed):

* ``plain``: N copies of a gnubg self-play game without analysis (about 510 bytes a game, 34 plays);
* ``analysed``: N copies of a game gnubg analysed (about 54 KB a game: ranked plays, cube decisions);
* ``nested``: one game tree with every node nested in the one before; within ``MAX_DEPTH`` it is read,
  beyond it (up to a million deep, 6 bytes a level) it must fail at once with a ParseError.

Each file is read by ``notation.formats.sgf.read_sgf`` in a fresh child process, twice: once for the
time and the whole process's peak resident memory (``VmHWM``, reset just before the read through
``/proc/self/clear_refs``, minus the resident size before the read, so that the interpreter, the
imports and the file's bytes do not count; ``ru_maxrss`` where that reset is not possible), once
under ``tracemalloc`` for Python's own peak allocation.  Both are printed with their ratio to the file
size, and the time per megabyte shows whether time is linear.  The retained match (``kept``) is what
the record itself costs after the read.

Then each file is validated as a user does it, ``gammon validate FILE`` in its own process, which reads
SGF one game at a time (:func:`notation.formats.sgf.iter_sgf` with :class:`notation.replay.Replayer`):
its peak resident size, less that of validating a one-game file, against the file size.  And each is
converted to SGF, JSON and ``.mat`` (``gammon convert --force FILE out.sgf``), which from 256 KB reads
the file twice and writes one game at a time (:mod:`notation.stream`): the same figures.  The files
are money sessions whose score lines add up, so the findings are only what the games hold.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"

CHILD = r"""
import gc, json, resource, sys, time, tracemalloc
sys.path.insert(0, sys.argv[3])
from notation.errors import ParseError
from notation.formats.sgf import read_sgf
path, mode = sys.argv[1], sys.argv[2]
data = open(path, "rb").read()
gc.collect()
def status_kb(key):
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None
try:  # reset the high-water mark, so that the peak is the read's and not the imports'
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    reset = True
except OSError:
    reset = False
before = status_kb("VmRSS") or 0
if mode == "trace":
    tracemalloc.start()
t = time.perf_counter()
error = None
try:
    m = read_sgf(data)
    games = len(m.games)
    actions = sum(len(g.actions) for g in m.games)
except ParseError as e:
    error, games, actions = f"{e.line}:{e.column}: {e.message}", 0, 0
dt = time.perf_counter() - t
out = {"time": dt, "games": games, "actions": actions, "error": error}
if mode == "trace":
    cur, peak = tracemalloc.get_traced_memory()
    out.update(peak=peak, kept=cur)
else:
    hwm = status_kb("VmHWM") if reset else None
    out.update(rss=((hwm if hwm is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) - before) * 1024)
print(json.dumps(out))
"""


def games_of_text(game: str) -> str:
    """A game without gnubg's analysis and statistics properties."""
    return re.sub(r"(?<=[\];])(A|DA|MR|LU|GS|GB|GW|BM|DO|BC|DC|CR)((\[(?:[^\]\\]|\\.)*\])+)", "", game)


def games_of(path: Path, strip: bool) -> list[str]:
    text = path.read_text(encoding="utf-8")
    games = re.findall(r"\(;.*?\)\n", text, re.S)
    return [games_of_text(g) for g in games] if strip else games


def write_games(path: Path, template: list[str], n: int) -> None:
    """``n`` games as one money session, its score lines adding up (so that ``validate`` finds nothing
    but what the games themselves hold)."""
    score = [0, 0]
    with path.open("w", encoding="utf-8") as f:
        for i in range(n):
            game = template[i % len(template)]
            game = re.sub(r"MI\[length:\d+\]\[game:\d+\]\[ws:\d+\]\[bs:\d+\]",
                          f"MI[length:0][game:{i}][ws:{score[0]}][bs:{score[1]}]", game, count=1)
            f.write(game)
            m = re.search(r"RE\[([WB])\+(\d+)", game)
            if m:
                score[m.group(1) == "B"] += int(m.group(2))


def validate_rss(path: Path, *command: str) -> tuple[float, int, str]:
    """``gammon validate FILE`` (or ``gammon COMMAND... FILE``) as a user runs it: seconds, peak resident
    bytes, the last line it printed."""
    t = time.perf_counter()
    args = [*command[:-1], str(path), command[-1]] if command else ["validate", str(path)]
    p = subprocess.Popen([sys.executable, "-m", "notation", *args],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    out = p.stdout.read() if p.stdout else ""
    _, _, usage = os.wait4(p.pid, 0)
    p.returncode = 0
    return time.perf_counter() - t, usage.ru_maxrss * 1024, out.strip().splitlines()[-1] if out.strip() else ""


def write_nested(path: Path, depth: int) -> None:
    with path.open("w", encoding="utf-8") as f:
        f.write("(;FF[4]GM[6]MI[length:0]\n")
        f.write("(;C[x]" * depth)
        f.write(")" * (depth + 1))


def child(path: Path, mode: str) -> dict[str, object]:
    r = subprocess.run([sys.executable, "-c", CHILD, str(path), mode, str(ROOT)], capture_output=True, text=True,
                       timeout=3600)
    if r.returncode:
        return {"error": r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}"}
    return json.loads(r.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller files only")
    ap.add_argument("--corpus", type=Path, help="a directory of gnubg SGF matches (e.g. the sgf/ made by "
                    "../shared/tools/gnubg-corpus): also files of these real, varied games, bare and analysed")
    args = ap.parse_args()
    from notation.formats.sgf import MAX_DEPTH  # noqa: PLC0415

    plain = games_of(DATA / "sgf_gnubg_selfplay.sgf", strip=True)
    analysed = games_of(DATA / "sgf_gnubg_analysed.sgf", strip=False)
    cases: list[tuple[str, int]] = [("plain", n) for n in ((1000, 4000) if args.quick else
                                                                         (1000, 4000, 13000))]
    cases += [("analysed", n) for n in ((20, 80) if args.quick else (20, 80, 200))]
    real: list[str] = []
    if args.corpus is not None:
        for f in sorted(args.corpus.glob("*.sgf")):
            real.extend(games_of(f, strip=False))
        real_bare = [games_of_text(g) for g in real]
        cases += [("real-bare", n) for n in (len(real), 4 * len(real))]
        cases += [("real", n) for n in (len(real) // 4, len(real))]
    cases += [("nested", n) for n in ((MAX_DEPTH - 1, 1_000_000) if args.quick else
                                              (1000, MAX_DEPTH - 1, 100_000, 1_000_000))]
    print(f"{'file':<9} {'size':>9} {'n':>9} {'time s':>8} {'s/MB':>6} {'RSS peak':>10} {'x size':>7} "
          f"{'py peak':>10} {'x size':>7} {'kept':>9} {'x size':>7}  result")
    validated: list[str] = []
    converted: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        one = Path(tmp) / "one.sgf"
        write_games(one, plain, 1)
        base = min(validate_rss(one)[1] for _ in range(3))  # the command's own size: interpreter, imports
        for kind, n in cases:
            path = Path(tmp) / f"{kind}-{n}.sgf"
            if kind == "nested":
                write_nested(path, n)
            else:
                template = {"plain": plain, "analysed": analysed}.get(kind) or (real if kind == "real" else real_bare)
                write_games(path, template, n)
            size = path.stat().st_size
            fast, trace = child(path, "time"), child(path, "trace")
            mb = size / 1e6
            t = float(fast.get("time", 0.0))  # type: ignore[arg-type]
            rss = int(fast.get("rss", 0))  # type: ignore[call-overload]
            peak, kept = int(trace.get("peak", 0)), int(trace.get("kept", 0))  # type: ignore[call-overload]
            result = fast["error"] or f"{fast['games']} games, {fast['actions']} actions"
            print(f"{kind:<9} {mb:>7.2f}MB {n:>9} {t:>8.2f} {t / mb:>6.2f} {rss / 1e6:>8.1f}MB {rss / size:>6.1f}x "
                  f"{peak / 1e6:>8.1f}MB {peak / size:>6.1f}x {kept / 1e6:>7.1f}MB {kept / size:>6.1f}x  {result}",
                  flush=True)
            if kind != "nested" or n < MAX_DEPTH:
                vt, vrss, summary = validate_rss(path)
                validated.append(f"{kind:<9} {mb:>7.2f}MB {n:>9} {vt:>8.2f} {vt / mb:>6.2f} {vrss / 1e6:>8.1f}MB "
                                 f"{(vrss - base) / 1e6:>8.1f}MB {(vrss - base) / size:>6.1f}x  {summary}")
            if kind != "nested":
                for fmt in ("sgf", "json", "mat"):
                    target = Path(tmp) / f"out.{fmt}"
                    ct, crss, _ = validate_rss(path, "convert", "--force", str(target))
                    over = crss - base
                    converted.append(f"{kind:<9} {fmt:<5} {mb:>7.2f}MB {n:>9} {ct:>8.2f} {ct / mb:>6.2f} "
                                     f"{crss / 1e6:>8.1f}MB {over / 1e6:>8.1f}MB {over / size:>6.1f}x")
                    target.unlink(missing_ok=True)
            path.unlink()
    print(f"\n`gammon validate FILE`, whole process (it reads SGF one game at a time); 'over base' is the peak "
          f"resident size less that of validating a one-game file ({base / 1e6:.1f} MB):")
    print(f"{'file':<9} {'size':>9} {'n':>9} {'time s':>8} {'s/MB':>6} {'RSS peak':>10} {'over base':>10} "
          f"{'x size':>7}  summary")
    for line in validated:
        print(line, flush=True)
    print("\n`gammon convert --force FILE out.FORMAT`, whole process (from 256 KB it reads the file twice and "
          "writes one game at a time, notation/stream.py):")
    print(f"{'file':<9} {'to':<5} {'size':>9} {'n':>9} {'time s':>8} {'s/MB':>6} {'RSS peak':>10} {'over base':>10} "
          f"{'x size':>7}")
    for line in converted:
        print(line, flush=True)


if __name__ == "__main__":
    main()
