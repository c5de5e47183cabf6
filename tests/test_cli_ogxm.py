"""OGXM from the command line: validate (a file, a stream, a damaged file), convert to and from it (one
file, a stream of several), the OGID in show, moves and render, and the dataset's ogid column."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from notation.formats.ogxm import read_ogxm

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
CHARLOT = DATA / "mat_gnubg_charlot_7p.mat"
OGID = "11ccccchhhjjjjj:66666888dddddoo:N0N:46:W:IB:0:0:7:0"


def gammon(*args: str | Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "notation", *map(str, args)], input=stdin, capture_output=True,
                          timeout=300, cwd=ROOT)


def test_convert_to_ogxm_and_back(tmp_path: Path) -> None:
    out = tmp_path / "c.ogxm"
    r = gammon("convert", CHARLOT, out)
    assert r.returncode == 0, r.stderr
    assert out.read_bytes()[:6] == b"OGXM\x02\x00"
    r = gammon("validate", out)
    assert r.returncode == 0 and b"4 games, 189 plays, 0 errors" in r.stdout
    js = tmp_path / "c.json"
    assert gammon("convert", out, js).returncode == 0
    again = tmp_path / "again.ogxm"
    assert gammon("convert", js, again).returncode == 0
    assert again.read_bytes() == out.read_bytes()
    piped = gammon("convert", out, "-", "--to", "ogxm")
    assert piped.returncode == 0 and piped.stdout == out.read_bytes()


def test_a_lossy_conversion_says_what_it_drops_and_strict_refuses(tmp_path: Path) -> None:
    src = tmp_path / "limit.mat"
    src.write_text(CHARLOT.read_text().replace("; [EventDate", '; [CubeLimit "3"]\n; [EventDate'), encoding="utf-8")
    from notation.matchio import read_match

    if read_match(src).rules.cube_limit != 3:
        pytest.skip("the .mat reader does not read CubeLimit as the cube limit")
    r = gammon("convert", src, tmp_path / "l.ogxm")
    assert r.returncode == 0 and b"dropped: the cube limit 3" in r.stderr
    r = gammon("convert", "--strict", src, tmp_path / "l2.ogxm")
    assert r.returncode == 1 and not (tmp_path / "l2.ogxm").exists()


def test_several_inputs_make_one_stream(tmp_path: Path) -> None:
    out = tmp_path / "all.ogxms"
    inputs = [CHARLOT, DATA / "mat_gnubg_selfplay_3p.mat", DATA / "mat_gnubg_selfplay_1p.mat"]
    r = gammon("convert", "--to", "ogxms", *inputs, out)
    assert r.returncode == 0, r.stderr
    assert len(read_ogxm(out.read_bytes())) == 3
    r = gammon("validate", out)
    assert r.returncode == 0
    cut = tmp_path / "cut.ogxms"
    cut.write_bytes(out.read_bytes()[:-20])
    r = gammon("validate", cut)
    lines = r.stdout.decode().splitlines()
    assert r.returncode == 2
    assert re.fullmatch(rf"{re.escape(str(cut))}: error: stream member 3 is truncated: .*\(byte \d+\)", lines[-2])
    assert "games" in lines[-1]  # the two complete members were validated


def test_a_damaged_file_is_one_line_with_its_offset_and_exit_2(tmp_path: Path) -> None:
    good = tmp_path / "good.ogxm"
    assert gammon("convert", CHARLOT, good).returncode == 0
    data = bytearray(good.read_bytes())
    data[100] ^= 0x40
    bad = tmp_path / "bad.ogxm"
    bad.write_bytes(bytes(data))
    r = gammon("validate", bad)
    assert r.returncode == 2 and b"Traceback" not in r.stderr
    errors = [line for line in r.stdout.decode().splitlines() if ": error: " in line]
    assert len(errors) == 1 and re.search(r"bad checksum: .*\(byte \d+\)$", errors[0])
    r = gammon("convert", bad, tmp_path / "x.json")
    assert r.returncode == 2 and re.search(rb"bad checksum.*\(byte \d+\)", r.stderr)
    assert not (tmp_path / "x.json").exists()


def test_show_moves_and_render_read_an_ogid(tmp_path: Path) -> None:
    r = gammon("show", OGID)
    assert r.returncode == 0 and b"Format:      OGID (OGXM)" in r.stdout and f"OGID:        {OGID}".encode() in r.stdout
    r = gammon("show", "XGID=-b----E-C---eE---c-e----B-:0:0:1:64:0:0:0:7:10")
    assert f"OGID:        {OGID}".encode() in r.stdout
    r = gammon("moves", OGID)
    assert r.returncode == 0 and b"Roll 46: 14 legal plays" in r.stdout
    svg = tmp_path / "p.svg"
    r = gammon("render", OGID, "-o", svg)
    assert r.returncode == 0 and b"<svg" in svg.read_bytes()[:200]


def test_the_dataset_has_an_ogid_column(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "ds"
    r = gammon("convert", "--to", "parquet", CHARLOT, out)
    assert r.returncode == 0, r.stderr
    table = pq.read_table(str(out))
    ogids = table.column("ogid").to_pylist()
    assert ogids[0] == "11ccccchhhjjjjj:66666888dddddoo:N0N:14:W:IB:0:0:7:0"  # charlot2 (Black) opens with 41
    assert all(o is not None for o in ogids)
