"""``gammon validate FILE...``: replay every game under the full rules and report findings (as compiler-style
lines, JSON, or for CI systems through :mod:`notation.reports`), optionally with a web page for the batch."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

import click

from .._term import fail, plural, safe_line, use_colour
from ..batch import validate_file
from ..matchio import expand_inputs
from ..parallel import auto_jobs, collect_if_piled, collector_paused, map_files
from ..replay import Finding
from ..reports import SEVERITIES, more_like_it, shown_findings

__all__ = ["command", "check_file", "write_report", "FORMATS", "VARIANTS"]

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
@click.option("--dask", "dask_address", default=None, metavar="ADDRESS",
              help="Check the files on a Dask cluster: a scheduler's address (tcp://host:8786), or 'local' "
                   "for a local cluster of one worker per CPU ('local:N' for N).  Needs the [scale] extra.")
def command(files: tuple[str, ...], out_format: str, as_json: bool, jobs: int, quiet: bool, variant: str | None,
            auto_doubles: int | None, colour: str, excerpt: bool | None, min_severity: str | None = None,
            all_notes: bool = False, html_report: str | None = None, dask_address: str | None = None) -> None:
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
    paths, problems = expand_inputs(files)
    for p in problems:
        click.echo(f"gammon: {safe_line(p)}", err=True)
    if not paths:
        sys.exit(2)
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
    work = partial(_check_and_collect, variant=variant, auto_doubles=auto_doubles)
    if dask_address is not None:
        from ..scale import dask_map

        run: Any = partial(dask_map, partial(validate_file, variant=variant, auto_doubles=auto_doubles),
                           paths, dask_address, _failed_file)
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
        _html_report(html_report, results, variant, auto_doubles)
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
            out.write(json.dumps(obj, ensure_ascii=False) + "\n")
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
    """The file's lines for excerpts (empty for a binary file or one that cannot be read again)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(64 << 20)
    except OSError:
        return []
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


def _html_report(report: str, results: list[dict[str, Any]], variant: str | None,
                 auto_doubles: int | None) -> None:
    try:
        write_report(report, results, variant, auto_doubles)
    except (OSError, FileExistsError) as e:
        fail(f"{report}: cannot write: {getattr(e, 'strerror', None) or e}")


def write_report(report: str, results: Sequence[dict[str, Any]], variant: str | None = None,
                 auto_doubles: int | None = None) -> list[str]:
    """``--html REPORT``: write the batch page ``report`` (:func:`render.html.batch_page`) and, in a folder
    beside it (``NAME_matches/``), one page per readable match (:func:`render.html.match_page`); returns the
    paths written.  Each row of the report links to its file's page."""
    from render.html import batch_page, match_page

    from ..errors import NotationError
    from ..matchio import read_any
    from ..replay import replay

    rpath = Path(report)
    folder = rpath.parent / f"{rpath.stem}_matches"
    links: dict[str, str] = {}
    written: list[str] = []
    used: set[str] = set()
    for res in results:
        if res.get("unreadable"):
            continue
        src = str(res["file"])
        try:
            matches = read_any(src)
        except (OSError, NotationError):
            continue
        for k, match in enumerate(matches):
            if variant:
                match.rules.variant = variant
            if auto_doubles is not None:
                match.rules.auto_doubles = auto_doubles
            match.source = src
            stem = Path(src).stem + (f"-{k + 1}" if k else "")
            name, n = stem, 1
            while name.lower() in used:
                n += 1
                name = f"{stem}-{n}"
            used.add(name.lower())
            folder.mkdir(parents=True, exist_ok=True)
            target = folder / f"{name}.html"
            _publish(str(target), match_page(match, replay(match)), [src])
            written.append(str(target))
            if k == 0:
                links[src] = f"{folder.name}/{target.name}"
    rpath.parent.mkdir(parents=True, exist_ok=True)
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


def _check_and_collect(path: str, variant: str | None, auto_doubles: int | None) -> dict[str, Any]:
    result = check_file(path, variant, auto_doubles)
    collect_if_piled()
    return result


def _warm_up(files: tuple[str, ...]) -> None:
    """Compile the .mat reader's regular expressions before the workers start, so that no forked worker
    compiles them again.  (lark's parser, which only files the line reader leaves to it need, is built
    or loaded by the first such file in each process.)"""
    from ..formats import mat

    mat.build_parsers()
