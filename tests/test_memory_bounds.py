"""Memory bounded by the input: a name of a megabyte was copied into every game, finding and page of the
outputs (a 5 MB name in a 20 MB JSON took 4.8 GB to convert to a page, and ended validate --html with a
MemoryError).  A name, rating or header tag is cut to 4,096 characters when read, and said; each command
here runs under an address-space limit (``resource.RLIMIT_AS``) in a process of its own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from notation.formats.json_format import to_json
from notation.matchio import parse_any, read_any
from notation.record import TEXT_BOUND

pytest.importorskip("resource")

LIMIT_MB = 400
"""The address space each command may use: Python and the imports take about 200 MB of it."""

RUN = """
import resource, sys
limit = int(sys.argv[1]) << 20
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from notation.cli import run
run(sys.argv[2:])
"""


def limited(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", RUN, str(LIMIT_MB), *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300, stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def long_name(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("memory")
    (m,) = read_any(ROOT / "samples" / "gnubg_selfplay_7p.mat")
    p = folder / "name1mb.json"
    p.write_text(to_json(m).replace('"gnubg"', '"' + "N" * 1_000_000 + '"'), encoding="utf-8")
    return p


@pytest.mark.parametrize("to", ["html", "txt", "sgf", "mat", "json", "ogxm"])
def test_convert_a_megabyte_name_within_the_limit(long_name: Path, to: str, tmp_path: Path) -> None:
    proc = limited("convert", str(long_name), str(tmp_path / f"out.{to}"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "internal error" not in proc.stderr and "too large" not in proc.stderr
    assert (tmp_path / f"out.{to}").stat().st_size < 10 * long_name.stat().st_size


def test_validate_html_of_a_megabyte_name_within_the_limit(long_name: Path, tmp_path: Path) -> None:
    proc = limited("validate", "--html", str(tmp_path / "r.html"), str(long_name), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "cut to its first 4,096 characters" in proc.stdout


def test_a_long_name_is_cut_and_said() -> None:
    text = (ROOT / "samples" / "gnubg_selfplay_7p.mat").read_text(encoding="utf-8")
    (m,) = parse_any(text.replace("gnubg :", "x" * 10_000 + " :").encode("utf-8"), name="x.mat")
    assert all(len(g.names[0]) == TEXT_BOUND for g in m.games if g.names)
    assert any("cut to its first" in n.message for n in m.normalisations)
