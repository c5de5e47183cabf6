"""The oracle of ``gammon stats``: the statistics GNU Backgammon prints in its text export (``export match
text``), read into the keys of ``gammon stats --json`` (test helper, never part of the product).

Each game's file ends with "Game statistics for game N"; the last one also holds "Match statistics".
A section is a table of rows: a label in 40 columns, then one cell a player (``%-40s %-23s %-23s``).
"""

from __future__ import annotations

import re
from pathlib import Path

_SECTIONS = {"Chequerplay statistics": "checker", "Luck statistics": "luck", "Cube statistics": "cube",
             "Overall statistics": "overall"}
_COUNTS = {
    ("checker", "Total moves"): "total_moves", ("checker", "Unforced moves"): "unforced_moves",
    ("checker", "Unmarked moves"): "unmarked", ("checker", "Moves marked doubtful"): "doubtful",
    ("checker", "Moves marked bad"): "bad", ("checker", "Moves marked very bad"): "very_bad",
    ("luck", "Rolls marked very lucky"): "luck_very_lucky", ("luck", "Rolls marked lucky"): "luck_lucky",
    ("luck", "Rolls unmarked"): "luck_unmarked", ("luck", "Rolls marked unlucky"): "luck_unlucky",
    ("luck", "Rolls marked very unlucky"): "luck_very_unlucky",
    ("cube", "Total cube decisions"): "cube_decisions", ("cube", "Close or actual cube decisions"):
        "close_cube_decisions", ("cube", "Doubles"): "doubles", ("cube", "Takes"): "takes",
    ("cube", "Passes"): "passes",
}
_PAIRS = {  # label start -> (key of the first figure, key of the second)
    ("checker", "Error total"): ("checker_error_emg", "checker_error_mwc"),
    ("checker", "Error rate"): ("checker_error_rate", "checker_error_rate_mwc"),
    ("luck", "Luck total"): ("luck_emg", "luck_mwc"),
    ("luck", "Luck rate"): ("luck_rate", "luck_rate_mwc"),
    ("cube", "Error total"): ("cube_error_emg", "cube_error_mwc"),
    ("cube", "Error rate"): ("cube_error_rate", "cube_error_rate_mwc"),
    ("overall", "Error total"): ("error_emg", "error_mwc"),
    ("overall", "Error rate"): ("error_rate", "error_rate_mwc"),
}
_WORDS = {("checker", "Chequerplay rating"): "checker_rating", ("luck", "Luck rating"): "luck_rating",
          ("cube", "Cube decision rating"): "cube_rating", ("overall", "Overall rating"): "overall_rating"}
_CUBE_ROWS = ("Missed doubles below CP", "Missed doubles above CP", "Wrong doubles below DP",
              "Wrong doubles above TG", "Wrong takes", "Wrong passes")
_CUBE_KEYS = ("missed_double_below_cp", "missed_double_above_cp", "wrong_double_below_dp",
              "wrong_double_above_tg", "wrong_take", "wrong_pass")
_NUM = re.compile(r"[-+]?\d+(?:\.\d+)?")

Figures = dict[str, object]


def _cells(line: str) -> tuple[str, str, str]:
    return line[:40].strip(), line[41:65].strip(), line[65:].strip()


def _numbers(cell: str) -> list[float]:
    return [float(x) for x in _NUM.findall(cell)]


def parse_section(lines: list[str]) -> tuple[Figures, Figures]:
    """The two players' figures of one "statistics" block."""
    out: tuple[Figures, Figures] = ({}, {})
    section = None
    for line in lines:
        s = line.strip()
        if s in _SECTIONS:
            section = _SECTIONS[s]
            continue
        if not s or section is None:
            continue
        label, a, b = _cells(line)
        for i, cell in enumerate((a, b)):
            f = out[i]
            if (section, label) in _COUNTS:
                f[_COUNTS[section, label]] = int(cell)
            elif (section, label) in _WORDS:
                f[_WORDS[section, label]] = None if cell == "n/a" else cell
            elif section == "cube" and label.startswith(_CUBE_ROWS):
                key = _CUBE_KEYS[[label.startswith(r) for r in _CUBE_ROWS].index(True)]
                n = _numbers(cell)
                f.setdefault("cube_errors", {})[key] = (
                    {"count": int(n[0]), "emg": n[1], "mwc": n[2]} if len(n) == 3 else
                    {"count": int(n[0]), "emg": 0.0, "mwc": 0.0})
            elif section == "overall" and label == "Snowie error rate":
                n = _numbers(cell)
                f["snowie_error_rate"] = n[0] if n else None
            else:
                for (sec, start), keys in _PAIRS.items():
                    if sec == section and label.startswith(start):
                        n = _numbers(cell)
                        if len(n) >= 2:
                            f[keys[0]], f[keys[1]] = n[0], n[1]
                        else:
                            f[keys[0]] = f[keys[1]] = None
    return out


def read_export(txt: Path) -> tuple[list[tuple[Figures, Figures]], tuple[Figures, Figures] | None]:
    """gnubg's statistics in the text export whose first file is ``txt`` (``X.txt``, ``X_002.txt`` ...):
    each game's, in order, and the match's."""
    files = [txt] + sorted(txt.parent.glob(f"{txt.stem}_[0-9][0-9][0-9].txt"))
    games = []
    match = None
    for f in files:
        lines = f.read_text(encoding="utf-8", errors="replace").splitlines()
        starts = [i for i, s in enumerate(lines)
                  if s.startswith(("Game statistics for game", "Match statistics", "Session statistics"))]
        for k, i in enumerate(starts):
            block = lines[i:starts[k + 1] if k + 1 < len(starts) else len(lines)]
            figures = parse_section(block)
            if not lines[i].startswith("Game"):
                match = figures
            else:
                games.append(figures)
    return games, match


INTEGER_TOLERANCE = 0
TOTAL_TOLERANCE = 0.0005
RATE_TOLERANCE = 0.05


def compare(ours: Figures, theirs: Figures) -> list[str]:
    """Where our figures differ from gnubg's printed ones beyond the printed digit (one line each)."""
    bad = []
    for k, v in theirs.items():
        mine = ours.get(k)
        if k == "cube_errors":
            assert isinstance(v, dict) and isinstance(mine, dict)
            for cat, fig in v.items():
                m = mine[cat]
                if m["count"] != fig["count"] or (fig["count"] and (
                        abs(m["emg"] - fig["emg"]) > TOTAL_TOLERANCE + 1e-9
                        or abs(m["mwc"] - fig["mwc"]) > TOTAL_TOLERANCE + 1e-9)):
                    bad.append(f"{cat}: ours {m}, gnubg {fig}")
            continue
        if isinstance(v, str) or v is None:
            if mine != v and not (v is None and k.endswith("rating")):
                bad.append(f"{k}: ours {mine!r}, gnubg {v!r}")
            continue
        if mine is None:
            if v != 0:
                bad.append(f"{k}: ours None, gnubg {v}")
            continue
        if isinstance(v, int):
            if mine != v:
                bad.append(f"{k}: ours {mine}, gnubg {v}")
            continue
        # gnubg prints totals to 3 decimals, rates to 1, MWC to 3 (percent)
        tol = (RATE_TOLERANCE if "rate" in k else TOTAL_TOLERANCE) + 1e-9
        if abs(float(mine) - v) > tol:  # type: ignore[arg-type]
            bad.append(f"{k}: ours {mine}, gnubg {v}")
    return bad
