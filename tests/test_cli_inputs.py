"""Inputs and outputs at the edges: missing files, '-', directories, patterns, empty and foreign files,
crashing files, output formats for CI, colour and excerpts, file modes, signals, a failing stdout."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ctrl_c_default

import notation
from notation.cli import main
from notation.convert import TMP_MARK, atomic_write

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "illegal_plays.mat"
CLEAN = ROOT / "tests" / "data" / "gnubg_7p_crawford.mat"
PNG = ROOT / "samples" / "figures" / "fig1_start.png"


def run(*args: str, stdin: str | bytes | None = None, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args), input=stdin, env=env)
    return r.exit_code, r.stdout, r.stderr


def gammon(*args: str, cwd: Path | None = None, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "notation", *args], capture_output=True, text=True,
                          cwd=cwd or ROOT, timeout=120, **kw)  # type: ignore[call-overload]


# ---------------------------------------------------------------- library: paths and text apart


def test_read_match_takes_a_path_and_parse_match_text(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        notation.read_match(tmp_path / "typo.mat")
    with pytest.raises(FileNotFoundError):
        notation.read_match(str(tmp_path / "typo.mat"))
    text = CLEAN.read_text()
    with pytest.raises(OSError):  # a transcript is not a file name
        notation.read_match(text)
    assert len(notation.parse_match(text).games) == len(notation.read_match(CLEAN).games) == 5


def test_missing_file_in_every_command(tmp_path: Path) -> None:
    for name in ("typo.mat", "typo.sgf", "typo.json"):
        code, out, _ = run("validate", str(tmp_path / name))
        assert code == 2 and "No such file or directory" in out and "N point match" not in out
        code, _, err = run("convert", str(tmp_path / name), str(tmp_path / "o.json"))
        assert code == 2 and "No such file or directory" in err


def test_empty_and_unrecognised_files(tmp_path: Path) -> None:
    (tmp_path / "empty.mat").write_text("")
    (tmp_path / "blank.mat").write_text("\n  \n\t\n")
    (tmp_path / "notes.dat").write_text("hello world\nnothing to see\n")
    for f, want in (("empty.mat", "empty file"), ("blank.mat", "empty file"), ("notes.dat", "unrecognised format")):
        code, out, _ = run("validate", str(tmp_path / f))
        assert code == 2 and want in out, (f, out)
    code, out, _ = run("validate", str(PNG))
    assert code == 2 and "unrecognised format" in out and "PNG" not in out


def test_stdin_for_validate_and_convert(tmp_path: Path) -> None:
    code, out, _ = run("validate", "-", stdin=SAMPLE.read_bytes())
    assert code == 1 and out.startswith("<stdin>:51:10: error:")
    code, out, _ = run("convert", "--to", "json", "-", "-", stdin=CLEAN.read_bytes())
    assert code == 0 and json.loads(out)["match"]["length"] == 7


def test_directories_recurse_and_patterns_expand(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "one.mat").write_bytes(CLEAN.read_bytes())
    (tmp_path / "a" / "b" / "two.txt").write_bytes(CLEAN.read_bytes())
    (tmp_path / "a" / "b" / "picture.png").write_bytes(PNG.read_bytes())
    code, out, _ = run("validate", str(tmp_path / "a"))
    assert code == 0
    assert "one.mat: 5 games" in out and "two.txt: 5 games" in out
    assert out.splitlines()[-2] == ("total: 2 files (0 with errors, 0 with warnings, 2 clean), 10 games, 490 plays, "
                                     "0 errors, 0 warnings, 0 notes")
    # the picture is not read, and is said once, as skipped (issue 26)
    assert out.count("picture") == 1
    assert out.splitlines()[-1] == f"skipped 1 file: 1 not a match record ({tmp_path / 'a' / 'b' / 'picture.png'})"
    code, out, _ = run("validate", str(tmp_path / "a" / "*.mat"))
    assert code == 0 and "one.mat" in out and "two.txt" not in out
    code, _, err = run("validate", str(tmp_path / "nothing*.mat"))
    assert code == 2 and "no file matches this pattern" in err


def test_one_crashing_file_is_that_files_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from notation import batch

    real = batch.source_bytes

    def flaky(path: str) -> tuple[bytes, str]:
        if path.endswith("bad.json"):
            raise IndexError("list index out of range")
        return real(path)

    monkeypatch.setattr(batch, "source_bytes", flaky)
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    code, out, _ = run("validate", "-j1", str(CLEAN), str(bad), str(SAMPLE))
    assert code == 2
    assert "gnubg_7p_crawford.mat: 5 games" in out and "illegal_plays.mat: 3 games" in out
    assert "bad.json: error: internal error while reading (IndexError" in out


def test_findings_sorted_by_line_with_right_plurals() -> None:
    code, out, _ = run("validate", str(SAMPLE))
    lines = [int(x.split(":")[1]) for x in out.splitlines() if x.startswith(str(SAMPLE) + ":")
             and x.split(":")[1].isdigit()]
    assert lines == sorted(lines) and len(lines) >= 6
    assert out.splitlines()[-1].endswith("3 games, 156 plays, 4 errors, 0 warnings, 2 notes")
    code, out, _ = run("validate", str(CLEAN))
    assert "5 games, 245 plays, 0 errors, 0 warnings, 0 notes" in out


def test_ci_formats() -> None:
    code, out, _ = run("validate", "--format", "github", str(SAMPLE))
    assert code == 1
    assert f"::error file={SAMPLE},line=51,col=10::game 1 move 44: the 5 is not played" in out
    assert "::notice " in out
    code, out, _ = run("validate", "--format", "sarif", str(SAMPLE), str(CLEAN))
    doc = json.loads(out)
    assert doc["version"] == "2.1.0"
    res = doc["runs"][0]["results"]
    assert sum(r["level"] == "error" for r in res) == 4
    assert res[0]["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 51, "startColumn": 10, "snippet": {"text": res[0]["locations"][0]["physicalLocation"]
                                                         ["region"]["snippet"]["text"]}}
    code, out, _ = run("validate", "--format", "junit", str(SAMPLE), str(CLEAN))
    import xml.etree.ElementTree as ET

    root = ET.fromstring(out)
    cases = root.findall(".//testcase")
    assert len(cases) == 2 and cases[0].find("failure") is not None and cases[1].find("failure") is None


def test_colour_and_excerpt() -> None:
    code, out, _ = run("validate", "--color", "always", "--excerpt", str(SAMPLE))
    assert "\x1b[1;31merror\x1b[0m" in out
    lines = out.splitlines()
    i = next(k for k, x in enumerate(lines) if ":51:10:" in x)
    assert lines[i + 1] == "     44) 54: 1/0                     42: 2/0 3/0 "
    assert lines[i + 2] == " " * 13 + "\x1b[1;32m^\x1b[0m"
    code, plain, _ = run("validate", "--excerpt", str(SAMPLE))
    lines = plain.splitlines()
    i = next(k for k, x in enumerate(lines) if ":51:10:" in x)
    assert lines[i + 2] == " " * (4 + 9) + "^"  # under column 10 of the line shown with 4 spaces before it
    code, out, _ = run("validate", "--color", "never", str(SAMPLE))
    assert "\x1b" not in out and "^" not in out
    code, out, _ = run("validate", "--color", "auto", str(SAMPLE), env={"NO_COLOR": "1"})
    assert "\x1b" not in out


def test_control_characters_are_escaped(tmp_path: Path) -> None:
    text = CLEAN.read_text(encoding="utf-8")
    first = text.splitlines()[3].split(":")[0].strip()  # the first name on the score line
    evil = tmp_path / "evil.mat"
    evil.write_text(text.replace(first, "Ev\x1b[2Jil", 1).replace("13/8", "13/2", 1), encoding="utf-8")
    code, out, _ = run("validate", str(evil))
    assert "\x1b" not in out


# ---------------------------------------------------------------- output files


def test_new_files_follow_the_umask_and_force_keeps_the_mode(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        atomic_write(tmp_path / "new.txt", "a")
        assert stat.S_IMODE(os.stat(tmp_path / "new.txt").st_mode) == 0o644
        os.chmod(tmp_path / "new.txt", 0o640)
        atomic_write(tmp_path / "new.txt", "b", force=True)
        assert stat.S_IMODE(os.stat(tmp_path / "new.txt").st_mode) == 0o640
        assert (tmp_path / "new.txt").read_text() == "b"
    finally:
        os.umask(old)


def test_force_keeps_hard_links(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("old")
    os.link(tmp_path / "a.txt", tmp_path / "b.txt")
    atomic_write(tmp_path / "a.txt", "new", force=True)
    assert (tmp_path / "b.txt").read_text() == "new"
    assert not [p for p in os.listdir(tmp_path) if TMP_MARK in p]


def test_stale_temporary_files_are_removed(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f".out.json{TMP_MARK}{dead.pid}"
    stale.write_text("half")
    atomic_write(tmp_path / "out.json", "{}")
    assert not stale.exists()


def test_refusals_come_before_any_work(tmp_path: Path) -> None:
    out = tmp_path / "o.sgf"
    out.write_text("keep")
    code, _, err = run("convert", str(SAMPLE), str(out))
    assert code == 2 and "exists" in err and "dropped" not in err and "error:" not in err
    assert out.read_text() == "keep"


def test_same_named_inputs_do_not_overwrite_each_other(tmp_path: Path) -> None:
    """Two inputs of one name (x/m.mat, y/m.mat; a.mat and a.sgf): the second is written under a name of
    its own (m-2.json), and said; the batch goes on (issue 38: one clash stopped it)."""
    for d in ("x", "y"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "m.mat").write_bytes(CLEAN.read_bytes())
    (tmp_path / "y" / "m-2.mat").write_bytes(CLEAN.read_bytes())
    (tmp_path / "out").mkdir()
    code, _, err = run("convert", "--force", "--to", "json", str(tmp_path / "x" / "m.mat"),
                       str(tmp_path / "y" / "m.mat"), str(tmp_path / "y" / "m-2.mat"), str(tmp_path / "out"))
    assert code == 0, err
    assert f"{tmp_path / 'y' / 'm.mat'} is written to {tmp_path / 'out' / 'm-2.json'}" in err
    assert sorted(os.listdir(tmp_path / "out")) == ["m-2-2.json", "m-2.json", "m.json"]


def test_convert_makes_a_missing_output_folder(tmp_path: Path) -> None:
    """docs/guarantees.md: an output's missing folders are made (convert DIR OUT refused a missing OUT)."""
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "m.mat").write_bytes(CLEAN.read_bytes())
    code, _, err = run("convert", "--to", "json", str(tmp_path / "d"), str(tmp_path / "new" / "out"))
    assert code == 0, err
    assert "made the folder" in err and os.listdir(tmp_path / "new" / "out") == ["m.json"]


