"""The verdict report reads as a sentence, gives each win rate its interval, names the
cross-check's agent and leaks no Python ``None``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tankmap.analysis.verdict.report import trace_figure, write_verdict_report


def _doc(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "file": "mirror.json",
        "ruleset": "final-act",
        "agent": "search:3",
        "family": "search",
        "independent": False,
        "favoured": "even",
        "win_rate": {"south": 0.54, "north": 0.46},
        "win_rate_ci95": {"south": [0.470823, 0.607669], "north": [0.392331, 0.529177]},
        "draws": 0.0,
        "balance": 0.92,
        "balance_ci95": [0.783323, 1.0],
        "difference_ci95": [-0.058261, 0.216677],
        "games": 200,
        "converged": False,
        "reason": "only search:3 played so far",
        "trace": [
            {
                "agent": "search:3",
                "budget": 3,
                "games": 200,
                "favoured": "even",
                "balance": 0.92,
                "balance_ci95": [0.783323, 1.0],
                "win_rate": {"south": 0.54, "north": 0.46},
                "score_vs_previous": None,
                "score_ci95": None,
                "match_games": 0,
                "seconds": 11.85,
            }
        ],
        "cross_check": {
            "agent": "duct",
            "independent": True,
            "favoured": None,
            "agrees": None,
            "reason": None,
        },
        "seed": 1,
        "games_per_run": 200,
        "min_games": 100,
        "time_limit": 30.0,
        "seconds": 29.19,
        "reused_games": 0,
    }
    doc.update(changes)
    return doc


def _text(tmp_path: Path, doc: dict[str, Any]) -> str:
    page = write_verdict_report(doc, "Mirror", ("South", "North"), tmp_path).read_text("utf-8")
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def test_headline_is_a_sentence(tmp_path: Path) -> None:
    assert "The board is even" in _text(tmp_path, _doc())
    assert "The board is undecided" in _text(tmp_path, _doc(favoured="undecided"))
    assert "The board favours North" in _text(tmp_path, _doc(favoured="north"))


def test_win_rates_carry_their_intervals(tmp_path: Path) -> None:
    text = _text(tmp_path, _doc())
    assert "South wins 0.540 [0.471, 0.608]" in text  # the verdict's own
    # the verdict's North, and the rung's (Wilson from 92 wins of 200)
    assert text.count("0.460 [0.392, 0.529]") == 2


def test_cross_check_names_its_agent_and_no_none(tmp_path: Path) -> None:
    text = _text(tmp_path, _doc())
    assert "Cross-check duct" in text
    assert "None" not in text
    # a reason that names the agent already is not prefixed with it again
    agrees = {"agent": "plan:512", "independent": False, "agrees": True}
    text = _text(tmp_path, _doc(cross_check={**agrees, "reason": "plan:512 agrees"}))
    assert "Cross-check: plan:512 agrees." in text


def test_nothing_played_has_no_none_and_no_missing_chart(tmp_path: Path) -> None:
    doc = _doc(agent=None, games=0, trace=[], favoured="undecided", cross_check=None)
    page = write_verdict_report(doc, "Mirror", ("South", "North"), tmp_path).read_text("utf-8")
    assert "None" not in page
    assert "trace.png" not in page
    assert not (tmp_path / "trace.png").exists()


def test_trace_chart_names_family_seed_and_state() -> None:
    title = trace_figure(_doc(), ("South", "North"))._suptitle
    assert title is not None
    assert "search" in title.get_text() and "seed 1" in title.get_text()
    assert "NOT converged" in title.get_text()


def test_a_one_rung_trace_says_why_its_score_panel_is_empty() -> None:
    bottom = trace_figure(_doc(), ("South", "North")).axes[1]
    assert any("no match played yet" in t.get_text() for t in bottom.texts)
    two = _doc()
    two["trace"] = [
        *two["trace"],
        {
            **two["trace"][0],
            "agent": "search:6",
            "score_vs_previous": 0.6,
            "score_ci95": [0.5, 0.7],
        },
    ]
    bottom = trace_figure(two, ("South", "North")).axes[1]
    assert not any("no match played yet" in t.get_text() for t in bottom.texts)
