"""Shared fixtures: the ../shared corpus (optional) and matches written by GNU Backgammon itself."""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import functools
import hashlib
import io
import locale
import os
import pickle
import shutil
import signal
import subprocess
import sys
import tempfile
import warnings
import zlib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, settings

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"
DATA = Path(__file__).resolve().parent / "data"
GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")

# (read before XDG_CACHE_HOME is set below; the test workers inherit it)
_USER_CACHE = os.environ.setdefault("GAMMON_USER_CACHE_HOME",
                                    os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache"))
TEST_CACHE = Path(_USER_CACHE) / "gammon-notation-tests"
"""Where the matches gnubg plays for the tests are kept between runs (a run that finds them skips the
minute gnubg takes); a directory per tool, gnubg binary, count and variation.  ``GAMMON_NO_TEST_CACHE=1``
plays them again."""

# The tests keep built parsers in a cache of their own (this process and the commands it runs), not in
# the user's ~/.cache; tests/test_grammar_cache.py sets its own.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="gammon-test-cache-")
atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], True)

# Property tests run a fixed budget of examples each.  In CI (``CI`` set, as .ci/run sets it) the
# examples are derandomized, the same on every run, so a red run is a reproducible regression; a
# developer's run explores new examples (``pytest --hypothesis-seed=N`` repeats one).
# Hypothesis's own clocks (a deadline per example, the "too slow" health check) are wall-clock
# assertions: on a loaded machine they fail tests whose work is right.  Neither is used; the tests
# bound their time with pytest-timeout instead.
_NO_CLOCK = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", derandomize=True, database=None, print_blob=True, **_NO_CLOCK)
settings.register_profile("dev", **_NO_CLOCK)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``--dist loadgroup`` (pyproject.toml) sends the tests of one ``xdist_group`` to one worker by a suffix
    pytest-xdist puts on their ids on the worker (``test@group``); under pytest 9 its suffix is lost (an id is
    made from ``Node._id`` now) and every test was shared out alone: the suffix is put on here."""
    if getattr(config, "workerinput", {}).get("workerid", "gw0") == "gw0":  # (one process of the run)
        _start_playing(items)
    if not getattr(config.option, "loadgroup", False):  # (set on a worker of --dist loadgroup)
        return
    from _pytest.nodeid import NodeId

    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})
        suffix = "@" + "_".join(names)
        if names and not item.nodeid.endswith(suffix):
            item._id = NodeId.parse(item.nodeid + suffix)  # type: ignore[attr-defined]


FULL = bool(os.environ.get("GAMMON_FULL_CORPUS"))
"""``GAMMON_FULL_CORPUS=1``: the slow sweeps over real files take every file, not a sample."""


def sampled(items: list[T], every: int) -> list[T]:
    """Every ``every``-th of ``items`` (in their order, the first included), or all of them with
    ``GAMMON_FULL_CORPUS=1``: a sweep whose files are alike samples them by default."""
    return list(items) if FULL else list(items)[::every]


@functools.cache
def _producers() -> dict[str, str]:
    """The program that wrote each corpus file, by its path in the corpus (``INDEX.tsv``)."""
    index = CORPUS / "INDEX.tsv"
    if not index.exists():
        return {}
    rows = [ln.split("\t") for ln in index.read_text(encoding="utf-8").splitlines()[1:]]
    return {r[0]: r[4] for r in rows if len(r) > 4}


def kind_of(path: Path) -> tuple[str, str]:
    """A file's kind: its directory and, for a corpus file, the program that wrote it."""
    try:
        producer = _producers().get(path.relative_to(CORPUS).as_posix(), "")
    except ValueError:
        producer = ""
    return str(path.parent), producer


def distinct(items: list[Path]) -> list[Path]:
    """``items`` without the files whose bytes and suffix are an earlier one's: twins (a test file copied
    from the corpus or the samples, under another name) checked twice check nothing more."""
    seen: set[tuple[str, bytes]] = set()
    out = []
    for path in items:
        key = (path.suffix, hashlib.sha256(path.read_bytes()).digest())
        if key not in seen:
            seen.add(key)
            out.append(path)
    return out


