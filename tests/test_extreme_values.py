"""Extreme values in every field of every format (issue 26, item 8).

Each property takes a real record, puts an extreme value into one of its fields, and sends the result
through what the commands do with a file: ``validate`` (:func:`notation.batch.validate_file`),
``convert`` to every target (:func:`notation.batch.convert_file`, the web page included) and the
Parquet rows (:func:`notation.batch.decision_rows`).  Each may refuse the file, with a message that
says where; none may meet an internal error, write a message or quote longer than the bounds
(``errors.MESSAGE_MAX``, ``errors.TEXT_MAX``), or make a row that its column cannot hold.

Fields: every value of a JSON document (numbers, strings, lists and objects, in matches, positions,
analyses and chouettes); every SGF property value; every token of a ``.mat`` transcript; every field
of an ID and of an XG or BGBlitz text export; every field the ``.xg`` reader decodes from a record
(integers, bytes, floating point numbers and strings at their offsets).  Values: zero, negative, just
past a bound, 2^31, 2^63, 10^30, 5,000 digits, NaN and the infinities, empty and 20,000-character
texts, control and escape characters, U+FFFE, a lone surrogate, the format's own delimiters.
"""

from __future__ import annotations

import json
import re
import struct
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from notation.batch import DATASET_COLUMNS, convert_file, decision_rows, validate_file
from notation.errors import MESSAGE_MAX, TEXT_MAX, NotationError
from notation.formats.json_format import to_json
from notation.matchio import parse_any, read_any

ROOT = Path(__file__).resolve().parents[1]

INTS = ["0", "-1", "1", "7", "16", "26", "99", "255", "256", "999999999", "1000000000", "2147483647", "2147483648",
        "-2147483649", "4294967296", "9223372036854775808", "1" + "0" * 30, "9" * 5000, "-" + "9" * 40]
TEXTS = ["", " ", "\x00", "\x07", "\x1b[31m", "\x1b]0;title\x07", "\x1b]52;c;QUFB\x07", "\ufffe", "\u202e",
         "x" * 20_000, "\u4e00" * 3000, "]", "\\", ")", "(;", ";", "\r", "\n\n", ":", "'", '"', "<script>", "&amp;",
         "\r\n" * 50]
SLOW = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                       HealthCheck.data_too_large])

_INT_RANGES = {"int8": (-(1 << 7), (1 << 7) - 1), "int32": (-(1 << 31), (1 << 31) - 1)}


def _page(match: Any, rep: Any, *, written: Any = None) -> str:
    from render.html import match_page

    return match_page(match, rep, written=written)


def check_file(data: bytes, suffix: str) -> None:
    """Every command's reading of ``data`` (a file named ``*suffix``): refused or read, never an
    internal error; every message and quote within its bound; every row within its columns."""
    with tempfile.TemporaryDirectory() as d:
        path = str(Path(d) / f"extreme{suffix}")
        Path(path).write_bytes(data)
        said: list[str] = []
        res = validate_file(path)
        for f in res["findings"]:
            said.append(f["message"])
            assert len(f["message"]) <= MESSAGE_MAX, f["message"][:300]
            for key in ("text", "player", "roll"):
                assert len(f.get(key) or "") <= TEXT_MAX, (key, f[key][:300])
        for fmt in ("mat", "sgf", "json", "txt", "html"):
            out = convert_file(path, "-", fmt, page=_page if fmt == "html" else None)
            said += out["messages"]
            for m in out["messages"]:
                assert len(m) <= MESSAGE_MAX + len(path) + 40, m[:300]
            if res["unreadable"]:
                assert out["status"] == 2
            elif out["status"] == 0 and fmt in ("mat", "sgf", "json"):  # a writer writes what its reader reads
                # (.mat: a play that is no play, ':' say, is written as the dice alone and reported)
                try:
                    parse_any(out["text"], name=f"written.{fmt}")
                except NotationError as e:
                    raise AssertionError(f"the {fmt} writer wrote what its reader refuses: {e}") from None
        rows = decision_rows(path)
        said.append(rows["error"] or "")
        for name, kind in DATASET_COLUMNS:
            if kind in _INT_RANGES:
                lo, hi = _INT_RANGES[kind]
                bad = [v for v in rows["columns"][name] if v is not None and not lo <= v <= hi]
                assert not bad, (name, bad[:3])
        for m in said:
            assert "internal error" not in m, m[:600]


# ---------------------------------------------------------------------------------------------- JSON

