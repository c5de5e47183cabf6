"""``gammon stats FILE...``: the statistics players compare, per player, from a record's analysis
(:mod:`notation.statistics`): gnubg's figures and XG's PR side by side, as a table, JSON or CSV."""

from __future__ import annotations

import csv
import io
import json
import sys
from typing import TYPE_CHECKING, Any

import click

from .._term import plural, safe_json, safe_line

if TYPE_CHECKING:  # pragma: no cover
    from ..statistics import GnubgFigures, PlayerRow, Statistics, XgFigures

__all__ = ["command", "match_table", "players_text", "players_csv"]

CSV_COLUMNS = ("player", "matches", "pr", "pr_low", "pr_high", "checker_pr", "cube_pr", "decisions",
               "uncounted", "error_rate", "checker_error_rate", "cube_error_rate", "snowie_error_rate",
               "unforced_moves", "close_cube_decisions", "error_emg", "luck_emg", "luck_rate", "rating")


def _num(x: float | None, digits: int, sign: bool = True) -> str:
    if x is None:
        return "-"
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def _pair(emg: float | None, mwc: float | None, money: bool, digits: int = 3) -> str:
    if emg is None:
        return "-"
    second = "-" if mwc is None else (f"{mwc:+.3f}" if money else f"{mwc:+.3f}%")
    return f"{emg:+.{digits}f} ({second})"


def _rows(g: tuple[GnubgFigures, GnubgFigures], x: tuple[XgFigures, XgFigures], money: bool
          ) -> list[tuple[str, str, str]]:
    """The lines of one table: (label, player 0's cell, player 1's cell); a label alone is a heading."""
    unit = "EMG (points)" if money else "EMG (MWC)"

    def row(label: str, f: Any) -> tuple[str, str, str]:
        return label, f(g[0], x[0]), f(g[1], x[1])

    out: list[tuple[str, str, str]] = [("gnubg's statistics", "", "")]
    out += [
        row("Total moves", lambda a, _: str(a.total_moves)),
        row("Unforced moves", lambda a, _: str(a.unforced_moves)),
        row("Marked doubtful / bad / very bad", lambda a, _: f"{a.doubtful} / {a.bad} / {a.very_bad}"),
        row(f"Checker error {unit}", lambda a, _: _pair(a.checker_error_emg, a.checker_error_mwc, money)),
        row("Checker error rate mEMG", lambda a, _: _num(a.checker_error_rate, 1)),
        row(f"Luck {unit}", lambda a, _: _pair(a.luck_emg, a.luck_mwc, money)),
        row("Luck rate mEMG", lambda a, _: _num(a.luck_rate, 1)),
        row("Cube decisions (close or actual)", lambda a, _: f"{a.cube_decisions} ({a.close_cube_decisions})"),
        row("Doubles / takes / passes", lambda a, _: f"{a.doubles} / {a.takes} / {a.passes}"),
    ]
    for key, label in (("missed_double_below_cp", "Missed doubles below CP"),
                       ("missed_double_above_cp", "Missed doubles above CP"),
                       ("wrong_double_below_dp", "Wrong doubles below DP"),
                       ("wrong_double_above_tg", "Wrong doubles above TG"),
                       ("wrong_take", "Wrong takes"), ("wrong_pass", "Wrong passes")):
        def cell(a: GnubgFigures, _: XgFigures, key: str = key) -> str:
            c = a.cube_errors[key]
            return "0" if not c["count"] else f"{c['count']} ({_pair(float(c['emg']), float(c['mwc']), money)})"
        out.append(row(label, cell))
    out += [
        row(f"Cube error {unit}", lambda a, _: _pair(a.cube_error_emg, a.cube_error_mwc, money)),
        row("Cube error rate mEMG", lambda a, _: _num(a.cube_error_rate, 1)),
        row(f"Overall error {unit}", lambda a, _: _pair(a.error_emg, a.error_mwc, money)),
        row("Overall error rate mEMG", lambda a, _: _num(a.error_rate, 1)),
        row("Snowie error rate", lambda a, _: _num(a.snowie_error_rate, 1)),
        row("Rating", lambda a, _: a.overall_rating or "-"),
        ("XG's Performance Rating", "", ""),
        row("PR (95% interval)", lambda _, b: "-" if b.pr is None else (
            f"{b.pr:.2f}" + ("" if b.pr_low is None or b.pr_high is None else f" ({b.pr_low:.2f}-{b.pr_high:.2f})"))),
        row("Checker PR / cube PR", lambda _, b: f"{_num(b.checker_pr, 2, False)} / {_num(b.cube_pr, 2, False)}"),
        row("Decisions (checker + cube)", lambda _, b: f"{b.decisions} ({b.checker_decisions} + {b.cube_decisions})"),
        row("Luck per roll (zero-sum)", lambda _, b: _num(b.luck_per_roll, 4)),
    ]
    return out


