"""The replay view (File ▸ Open game record…): the board after step k is the library's
position k, the text is ``tankmap replay``'s line, the end shows the result; bad records
are one error message; the balance dialog's sample games open in it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tankmap.analysis.replay import Replay, load_replay
from tankmap.analysis.simulation.runner import record_game
from tankmap.cli import main
from tankmap.editor.balance import BalanceDialog
from tankmap.editor.replay_view import ReplayWindow
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.scenario import Scenario

GAMES = [("final-act/mirror", 3, 1), ("tank-chess/basic-16", 3, 3), ("tank-wars/default", 3, 1)]


def _scenario(name: str) -> Scenario:
    path = map_path(name)
    assert path is not None
    return read_scenario(path)


def _record(tmp_path: Path, name: str, seed: int, game: int) -> Path:
    _result, rec = record_game(_scenario(name), "heuristic", seed=seed, game=game)
    path = tmp_path / f"{name.replace('/', '-')}.json"
    rec.save(path)
    return path


def _cli_lines(path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    return capsys.readouterr().out.splitlines()


def _open(window: Any, prompter: Any, path: Path) -> ReplayWindow:
    prompter.open = str(path)
    window.run_action("file.open_record")
    (rw,) = window.findChildren(ReplayWindow)
    return rw  # type: ignore[no-any-return]


def _drawn(rw: ReplayWindow) -> set[object]:
    """The pieces the replay window's board shows."""
    return {key[0] for key in rw.scene.piece_items()}


def _shows(rw: ReplayWindow, replay: Replay, lines: list[str], k: int) -> None:
    position = replay.position(k)
    assert rw.k == k and rw.slider.value() == k and rw.steps.currentRow() == k
    assert rw.position() == position
    assert _drawn(rw) == set(position.units) | set(position.terrain)
    step = None if k == 0 else replay.steps[k - 1]
    assert rw.overlay.step == step
    if step is not None:
        assert rw.now.text() == lines[k - 1]  # tankmap replay's line for this round/turn
    assert rw.result.isHidden() == (k != rw.count)
    if k == rw.count:
        assert rw.result.text() == lines[-1] and rw.text().endswith(lines[-1])


@pytest.mark.parametrize(("name", "seed", "game"), GAMES)
def test_stepping_shows_the_library_positions_and_the_cli_text(
    make_window: Any,
    prompter: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    seed: int,
    game: int,
) -> None:
    path = _record(tmp_path, name, seed, game)
    lines = _cli_lines(path, capsys)
    replay = load_replay(path)
    assert len(lines) == len(replay.steps) + 1 and lines[-1].startswith("result: ")
    w = make_window()
    rw = _open(w, prompter, path)
    assert rw.isVisible() and "Replay" in rw.windowTitle()
    assert ("open-file", "Game records (*.json);;All files (*)") in prompter.asked
    _shows(rw, replay, lines, 0)
    for k in range(1, rw.count + 1):  # forward to the end
        rw.forward_button.click()
        _shows(rw, replay, lines, k)
    assert not rw.forward_button.isEnabled()
    rw.forward()  # nothing past the end
    _shows(rw, replay, lines, rw.count)
    for k in (rw.count - 1, rw.count - 2):  # and back
        rw.back_button.click()
        _shows(rw, replay, lines, k)
    rw.first_button.click()
    _shows(rw, replay, lines, 0)
    rw.last_button.click()
    _shows(rw, replay, lines, rw.count)
    rw.slider.setValue(2)
    _shows(rw, replay, lines, 2)
    rw.steps.setCurrentRow(1)  # a click in the list of steps
    _shows(rw, replay, lines, 1)
    moves = [m for s in replay.steps for m in s.moves]
    assert moves and any(s.shells for s in replay.steps)  # there are arrows and shells to draw
    assert not w.doc.modified  # the editor's own document is untouched


