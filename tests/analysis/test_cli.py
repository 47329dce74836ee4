"""``tankmap analyze`` and ``tankmap render`` end to end."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from fa_boards import MINE_WALL, fa, tank

from tankmap.cli import main
from tankmap.rules.fileformat import write_scenario
from tankmap.rules.geometry import Side

ROOT = Path(__file__).resolve().parents[2]
MIRROR = str(ROOT / "maps/final-act/mirror.json")
TW = str(ROOT / "maps/tank-wars/default.json")
TW2 = str(ROOT / "maps/tank-wars/flank-artillery.json")


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:  # type: ignore[type-arg]
    assert main(list(argv)) == 0
    out = capsys.readouterr().out
    doc: dict = json.loads(out)  # type: ignore[type-arg]
    return doc


def test_analyze_json_contract_on_a_hand_made_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # South tank f1 facing N behind the minefield wall (k6 the only northward lane): 12
    # rounds (see test_reach_final_act). North tank f12 facing S: 11 rows to row 1 need >= 11
    # rounds; f12 -> e11 (forward-right of a S-facing tank) -> e10 .. e7 (5) -> e6, the
    # south-pointing lane (6) -> e5 .. e1 (11).
    path = tmp_path / "pos.json"
    write_scenario(fa(terrain=MINE_WALL, units=(tank("f1"), tank("f12", Side.NORTH))), path)
    doc = run_json(capsys, "analyze", str(path), "--json")
    assert doc["ruleset"] == "final-act"
    assert set(doc["sides"]) == {"south", "north"}
    south, north = doc["sides"]["south"], doc["sides"]["north"]
    for side in (south, north):
        assert {"turns_to_goal", "reach", "coverage", "lanes", "choke", "safest_route"} <= set(side)
        assert {"contested", "safe_cells"} <= set(side)
        assert len(side["reach"]) == 12 and len(side["reach"][0]) == 12
        assert set(side["choke"]) == {"width", "cells"}
        for lane in side["lanes"]:
            assert {"cells", "length", "exposure"} <= set(lane)
    assert south["turns_to_goal"] == 12 and north["turns_to_goal"] == 11
    assert south["reach"][0][5] == 0  # f1: [0] = row 1, [5] = column f
    assert south["reach"][5][0] is None  # a6 is minefield
    assert south["reach"][5][10] == 6  # k6, the lane
    assert south["choke"]["width"] == 1 and len(south["lanes"]) == 1
    # coverage [r][c]: the south tank's cone covers f2 (row 2) but not f1
    assert south["coverage"][1][5] == 1 and south["coverage"][0][5] == 0
    units = {(u["side"], u["cell"]): u for u in doc["units"]}
    assert units[("south", "f1")]["turns_to_goal"] == 12
    assert units[("north", "f12")]["turns_to_goal"] == 11
    assert units[("south", "f1")]["name"] == "C"


def test_analyze_several_files_json(capsys: pytest.CaptureFixture[str]) -> None:
    doc = run_json(capsys, "analyze", MIRROR, TW, "--json")
    assert [f["file"] for f in doc["files"]] == [MIRROR, TW]
    tw = doc["files"][1]
    assert tw["provisional"] is True
    assert tw["sides"]["south"]["turns_to_goal"] is None
    assert "artillery_hit_probability" in tw["sides"]["south"]


def test_analyze_out_writes_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rep"
    assert main(["analyze", MIRROR, "--out", str(out)]) == 0
    html = (out / "report.html").read_text()
    assert "&lt;NA&gt;" not in html and "nan" not in html  # missing values show as a dash
    assert "rounds;" in html and "rounds/turns" not in html  # Final Act counts rounds
    assert "<th>rounds to goal</th>" in html and "turns to goal" not in html  # tables too
    for name in (
        "board.png",
        "reach.png",
        "coverage.png",
        "contested.png",
        "lanes.png",
        "routes.png",
        "balance.png",
    ):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert name in html
    for name in ("balance.csv", "units.csv", "lanes.csv", "reach_south.csv", "analysis.json"):
        assert (out / name).exists()
    rows = (out / "balance.csv").read_text().splitlines()  # counts as counts, not 9.0
    head, south = rows[0].split(","), dict(zip(rows[0].split(","), rows[1].split(","), strict=True))
    assert head[:3] == ["side", "turns_to_goal", "lanes"] and south["turns_to_goal"] == "9"
    assert south["lanes"].isdigit() and "." in south["mean_exposure"]
    assert "http" not in html.replace("http://www.w3.org", "")  # nothing fetched online
    # several files: one folder each plus an index
    out2 = tmp_path / "many"
    assert main(["analyze", TW, TW2, "--out", str(out2)]) == 0
    index = (out2 / "index.html").read_text()
    assert "tank-wars-default/report.html" in index
    assert "tank-wars-flank-artillery/report.html" in index
    assert "provisional" in (out2 / "tank-wars-default" / "report.html").read_text().lower()
    tw_html = (out2 / "tank-wars-default" / "report.html").read_text()
    assert "no unit wins by moving" in tw_html and "0 lanes" not in tw_html


def test_analyze_unreadable_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["analyze", str(bad), "--json"]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and len(err.strip().splitlines()) == 1


def test_render_svg_and_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg = tmp_path / "board.svg"
    assert main(["render", MIRROR, "-o", str(svg)]) == 0
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    png = tmp_path / "board.png"
    assert main(["render", TW, "-o", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_render_rejects_other_extensions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["render", MIRROR, "-o", str(tmp_path / "board.gif")]) == 2
    err = capsys.readouterr().err
    assert ".svg, .png or .pdf" in err and not (tmp_path / "board.gif").exists()


def test_analyze_unwritable_out_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["analyze", TW, "--out", str(blocker / "rep")]) == 2
    err = capsys.readouterr().err
    assert "cannot write the report" in err and len(err.strip().splitlines()) == 1


def test_analyze_many_files_on_two_workers_equals_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = [TW, MIRROR, TW2]
    one = run_json(capsys, "analyze", *files, "--json", "--workers", "1")
    two = run_json(capsys, "analyze", *files, "--json", "--workers", "2")
    assert one == two and [f["file"] for f in two["files"]] == files  # order of the files
    out = tmp_path / "rep"
    assert main(["analyze", *files, "--out", str(out), "--workers", "2"]) == 0
    reports = sorted(p.parent.name for p in out.glob("*/report.html"))
    assert reports == ["final-act-mirror", "tank-wars-default", "tank-wars-flank-artillery"]
    written = json.loads((out / "final-act-mirror" / "analysis.json").read_text())
    assert dict(written, file=MIRROR) == one["files"][1]


def test_analyze_checks_every_file_before_writing_any_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "tankmap-scenario"')
    out = tmp_path / "rep"
    assert main(["analyze", TW, str(bad), "--out", str(out)]) == 2
    assert "bad.json" in capsys.readouterr().err
    assert not out.exists()  # nothing half-done
    assert main(["analyze", TW, "--workers", "0"]) == 2
    assert "--workers" in capsys.readouterr().err


def test_analyze_text_says_why_a_unit_has_no_turns_to_goal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A unit that cannot win by moving is said in words, not as Python's None."""
    assert main(["analyze", "tank-chess/basic-16"]) == 0
    out = capsys.readouterr().out
    assert "None" not in out
    assert "White heavy at c1: turns to goal none (cannot win by moving)" in out
    assert "White command at h1: turns to goal 4" in out
    assert main(["analyze", "final-act/mirror"]) == 0  # the round-based games count rounds
    fa = capsys.readouterr().out
    assert "South: rounds to goal 9, lanes 7" in fa and "turns to goal" not in fa


