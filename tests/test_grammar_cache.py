"""Built parsers are cached on disk; a missing, corrupt or unwritable cache never changes results."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "illegal_plays.mat"
LARK_SAMPLE = ROOT / "tests" / "data" / "unreadable" / "score_line_missing.mat"
"""A file the .mat reader leaves to lark (its line reader reads the common files without a parser): a
comment line between a Game line and its score line, which lark's error message locates."""


def _validate(env_extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GAMMON_NO_CACHE", "XDG_CACHE_HOME")}
    env.update(env_extra)
    return subprocess.run([sys.executable, "-m", "notation.cli", "validate", str(SAMPLE), str(LARK_SAMPLE)],
                          cwd=ROOT, env=env, capture_output=True, text=True, check=False, timeout=120)


@pytest.fixture(scope="module")
def plain() -> subprocess.CompletedProcess[str]:
    """The command's output without a cache, the reference of every test here (made once)."""
    return _validate({"GAMMON_NO_CACHE": "1"})


pytestmark = pytest.mark.xdist_group("grammar_cache")  # one worker: plain() made once


def test_cache_is_written_and_reused(tmp_path: Path, plain: subprocess.CompletedProcess[str]) -> None:
    assert plain.returncode == 2 and "error" in plain.stdout and "expected a score line" in plain.stdout
    first = _validate({"XDG_CACHE_HOME": str(tmp_path)})
    files = sorted((tmp_path / "gammon-notation").glob("mat-*.lark-cache"))
    assert files, "no parser cache written"
    second = _validate({"XDG_CACHE_HOME": str(tmp_path)})
    assert (first.stdout, first.returncode) == (plain.stdout, plain.returncode)
    assert (second.stdout, second.returncode, second.stderr) == (plain.stdout, plain.returncode, "")


def test_corrupt_cache_is_ignored(tmp_path: Path, plain: subprocess.CompletedProcess[str]) -> None:
    _validate({"XDG_CACHE_HOME": str(tmp_path)})
    files = sorted((tmp_path / "gammon-notation").glob("*.lark-cache"))
    assert files
    for i, f in enumerate(files):
        data = f.read_bytes()
        # a wrong hash line, or the right hash line followed by a damaged pickle
        f.write_bytes(data[:40] + b"garbage" if i % 2 else data[:data.index(b"\n") + 1] + b"garbage")
    again = _validate({"XDG_CACHE_HOME": str(tmp_path)})
    assert (again.stdout, again.returncode, again.stderr) == (plain.stdout, plain.returncode, "")


def test_unusable_cache_directory(tmp_path: Path, plain: subprocess.CompletedProcess[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    res = _validate({"XDG_CACHE_HOME": str(blocker)})
    assert (res.stdout, res.returncode, res.stderr) == (plain.stdout, plain.returncode, "")


def test_no_home_directory_means_no_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from notation import _grammar

    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("GAMMON_NO_CACHE", raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(_grammar.os.path, "expanduser", lambda p: p)  # as with no HOME and no passwd entry
    assert _grammar.cache_dir() is None
    assert not (tmp_path / "~").exists()
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/dir")
    assert _grammar.cache_dir() is None


def test_cache_written_whole_and_old_versions_removed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from notation import _grammar

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("GAMMON_NO_CACHE", raising=False)
    d = tmp_path / "gammon-notation"
    d.mkdir()
    build = _grammar.parser.__wrapped__  # type: ignore[attr-defined]  # without the in-process cache
    build("sgf")
    (first,) = d.glob("sgf-*.lark-cache")
    stale = d / first.name.replace(first.name.rsplit("-", 1)[1], "0123456789abcdef.lark-cache")
    first.rename(stale)
    build("sgf")
    # rebuilt; the other version removed; the hash kept apart from the parser
    assert sorted(p.name for p in d.iterdir()) == [first.name, first.name + ".sha256"]
    assert build("sgf").parse("(;FF[4])") is not None


def _fresh_cache(tmp_path: Path) -> Path:
    _validate({"XDG_CACHE_HOME": str(tmp_path)})
    (path,) = sorted((tmp_path / "gammon-notation").glob("mat-*.lark-cache"))
    return path


def test_planted_pickle_never_runs(tmp_path: Path) -> None:
    """A cache file replaced by a pickle that runs a command: the hash kept apart does not match, so
    it is never unpickled (before, lark unpickled it and then checked the grammar's hash)."""
    import pickle

    path = _fresh_cache(tmp_path)
    witness = tmp_path / "pwned"

    class Evil:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (os.system, (f"touch {witness}",))

    good = path.read_bytes()
    path.write_bytes(good.split(b"\n", 1)[0] + b"\n" + pickle.dumps(Evil()) if b"\n" in good[:80]
                     else pickle.dumps(Evil()))
    r = _validate({"XDG_CACHE_HOME": str(tmp_path)})
    assert not witness.exists(), "a planted cache file ran code"
    assert r.returncode == 2 and "expected a score line" in r.stdout
    path.write_bytes(pickle.dumps(Evil()))
    _validate({"XDG_CACHE_HOME": str(tmp_path)})
    assert not witness.exists()


def test_foreign_writable_or_fifo_cache_is_refused(tmp_path: Path) -> None:
    path = _fresh_cache(tmp_path)
    os.chmod(path, 0o666)  # writable by anyone: not trusted, rebuilt
    from notation import _grammar

    assert _grammar._load_verified(path) is None
    path.unlink()
    os.mkfifo(path)
    r = subprocess.run([sys.executable, "-m", "notation", "validate", str(LARK_SAMPLE)], cwd=ROOT, timeout=60,
                       env={**os.environ, "XDG_CACHE_HOME": str(tmp_path)}, capture_output=True, text=True)
    assert r.returncode == 2 and "expected a score line" in r.stdout  # no hang on the FIFO
