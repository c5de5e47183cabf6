"""What ``gammon validate FILE...`` does: replay every game under the full rules and report findings.

The command's options are read by click (:mod:`notation.commands.validate`), or, for the common command
lines (files, ``--quiet``, ``--json``, ``--jobs N``), by :func:`quick_args` without importing click at all
(tests/test_cli_validate.py holds it to click's reading).  Nothing here imports click unless it is used:
a progress bar on a terminal, a message through ``click.echo``."""

from __future__ import annotations

import sys
from functools import partial
from typing import Any

from .._term import plural, safe_line, use_colour
from ..batch import validate_file
from ..matchio import expand_inputs
from ..parallel import auto_jobs, collect_if_piled, collector_paused, map_files
from ..replay import Finding
from . import _quick
from ._cluster import check_dask

VARIANTS = ("standard", "nackgammon", "hypergammon", "hypergammon1", "hypergammon2", "hypergammon3", "dutch",
            "acey-deucey")
"""The names --variant takes (notation.rules.get_rules also knows some aliases)."""

"""Between two files, collect garbage cycles when this many more objects live than after the last
collection (a file's own objects are freed when it is done, so this happens only if cycles pile up)."""


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


QUICK_OPTIONS: dict[str, _quick.Option] = {
    "--quiet": ("quiet", "flag", None), "-q": ("quiet", "flag", None), "--json": ("as_json", "flag", None),
    "--jobs": ("jobs", "int", (0, 64)), "-j": ("jobs", "int", (0, 64)),
}
"""The options :func:`quick_args` reads (as :mod:`notation.commands.validate` declares them to click)."""


def quick_args(args: list[str]) -> dict[str, Any] | None:
    """The arguments of a common ``gammon validate`` command line as click reads them (the keywords of
    :func:`run`), without click: files (``-`` for standard input; no other word starting with ``-``),
    ``--quiet``/``-q``, ``--json``, ``--jobs N``/``-j N``/``--jobs=N`` with N from 0 to 64 in digits.
    None for anything else, which click reads (other options, ``--help``, ``--``, errors)."""
    return _quick.read(args, QUICK_OPTIONS, {"out_format": "text", "as_json": False, "jobs": 0, "quiet": False},
                       "files")


def run(files: tuple[str, ...], out_format: str = "text", as_json: bool = False, jobs: int = 0, quiet: bool = False,
        variant: str | None = None, auto_doubles: int | None = None, colour: str = "auto",
        excerpt: bool | None = None, html_report: str | None = None, dask_address: str | None = None) -> None:
    """``gammon validate`` with its options' values (see :mod:`notation.commands.validate`); ends with
    ``sys.exit`` and the exit status."""
    if as_json:
        out_format = "json"
    paths, problems = expand_inputs(files)
    for p in problems:
        import click

        click.echo(f"gammon: {safe_line(p)}", err=True)
    if not paths:
        sys.exit(2)
    if variant:
        from ..rules import get_rules

        variant = get_rules(variant).name
    if dask_address is not None:
        check_dask(dask_address, paths)
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
                import click

                with click.progressbar(length=len(paths), label="validating", file=sys.stderr) as bar:
                    results = run(on_result=lambda: bar.update(1))
            else:
                results = run()
        except OSError as e:  # the cluster cannot be reached
            from ..cli import fail

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
        from ._reports import github

        out.write(github(results, quiet))
    elif out_format == "sarif":
        from ._reports import sarif

        out.write(sarif(results))
    elif out_format == "junit":
        from ._reports import junit

        out.write(junit(results))
    else:
        paint = use_colour(colour, out)
        show_excerpt = excerpt if excerpt is not None else bool(out.isatty())
        _text(results, quiet, paint, show_excerpt, out)
    sys.exit(status)


def _text(results: list[dict[str, Any]], quiet: bool, paint: bool, show_excerpt: bool, out: Any) -> None:
    from .._term import COLOURS

    def sev(word: str) -> str:
        return f"{COLOURS[word]}{word}{COLOURS['reset']}" if paint else word

    total = {"games": 0, "plays": 0, "errors": 0, "warnings": 0, "notes": 0}
    for res in results:
        for k in total:
            total[k] += res[k]
        lines: list[str] | None = None
        for f in res["findings"]:
            if quiet and f["severity"] != "error":
                continue
            text = _line(res["file"], f)
            if paint:
                text = text.replace(f": {f['severity']}: ", f": {sev(f['severity'])}: ", 1)
            out.write(text + "\n")
            if show_excerpt and f["line"] and res["file"] != "<stdin>":
                if lines is None:
                    lines = _source_lines(res["file"])
                if 0 < f["line"] <= len(lines):
                    src = lines[f["line"] - 1]
                    out.write(_excerpt(src, f["column"], paint))
        if quiet and not res["errors"]:
            continue
        name = safe_line(res["file"])
        if res["unreadable"] and not res["games"]:  # (a stream with a damaged tail: its members were read)
            out.write(f"{name}: cannot be read or parsed\n")
        else:
            out.write(f"{name}: {_summary(res)}\n")
    if len(results) > 1 and not quiet:
        out.write(f"total: {plural(len(results), 'file')}, {_summary(total)}\n")


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
    from .html_page import write_report

    try:
        write_report(report, results, variant, auto_doubles)
    except (OSError, FileExistsError) as e:
        from ..cli import fail

        fail(f"{report}: cannot write: {getattr(e, 'strerror', None) or e}")


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
