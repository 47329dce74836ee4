"""Hardening regressions found by the audit of issue 14 (each failed before its fix): Ctrl-C
with a local Dask cluster, the output gate, one-line messages without terminal codes,
writer failures, leftover temp files and the reading helpers outside the scenario reader."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_ctrl_c_with_a_local_dask_cluster_is_one_line() -> None:
    pytest.importorskip("distributed")
    # Ctrl-C in a terminal sends SIGINT to the whole process group, workers included. The
    # child presses it itself as soon as the first batch of games is in (no timing).
    script = textwrap.dedent(
        """
        import os, signal, sys
        if __name__ == "__main__":
            import tankmap.commands.common as common

            def terminal_bar(label):
                def tick(done, total):
                    os.killpg(os.getpgrp(), signal.SIGINT)
                return tick, lambda: None

            common.terminal_bar = terminal_bar
            from tankmap.cli import main
            sys.exit(main(["simulate", "final-act/mirror", "--games", "400",
                           "--scheduler", "local", "--workers", "2"]))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=300,
        env=_child_env(),
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    # before: 3-7 worker tracebacks (KeyboardInterrupt in each worker, lost-data errors)
    assert out.stderr.strip().splitlines() == ["tankmap simulate: interrupted"], out.stderr[-2000:]
    assert out.returncode == 130
