"""Analysis figures in range (issue 38): a JSON record's equity of ``1e300`` and probability of ``-1`` were
accepted, and the equity written to OGXM as 39452.1 and called "rounded".  One check
(:func:`notation.analysis.drop_out_of_range`, through
:func:`notation.record.bound_text`, which every reader's matches go through) drops each figure out of
range with a warning where its action is."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import DATA

from notation.analysis import EQUITY_BOUND, Analysis
from notation.batch import convert_file, validate_file
from notation.matchio import parse_any, read_any
from notation.record import Match


def figures(m: Match) -> Iterator[float]:
    """Every equity, luck and probability of ``m``'s analysis."""
    for g in m.games:
        for a in g.actions:
            an: Analysis | None = a.analysis
            if an is None:
                continue
            yield from (v for v in (an.luck,) if v is not None)
            for c in an.checker.candidates if an.checker else ():
                yield from (v for v in (c.equity, c.cubeless_equity) if v is not None)
                if c.probabilities is not None:
                    yield from (c.probabilities.win, c.probabilities.lose_gammon)
            if an.cube is not None:
                yield from (v for v in (an.cube.no_double, an.cube.double_take, an.cube.double_pass) if v is not None)


def in_range(m: Match) -> bool:
    return all(math.isfinite(v) and abs(v) <= EQUITY_BOUND for v in figures(m))