def _format(rows: list[tuple[str, str, str]], names: tuple[str, str]) -> list[str]:
    width = max(len(r[0]) for r in rows) + 4
    c1 = max([len(names[0])] + [len(r[1]) for r in rows]) + 3
    lines = [f"{'':{width}}{names[0]:<{c1}}{names[1]}"]
    for label, a, b in rows:
        lines.append(label if not a and not b else f"  {label:{width - 2}}{a:<{c1}}{b}")
    return lines


def match_table(st: Statistics, games: bool = False) -> str:
    """The text ``gammon stats`` prints for one match (each game's table too with ``games``)."""
    money = st.match_length == 0
    length = "money session" if money else f"{st.match_length}-point match"
    head = f"{st.file or '-'}: {st.players[0]} vs {st.players[1]}, {length}, {plural(len(st.games), 'game')}"
    lines = [head, ""]
    lines += _format(_rows(st.match.gnubg, st.match.xg, money), st.players)
    if games:
        for n, g in zip(st.game_numbers, st.games, strict=True):
            lines += ["", f"Game {n}"]
            lines += _format(_rows(g.gnubg, g.xg, money), st.players)
    for m in st.messages:
        lines.append(f"note: {m}")
    return "\n".join(safe_line(x) for x in lines)


def _csv_row(r: PlayerRow) -> list[object]:
    g, x = r.gnubg, r.xg

    def f(v: float | None, d: int) -> str:
        return "" if v is None else f"{v:.{d}f}"

    return [r.name, r.matches, f(x.pr, 2), f(x.pr_low, 2), f(x.pr_high, 2), f(x.checker_pr, 2), f(x.cube_pr, 2),
            x.decisions, x.uncounted, f(g.error_rate, 1), f(g.checker_error_rate, 1), f(g.cube_error_rate, 1),
            f(g.snowie_error_rate, 1), g.unforced_moves, g.close_cube_decisions, f(g.error_emg, 3), f(g.luck_emg, 3),
            f(g.luck_rate, 1), g.overall_rating or ""]


def players_csv(rows: list[PlayerRow]) -> str:
    """The players' table as CSV (a header, then a row a player)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for r in rows:
        w.writerow(_csv_row(r))
    return buf.getvalue()


def players_text(rows: list[PlayerRow]) -> str:
    """The players' table as text: a row a player, best PR first."""
    head = ("Player", "Matches", "PR", "95% interval", "Checker", "Cube", "Decisions", "gnubg rate", "Snowie",
            "Rating")
    body = []
    for r in rows:
        g, x = r.gnubg, r.xg
        interval = "-" if x.pr_low is None or x.pr_high is None else f"{x.pr_low:.2f}-{x.pr_high:.2f}"
        body.append((r.name, str(r.matches), _num(x.pr, 2, False), interval, _num(x.checker_pr, 2, False),
                     _num(x.cube_pr, 2, False), str(x.decisions), _num(g.error_rate, 1), _num(g.snowie_error_rate, 1),
                     g.overall_rating or "-"))
    widths = [max(len(h), *(len(b[i]) for b in body)) if body else len(h) for i, h in enumerate(head)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip()]
    lines += ["  ".join(c.ljust(w) for c, w in zip(b, widths, strict=True)).rstrip() for b in body]
    return "\n".join(safe_line(x) for x in lines)


@click.command("stats")
@click.argument("files", nargs=-1, required=True, type=str)
@click.option("--format", "out_format", type=click.Choice(["text", "json", "csv"]), default="text",
              show_default=True,
              help="text: a table per match (several: the players' table); json: one object a match a line; "
                   "csv: the players' table.")
