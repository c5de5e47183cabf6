"""A record's control characters never reach the terminal raw (issue 26, item 9).

Names, comments, tags and cells may hold ESC, CSI, OSC (``ESC ] 0;...BEL`` sets the window title,
``OSC 52`` the clipboard), BEL, the single-byte C1 CSI (U+009B) or bidi overrides.  Every command's text
output and every message shows them as escapes (``\\x1b``): ``show`` (text and ``--json``, whose JSON
stays the same value), ``validate`` in every format, ``moves``, ``render``'s and ``convert``'s messages,
and ``convert ... -`` when standard output is a terminal (to a pipe or a file the record's text is
written as it is: it is the data).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import gammon_in_process

ROOT = Path(__file__).resolve().parents[1]
MATCH = ROOT / "tests" / "data" / "gnubg_7p_crawford.mat"
EXPORT = ROOT / "tests" / "data" / "exports" / "xg_01_checker_EN.txt"
EVIL = "\x1b]0;PWNED\x07\x1b]52;c;aGk=\x07\x1b[31m\x9b2J\u202e\x07"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""What must never be written raw (tab and line feed aside)."""


def gammon(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return gammon_in_process(*args, cwd=cwd)  # (the command in this process: the bytes it writes, not its start)


def assert_clean(data: bytes, what: str) -> None:
    text = data.decode("utf-8", "replace")
    found = RAW.search(text)
    if found is not None:
        near = text[max(0, found.start() - 40):][:80]
        pytest.fail(f"{what}: raw {found.group()!r} at {found.start()}: {near!r}")


@pytest.fixture()
def files(tmp_path: Path) -> Path:
    text = MATCH.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    k = next(i for i, x in enumerate(lines) if " Game 1" in x) + 1
    name = lines[k].split(":")[0].strip()
    lines[k] = lines[k].replace(name, f"Ev{EVIL}il", 1)
    evil = "".join(lines)
    (tmp_path / "evil.mat").write_text(f"; [Event \"ev{EVIL}\"]\n; [Annotator \"an{EVIL}\"]\n" + evil,
                                       encoding="utf-8")
    bad = evil.replace("13/8", f"13/8{EVIL}", 1)
    (tmp_path / "bad.mat").write_text(bad, encoding="utf-8")
    export = EXPORT.read_text(encoding="utf-8").replace("X:Player 1", f"X:Pl{EVIL}", 1)
    assert EVIL in export
    (tmp_path / "export.txt").write_text(export, encoding="utf-8")
    (tmp_path / "positions.txt").write_text("XGID=-b----E-C---eE---c-e----B-:0:0:1:53:0:0:0:0:10\n"
                                            f"bad{EVIL} line\n", encoding="utf-8")
    return tmp_path


def test_show_escapes_an_exports_names(files: Path) -> None:
    r = gammon("show", "export.txt", cwd=files)
    assert r.returncode == 0, r.stderr
    assert_clean(r.stdout, "show")
    assert "Pl\\x1b]0;PWNED\\x07" in r.stdout.decode()


def test_show_json_is_the_same_value_without_raw_controls(files: Path) -> None:
    r = gammon("show", "export.txt", "--json", cwd=files)
    assert r.returncode == 0, r.stderr
    assert_clean(r.stdout, "show --json")
    info = json.loads(r.stdout)
    assert f"Pl{EVIL}" in info["board"]  # the JSON value holds the name as it is


@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif", "junit"])
def test_validate_escapes_in_every_format(files: Path, fmt: str) -> None:
    for name in ("evil.mat", "bad.mat"):
        r = gammon("validate", name, "--format", fmt, "--excerpt", cwd=files)
        assert r.returncode in (0, 1, 2)
        assert_clean(r.stdout, f"validate {name} --format {fmt}")
        assert_clean(r.stderr, f"validate {name} --format {fmt} (stderr)")
        if fmt in ("json", "sarif"):
            json.loads(r.stdout.splitlines()[0] if fmt == "json" else r.stdout)


def test_messages_of_every_command_are_escaped(files: Path, tmp_path: Path) -> None:
    runs = [("moves", "positions.txt"), ("moves", "positions.txt", "--json"), ("show", "positions.txt"),
            ("convert", "bad.mat", "-", "--to", "sgf"), ("convert", "evil.mat", str(tmp_path / "o.sgf")),
            ("render", "bad.mat", "-o", str(tmp_path / "x.svg")),
            ("render", "export.txt", "--title", f"t{EVIL}", "--caption", f"c{EVIL}\u6f22", "-o",
             str(tmp_path / "y.png")),
            ("render", "XGID=bad" + EVIL, "-o", str(tmp_path / "z.png"))]
    for args in runs:
        r = gammon(*args, cwd=files)
        assert_clean(r.stderr, " ".join(args[:2]) + " (stderr)")
        if args[0] in ("moves", "show"):
            assert_clean(r.stdout, " ".join(args[:2]))


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="no pseudo-terminals here")
@pytest.mark.parametrize("to", ["txt", "mat", "sgf", "json"])
def test_convert_to_a_terminal_escapes_the_records_text(files: Path, to: str) -> None:
    main, sub = os.openpty()
    chunks = []
    try:
        proc = subprocess.Popen([sys.executable, "-m", "notation", "convert", "evil.mat", "-", "--to", to],
                                cwd=files, stdout=sub, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        os.close(sub)
        sub = -1
        while True:  # read as it writes (a terminal holds a few kilobytes)
            try:
                chunk = os.read(main, 1 << 16)
            except OSError:  # (Linux: EIO once the terminal's other side is closed and read)
                break
            if not chunk:
                break
            chunks.append(chunk)
        _, err = proc.communicate(timeout=120)
    finally:
        os.close(main)
        if sub >= 0:
            os.close(sub)
    out = b"".join(chunks).replace(b"\r\n", b"\n")
    assert proc.returncode in (0, 1), err
    assert out.strip(), "nothing written"
    assert_clean(out, f"convert --to {to} to a terminal")
    if to == "json":
        json.loads(out)


def test_convert_to_a_pipe_keeps_the_records_text(files: Path) -> None:
    r = gammon("convert", "evil.mat", "-", "--to", "json", cwd=files)
    assert r.returncode in (0, 1), r.stderr
    assert json.loads(r.stdout)["match"]["names"][0] == f"Ev{EVIL}il"


def test_file_names_with_control_characters_are_escaped(tmp_path: Path) -> None:
    """A file name is text from outside too: in every format's lines and every message."""
    evil = f"ev{EVIL}"
    d = tmp_path / "d"
    d.mkdir()
    text = MATCH.read_text(encoding="utf-8").replace("13/8", "13/2", 1)  # an illegal play in game 1
    (d / f"{evil}.mat").write_text(text, encoding="utf-8")
    (d / f"{evil}.txt").write_text("not a record\n", encoding="utf-8")
    # render: game 1 alone (each position's picture is named and said alike; the match's 300 took 8 s)
    (tmp_path / f"{evil}1.mat").write_text(text[:text.index(" Game 2")], encoding="utf-8")
    runs = [("validate", "d", "--format", fmt) for fmt in ("text", "json", "github", "sarif", "junit")]
    runs += [("convert", "d", "out", "--to", "sgf"), ("render", f"{evil}1.mat", "--all", "-o", evil),
             ("validate", f"missing{evil}.mat"), ("show", f"missing{evil}.txt")]
    (tmp_path / "out").mkdir()
    for args in runs:
        r = gammon(*args, cwd=tmp_path)
        assert_clean(r.stdout, " ".join(args[:4]))
        assert_clean(r.stderr, " ".join(args[:4]) + " (stderr)")
