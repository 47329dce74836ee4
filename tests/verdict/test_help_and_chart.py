"""What the verdict's help, report and chart say, and the shared play flags' help."""

from __future__ import annotations

import pytest

from tankmap.analysis.verdict.report import trace_figure
from tankmap.analysis.verdict.rule import NO_GAIN
from tankmap.cli import main


def _help(command: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    return " ".join(capsys.readouterr().out.split())  # (argparse wraps the lines)


def test_verdict_help_describes_the_match_s_three_looks(capsys: pytest.CaptureFixture[str]) -> None:
    text = _help("verdict", capsys)
    assert "after a fifth, half and all of them" in text and "half the seeds first" not in text


@pytest.mark.parametrize(
    ("command", "says"),
    [
        ("simulate", "the numbers do not depend on it"),
        ("ladder", "the numbers do not depend on it"),
        # within a time limit or budget, more processes reach further
        ("verdict", "the trace does not depend on it, but how far a climb gets within"),
        ("suggest", "a board's numbers do not depend on it, but how many candidates fit"),
    ],
)
def test_every_playing_command_says_what_depends_on_workers(
    command: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _help(command, capsys)
    assert "--seed S random seed (default 0)" in text
    assert says in text
    assert ("--scheduler" in text) is (command != "suggest")  # suggest plays locally only


def test_the_score_panel_labels_its_two_lines() -> None:
    doc = {
        "trace": [
            {"agent": "a:1", "balance": 0.9, "balance_ci95": [0.8, 1.0], "favoured": "even",
             "score_vs_previous": None, "score_ci95": None},
            {"agent": "a:2", "balance": 0.9, "balance_ci95": [0.8, 1.0], "favoured": "even",
             "score_vs_previous": 0.52, "score_ci95": [0.45, 0.59]},
        ]
    }  # fmt: skip
    score_panel = trace_figure(doc, ("South", "North")).axes[1]
    labels = [t.get_text() for t in score_panel.texts]
    assert f"{NO_GAIN}: at or above, it still beats the rung before" in labels
    assert "0.5: as strong as the rung before" in labels
