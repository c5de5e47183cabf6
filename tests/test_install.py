"""The installed `gammon` command runs from any directory, grammars found (CI installs non-editable)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def gammon_script() -> str:
    exe = Path(sys.executable).parent / "gammon"
    if exe.exists():
        return str(exe)
    found = shutil.which("gammon")
    if not found:
        pytest.skip("the package is not installed (no gammon script)")
    return found


def test_installed_command_runs_elsewhere(tmp_path: Path) -> None:
    gammon = gammon_script()
    sample = ROOT / "samples" / "illegal_plays.mat"
    r = subprocess.run([gammon, "validate", str(sample)], capture_output=True, text=True, cwd=tmp_path,
                       timeout=120)
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr
    assert "4 errors" in r.stdout
    r = subprocess.run([gammon, "show", "--json", "4HPwATDgc/ABMA:cIkqAAAAAAAA"], capture_output=True, text=True,
                       cwd=tmp_path, timeout=120)
    assert r.returncode == 0, r.stderr
    assert '"position_id": "4HPwATDgc/ABMA"' in r.stdout


def test_installed_package_finds_its_grammars(tmp_path: Path) -> None:
    gammon_script()
    code = ("import notation._grammar as g, notation; print(notation.__file__); "
            "print(len(g.grammar_text('mat')) > 100)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[-1] == "True"
