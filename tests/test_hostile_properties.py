"""The probe's classes of hostile input (issue 38, round three), as properties of every reader and command.

- Text: every string field of every format (``.mat`` header tags and names, SGF property values, JSON
  strings, XG and BGBlitz text exports, ``.xg`` comments (RTF), OGXM strings) given a lone surrogate, control
  and escape characters, line and paragraph separators, bidirectional controls, noncharacters, or 5 MB of text.
- Encodings: an SGF ``CA`` and an RTF ``\\ansicpgN`` this program does not know, or that make no text.
- Numbers: every numeric field (match length, scores, cube, dice, row numbers, SGF ``MI``, JSON numbers, the
  fields of an OGID and an XGID, ``.xg`` header and record integers) given Unicode digits (Arabic-Indic,
  fullwidth, superscript, mathematical) and extremes (2^31, -2^31 - 1, 2^64, 5,000 digits).
- Streams: an SGF collection of 10^5 game trees and an OGXM stream of 10^4 members (validated: each member
  read and replayed, one at a time).
- Inputs: a file named with bytes that are not UTF-8 or with control characters, a link in a loop or to
  nothing, a folder, an empty file, nothing; to every command that reads one.
- Outputs: a target that is a link (to a file, to nothing, to a folder, to itself), a FIFO or a link to one, a
  folder, or a name that is not UTF-8 or holds control characters.

Each property: the library reads the input or refuses it with a :class:`~notation.errors.NotationError` (a
ValueError); the commands (run in this process, with their exit statuses) end with 0, 1 or 2, never 70, and
never print "internal error" or a traceback.  Their budget is small (a few dozen examples each; derandomized in
CI, conftest's profile).
"""

from __future__ import annotations

import json
import os
import re
import stat
import struct
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA, gammon_in_process
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation.errors import NotationError
from notation.formats.json_format import to_json
from notation.matchio import parse_any, read_any

FEW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                      HealthCheck.data_too_large,
                                                                      HealthCheck.function_scoped_fixture])

BIG = "\u00e9t\u00e9 " * 1_250_000
"""5 MB of text (UTF-8)."""
TEXTS = ["\ud800", "a\udfffb", "\udc80\udcff", "\x00\x01\x08\x0b\x0c\x0e\x1f\x7f", "\x1b[2J\x1b]0;title\x07\x9b31m",
         "a\x85b\u2028c\u2029d\re", "\u202ename\u2066x\u200f", "\ufffe\uffff\U0010ffff\U000e0001", "\ufeff", BIG]
DIGITS = ["\u0663", "\uff17", "\u00b2", "\u07c3", "\u09e7", "\U0001d7d5", "\u2166", "\u0663\u0663", "1\u0663",
          "\uff11\uff15"]
"""Unicode digits (Arabic-Indic 3, fullwidth 7, superscript 2, N'Ko 3, Bengali 1, mathematical bold 7, Roman
numeral seven, two Arabic-Indic 3s, 1 and an Arabic-Indic 3, fullwidth 15): ``int`` reads most of them."""
EXTREMES = ["0", "-1", "2147483647", "2147483648", "-2147483649", "4294967296", "18446744073709551616", "9" * 5000,
            "-" + "9" * 40, "1e308", ""]
NUMBERS = DIGITS + EXTREMES


# --------------------------------------------------------------------------------------------- checks

def reads_or_refuses(data: bytes | str, name: str) -> None:
    """The library's reading of ``data``: read, or refused with a NotationError (a ValueError)."""
    try:
        parse_any(data, name=name)
    except NotationError:
        pass


def clean(*args: str | os.PathLike[str], cwd: Path | None = None) -> Any:
    """``gammon ARGS`` in this process: its exit status is 0, 1 or 2 (not 70, an internal error), and it prints
    neither "internal error" nor a traceback."""
    r = gammon_in_process(*args, cwd=cwd)
    said = r.stdout + r.stderr if isinstance(r.stdout, str) else (r.stdout + r.stderr).decode("utf-8", "replace")
    assert r.returncode in (0, 1, 2), (args, r.returncode, said[-800:])
    assert "internal error" not in said and "Traceback" not in said, (args, said[-800:])
    return r


