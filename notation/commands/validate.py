"""``gammon validate FILE...``: replay every game under the full rules and report findings (as compiler-style
lines, JSON, or for CI systems through :mod:`notation.reports`), optionally with a web page for the batch."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import click

from .._term import fail, plural, safe_json, safe_line, use_colour
from ..batch import validate_file
from ..matchio import find_inputs, skipped_summary
from ..parallel import auto_jobs, collect_if_piled, collector_paused, map_files
from ..replay import Finding
from ..reports import SEVERITIES, more_like_it, shown_findings

if TYPE_CHECKING:  # pragma: no cover
    from pathlib import Path

__all__ = ["command", "check_file", "write_pages", "write_report", "FORMATS", "VARIANTS"]

VARIANTS = ("standard", "nackgammon", "hypergammon", "hypergammon1", "hypergammon2", "hypergammon3", "dutch",
            "acey-deucey")
"""The names --variant takes (notation.rules.get_rules also knows some aliases)."""


check_file = validate_file
"""The per-file check (:func:`notation.batch.validate_file`), under the name this module always had."""


def _line(path: str, f: dict[str, Any]) -> str:
    where = f"{path}#{f['pointer']}" if f.get("pointer") else path
    fd = Finding(f["severity"], f["message"], where, f["line"], f["column"], f["game"], f["move"], f["player"],
                 f["roll"], f["text"] or "", f["xgid"])
    return safe_line(fd.format())


def _summary(res: dict[str, Any]) -> str:
    return (f"{plural(res['games'], 'game')}, {plural(res['plays'], 'play')}, {plural(res['errors'], 'error')}, "
            f"{plural(res['warnings'], 'warning')}, {plural(res['notes'], 'note')}")


FORMATS = ("text", "json", "github", "sarif", "junit")


@click.command("validate")
@click.argument("files", nargs=-1, required=True, type=str)
@click.option("--format", "out_format", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text: compiler-style lines; json: one object a line per file; github: workflow "
                   "commands (annotations); sarif: one SARIF 2.1.0 document; junit: JUnit XML.")
@click.option("--json", "as_json", is_flag=True, help="The same as --format json.")
@click.option("--jobs", "-j", type=click.IntRange(0, 64), default=0, show_default=True,
              help="Check files in this many parallel processes; 0: one per CPU (at most 16, one per "
                   "four files) when there are at least 8 files.")
@click.option("--quiet", "-q", is_flag=True,
              help="Terse: only errors (unless --min-severity names another least severity), the summary "
                   "lines of the files with a finding shown, and the total.")
@click.option("--min-severity", type=click.Choice(SEVERITIES), default=None,
              help="Print only findings of this severity or worse (text and github formats; json, sarif "
                   "and junit keep every finding).  Default: note, or error with -q.")
@click.option("--all-notes", is_flag=True,
              help="Print every note: by default a note repeated in a file (the same message once its "
                   "numbers and quoted values are masked) is printed once, with how many more like it.")
@click.option("--variant", default=None, type=click.Choice(VARIANTS, case_sensitive=False),
              help="Override the variant the record names.")
@click.option("--auto-doubles", type=click.IntRange(0, 16), default=None,
              help="Money play with automatic doubles, at most N a game (.mat files do not say).")
@click.option("--color", "--colour", "colour", type=click.Choice(["auto", "always", "never"]), default="auto",
              show_default=True, help="Colour the severities; auto: on a terminal, unless NO_COLOR is set.")
@click.option("--excerpt/--no-excerpt", default=None,
              help="Show the source line with a caret under the column (default: on a terminal).")
@click.option("--html", "html_report", default=None, metavar="REPORT.html",
              help="Also write a web page for the batch (a sortable table of files), with each match's "
                   "page in REPORT_matches/ beside it.")
@click.option("--html-only-findings", is_flag=True,
              help="With --html: write the match pages only of the files with a finding printed (at "
                   "--min-severity or worse; -q: errors); the report still lists every file.")
@click.option("--force", is_flag=True,
              help="With --html: overwrite an existing report and its pages (never an input, a FIFO or a "
                   "device).")
@click.option("--dask", "dask_address", default=None, metavar="ADDRESS",
              help="Check the files on a Dask cluster: a scheduler's address (tcp://host:8786), or 'local' "
                   "for a local cluster of one worker per CPU ('local:N' for N).  Needs the [scale] extra.")
def command(files: tuple[str, ...], out_format: str, as_json: bool, jobs: int, quiet: bool, variant: str | None,
            auto_doubles: int | None, colour: str, excerpt: bool | None, min_severity: str | None = None,
            all_notes: bool = False, html_report: str | None = None, html_only_findings: bool = False,
            dask_address: str | None = None, force: bool = False) -> None:
    """Replay every game of each FILE under the full rules.

    FILE is a .mat transcript, SGF or JSON record (recognised by content), a directory (walked for
    records), a pattern such as 'archive/*.mat', or - for standard input.  Prints compiler-style
    findings, FILE:LINE:COL: error: game G move M (NAME 52): message, then one summary line per file
    and a total for several files.  Exit status: 0 no errors, 1 errors, 2 a file could not be read or
    parsed (the other files are still checked).

    \b
    What is printed (text and github formats):
      --min-severity S   findings of severity S or worse (note < warning < error);
      -q                 the same as --min-severity error, and a summary line only for
                         the files with a finding shown; with --min-severity, -q keeps
                         that severity and is only terse;
      a repeated note    printed once, "(and N more like it in this file)": notes are
                         alike when their messages are, once numbers and quoted values
                         are masked; --all-notes prints each.

    The summary counts every finding, shown or not.  The total line counts the files with
    errors, with warnings (and no error) and clean (no error and no warning).  --format
    json, sarif and junit always hold every finding.
    """
    if as_json:
        out_format = "json"
    least = min_severity or ("error" if quiet else "note")
    found = find_inputs(files)
    paths, problems = found.files, found.problems
    skipped = skipped_summary(found.skipped)
    for p in problems:
        click.echo(f"gammon: {safe_line(p)}", err=True)
    if not paths:
        if skipped is not None:
            click.echo(f"gammon: {safe_line(skipped)}", err=True)
        sys.exit(2)
    if html_report is not None:  # refused before any work: an input, a directory, a FIFO or a device
        from ..convert import check_target

        try:
            check_target(html_report, force=force, inputs=[p for p in paths if p != "-"])
        except FileExistsError as e:
            fail(str(e))
        folder = _pages_folder(html_report)
        if folder.exists() and not force:
            fail(f"{folder} exists (use --force to overwrite the pages in it)")
        refused = _unwritable_pages(folder, _page_names(paths))
        if refused is not None:
            fail(refused)
    if variant:
        from ..rules import get_rules

        variant = get_rules(variant).name
    if dask_address is not None:
        from ..scale import ExtraMissing, check_cluster

        try:
            check_cluster(dask_address, paths)
        except (ExtraMissing, ValueError) as e:
            fail(str(e))
    show_progress = len(paths) > 5 and sys.stderr.isatty() and out_format == "text"
    if jobs == 0:
        jobs = auto_jobs(len(paths))
    if "-" in paths:
        jobs = 1  # standard input is read once, in this process
    if jobs > 1:
        _warm_up(tuple(paths))
    # Validation makes a great many small objects, freed by their reference counts when a file is
    # done: the cycle collector would scan them again and again for nothing.  It runs between files
    # instead, when objects pile up, and never re-scans what the imports left.
    pages: Pages | None = None
    if html_report is not None:  # each match page is written by the process that checked its file
        pages = Pages(str(_pages_folder(html_report)), _page_names(paths),
                      least if html_only_findings else None)
    work = partial(_check_and_collect, variant=variant, auto_doubles=auto_doubles, pages=pages)
    if dask_address is not None:
        from ..scale import dask_map

        task: Any = work if pages is not None else partial(validate_file, variant=variant,
                                                           auto_doubles=auto_doubles)
        run: Any = partial(dask_map, task, paths, dask_address, _failed_file)
    else:
        run = partial(map_files, work, paths, jobs, lost=_failed_file)
    with collector_paused():
        try:
            if show_progress:
                with click.progressbar(length=len(paths), label="validating", file=sys.stderr) as bar:
                    results = run(on_result=lambda: bar.update(1))
            else:
                results = run()
        except OSError as e:  # the cluster cannot be reached
            fail(str(e))
    results = list(results)
    for res in results:
        if res["file"] == "-":
            res["file"] = "<stdin>"
    if html_report is not None:
        _html_report(html_report, results)
    status = 2 if problems else 0
    for res in results:
        if res["unreadable"]:
            status = 2
        elif res["errors"] and status == 0:
            status = 1
    out = sys.stdout
    if out_format == "json":
        import json

        for res in results:
            obj = {k: res[k] for k in ("file", "games", "plays", "errors", "warnings", "notes", "findings")}
            out.write(safe_json(json.dumps(obj, ensure_ascii=False)) + "\n")  # (no raw C1 control)
    elif out_format == "github":
        from ..reports import github

        out.write(github(results, least, all_notes))
    elif out_format == "sarif":
        from ..reports import sarif

        out.write(sarif(results))
    elif out_format == "junit":
        from ..reports import junit

        out.write(junit(results))
    else:
        paint = use_colour(colour, out)
        show_excerpt = excerpt if excerpt is not None else bool(out.isatty())
        _text(results, quiet, least, all_notes, paint, show_excerpt, out)
        if skipped is not None and not quiet:  # the summary says what the walk left out, and why
            out.write(safe_line(skipped) + "\n")
        skipped = None
    if skipped is not None:  # (the other formats' output is a document: said on stderr)
        click.echo(f"gammon: {safe_line(skipped)}", err=True)
    sys.exit(status)


def _text(results: list[dict[str, Any]], quiet: bool, least: str, all_notes: bool, paint: bool,
          show_excerpt: bool, out: Any) -> None:
    from .._term import COLOURS

    def sev(word: str) -> str:
        return f"{COLOURS[word]}{word}{COLOURS['reset']}" if paint else word

    total = {"games": 0, "plays": 0, "errors": 0, "warnings": 0, "notes": 0}
    for res in results:
        for k in total:
            total[k] += res[k]
        lines: list[str] | None = None
        shown = shown_findings(res["findings"], least, all_notes)
        for f, more in shown:
            text = _line(res["file"], f) + more_like_it(more)
            if paint:
                text = text.replace(f": {f['severity']}: ", f": {sev(f['severity'])}: ", 1)
            out.write(text + "\n")
            if show_excerpt and f["line"] and res["file"] != "<stdin>":
                if lines is None:
                    lines = _source_lines(res["file"])
                if 0 < f["line"] <= len(lines):
                    src = lines[f["line"] - 1]
                    out.write(_excerpt(src, f["column"], paint))
        if quiet and not shown:
            continue
        name = safe_line(res["file"])
        if res["unreadable"] and not res["games"]:  # (a stream with a damaged tail: its members were read)
            out.write(f"{name}: cannot be read or parsed\n")
        else:
            out.write(f"{name}: {_summary(res)}\n")
    if len(results) > 1:
        out.write(f"total: {_files_summary(results)}, {_summary(total)}\n")


def _files_summary(results: list[dict[str, Any]]) -> str:
    """``244 files (15 with errors, 3 with warnings, 226 clean)``: each file counted once, by its worst
    finding (an unreadable file has an error; a clean file may have notes)."""
    errors = sum(1 for r in results if r["errors"])
    warnings = sum(1 for r in results if r["warnings"] and not r["errors"])
    clean = len(results) - errors - warnings
    return (f"{plural(len(results), 'file')} ({errors} with errors, {warnings} with warnings, "
            f"{clean} clean)")


def _source_lines(path: str) -> list[str]:
    """The file's lines for excerpts (empty for a binary file or one that cannot be read again).

    Only a regular file is read again: a FIFO (or a device, or standard input) gave its bytes to the
    check and would wait for another writer, or give other bytes; it is opened without waiting and
    left alone.  At most the bound of a record is read."""
    import os
    import stat

    from .._input import MAX_RECORD_BYTES

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return []
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return []
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(MAX_RECORD_BYTES)
    except OSError:
        return []
    finally:
        os.close(fd)
    if b"\x00" in data[:4096]:
        return []
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


EXCERPT_WIDTH = 100
"""At most this many characters of the source line are shown, around the column."""


def _excerpt(src: str, column: int | None, paint: bool) -> str:
    """The source line (cut around the column when long) and a caret under the column."""
    from .._term import COLOURS

    col = (column or 1) - 1
    start = 0
    if len(src) > EXCERPT_WIDTH:
        start = max(0, min(col - EXCERPT_WIDTH // 2, len(src) - EXCERPT_WIDTH))
        src = src[start:start + EXCERPT_WIDTH]
    shown = safe_line(src.expandtabs(1))
    caret = " " * max(0, col - start) + (f"{COLOURS['caret']}^{COLOURS['reset']}" if paint else "^")
    return f"    {shown}\n    {caret}\n" if column else f"    {shown}\n"


def _html_report(report: str, results: list[dict[str, Any]]) -> None:
    for res in results:
        if res.get("page_error"):
            fail(f"{report}: cannot write: {res['page_error']}")
    try:
        write_report(report, results)
    except FileExistsError as e:  # (it names the file)
        fail(str(e))
    except OSError as e:
        fail(f"{report}: cannot write: {getattr(e, 'strerror', None) or e}")


@dataclass(frozen=True)
class Pages:
    """``--html``: where the workers write the match pages.  ``names`` gives each input its page's name
    (without ``.html``); ``least``: write pages only of the files with a finding of this severity or
    worse (``--html-only-findings``), None: of every readable file."""

    folder: str
    names: dict[str, str]
    least: str | None = None


def _pages_folder(report: str) -> Path:
    from pathlib import Path  # (here: pathlib costs a plain validate's start-up milliseconds)

    rpath = Path(report)
    return rpath.parent / f"{rpath.stem}_matches"


_UNSAFE = re.compile(r"[^\w\-]+")


def _page_names(paths: Sequence[str]) -> dict[str, str]:
    """Each input's page name, chosen before any is written (the workers write them): the file's stem,
    its dots and other signs made ``_`` (a dot separates a stream's members: ``NAME.2.html``), and
    ``-2``, ``-3`` ... after a name an earlier file has (compared without case)."""
    from pathlib import Path

    used: set[str] = set()
    out: dict[str, str] = {}
    for p in paths:
        if p in out:
            continue
        stem = _UNSAFE.sub("_", Path(p).stem if p != "-" else "stdin").strip("_") or "match"
        name, n = stem, 1
        while name.lower() in used:
            n += 1
            name = f"{stem}-{n}"
        used.add(name.lower())
        out[p] = name
    return out


def _unwritable_pages(folder: Path, names: dict[str, str]) -> str | None:
    """Why a page of ``--html`` cannot be written, checked before any work (as ``convert`` checks its
    outputs): a page's name in ``folder`` (``NAME.html``, ``NAME.2.html`` ...) that is a FIFO, a device,
    a socket or a directory; None when each can be written."""
    import os

    from ..convert import not_regular

    stems = {n.lower() for n in names.values()}
    try:
        entries = list(os.scandir(folder))
    except OSError:  # none yet (made when the first page is written), or not a folder: said when written
        return None
    for e in entries:
        stem = e.name.partition(".")[0]
        if stem.lower() not in stems or not e.name.lower().endswith(".html"):
            continue
        try:
            st = e.stat()
        except OSError:
            continue  # a dangling link: replaced
        what = "a directory" if e.is_dir() else not_regular(st)
        if what is not None:
            return (f"{folder / e.name} is {what}, not a regular file: no page is written over it, even with "
                    "--force")
    return None


def write_pages(src: str, folder: str, name: str, variant: str | None = None,
                auto_doubles: int | None = None, stats: list[Any] | None = None) -> list[str]:
    """The match pages (:func:`render.html.match_page`) of the file ``src``, written into ``folder`` as
    ``NAME.html`` (a second match of the file ``NAME.2.html`` ...); returns their paths (none for a file
    that cannot be read).  ``stats``, when given, gets the statistics (:mod:`notation.statistics`, without
    their decisions) of each match that holds an analysis, for the report's players' table."""
    from pathlib import Path

    from render.html import match_page

    from ..errors import NotationError
    from ..matchio import read_any
    from ..replay import replay_match

    try:
        matches = read_any(src)
    except (OSError, NotationError):
        return []
    written: list[str] = []
    for k, match in enumerate(matches):
        if variant:
            match.rules.variant = variant
        if auto_doubles is not None:
            match.rules.auto_doubles = auto_doubles
        match.source = src
        Path(folder).mkdir(parents=True, exist_ok=True)
        target = str(Path(folder) / (f"{name}.{k + 1}.html" if k else f"{name}.html"))
        rep = replay_match(match)
        _publish(target, match_page(match, rep), [src])
        written.append(target)
        if stats is not None:
            from ..decisions import has_analysis
            from ..statistics import statistics

            if has_analysis(match):
                st = statistics(rep)
                st.decisions = []
                stats.append(st)
    return written


def write_report(report: str, results: Sequence[dict[str, Any]], variant: str | None = None,
                 auto_doubles: int | None = None) -> list[str]:
    """``--html REPORT``: write the batch page ``report`` (:func:`render.html.batch_page`) and, in a folder
    beside it (``NAME_matches/``), one page per readable match (:func:`write_pages`); returns the paths
    written.  A result that already holds its ``pages`` (written by the worker that checked it) is not
    written again.  Each row of the report links to its file's first page; every file has a row."""
    from pathlib import Path

    from render.html import batch_page

    folder = _pages_folder(report)
    names = _page_names([str(r["file"]) for r in results])
    links: dict[str, str] = {}
    written: list[str] = []
    for res in results:
        src = str(res["file"])
        pages = res.get("pages")
        if pages is None:
            res["statistics"] = []
            pages = [] if res.get("unreadable") else write_pages(src, str(folder), names[src], variant,
                                                                   auto_doubles, res["statistics"])
        written += pages
        if pages:
            links[src] = f"{folder.name}/{Path(pages[0]).name}"
    _publish(report, batch_page(results, links), [str(r["file"]) for r in results])
    written.append(report)
    return written


def _publish(path: str, text: str, inputs: Sequence[str]) -> None:
    """Written whole (through a temporary file and a rename), readable as the umask allows (a temporary
    file is created private): the pages are made to be put on a web server."""
    import os

    from ..convert import atomic_write

    atomic_write(path, text, force=True, inputs=inputs)
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(path, 0o666 & ~mask)


def _failed_file(path: str, reason: str) -> dict[str, Any]:
    """The result of a file whose task failed on the cluster, or that killed the processes that read it."""
    return {"file": path, "games": 0, "plays": 0, "errors": 1, "warnings": 0, "notes": 0, "unreadable": True,
            "findings": [Finding("error", f"not checked: {reason}", path).to_dict()]}


def _check_and_collect(path: str, variant: str | None, auto_doubles: int | None,
                       pages: Pages | None = None) -> dict[str, Any]:
    """Check the file and, for ``--html``, write its match pages in the same process (the page of a file
    is the batch's costly part: it is shared among the workers as the checking is)."""
    result = check_file(path, variant, auto_doubles)
    if pages is not None and path != "-":
        result["pages"] = []
        wanted = not result["unreadable"] and (
            pages.least is None or any(True for _ in shown_findings(result["findings"], pages.least)))
        if wanted:
            try:
                result["statistics"] = []
                result["pages"] = write_pages(path, pages.folder, pages.names[path], variant, auto_doubles,
                                              result["statistics"])
            except OSError as e:
                result["page_error"] = str(getattr(e, "strerror", None) or e)
    collect_if_piled()
    return result


def _warm_up(files: tuple[str, ...]) -> None:
    """Compile the .mat reader's regular expressions before the workers start, so that no forked worker
    compiles them again.  (lark's parser, which only files the line reader leaves to it need, is built
    or loaded by the first such file in each process.)"""
    from ..formats import mat

    mat.build_parsers()
