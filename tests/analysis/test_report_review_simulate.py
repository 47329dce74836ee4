"""The simulation report's charts and page: the win-rate chart names the agents, the seed
and the balance's interval; both heat-map panels share one colour scale; the page says
which side the run favours; the contested chart names the sides in the game's words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from tankmap.analysis.figures import contested_figure
from tankmap.analysis.simulation.report import _html, heat_figure, win_rate_figure
from tankmap.analysis.summary import analyse
from tankmap.rules.fileformat import read_scenario

MAPS = Path(__file__).resolve().parents[2] / "maps"


def _rate(p: float, lo: float, hi: float) -> dict[str, Any]:
    return {"estimate": p, "ci95": [lo, hi]}


def _summary() -> dict[str, Any]:
    return {
        "games": 40,
        "seed": 1,
        "policy": {"south": "alphabeta", "north": "alphabeta"},
        "wins": {"south": 10, "north": 30},
        "draws": 0,
        "win_rate": {
            "south": _rate(0.25, 0.141907, 0.401934),
            "north": _rate(0.75, 0.598066, 0.858093),
        },
        "draw_rate": _rate(0.0, 0.0, 0.087622),
        "balance": 0.5,
        "balance_ci95": [0.257895, 0.789718],
        "favoured": "undecided",
        "length": {"mean": 16.55, "median": 11},
        "playouts_per_second": 2.6,
        "end": {"capture": 40},
        "losses_by_kind": {"south": {}, "north": {}},
        "kills_by_kind": {"south": {}, "north": {}},
    }


def test_win_rate_chart_names_agents_seed_and_balance_interval() -> None:
    fig = win_rate_figure(_summary(), ("White", "Black"))
    title = fig.axes[0].get_title()
    assert "alphabeta (White) vs alphabeta (Black)" in title
    assert "seed 1" in title
    assert "0.500 [0.258, 0.790]" in title


def test_heat_panels_share_one_colour_scale() -> None:
    scenario = read_scenario(MAPS / "final-act" / "mirror.json")
    size = scenario.board.size
    few, many = np.zeros(size), np.zeros(size)
    few[3], many[5] = 2, 9
    fig = heat_figure(
        scenario, {"south": few, "north": many}, "t", "Reds", {"south": "", "north": ""}
    )
    bars = [ax for ax in fig.axes if ax.get_label() == "<colorbar>"]
    assert len(bars) == 2
    assert bars[0].get_xlim() == bars[1].get_xlim()


def test_page_says_the_run_is_undecided() -> None:
    scenario = read_scenario(MAPS / "tank-chess" / "basic-16.json")
    page = _html(scenario, _summary(), [], "plies")
    assert "<b>undecided</b>" in page


def test_contested_key_names_sides_in_the_games_words() -> None:
    result = analyse(read_scenario(MAPS / "tank-chess" / "basic-16.json"), routes=False)
    fig = contested_figure(result)
    labels = [t.get_text() for legend in fig.legends for t in legend.get_texts()]
    assert any(label.startswith("safe for White") for label in labels)
    assert not any("safe for south" in label for label in labels)