def test_keys_and_play_step_through_the_game(
    make_window: Any, prompter: Any, tmp_path: Path, qtbot: Any
) -> None:
    path = _record(tmp_path, "tank-chess/basic-16", 3, 3)
    w = make_window()
    rw = _open(w, prompter, path)
    rw.activateWindow()
    rw.view.setFocus()
    QTest.keyClick(rw.view, Qt.Key.Key_Right)
    QTest.keyClick(rw.view, Qt.Key.Key_Right)
    assert rw.k == 2
    QTest.keyClick(rw.view, Qt.Key.Key_Left)
    assert rw.k == 1
    QTest.keyClick(rw.view, Qt.Key.Key_End)
    assert rw.k == rw.count
    QTest.keyClick(rw.view, Qt.Key.Key_Home)
    assert rw.k == 0
    rw.timer.setInterval(5)
    rw.play_button.click()
    assert rw.timer.isActive()
    qtbot.waitUntil(lambda: rw.k == rw.count, timeout=120_000)
    qtbot.waitUntil(lambda: not rw.timer.isActive(), timeout=120_000)  # stops at the end
    said = [s for s in rw.replay.steps if s.announcements]
    assert said  # Tank Chess's Check!/Escape! are in the list and the heading
    assert all(a in rw.steps.item(s.number).text() for s in said for a in s.announcements)
    rw.go(said[0].number)
    assert said[0].announcements[0] in rw.heading.text()


def test_edit_this_position_opens_it_in_the_editor(
    make_window: Any, prompter: Any, tmp_path: Path
) -> None:
    path = _record(tmp_path, "final-act/mirror", 3, 1)
    w = make_window()
    rw = _open(w, prompter, path)
    rw.go(4)
    assert rw.edit_button is not None
    rw.edit_button.click()
    assert w.doc.scenario == rw.replay.position(4)


def _corrupt(tmp_path: Path) -> dict[str, Path]:
    good = _record(tmp_path, "final-act/mirror", 3, 1)
    data = json.loads(good.read_text())
    out = {}
    out["cut"] = tmp_path / "cut.json"
    out["cut"].write_text(good.read_text()[:300])
    bad = json.loads(json.dumps(data))
    bad["rounds"][2]["orders"][0] = "a12N"
    out["illegal"] = tmp_path / "illegal.json"
    out["illegal"].write_text(json.dumps(bad))
    bad = json.loads(json.dumps(data))
    bad["result"]["winner"] = "north" if data["result"]["winner"] == "south" else "south"
    out["tampered"] = tmp_path / "tampered.json"
    out["tampered"].write_text(json.dumps(bad))
    out["scenario"] = map_path("final-act/mirror")  # type: ignore[assignment]
    out["binary"] = tmp_path / "binary.json"
    out["binary"].write_bytes(b"\x00\xff" * 40)
    out["format-list"] = tmp_path / "format-list.json"
    out["format-list"].write_text('{"format": ["tankmap-game"]}')
    out["missing"] = tmp_path / "missing.json"
    return out


def test_a_bad_record_is_one_error_line_and_the_window_survives(
    make_window: Any, prompter: Any, tmp_path: Path
) -> None:
    w = make_window()
    for what, path in _corrupt(tmp_path).items():
        prompter.asked.clear()
        prompter.open = str(path)
        w.run_action("file.open_record")
        errors = [text for kind, text in prompter.asked if kind == "error"]
        assert len(errors) == 1, what
        assert "\n" not in errors[0] and str(path) in errors[0], errors[0]
        assert "Traceback" not in errors[0]
        assert not w.findChildren(ReplayWindow), what
    assert "round 3" in _last_error(prompter, w, tmp_path / "illegal.json")
    assert "the record says" in _last_error(prompter, w, tmp_path / "tampered.json")
    assert "not a game record" in _last_error(prompter, w, tmp_path / "format-list.json")
    assert w.isVisible()
    prompter.open = None  # Cancel in the file dialog: nothing happens
    prompter.asked.clear()
    w.run_action("file.open_record")
    assert [k for k, _ in prompter.asked] == ["open-file"]
    good = _record(tmp_path, "tank-wars/default", 3, 1)  # and the next good record opens
    assert _open(w, prompter, good).count > 0


def _last_error(prompter: Any, w: Any, path: Path) -> str:
    prompter.open = str(path)
    w.run_action("file.open_record")
    return str(prompter.asked[-1][1])


@pytest.mark.parametrize(("name", "policy"), [("final-act/mirror", "heuristic"),
                                              ("tank-chess/basic-16", "random")])  # fmt: skip
