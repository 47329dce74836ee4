"""``tankmap analyze`` is no longer silent for its 13-35 s (issue 30): a progress bar on
standard error when that is a terminal — by step in this process (the analysis, then each
figure of the report), by file on worker processes — and never anything on stdout but
the ``--json`` document."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from tankmap.analysis.report import REPORT_STEPS
from tankmap.cli import main


def frames(err: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in re.findall(r"analyze \[[#-]+\] (\d+)/(\d+)", err)]


@pytest.mark.parametrize(
    ("args", "steps"),
    [
        (["tank-wars/default", "--json"], 1),
        (["tank-wars/default", "--out", "OUT", "--json"], 1 + REPORT_STEPS),
        (["tank-wars/default", "final-act/mirror", "--json", "--workers", "1"], 2),
        (["tank-wars/default", "final-act/mirror", "--json", "--workers", "2"], 2),  # by file
    ],
    ids=["analysis", "report", "two-files", "two-workers"],
)
def test_a_terminal_sees_a_bar_and_stdout_only_the_document(
    args: list[str],
    steps: int,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    args = [str(tmp_path / "rep") if a == "OUT" else a for a in args]
    assert main(["analyze", *args]) == 0
    out, err = capsys.readouterr()
    json.loads(out)  # nothing else on stdout
    assert frames(err) == [(n, steps) for n in range(1, steps + 1)]
    assert err.endswith("\n")  # the bar's line is ended


def test_no_bar_when_stderr_is_not_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "tank-wars/default", "--json"]) == 0
    assert capsys.readouterr().err == ""
