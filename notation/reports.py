"""Findings for CI systems: GitHub workflow commands, SARIF 2.1.0 and JUnit XML (``validate --format``)."""

from __future__ import annotations

import re
from typing import Any

from ._term import safe, safe_json, safe_line

_XML_ATTR = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\n": "&#10;", "\r": "&#13;",
                           "\t": "&#9;"})


def quoteattr(text: str) -> str:
    """``text`` as a double-quoted XML attribute value (without importing :mod:`xml.sax.saxutils`, whose
    import pulls in ``urllib.request``, ``http.client`` and ``email``: 60 ms of every ``validate``)."""
    return '"' + text.translate(_XML_ATTR) + '"'

SEVERITIES = ("note", "warning", "error")
"""The severities, least first (``validate --min-severity`` takes one of them)."""

_RANK = {s: k for k, s in enumerate(SEVERITIES)}

_GITHUB_LEVEL = {"error": "error", "warning": "warning", "note": "notice"}
_SARIF_LEVEL = {"error": "error", "warning": "warning", "note": "note"}


_QUOTED = re.compile(r"""(?<!\w)'[^'\n]*'(?!\w)|(?<!\w)"[^"\n]*"(?!\w)""")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def note_kind(message: str) -> str:
    """What makes two notes "alike": the message with its quoted values (``'nori,1749'``) masked as
    ``'…'`` and then its numbers (ratings, scores, points, counts, game numbers) as ``#``.  A note made
    by one line of a reader or of the replay differs from its repeats only in those, so the mask is
    the note's kind: ``rating # split off the name '…'`` for every rating split off a name."""
    return _NUMBER.sub("#", _QUOTED.sub("'…'", message))


def shown_findings(findings: list[dict[str, Any]], min_severity: str = "note",
                   all_notes: bool = False) -> list[tuple[dict[str, Any], int]]:
    """The findings the text and github formats print, each with how many more like it it stands for.

    A finding below ``min_severity`` is left out.  Unless ``all_notes``, a note whose kind
    (:func:`note_kind`) repeats within the file is printed once, where it first occurs, standing for
    the others (``… (and 33 more like it in this file)``); errors and warnings are always printed each.
    ``findings`` is one file's list, in its order; the order is kept."""
    least = _RANK[min_severity]
    out: list[tuple[dict[str, Any], int]] = []
    first: dict[str, int] = {}
    for f in findings:
        if _RANK[f["severity"]] < least:
            continue
        if f["severity"] == "note" and not all_notes:
            kind = note_kind(f["message"])
            k = first.get(kind)
            if k is not None:
                out[k] = (out[k][0], out[k][1] + 1)
                continue
            first[kind] = len(out)
        out.append((f, 0))
    return out


def more_like_it(n: int) -> str:
    """The words added to a note that stands for ``n`` more like it (nothing for 0)."""
    return f" (and {n} more like it in this file)" if n else ""


def _gh_escape(text: str, prop: bool = False) -> str:
    text = safe(text)  # (a file name's control characters as escapes: the line may reach a terminal)
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def _where(f: dict[str, Any]) -> str:
    ctx = " ".join(x for x in (f"game {f['game']}" if f.get("game") is not None else "",
                               f"move {f['move']}" if f.get("move") is not None else "") if x)
    return f"{ctx}: {f['message']}" if ctx else f["message"]


def github(results: list[dict[str, Any]], min_severity: str = "note", all_notes: bool = False) -> str:
    """One ``::error file=F,line=L,col=C::message`` line per finding (GitHub Actions annotations), for
    the findings :func:`shown_findings` keeps (a repeated note once, with its count)."""
    out = []
    for res in results:
        for f, more in shown_findings(res["findings"], min_severity, all_notes):
            props = [f"file={_gh_escape(res['file'], True)}"]
            if f.get("line"):
                props.append(f"line={f['line']}")
            if f.get("column"):
                props.append(f"col={f['column']}")
            text = _gh_escape(_where(f) + more_like_it(more))
            out.append(f"::{_GITHUB_LEVEL[f['severity']]} {','.join(props)}::{text}\n")
    return "".join(out)


def sarif(results: list[dict[str, Any]]) -> str:
    """One SARIF 2.1.0 document for the whole batch."""
    from ._version import __version__

    items = []
    for res in results:
        for f in res["findings"]:
            loc: dict[str, Any] = {"artifactLocation": {"uri": res["file"]}}
            if f.get("line"):
                region: dict[str, Any] = {"startLine": f["line"]}
                if f.get("column"):
                    region["startColumn"] = f["column"]
                if f.get("text"):
                    region["snippet"] = {"text": f["text"]}
                loc["region"] = region
            items.append({"ruleId": "unreadable" if res["unreadable"] else "rules",
                          "level": _SARIF_LEVEL[f["severity"]],
                          "message": {"text": _where(f)},
                          "locations": [{"physicalLocation": loc}]})
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "gammon", "version": __version__,
                                "informationUri": "https://pypi.org/project/gammon-notation/",
                                "rules": [{"id": "rules", "shortDescription": {"text": "Backgammon rules"}},
                                          {"id": "unreadable", "shortDescription": {"text": "Unreadable record"}}]}},
            "results": items,
        }],
    }
    import json  # (here: text reports, the default, need no json)

    return safe_json(json.dumps(doc, ensure_ascii=False, indent=2)) + "\n"  # (no raw C1 control)


def junit(results: list[dict[str, Any]]) -> str:
    """JUnit XML: one test case per file, failing when it has errors (warnings and notes as output)."""
    failures = sum(1 for r in results if r["errors"] and not r["unreadable"])
    errors = sum(1 for r in results if r["unreadable"])
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<testsuites name="gammon validate" tests="{len(results)}" failures="{failures}" errors="{errors}">',
             f'  <testsuite name="gammon validate" tests="{len(results)}" failures="{failures}" errors="{errors}">']
    for res in results:
        name = quoteattr(safe_line(res["file"]))
        lines.append(f"    <testcase classname=\"gammon.validate\" name={name}>")
        text = "\n".join(safe_line(f"{res['file']}:{f.get('line') or ''}:{f.get('column') or ''}: "
                                   f"{f['severity']}: {_where(f)}") for f in res["findings"])
        body = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        if res["unreadable"]:
            msg = quoteattr(safe_line(res["findings"][0]["message"]))
            lines.append(f"      <error message={msg}>{body}</error>")
        elif res["errors"]:
            msg = quoteattr(f"{res['errors']} error{'s' if res['errors'] != 1 else ''}")
            lines.append(f"      <failure message={msg}>{body}</failure>")
        elif body:
            lines.append(f"      <system-out>{body}</system-out>")
        lines.append("    </testcase>")
    lines += ["  </testsuite>", "</testsuites>"]
    return "\n".join(lines) + "\n"
