"""Benchmark: the hostile inputs of issue 38 (the probe), each read and written by every command that
takes it, with each whole process's peak resident memory and time.

    python benchmarks/hostile_memory.py [--quick] [--only NAME] [--keep DIR]

The inputs are generated in a temporary directory from ``tests/data`` (nothing from ``../shared``):

* ``strings.json``, ``.sgf``, ``.mat``, ``.ogxm``: a short match with 5 MB of text in every string
  field the format has (names, a header tag, the match's, a game's and a play's comment);
* ``members.ogxms``: an OGXM stream of 100,000 tiny members (one double, dropped: 80 bytes each);
* ``properties.sgf``: an SGF game of 3,000 nodes, each with 999 properties of its own.

Each file is validated and converted to every format (``gammon validate``, ``gammon convert FILE
out.EXT``; a stream to ``.ogxms``) in a process of its own; its peak resident size (``ru_maxrss``)
less that of validating a one-game ``.mat`` file is set beside the file's size.  The bound the issue
holds is 10x.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
MB = 5 << 20

TINY = (" 1 point match\n\n Game 1\n Alice : 0                          Bob : 0\n"
        "  1) 31: 8/5 6/5                    Doubles => 2\n  2)  Drops                          Wins 1 point\n")


_LAUNCH = """
import os, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(p.pid, 0)
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
"""
"""Runs the command from a small fresh process: a child forked from this one (which made the inputs) would
count this process's memory in its peak until it executes the command."""


def _peak(args: list[str], cwd: Path, timeout: float = 900) -> tuple[int, float, int, str]:
    """(exit status, seconds, peak resident KB, last line of standard error) of ``gammon ARGS`` run in a
    process of its own (its own ``ru_maxrss``, from ``wait4``)."""
    t = time.perf_counter()
    try:
        p = subprocess.run([sys.executable, "-c", _LAUNCH, sys.executable, "-m", "notation", *args], cwd=cwd,
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, time.perf_counter() - t, 0, "timed out"
    took = time.perf_counter() - t
    status, rss = (int(x) for x in p.stdout.split())
    lines = p.stderr.strip().splitlines()
    return status, took, rss, lines[-1][:160] if lines else ""


def make_inputs(folder: Path, quick: bool) -> dict[str, Path]:
    sys.path.insert(0, str(ROOT))
    from notation.formats import _ogxm_write
    from notation.formats.json_format import to_json
    from notation.formats.ogxm import write_ogxm
    from notation.matchio import parse_any, read_any

    size = MB // 10 if quick else MB
    big = "C" * size
    (m,) = read_any(DATA / "mat_gnubg_selfplay_1p.mat")
    m.names = ("A" * size, "B" * size)
    m.tags.append(("Event", "E" * size))
    m.comments.append(big)
    m.games[0].comments.append(big)
    m.games[0].actions[0].comment = big
    m.games[0].names = m.names
    out: dict[str, Path] = {}
    p = out["strings.json"] = folder / "strings.json"
    p.write_text(to_json(m), encoding="utf-8")
    old = _ogxm_write.MAX_ANNO_BYTES, _ogxm_write.MAX_ANNOTATIONS
    _ogxm_write.MAX_ANNO_BYTES, _ogxm_write.MAX_ANNOTATIONS = 1 << 30, 1 << 20
    try:  # (an OGXM file holds 16 MB at most: 2 MB in each of its comments)
        small = "C" * min(size, 2 << 20)
        m.comments[-1] = m.games[0].comments[-1] = m.games[0].actions[0].comment = small
        out["strings.ogxm"] = folder / "strings.ogxm"
        out["strings.ogxm"].write_bytes(write_ogxm(m)[0])
    finally:
        _ogxm_write.MAX_ANNO_BYTES, _ogxm_write.MAX_ANNOTATIONS = old
    sgf = (DATA / "mat_gnubg_selfplay_1p.mat").read_text(encoding="utf-8")
    (mm,) = parse_any(sgf.encode(), name="x.mat")
    from notation.formats.sgf_write import write_sgf

    text = write_sgf(mm)[0]
    text = text.replace("PW[gnubg]", f"PW[{'A' * size}]GN[{'G' * size}]C[{big}]", 1)
    text = text.replace("PB[root]", f"PB[{'B' * size}]EV[{'E' * size}]", 1)
    text = text.replace(";W[54mhxt]", f";W[54mhxt]C[{big}]", 1)
    (folder / "strings.sgf").write_text(text, encoding="utf-8")
    out["strings.sgf"] = folder / "strings.sgf"
    mat = (DATA / "mat_gnubg_selfplay_1p.mat").read_text(encoding="utf-8")
    mat = mat.replace('; [EventDate "2026.11.22"]', f'; [Event "{"E" * size}"]\n; {big}', 1)
    mat = mat.replace(" gnubg : 0", f" {'A' * size} : 0", 1)
    (folder / "strings.mat").write_text(mat, encoding="utf-8")
    out["strings.mat"] = folder / "strings.mat"
    (tiny,) = parse_any(TINY.encode(), name="tiny.mat")
    member = write_ogxm(tiny)[0]
    n = 10_000 if quick else 100_000
    (folder / "members.ogxms").write_bytes(member * n)
    out["members.ogxms"] = folder / "members.ogxms"
    nodes, props = (300, 999) if quick else (3000, 999)
    names = [f"X{chr(65 + i // 26 // 26 % 26)}{chr(65 + i // 26 % 26)}{chr(65 + i % 26)}" for i in range(props)]
    node = "".join(f"{k}[1]" for k in names)
    head = "(;FF[4]GM[6]CA[UTF-8]MI[length:1][game:0][ws:0][bs:0]PW[a]PB[b]RU[Crawford]\n"
    moves = [";W[54mhxt]", ";B[42acae]"] * (nodes // 2)
    (folder / "properties.sgf").write_text(head + "".join(mv + node + "\n" for mv in moves) + ")\n",
                                           encoding="utf-8")
    out["properties.sgf"] = folder / "properties.sgf"
    (folder / "tiny.mat").write_text(TINY, encoding="utf-8")
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="a tenth of every size")
    ap.add_argument("--only", help="only the inputs whose name holds this")
    ap.add_argument("--keep", help="make the inputs in this folder and keep them")
    ap.add_argument("--targets", default="mat,sgf,json,txt,html,ogxm")
    a = ap.parse_args()
    folder = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="hostile-"))
    folder.mkdir(parents=True, exist_ok=True)
    inputs = make_inputs(folder, a.quick)
    base = _peak(["validate", "tiny.mat"], folder)[2]
    print(f"base (validate a one-game .mat): {base / 1024:.0f} MB")
    print(f"{'input':<16} {'MB':>6}  {'command':<22} {'exit':>4} {'s':>7} {'peak MB':>8} {'x input':>7}  last line")
    for name, path in inputs.items():
        if a.only and a.only not in name:
            continue
        size = path.stat().st_size
        runs = [["validate", "-q", name]]
        targets = ["ogxms"] if name.endswith(".ogxms") else a.targets.split(",")
        runs += [["convert", "--force", "-q", name, f"out.{t}"] for t in targets]
        for args in runs:
            status, took, rss, last = _peak(args, folder)
            over = max(0, rss - base) * 1024
            print(f"{name:<16} {size / 1e6:>6.1f}  {' '.join(args[:1] + args[-1:]):<22} {status:>4} {took:>7.1f} "
                  f"{rss / 1024:>8.0f} {over / size:>7.1f}  {last}", flush=True)
            for f in folder.glob("out.*"):
                f.unlink()
    if not a.keep:
        import shutil

        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
