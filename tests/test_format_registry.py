"""The format registry (notation/formats/registry.py): one line a format, which every consumer reads.

Adding a format is its module and its line: nothing else lists the formats.  These tests hold each line to
its modules (a reader has ``read``, a writer ``write`` returning :class:`WriteResult` and says why it drops
each kind of item) and each consumer's list to the registry.
"""

from __future__ import annotations

import ast
import copy
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
    if f.streams:  # the game-at-a-time entry notation/stream.py reaches through the line
        assert f.writer and callable(f.module("writer").write_games)


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
    """convert.py imported the .mat and SGF writers' private _Writer classes, and stream.py drove them
    (``sgf._Writer``, ``mat._Writer``, json's ``_text``); a format is reached through its line
    (``Format.write``, ``Format.write_games``)."""
    for name in ("convert.py", "batch.py", "matchio.py", "stream.py"):
        tree = ast.parse((ROOT / "notation" / name).read_text(encoding="utf-8"))
        format_modules = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("formats"):
                assert all(not a.name.startswith("_") for a in node.names), (name, node.module)
                if node.module == "formats":
                    format_modules |= {a.asname or a.name for a in node.names}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                assert not (node.value.id in format_modules and node.attr.startswith("_")), (name, node.attr)


def test_a_format_that_streams_writes_what_it_writes_whole() -> None:
    """``Format.write_games`` over stand-ins for the games, fed the games one at a time, writes the text and
    the reports ``Format.write`` writes of the match (notation/stream.py's use of it, on stubs, is held to
    the whole conversion by tests/test_streaming.py); a format that does not stream refuses."""
    from notation.matchio import read_match
    from notation.replay import replay_match
    from notation.stream import stub_game

    m = read_match(DATA / "gnubg_7p_crawford.mat")
    rep = replay_match(m)
    for f in FORMATS:
        if not f.streams:
            if f.writer:
                with pytest.raises(ValueError, match="one game at a time"):
                    f.write_games(m, iter(()), print)
            continue
        whole = f.write(m, rep)
        view = copy.copy(m)
        view.games = [stub_game(g) for g in m.games]
        pieces: list[str] = []
        games = iter(zip(m.games, rep.games, strict=True))
        result = f.write_games(view, games, pieces.append)
        assert next(games, None) is None, f.name
        assert ("".join(pieces), result.dropped, result.notes) == (whole.data, whole.dropped, whole.notes), f.name
        assert result.data == ""
