"""Every input has a bound, and a walk opens only files (issue 26, items 1 and 4).

A file, standard input, a device and a FIFO are each read within a size bound: past it the reading
stops with one line naming the input (``/dev/zero`` and ``yes XGID... | gammon show -`` no longer take
all the memory).  A FIFO named on the command line is read as a stream, waiting for its writer; a FIFO
or a device found by walking a directory or by a pattern is never opened, it is listed as skipped.  A
file whose extension or content says it is a record is always read and reported, however damaged.

The commands that could grow without end before are run in a child with an address-space limit and a
timeout, so that a regression fails the test instead of taking the machine's memory.
"""

from __future__ import annotations

import io
import json
import os
import resource
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from notation._input import MAX_POSITION_BYTES, MAX_RECORD_BYTES, read_bytes, read_stream
from notation.batch import validate_file
from notation.errors import InputTooLargeError
from notation.matchio import find_inputs, read_any

ROOT = Path(__file__).resolve().parents[1]
CLEAN = ROOT / "tests" / "data" / "gnubg_7p_crawford.mat"
XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"
MEMORY = 1 << 30
"""The address space a command run here may take (the bounds keep each far below it)."""


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def gammon(*args: str, cwd: Path = ROOT, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "notation", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120, preexec_fn=_limited, **kw)  # type: ignore[call-overload]


# ---------------------------------------------------------------- the bound itself


def test_a_stream_is_read_to_its_bound_and_no_further() -> None:
    assert read_stream(io.BytesIO(b"x" * 1000), "s", limit=1000) == b"x" * 1000
    with pytest.raises(InputTooLargeError) as e:
        read_stream(io.BytesIO(b"x" * 1001), "s", limit=1000, what="a position")
    assert str(e.value) == "s: larger than 1000 bytes, the limit for a position: not read"


def test_a_regular_file_is_refused_by_its_size(tmp_path: Path) -> None:
    big = tmp_path / "big.mat"
    with open(big, "wb") as f:
        f.truncate(MAX_RECORD_BYTES + 1)  # sparse: refused before a byte is read
    with pytest.raises(InputTooLargeError, match="larger than 64 MiB, the limit for a record"):
        read_any(big)
    res = validate_file(str(big))
    assert res["unreadable"] and "larger than 64 MiB" in res["findings"][0]["message"]
    assert read_bytes(CLEAN) == CLEAN.read_bytes()