@pytest.fixture(scope="module")
def damaged_json(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from notation.formats.json_format import to_json

    (m,) = read_any(DATA / "sgf_gnubg_analysed.sgf")
    d = json.loads(to_json(m))
    for g in d["match"]["games"]:
        for a in g["actions"]:
            c = (a.get("analysis") or {}).get("checker")
            if c and c["candidates"][0].get("probabilities"):
                c["candidates"][0]["equity"] = 1e300
                c["candidates"][0]["probabilities"]["win"] = -1
                p = tmp_path_factory.mktemp("ranges") / "bad.json"
                p.write_text(json.dumps(d), encoding="utf-8")
                return p
    raise AssertionError("no analysed play")


def test_json_figures_out_of_range_are_dropped_and_said_where(damaged_json: Path) -> None:
    (m,) = parse_any(damaged_json.read_bytes(), name="bad.json")
    assert in_range(m)
    (note,) = [n for n in m.normalisations if "out of range" in n.message]
    assert note.severity == "warning" and note.line is not None
    assert "1e+300" in note.message and "-1/" in note.message
    out = validate_file(str(damaged_json))
    assert out["warnings"] >= 1 and any("out of range" in f["message"] for f in out["findings"])


def test_an_out_of_range_equity_is_not_written_to_ogxm_as_rounded(damaged_json: Path, tmp_path: Path) -> None:
    out = convert_file(str(damaged_json), str(tmp_path / "o.ogxm"), "ogxm")
    assert out["status"] == 0, out
    assert any("out of range" in line for line in out["messages"])
    (back,) = read_any(tmp_path / "o.ogxm")
    assert in_range(back)
    assert not any(f"{v:.1f}" == "39452.1" for v in figures(back))


def test_the_check_can_fail() -> None:
    """Figures in range are kept as they are (the same analysis, nothing said)."""
    (m,) = read_any(DATA / "sgf_gnubg_analysed.sgf")
    assert in_range(m) and sum(1 for _ in figures(m)) > 100
    assert not any("out of range" in n.message for n in m.normalisations)


# ------------------------------------------------------------------------------------------ gnubg's SGF

_GOOD_A = "0.498554 0.136997 0.007681 0.141456 0.006642 -0.009329"


@pytest.fixture(scope="module")
def damaged_sgf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """gnubg's analysed match with, in its first ranked play, a win chance of -1 and an equity of 999, and the
    luck 99.5 (gnubg writes six decimals: a figure its pattern reads), and a comment of 300,000 characters."""
    text = (DATA / "sgf_gnubg_analysed.sgf").read_text(encoding="utf-8")
    assert text.count(_GOOD_A) == 1 and text.count("LU[-0.00933]") == 1
    text = text.replace(_GOOD_A, "-1.000000 0.136997 0.007681 0.141456 0.006642 999.000000")
    text = text.replace("LU[-0.00933]", "LU[99.5]C[" + "x" * 300_000 + "]", 1)
    p = tmp_path_factory.mktemp("ranges") / "bad.sgf"
    p.write_text(text, encoding="utf-8")
    return p


def test_sgf_figures_out_of_range_are_dropped_and_said_where(damaged_sgf: Path) -> None:
    (m,) = read_any(damaged_sgf)
    assert in_range(m)
    (note,) = [n for n in m.normalisations if "out of range" in n.message]
    assert note.severity == "warning" and note.line == 2
    assert "999" in note.message and "-1/" in note.message and "the luck 99.5" in note.message


def test_validate_of_an_sgf_cuts_and_checks_as_reading_it_whole(damaged_sgf: Path) -> None:
    """``validate`` reads an SGF one game at a time (iter_sgf): it said neither the cut of a long comment nor
    the figures out of range that reading the file whole (convert) said."""
    out = validate_file(str(damaged_sgf))
    said = [f["message"] for f in out["findings"]]
    assert any("out of range" in s and "the luck 99.5" in s for s in said), said
    assert any("300,000 characters" in s and "cut to its first 262,144" in s for s in said), said
    (m,) = read_any(damaged_sgf)
    assert sorted(f"reading: {n.message}" for n in m.normalisations) == sorted(
        s for s in said if s.startswith("reading: "))


@pytest.mark.parametrize("fmt", ["json", "mat", "sgf"])
def test_a_streamed_sgf_conversion_says_the_figures_it_drops(damaged_sgf: Path, tmp_path: Path, fmt: str) -> None:
    """The conversion one game at a time (notation.stream) dropped them and said nothing; it says what the
    whole conversion says, and ``--strict`` refuses as it does."""
    for strict in (False, True):
        whole = convert_file(str(damaged_sgf), str(tmp_path / f"w.{fmt}"), fmt, stream=False, strict=strict,
                             force=True)
        streamed = convert_file(str(damaged_sgf), str(tmp_path / f"s.{fmt}"), fmt, stream=True, strict=strict,
                                force=True)
        assert streamed["messages"] == whole["messages"] and streamed["status"] == whole["status"]
        assert any("out of range" in s for s in streamed["messages"])
        assert whole["status"] == (1 if strict else 0)
    assert (tmp_path / f"s.{fmt}").read_bytes() == (tmp_path / f"w.{fmt}").read_bytes()


# ------------------------------------------------------------------------------------------ eXtreme Gammon

def _xg_damaged() -> tuple[bytes, int]:
    """The real ``.xg`` of tests/data with, in its first analysed move record, a first candidate's equity of
    float's largest (3.4e38) and win chance of -1 and a luck of 1e300, and in its first analysed cube record
    a double/take equity of NaN; and the index of that move record."""
    import struct

    from xg_container import container, records

    from notation.formats.xg import _CUBE_ANALYSED, _MOVE_LUCK, CUBE, MOVE

    recs = [bytearray(r) for r in records((DATA / "xg_ronde3.xg").read_bytes())]
    move = next(i for i, r in enumerate(recs) if r[8] == MOVE and struct.unpack_from("<i", r, 120)[0] > 1)
    struct.pack_into("<f", recs[move], 1408 + 6 * 4, 3.4e38)
    struct.pack_into("<f", recs[move], 1408 + 3 * 4, -1.0)
    struct.pack_into("<d", recs[move], _MOVE_LUCK, 1e300)
    cube = next(i for i, r in enumerate(recs) if r[8] == CUBE and struct.unpack_from("<i", r, _CUBE_ANALYSED)[0] >= 0)
    struct.pack_into("<f", recs[cube], 156, float("nan"))
    return container(b"".join(recs)), move


def test_xg_figures_out_of_range_are_dropped_and_said(tmp_path: Path) -> None:
    """.xg's reader kept some such figures silently (a probability out of 0..1 made the candidate's chances
    None, an equity beyond 100 the whole cube decision None) and others not at all (an equity of 3.4e38, in its
    ranked plays decoded when first used, which the range check does not decode)."""
    data, _ = _xg_damaged()
    (m,) = parse_any(data, name="bad.xg")
    assert in_range(m)
    notes = [n for n in m.normalisations if "out of range" in n.message]
    assert len(notes) == 2 and all(n.severity == "warning" and n.line is not None for n in notes), notes
    said = " ".join(n.message for n in notes)
    assert "3.4e+38" in said and "the luck 1e+300" in said and "-1/" in said and "nan" in said
    p = tmp_path / "bad.xg"
    p.write_bytes(data)
    out = validate_file(str(p))
    assert sum("out of range" in f["message"] for f in out["findings"]) == 2
    conv = convert_file(str(p), str(tmp_path / "o.ogxm"), "ogxm")
    assert conv["status"] == 0 and any("out of range" in s for s in conv["messages"])
    (back,) = read_any(tmp_path / "o.ogxm")
    assert in_range(back)


def test_xgp_figures_out_of_range_are_dropped_and_said() -> None:
    from xg_container import xgp_from_xg

    from notation.formats.xg import read_xgp

    data, move = _xg_damaged()
    rec = read_xgp(xgp_from_xg(data, move), "bad.xgp")
    (note,) = [n for n in rec.normalisations if "out of range" in n.message]
    assert "3.4e+38" in note.message and rec.analysis is not None and rec.analysis.luck is None


def test_xg_figures_in_range_are_kept_and_nothing_said() -> None:
    (m,) = read_any(DATA / "xg_ronde3.xg")
    assert in_range(m) and sum(1 for _ in figures(m)) > 1000
    assert not any("out of range" in n.message for n in m.normalisations)


def test_xg_stored_errors_out_of_range_are_dropped_and_said() -> None:
    """XG's own error of a play (``ErrMove``) of 50 was kept (the reader dropped only those beyond 100, silently)
    and counted by the statistics; one beyond ±6 is dropped and said, as every figure out of range."""
    import struct

    from xg_container import container, records

    from notation.formats.xg import _MOVE_ERROR, MOVE

    recs = [bytearray(r) for r in records((DATA / "xg_ronde3.xg").read_bytes())]
    move = next(i for i, r in enumerate(recs) if r[8] == MOVE and struct.unpack_from("<i", r, 120)[0] > 1)
    struct.pack_into("<d", recs[move], _MOVE_ERROR, -50.0)
    (m,) = parse_any(container(b"".join(recs)), name="bad.xg")
    (note,) = [n for n in m.normalisations if "stored errors out of range" in n.message]
    assert note.severity == "warning" and note.line == move + 1 and "xg:err_move -50" in note.message
    errors = [float(a.analysis.extra["xg:err_move"]) for g in m.games for a in g.actions
              if a.analysis is not None and "xg:err_move" in a.analysis.extra]
    assert errors and all(abs(e) <= 6 for e in errors)
