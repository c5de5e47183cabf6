"""OGXM, the open match format (HedgeHog's, read and written by GammonView): a match and its analysis in
one binary file (``.ogxm``), and streams of many (``.ogxms``).

Reading (:func:`read_ogxm`, :func:`iter_ogxm`) gives the same :class:`~notation.record.Match` as every
other reader:

- The ``MTCH`` header: the names, the match length, the variant, the rules and the cube limit go to the
  model's own fields; every other field becomes a header tag under its OGXM name (``event``, ``round``,
  ``site``, ``started_at`` as an ISO 8601 instant, ``source`` ...).  The starting score is the first game's
  score; the final score and the Crawford game are derived, as OGXM derives them.
- Each ``GAME``: its plies as actions (a roll and its steps as a ``move`` written one step per die,
  ``24/20* 24/23``, hits marked; a cube action; a resignation, accepted; the result as ``win``).  A
  set-position ply that restates an illegal play becomes the play as recorded (GammonView's and our own
  annotation keep it; else it is read off the board), so the replay reports it.
- Each analysis block (``ANAL`` and its ``DECS``) into :mod:`notation.analysis`: checker alternatives
  with probabilities and levels, cube decisions with their verdict, luck.  Match-play blocks hold
  match-winning chances: they are converted to the normalised equities the model holds through the
  match equity table the block names (:mod:`notation.met`); money blocks are money equities already.
  The producer (``model_name``, else ``model_id``; none when the block names none) and the level are
  kept; what the model has no field for (a resignation's analysis, take points, rollout errors ...) is
  kept as text in :attr:`~notation.analysis.Analysis.extra` under ``ogxm:`` names.
- ``ANNO`` annotations: without a key, comments on the match, a game or a ply; with a key (``x-`` keys
  are producer-private and kept as they are), a tag (XG's thumbnail: the match property), a game property
  or an action property.  A value longer than OGXM's strings (4096 bytes), which our writer continues in
  ``x-gammon-notation-more`` annotations, is joined back whole.
- The checksum is verified: a mismatch is an error naming the byte offset.  Signatures are reported as
  present and "not verified", unless the optional ``cryptography`` package can check them.
- Unknown ancillary sections (and the clock, video and signature sections) are kept for rewriting; an
  unknown critical section is an error.

Writing (:func:`write_ogxm`) is canonical: version 2, minimal varints, a CRC-32 checksum, plays split into
single-die steps in a legal order, an illegal play as a set-position ply with its dice, the illegal
flag and the board, a comment or property longer than OGXM's strings (XG's thumbnail) as its first 4096
bytes and the rest in further annotations.  What cannot be written is listed (``dropped``).  A match read
from OGXM and written back keeps its sections, and an unchanged record gives the same bytes.

Locations: an OGXM file has no lines; a finding's line is the ply's number in the match (1-based, across
games, OGXM's ``ply_ref`` + 1), and errors in the file name its byte offset.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from . import _ogxm_wire as W
from .registry import WriteResult

if TYPE_CHECKING:
    from ..record import Match
    from ..replay import GameReplay, MatchReplay, ReplayStep

__all__ = ["MAGIC", "read_ogxm", "iter_ogxm", "is_stream", "write_ogxm", "write_ogxms", "game_ogids", "read", "write"]

MAGIC = W.MAGIC


def is_stream(data: bytes) -> bool:
    """``data`` holds more than one OGXM v2 file (an ``.ogxms`` stream), or one file and more bytes."""
    size = W.file_size(data)
    return data[:4] == MAGIC and size is not None and data[4:6] == b"\x02\x00" and 0 < size < len(data)


def read_ogxm(data: bytes, *, name: str | None = None, keep: bool = True) -> list[Match]:
    """Every match in an OGXM file (one) or stream (one per member).  Raises
    :class:`~notation.errors.ParseError` naming the byte offset for a damaged file; :func:`iter_ogxm`
    gives a stream's complete members before the error of a damaged tail.  ``keep``: keep what is needed
    to write an unchanged record back byte for byte (a findings-only reading does not need it)."""
    return list(iter_ogxm(data, name=name, keep=keep))


def iter_ogxm(data: bytes, *, name: str | None = None, keep: bool = True) -> Iterator[Match]:
    """The matches of an OGXM file or stream, one at a time (a stream's members in order).  A damaged
    member raises :class:`~notation.errors.ParseError` (naming its byte offset) after the complete members
    before it."""
    from ._ogxm_read import Reader

    if data[:4] != MAGIC:
        W.fail("not an OGXM file: it does not start with 'OGXM'", 0, name)
    major = int.from_bytes(data[4:6], "little") if len(data) >= 6 else 0
    if major == 1:
        from ._ogxm_read import read_v1

        yield read_v1(data, name)
        return
    if not is_stream(data):
        yield Reader(data, name, 0, keep).read()
        return
    pos = 0
    k = 0
    n = len(data)
    while pos < n:
        k += 1
        if data[pos:pos + 4] != MAGIC:
            W.fail(f"stream member {k}: no OGXM header here (a stream is whole OGXM files back to back)", pos, name)
        size = W.file_size(data, pos)
        if size is None or size > n - pos:
            W.fail(f"stream member {k} is truncated: {n - pos} bytes of "
                   f"{size if size is not None else 'at least 16'} (the {k - 1} complete "
                   f"member{'s' if k != 2 else ''} before it were read)", n, name)
        if size < W.HEADER:
            W.fail(f"stream member {k}: a file size of {size} bytes", pos + 12, name)
        r = Reader(data[pos:pos + size], name, pos, keep, k)
        m = r.read()
        if r.checksum != "crc32":
            W.fail(f"stream member {k} has no CRC-32 checksum (every member of a stream needs one)", pos, name)
        yield m
        pos += size


def write_ogxm(match: Match, rep: MatchReplay | None = None) -> tuple[bytes, list[str]]:
    """``match`` as an OGXM v2 file, and what it could not hold (one line each).  ``rep``: the match's
    replay, when the caller has made it."""
    from ._ogxm_write import Writer

    return Writer(match, rep).write()


def read(data: str | bytes, *, name: str | None = None, keep: bool = True) -> list[Match]:
    """Every match of an OGXM file or stream (:func:`read_ogxm`; without ``keep`` the bytes of the file's
    sections are not kept for writing it back), each named ``name``."""
    raw = data if isinstance(data, bytes) else data.encode("latin-1")
    matches = read_ogxm(raw, name=name, keep=keep)
    for m in matches:
        m.source = name
    return matches


def write(match: Match, rep: MatchReplay | None = None) -> WriteResult:
    """:func:`write_ogxm` as every writer returns it (:mod:`notation.formats.registry`); an ``.ogxms``
    stream of one match is the same bytes."""
    data, dropped = write_ogxm(match, rep if rep is not None and rep.games else None)
    return WriteResult(data, list(dropped))


def write_ogxms(matches: Sequence[Match]) -> tuple[bytes, list[str]]:
    """Several matches as one OGXM stream (``.ogxms``: the files back to back, each with its checksum),
    and what could not be written, each line naming its member."""
    from ._ogxm_write import Writer

    parts = []
    dropped = []
    for k, m in enumerate(matches, 1):
        data, lost = Writer(m, None).write()
        parts.append(data)
        dropped += [f"member {k}: {d}" for d in lost]
    return b"".join(parts), dropped


_NO_PLY = frozenset(("accept", "win", "loss", "reject"))
"""Actions that are no OGXM ply (a resignation's acceptance, the result: the game's record holds them)."""
_CUBE_STATES = {"double": ("D", "O"), "take": ("A", "T"), "beaver": ("A", "T"), "raccoon": ("A", "T"),
                "drop": ("G", "P")}


def _restated(oid: str | None, seat: int) -> tuple[str | None, str | None]:
    """The OGIDs before and after a ply that restates the position ``oid`` (a resignation, the game-over
    ply): the other player's, then the ply's seat's (0 White)."""
    if oid is None:
        return None, None
    fields = oid.split(":")
    fields[4] = "BW"[seat]
    before = ":".join(fields)
    fields[4] = "WB"[seat]
    return before, ":".join(fields)


def game_ogids(gr: GameReplay, *, crawford_rule: bool = True) -> list[tuple[ReplayStep | None, str | None, str | None]]:
    """The OGIDs before and after each OGXM ply of a replayed game, as OGXM's reference codec gives them
    (PyPI ``ogxm``, ``binary_to_json``), with the step of the ply's action: one for each action that is a
    ply (every action but an acceptance and the result), then one (step None) for the loser's forfeit of a
    game won, not played out, by more points than any resignation gives (as the writer writes it), then one
    (step None) for the game-over ply of a game won without a resignation.

    The state and move number follow the plies: ``IB`` until the first roll is played (a set-up position
    with no roll keeps the state and the move number as they were, and the cube it had: a cube-set ply
    follows it), ``R`` with the dice, ``C`` after a play (a roll not played, then resigned, passes the turn as a play
    does), ``D``/``O`` a double offered, ``A``/``T`` a double just taken (the ``T`` stays on the next roll),
    ``G``/``P`` dropped; the move number counts the plays; a resignation and the game-over ply (White's)
    restate the position before them: the other player's before, their own after.  An illegal play and a
    position set by hand after a roll (set-position plies with dice) are not counted.  None for a position
    no OGID holds (a variant's checkers waiting to enter).  A game the replay cannot finish has the plies
    of its steps only.  ``crawford_rule``: whether the match plays the Crawford rule (a one-point match's
    length is ``1C`` under it, ``1`` without, as the reference codec writes them)."""
    from ..ogid import ogid
    from ..position import GAME_RESIGNED
    from ._ogxm_shared import implied_level

    out: list[tuple[ReplayStep | None, str | None, str | None]] = []
    move, state, action = 0, "IB", "N"
    last: str | None = None
    won = resigned = dropped = False
    result: ReplayStep | None = None
    steps = gr.steps
    base, doubler = 1, 0  # the cube a double was offered at, and its doubler
    for si, st in enumerate(steps):
        a = st.action
        kind = a.kind
        if kind in _NO_PLY:
            if kind == "win":
                won, result = True, st
            continue
        if kind == "take" and si and steps[si - 1].action.kind in ("beaver", "raccoon"):
            continue  # (OGXM's beaver and raccoon plies hold their take: no ply of its own)
        dropped = dropped or kind == "drop"
        if kind == "resign":
            out.append((st, *_restated(last, a.player)))
            resigned = True
            continue
        rolled = kind in ("move", "roll") or (kind == "setup" and a.dice is not None)
        before = st.before
        if rolled and before.dice is None and a.dice is not None:
            before = before.replace(dice=a.dice)
        after = st.after
        if kind == "double":
            base, doubler = before.cube, a.player
        elif kind in ("beaver", "raccoon"):  # (its ply holds its take: the cube taken, its player's)
            after = before.replace(cube=base * (4 if kind == "beaver" else 8), cube_owner=a.player,
                                   double_offered=False, turn=doubler, dice=None)
        if rolled and kind != "setup":
            if after.turn == st.before.turn:  # a roll not played (then resigned): the turn passes
                after = after.replace(turn=1 - after.turn, dice=None)
            elif after.dice is not None:
                after = after.replace(dice=None)
        try:
            first = ogid(before, move_id=move, state=("IB" if state == "IB" else "R") if rolled else state,
                         cube_action=action, crawford_rule=crawford_rule)
        except ValueError:
            first = None
        if kind == "raccoon":
            first = last  # (the beaver's ply, with its take, before it)
        if rolled:  # (an illegal play, and a position set by hand after a roll, are set-position plies with
            move += st.legal and kind != "setup"  # dice: not counted)
            state, action = "C", "N"
        elif kind == "setup":  # (the state and the move number stay as they were)
            after = after.replace(cube=before.cube, cube_owner=before.cube_owner)
        elif kind in _CUBE_STATES:
            state, action = _CUBE_STATES[kind]
        try:
            last = ogid(after, move_id=move, state=state, cube_action=action, crawford_rule=crawford_rule)
        except ValueError:
            last = None
        if last is not None and kind in ("beaver", "raccoon"):  # (reached by its player, who is not on roll)
            fields = last.split(":")
            fields[4] = "WB"[a.player]
            last = ":".join(fields)
        out.append((st, first, last))
    if won and not resigned and not dropped and result is not None and result.after.game_state == GAME_RESIGNED \
            and implied_level(result.action.value, result.before.cube) is None:
        out.append((None, *_restated(last, 1 - result.action.player)))  # the loser's forfeit (the writer's)
    if won and not resigned:  # the game-over ply (24, or 26 after the game that ends the match), White's seat
        out.append((None, *_restated(last, 0)))
    return out