@click.option("--json", "as_json", is_flag=True, help="The same as --format json.")
@click.option("--games", is_flag=True, help="text: each game's table too.")
@click.option("--players", "players_only", is_flag=True,
              help="text: only the players' table, even for one file.")
@click.option("--jobs", "-j", type=click.IntRange(0, 64), default=0, show_default=True,
              help="Read files in this many parallel processes; 0: one per CPU (at most 16, one per four "
                   "files) when there are at least 8 files.")
def command(files: tuple[str, ...], out_format: str, as_json: bool, games: bool, players_only: bool,
            jobs: int) -> None:
    """The statistics of each analysed match FILE (gnubg SGF, .xg, OGXM, JSON): per player, for the match
    and each game, gnubg's (its "statistics": error rates, luck, cube errors, ratings) and XG's
    Performance Rating (500 x error per decision, with a 95% interval), from the per-decision analysis.

    A record with no analysis, or only part of it, gets its counts and a note, never a figure made
    from missing ones.  Several files (a directory, a pattern) give a table per player across them:
    a tournament's PR table; --format csv writes it as CSV.

    \b
    gammon stats match.sgf
    gammon stats --json match.xg
    gammon stats --format csv tournament/ > pr.csv
    """
    from ..matchio import find_inputs, skipped_summary
    from ..parallel import auto_jobs, collector_paused, map_files
    from ..statistics import players_table

    if as_json:
        out_format = "json"
    found = find_inputs(files)
    for p in found.problems:
        click.echo(f"gammon: {safe_line(p)}", err=True)
    skipped = skipped_summary(found.skipped)
    if skipped is not None:
        click.echo(f"gammon: {safe_line(skipped)}", err=True)
    if not found.files:
        sys.exit(2)
    status = 2 if found.problems else 0
    all_stats: list[Statistics] = []
    several = found.walked or len(found.files) > 1
    text_blocks = 0
    paths = found.files
    jobs = jobs or auto_jobs(len(paths))
    if "-" in paths:
        jobs = 1  # standard input is read once, in this process
    with collector_paused():
        results = map_files(_file_statistics, paths, jobs, lost=_lost)
    for error, stats in results:
        if error is not None:
            click.echo(f"gammon: {safe_line(error)}", err=True)
            status = 2
            continue
        for st in stats:
            all_stats.append(st)
            if out_format == "json":
                click.echo(safe_json(json.dumps(_json(st), ensure_ascii=False)))
            elif out_format == "text" and not players_only and (not several or games):
                if text_blocks:
                    click.echo()
                click.echo(match_table(st, games))
                text_blocks += 1
    if out_format == "csv":
        click.echo(players_csv(players_table(all_stats)), nl=False)
    elif out_format == "text" and (several or players_only) and all_stats:
        if text_blocks:
            click.echo()
        click.echo(players_text(players_table(all_stats)))
        unanalysed = sum(1 for st in all_stats if st.messages and "no analysis" in st.messages[0])
        if unanalysed:
            verb = "holds" if unanalysed == 1 else "hold"
            click.echo(f"note: {plural(unanalysed, 'match')} of {len(all_stats)} {verb} no analysis", err=True)
    sys.exit(status)


def _json(st: Statistics) -> dict[str, Any]:
    return st.to_dict()


Result = tuple["str | None", "list[Statistics]"]


def _file_statistics(path: str) -> Result:
    """(None, the statistics of each match in ``path``) or (the one-line error, []): the work of one file,
    in whichever process reads it (the decisions are not sent back: the figures and sums are)."""
    from ..errors import NotationError
    from ..matchio import read_any
    from ..parallel import collect_if_piled
    from ..statistics import statistics

    try:
        matches = read_any(path)
    except NotationError as e:
        return str(e), []
    except OSError as e:
        return f"{path}: cannot read: {e.strerror or e}", []
    out = []
    for m in matches:
        st = statistics(m)
        st.decisions = []
        out.append(st)
    collect_if_piled()
    return None, out


def _lost(path: str, reason: str) -> Result:
    return f"{path}: not read: {reason}", []