def test_quiet_silences_dropped_lines(tmp_path: Path) -> None:
    code, _, err = run("convert", "-q", str(SAMPLE), str(tmp_path / "o.txt"))
    assert code == 0 and "dropped" not in err


# ---------------------------------------------------------------- the process as a whole


def test_python_dash_m_and_failing_stdout() -> None:
    r = gammon("--version")
    assert r.returncode == 0 and "gammon" in r.stdout
    with open("/dev/full", "w") as full:
        r2 = subprocess.run([sys.executable, "-m", "notation", "validate", str(SAMPLE)], stdout=full,
                            stderr=subprocess.PIPE, text=True, timeout=120)
    assert r2.returncode == 2
    assert r2.stderr.strip() == "gammon: cannot write to standard output: No space left on device"
    for extra in ([], ["--bar", "25"]):  # the default options, and one given
        with open("/dev/full", "w") as full:
            r3 = subprocess.run([sys.executable, "-m", "notation", "convert", "-q", str(SAMPLE), "-", "--to", "json",
                                 *extra],
                                stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
        assert (r3.returncode, r3.stderr) == (2, "gammon: cannot write to standard output: No space left on device\n")
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"
    for tail in ([xgid], ["--", xgid]):  # render's diagram to standard output (the source after '--' too)
        with open("/dev/full", "w") as full:
            r4 = subprocess.run([sys.executable, "-m", "notation", "render", "-o", "-", "--format", "svg", *tail],
                                stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
        assert (r4.returncode, r4.stderr) == (2, "gammon: cannot write to standard output: No space left on device\n")


def _wait_until_reading_stdin(p: subprocess.Popen[str], limit: float = 60.0) -> None:
    """Wait until ``p`` blocks reading its standard input (it has imported everything), as Linux's /proc
    says; elsewhere, a second and a half.  (A fixed pause was too short on a loaded machine: the signal
    came during the imports.)"""
    syscall, wchan = Path(f"/proc/{p.pid}/syscall"), Path(f"/proc/{p.pid}/wchan")
    if not wchan.exists():
        time.sleep(1.5)
        return
    end = time.monotonic() + limit
    while time.monotonic() < end and p.poll() is None:
        try:
            if "pipe_read" in wchan.read_text() or "pipe_wait" in wchan.read_text() or \
                    syscall.read_text().startswith("0 0x0 "):  # (x86-64: read(0, ...))
                return
        except OSError:
            pass
        time.sleep(0.05)


def test_interrupt_exits_130() -> None:
    # (as a terminal starts the command; with Ctrl-C ignored it read its standard input to the end, exit 2)
    with ctrl_c_default():
        p = subprocess.Popen([sys.executable, "-m", "notation", "validate", "-"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_until_reading_stdin(p)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130 and "Traceback" not in err
    p = subprocess.Popen([sys.executable, "-m", "notation", "validate", "-"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_until_reading_stdin(p)
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 128 + signal.SIGTERM and "Traceback" not in err


# ---------------------------------------------------------------- bounds on what a record may say


def test_absurd_numbers_and_checker_counts_are_refused_where_read(tmp_path: Path) -> None:
    from notation.ids import parse_xgid, snowie

    fields = snowie(parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:3:10")).split(";")
    i = fields.index("5")
    for count in ("16", "100000000", "9" * 5000):
        f = list(fields)
        f[i] = count
        p = tmp_path / "setup.mat"
        p.write_text(f" 3 point match\n\n Game 1\n a : 0                          b : 0\n"
                     f"  1) 52: Illegal play ({';'.join(f)}) \n")
        code, out, _ = run("validate", str(p))
        assert code == 2 and ("checker count" in out or "digits" in out), out
        assert len(out) < 2000
    board = ("board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:"
             "1:-1:0:25:0:0:0:0:2:0:0:0")
    for bad in ("-4000000000", "-16", "-" + "9" * 5000):
        code, _, err = run("show", board.replace(":-5:5:0:0:0:-3", f":{bad}:5:0:0:0:-3", 1))
        assert code == 2 and len(err) < 400 and "Traceback" not in err
    for text, name in ((" " + "9" * 5000 + " point match\n\n Game 1\n a : 0  b : 0\n", "n.mat"),
                       (" 5 point match\n\n Game 1\n a : " + "9" * 5000 + "  b : 0\n", "s.mat"),
                       ('{"format": "gammon-notation", "version": 1, "match": {"length": ' + "9" * 5000 + "}}",
                        "n.json")):
        (tmp_path / name).write_text(text)
        code, out, _ = run("validate", str(tmp_path / name))
        assert code == 2 and "internal error" not in out, out


def test_one_column_the_right_one_and_the_option_it_belongs_to(tmp_path: Path) -> None:
    import re as _re

    code, _, err = run("show", "garbage")
    assert code == 2 and set(_re.findall(r"column (\d+)", err)) == {"8"}
    code, out, _ = run("show", "--json", "garbage")
    assert json.loads(out)["column"] == 8
    bad = "XGID=-b----E-C---eE---c-e----B-:0:0:1:5x:0:0:0:7:10"
    code, _, err = run("render", bad, "-o", str(tmp_path / "x.png"))
    assert code == 2 and err.count("column 40") == 1
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"
    code, _, err = run("render", xgid, "--play", "13/8 13/11", "--play", "13/8 13/10", "-o", str(tmp_path / "p.png"))
    assert code == 2 and "--play '13/8 13/10' (the 2nd of the --play options), column 6: 13/10 moves 3 pips" in err
    code, out, _ = run("show", "-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10")  # an XGID starting with '-'
    assert code == 0 and "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10" in out


def test_python_dash_m_lists_choices() -> None:
    r = gammon("convert", "--to", "nope", "a", "b")
    assert r.returncode == 2 and "'mat'" in r.stderr and "'html'" in r.stderr


def test_json_record_findings_carry_a_json_pointer(tmp_path: Path) -> None:
    out = tmp_path / "ip.json"
    run("convert", "-q", str(SAMPLE), str(out))
    code, text, _ = run("validate", str(out))
    first = text.splitlines()[0]
    assert first.startswith(f"{out}#/match/games/0/actions/") and "(line 51, column 10 of the original record)" in first
    code, text, _ = run("validate", "--json", str(out))
    f = json.loads(text.splitlines()[0])["findings"][0]
    assert f["pointer"].startswith("/match/games/0/actions/") and f["line"] is None
    doc = json.loads(out.read_text())
    node = doc
    for part in f["pointer"].strip("/").split("/"):
        node = node[int(part)] if part.isdigit() else node[part]
    assert node["move_number"] == 44 and node["dice"] == [5, 4]


def test_json_values_long_lines_and_tag_numbers(tmp_path: Path) -> None:
    doc = {"format": "gammon-notation", "version": 1, "match": {"length": 3, "games": [{"number": 1, "actions": [
        {"kind": "move", "player": 5, "dice": [3, 1], "play": "8/5 6/5"}]}]}}
    (tmp_path / "p.json").write_text(json.dumps(doc))
    doc["match"]["games"][0]["actions"][0]["player"] = 0  # type: ignore[index]
    doc["match"]["rules"] = {"variant": "chess"}  # type: ignore[index]
    (tmp_path / "v.json").write_text(json.dumps(doc))
    code, out, _ = run("validate", str(tmp_path / "p.json"), str(tmp_path / "v.json"))
    assert "player: a player is 0 or 1, not 5" in out and "variant: unknown variant 'chess'" in out
    assert "internal error" not in out and code == 2
    (tmp_path / "long.mat").write_text(" 5 point match\n\n Game 1\n a : 0      b : 0\n  1) 52: 13/8 24/22 "
                                       + "x" * 100_000 + "\n")
    code, out, _ = run("validate", "--no-excerpt", str(tmp_path / "long.mat"))
    assert code == 2 and len(out) < 1000 and "(100011 characters)" in out
    (tmp_path / "cl.mat").write_text('; [CubeLimit "' + "9" * 5000 + '"]\n 5 point match\n\n Game 1\n a : 0  b : 0\n')
    code, out, _ = run("validate", str(tmp_path / "cl.mat"))
    assert "internal error" not in out


def test_json_is_decoded_as_utf8_or_with_its_bom(tmp_path: Path) -> None:
    doc = {"format": "gammon-notation", "version": 1, "match": {"length": 3, "names": ["Kévin", "b"], "games": [
        {"number": 1, "actions": [{"kind": "move", "player": 0, "dice": [3, 1], "play": "8/5 6/5"}]}]}}
    text = json.dumps(doc, ensure_ascii=False)
    (tmp_path / "latin.json").write_bytes(text.encode("latin-1"))
    code, out, _ = run("validate", str(tmp_path / "latin.json"))
    assert code == 2 and "byte 0xe9" in out and "is not UTF-8" in out
    for enc in ("utf-16", "utf-32", "utf-8-sig"):
        (tmp_path / f"{enc}.json").write_bytes(text.encode(enc))
        code, out, _ = run("convert", "-q", str(tmp_path / f"{enc}.json"), "-", "--to", "json")
        assert code == 0 and '"Kévin"' in out, enc
