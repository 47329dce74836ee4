"""Every report figure explains its marks (issue 18 item 1): a key under the boards naming
the unit tokens, terrain kinds, minefield lanes, owner marks and the Final Act range-marker
rows, each figure's own lines and squares, and a labelled colour scale under every heat map;
the analysis report's tables fit the page (item 5)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from matplotlib.figure import Figure

from tankmap import maps
from tankmap.analysis.board_figure import board_figure
from tankmap.analysis.figures import (
    artillery_figure,
    contested_figure,
    coverage_figure,
    kill_figure,
    lanes_figure,
    reach_figure,
    routes_figure,
)
from tankmap.analysis.report import write_report
from tankmap.analysis.simulation.report import heat_figure
from tankmap.analysis.summary import ScenarioAnalysis, analyse
from tankmap.rules.fileformat import read_scenario


def _key(fig: Figure) -> list[str]:
    assert len(fig.legends) == 1, "one key under the boards"
    return [t.get_text() for t in fig.legends[0].get_texts()]


def _scales(fig: Figure) -> list[str]:
    """The labels of the figure's colour scales (horizontal colour bars)."""
    return [ax.get_xlabel() for ax in fig.axes if ax.get_label() == "<colorbar>"]


@pytest.fixture(scope="module")
def mirror() -> ScenarioAnalysis:
    return analyse(read_scenario(maps.ROOT / "final-act" / "mirror.json"))


def test_board_key_names_every_mark_of_a_final_act_board(mirror: ScenarioAnalysis) -> None:
    key = _key(board_figure(mirror.scenario))
    assert key[:4] == ["South unit", "North unit", "rounded square: tank", "barrel: where it faces"]
    for words in ("large berm", "small berm", "swamp", "minefield"):
        assert words in key
    assert "minefield lane (arrow: the way across)" in key
    assert "outline colour: the terrain's owner" in key
    assert "tinted: setup zones" in key
    assert "side bars: range markers (rows r and r + 6 alike)" in key


def test_heat_maps_have_a_labelled_scale_per_panel(mirror: ScenarioAnalysis) -> None:
    cov = coverage_figure(mirror)
    assert _scales(cov) == ["units that can fire at the cell (blank: none)"] * 2
    assert "South unit" in _key(cov) and "outline colour: the terrain's owner" not in _key(cov)
    reach = reach_figure(mirror)
    assert _scales(reach) == ["rounds to stand there (blank: never)"] * 2
    assert "swamp" in _key(reach)


def test_lanes_routes_and_contested_explain_their_own_marks(mirror: ScenarioAnalysis) -> None:
    lanes = _key(lanes_figure(mirror))
    assert lanes[:4] == [
        "a lane (one colour each; no two share a cell)",
        "where a lane starts",
        "choke cell (the fewest cells that close every lane)",
        "safest route (exposure: enemy fire on the way)",
    ]
    routes = _key(routes_figure(mirror))
    assert routes[:2] == ["one unit's route (one colour each)", "where it stands after each round"]
    contested = _key(contested_figure(mirror))
    assert contested[0] == "contested (both sides fire)" and "large berm" in contested
    assert not any(k.startswith("side bars") for k in contested)  # drawn without them


def test_tank_chess_and_tank_wars_keys() -> None:
    tc = analyse(read_scenario(maps.ROOT / "tank-chess" / "basic-16.json"))
    key = _key(board_figure(tc.scenario))
    assert key[:2] == ["White unit", "Black unit"]
    assert "obstacle" in key and "tinted: setup zones" in key
    # each Tank Chess piece has its own token shape, named in the key
    for words in ("octagon: command tank", "circle: light tank", "square: heavy tank"):
        assert words in key
    assert not any(k.startswith(("side bars", "outline colour")) for k in key)
    kill = kill_figure(tc)
    assert kill is not None and len(_scales(kill)) == 2
    tw = analyse(read_scenario(maps.ROOT / "tank-wars" / "default.json"))
    art = artillery_figure(tw)
    assert art is not None and _scales(art) == ["chance the field is hit by enemy artillery"]


def test_simulation_heat_maps_say_what_they_count() -> None:
    s = read_scenario(maps.ROOT / "final-act" / "mirror.json")
    grid = np.zeros((s.board.rows, s.board.columns), dtype=int)
    grid[4, 3] = 5
    fig = heat_figure(
        s,
        {"south": grid, "north": grid},
        "t",
        "Reds",
        {"south": "", "north": ""},
        "units lost there",
    )
    assert _scales(fig) == ["units lost there (blank: none)"] * 2
    assert "North unit" in _key(fig)


def test_report_tables_wrap_their_headers_and_scroll_instead_of_being_cut(
    mirror: ScenarioAnalysis, tmp_path: Path
) -> None:
    page = write_report(mirror, tmp_path).read_text("utf-8")
    tables = page.count("<table>")
    assert tables == 3 and page.count("<div class=wide><table>") == tables
    assert "<th>rounds to goal</th>" in page and "turns_to_goal</th>" not in page  # Final Act
    assert ".wide{overflow-x:auto" in page