def sampled_per_kind(items: list[Path], every: int) -> list[Path]:
    """Every ``every``-th file of each kind (:func:`kind_of`: each directory and each program that wrote
    files, the first of each included), in their order, or all of them with ``GAMMON_FULL_CORPUS=1``: a
    sample of a sweep in which every dialect and every source program stays."""
    if FULL:
        return list(items)
    seen: dict[tuple[str, str], int] = {}
    out = []
    for path in items:
        k = kind_of(path)
        seen[k] = seen.get(k, -1) + 1
        if seen[k] % every == 0:
            out.append(path)
    return out


@contextlib.contextmanager
def ctrl_c_default() -> Iterator[None]:
    """Processes started inside this block get Ctrl-C (SIGINT) at its default, as a terminal starts them,
    whatever this run inherited: a run started in the background by a shell without job control
    (``nohup ... &``, as some CI runners start commands) ignores SIGINT, and so would its children (a
    signal ignored at exec stays ignored)."""
    ignored = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # (a child gets the default at exec)
    try:
        yield
    finally:
        if ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)


def have_gnubg() -> bool:
    return Path(GNUBG).exists() or shutil.which("gnubg") is not None


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not present")
    return CORPUS


GNUBG_CORPORA = {"gnubg_corpus": ("gnubg", 12, None), "nack_corpus": ("nack", 3, "nackgammon")}
"""The matches gnubg plays for the tests, by the fixture that asks for them (``gnubg_corpus`` here,
``nack_corpus`` in tests/test_variants.py): its name, count and variation, as the fixture passes them to
:func:`generate_gnubg_corpus`.  A run that needs them and finds none kept starts playing them as it starts
(:func:`pytest_collection_modifyitems`)."""


def _gnubg_corpus_plan(name: str, default_count: int, variation: str | None) -> tuple[Path, str, str] | None:
    """The tool, the count and the folder in :data:`TEST_CACHE` of a corpus gnubg plays, or None where
    gnubg or ``../shared/tools/gnubg-corpus`` is missing."""
    tool = SHARED / "tools" / "gnubg-corpus"
    if not tool.exists() or not have_gnubg():
        return None
    count = os.environ.get(f"GAMMON_{name.upper()}_COUNT", str(default_count))
    gnubg = Path(shutil.which(GNUBG) or shutil.which("gnubg") or GNUBG).resolve()
    st = gnubg.stat()
    key = hashlib.sha256(f"{tool.read_bytes()!r} {gnubg} {st.st_size} {st.st_mtime_ns} {count} {variation} "
                         f"{os.environ.get('SEED_BASE')}".encode()).hexdigest()[:16]
    return tool, count, f"{name}-{key}"


def _play_gnubg_corpus(tool: Path, out: Path, count: str, variation: str | None) -> Path:
    env = {**os.environ, "VARIATION": variation} if variation else None
    subprocess.run(["bash", str(tool), str(out), count], check=True, capture_output=True, timeout=1800, env=env)
    return out