def commands_take(data: bytes, suffix: str) -> None:
    """What the library and the commands do with a file holding ``data``: read it or refuse it, cleanly
    (validate, convert to JSON and to .mat on standard output, stats)."""
    reads_or_refuses(data, f"hostile{suffix}")
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / f"hostile{suffix}"
        path.write_bytes(data)
        clean("validate", path)
        clean("convert", path, "-", "--to", "json")
        clean("convert", path, "-", "--to", "mat")
        clean("stats", path)


def _spans(text: str, pattern: str, flags: int = 0) -> list[tuple[int, int]]:
    """The places of every group of ``pattern`` that matched in ``text``."""
    out = []
    for m in re.finditer(pattern, text, flags):
        out += [(m.start(g), m.end(g)) for g in range(1, (m.lastindex or 0) + 1) if m.start(g) >= 0]
    return out


def _put(text: str, span: tuple[int, int], value: str) -> bytes:
    return (text[:span[0]] + value + text[span[1]:]).encode("utf-8", "surrogatepass")


# --------------------------------------------------------------------------------------------- .mat

MAT = (DATA / "mat_xg_dialect.txt").read_text(encoding="utf-8-sig")
MAT_TEXT = _spans(MAT, r'\[(\w+(?: \d)?) "([^"]*)"\]') + _spans(MAT, r"^ +(.+?) : \d+ +(.+?) : \d+ *$", re.M)
MAT_NUMBERS = (_spans(MAT, r"^ ?(\d+) point match", re.M) + _spans(MAT, r" : (\d+)\b")
               + _spans(MAT, r"^ +(\d+)\)", re.M)
               + _spans(MAT, r"(\d)(\d):") + _spans(MAT, r"Doubles => (\d+)") + _spans(MAT, r"Wins (\d+) point")
               + _spans(MAT, r"/(\d+)") + _spans(MAT, r"(\d+)/") + _spans(MAT, r'CubeLimit "(\d+)"'))


def test_the_mat_fields_are_found() -> None:
    assert len(MAT_TEXT) >= 20 and len(MAT_NUMBERS) >= 40


@FEW
@given(st.sampled_from(MAT_TEXT), st.sampled_from(TEXTS))
def test_mat_text_fields(span: tuple[int, int], value: str) -> None:
    commands_take(_put(MAT, span, value.replace("\n", " ")), ".mat")


@FEW
@given(st.sampled_from(MAT_NUMBERS), st.sampled_from(NUMBERS))
def test_mat_numeric_fields(span: tuple[int, int], value: str) -> None:
    commands_take(_put(MAT, span, value), ".mat")


# --------------------------------------------------------------------------------------------- SGF

SGF = (DATA / "sgf_gnubg_beaver.sgf").read_text(encoding="utf-8").replace(
    "DT[", "EV[event]GN[name]PC[place]RO[round]AN[annotator]US[user]SO[source]GC[comment]C[root]DT[", 1).replace(
    ";B[52lqac]", ";B[52lqac]C[a comment]", 1)
_VALUE = r"\[((?:[^\]\\]|\\.)*)\]"
SGF_TEXT = _spans(SGF, r"(?:PW|PB|DT|EV|GC|AP|RU|GN|C|PC|RO|AN|US|SO)" + _VALUE, re.S)
SGF_NUMBERS = (_spans(SGF, r"MI\[length:(\d+)\]\[game:(\d+)\]\[ws:(\d+)\]\[bs:(\d+)\]")
               + _spans(SGF, r";[BW]\[(\d)(\d)[a-z]") + _spans(SGF, r"RE\[[BW]\+(\d+)") + _spans(SGF, r"CV\[(\d+)\]")
               + _spans(SGF, r"FF\[(\d+)\]") + _spans(SGF, r"GM\[(\d+)\]") + _spans(SGF, r"GS\[M:(\d+) (\d+)"))


