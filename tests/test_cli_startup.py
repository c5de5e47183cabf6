"""Start-up: click reads every command line, and each command imports nothing it does not use: no command
module nor the renderer for ``gammon --version``, no parser library (lark) for the common records and
IDs, and no Pillow but to draw."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation import __version__

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("click", "lark", "PIL", "render", "notation.commands", "urllib.request")
PROBE = ("import sys, atexit\n"
         f"heavy = {HEAVY!r}\n"
         "atexit.register(lambda: sys.stderr.write(' '.join(m for m in heavy if m in sys.modules)))\n"
         "from notation.cli import run\nrun()\n")


@pytest.fixture(autouse=True, scope="module")
def _grammars_cached() -> None:
    """The first process derives the grammars' regular expressions with lark and caches them; the runs
    below are the later ones."""
    for args in (["validate", "samples/gnubg_selfplay_7p.mat"],
                 ["show", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"],
                 ["show", "4HPwATDgc/ABMA:cIkqAAAAAAAA"]):
        subprocess.run([sys.executable, "-m", "notation", *args], capture_output=True, cwd=ROOT, timeout=120)


def _modules(*args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    r = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, cwd=ROOT, timeout=120)
    return r, set(r.stderr.split())


def test_version_imports_no_command() -> None:
    from notation.cli import main

    line = f"gammon, version {__version__}\n"
    assert CliRunner().invoke(main, ["--version"]).output == line
    r, loaded = _modules("--version")
    assert r.returncode == 0 and r.stdout == line and loaded == {"click"}
    for m in ("notation", "notation.cli"):
        r2 = subprocess.run([sys.executable, "-m", m, "--version"], capture_output=True, text=True, cwd=ROOT,
                            timeout=120)
        assert r2.returncode == 0 and r2.stdout == line


def test_version_to_a_full_stdout_is_one_line_and_status_2() -> None:
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "notation", "--version"], stdout=full, stderr=subprocess.PIPE,
                           text=True, cwd=ROOT, timeout=60)
    assert r.returncode == 2 and r.stderr.startswith("gammon: cannot write to standard output")
    assert r.stderr.count("\n") == 1


def test_help_lists_the_commands_without_parsers_or_pillow() -> None:
    r, loaded = _modules("--help")
    assert r.returncode == 0 and "validate" in r.stdout and loaded == {"click", "notation.commands"}


def test_validate_reads_common_mat_files_without_lark() -> None:
    """The .mat reader's line reader takes the common files: validating them imports no parser library
    (lark is imported for a file the line reader leaves to it), and never Pillow or the renderer."""
    r, loaded = _modules("validate", "samples/gnubg_selfplay_7p.mat", "tests/data/mat_gnubg_selfplay_money.mat")
    assert r.returncode == 0 and loaded == {"click", "notation.commands"}, r.stdout
    r, loaded = _modules("validate", "-q", "--jobs", "1", "--color", "never", "samples/gnubg_selfplay_7p.mat")
    assert r.returncode == 0 and loaded == {"click", "notation.commands"}, (r.stdout, r.stderr)
    r, loaded = _modules("validate", "tests/data/unreadable/score_line_missing.mat")
    assert r.returncode == 2 and "lark" in loaded and "PIL" not in loaded


def test_convert_imports_no_parser_nor_pillow(tmp_path: Path) -> None:
    """``gammon convert`` of the common records to each text format imports none of the heavy modules."""
    for fmt in ("sgf", "json", "mat", "txt"):
        r, loaded = _modules("convert", "-q", "samples/gnubg_selfplay_7p.mat", str(tmp_path / f"o.{fmt}"))
        assert r.returncode == 0 and loaded == {"click", "notation.commands"}, (fmt, r.stderr, loaded)


def test_show_and_moves_import_no_parser_nor_pillow() -> None:
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"
    for argv in (["show", xgid], ["show", "--json", xgid], ["moves", xgid], ["moves", "--json", "--all-rolls", xgid],
                 ["moves", "--dice", "31", xgid]):
        r, loaded = _modules(*argv)
        assert r.returncode == 0 and loaded == {"click", "notation.commands"}, (argv, r.stderr, loaded)


def test_render_imports_pillow_and_no_parser(tmp_path: Path) -> None:
    """One diagram, as a writer makes them one by one, imports the renderer and Pillow, not lark."""
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"
    for out in ("f.png", "f.svg"):
        r, loaded = _modules("render", xgid, "-o", str(tmp_path / out), "--size", "small")
        assert r.returncode == 0 and {"render", "PIL"} <= loaded and "lark" not in loaded, (out, r.stderr)