def _json_seeds() -> list[dict[str, Any]]:
    seeds = []
    for name in ("sgf_gnubg_setup.sgf", "sgf_gnubg_beaver.sgf", "mat_xg_dialect.txt"):
        m = read_any(DATA / name)[0]
        m.games = m.games[:2]
        seeds.append(json.loads(to_json(m)))
    analysed = read_any(DATA / "sgf_gnubg_analysed.sgf")[0]
    analysed.games = analysed.games[:1]
    analysed.games[0].actions = analysed.games[0].actions[:12]
    seeds.append(json.loads(to_json(analysed)))
    xg = read_any(DATA / "xg_ronde3.xg")[0]
    xg.games = xg.games[:1]
    seeds.append(json.loads(to_json(xg)))
    chouette = json.loads((ROOT / "samples" / "chouette_4players.json").read_text(encoding="utf-8"))
    chouette["chouette"]["games"] = chouette["chouette"]["games"][:2]
    seeds.append(chouette)
    return seeds


JSON_SEEDS = _json_seeds()


def _paths(x: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if path:
        yield path
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, (*path, k))
    elif isinstance(x, list):
        for i, v in enumerate(x[:3]):
            yield from _paths(v, (*path, i))


JSON_PATHS = [(i, p) for i, seed in enumerate(JSON_SEEDS) for p in _paths(seed)]
JSON_VALUES = ([*INTS, "1e308", "-1e400", "1e400", "NaN", "Infinity", "-Infinity", "1.5", "-0.0", "true", "null",
                "[]", "{}", "[1e20, 1]", "[7, 0]", "[-1, -2]", "[[]]", '"\\ud800"', "[" + "1," * 30 + "1]"]
               + [json.dumps(t, ensure_ascii=False) for t in TEXTS])
_HOLE = "@@extreme@@"


@SLOW
@given(st.sampled_from(JSON_PATHS), st.sampled_from(JSON_VALUES))
def test_json_fields(where: tuple[int, tuple[Any, ...]], value: str) -> None:
    seed, path = where
    doc = json.loads(json.dumps(JSON_SEEDS[seed]))
    node = doc
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = _HOLE
    check_file(json.dumps(doc, ensure_ascii=False).replace(f'"{_HOLE}"', value).encode("utf-8", "surrogatepass"),
               ".json")


# ---------------------------------------------------------------------------------------------- SGF

SGF_SEEDS = [(DATA / n).read_text(encoding="utf-8") for n in ("sgf_gnubg_setup.sgf", "sgf_gnubg_resign.sgf",
                                                               "sgf_gnubg_beaver.sgf", "sgf_gibbon_7point.sgf")]
# the gibbon match's first three game trees (a drop, a take, a redouble, rolls not played): its nine games'
# match page took 1.4 s an example, the other seeds' 0.03-0.08 s
SGF_SEEDS[3] = "(;".join(SGF_SEEDS[3].split("(;")[:4])
_analysed = (DATA / "sgf_gnubg_analysed.sgf").read_text(encoding="utf-8")
SGF_SEEDS.append(_analysed[:_analysed.index(";B[", 6000)] + ")")  # the first plays, with their analysis
_PROP = re.compile(r"([A-Z]{1,2})((?:\[(?:[^\]\\]|\\.)*\])+)", re.S)
SGF_PROPS = [(i, m.start(2), m.end(2), m.group(1)) for i, s in enumerate(SGF_SEEDS) for m in _PROP.finditer(s)]
SGF_VALUES = [*INTS, *TEXTS, "B+" + "9" * 5000, "W+9999999999R", "B+3R", "99", "00", "77", "zz", "52zzzz",
              "length:" + "9" * 30, "length:-5", "game:" + "9" * 5000, "ws:-1", "bs:" + "9" * 20, "a:y", "y:a",
              "a:" + "y" * 50,
              "double", "take", "drop", "resign:" + "9" * 40, "Crawford:CrawfordGame", "M:" + " 9" * 40,
              "0:" + "9" * 30, "1:1 2 3 4 5", "\\]", "\\\\", "xx" * 10_000]


@SLOW
@given(st.sampled_from(SGF_PROPS), st.sampled_from(SGF_VALUES), st.integers(1, 3))
def test_sgf_property_values(where: tuple[int, int, int, str], value: str, copies: int) -> None:
    seed, start, end, _ = where
    text = SGF_SEEDS[seed]
    escaped = value.replace("\\", "\\\\").replace("]", "\\]") if value not in ("\\]", "\\\\") else value
    check_file((text[:start] + f"[{escaped}]" * copies + text[end:]).encode("utf-8", "surrogatepass"), ".sgf")