def test_the_sgf_fields_are_found() -> None:
    assert len(SGF_TEXT) >= 12 and len(SGF_NUMBERS) >= 12


def _sgf_escaped(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


@FEW
@given(st.sampled_from(SGF_TEXT), st.sampled_from(TEXTS))
def test_sgf_text_fields(span: tuple[int, int], value: str) -> None:
    commands_take(_put(SGF, span, _sgf_escaped(value)), ".sgf")


@FEW
@given(st.sampled_from(SGF_NUMBERS), st.sampled_from(NUMBERS))
def test_sgf_numeric_fields(span: tuple[int, int], value: str) -> None:
    commands_take(_put(SGF, span, value), ".sgf")


CHARSETS = ["x-unknown", "", "UTF-16", "UTF-32-BE", "utf_8_sig", "rot13", "hex", "base64", "idna", "punycode",
            "undefined", "mbcs", "unicode_escape", "raw_unicode_escape", "\u0663", "\x00", "x" * 5000, "cp65001",
            "latin-1", "ascii"]


@FEW
@given(st.sampled_from(CHARSETS), st.sampled_from(["caf\u00e9", "\ud800", "\x1b[2J", "\u4e00"]))
def test_sgf_character_sets(charset: str, name: str) -> None:
    """A ``CA`` this program does not know, or one that makes no text (a codec of bytes, of IDNA ...), with a
    name in UTF-8 (or not UTF-8 at all: a lone surrogate)."""
    text = SGF.replace("CA[UTF-8]", f"CA[{_sgf_escaped(charset)}]", 1).replace("PW[", f"PW[{name}", 1)
    commands_take(text.encode("utf-8", "surrogatepass"), ".sgf")


# --------------------------------------------------------------------------------------------- JSON

def _json_seed() -> dict[str, Any]:
    m = read_any(DATA / "sgf_gnubg_analysed.sgf")[0]
    m.games = m.games[:1]
    m.games[0].actions = m.games[0].actions[:8]
    return json.loads(to_json(m))  # type: ignore[no-any-return]


JSON_SEED = _json_seed()


def _leaves(x: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    if isinstance(x, dict):
        return [leaf for k, v in x.items() for leaf in _leaves(v, (*path, k))]
    if isinstance(x, list):
        return [leaf for i, v in enumerate(x[:3]) for leaf in _leaves(v, (*path, i))]
    return [(path, x)]


JSON_TEXT = [p for p, v in _leaves(JSON_SEED) if isinstance(v, str)]
JSON_NUMBERS = [p for p, v in _leaves(JSON_SEED) if isinstance(v, int | float) and not isinstance(v, bool)]
_HOLE = "@@hostile@@"


def _json_with(path: tuple[Any, ...], raw: str) -> bytes:
    doc = json.loads(json.dumps(JSON_SEED))
    node = doc
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = _HOLE
    return json.dumps(doc, ensure_ascii=False).replace(f'"{_HOLE}"', raw).encode("utf-8", "surrogatepass")


def test_the_json_fields_are_found() -> None:
    assert len(JSON_TEXT) >= 20 and len(JSON_NUMBERS) >= 20


@FEW
@given(st.sampled_from(JSON_TEXT), st.sampled_from(TEXTS), st.booleans())
def test_json_text_fields(path: tuple[Any, ...], value: str, escaped: bool) -> None:
    """Each string given the text as a JSON escape (``\\ud800``: valid JSON) or as raw bytes (not UTF-8)."""
    raw = json.dumps(value, ensure_ascii=escaped)
    commands_take(_json_with(path, raw), ".json")


@FEW
@given(st.sampled_from(JSON_NUMBERS), st.sampled_from([json.dumps(d) for d in DIGITS] + [
    e for e in EXTREMES if e] + ["1e400", "-1e400", "NaN", "Infinity", "-0.0", '"7"', "7.0", "true"]))
def test_json_numeric_fields(path: tuple[Any, ...], raw: str) -> None:
    commands_take(_json_with(path, raw), ".json")


# --------------------------------------------------------------------------------------------- text exports, IDs

EXPORTS = [p.read_text(encoding="utf-8") for p in sorted((DATA / "exports").glob("*.txt"))]
EXPORT_FIELDS = [(i, s) for i, e in enumerate(EXPORTS) for s in _spans(e[:3000], r"([^\s:;=/()\[\]]+)")]


@FEW
@given(st.sampled_from(EXPORT_FIELDS), st.sampled_from(TEXTS + NUMBERS))
def test_text_export_fields(field: tuple[int, tuple[int, int]], value: str) -> None:
    i, span = field
    data = _put(EXPORTS[i], span, value)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "export.txt"
        path.write_bytes(data)
        clean("show", path)
        clean("render", path, "-o", Path(d) / "export.svg", "--force")


IDS = ["11ccccchhhjjjjj:66666888dddddoo:W1N:25:B:R:2:3:7:0", "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:52:3:2:0:7:10",
       "4HPwATDgc/ABMA:cIkWAAAAAAAA"]
ID_FIELDS = [(i, s) for i, t in enumerate(IDS) for s in _spans(t, r"([^:=]+)")]


@FEW
@given(st.sampled_from(ID_FIELDS), st.sampled_from(NUMBERS + TEXTS[:8]))
def test_position_id_fields(field: tuple[int, tuple[int, int]], value: str) -> None:
    """Every field of an OGID, an XGID and a gnubg ID: shown, its plays listed, drawn; or refused."""
    from notation.positionio import parse_position_text

    i, (a, b) = field
    text = IDS[i][:a] + value + IDS[i][b:]
    try:
        parse_position_text(text, name="id")
    except NotationError:
        pass
    clean("show", text)
    clean("moves", text)


# --------------------------------------------------------------------------------------------- .xg

def _xg_records() -> list[bytes]:
    from xg_container import records

    recs = records((DATA / "xg_ronde3.xg").read_bytes())
    ends = [i for i, r in enumerate(recs) if r[8] == 4]
    return recs[:ends[0] + 1] + recs[ends[-1] + 1:]  # the first game and the match's footer


XG_RECORDS = _xg_records()
XG_INTS = [(0, o) for o in (92, 96)] + [(1, o) for o in (12, 16, 48)] + [(2, o) for o in (12, 16, 20, 32, 92)] + [
    (3, o) for o in (64, 68, 72, 100, 104, 108, 120, 2480, 2344, 2524)] + [(4, o) for o in (24, 28, 32)]
"""(record kind, offset) of the 32-bit integers the reader decodes: the match length and its header's figures,
the game's score and number, the cube record's player, doubled, take and cube, the move's player, steps, dice,
candidates, rollout and comment indexes, the footer's winner, points and ending."""


@FEW
@given(st.sampled_from(XG_INTS), st.sampled_from([1 << 31, -(1 << 31), (1 << 31) - 1, -1, 0, 1 << 16]),
       st.integers(0, 50))
def test_xg_integers_at_the_extremes(field: tuple[int, int], value: int, choice: int) -> None:
    from xg_container import container

    kind, offset = field
    recs = [bytearray(r) for r in XG_RECORDS]
    at = [i for i, r in enumerate(recs) if r[8] == kind]
    struct.pack_into("<I", recs[at[choice % len(at)]], offset, value % (1 << 32))
    commands_take(container(b"".join(recs)), ".xg")


@FEW
@given(st.sampled_from(TEXTS[:-1]), st.sampled_from([1252, 0, -1, 65001, 99999, 2147483647, 1200, 20127, 932]),
       st.integers(0, 30))
def test_xg_comments(text: str, codepage: int, choice: int) -> None:
    """A comment of an ``.xg`` (an RTF document in ``temp.xgc``) holding the text, in a code page the
    program may not know (``\\ansicpgN``), put on one of the first game's moves."""
    from xg_container import container, rtf

    from notation.formats.xg import _MOVE_COMMENT, MOVE

    recs = [bytearray(r) for r in XG_RECORDS]
    moves = [r for r in recs if r[8] == MOVE]
    struct.pack_into("<i", moves[choice % len(moves)], _MOVE_COMMENT, 0)
    doc = rtf(text).replace(b"\\ansicpg1252", f"\\ansicpg{codepage}".encode(), 1)  # (a surrogate: \uN?)
    commands_take(container(b"".join(recs), comments=doc), ".xg")


def test_an_xg_comment_of_5_mb(tmp_path: Path) -> None:
    """5 MB of text in an ``.xg`` comment (12.5 MB of RTF: its reader takes seconds, so once, not in the
    property above): cut to the longest comment kept, and said."""
    from xg_container import container, rtf

    from notation.formats.xg import _MOVE_COMMENT, MOVE

    recs = [bytearray(r) for r in XG_RECORDS]
    struct.pack_into("<i", next(r for r in recs if r[8] == MOVE), _MOVE_COMMENT, 0)
    path = tmp_path / "big.xg"
    path.write_bytes(container(b"".join(recs), comments=rtf(BIG)))
    r = clean("validate", path)
    assert b"cut to its first 262,144 characters" in r.stdout, r.stdout[-500:]


# --------------------------------------------------------------------------------------------- OGXM

@FEW
@given(st.sampled_from(TEXTS), st.sampled_from(["names", "comment", "tag", "event"]))
def test_ogxm_strings(text: str, where: str) -> None:
    """The text in a match written as OGXM, read back; and its bytes in the file put where a name's are (the
    checksum then refuses it, or it is read)."""
    from notation.formats.ogxm import write_ogxm

    m = read_any(DATA / "sgf_gnubg_resign.sgf")[0]
    if where == "names":
        m.names = (text, "root")
    elif where == "comment":
        m.games[0].actions[0].comment = text
    elif where == "tag":
        m.tags.append(("Event", text))
    else:
        m.tags.append((text[:200] or "x", "y"))
    data, _ = write_ogxm(m)
    commands_take(data, ".ogxm")
    raw = text[:5].encode("utf-8", "surrogatepass")[:5].ljust(5, b"\x00")
    at = data.find(b"gnubg")
    if at > 0:
        commands_take(data[:at] + raw + data[at + 5:], ".ogxm")


# --------------------------------------------------------------------------------------------- streams

def test_an_sgf_collection_of_100000_game_trees(tmp_path: Path) -> None:
    path = tmp_path / "many.sgf"
    path.write_bytes(b"(;FF[4]GM[6]MI[length:0])" * 100_000)
    r = clean("validate", path)
    assert b"100000 games" in r.stdout, r.stdout[-300:]


def test_an_ogxm_stream_of_10000_members(tmp_path: Path) -> None:
    from notation.formats.ogxm import write_ogxms

    m = read_any(DATA / "sgf_gnubg_resign.sgf")[0]
    m.games = m.games[:1]
    one, _ = write_ogxms([m])
    path = tmp_path / "many.ogxms"
    path.write_bytes(one * 10_000)
    r = clean("validate", "--min-severity", "error", path)
    assert b"10000 games" in r.stdout, r.stdout[-300:]


# --------------------------------------------------------------------------------------------- outputs

def _link(target: str) -> Callable[[Path, Path], None]:
    def make(tmp: Path, out: Path) -> None:
        os.symlink(target, out)
    return make


def _fifo(tmp: Path, out: Path) -> None:
    os.mkfifo(out)


def _link_to_fifo(tmp: Path, out: Path) -> None:
    os.mkfifo(tmp / "fifo")
    os.symlink(tmp / "fifo", out)


def _loop(tmp: Path, out: Path) -> None:
    os.symlink(out.name + ".2", out)
    os.symlink(out.name, tmp / (out.name + ".2"))


def _folder(tmp: Path, out: Path) -> None:
    out.mkdir()


def _nothing(tmp: Path, out: Path) -> None:
    pass


TARGETS: dict[str, Callable[[Path, Path], None]] = {
    "a link to a file": _link("victim"), "a link to nothing": _link("nowhere/x"), "a link to a folder": _link("."),
    "a link to itself": _loop, "a FIFO": _fifo, "a link to a FIFO": _link_to_fifo, "a folder": _folder,
    "a new file": _nothing}
NAMES = ["out", os.fsdecode(b"\xff\xfe-out"), "out\x1b[2J", "out\nx", "out \u202e", "-out"]
OUTPUTS = {".json": ("convert", "{input}", "{output}"), ".mat": ("convert", "{input}", "{output}", "--force"),
           ".svg": ("render", "{input}", "-o", "{output}"), ".png": ("render", "{input}", "-o", "{output}", "--force"),
           ".html": ("validate", "{input}", "--html", "{output}", "--force"), ".ogxm": ("convert", "{input}",
                                                                                    "{output}")}


@FEW
@given(st.sampled_from(sorted(TARGETS)), st.sampled_from(NAMES), st.sampled_from(sorted(OUTPUTS)))
def test_outputs(kind: str, name: str, ext: str) -> None:
    """Every command that writes a file, given a target that is a link, a FIFO, a folder, or named with bytes
    that are not UTF-8 or with control characters: it writes the file or refuses in one line, never through a
    link, never into a FIFO (which would block), never with an internal error."""
    with tempfile.TemporaryDirectory() as d:
        _output(Path(d), kind, name, ext)


def _output(tmp: Path, kind: str, name: str, ext: str) -> None:
    (tmp / "in.sgf").write_bytes((DATA / "sgf_gnubg_resign.sgf").read_bytes())
    (tmp / "victim").write_bytes(b"victim")
    out = tmp / f"{name}{ext}"
    TARGETS[kind](tmp, out)
    args = [a.format(input="in.sgf", output=f"./{out.name}") for a in OUTPUTS[ext]]
    clean(*args, cwd=tmp)
    assert (tmp / "victim").read_bytes() == b"victim"
    if kind in ("a FIFO", "a link to a FIFO"):
        assert stat.S_ISFIFO(os.stat(out).st_mode)


INPUTS: dict[str, Callable[[Path, Path], None]] = {
    "a record": lambda tmp, p: p.write_bytes((DATA / "sgf_gnubg_analysed.sgf").read_bytes()),
    "a link in a loop": _loop, "a link to nothing": _link("nowhere/x"), "a folder": _folder,
    "an empty file": lambda tmp, p: p.write_bytes(b""), "nothing": _nothing}
READERS = [("validate", "{input}"), ("convert", "{input}", "-", "--to", "json"), ("stats", "{input}"),
           ("show", "{input}"), ("render", "{input}", "-o", "x.svg", "--force"), ("problems", "{input}", "-o", "set"),
           ("convert", "{input}", "out.mat", "--force")]


@FEW
@given(st.sampled_from(sorted(INPUTS)), st.sampled_from(NAMES), st.sampled_from(READERS))
def test_inputs(kind: str, name: str, command: tuple[str, ...]) -> None:
    """Every command that reads a file, given a name that is not UTF-8 or holds control characters, a link in
    a loop or to nothing, a folder, an empty file or nothing: it reads it or refuses in one line."""
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        path = tmp / f"{name}.sgf"
        INPUTS[kind](tmp, path)
        clean(*(a.format(input=f"./{path.name}") for a in command), cwd=tmp)


def test_the_checks_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """:func:`clean` sees an internal error (exit 70), and :func:`reads_or_refuses` an error that is not a
    NotationError."""
    from notation import batch

    def broken(*_: Any, **__: Any) -> Any:
        raise IndexError("list index out of range")

    monkeypatch.setattr(batch, "_findings", broken)
    with pytest.raises(AssertionError):
        clean("validate", DATA / "mat_gnubg_selfplay_1p.mat")
    monkeypatch.setattr("notation.matchio.detect_format", broken)
    with pytest.raises(IndexError):
        reads_or_refuses(b"x", "x.mat")
