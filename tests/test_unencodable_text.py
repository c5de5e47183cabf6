"""Text no output can encode: a lone surrogate (a JSON ``"\\ud800"``, RTF ``\\u55296`` in an XG comment, an
SGF read with ``CA[unicode_escape]``) or a file name that is not UTF-8.  Such a string is one file's
trouble, never the batch's: every output (terminal text, JSON lines, pages, written files, stream members)
writes it as its escape, and ``convert`` says so for the file; no command ends with status 70 or an
"internal error"."""

from __future__ import annotations

import json
import os
import struct
import subprocess
from pathlib import Path

import pytest
from conftest import DATA, ROOT, gammon_in_process
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xg_container import container, records

from notation.formats.json_format import to_json
from notation.matchio import read_any

GOOD = ROOT / "samples" / "gnubg_selfplay_7p.mat"


def gammon(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """The command, in this process (:func:`conftest.gammon_in_process`: what it writes, not its start), its
    standard output strict UTF-8 (as under a UTF-8 locale), not the C locale's surrogateescape, which would
    hide a failure to encode; its standard error with backslash escapes, as Python's own."""
    return gammon_in_process(*args, cwd=cwd)


def _xg_with_comment(rtf_body: bytes) -> bytes:
    recs = [bytearray(r) for r in records((DATA / "xg_ronde3.xg").read_bytes())]
    struct.pack_into("<2i", recs[0], 576, 0, -1)  # the match's comment: the first of temp.xgc
    doc = b"{\\rtf1\\ansi\\ansicpg1252\\uc1 " + rtf_body + b"\\par\x01\x02}\r\n"
    return container(b"".join(recs), comments=doc)


def hostile_files(folder: Path) -> dict[str, Path]:
    """One file of each kind, each holding a lone surrogate in a string of its record."""
    out = {}
    p = folder / "surrogate_name.json"
    (match,) = read_any(str(GOOD))
    p.write_text(to_json(match).replace('"gnubg"', '"Ch\\ud800ief"'), encoding="utf-8")
    out["json"] = p
    p = folder / "rtf_surrogate.xg"
    p.write_bytes(_xg_with_comment(b"x\\u55296?y"))
    out["xg"] = p
    p = folder / "unicode_escape.sgf"
    sgf = (DATA / "sgf_gnubg_resign.sgf").read_text(encoding="utf-8")
    p.write_text(sgf.replace("CA[UTF-8]", "CA[unicode_escape]").replace("PW[gnubg]", "PW[A\\ud800B]"),
                 encoding="utf-8")
    out["sgf"] = p
    p = Path(os.fsdecode(os.fsencode(folder) + b"/bad\xffname.mat"))
    p.write_bytes(GOOD.read_bytes())
    out["name"] = p
    return out


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("unencodable")
    (folder / "good.mat").write_bytes(GOOD.read_bytes())
    return hostile_files(folder)


KINDS = ("json", "xg", "sgf", "name")


def _ok(proc: subprocess.CompletedProcess[bytes]) -> None:
    assert proc.returncode != 70, proc.stderr.decode("utf-8", "replace")
    assert b"internal error" not in proc.stdout + proc.stderr, proc.stderr.decode("utf-8", "replace")
    (proc.stdout + proc.stderr).decode("utf-8")  # what is written is UTF-8


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "junit", "github"])
def test_validate_reports_the_file_and_goes_on(files: dict[str, Path], kind: str, fmt: str) -> None:
    f = files[kind]
    proc = gammon("validate", "--format", fmt, "good.mat", os.fsdecode(f.name), cwd=f.parent)
    _ok(proc)
    assert proc.returncode == 0
    out = proc.stdout.decode("utf-8")
    if fmt in ("text", "json"):
        assert "good.mat" in out and f.suffix in out  # both files reported
    if fmt == "json":
        rows = [json.loads(line) for line in out.splitlines()]
        assert len(rows) == 2 and rows[1]["games"] > 0


@pytest.mark.parametrize("kind", KINDS)
def test_validate_html_writes_every_page(files: dict[str, Path], kind: str, tmp_path: Path) -> None:
    f = files[kind]
    proc = gammon("validate", "--html", str(tmp_path / "r.html"), str(f.parent / "good.mat"), os.fsdecode(f),
                  cwd=tmp_path)
    _ok(proc)
    assert proc.returncode == 0
    pages = sorted((tmp_path / "r_matches").iterdir())
    assert len(pages) == 2
    for page in [tmp_path / "r.html", *pages]:
        page.read_bytes().decode("utf-8")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("to", ["mat", "sgf", "json", "txt", "html", "ogxm"])
def test_convert_writes_the_escape_and_says_so(files: dict[str, Path], kind: str, to: str, tmp_path: Path) -> None:
    f = files[kind]
    target = tmp_path / f"out.{to}"
    proc = gammon("convert", os.fsdecode(f), str(target), cwd=tmp_path)
    _ok(proc)
    assert proc.returncode == 0, proc.stderr
    data = target.read_bytes()
    if to != "ogxm":
        data.decode("utf-8")
        # (only JSON keeps the source's name; CA[unicode_escape] is now no character set: read as UTF-8)
        if kind not in ("name", "sgf") or (kind == "name" and to == "json"):
            assert b"\\ud" in data.lower()
            assert b"lone surrogate" in proc.stderr
    proc = gammon("convert", "--strict", os.fsdecode(f), str(tmp_path / f"strict.{to}"), cwd=tmp_path)
    _ok(proc)


def test_the_terminal_and_json_lines_show_the_escape(files: dict[str, Path]) -> None:
    f = files["json"]
    proc = gammon("validate", "--json", f.name, cwd=f.parent)
    row = json.loads(proc.stdout)
    assert row["file"] == f.name
    proc = gammon("convert", f.name, "-", "--to", "txt", cwd=f.parent)
    _ok(proc)
    assert b"Ch\\ud800ief" in proc.stdout


ANY_CHAR = st.one_of(st.characters(), st.integers(0xD800, 0xDFFF).map(chr), st.sampled_from("\x1b\x9b\u202e٣７"))
"""Any character: lone surrogates, controls (ESC, CSI), a bidi override and digits of other scripts too."""


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(ANY_CHAR, min_size=1, max_size=24), st.sampled_from(["name", "comment", "tag"]))
def test_any_text_in_a_record_is_written_by_every_writer(text: str, where: str) -> None:
    """The probe's class as a property: whatever a string of the record holds, every writer writes it
    (or refuses it in our words) and its output encodes."""
    import copy

    from notation._term import safe_line, utf8
    from notation.convert import render_match
    from notation.errors import NotationError
    from notation.replay import replay_match
    from render.html import match_page

    m = copy.deepcopy(_BASE)
    if where == "name":
        m.names = (text, m.names[1])
        for g in m.games:
            g.names = (text, m.names[1])
    elif where == "comment":
        m.games[0].comments.append(text)
    else:
        m.tags.append(("Event", text))
    for fmt in ("mat", "sgf", "json", "txt", "ogxm"):
        try:
            out, dropped = render_match(m, fmt)
        except NotationError:
            continue
        if isinstance(out, str):
            utf8(out).decode("utf-8")
        for d in dropped:
            safe_line(d).encode("utf-8")
    utf8(match_page(m, replay_match(m))).decode("utf-8")


_BASE = read_any(str(GOOD))[0]
