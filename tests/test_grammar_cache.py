"""Built parsers are cached on disk; a missing, corrupt or unwritable cache never changes results."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "illegal_plays.mat"


def _validate(env_extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GAMMON_NO_CACHE", "XDG_CACHE_HOME")}
    env.update(env_extra)
    return subprocess.run([sys.executable, "-m", "notation.cli", "validate", str(SAMPLE)], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=False)


def test_cache_is_written_and_reused(tmp_path: Path) -> None:
    plain = _validate({"GAMMON_NO_CACHE": "1"})
    assert plain.returncode == 1 and "error" in plain.stdout
    first = _validate({"XDG_CACHE_HOME": str(tmp_path)})
    files = sorted((tmp_path / "gammon-notation").glob("mat-*.lark-cache"))
    assert files, "no parser cache written"
    second = _validate({"XDG_CACHE_HOME": str(tmp_path)})
    assert (first.stdout, first.returncode) == (plain.stdout, plain.returncode)
    assert (second.stdout, second.returncode, second.stderr) == (plain.stdout, plain.returncode, "")


def test_corrupt_cache_is_ignored(tmp_path: Path) -> None:
    _validate({"XDG_CACHE_HOME": str(tmp_path)})
    files = sorted((tmp_path / "gammon-notation").glob("*.lark-cache"))
    assert files
    for i, f in enumerate(files):
        data = f.read_bytes()
        # a wrong hash line, or the right hash line followed by a damaged pickle
        f.write_bytes(data[:40] + b"garbage" if i % 2 else data[:data.index(b"\n") + 1] + b"garbage")
    plain = _validate({"GAMMON_NO_CACHE": "1"})
    again = _validate({"XDG_CACHE_HOME": str(tmp_path)})
    assert (again.stdout, again.returncode, again.stderr) == (plain.stdout, plain.returncode, "")


def test_unusable_cache_directory(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    plain = _validate({"GAMMON_NO_CACHE": "1"})
    res = _validate({"XDG_CACHE_HOME": str(blocker)})
    assert (res.stdout, res.returncode, res.stderr) == (plain.stdout, plain.returncode, "")
