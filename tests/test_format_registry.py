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


_TOY = '''"""A toy format (tests/test_format_registry.py): ``TOY`` lines, each followed by one match's JSON record; it
holds no comments on actions."""

from __future__ import annotations

from collections.abc import Iterator

from ..errors import ParseError
from ..losses import dropped, holdings
from ..record import Match
from .registry import WriteResult

REASONS = {"comment:action": "a toy file holds no comments on actions"}


def iter_toy(data: bytes, *, name: str | None = None, keep: bool = True) -> Iterator[Match]:
    from .json_read import read as read_json

    parts = data.split(b"TOY\\n")
    if parts[0].strip():
        raise ParseError("not a toy file", file=name, line=1, column=1)
    for k, part in enumerate(parts[1:], 1):
        try:
            yield from read_json(part, name=name)
        except ParseError as e:
            raise ParseError(f"toy member {k}: {e.message}", file=name, line=1, column=1) from e


def is_stream(data: bytes) -> bool:
    return data.count(b"TOY\\n") > 1


def read(data: str | bytes, *, name: str | None = None) -> list[Match]:
    return list(iter_toy(data if isinstance(data, bytes) else data.encode("utf-8"), name=name))


def write(match: Match, rep: object = None) -> WriteResult:
    from .json_format import to_json

    written = holdings(match)
    del written["comment", "action"]
    return WriteResult("TOY\\n" + to_json(match), dropped(match, written, REASONS))
'''

_TOY_LINE = '    Format("toy", (".toy",), "toy", "toy", starts=(b"TOY\\n",), members="iter_toy"),\n'

_TOY_RUN = '''
import json, shutil, sys
from pathlib import Path
from click.testing import CliRunner
from notation.cli import main
from notation.formats.json_format import to_json
from notation.matchio import read_match

src, work = Path(sys.argv[1]), Path(sys.argv[2])
runner = CliRunner()
out = {}
def gammon(key, *args):
    r = runner.invoke(main, [str(a) for a in args], catch_exceptions=False)
    out[key] = [r.exit_code, r.stdout, r.stderr]
    return r

m = read_match(src)
m.games[0].actions[3].comment = "a toy cannot hold this"
(work / "commented.json").write_text(to_json(m), encoding="utf-8")
(work / "in").mkdir()
shutil.copy(src, work / "in" / "a.mat")
shutil.copy(src, work / "in" / "b.mat")
gammon("by_extension", "convert", src, work / "a.toy")
gammon("back", "convert", work / "a.toy", work / "back.mat")
gammon("direct", "convert", src, work / "direct.mat")
gammon("validate", "validate", work / "a.toy")
gammon("validate_json", "validate", "--format", "json", work / "a.toy")
gammon("lossy", "convert", work / "commented.json", work / "c", "--to", "toy")
gammon("strict", "convert", work / "commented.json", work / "d.toy", "--strict")
gammon("batch", "convert", work / "in", work / "out", "--to", "toy", "--jobs", "2", "-q")
gammon("walk", "validate", work / "out")
one = (work / "a.toy").read_bytes()
(work / "s.toy").write_bytes(one + one + b"TOY\\n{")
gammon("stream", "validate", "--format", "json", work / "s.toy")
(work / "two.toy").write_bytes(one + one)
(work / "members").mkdir()
gammon("matches", "convert", work / "two.toy", work / "members", "--to", "toy", "-q")
print(json.dumps(out))
'''


def test_a_new_format_is_one_module_and_one_registry_line(tmp_path: Path) -> None:
    """The proof of the registry's promise: a copy of the package with a toy format added, as its module and
    one line of FORMATS and nothing else, is read, validated (one match at a time, through the line's
    ``members``), written (``--to``, the extension, a batch in parallel processes, a directory walked for it)
    and its losses are reported and refused by ``--strict``."""
    import json
    import os
    import shutil
    import subprocess
    import sys

    copy_of = tmp_path / "tree"
    shutil.copytree(ROOT / "notation", copy_of / "notation", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "grammars", copy_of / "grammars")
    (copy_of / "notation" / "formats" / "toy.py").write_text(_TOY, encoding="utf-8")
    registry = copy_of / "notation" / "formats" / "registry.py"
    lines = registry.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("FORMATS: tuple[Format, ...] = (")) + 1
    registry.write_text("".join([*lines[:at], _TOY_LINE, *lines[at:]]), encoding="utf-8")
    (tmp_path / "work").mkdir()
    run = subprocess.run([sys.executable, "-c", _TOY_RUN, str(DATA / "gnubg_7p_crawford.mat"), str(tmp_path / "work")],
                         cwd=copy_of, capture_output=True, text=True, timeout=600,
                         env={**os.environ, "PYTHONPATH": str(copy_of)})
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    work = tmp_path / "work"
    assert out["by_extension"][0] == 0 and (work / "a.toy").read_bytes().startswith(b"TOY\n{")
    assert out["back"][0] == out["direct"][0] == 0, (out["back"], out["direct"])
    assert (work / "back.mat").read_bytes() == (work / "direct.mat").read_bytes()
    assert out["validate"][0] == 0 and "0 errors" in out["validate"][1]
    assert out["lossy"][0] == 0 and (work / "c").read_bytes().startswith(b"TOY\n")
    assert "dropped: 1 move comment: a toy file holds no comments on actions" in out["lossy"][2]
    assert out["strict"][0] == 1 and not (work / "d.toy").exists()
    assert out["batch"][0] == 0 and sorted(p.name for p in (work / "out").iterdir()) == ["a.toy", "b.toy"]
    assert out["walk"][0] == 0 and "total: 2 files" in out["walk"][1]
    report = json.loads(out["stream"][1])
    assert out["stream"][0] == 2 and report["games"] == 2 * json.loads(out["validate_json"][1])["games"]
    members = {f.get("member") for f in report["findings"]}
    assert members == {3}, report["findings"]  # (the two complete members are clean)
    assert any(f["message"].startswith("toy member 3:") for f in report["findings"])
    assert out["matches"][0] == 0, out["matches"]
    assert sorted(p.name for p in (work / "members").iterdir()) == ["two.2.toy", "two.toy"]
