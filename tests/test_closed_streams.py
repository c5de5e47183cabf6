"""A closed standard stream is one line and a failing status, never a traceback (issue 26, item 11).

``gammon validate x.mat >&-``: Python sets ``sys.stdout`` to None when descriptor 1 is closed, and every
command that prints failed with an ``AttributeError`` and a traceback at exit.  Each closed stream now
gets a descriptor that fails (``notation._term.guard_standard_streams``): the write fails as a full disk
does, ``gammon: cannot write to standard output: it is closed``, status 2.  A command that writes only
files still works, and no file it opens takes descriptor 1.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MATCH = ROOT / "tests" / "data" / "gnubg_7p_crawford.mat"
XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:53:0:0:0:0:10"
CLOSED = "gammon: cannot write to standard output: it is closed\n"


def _closing(*fds: int) -> Callable[[], None]:
    def close() -> None:
        for fd in fds:
            os.close(fd)
    return close


def gammon(*args: str, close: tuple[int, ...] = (1,), stdin: object = subprocess.DEVNULL,
           cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "notation", *args], stdin=stdin,  # type: ignore[call-overload]
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=cwd, timeout=120,
                          preexec_fn=_closing(*close))


COMMANDS = [
    ("validate", str(MATCH)),
    ("validate", str(MATCH), "--format", "json"),
    ("validate", str(MATCH), "--format", "sarif"),
    ("show", XGID),
    ("show", XGID, "--json"),
    ("moves", XGID),
    ("moves", XGID, "--json"),
    ("convert", str(MATCH), "-", "--to", "sgf"),
    ("convert", str(MATCH), "-", "--to", "txt"),
    ("convert", str(MATCH), "-", "--to", "ogxm"),
    ("render", XGID, "-o", "-"),
    ("--version",),
    ("--help",),
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(x for x in a if "/" not in x)[:40])
def test_closed_stdout_is_one_line_and_status_2(args: tuple[str, ...]) -> None:
    r = gammon(*args)
    assert "Traceback" not in r.stderr
    assert r.returncode == 2, r.stderr
    assert r.stderr.endswith(CLOSED), r.stderr


def test_convert_from_stdin_with_stdout_closed() -> None:
    with open(MATCH, "rb") as f:
        r = gammon("convert", "-", "-", "--to", "mat", stdin=f)
    assert "Traceback" not in r.stderr and r.returncode == 2 and r.stderr.endswith(CLOSED)


def test_a_command_writing_a_file_works_with_stdout_closed(tmp_path: Path) -> None:
    r = gammon("convert", str(MATCH), str(tmp_path / "out.sgf"))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "out.sgf").read_text(encoding="utf-8").startswith("(;")


def test_closed_stdin_is_a_read_error() -> None:
    r = gammon("show", "-", close=(0,))
    assert "Traceback" not in r.stderr
    assert r.returncode == 2 and r.stderr.startswith("gammon: ") and r.stderr.count("\n") == 1, r.stderr


def test_closed_stdout_and_stderr_still_fail() -> None:
    r = gammon("validate", str(MATCH), close=(1, 2))
    assert r.returncode == 2
