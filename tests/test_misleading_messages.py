"""Messages that named the wrong thing (issue 38): ``render /dev/zero`` spoke of a Position ID of 9
characters, ``show hello`` took a word for a Position ID, ``1234567890 point match`` asked for a 'Game N'
line.  Each now says what it read."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from conftest import gammon_in_process

from notation.errors import NotationError
from notation.matchio import parse_any


def gammon(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return gammon_in_process(*args, cwd=cwd, text=True)  # (the command in this process: what it does, not its start)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_render_of_a_device_reads_it_as_a_file(tmp_path: Path) -> None:
    proc = gammon("render", "/dev/zero", "-o", str(tmp_path / "z.png"), cwd=tmp_path)
    assert proc.returncode == 2
    assert "Position ID" not in proc.stderr and "/dev/zero" in proc.stderr and "limit" in proc.stderr
    assert not (tmp_path / "z.png").exists()


def test_show_of_a_word_says_it_is_no_file_and_no_id(tmp_path: Path) -> None:
    proc = gammon("show", "hello", cwd=tmp_path)
    assert proc.returncode == 2
    assert "'hello' is no file here and no position ID" in proc.stderr


def test_a_ten_digit_match_length_is_said() -> None:
    with pytest.raises(NotationError) as e:
        parse_any(b" 1234567890 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5\n", name="x.mat")
    assert "match length of more than 9 digits" in str(e.value) and "Game N" not in str(e.value)
