"""The balance table and every figure function, on small boards."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from fa_boards import SWAMP_WALL, fa, tank
from matplotlib.figure import Figure

from tankmap.analysis.balance import COLUMNS, DIFF, balance_table
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
from tankmap.analysis.measures_figure import TITLE, measures_figure
from tankmap.analysis.summary import analyse
from tankmap.rules.board import Board
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario, Unit

ROOT = Path(__file__).resolve().parents[2]


def test_balance_table_rows_and_difference() -> None:
    # South tank f1 behind its own swamp wall (12 rounds, see test_reach_final_act); north
    # tank l12 straight down column l through the gap (11 rounds). Lanes: 2 each.
    s = fa(terrain=SWAMP_WALL, units=(tank("f1"), tank("l12", Side.NORTH)))
    df = balance_table(analyse(s, routes=False))
    assert list(df.index) == ["south", "north", DIFF]
    assert tuple(df.columns) == COLUMNS
    assert df.loc["south", "turns_to_goal"] == 12 and df.loc["north", "turns_to_goal"] == 11
    assert df.loc[DIFF, "turns_to_goal"] == 1
    assert df.loc["south", "lanes"] == 2 and df.loc[DIFF, "lanes"] == 0
    assert df.loc["south", "choke_width"] == 2
    assert df.loc["south", "coverage_total"] == 24  # rules §4: 24 cone cells, nothing blocks
    assert df.loc["south", "contested_cells"] == df.loc["north", "contested_cells"]


def test_balance_table_tank_wars_has_no_lanes() -> None:
    s = read_scenario(ROOT / "maps/tank-wars/default.json")
    df = balance_table(analyse(s, routes=False))
    assert math.isnan(df.loc["south", "lanes"]) and math.isnan(df.loc["south", "turns_to_goal"])


def test_every_figure_is_a_figure() -> None:
    b = Board.of(8, 8)
    tc = Scenario(
        ruleset="tank-chess",
        board=b,
        units=(
            Unit("command", Side.SOUTH, b.parse_cell("d1"), Facing.N),
            Unit("heavy", Side.NORTH, b.parse_cell("e8"), Facing.S),
        ),
    )
    tw = read_scenario(ROOT / "maps/tank-wars/default.json")
    fas = fa(terrain=SWAMP_WALL, units=(tank("f1"), tank("l12", Side.NORTH)))
    for s in (fas, tc, tw):
        r = analyse(s)
        figs = [
            board_figure(s),
            reach_figure(r),
            coverage_figure(r),
            contested_figure(r),
            lanes_figure(r),
            routes_figure(r),
            measures_figure(balance_table(r), s.ruleset),
        ]
        assert all(isinstance(f, Figure) for f in figs)
        assert (kill_figure(r) is not None) == (s.ruleset == "tank-chess")
        assert (artillery_figure(r) is not None) == (s.ruleset == "tank-wars")


@pytest.mark.parametrize(
    ("name", "sides"),
    [
        ("tank-chess/basic-16", ["White", "Black"]),
        ("final-act/flanks-vs-centre", ["South", "North"]),
    ],
)
def test_the_static_measures_chart_is_labelled_for_what_it_is(name: str, sides: list[str]) -> None:
    s = read_scenario(ROOT / "maps" / f"{name}.json")
    table = balance_table(analyse(s, routes=False))
    fig = measures_figure(table, s.ruleset)
    assert fig._suptitle is not None and fig._suptitle.get_text() == TITLE
    assert "not win rates" in TITLE
    shown = [ax for ax in fig.axes if ax.get_visible()]
    assert len(shown) == sum(table.loc[["south", "north"], c].notna().any() for c in table.columns)
    for ax in shown:
        assert ax.get_xscale() == "linear" and ax.get_xlim()[0] == 0  # one scale per measure
        assert [t.get_text() for t in ax.get_yticklabels()] == sides
        assert min(t.get_fontsize() for t in ax.get_yticklabels()) >= 9  # readable
        assert ax.get_title(loc="left")


def test_a_uniform_artillery_map_says_its_one_chance_in_the_title() -> None:
    # rules: the letter and number dice pick the target field, so every field of a board is
    # as likely as any other; the chart says the one chance instead of only repeating it
    r = analyse(read_scenario(ROOT / "maps" / "tank-wars" / "default.json"))
    fig = artillery_figure(r)
    assert fig is not None
    title = fig.axes[0].get_title()
    assert "on every field" in title
