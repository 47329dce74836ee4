"""Hardening regressions found by the audit of issue 14 (each failed before its fix): Ctrl-C
with a local Dask cluster, the output gate, one-line messages without terminal codes,
writer failures, leftover temp files and the reading helpers outside the scenario reader."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

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


MIRROR_TEXT = (ROOT / "maps" / "final-act" / "mirror.json").read_text("utf-8")
CONTROL = ("\x1b", "\n", "\r", "\x07", "\u2028")


def _mirror_doc() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(MIRROR_TEXT)
    return doc


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.__setitem__("\x1b[31mred\nnext", 1),  # an unknown key with codes
        lambda d: d.__setitem__("k" * 1_000_000, 1),  # a megabyte key
        lambda d: d["options"].__setitem__("\x1b]0;title\x07opt\u2028", 1),
        lambda d: d["units"][0].__setitem__("kind", "\x1b[2Jtank\r\n" * 1000),
    ],
)
def test_errors_quoting_the_file_are_one_short_clean_line(
    mutate: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tankmap.cli import main

    doc = _mirror_doc()
    mutate(doc)
    f = tmp_path / "bad\x1b[31m\n.json"  # the file name too
    f.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["check", str(f)]) == 2
    err = capsys.readouterr().err
    line = err.removesuffix("\n")
    assert not any(c in line for c in CONTROL), line[:300]  # before: raw codes and newlines
    assert len(line) <= 1100, len(line)  # before: a megabyte


def test_check_text_output_shows_names_escaped_and_cut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tankmap.cli import main

    doc = _mirror_doc()
    doc["units"][0]["name"] = "\x1b[31m" + "N" * 100_000 + "\n"
    f = tmp_path / "name\x1b.json"
    f.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["check", str(f)]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert any("bad-name" in line for line in lines)
    for line in lines:
        assert not any(c in line for c in CONTROL) and len(line) < 400, line[:200]
