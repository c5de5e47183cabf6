"""The common command lines of `gammon convert`, `show`, `moves` and `render` read without click (start-up time):
exactly as click reads them, and run exactly as click runs them.  (``validate``'s are held to click in
test_cli_validate.py.)"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import pytest

from notation.commands import _convert_run, _moves_run, _quick, _render_run, _show_run
from notation.commands.convert import command
from notation.commands.moves import command as moves_command
from notation.commands.render import command as render_command
from notation.commands.show import command as show_command

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
SAMPLE = str(ROOT / "samples" / "illegal_plays.mat")

QUICK_ARGV = [
    ["a.mat", "b.sgf"], ["a.mat", "b.mat", "out"], ["--to", "json", "a.mat", "-"], ["--to=SGF", "a.mat", "o"],
    ["-", "--to", "Json", "-"], ["a.mat", "o.sgf", "--force", "--strict", "-q", "--canonical"],
    ["a.mat", "o", "--quiet", "--jobs", "2"], ["-j", "0", "a.mat", "o"], ["--jobs=64", "a.mat", "o"],
    ["a.mat"], ["--to", "parquet", "a.mat", "ds"], ["a.mat", "o", "-j", "1", "-j", "05"], ["", "a b.mat"],
    ["--to", "text", "--to", "html", "a.mat", "o"], ["--to", "\u017fgf", "a", "o"],  # (casefolded, as click does)
]
CLICK_ARGV = [
    [], ["--force"], ["--to", "pdf", "a.mat", "o"], ["--to"], ["a.mat", "o", "--to="], ["--jobs", "65", "a", "o"],
    ["--jobs", "-1", "a", "o"], ["-j2", "a", "o"], ["-qj", "2", "a", "o"], ["--", "-a.mat", "o"], ["-x", "o"],
    ["--help"], ["--bar", "bar", "a", "o"], ["--no-hit-marks", "a", "o"], ["--dask", "local", "a", "o"],
    ["--force=1", "a", "o"], ["--forc", "a", "o"], ["--jobs", "١", "a", "o"],
]


def _read_as_click_reads(quick_args: Callable[[list[str]], dict[str, Any] | None], command: click.Command,
                         quick_lines: list[list[str]], click_lines: list[list[str]]) -> None:
    """Each of ``quick_lines`` is read without click, to exactly what click reads of it; none of
    ``click_lines`` is (they are click's)."""
    for argv in quick_lines:
        quick = quick_args(argv)
        assert quick is not None and quick == command.make_context(command.name or "", list(argv)).params, argv
    for argv in click_lines:
        assert quick_args(argv) is None, argv


def _runs_as_click_runs_it(name: str, quick_args: Callable[[list[str]], dict[str, Any] | None],
                           cases: list[tuple[list[str], str | None]], cwd: Path) -> None:
    """``gammon NAME ARGV`` (with standard input) gives the same status, output and messages read
    without click and by click, whose reading is forced by ``-- POSITION`` (an option only click reads
    would be an unknown one here)."""
    for argv, stdin in cases:
        runs = []
        for quick in (True, False):
            args = argv if quick else [*argv[:-1], "--", argv[-1]]
            assert (quick_args(args) is not None) == quick, args
            r = subprocess.run([sys.executable, "-m", "notation.cli", name, *args], cwd=cwd, input=stdin,
                               capture_output=True, text=True, timeout=60)
            runs.append((r.returncode, r.stdout, r.stderr))
        assert runs[0] == runs[1], argv


def test_quick_args_are_clicks() -> None:
    _read_as_click_reads(_convert_run.quick_args, command, QUICK_ARGV, CLICK_ARGV)


def test_the_reader_itself() -> None:
    options: dict[str, _quick.Option] = {"-n": ("n", "int", (1, 9)), "--kind": ("kind", "choice", ("ab", "cd")),
                                         "--yes": ("yes", "flag", None)}
    read = _quick.read
    assert read(["x", "-n", "3", "--kind=AB", "--yes", "-"], options, {"n": 1}, "w") == {
        "n": 3, "kind": "ab", "yes": True, "w": ("x", "-")}
    assert read(["--yes"], options, {}, "w") is None  # no word
    for bad in (["-n", "0", "x"], ["-n", "10", "x"], ["-n"], ["--kind", "ef", "x"], ["--yes=no", "x"], ["-m", "x"]):
        assert read(bad, options, {}, "w") is None, bad


def _gammon(*argv: str, cwd: Path) -> tuple[int, str, str]:
    r = subprocess.run([sys.executable, "-m", "notation.cli", "convert", *argv], cwd=cwd, capture_output=True,
                       text=True, timeout=120)
    return r.returncode, r.stdout.replace(str(cwd), "<dir>"), r.stderr.replace(str(cwd), "<dir>")


def test_quick_command_line_runs_as_click_runs_it(tmp_path: Path) -> None:
    """Output, messages, exit statuses and written files are the same read without click and with it
    (``--bar 25``, an option only click reads, is the default)."""
    bad = tmp_path / "bad.mat"
    bad.write_text(" 1 point match\n\n Game 1\n x\n")
    gnubg = sorted(str(p) for p in DATA.glob("mat_gnubg_*.mat"))
    cases = [
        [SAMPLE, "{d}/out.sgf"],
        [SAMPLE, "-", "--to", "JSON"],
        [str(bad), "{d}/bad.json"],
        [SAMPLE, str(DATA / "mat_gnubg_selfplay_1p.mat")],  # an input is never overwritten
        [SAMPLE, "{d}/out.sgf"],  # exists after the first case: refused without --force
        [SAMPLE, "{d}/out.sgf", "--force", "-q"],
        [*gnubg, str(bad), "{d}/many", "--jobs", "2", "--to", "mat"],
        [SAMPLE],
        [SAMPLE, "{d}/x.unknown"],
    ]
    for side in ("quick", "click"):
        (tmp_path / side / "many").mkdir(parents=True)
    for argv in cases:
        runs = []
        for side, extra in (("quick", []), ("click", ["--bar", "25"])):
            d = tmp_path / side
            assert side == "click" or _convert_run.quick_args([a.format(d=d) for a in argv]) is not None
            runs.append(_gammon(*extra, *[a.format(d=d) for a in argv], cwd=d))
        assert runs[0] == runs[1], argv
    for name in ("out.sgf", "bad.json", "many/mat_gnubg_selfplay_1p.mat"):
        assert (tmp_path / "quick" / name).exists() == (tmp_path / "click" / name).exists()
        if (tmp_path / "quick" / name).exists():
            assert (tmp_path / "quick" / name).read_bytes() == (tmp_path / "click" / name).read_bytes()


def test_parquet_runs_as_click_runs_it(tmp_path: Path) -> None:
    """``--to parquet`` (its report is a line of its own) read without click and with it."""
    pytest.importorskip("pyarrow", reason="the [scale] extra (pyarrow) is not installed")
    runs = []
    for side, extra in (("quick", []), ("click", ["--bar", "25"])):
        d = tmp_path / side
        d.mkdir()
        runs.append(_gammon(*extra, SAMPLE, str(DATA / "mat_gnubg_selfplay_1p.mat"), "ds", "--to", "parquet", cwd=d))
        runs.append(_gammon(*extra, SAMPLE, "ds", "--to", "parquet", cwd=d))  # refused: it holds a dataset
        runs[-2:] = [(*r, sorted(p.name for p in (d / "ds").iterdir())) for r in runs[-2:]]
    assert runs[:2] == runs[2:] and runs[0][0] == 0 and runs[1][0] == 2 and "row" in runs[0][2]


# ------------------------------------------------------------------------------------------ show
XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"
SHOW_QUICK = [[XGID], ["--json", XGID], [XGID, "--json", "--json"], ["-"], ["4HPwATDgc/ABMA:cIkKAAAAAAAA"], [""]]
SHOW_CLICK = [[], [XGID, XGID], ["--json"], ["--help"], ["-x"], ["--json=1", XGID], ["--", XGID], ["--jso", XGID]]


def test_show_quick_args_are_clicks() -> None:
    _read_as_click_reads(_show_run.quick_args, show_command, SHOW_QUICK, SHOW_CLICK)


def test_show_runs_as_click_runs_it(tmp_path: Path) -> None:
    """Text, JSON, an ID that cannot be read, an impossible position, a file, standard input, names with
    accents: the same output and status read without click and with it."""
    named = tmp_path / "named.txt"
    named.write_text("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10\n", encoding="utf-8")
    cases = [([XGID], None), (["--json", XGID], None), (["XGID=nonsense"], None), (["--json", "XGID=bad"], None),
             (["XGID=aaaaaaaaaaaaaaaaaaaaaaaaaa:0:0:1:52:0:0:3:0:10"], None), ([str(named)], None),
             (["-"], XGID + "\n"), ([str(tmp_path / "missing.txt")], None),
             ([str(DATA / "exports" / "xg_03_DT_JP.txt")], None),
             (["--json", str(DATA / "exports" / "bgblitz_01_checker_DE.txt")], None)]
    _runs_as_click_runs_it("show", _show_run.quick_args, cases, tmp_path)


# ----------------------------------------------------------------------------------------- moves
MOVES_QUICK = [[XGID], ["--json", XGID], [XGID, "--dice", "64"], ["--dice=6-4", XGID], [XGID, "--all-rolls"],
               ["-", "--json", "--all-rolls", "-j", "2"], [XGID, "--variant", "nackgammon"], [XGID, "--dice", ""],
               [XGID, "--dice", "77"], [XGID, "--variant", "chess"], [XGID, "--dice", "64", "--all-rolls"]]
MOVES_CLICK = [[], [XGID, XGID], ["--dice", "-1", XGID], ["--dice"], ["--help"], [XGID, "--jobs", "99"], ["-x"],
               ["--all-rolls=1", XGID]]


def test_moves_quick_args_are_clicks() -> None:
    _read_as_click_reads(_moves_run.quick_args, moves_command, MOVES_QUICK, MOVES_CLICK)


def test_moves_runs_as_click_runs_it(tmp_path: Path) -> None:
    """Plays, JSON, every roll, bad dice, both --dice and --all-rolls, an unknown variant, standard
    input, an ID that cannot be read: the same output and status without click and with it."""
    cases = [([XGID], None), (["--json", XGID], None), (["--dice", "64", XGID], None),
             (["--all-rolls", "--json", XGID], None), (["--dice", "77", XGID], None),
             (["--dice", "64", "--all-rolls", XGID], None), (["--variant", "chess", XGID], None),
             (["--json", "-"], XGID + "\n" + XGID + "\n"), (["XGID=nonsense"], None),
             (["--dice", "6-4", str(DATA / "exports" / "xg_01_checker_EN.txt")], None)]
    _runs_as_click_runs_it("moves", _moves_run.quick_args, cases, tmp_path)


# ---------------------------------------------------------------------------------------- render
RENDER_QUICK = [
    [XGID, "-o", "f.png"], ["-o", "f.svg", XGID, "--force"], [XGID, "--output=f.png", "--size", "large"],
    ["m.mat", "--all", "-o", "figs", "--jobs", "2"], ["m.mat", "--game", "2", "--move", "14", "-o", "x.png"],
    [XGID, "-o", "-", "--format", "svg"], ["m.mat", "--at", "98:38", "-o", "f.png"], ["-", "-o", "f.png"],
    [XGID, "--bottom", "WHITE", "--theme", "classic", "-o", "f.png"], ["x.txt", "--candidate", "2", "-o", "f.png"],
    [XGID, "--dice", "53", "--title", "Figure 3", "--caption", "K\u00e9vin et \u0416\u043e\u0440\u0430", "-o", "f.png"],
    [XGID, "--no-names", "--no-caption", "--direction", "--no-ghosts", "--home", "left", "--numbers", "both",
     "-o", "f.png"], ["m.mat", "--move", "0", "-o", "f.png", "-o", "g.png"],
]
RENDER_CLICK = [
    [], [XGID], ["-o", "f.png"], [XGID, "-o", "f.png", "--size", "LARGE"], [XGID, "-o", "f.png", "--play", "13/8"],
    [XGID, "--names", "-o", "f.png"], [XGID, "--pips", "-o", "f.png"], [XGID, "--width", "640", "-o", "f.png"],
    [XGID, XGID, "-o", "f.png"], ["--help"], [XGID, "-o", "f.png", "--game", "0"], [XGID, "-o"],
    [XGID, "-o", "f.png", "--format", "PNG"], [XGID, "-o", "f.png", "--font", "x.ttf"], [XGID, "-o", "-x"],
    ["--", XGID, "-o", "f.png"], [XGID, "-of.png"],
]


def test_render_quick_args_are_clicks() -> None:
    _read_as_click_reads(_render_run.quick_args, render_command, RENDER_QUICK, RENDER_CLICK)


def test_render_runs_as_click_runs_it(tmp_path: Path) -> None:
    """A position, a match's move, an export's ranked play, standard input, names with accents, bad
    dice, an ID that cannot be read, a missing file, an unknown output format: the same SVG (or PNG
    file), messages and status without click and with it."""
    sgf = str(DATA / "sgf_gnubg_beaver.sgf")
    svg = ["-o", "-", "--format", "svg"]
    accents = "K\u00e9vin \u0416\u043e\u0440\u0430"
    cases = [([*svg, XGID], None), ([*svg, "--size", "small", "--title", accents, XGID], None),
             ([*svg, "--dice", "77", XGID], None), ([*svg, "XGID=nonsense"], None),
             ([*svg, "--game", "1", "--move", "5", SAMPLE], None), ([*svg, "--move", "0", sgf], None),
             ([*svg, "-"], XGID + "\n"), ([*svg, str(tmp_path / "missing.mat")], None),
             ([*svg, "--candidate", "2", str(DATA / "exports" / "xg_01_checker_EN.txt")], None),
             (["-o", str(tmp_path / "x.gif"), XGID], None), ([*svg, "--game", "9", SAMPLE], None)]
    _runs_as_click_runs_it("render", _render_run.quick_args, cases, tmp_path)
    for side in ("quick", "click"):  # a PNG file, and the refusal to write over it
        out = tmp_path / f"{side}.png"
        for _ in range(2):
            argv = ["-o", str(out), XGID] if side == "quick" else ["-o", str(out), "--", XGID]
            assert (_render_run.quick_args(argv) is not None) == (side == "quick")
            r = subprocess.run([sys.executable, "-m", "notation.cli", "render", *argv], capture_output=True,
                               text=True, timeout=60)
            assert r.returncode == (0 if _ == 0 else 2), r.stderr
    assert (tmp_path / "quick.png").read_bytes() == (tmp_path / "click.png").read_bytes()
