"""The ladder report says what ``tankmap ladder``'s text says: undecided stays undecided,
win rates carry their intervals, a sweep-only agent has no number, races are labelled."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tankmap.analysis.ladder_report import elo_figure, write_ladder_report
from tankmap.rules.fileformat import read_scenario

MIRROR = Path(__file__).resolve().parents[2] / "maps" / "final-act" / "mirror.json"


def _rate(p: float, lo: float, hi: float) -> dict[str, Any]:
    return {"estimate": p, "ci95": [lo, hi]}


def _doc() -> dict[str, Any]:
    agents = [
        {
            "name": "search",
            "elo": 468.9,
            "elo_ci95": [216.8, 721.0],
            "sweeps": ["random"],
            "swept_by": [],
            "only_sweeps": False,
            "description": "search",
        },
        {
            "name": "heuristic",
            "elo": 0.0,
            "elo_ci95": [0.0, 0.0],
            "sweeps": ["random"],
            "swept_by": ["search"],
            "only_sweeps": True,
            "description": "heuristic",
        },
        {
            "name": "random",
            "elo": -463.3,
            "elo_ci95": [-750.9, -175.7],
            "sweeps": [],
            "swept_by": ["heuristic", "search"],
            "only_sweeps": True,
            "description": "random",
        },
    ]
    balance = [
        {
            "agent": a["name"],
            "games": 20,
            "win_rate": {
                "south": _rate(0.4, 0.218807, 0.613418),
                "north": _rate(0.6, 0.386582, 0.781193),
            },
            "draws": 0,
            "balance": 0.8,
            "ci95": [0.407281, 1.0],
            "balance_ci95": [0.407281, 1.0],
            "favoured": "undecided",
            "median_length": 20.5,
            "units_lost_per_game": 5.7,
            "race_share": 0.85,
            "race_no_loss_share": 0.15,
        }
        for a in agents
    ]
    return {
        "seed": 1,
        "games": 20,
        "anchor": "heuristic",
        "agents": agents,
        "matches": [],
        "balance": balance,
        "stable": False,
        "stability": {"agents": ["search", "heuristic"], "reason": "fewer than 100 games"},
        "file": "mirror.json",
        "ruleset": "final-act",
    }


def _page(tmp_path: Path) -> str:
    path = write_ladder_report(_doc(), read_scenario(MIRROR), tmp_path)
    return path.read_text(encoding="utf-8")


def test_undecided_is_not_shown_as_even(tmp_path: Path) -> None:
    page = _page(tmp_path)
    assert "<td>undecided</td>" in page
    assert "<td>even</td>" not in page


def test_self_play_win_rates_carry_their_intervals(tmp_path: Path) -> None:
    page = _page(tmp_path)
    assert "0.400 [0.219, 0.613]" in page
    assert "0.600 [0.387, 0.781]" in page


def test_sweep_only_agents_have_no_elo_number(tmp_path: Path) -> None:
    page = _page(tmp_path)
    assert "swept by heuristic, search" in page
    assert "-463" not in page and "[-751, -176]" not in page


def test_race_column_says_both_shares(tmp_path: Path) -> None:
    page = _page(tmp_path)
    assert "85% (15% with no loss)" in page


def test_elo_chart_names_anchor_games_and_seed() -> None:
    fig = elo_figure(_doc())
    ax = fig.axes[0]
    assert "0 = heuristic" in ax.get_xlabel()
    assert "seed 1" in ax.get_title() and "20 games" in ax.get_title()
    texts = " ".join(t.get_text() for t in ax.texts)
    assert "swept by heuristic, search" in texts