def test_balance_samples_are_the_games_of_the_run_and_open_in_the_view(
    qtbot: Any, name: str, policy: str
) -> None:
    scenario = _scenario(name)
    watched: list[tuple[Replay, str]] = []
    dialog = BalanceDialog(lambda: scenario, watch=lambda r, t: watched.append((r, t)))
    qtbot.addWidget(dialog)
    assert not dialog.watch_button.isEnabled() and dialog.watch() is None
    dialog.games.setValue(40)
    dialog.seed.setValue(2)
    dialog.south.setCurrentText(policy)
    dialog.north.setCurrentText(policy)
    assert dialog.run()
    qtbot.waitUntil(lambda: dialog.last is not None, timeout=60_000)
    _scenario_, _doc, table = dialog.last  # type: ignore[misc]
    assert dialog.samples and dialog.watch_button.isEnabled()
    assert dialog.sample_box.count() == len(dialog.samples)
    outcomes = {s.outcome for s in dialog.samples}
    assert outcomes == set(table["winner"])
    for i, sample in enumerate(dialog.samples):
        row = table[table["game"] == sample.game].iloc[0]
        assert row["winner"] == sample.outcome and row["length"] == sample.length
        job = dialog.watch(i)
        assert job is not None
        qtbot.waitUntil(lambda i=i: len(watched) == i + 1, timeout=120_000)
        replay, title = watched[-1]
        assert title == dialog.sample_box.itemText(i) and f"game {sample.game}" in title
        # the dialog checked the whole table row of the game recorded again; the replay
        # of its record ends the same way (Tank Chess names a draw at the limit max-turns)
        winner = "draw" if replay.result.winner is None else replay.result.winner.value
        assert (winner, replay.result.rounds) == (row["winner"], row["length"])


def test_watch_opens_a_replay_window(qtbot: Any) -> None:
    scenario = _scenario("final-act/mirror")
    dialog = BalanceDialog(lambda: scenario)
    qtbot.addWidget(dialog)
    dialog.games.setValue(20)
    dialog.south.setCurrentText("heuristic")  # (a few games would default to search)
    dialog.north.setCurrentText("heuristic")
    assert dialog.run()
    qtbot.waitUntil(lambda: dialog.last is not None, timeout=60_000)
    dialog.sample_box.setCurrentIndex(len(dialog.samples) - 1)
    dialog.watch_button.click()
    qtbot.waitUntil(lambda: bool(dialog.findChildren(ReplayWindow)), timeout=120_000)
    (rw,) = dialog.findChildren(ReplayWindow)
    sample = dialog.samples[-1]
    assert rw.isVisible() and f"game {sample.game}" in rw.windowTitle()
    assert rw.count == sample.length
    rw.last()
    assert rw.result.text() == rw.replay.result_line()


def test_where_games_were_decided_is_a_heat_map_of_the_run(qtbot: Any) -> None:
    from tankmap.analysis.run_games import decided_maps
    from tankmap.editor.decided_view import DecidedWindow

    scenario = _scenario("final-act/mirror")
    dialog = BalanceDialog(lambda: scenario)
    qtbot.addWidget(dialog)
    assert not dialog.decided_button.isEnabled() and dialog.show_decided() is None
    dialog.games.setValue(30)
    dialog.south.setCurrentText("heuristic")  # (a few games would default to search)
    dialog.north.setCurrentText("heuristic")
    assert dialog.run()
    qtbot.waitUntil(lambda: dialog.last is not None, timeout=60_000)
    assert dialog.decided_button.isEnabled()
    dialog.decided_button.click()
    (window,) = dialog.findChildren(DecidedWindow)
    assert "30 games of heuristic vs heuristic, seed 0" in window.windowTitle()
    maps = decided_maps(dialog.last[2], scenario.board)  # type: ignore[index]
    board = scenario.board
    for key in ("losses-south", "losses-north", "won-south", "won-north"):
        window.show_map(key)
        assert window.key() == key
        shown = {c: int(t) for c, t in window.scene.heat.labels.items()}
        grid = maps[key]
        assert shown == {
            board.cell(c, r): int(grid[r, c])
            for r in range(board.rows)
            for c in range(board.columns)
            if grid[r, c]
        }
        assert str(int(grid.sum())) in window.choice.currentText()
    assert sum(int(maps[f"won-{s}"].sum()) for s in ("south", "north")) == int(
        (dialog.last[2]["winner"] != "draw").sum()  # type: ignore[index]
    )
