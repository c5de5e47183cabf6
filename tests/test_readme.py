"""The README's library example runs as written, and prints what its comments say."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_readme_python_blocks_run() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    old = os.getcwd()
    os.chdir(ROOT)
    try:
        for code in blocks:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(code, "README.md", "exec"), {})  # noqa: S102 - the README's own example
            lines = out.getvalue().splitlines()
            assert lines[0] == "167 167 15"
            assert lines[1] == "24/22 13/8"
            assert any(line.startswith("samples/illegal_plays.mat:51:10: error:") for line in lines)
    finally:
        os.chdir(old)
