"""No command writes over its input or over anything that is not a regular file (issue 26, items 5 and 6).

``render p.txt -o p.txt --force`` (or an output that is a hard link to the position file) is refused as
every other writer refuses its input; an output that is a FIFO, a device or a socket is refused even with
``--force`` (renaming over ``/dev/null`` as root would put a regular file in its place; a FIFO opened
for writing waits for a reader), in one line, with a non-zero status, before any work.

The refusals of devices are checked on :func:`notation.convert.check_target` alone: a command run here
against ``/dev/null`` would, were the check missing, replace the machine's ``/dev/null``.  The commands
are run against FIFOs in a temporary directory, which a regression would only turn into files.
"""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest
from conftest import gammon_in_process

from notation.convert import InputSet, check_target

ROOT = Path(__file__).resolve().parents[1]
MATCH = ROOT / "tests" / "data" / "gnubg_7p_crawford.mat"
XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:53:0:0:0:0:10"

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


def gammon(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return gammon_in_process(*args, cwd=cwd, text=True)  # (the command in this process: what it does, not its start)


def _is_fifo(path: Path) -> bool:
    return stat.S_ISFIFO(os.lstat(path).st_mode)


# ---------------------------------------------------------------- render never writes over its input


def test_render_refuses_its_position_file_as_output(tmp_path: Path) -> None:
    p = tmp_path / "p.txt"
    p.write_text(XGID + "\n")
    r = gammon("render", "p.txt", "-o", "p.txt", "--format", "svg", "--force", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr == "gammon: p.txt: refusing to overwrite an input file\n"
    assert p.read_text() == XGID + "\n"


def test_render_refuses_a_hard_link_to_its_position_file(tmp_path: Path) -> None:
    p = tmp_path / "p.txt"
    p.write_text(XGID + "\n")
    os.link(p, tmp_path / "fig.svg")
    r = gammon("render", "p.txt", "-o", "fig.svg", "--force", cwd=tmp_path)
    assert r.returncode == 2
    assert "refusing to overwrite an input file" in r.stderr
    assert p.read_text() == XGID + "\n"


def test_render_of_a_match_refuses_the_match_as_output(tmp_path: Path) -> None:
    m = tmp_path / "m.mat"
    m.write_bytes(MATCH.read_bytes())
    r = gammon("render", "m.mat", "--game", "1", "--move", "3", "-o", "m.mat", "--format", "svg", "--force",
               cwd=tmp_path)
    assert r.returncode == 2 and "refusing to overwrite an input file" in r.stderr
    assert m.read_bytes() == MATCH.read_bytes()


# ---------------------------------------------------------------- never over a FIFO, a device or a socket


@pytest.mark.parametrize("device", ["/dev/null", "/dev/full", "/dev/zero"])
def test_check_target_refuses_a_device_even_with_force(device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    for inputs in ((), InputSet(())):
        with pytest.raises(FileExistsError, match=f"^{device} is a device, not a regular file"):
            check_target(device, force=True, inputs=inputs)


def test_check_target_refuses_a_fifo_and_a_link_to_one(tmp_path: Path) -> None:
    fifo = tmp_path / "out.html"
    os.mkfifo(fifo)
    (tmp_path / "link.html").symlink_to(fifo)
    for target in (fifo, tmp_path / "link.html"):
        for inputs in ((), InputSet(())):
            with pytest.raises(FileExistsError, match="is a FIFO, not a regular file"):
                check_target(target, force=True, inputs=inputs)
    check_target(tmp_path / "new.html", force=True)  # nothing there: written as ever
    (tmp_path / "old.html").write_text("x")
    check_target(tmp_path / "old.html", force=True)  # a regular file: replaced with --force, as ever


def _cmds() -> list[tuple[str, ...]]:
    return [
        ("validate", "m.mat", "--html", "out"),
        ("render", XGID, "-o", "out", "--format", "svg", "--force"),
        ("render", "m.mat", "--game", "1", "--move", "3", "-o", "out", "--format", "svg", "--force"),
        ("convert", "m.mat", "out", "--to", "sgf", "--force"),
    ]


@pytest.mark.parametrize("cmd", _cmds(), ids=lambda c: " ".join(c[:1] + c[-3:]))
def test_a_fifo_output_is_refused_in_one_line(tmp_path: Path, cmd: tuple[str, ...]) -> None:
    (tmp_path / "m.mat").write_bytes(MATCH.read_bytes())
    os.mkfifo(tmp_path / "out")
    r = gammon(*cmd, cwd=tmp_path)
    assert r.returncode != 0
    assert r.stderr.endswith("gammon: out is a FIFO, not a regular file: not written over, even with --force "
                             "(use '-' for standard output)\n"), r.stderr
    assert "Traceback" not in r.stderr
    assert _is_fifo(tmp_path / "out")


def test_validate_html_refuses_a_fifo_before_writing_any_page(tmp_path: Path) -> None:
    (tmp_path / "m.mat").write_bytes(MATCH.read_bytes())
    os.mkfifo(tmp_path / "report.html")
    r = gammon("validate", "m.mat", "--html", "report.html", cwd=tmp_path)
    assert r.returncode == 2
    assert not (tmp_path / "report_matches").exists()
    assert _is_fifo(tmp_path / "report.html")


def test_render_all_refuses_a_fifo_among_its_diagrams_before_drawing(tmp_path: Path) -> None:
    (tmp_path / "m.mat").write_bytes(MATCH.read_bytes())
    (tmp_path / "figs").mkdir()
    os.mkfifo(tmp_path / "figs" / "game01_end.png")
    r = gammon("render", "m.mat", "--all", "-o", "figs", "--force", cwd=tmp_path)
    assert r.returncode == 2
    assert "game01_end.png is a FIFO, not a regular file" in r.stderr
    assert [p.name for p in (tmp_path / "figs").iterdir()] == ["game01_end.png"]
    assert _is_fifo(tmp_path / "figs" / "game01_end.png")


def test_validate_html_refuses_an_existing_report_without_force(tmp_path: Path) -> None:
    """``validate --html`` replaced an existing report silently: it is refused as ``convert`` refuses an
    existing output, and replaced with ``--force``."""
    (tmp_path / "m.mat").write_bytes(MATCH.read_bytes())
    assert gammon("validate", "m.mat", "--html", "r.html", cwd=tmp_path).returncode == 0
    (tmp_path / "r.html").write_text("mine")
    r = gammon("validate", "m.mat", "--html", "r.html", cwd=tmp_path)
    assert (r.returncode, r.stderr) == (2, "gammon: r.html exists (use --force to overwrite it)\n")
    assert (tmp_path / "r.html").read_text() == "mine"
    (tmp_path / "r.html").unlink()
    r = gammon("validate", "m.mat", "--html", "r.html", cwd=tmp_path)  # the pages of another run are there
    assert (r.returncode, r.stderr) == (2, "gammon: r_matches exists (use --force to overwrite the pages in it)\n")
    r = gammon("validate", "m.mat", "--html", "r.html", "--force", cwd=tmp_path)
    assert r.returncode == 0 and (tmp_path / "r.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("command", [
    ("convert", "m.mat", "new/dir/m.sgf"),
    ("render", XGID, "-o", "new/dir/m.svg"),
    ("validate", "m.mat", "-q", "--html", "new/dir/m.html"),
])
def test_every_command_makes_its_output_s_missing_folders(tmp_path: Path, command: tuple[str, ...]) -> None:
    """``render`` and ``validate --html`` made a missing folder of their output, ``convert`` said "cannot
    write: No such file or directory": one rule for every command, where the file is written."""
    (tmp_path / "m.mat").write_bytes(MATCH.read_bytes())
    r = gammon(*command, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    target = tmp_path / command[-1]
    assert target.is_file() and target.stat().st_size > 0


def test_convert_never_writes_through_a_link(tmp_path: Path) -> None:
    """``convert --force`` onto a symbolic link whose target has other hard links wrote into the file
    outside (issue 38, item 4): the link is replaced, the file it pointed to is left as it was."""
    outside = tmp_path / "outside.txt"
    outside.write_text("outside\n")
    os.link(outside, tmp_path / "outside2.txt")
    (tmp_path / "out").mkdir()
    link = tmp_path / "out" / "x.mat"
    link.symlink_to(outside)
    proc = gammon("convert", "--force", str(MATCH), str(link), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert outside.read_text() == "outside\n" and (tmp_path / "outside2.txt").read_text() == "outside\n"
    assert not link.is_symlink() and "point match" in link.read_text()


def test_a_file_with_hard_links_is_still_rewritten_in_place(tmp_path: Path) -> None:
    target = tmp_path / "x.mat"
    target.write_text("old\n")
    os.link(target, tmp_path / "y.mat")
    proc = gammon("convert", "--force", str(MATCH), str(target), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "y.mat").read_text() == target.read_text() != "old\n"


@pytest.mark.parametrize("page", ["b.html", "B.2.html", "b.html/"])
def test_validate_html_checks_every_page_before_any_work(tmp_path: Path, page: str) -> None:
    """A FIFO (or a folder) among the pages' names was refused only when its page was written: the
    other pages were left written and validate's output lost (issue 38, item 5)."""
    for name in ("a.mat", "b.mat"):
        (tmp_path / name).write_bytes(MATCH.read_bytes())
    (tmp_path / "r_matches").mkdir()
    where = tmp_path / "r_matches" / page.rstrip("/")
    if page.endswith("/"):
        where.mkdir()
    else:
        os.mkfifo(where)
    proc = gammon("validate", "--html", "r.html", "--force", "a.mat", "b.mat", cwd=tmp_path)
    assert proc.returncode == 2
    assert "not a regular file" in proc.stderr and "Traceback" not in proc.stderr
    assert sorted(p.name for p in (tmp_path / "r_matches").iterdir()) == [page.rstrip("/")]
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize("cmd", [*_cmds(), ("convert", "m.mat", "out", "--to", "sgf")],
                         ids=lambda c: " ".join(c[:1] + c[-3:]))
def test_a_link_that_loops_is_refused_in_one_line(tmp_path: Path, cmd: tuple[str, ...]) -> None:
    """An output that is a link leading round in a loop (out -> out.2 -> out): every command met Python's
    RuntimeError (exit 70, "internal error") where it asked whether the output is one of its inputs."""
    (tmp_path / "m.mat").write_bytes(MATCH.read_bytes())
    (tmp_path / "out").symlink_to("out.2")
    (tmp_path / "out.2").symlink_to("out")
    r = gammon(*cmd, cwd=tmp_path)
    assert "internal error" not in r.stderr and "Traceback" not in r.stderr, r.stderr
    if "--force" in cmd:  # replaced by the file, as every link is
        assert r.returncode == 0 and (tmp_path / "out").is_file() and not (tmp_path / "out").is_symlink(), r.stderr
    else:
        assert r.returncode == 2 and r.stderr.endswith("gammon: out exists (use --force to overwrite it)\n"), r.stderr
    assert os.readlink(tmp_path / "out.2") == "out"
    for inputs in ((), InputSet(("m.mat",))):
        with pytest.raises(FileExistsError, match="exists"):
            check_target(tmp_path / "out", inputs=inputs)


def test_an_input_that_is_a_link_in_a_loop_cannot_be_read(tmp_path: Path) -> None:
    """``convert loop out.json`` ended in 'internal error' (exit 70): the check that the output is not an input
    stat'ed the input and met ELOOP, where it took only 'no such file' for no file."""
    (tmp_path / "loop").symlink_to("loop.2")
    (tmp_path / "loop.2").symlink_to("loop")
    r = gammon("convert", "loop", "out.json", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr == "loop: cannot read: Too many levels of symbolic links\n", r.stderr
    (tmp_path / "old.json").write_text("x")
    loop = str(tmp_path / "loop")
    for inputs in ([loop], InputSet([loop])):
        check_target(tmp_path / "new.json", inputs=inputs)
        check_target(tmp_path / "old.json", force=True, inputs=inputs)
