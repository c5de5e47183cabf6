"""OGXM from the command line: validate (a file, a stream, a damaged file), convert to and from it (one
file, a stream of several), the OGID in show, moves and render, and the dataset's ogid column."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from conftest import gammon_in_process

from notation.formats.ogxm import read_ogxm
from notation.matchio import read_match

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
CHARLOT = DATA / "mat_gnubg_charlot_7p.mat"
OGID = "11ccccchhhjjjjj:66666888dddddoo:N0N:46:W:IB:0:0:7:0"


def gammon(*args: str | Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """The command, run in this process (its exit statuses and streams as a process gives them)."""
    return gammon_in_process(*args, input=stdin, cwd=ROOT)


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


def test_a_stream_is_a_batch(tmp_path: Path) -> None:
    """A stream of several matches into a one-match format: into one file it is refused (exit 2, nothing
    written, --strict or not: it wrote the first match, said 'converting the first' and exited 0); into a
    directory each match is a file of its own (NAME.EXT, NAME.2.EXT ...), read back as that match; into
    another stream it is whole."""
    stream = tmp_path / "all.ogxms"
    inputs = [CHARLOT, DATA / "mat_gnubg_selfplay_3p.mat", DATA / "mat_gnubg_selfplay_1p.mat"]
    assert gammon("convert", "-q", "--to", "ogxms", *inputs, stream).returncode == 0
    members = read_ogxm(stream.read_bytes())
    for args in (["--strict"], [], ["--to", "ogxm"]):
        for target in (tmp_path / "one.json", tmp_path / "one.ogxm", tmp_path / "one.mat"):
            r = gammon("convert", *args, stream, target)
            assert r.returncode == 2, (args, target, r.stderr)
            assert not target.exists()
            assert f"{stream}: holds 3 matches, and {target} one: not converted" in r.stderr.decode()
    r = gammon("convert", "--to", "json", stream, "-")
    assert r.returncode == 2 and not r.stdout and b"standard output one" in r.stderr
    out = tmp_path / "out"
    out.mkdir()
    for fmt in ("json", "ogxm", "mat"):
        r = gammon("convert", "-q", "--to", fmt, stream, out)
        assert r.returncode == 0, r.stderr
        names = [f"all.{fmt}", f"all.2.{fmt}", f"all.3.{fmt}"]
        assert sorted(p.name for p in out.glob(f"*.{fmt}")) == sorted(names)
        for name, m in zip(names, members, strict=True):
            back = read_match(out / name)
            assert back.names == m.names and len(back.games) == len(m.games), name
    r = gammon("convert", "-q", "--to", "json", stream, out)  # (each is checked before any is written)
    assert r.returncode == 2 and b"exists" in r.stderr
    r = gammon("convert", "-q", "--to", "ogxms", stream, tmp_path / "again.ogxms")
    assert r.returncode == 0 and len(read_ogxm((tmp_path / "again.ogxms").read_bytes())) == 3


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


def test_show_keeps_an_ogids_move_number() -> None:
    """An OGID's move number (its 10th field, plays made in the game) is shown as read: it came back as 0,
    and the state it gives (``R``, not ``IB`` at move 0 on the opening board) with it."""
    played = "11ccccchhhjjjjj:66666888dddddoo:N0N:46:W:R:0:0:7:15"
    r = gammon("show", played)
    assert r.returncode == 0 and f"OGID:        {played}".encode() in r.stdout, r.stdout
    assert b"OGID:" not in r.stdout.split(b"Not held:")[-1]


def test_the_dataset_has_an_ogid_column(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "ds"
    r = gammon("convert", "--to", "parquet", CHARLOT, out)
    assert r.returncode == 0, r.stderr
    table = pq.read_table(str(out))
    ogids = table.column("ogid").to_pylist()
    assert ogids[0] == "11ccccchhhjjjjj:66666888dddddoo:N0N:14:W:IB:0:0:7:0"  # charlot2 (Black) opens with 41
    assert all(o is not None for o in ogids)
