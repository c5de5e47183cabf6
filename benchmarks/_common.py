"""What the whole-process benchmarks share: the environment the command runs in, and timing rounds."""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path


def cli_env() -> dict[str, str]:
    """As an installed package runs: compiled modules cached (pip compiles them at install time; a
    PYTHONDONTWRITEBYTECODE environment would otherwise compile every module at every start)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "gammon-bench-pycache")
    return env


def wall(cmd: list[str], *, stdin: Path | None = None, env: dict[str, str] | None = None,
         cwd: Path | None = None, check: bool = True) -> tuple[float, bytes]:
    """Wall time of one whole process, and its standard output."""
    t = time.perf_counter()
    with open(stdin, "rb") if stdin else open(os.devnull, "rb") as f:
        out = subprocess.run(cmd, stdin=f, capture_output=True, check=check, env=env, cwd=cwd).stdout
    return time.perf_counter() - t, out


def gnubg_convert_script(files: list[str], out: Path) -> str:
    """A gnubg command script that imports each ``.mat`` file and saves it as SGF in ``out`` (what
    ``gammon convert`` is timed against)."""
    return "".join(f"import mat {f}\nsave match {out / Path(f).stem}.sgf\n" for f in files)


def gnubg_board_script(ids: list[str], export: Path | None, name: str = "{i:04d}.png") -> str:
    """A gnubg command script that sets each Position ID in turn on a board (two human players) and,
    with ``export``, writes each as ``export position png`` into that directory (file ``name``)."""
    lines = ["set player 0 human", "set player 1 human", "new game"]
    for i, pid in enumerate(ids):
        lines.append(f"set board {pid}")
        if export is not None:
            lines.append(f"export position png {export / name.format(i=i)}")
    return "\n".join(lines) + "\n"


def summary(times: list[float]) -> str:
    return f"best {min(times):.3f} s, median {statistics.median(times):.3f} s"
