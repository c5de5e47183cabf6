"""A GNU Backgammon oracle in its own process, for tests/test_ids.py.

gnubg's Python bindings keep one global match state per process; running them here keeps that
state away from other tests.  Protocol: one JSON request a line on stdin, one JSON answer a line
on the original stdout.

* ``{"cmds": [...]}``         -> ``{"out": [text gnubg printed for each command]}``
* ``{"positionid": board}``   -> ``{"result": gnubg.positionid(board)}``
* ``{"positionfromid": id}``  -> ``{"result": gnubg.positionfromid(id)}``
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from typing import Any

import gnubg  # type: ignore[import-not-found]

answers = os.fdopen(os.dup(1), "w", buffering=1)
devnull = os.open(os.devnull, os.O_WRONLY)
os.dup2(devnull, 1)


def run(cmd: str) -> str:
    sys.stdout.flush()
    with tempfile.TemporaryFile() as f:
        os.dup2(f.fileno(), 1)
        try:
            gnubg.command(cmd)
        finally:
            sys.stdout.flush()
            os.dup2(devnull, 1)
        f.seek(0)
        return f.read().decode("utf-8", "replace")


for setup in ("set confirm default no", "set player 0 human", "set player 1 human", "set display off",
              "new match 7"):
    run(setup)

for line in sys.stdin:
    req: dict[str, Any] = json.loads(line)
    if "cmds" in req:
        ans: dict[str, Any] = {"out": [run(c) for c in req["cmds"]]}
    elif "positionid" in req:
        ans = {"result": gnubg.positionid(tuple(tuple(side) for side in req["positionid"]))}
    elif "positionfromid" in req:
        ans = {"result": [list(side) for side in gnubg.positionfromid(req["positionfromid"])]}
    else:
        ans = {"error": f"unknown request {req!r}"}
    answers.write(json.dumps(ans) + "\n")
