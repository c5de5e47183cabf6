"""Start-up: ``gammon --version`` answered without click (the same line click's version option prints),
and the commands import nothing they do not use."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
PROBE = ("import sys, atexit\n"
         "heavy = ('click', 'lark', 'PIL')\n"
         "atexit.register(lambda: sys.stderr.write(' '.join(m for m in heavy if m in sys.modules)))\n"
         "from notation.cli import run\nrun()\n")


def _modules(*args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    r = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, cwd=ROOT, timeout=120)
    return r, set(r.stderr.split())


def test_version_is_clicks_line_without_click() -> None:
    from notation.cli import VERSION_LINE, main

    assert CliRunner().invoke(main, ["--version"]).output == VERSION_LINE + "\n"
    r, loaded = _modules("--version")
    assert r.returncode == 0 and r.stdout == VERSION_LINE + "\n" and loaded == set()
    for m in ("notation", "notation.cli"):
        r2 = subprocess.run([sys.executable, "-m", m, "--version"], capture_output=True, text=True, cwd=ROOT)
        assert r2.returncode == 0 and r2.stdout == VERSION_LINE + "\n"


def test_version_to_a_full_stdout_is_one_line_and_status_2() -> None:
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "notation", "--version"], stdout=full, stderr=subprocess.PIPE,
                           text=True, cwd=ROOT, timeout=60)
    assert r.returncode == 2 and r.stderr.startswith("gammon: cannot write to standard output")
    assert r.stderr.count("\n") == 1


def test_other_arguments_still_go_to_click() -> None:
    r, loaded = _modules("--version", "show")
    assert "click" in loaded
    r, loaded = _modules("--help")
    assert r.returncode == 0 and "validate" in r.stdout and "lark" not in loaded and "PIL" not in loaded


def test_validate_reads_common_mat_files_without_lark() -> None:
    """The .mat reader's line reader takes the common files: validating them imports no parser library
    (lark is imported for a file the line reader leaves to it)."""
    r, loaded = _modules("validate", "samples/gnubg_selfplay_7p.mat", "tests/data/mat_gnubg_selfplay_money.mat")
    assert r.returncode == 0 and "lark" not in loaded, r.stdout
    r, loaded = _modules("validate", "tests/data/unreadable/score_line_missing.mat")
    assert r.returncode == 2 and "lark" in loaded


def test_validate_runs_without_click() -> None:
    """``gammon validate`` with files and the common options is read without click (and the common .mat
    files without lark); other options go to click."""
    r, loaded = _modules("validate", "-q", "--jobs", "1", "samples/gnubg_selfplay_7p.mat")
    assert r.returncode == 0 and loaded == set(), (r.stdout, r.stderr)
    r, loaded = _modules("validate", "--color", "never", "samples/gnubg_selfplay_7p.mat")
    assert r.returncode == 0 and "click" in loaded


def test_convert_runs_without_click(tmp_path: Path) -> None:
    """``gammon convert`` with inputs, an output and the common options is read without click, and
    imports none of the heavy modules; other options go to click."""
    for fmt in ("sgf", "json", "mat", "txt"):
        r, loaded = _modules("convert", "-q", "samples/gnubg_selfplay_7p.mat", str(tmp_path / f"o.{fmt}"))
        assert r.returncode == 0 and loaded == set(), (fmt, r.stderr, loaded)
    r, loaded = _modules("convert", "--bar", "25", "samples/gnubg_selfplay_7p.mat", str(tmp_path / "p.mat"))
    assert r.returncode == 0 and "click" in loaded


def test_show_and_moves_run_without_click() -> None:
    """``gammon show POSITION`` and ``gammon moves POSITION`` with their common options are read
    without click."""
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"
    for argv in (["show", xgid], ["show", "--json", xgid], ["moves", xgid], ["moves", "--json", "--all-rolls", xgid],
                 ["moves", "--dice", "31", xgid]):
        r, loaded = _modules(*argv)
        assert r.returncode == 0 and loaded == set(), (argv, r.stderr, loaded)


def test_render_runs_without_click(tmp_path: Path) -> None:
    """``gammon render SOURCE -o FILE`` with the common options is read without click: one diagram, as
    a writer makes them one by one, imports Pillow and nothing else that is heavy; other options (and
    the progress bar of ``--all`` on a terminal) go to click."""
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"
    for out in ("f.png", "f.svg"):
        r, loaded = _modules("render", xgid, "-o", str(tmp_path / out), "--size", "small")
        assert r.returncode == 0 and "click" not in loaded and "lark" not in loaded, (out, r.stderr, loaded)
    r, loaded = _modules("render", xgid, "-o", str(tmp_path / "g.png"), "--play", "13/8 13/11", "--dice", "52")
    assert r.returncode == 0 and "click" in loaded
