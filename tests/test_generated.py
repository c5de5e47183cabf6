"""What is generated from the grammars is current: ``notation/_terminals.py`` is exactly what
``scripts/generate.py`` makes of ``grammars/*.lark`` (a grammar edited without regenerating fails here, and in
``.ci/run``), and the readers use it only while each grammar is the text it was made from."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from notation import _grammar
from notation._terminals import GRAMMARS

ROOT = Path(__file__).resolve().parents[1]


def test_the_generated_terminals_are_current() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "generate.py"), "--check"], capture_output=True,
                       text=True, timeout=120, check=False)
    assert r.returncode == 0, r.stderr


def test_every_grammar_is_generated() -> None:
    assert sorted(GRAMMARS) == sorted(p.stem for p in (ROOT / "grammars").glob("*.lark"))


def test_a_stale_table_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """A grammar edited since the table was made is derived from its text, with lark."""
    stale = {**GRAMMARS, "play": ("0" * 16, {"POINT": "stale"})}
    monkeypatch.setattr("notation._terminals.GRAMMARS", stale)
    _grammar.regexes.cache_clear()
    try:
        assert _grammar.regexes("play")["POINT"] == GRAMMARS["play"][1]["POINT"] != "stale"
    finally:
        _grammar.regexes.cache_clear()


def test_the_table_is_what_lark_makes_of_each_grammar() -> None:
    for name, (digest, table) in GRAMMARS.items():
        text = _grammar.grammar_text(name)
        assert digest == _grammar.grammar_digest(text), name
        assert table == _grammar.derive_regexes(text), name