@SLOW
@given(st.sampled_from(range(len(SGF_SEEDS))), st.sampled_from(["AW", "AB", "AE", "PL", "CV", "CP", "DI", "MI", "RE",
                                                                "B", "W", "GS", "A", "DA", "LU", "C", "RU", "GM", "FF",
                                                                "CA", "SZ"]),
       st.sampled_from(SGF_VALUES), st.integers(0, 400))
def test_sgf_properties_added_to_a_node(seed: int, prop: str, value: str, at: int) -> None:
    text = SGF_SEEDS[seed]
    nodes = [m.end() for m in re.finditer(r";", text)]
    i = nodes[at % len(nodes)]
    escaped = value.replace("\\", "\\\\").replace("]", "\\]")
    check_file((text[:i] + f"{prop}[{escaped}]" + text[i:]).encode("utf-8", "surrogatepass"), ".sgf")


# ---------------------------------------------------------------------------------------------- .mat

MAT_SEEDS = [(DATA / n).read_text(encoding="utf-8", errors="replace")
             for n in ("mat_gnubg_selfplay_1p.mat", "sgf_gnubg_beaver.mat", "mat_xg_dialect.txt",
                       "mat_snowie_setup.txt", "mat_multi_money.mat", "mat_galaxy_dialect.txt")]
_TOKEN = re.compile(r"\d+|[A-Za-z]+|[^\s\w]+")
MAT_TOKENS = [(i, m.start(), m.end()) for i, s in enumerate(MAT_SEEDS) for m in _TOKEN.finditer(s[:3000])]
MAT_VALUES = [*INTS, *(t for t in TEXTS if "\n" not in t), "99:", "00:", "Doubles => " + "9" * 40, "Wins " + "9" * 40,
              "bar/off", "25/" + "9" * 30, "13/8(" + "9" * 30 + ")", "13/8*" * 200, "Takes", "Drops", "Beavers => 0"]


@SLOW
@given(st.sampled_from(MAT_TOKENS), st.sampled_from(MAT_VALUES))
def test_mat_tokens(where: tuple[int, int, int], value: str) -> None:
    seed, start, end = where
    text = MAT_SEEDS[seed]
    check_file((text[:start] + value + text[end:]).encode("utf-8", "surrogatepass"), ".mat")


# ---------------------------------------------------------------------------------------------- .xg

SMALL_XG = (DATA / "xg_ronde3.xg").read_bytes()
# (record kind, offset, struct format) of every field the reader decodes
XG_FIELDS = ([(0, o, "<i") for o in (92, 96)] + [(0, o, "<b") for o in (100, 101, 102)] + [(0, 128, "<d")]
             + [(0, o, "utf16") for o in (880, 1138, 622, 1396)] + [(0, o, "ansi") for o in (9, 50, 136)]
             + [(1, o, "<i") for o in (12, 16, 48)] + [(1, 20, "<b")]
             + [(2, o, "<i") for o in (12, 16, 20, 32, 92)] + [(2, o, "<b") for o in range(36, 62, 5)]
             + [(2, o, "<f") for o in (124, 152, 156, 160, 152 + 8)]
             + [(3, o, "<b") for o in (9, 21, 34, 35, 48, 1024, 1031, 192)]
             + [(3, o, "<i") for o in (64, 68, 72, 100, 104, 108, 120, 2480)]
             + [(3, o, "<h") for o in (1280, 1282)] + [(3, o, "<f") for o in (1408, 1412, 1432)] + [(3, 2320, "<d")]
             + [(4, o, "<i") for o in (24, 28, 32)])
XG_INTS = [0, -1, 1, 2, 7, 26, 100, 103, 999, 1000, 99999, 1 << 16, (1 << 31) - 1, -(1 << 31)]
XG_FLOATS = [float("nan"), float("inf"), float("-inf"), 1e38, -1e38, 1e308, -1000.0, 0.0]


def _two_games() -> list[bytes]:
    """The records of :data:`SMALL_XG` cut after its second game (and those after its last): every kind
    of record, in half the match (a match page of all four games takes a second an example)."""
    from xg_container import records

    recs = records(SMALL_XG)
    ends = [i for i, r in enumerate(recs) if r[8] == 4]
    return recs[:ends[1] + 1] + recs[ends[-1] + 1:]


