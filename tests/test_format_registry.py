"""The format registry (notation/formats/registry.py): one line a format, which every consumer reads.

Adding a format is its module and its line: nothing else lists the formats.  These tests hold each line to
its modules (a reader has ``read``, a writer ``write`` returning :class:`WriteResult` and says why it drops
each kind of item) and each consumer's list to the registry.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import DATA

from notation.formats.registry import FORMATS, WriteResult, by_name, for_extension, record_extensions, writable

ROOT = Path(__file__).resolve().parents[1]
KINDS = {"tag", "comment", "analysis", "property", "thumbnail"}


@pytest.mark.parametrize("f", FORMATS, ids=lambda f: f.name)
def test_each_line_names_modules_that_read_and_write(f) -> None:  # type: ignore[no-untyped-def]
    assert f.reader or f.writer
    assert f.extensions and all(e.startswith(".") and e == e.lower() for e in f.extensions)
    if f.reader:
        assert callable(f.module("reader").read)
    if f.writer:
        assert callable(f.module("writer").write)
        assert {k.split(":")[0] for k in f.reasons} <= KINDS


def test_names_and_extensions_are_unambiguous() -> None:
    names = [n for f in FORMATS for n in (f.name, *f.aliases)]
    assert len(names) == len(set(names))
    written = [f.extensions[0] for f in FORMATS if f.writer]
    assert len(written) == len(set(written))
    for f in FORMATS:
        assert by_name(f.name.upper()) is f
        if f.writer:
            assert for_extension(f.extensions[0].upper(), writing=True) is f


def test_every_writer_returns_one_shape() -> None:
    from notation.matchio import read_match

    m = read_match(DATA / "gnubg_7p_crawford.mat")
    for name in writable():
        result = by_name(name).write(m)
        assert isinstance(result, WriteResult), name
        assert isinstance(result.data, str | bytes) and result.data
        assert all(isinstance(x, str) for x in [*result.dropped, *result.notes])


def test_the_consumers_take_their_lists_from_the_registry() -> None:
    from notation import convert, matchio, stream
    from notation.commands import convert as command

    assert convert.WRITABLE == writable() == ("mat", "sgf", "json", "txt", "ogxm", "ogxms")
    assert convert.EXTENSIONS == {f.name: f.extensions[0] for f in FORMATS if f.writer}
    assert set(matchio.RECORD_EXTENSIONS) == set(record_extensions()) == {
        ".mat", ".sgf", ".json", ".xg", ".xgp", ".gam", ".ogxm", ".ogxms"}
    assert stream.STREAMED == {f.name for f in FORMATS if f.streams}
    assert set(command.TARGETS) == {*writable(), "text", "html", "parquet"}


def test_no_module_outside_the_formats_imports_a_private_writer() -> None:
    """convert.py imported the .mat and SGF writers' private _Writer classes; a format is reached through
    its line (stream.py's game-at-a-time writers still drive them: see docs/formats.md)."""
    for path in [ROOT / "notation" / "convert.py", ROOT / "notation" / "batch.py", ROOT / "notation" / "matchio.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("formats"):
                assert all(not a.name.startswith("_") for a in node.names), (path.name, node.module)
