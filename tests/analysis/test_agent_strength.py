"""Every balance figure names its agent, what it does, and how strong it is on this board
(from the board's last ladder), and warns when the heuristic and the strongest agent see
the board differently."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tankmap.analysis.ladder_cache import board_key, load_ladder, save_ladder, verdict_warning
from tankmap.cli import main
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario


def _doc(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    assert main(argv) == 0
    return dict(json.loads(capsys.readouterr().out))


def test_simulate_names_agents_and_their_ladder_strength(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sim = [
        "simulate",
        "tank-wars/default",
        "--games",
        "6",
        "--workers",
        "1",
        "--json",
        "--south",
        "heuristic",
        "--north",
        "random",
        "--out",
        str(tmp_path / "before"),
    ]
    doc = _doc(capsys, sim)
    south, north = doc["agents"]["south"], doc["agents"]["north"]
    assert south["name"] == "heuristic" and south["description"].startswith("heuristic —")
    assert north["description"].startswith("random —")
    assert south["strength"] is None and north["strength"] is None  # no ladder yet
    html = (tmp_path / "before" / "report.html").read_text()
    assert "— provisional <b>" not in html  # the ruleset title says it: not said again
    assert "not rated yet" in html and "random —" in html
    _doc(
        capsys,
        [
            "ladder",
            "tank-wars/default",
            "--games",
            "10",
            "--workers",
            "1",
            "--json",
            "--agents",
            "random,heuristic",
        ],
    )
    doc = _doc(capsys, sim[:-2])
    st = doc["agents"]["south"]["strength"]
    assert st["rank"] == 1 and st["of"] == 2 and st["strongest"] == "heuristic"
    assert st["elo"] == 0.0 and st["anchor"] == "heuristic"  # the anchor
    assert doc["agents"]["north"]["strength"]["elo"] < 0
    assert main([a for a in sim[:-2] if a != "--json"]) == 0  # the text form says it too
    out = capsys.readouterr().out
    # seed 0: the heuristic wins all 10 games: a sweep, said as such instead of an Elo
    assert "ladder: sweeps random on this board (no measured Elo)" in out
    assert "South agent: heuristic" in out


def test_the_cache_follows_the_board_not_the_file(tmp_path: Path) -> None:
    path = map_path("final-act/mirror")
    assert path is not None
    s = read_scenario(path)
    from dataclasses import replace

    assert board_key(s) == board_key(replace(s, title="renamed", notes="x"))
    assert board_key(s) != board_key(s.with_options(wrecks=False))
    doc = {
        "agents": [{"name": "heuristic", "elo": 500.0, "elo_ci95": [400.0, 600.0]}],
        "balance": [],
        "stable": True,
    }
    assert save_ladder(s, doc) is not None
    assert load_ladder(s) == doc
    assert load_ladder(s.with_options(wrecks=False)) is None


def test_verdict_warning_when_heuristic_and_strongest_disagree() -> None:
    ladder = {
        "agents": [{"name": "uct"}, {"name": "heuristic"}, {"name": "random"}],
        "balance": [
            {"agent": "uct", "favoured": "south"},
            {"agent": "heuristic", "favoured": "north"},
            {"agent": "random", "favoured": None},
        ],
        "stable": False,
        "stability": {"reason": "uct favours south, heuristic favours north"},
    }
    text = verdict_warning(ladder)
    assert text is not None and "heuristic favours north" in text and "(uct) favours south" in text
    ladder["balance"][1]["favoured"] = "south"
    ladder["stable"] = True
    assert verdict_warning(ladder) is None
    assert verdict_warning(None) is None


def test_balance_dialog_explains_each_agent_and_hides_absent_kinds(qtbot: Any) -> None:
    from PySide6.QtCore import Qt

    from tankmap.editor.balance import BalanceDialog

    path = map_path("final-act/mirror")  # Extra Forces off: no AT, no R/M
    assert path is not None
    scenario = read_scenario(path)
    dialog = BalanceDialog(lambda: scenario)
    qtbot.addWidget(dialog)
    items = [dialog.south.itemText(i) for i in range(dialog.south.count())]
    assert "heuristic+no-berms" in items
    assert not any(i.endswith(("no-at", "no-rm")) for i in items)
    for i, name in enumerate(items):
        tip = dialog.south.itemData(i, Qt.ItemDataRole.ToolTipRole)
        assert tip and tip.startswith(name.split("+")[0].split(":")[0])
    extra = map_path("final-act/extra-forces")
    assert extra is not None
    ef = read_scenario(extra)
    dialog2 = BalanceDialog(lambda: ef)
    qtbot.addWidget(dialog2)
    items2 = [dialog2.south.itemText(i) for i in range(dialog2.south.count())]
    assert "heuristic+no-at" in items2 and "heuristic+no-rm" in items2
    dialog.games.setValue(20)
    dialog.south.setCurrentText("heuristic")  # (20 games would default to search)
    dialog.north.setCurrentText("heuristic")
    assert dialog.run()
    qtbot.waitUntil(lambda: dialog.last is not None, timeout=60_000)
    text = dialog.results.toPlainText()
    assert "heuristic — tanks take shortest routes" in text and "not rated yet" in text


def test_the_anchor_agent_is_said_to_be_the_anchor_not_elo_0_in_0_0() -> None:
    from tankmap.analysis.simulation.agent_info import strength_text

    st = {"elo": 0.0, "elo_ci95": [0.0, 0.0], "anchor": "heuristic", "rank": 2, "of": 3}
    assert strength_text({"name": "heuristic", "strength": st}) == (
        "ladder anchor on this board, Elo 0 by definition, rank 2 of 3"
    )
    other = {**st, "elo": 110.0, "elo_ci95": [-40.0, 259.0], "rank": 1}
    assert strength_text({"name": "regret", "strength": other}) == (
        "ladder Elo +110 [-40, 259], 0 = heuristic on this board, strongest of 3"
    )


def test_simulate_names_the_agent_played_before_its_generic_description() -> None:
    from tankmap.commands.simulate import agent_line

    assert agent_line("search", "search[:N] — plans each round") == (
        "search (search[:N]) — plans each round"
    )
    assert agent_line("search:12", "search[:N] — plans") == "search:12 (search[:N]) — plans"
    assert agent_line("heuristic", "heuristic — rules of thumb") == "heuristic — rules of thumb"
    assert agent_line("x", "no description") == "no description"