def _kept_gnubg_corpus(name: str, tool: Path, count: str, folder: str, variation: str | None) -> Path:
    """The corpus in :data:`TEST_CACHE`, played first if it is not there (one process plays, under a lock;
    the others wait for it)."""
    TEST_CACHE.mkdir(parents=True, exist_ok=True)
    done = TEST_CACHE / folder
    with open(TEST_CACHE / f".{folder}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (done / "complete").exists():
            out = _play_gnubg_corpus(tool, Path(tempfile.mkdtemp(prefix=f".{name}-", dir=TEST_CACHE)), count,
                                     variation)
            (out / "complete").write_text(count + "\n")
            shutil.rmtree(done, ignore_errors=True)
            out.rename(done)
    return done


def generate_gnubg_corpus(tmp_path_factory: pytest.TempPathFactory, name: str, default_count: int,
                          variation: str | None = None) -> Path:
    """Matches played and written by gnubg (``../shared/tools/gnubg-corpus``), or skip the test.
    ``GAMMON_<NAME>_CORPUS`` names a directory made before (reused); ``GAMMON_<NAME>_COUNT`` sets
    how many matches; ``variation`` is passed as ``VARIATION``."""
    plan = _gnubg_corpus_plan(name, default_count, variation)
    if plan is None:
        pytest.skip("gnubg or ../shared/tools/gnubg-corpus is not available")
    cached = os.environ.get(f"GAMMON_{name.upper()}_CORPUS")
    if cached and Path(cached, "mat").is_dir():
        return Path(cached)
    tool, count, folder = plan
    if os.environ.get("GAMMON_NO_TEST_CACHE"):
        return _play_gnubg_corpus(tool, tmp_path_factory.mktemp(name), count, variation)
    return _kept_gnubg_corpus(name, tool, count, folder, variation)


_playing: list[subprocess.Popen[bytes]] = []
"""The process playing the corpora the selected tests need, started as the run starts."""


def _start_playing(items: list[pytest.Item]) -> None:
    """gnubg takes a minute to play its matches, nearly all of it waiting (it polls its evaluation threads
    every 10 ms), not computing: a run on a new machine starts playing the corpora its tests need at once,
    in a process of its own, instead of a test worker waiting for them when its first test asks.  The
    tests take them through :func:`generate_gnubg_corpus` as before (its lock: whoever comes first plays)."""
    if os.environ.get("GAMMON_NO_TEST_CACHE"):
        return
    wanted = {f for item in items for f in getattr(item, "fixturenames", ()) if f in GNUBG_CORPORA}
    todo = []
    for fixture in sorted(wanted):
        name, count, variation = GNUBG_CORPORA[fixture]
        plan = _gnubg_corpus_plan(name, count, variation)
        if plan and not os.environ.get(f"GAMMON_{name.upper()}_CORPUS") and \
                not (TEST_CACHE / plan[2] / "complete").exists():
            todo.append([name, str(count), variation or ""])
    for one in todo:  # (at once: gnubg waits more than it computes)
        _playing.append(subprocess.Popen(
            [sys.executable, __file__, "--play-gnubg-corpora", repr([one])], stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT))


def pytest_unconfigure(config: pytest.Config) -> None:
    for p in _playing:
        p.wait()


@functools.cache
def _file_hash(path: Path) -> str:
    """The hash of a file, or of every file of a package's folder (not its compiled ``__pycache__``)."""
    files = sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts) \
        if path.is_dir() else [path]
    h = hashlib.sha256()
    for f in files:
        h.update(f"{f.relative_to(path) if f != path else ''}\0".encode("utf-8", "surrogateescape"))
        h.update(f.read_bytes())
    return h.hexdigest()


def oracle_stamp(*oracles: ModuleType | str | os.PathLike[str]) -> str:
    """What identifies the oracles an answer came from, for :func:`kept`: the bytes of each module (its
    package's folder, every file) or each file (a program, a test helper that digests the answer)."""
    out = []
    for o in oracles:
        if isinstance(o, ModuleType):
            f = Path(o.__file__ or o.__name__)
            out.append(f"{o.__name__} {_file_hash(f.parent if f.name == '__init__.py' else f)}")
        else:
            out.append(f"{Path(o).name} {_file_hash(Path(o))}")
    return "\n".join(out)


def kept(kind: str, key: object, compute: Callable[[], T]) -> T:
    """``compute()``, an oracle's answer to a question (a package's or a program's we do not change, such as
    GammonView's slow codec or gnubg's move generator), kept in :data:`TEST_CACHE` under ``kind`` by the hash
    of ``key``: the question's whole content (the bytes asked about, not a file's name) and
    :func:`oracle_stamp` of the oracles, so that another question or another oracle is asked again.  Only
    what we do not test is kept: our own side of a comparison is computed on every run.
    ``GAMMON_NO_TEST_CACHE=1`` asks every time."""
    if os.environ.get("GAMMON_NO_TEST_CACHE"):
        return compute()
    digest = hashlib.sha256(repr(key).encode("utf-8", "surrogateescape")).hexdigest()[:32]
    where = TEST_CACHE / "oracle" / kind / f"{digest}.pickle"
    with contextlib.suppress(OSError, EOFError, pickle.UnpicklingError):
        return pickle.loads(where.read_bytes())  # type: ignore[no-any-return]
    value = compute()
    where.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=where.parent, prefix=".")
    with os.fdopen(fd, "wb") as f:
        pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(tmp, where)  # parallel workers: the last one's whole answer, never a half-written one
    return value


