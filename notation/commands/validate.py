"""``gammon validate FILE...``: replay every game under the full rules and report findings."""

from __future__ import annotations

import gc
import sys
from functools import partial
from typing import Any

import click

from ..errors import NotationError
from ..matchio import read_any
from ..parallel import auto_jobs, map_files
from ..replay import Finding, replay

GC_SURVIVORS = 20_000
"""Between two files, collect garbage cycles when this many more objects live than after the last
collection (a file's own objects are freed when it is done, so this happens only if cycles pile up)."""


def check_file(path: str, variant: str | None = None, auto_doubles: int | None = None) -> dict[str, Any]:
    """Validate one file; the result is plain data (it crosses process boundaries)."""
    out: dict[str, Any] = {"file": path, "games": 0, "plays": 0, "errors": 0, "warnings": 0, "notes": 0,
                           "findings": [], "unreadable": False}
    try:
        matches = read_any(path)
    except OSError as e:
        out["unreadable"] = True
        out["errors"] = 1
        out["findings"].append(Finding("error", f"cannot read: {e.strerror or e}", path).to_dict())
        return out
    except NotationError as e:
        out["unreadable"] = True
        out["errors"] = 1
        out["findings"].append(Finding("error", e.message, path, e.line, e.column,
                                       text=(e.text or "").strip()).to_dict())
        return out
    for match in matches:
        if variant:
            match.rules.variant = variant
        if auto_doubles is not None:
            match.rules.auto_doubles = auto_doubles
        match.source = path
        rep = replay(match)
        out["games"] += len(rep.games)
        out["plays"] += rep.plays
        for f in rep.findings:
            out["findings"].append(f.to_dict())
    for f in out["findings"]:
        out[f["severity"] + "s"] += 1
    return out


def _line(path: str, f: dict[str, Any]) -> str:
    fd = Finding(f["severity"], f["message"], path, f["line"], f["column"], f["game"], f["move"], f["player"],
                 f["roll"], f["text"] or "", f["xgid"])
    return fd.format()


@click.command("validate")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=str))
@click.option("--json", "as_json", is_flag=True, help="One JSON object a line per file.")
@click.option("--jobs", "-j", type=click.IntRange(0, 64), default=0, show_default=True,
              help="Check files in this many parallel processes; 0: one per CPU (at most 16, one per "
                   "four files) when there are at least 8 files.")
@click.option("--quiet", "-q", is_flag=True, help="Only errors, and summaries of files with errors.")
@click.option("--variant", default=None, help="Override the variant the record names.")
@click.option("--auto-doubles", type=click.IntRange(0, 16), default=None,
              help="Money play with automatic doubles, at most N a game (.mat files do not say).")
@click.option("--html", "html_report", default=None, metavar="REPORT.html",
              help="Also write a web page for the batch (a sortable table of files), with each match's "
                   "page in REPORT_matches/ beside it.")
def command(files: tuple[str, ...], as_json: bool, jobs: int, quiet: bool, variant: str | None,
            auto_doubles: int | None, html_report: str | None = None) -> None:
    """Replay every game of each FILE (.mat, .sgf, .json) under the full rules.

    Prints compiler-style findings, FILE:LINE:COL: error: game G move M (NAME 52): message, then one
    summary line per file.  Exit status: 0 no errors, 1 errors, 2 a file could not be read or parsed.
    """
    if variant:
        from ..rules import get_rules

        try:
            variant = get_rules(variant).name
        except ValueError as e:
            from ..cli import fail

            fail(str(e))
    show_progress = len(files) > 5 and sys.stderr.isatty() and not as_json
    if jobs == 0:
        jobs = auto_jobs(len(files))
    if jobs > 1:
        _warm_up(files)
    # Validation makes a great many small objects, freed by their reference counts when a file is
    # done: the cycle collector would scan them again and again for nothing.  It runs between files
    # instead, when objects pile up, and never re-scans what the imports left.
    work = partial(_check_and_collect, variant=variant, auto_doubles=auto_doubles)
    enabled = gc.isenabled()
    gc.freeze()
    gc.disable()
    try:
        if show_progress:
            with click.progressbar(length=len(files), label="validating", file=sys.stderr) as bar:
                results = map_files(work, files, jobs, lambda: bar.update(1))
        else:
            results = map_files(work, files, jobs)
    finally:  # as it was, for a caller that goes on (tests, an embedding program)
        gc.unfreeze()
        if enabled:
            gc.enable()
    if html_report is not None:
        results = list(results)
        _html_report(html_report, results, variant, auto_doubles)
    status = 0
    for res in results:
        if res["unreadable"]:
            status = 2
        elif res["errors"] and status == 0:
            status = 1
        if as_json:
            import json

            obj = {k: res[k] for k in ("file", "games", "plays", "errors", "warnings", "findings")}
            click.echo(json.dumps(obj, ensure_ascii=False))
            continue
        for f in res["findings"]:
            if quiet and f["severity"] != "error":
                continue
            click.echo(_line(res["file"], f))
        if quiet and not res["errors"]:
            continue
        if res["unreadable"]:
            click.echo(f"{res['file']}: cannot be read or parsed")
        else:
            click.echo(f"{res['file']}: {res['games']} games, {res['plays']} plays, {res['errors']} errors, "
                       f"{res['warnings']} warnings, {res['notes']} notes")
    sys.exit(status)


def _html_report(report: str, results: list[dict[str, Any]], variant: str | None,
                 auto_doubles: int | None) -> None:
    from .html_page import write_report

    try:
        write_report(report, results, variant, auto_doubles)
    except (OSError, FileExistsError) as e:
        from ..cli import fail

        fail(f"{report}: cannot write: {getattr(e, 'strerror', None) or e}")


def _check_and_collect(path: str, variant: str | None, auto_doubles: int | None) -> dict[str, Any]:
    result = check_file(path, variant, auto_doubles)
    if gc.get_count()[0] > GC_SURVIVORS:
        gc.collect()
    return result


def _warm_up(files: tuple[str, ...]) -> None:
    """Build the parsers the files need before the workers start, so that no forked worker builds
    (or loads) them again."""
    from .._grammar import parser
    from ..formats import mat

    mat.build_parsers()
    if any(f.lower().endswith(".sgf") for f in files):
        parser("sgf")