def _xg_with(kind: int, offset: int, fmt: str, choice: int) -> bytes:
    from xg_container import container

    recs = [bytearray(r) for r in _two_games()]
    at = [i for i, r in enumerate(recs) if r[8] == kind]
    rec = recs[at[choice % len(at)]]
    if fmt in ("<i", "<h", "<b"):
        bits = {"<i": 32, "<h": 16, "<b": 8}[fmt]
        v = XG_INTS[choice % len(XG_INTS)]
        v = (v + (1 << (bits - 1))) % (1 << bits) - (1 << (bits - 1))
        struct.pack_into(fmt, rec, offset, v)
    elif fmt in ("<f", "<d"):
        v = XG_FLOATS[choice % len(XG_FLOATS)]
        struct.pack_into(fmt, rec, offset, max(-3.4e38, min(3.4e38, v)) if fmt == "<f" and v == v else v)
    elif fmt == "utf16":
        units = [0xD800, 0x1B, 0x07, 0xFFFE, 0x4E00, 0x41][choice % 6]
        struct.pack_into("<129H", rec, offset, *([units] * 128 + [0]))
    else:
        rec[offset] = 255
        rec[offset + 1:offset + 41] = b"\x1b]0;x\x07" * 6 + b"\xff" * 4
    return container(b"".join(recs))


@SLOW
@given(st.sampled_from(XG_FIELDS), st.integers(0, 1000))
@example((1, 12, "<i"), 124)  # a game's score of 2^31 - 1: .mat and JSON that our own readers refuse
@example((1, 48, "<i"), 124)  # a game's number of 2^31 - 1: the same
def test_xg_record_fields(field: tuple[int, int, str], choice: int) -> None:
    check_file(_xg_with(*field, choice), ".xg")


# ---------------------------------------------------------------------------------------------- positions

POSITION_SEEDS = ["XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10",
                  "XGID=aBB--BC-----------cbbc-bA:1:-1:-1:00:4:2:0:7:10",
                  "4HPwATDgc/ABMA:cIkWAAAAAAAA",
                  "board:You:Them:7:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25"
                  ":0:0:0:0:2:0:0:0",
                  "7;0;0;0;1;;;0;0;0;1;0;0;-2;0;0;0;0;5;0;3;0;0;0;-5;5;0;0;0;-3;0;-5;0;0;0;0;2;0;5;2;"]
POSITION_SEEDS += [p.read_text(encoding="utf-8") for p in sorted((DATA / "exports").glob("*.txt"))]
_FIELD = re.compile(r"[^:;=\s/]+")
POSITION_FIELDS = [(i, m.start(), m.end()) for i, s in enumerate(POSITION_SEEDS) for m in _FIELD.finditer(s[:4000])]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(POSITION_FIELDS), st.sampled_from([*INTS, *TEXTS, "-" * 30, "ZZZZZZZZZZZZZZ", "A" * 26, "p" * 26,
                                                          "1.#INF", "-1e308", "NaN"]))
def test_position_fields(where: tuple[int, int, int], value: str) -> None:
    from notation.ids import all_ids, ascii_board
    from notation.positionio import parse_position_text

    seed, start, end = where
    text = POSITION_SEEDS[seed]
    text = text[:start] + value + text[end:]
    try:
        rec = parse_position_text(text, name="extreme")
    except NotationError as e:
        assert len(e.message) <= MESSAGE_MAX and len(e.text or "") <= TEXT_MAX
        return
    pos = rec.position
    all_ids(pos)  # what show prints: every ID of it (None where one cannot hold it), the board, the pips
    ascii_board(pos)
    pos.pip_counts  # noqa: B018
    if pos.dice is not None and pos.is_valid():  # what moves lists
        pos.rules.legal_plays(pos, pos.dice)


def test_the_checks_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """:func:`check_file` sees an internal error, and a message past its bound."""
    from notation import batch

    data = (DATA / "sgf_gnubg_resign.sgf").read_bytes()
    check_file(data, ".sgf")

    def broken(match: Any) -> Any:
        raise IndexError("list index out of range")

    with monkeypatch.context() as m:
        m.setattr(batch, "_findings", broken)
        with pytest.raises(AssertionError, match="internal error"):
            check_file(data, ".sgf")
    from notation import errors

    with monkeypatch.context() as m:
        m.setattr(errors, "cut_quotes", lambda s: s + "x" * MESSAGE_MAX)
        with pytest.raises(AssertionError):
            check_file(data.replace(b"RE[", b"XX[x][", 1), ".sgf")