def in_child(code: str) -> str:
    """What ``code`` prints, run in a child held to :data:`MEMORY` (never read a device in this process:
    without a bound, that reading takes all the memory)."""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                       preexec_fn=_limited)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout.strip()


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_devices_named_on_the_command_line_end_with_one_line(device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    got = in_child(f"from notation.batch import validate_file\nr = validate_file({device!r})\n"
                   "print(r['unreadable'], r['findings'][0]['message'])")
    assert got == "True larger than 64 MiB, the limit for a record: not read"
    r = gammon("validate", device)
    assert r.returncode == 2 and f"{device}: error: larger than 64 MiB" in r.stdout and "Traceback" not in r.stderr


def test_convert_of_a_device(tmp_path: Path) -> None:
    target = tmp_path / "z.sgf"
    got = in_child(f"from notation.batch import convert_file\nr = convert_file('/dev/zero', {str(target)!r}, 'sgf')\n"
                   "print(r['status'], r['messages'])")
    assert got == "2 ['/dev/zero: larger than 64 MiB, the limit for a record: not read']"
    assert not target.exists()
    r = gammon("convert", "/dev/zero", str(target))
    assert r.returncode == 2 and "larger than 64 MiB" in r.stderr and not target.exists()


def test_an_endless_position_on_standard_input() -> None:
    """``yes XGID... | gammon show -``: refused at the bound of a position."""
    writer = subprocess.Popen(["yes", XGID], stdout=subprocess.PIPE)
    try:
        r = gammon("show", "-", stdin=writer.stdout)
    finally:
        writer.kill()
        writer.wait()
    assert r.returncode == 2 and "larger than 1 MiB, the limit for a position" in r.stderr
    assert MAX_POSITION_BYTES == 1 << 20


def test_moves_holds_standard_input_to_the_bound_of_a_position() -> None:
    """``yes XGID... | gammon moves -``: moves reads its positions itself; the same 1 MiB bound."""
    writer = subprocess.Popen(["yes", XGID], stdout=subprocess.PIPE)
    try:
        r = gammon("moves", "-", stdin=writer.stdout)
    finally:
        writer.kill()
        writer.wait()
    assert r.returncode == 2 and "Traceback" not in r.stderr and r.stdout == ""
    assert r.stderr == "gammon: <stdin>: larger than 1 MiB, the limit for a list of positions: not read\n"


def test_moves_holds_a_file_and_a_device_to_the_bound(tmp_path: Path) -> None:
    p = tmp_path / "p.txt"
    p.write_text((XGID + "\n") * (MAX_POSITION_BYTES // len(XGID) + 1))
    r = gammon("moves", str(p))
    assert r.returncode == 2 and "larger than 1 MiB, the limit for a list of positions" in r.stderr
    if os.path.exists("/dev/zero"):  # read as a stream within the bound, not taken for an ID
        r = gammon("moves", "/dev/zero")
        assert r.stderr == "gammon: /dev/zero: larger than 1 MiB, the limit for a list of positions: not read\n"


def test_moves_names_the_place_of_a_byte_that_is_not_utf8(tmp_path: Path) -> None:
    p = tmp_path / "p.txt"
    p.write_bytes(XGID.encode() + b"\nab\x9bc\n")
    r = gammon("moves", str(p))
    assert (r.returncode, r.stderr) == (2, f"gammon: {p}:2:3: byte 0x9b is not UTF-8 (the text of positions is "
                                           "UTF-8)\n")


def test_a_position_file_is_held_to_the_bound_of_a_position(tmp_path: Path) -> None:
    from notation.positionio import position_source

    p = tmp_path / "p.txt"
    p.write_text((XGID + "\n") * (MAX_POSITION_BYTES // len(XGID) + 1))
    with pytest.raises(InputTooLargeError, match="the limit for a position"):
        position_source(str(p))
    got = in_child("from notation.positionio import position_source\ntry:\n    position_source('/dev/zero')\n"
                   "except ValueError as e:\n    print(e)")
    assert got == "/dev/zero: larger than 1 MiB, the limit for a position: not read"  # read, not taken for an ID


# ---------------------------------------------------------------- FIFOs


def _fifo(path: Path, data: bytes) -> threading.Thread:
    os.mkfifo(path)

    def write() -> None:
        with open(path, "wb") as f:
            f.write(data)

    t = threading.Thread(target=write, daemon=True)
    t.start()
    return t


def test_a_fifo_named_on_the_command_line_is_read_as_a_stream(tmp_path: Path) -> None:
    t = _fifo(tmp_path / "pipe.mat", CLEAN.read_bytes())
    res = validate_file(str(tmp_path / "pipe.mat"))
    t.join(10)
    assert not res["unreadable"] and res["games"] == 5


def test_validate_excerpts_never_reopen_a_fifo(tmp_path: Path) -> None:
    """An excerpt of a FIFO's line is not read by opening it again (that waited for another writer for
    ever): excerpts come from regular files only."""
    lines = CLEAN.read_text(encoding="utf-8").splitlines(keepends=True)
    k = next(i for i, x in enumerate(lines) if "13/8" in x)
    lines[k] = lines[k].replace("13/8", "13/2", 1)  # an illegal play: a finding with a line
    bad = "".join(lines).encode("utf-8")
    (tmp_path / "file.mat").write_bytes(bad)
    t = _fifo(tmp_path / "pipe.mat", bad)
    r = subprocess.run([sys.executable, "-m", "notation", "validate", "--excerpt", "pipe.mat", "file.mat"],
                       capture_output=True, text=True, cwd=tmp_path, timeout=60, stdin=subprocess.DEVNULL)
    t.join(10)
    assert r.returncode == 1, r.stderr
    out = r.stdout.splitlines()
    at = [i for i, x in enumerate(out) if f":{k + 1}:" in x and ": error: " in x]
    assert len(at) == 2
    assert out[at[0]].startswith("pipe.mat:") and out[at[0] + 1].startswith("pipe.mat:")  # no excerpt
    assert out[at[1]].startswith("file.mat:") and out[at[1] + 1] == "    " + lines[k].rstrip("\n")


def test_a_fifo_or_device_found_by_a_walk_is_never_opened(tmp_path: Path) -> None:
    d = tmp_path / "d"
    d.mkdir()
    (d / "good.mat").write_bytes(CLEAN.read_bytes())
    os.mkfifo(d / "pipe.mat")  # opening it would wait for a writer that never comes
    os.symlink("/dev/zero", d / "zero.sgf")
    found = find_inputs([str(d), str(tmp_path / "d" / "*.*")])
    assert found.files == [str(d / "good.mat")] * 2
    assert (str(d / "pipe.mat"), "a FIFO, not opened") in found.skipped
    assert (str(d / "zero.sgf"), "a device, not opened") in found.skipped
    r = gammon("validate", str(d))
    assert r.returncode == 0 and "good.mat: 5 games" in r.stdout


# ---------------------------------------------------------------- damaged files in a walk


def test_damaged_records_in_a_directory_are_reported(tmp_path: Path) -> None:
    d = tmp_path / "d"
    d.mkdir()
    (d / "good.mat").write_bytes(CLEAN.read_bytes())
    (d / "truncated.mat").write_bytes(b"")
    (d / "corrupt.sgf").write_bytes(bytes(range(256)) * 8)
    (d / "garbled.mat").write_bytes(b"\x93\x11garbage\x00" * 50)
    (d / "notes.txt").write_text("hello\n")
    (d / "picture.png").write_bytes((ROOT / "samples" / "figures" / "fig1_start.png").read_bytes())
    (d / "m.txt").write_bytes(CLEAN.read_bytes())  # a record by its content
    found = find_inputs([str(d)])
    assert [Path(f).name for f in found.files] == ["corrupt.sgf", "garbled.mat", "good.mat", "m.txt", "truncated.mat"]
    assert sorted((Path(f).name, why) for f, why in found.skipped) == [
        ("notes.txt", "not a match record"), ("picture.png", "not a match record")]
    for f in found.files:
        if not f.endswith(("good.mat", "m.txt")):
            assert validate_file(f)["unreadable"], f


def test_validate_says_how_many_files_it_skipped_and_why(tmp_path: Path) -> None:
    d = tmp_path / "d"
    d.mkdir()
    (d / "good.mat").write_bytes(CLEAN.read_bytes())
    for k in range(5):
        (d / f"notes{k}.txt").write_text("hello\n")
    os.mkfifo(d / "pipe.mat")
    r = gammon("validate", "d", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == ("skipped 6 files: 5 not a match record (d/notes0.txt, d/notes1.txt, "
                                         "d/notes2.txt and 2 more); 1 a FIFO, not opened (d/pipe.mat)")
    r = gammon("validate", "d", "--format", "json", cwd=tmp_path)  # a document on stdout: said on stderr
    assert [json.loads(x)["file"] for x in r.stdout.splitlines()] == ["d/good.mat"]
    assert r.stderr.startswith("gammon: skipped 6 files: 5 not a match record")
    r = gammon("validate", "-q", "d", cwd=tmp_path)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    r = gammon("validate", str(d / "good.mat"), cwd=tmp_path)  # nothing skipped: no such line
    assert "skipped" not in r.stdout + r.stderr


def test_convert_of_a_directory_writes_a_directory_however_many_records(tmp_path: Path) -> None:
    """``convert DIR OUT`` with one record in DIR: OUT is a directory, as with several (it was written as
    one file: the meaning of OUT changed with the number of files found)."""
    d = tmp_path / "d"
    d.mkdir()
    (d / "good.mat").write_bytes(CLEAN.read_bytes())
    (d / "notes.txt").write_text("hello\n")
    r = gammon("convert", "d", "out.sgf", cwd=tmp_path)
    assert r.returncode == 2 and not (tmp_path / "out.sgf").exists()
    assert r.stderr.endswith("gammon: out.sgf: with several inputs, a directory or a pattern, the output must be "
                             "a directory (one that does not exist yet is made, unless its name ends as a "
                             "record's)\n")
    assert "skipped 1 file: 1 not a match record (d/notes.txt)" in r.stderr
    r = gammon("convert", "d/*.mat", "out.sgf", cwd=tmp_path)  # a pattern (unexpanded by a shell): the same
    assert r.returncode == 2 and not (tmp_path / "out.sgf").exists()
    (tmp_path / "out").mkdir()
    r = gammon("convert", "d", "out", "--to", "sgf", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["good.sgf"]
    r = gammon("convert", "d/good.mat", "one.sgf", cwd=tmp_path)  # one file named: one file written
    assert r.returncode == 0 and (tmp_path / "one.sgf").is_file()


def test_convert_refuses_an_empty_output_name(tmp_path: Path) -> None:
    r = gammon("convert", str(CLEAN), "", cwd=tmp_path)
    assert (r.returncode, r.stderr) == (2, "gammon: the output is an empty name: give a file, a directory, or '-' "
                                           "for standard output\n")
    assert list(tmp_path.iterdir()) == []