def deflated_zeros(size: int) -> bytes:
    """``size`` zero bytes deflated (zlib, level 9, a MiB at a time): the body of a zip bomb.  Kept between
    runs (:func:`kept`, by the size and zlib's version): deflating a gigabyte takes seconds."""

    def deflate() -> bytes:
        c = zlib.compressobj(9)
        piece = bytes(1 << 20)
        out = [c.compress(piece) for _ in range(size >> 20)]
        return b"".join(out) + c.compress(bytes(size & ((1 << 20) - 1))) + c.flush()

    return kept("deflated-zeros", (size, zlib.ZLIB_RUNTIME_VERSION), deflate)


@pytest.fixture(scope="session")
def gnubg_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Matches played and written by gnubg; GAMMON_GNUBG_COUNT sets how many (12)."""
    return generate_gnubg_corpus(tmp_path_factory, "gnubg", 12)


def gammon_in_process(*args: str | os.PathLike[str], input: str | bytes | None = None,
                      cwd: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None,
                      text: bool = False, **_: object) -> subprocess.CompletedProcess[Any]:
    """``gammon ARGS`` as :func:`subprocess.run` with ``capture_output=True`` gives it, run in this process:
    the command's own entry point (:func:`notation.cli.run`, with its exit statuses: 2 for bad input, 70
    and one line for a bug, 130 for Ctrl-C) on click's test streams, in ``cwd``, with ``env`` as the whole
    environment.  For a test of what a command does; a test of the process itself (its start, signals,
    closed or failing standard streams, the locale's encoding) starts a real one.  Saves the third of a
    second of CPU a new interpreter takes to import the package.  (Other keywords, such as ``timeout``,
    are taken and ignored: pytest-timeout bounds the test.)"""
    from click.testing import CliRunner

    from notation.cli import run

    changes: dict[str, str | None] = {}
    if env is not None:
        changes = {k: None for k in os.environ if k not in env}
        changes.update({k: v for k, v in env.items() if os.environ.get(k) != v})
    term, shown = signal.getsignal(signal.SIGTERM), warnings.showwarning
    with CliRunner().isolation(input=input, env=changes) as (out, err, _), contextlib.chdir(cwd or os.getcwd()):
        try:
            run([os.fspath(a) for a in args])
            code: int = 0
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        finally:
            signal.signal(signal.SIGTERM, term)
            warnings.showwarning = shown
            sys.stdout.flush()
            sys.stderr.flush()
        stdout, stderr = out.getvalue(), err.getvalue()
    argv = ["gammon", *map(os.fspath, args)]
    if text:  # as subprocess decodes: the locale's encoding, universal newlines
        enc = locale.getpreferredencoding(False)
        return subprocess.CompletedProcess(argv, code, io.TextIOWrapper(io.BytesIO(stdout), enc).read(),
                                           io.TextIOWrapper(io.BytesIO(stderr), enc).read())
    return subprocess.CompletedProcess(argv, code, stdout, stderr)


def xgdatatools_records(path: Path) -> tuple[Any, Iterator[Any]]:
    """xgdatatools' ``xgstruct`` module and the game file's records as it reads them, in file order (each
    read with the version its match header gives); skips when the oracle is not installed."""
    try:
        from ankigammon.thirdparty.xgdatatools import xgimport, xgstruct  # type: ignore[import-not-found]
    except ImportError:
        pytest.skip("the oracle xgdatatools (pip install --no-deps ankigammon) is not installed")

    def records() -> Iterator[Any]:
        for seg in xgimport.Import(str(path)).getfilesegment():
            if seg.type != xgimport.Import.Segment.XG_GAMEFILE:
                continue
            seg.fd.seek(0)
            version = -1
            while (r := xgstruct.GameFileRecord(version=version).fromstream(seg.fd)) is not None:
                if isinstance(r, xgstruct.HeaderMatchEntry):
                    version = r.Version
                yield r

    return xgstruct, records()


if __name__ == "__main__" and sys.argv[1:2] == ["--play-gnubg-corpora"]:  # (_start_playing)
    import ast

    for _name, _count, _variation in ast.literal_eval(sys.argv[2]):
        _plan = _gnubg_corpus_plan(_name, int(_count), _variation or None)
        if _plan is not None:
            _kept_gnubg_corpus(_name, _plan[0], _plan[1], _plan[2], _variation or None)
