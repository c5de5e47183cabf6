"""Start-up of the `gammon` command as a whole process: median and best of N runs.

    python benchmarks/startup.py [RUNS]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time

from _common import cli_env

XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"
COMMANDS = {
    "python -c pass": None,  # the interpreter alone (with this environment's site, e.g. an editable install)
    "gammon --version": ["--version"],
    "gammon show XGID": ["show", XGID],
    "gammon moves XGID": ["moves", XGID],
    "gammon render XGID": ["render", XGID, "-o", "{tmp}/fig.png", "--force"],  # one diagram, as a writer makes it
}


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    gammon = [sys.executable, "-m", "notation"]
    env = cli_env()
    tmp = tempfile.mkdtemp(prefix="gammon-startup-")
    for label, args in COMMANDS.items():
        cmd = [sys.executable, "-c", "pass"] if args is None else [*gammon, *(a.format(tmp=tmp) for a in args)]
        subprocess.run(cmd, capture_output=True, check=True, env=env)  # warm: parser cache, page cache
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            subprocess.run(cmd, capture_output=True, check=True, env=env)
            times.append(time.perf_counter() - t)
        print(f"{label:<22} median {statistics.median(times) * 1000:6.1f} ms   best {min(times) * 1000:6.1f} ms "
              f"({runs} runs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
