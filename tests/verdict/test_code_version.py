"""Remembered results (verdicts, ladders) are the board's only for the code that made them:
after an upgrade that changes the agents, an old figure is not shown as the board's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tankmap.analysis import code_version as cv
from tankmap.analysis.ladder_cache import load_ladder, save_ladder
from tankmap.analysis.simulation.agent_info import verdict_entry
from tankmap.analysis.verdict.cache import (
    disagreement,
    earlier_verdict,
    load_verdict,
    load_verdicts,
    save_verdict,
    verdict_dir,
)
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario

MIRROR = read_scenario(map_path("final-act/mirror"))  # type: ignore[arg-type]


def _doc(family: str, favoured: str, independent: bool) -> dict[str, Any]:
    return {
        "family": family,
        "agent": f"{family}:12",
        "independent": independent,
        "favoured": favoured,
        "balance": 0.6,
        "balance_ci95": [0.5, 0.7],
        "games": 200,
        "converged": True,
        "reason": "r",
        "seed": 1,
    }


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TANKMAP_CACHE_DIR", str(tmp_path))
    return tmp_path


def _other_code(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cv, "code_version", lambda: "an earlier tankmap")


def test_a_verdict_reads_back_as_saved_by_the_same_code(cache: Path) -> None:
    doc = _doc("search", "south", False)
    assert save_verdict(MIRROR, doc) is not None
    assert load_verdict(MIRROR) == doc  # (the stamp is the cache's, not the document's)
    assert not earlier_verdict(MIRROR)
    entry = verdict_entry(MIRROR)
    assert entry["verdict"]["favoured"] == "south"
    assert entry["verdict_line"].startswith("verdict: favours")


def test_a_verdict_made_by_other_code_is_not_the_board_s(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as m:
        _other_code(m)
        save_verdict(MIRROR, _doc("search", "south", False))
        save_verdict(MIRROR, _doc("duct", "north", True))
        assert load_verdict(MIRROR) is not None  # the code that made them reads them
    assert load_verdict(MIRROR) is None
    assert load_verdicts(MIRROR) == {}
    assert disagreement(MIRROR) is None  # (they disagreed: only this code's count)
    assert earlier_verdict(MIRROR)
    entry = verdict_entry(MIRROR)
    assert entry["verdict"] is None
    assert "made by other agent code" in entry["verdict_line"]
    assert "tankmap verdict" in entry["verdict_line"]


def test_saving_a_verdict_drops_those_of_other_code(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as m:
        _other_code(m)
        save_verdict(MIRROR, _doc("duct", "north", True))
    save_verdict(MIRROR, _doc("search", "south", False))
    assert set(load_verdicts(MIRROR)) == {"search"}
    assert not earlier_verdict(MIRROR)
    (path,) = verdict_dir().glob("*.json")
    assert set(json.loads(path.read_text(encoding="utf-8"))["families"]) == {"search"}


def test_a_hand_written_verdict_without_a_stamp_counts_as_other_code(cache: Path) -> None:
    save_verdict(MIRROR, _doc("search", "south", False))
    (path,) = verdict_dir().glob("*.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    del doc["families"]["search"][cv.CODE_KEY]
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert load_verdict(MIRROR) is None and earlier_verdict(MIRROR)


def test_a_ladder_made_by_other_code_is_not_read_back(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = {"agents": [{"name": "heuristic", "elo": 0.0, "elo_ci95": [-50.0, 50.0]}]}
    with monkeypatch.context() as m:
        _other_code(m)
        save_ladder(MIRROR, doc)
        assert load_ladder(MIRROR) == doc
    assert load_ladder(MIRROR) is None
    save_ladder(MIRROR, doc)
    assert load_ladder(MIRROR) == doc


def test_the_code_version_changes_with_the_agents_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hash covers the simulation package: a copy of the package hashes as the package,
    and differently with one agent file changed."""
    import shutil

    import tankmap

    real = cv.code_version()
    root = Path(tankmap.__file__).resolve().parent
    copy = tmp_path / "tankmap"
    (copy / "analysis").mkdir(parents=True)
    shutil.copytree(root / "rules", copy / "rules")
    shutil.copytree(root / "analysis" / "simulation", copy / "analysis" / "simulation")
    fake = copy / "analysis" / "code_version.py"
    fake.write_text("", encoding="utf-8")
    monkeypatch.setattr(cv, "__file__", str(fake))
    cv.code_version.cache_clear()
    try:
        same = cv.code_version()
        agent = copy / "analysis" / "simulation" / "families.py"
        agent.write_text(agent.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
        cv.code_version.cache_clear()
        changed = cv.code_version()
    finally:
        cv.code_version.cache_clear()
    assert same == real  # (the source's paths inside the package and its text, not where)
    assert same != changed


def _climb(converged: bool, rungs: list[tuple[int, int]], games: int) -> dict[str, Any]:
    """A verdict document of the search family whose trace has rungs of (self-play games,
    match games)."""
    trace = [
        {"agent": f"search:{3 << i}", "games": g, "match_games": m}
        for i, (g, m) in enumerate(rungs)
    ]
    return {**_doc("search", "even", False), "converged": converged, "trace": trace, "games": games}


def test_a_quicker_or_cut_short_climb_never_replaces_the_kept_verdict(cache: Path) -> None:
    full = _climb(True, [(200, 0), (200, 200)], 200)
    assert save_verdict(MIRROR, full) is not None
    # the same board judged again with a short time limit: one rung, fewer games
    assert save_verdict(MIRROR, _climb(False, [(40, 0)], 40)) is None
    assert save_verdict(MIRROR, _climb(False, [(200, 0), (0, 80)], 200)) is None
    assert load_verdict(MIRROR) == full
    # a climb with as much evidence (another seed, say) replaces it; so does a longer one
    again = {**_climb(True, [(200, 0), (200, 200)], 200), "seed": 2}
    assert save_verdict(MIRROR, again) is not None and load_verdict(MIRROR) == again
    longer = _climb(True, [(200, 0), (0, 200), (200, 200)], 200)
    assert save_verdict(MIRROR, longer) is not None and load_verdict(MIRROR) == longer


def test_a_verdict_without_games_is_not_remembered(cache: Path) -> None:
    # (a one-second time limit on a fresh board: nothing played)
    assert save_verdict(MIRROR, _climb(False, [(0, 0)], 0)) is None
    assert load_verdict(MIRROR) is None
    assert save_verdict(MIRROR, _climb(False, [(40, 0)], 40)) is not None


def test_the_command_says_when_its_verdict_is_not_remembered(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tankmap.cli import main

    board = read_scenario(map_path("tank-wars/default"))  # type: ignore[arg-type]
    kept = {
        **_doc("regret", "north", True),
        "agent": "regret:512",
        "trace": [
            {"agent": f"regret:{32 << i}", "games": 200, "match_games": 200} for i in range(5)
        ],
    }
    assert save_verdict(board, kept) is not None
    assert main(["verdict", "tank-wars/default", "--time-limit", "2", "--no-cross-check"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith(
        "not remembered: the board keeps a verdict resting on more games and rungs (favours "
        "North (converged), balance 0.600 [0.500, 0.700], regret:512, 200 games, seed 1), which "
        "simulate, the reports and the editor go on showing"
    )
    assert load_verdict(board) == kept
