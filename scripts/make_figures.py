"""Regenerate ``samples/figures/``: the figures of a rules text, extreme positions, themes and sizes.

Run from the repository root::

    python scripts/make_figures.py [OUT_DIR]

Every figure is written as PNG and as SVG from the same display list, plus ``README.md`` listing
them.  The output is deterministic: running the script twice gives the same files.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import render  # noqa: E402
from notation.position import STANDARD_START, Position, board_from_points  # noqa: E402

B = board_from_points
START = Position()


def figures() -> list[tuple[str, str, Position, dict[str, Any]]]:
    """(file stem, description, position, options) for every sample figure."""
    figs: list[tuple[str, str, Position, dict[str, Any]]] = []

    def add(stem: str, what: str, pos: Position, **opts: Any) -> None:
        figs.append((stem, what, pos, opts))

    # -- the figures of a rules text
    add("fig1_start", "The starting position (White at the bottom, home board on the right).", START,
        caption="Figure 1. The checkers in their initial position. White's home board is on the right.")
    add("fig1b_start_home_left", "The alternative arrangement: home board on the left.", START, home="left",
        caption="Figure 1b. The same position with the home board on the left.")
    add("fig2_direction", "Direction of movement.", START, direction=True,
        caption="Figure 2. White moves from the 24 point towards the 1 point and then bears off; "
                "Black moves the opposite way.")
    add("fig3_two_ways_53", "Two ways White can play 5-3 from the start, side by side.",
        START.replace(dice=(5, 3)), play=["13/8 13/10", "8/3 6/3"],
        caption="Figure 3. Two ways White can play an opening 5-3.")
    enter = Position(boards=(B({25: 1, 24: 1, 13: 5, 8: 3, 6: 5}), STANDARD_START), turn=0, dice=(6, 4))
    add("fig4_enter_64", "Entering from the bar with 6-4 when the 6 point is closed.", enter,
        play="bar/21 13/7",
        caption="Figure 4. White rolls 6-4 with a checker on the bar. Black's 6 point is closed, so White "
                "must enter with the 4 (bar/21) and plays the 6 elsewhere (13/7).")
    bear = Position(boards=(B({6: 2, 5: 3, 4: 3, 3: 3, 2: 2}), B({1: 3, 2: 3, 3: 2, 4: 3, 6: 2, 7: 2})),
                    turn=0, dice=(6, 4))
    add("fig5_bearoff_64", "Bearing off with 6-4.", bear, play="6/off 4/off",
        caption="Figure 5. Bearing off: White rolls 6-4 and removes checkers from the 6 and 4 points.")
    # -- hits and chained moves
    hit = Position(boards=(B({24: 2, 13: 5, 8: 3, 6: 4, 5: 1}), B({24: 2, 13: 4, 8: 3, 6: 4, 5: 1, 21: 1})),
                   turn=0, dice=(4, 2))
    add("play_hits", "A play that hits twice (hits are marked by a burst behind the hit checker).", hit,
        play="24/20* 6/4*", pips=True, names=True,
        caption="White plays 4-2: 24/20* 6/4*, hitting two blots.")
    add("play_doubles_66", "Doubles: four moves, two checkers moving together.",
        START.replace(dice=(6, 6), turn=1), play="24/18(2) 13/7(2)",
        caption="Black plays 6-6: 24/18(2) 13/7(2).")
    # -- extreme positions
    add("extreme_15_on_one_point", "15 checkers on one point; the count is written on the fifth.",
        Position(boards=(B({6: 15}), B({1: 15})), turn=0, dice=(3, 3)), pips=True)
    add("extreme_15_on_bar", "15 checkers on the bar.",
        Position(boards=(B({25: 15}), B({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2})), turn=0, dice=(6, 5)),
        pips=True)
    add("extreme_all_borne_off", "All of one side's checkers borne off; the other side on one point.",
        Position(boards=(B({}, off=15), B({1: 15})), turn=1, cube=2, cube_owner=0), pips=True)
    add("extreme_both_on_bar", "Both sides on the bar, both players' numbering, Crawford game.",
        Position(boards=(B({25: 3, 6: 4, 8: 8}), B({25: 2, 6: 6, 13: 7})), turn=0, dice=(2, 1),
                 match_length=5, score=(4, 2), crawford=True),
        numbers="both", score=True, pips=True)
    add("extreme_cube_64", "Cube at 64 owned by the player at the top; the largest cube value.",
        Position(boards=(B({6: 5, 5: 5, 4: 5}), B({24: 5, 23: 5, 22: 5})), turn=0, cube=64, cube_owner=1,
                 dice=(5, 2)), pips=True)
    add("extreme_double_offered", "A double offered: the cube, turned to 4, stands in the doubler's half.",
        Position(turn=1, double_offered=True, cube=2, cube_owner=1, match_length=9, score=(3, 4),
                 names=("Ann", "Ben")),
        names=True, score=True)
    add("extreme_partial_bearoff", "Both sides bearing off, with checkers in both trays.",
        Position(boards=(B({1: 2, 2: 1, 3: 1}), B({1: 1, 2: 2, 6: 1})), turn=0, dice=(4, 1), cube=8,
                 cube_owner=0), pips=True)
    # -- themes, orientation and sizes
    match_pos = Position(boards=(B({24: 1, 3: 1, 13: 4, 8: 3, 6: 4, 5: 2}),
                                 B({24: 2, 13: 4, 8: 2, 7: 2, 6: 4, 25: 1})),
                         turn=1, dice=(4, 3), match_length=7, score=(2, 3), cube=2, cube_owner=0,
                         names=("Alice", "Bob"))
    for theme in ("print", "classic", "contrast"):
        add(f"theme_{theme}", f"The {theme} theme (names, score, pips, a play with a hit).", match_pos,
            theme=theme, names=True, score=True, pips=True, play="bar/22* 13/9")
    add("orientation_white_bottom_home_left", "White at the bottom although Black is on roll (Black's dice "
        "are in the left half), home board on the left.", match_pos,
        bottom="white", home="left", names=True, score=True, pips=True)
    add("size_small", "The small preset (checker 24 px).", START, size="small")
    add("size_large", "The large preset (checker 60 px).", START.replace(dice=(3, 1)), size="large",
        play="8/5 6/5", caption="3-1: making the 5 point.")
    add("size_print_300dpi", "The print preset: 120 mm wide at 300 dpi.", START.replace(dice=(3, 1)),
        size="print", dpi=300, play="8/5 6/5")
    # -- names in every script (the shipped fonts: Aileron and DejaVu Sans)
    tourney = Position(boards=(B({24: 1, 13: 4, 8: 3, 6: 5, 5: 2}), B({24: 2, 13: 5, 8: 2, 7: 2, 6: 4})),
                       turn=0, dice=(4, 2), match_length=11, score=(3, 5), cube=2, cube_owner=1)
    add("names_latin", "Names with accents (Latin: French, Polish, Turkish, Icelandic ...).",
        tourney.replace(names=("Kévin Unger", "Łukasz Żółkiewski")), names=True, score=True, pips=True,
        heading="Coupe de France, Besançon", caption="Ørsted – Ağaoğlu – Þórsdóttir: 8/4 6/4 makes the point.",
        play="8/4 6/4")
    add("names_greek", "Names in Greek.", tourney.replace(names=("Κώστας Παπαδόπουλος", "Νίκη Αλεξίου")),
        names=True, score=True, pips=True, heading="Πανελλήνιο Πρωτάθλημα Τάβλι", play="8/4 6/4")
    add("names_cyrillic", "Names in Cyrillic.", tourney.replace(names=("Жора Иванов", "Наталья Соколова")),
        names=True, score=True, pips=True, heading="Кубок Москвы по нардам", play="8/4 6/4")
    # -- crowded doubles, counts and tall stacks
    crowded = Position(boards=(B({24: 2, 20: 2, 13: 3, 11: 2, 8: 3, 6: 3}),
                               B({24: 1, 23: 2, 13: 3, 15: 1, 9: 2, 8: 2, 6: 4})), turn=0, dice=(3, 3))
    add("play_crowded_double", "A double in a crowded middle game: four checkers moving between full points, "
        "routed around the stacks.", crowded, play="24/21(2) 13/10* 8/5", pips=True,
        caption="White plays 3-3: 24/21(2) 13/10* 8/5.")
    bear = Position(boards=(B({6: 7, 5: 3, 4: 1}, off=4), B({1: 2, 2: 3, 3: 3, 4: 2, 18: 2, 22: 3})),
                    turn=0, dice=(6, 5))
    add("bearoff_counts", "Bearing off with counts: seven on the 6 point, four borne off, two more going.", bear,
        play="6/off 5/off", pips=True, caption="White rolls 6-5 and bears off two: 15 - 4 - 2 = 9 left.")
    add("stack_sixth_checker", "A sixth checker arriving on a full point: drawn beyond the stack with the count.",
        START.replace(dice=(6, 1)), play="13/7 7/6", caption="13/6 from the opening: the six point now holds 6.")
    tall = Position(boards=(B({8: 8, 6: 6, 13: 1}), B({1: 2, 11: 5, 16: 3, 22: 5})), turn=0, dice=(2, 2))
    add("stack_eight_and_more", "Stacks of 6 and 8 with arrivals: each point's count after the play.", tall,
        play="8/6(2) 6/4(2)", caption="2-2: 8/6(2) 6/4(2). The six point keeps 6, the eight point is down to 6.")
    return figs


JAPANESE_FONT = Path("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf")


def font_figures() -> list[tuple[str, str, Position, dict[str, Any]]]:
    """Figures that need a font given with --font (drawn last: the font stays added)."""
    if not JAPANESE_FONT.exists():
        print(f"{JAPANESE_FONT} is not installed (Debian: fonts-ipafont-gothic): the Japanese figure is kept "
              "as it is", file=sys.stderr)
        return []
    tourney = Position(boards=(B({24: 1, 13: 4, 8: 3, 6: 5, 5: 2}), B({24: 2, 13: 5, 8: 2, 7: 2, 6: 4})),
                       turn=0, dice=(4, 2), match_length=11, score=(3, 5), cube=2, cube_owner=1,
                       names=("望月正行", "矢澤亜希子"))
    return [("names_japanese", "Names in Japanese, with `--font /usr/share/fonts/opentype/ipafont-gothic/ipag.ttf`.",
             tourney, {"names": True, "score": True, "pips": True, "heading": "日本選手権 決勝",
                       "play": "8/4 6/4"}),
            ("text_world_scripts", "One caption in every script: Latin, Greek, Cyrillic and Japanese (IPA font).",
             START.replace(dice=(5, 3)), {"caption": "Kévin Unger – Zürich ½ · Κέβιν · Жора · 日本選手権"})]


def problem_figures(out: Path) -> list[str]:
    """A problem and its solution (``gammon problems``), from an analysed XG match of the tests: README rows."""
    from notation.matchio import read_match
    from render.problems import problems

    source = ROOT / "tests" / "data" / "xg_ronde3.xg"
    p = problems(read_match(source), sources=["xg_ronde3.xg"])[0]
    rows = []
    for stem, what, png, svg in (
            ("problem_question", "A problem of `gammon problems`: the position and its book caption.",
             p.problem_png, p.problem_svg),
            ("problem_solution", "Its solution: the best play as arrows, the play made as pale arrows, the ranked "
             "plays.", p.solution_png, p.solution_svg)):
        (out / f"{stem}.png").write_bytes(png())
        (out / f"{stem}.svg").write_text(str(svg()), encoding="utf-8")
        rows.append(f"| [{stem}.png]({stem}.png) ([svg]({stem}.svg)) | {what} | tests/data/xg_ronde3.xg, problem 1 |")
    return rows


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else ROOT / "samples" / "figures"
    out.mkdir(parents=True, exist_ok=True)
    lines = ["# Sample figures", "",
             "Generated by `python scripts/make_figures.py`; every figure is here as PNG and SVG, drawn",
             "from the same display list. Default options unless listed.", "",
             "| file | what it shows | options |", "|---|---|---|"]
    figs = figures()
    for stem, what, pos, opts in figs:
        (out / f"{stem}.png").write_bytes(render.png(pos, **opts))
        (out / f"{stem}.svg").write_text(render.svg(pos, **opts), encoding="utf-8")
        shown = ", ".join(f"{k}={v!r}" for k, v in opts.items() if k not in ("caption", "heading"))
        lines.append(f"| [{stem}.png]({stem}.png) ([svg]({stem}.svg)) | {what} | {shown} |")
    lines += problem_figures(out)
    extra = font_figures()
    if extra:
        render.add_font(JAPANESE_FONT)
    for stem, what, pos, opts in extra:
        (out / f"{stem}.png").write_bytes(render.png(pos, **opts))
        if stem != "text_world_scripts":
            (out / f"{stem}.svg").write_text(render.svg(pos, **opts), encoding="utf-8")
        shown = ", ".join(f"{k}={v!r}" for k, v in opts.items() if k not in ("caption", "heading"))
        svg_link = f" ([svg]({stem}.svg))" if stem != "text_world_scripts" else ""
        lines.append(f"| [{stem}.png]({stem}.png){svg_link} | {what} | {shown} |")
    (out / "README.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(figs) + len(extra) + 2} figures written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