def test_analyze_text_of_a_side_without_units_does_not_contradict_its_route(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A blank board: no unit can win, yet the terrain has a safest route; the text says
    which is which (it said "cannot win by moving", then showed a route to the goal)."""
    assert main(["analyze", "tank-chess/blank-16"]) == 0
    out = capsys.readouterr().out
    assert "White: turns to goal none (no unit on the board), lanes 16" in out
    assert "safest route over the terrain alone (14 cells, exposure 0): a3 " in out
    assert "cannot win by moving" not in out


def test_analyze_report_shows_the_board_s_remembered_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As the simulate report does (``tankmap verdict --help`` promises it)."""
    from tankmap.analysis.verdict.cache import save_verdict
    from tankmap.commands.common import load

    out = tmp_path / "none"
    assert main(["analyze", MIRROR, "--out", str(out)]) == 0
    assert "Verdict: none yet for this board" in (out / "report.html").read_text()
    doc = {
        "family": "search",
        "agent": "search:12",
        "independent": False,
        "favoured": "south",
        "balance": 0.6,
        "balance_ci95": [0.5, 0.7],
        "games": 200,
        "converged": True,
        "reason": "r",
        "seed": 1,
    }
    assert save_verdict(load(MIRROR), doc) is not None
    out = tmp_path / "kept"
    assert main(["analyze", MIRROR, "--out", str(out)]) == 0
    html = (out / "report.html").read_text()
    assert "Verdict: favours South (converged), balance 0.600 [0.500, 0.700], search:12" in html


@pytest.mark.parametrize("name", ["tank-wars/default", "final-act/mirror", "tank-chess/basic-16"])
def test_the_analysis_charts_titles_stay_inside_their_figures(name: str) -> None:
    """The contested chart of Tank Wars' two boards cut its title at the top."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from tankmap.analysis import figures
    from tankmap.analysis.summary import analyse
    from tankmap.maps import map_path
    from tankmap.rules.fileformat import read_scenario

    result = analyse(read_scenario(map_path(name)))  # type: ignore[arg-type]
    for draw in (figures.contested_figure, figures.coverage_figure, figures.reach_figure):
        fig = draw(result)
        canvas = FigureCanvasAgg(fig)
        canvas.draw()
        for ax in fig.axes:
            if ax.get_title():
                top = ax.title.get_window_extent(canvas.get_renderer()).y1
                assert top <= fig.bbox.height, (draw.__name__, ax.get_title())


def test_reach_and_route_titles_say_when_there_is_no_goal_in_reach() -> None:
    """Tank Wars has no goal line: its panels read "Reach (goal in -)", "Routes (best -)"."""
    from tankmap.analysis import figures
    from tankmap.analysis.summary import analyse
    from tankmap.maps import map_path
    from tankmap.rules.fileformat import read_scenario

    tw = analyse(read_scenario(map_path("tank-wars/default")))  # type: ignore[arg-type]
    titles = [ax.get_title() for ax in figures.reach_figure(tw).axes if ax.get_title()]
    titles += [ax.get_title() for ax in figures.routes_figure(tw).axes if ax.get_title()]
    assert titles and not any(" -)" in t for t in titles)
    assert any("Reach (no goal in reach)" in t for t in titles)
    assert any("Routes (none to a goal)" in t for t in titles)
    fa = analyse(read_scenario(map_path("final-act/mirror")))  # type: ignore[arg-type]
    assert any("Reach (goal in 9)" in ax.get_title() for ax in figures.reach_figure(fa).axes)
