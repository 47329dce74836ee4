"""Play mode in the editor (Game ▸ Play…): whole games played by simulated clicks against
a seeded agent, a hot-seat game whose record replays, the set-up dialog, take-back, hints
and the refusals. The person's decisions are chosen by an agent of the test's own and
given only by clicks on the play window."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from play_helpers import (
    click_cell,
    click_final_act_part,
    click_tank_chess_turn,
    press,
    wait_for_person,
)
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolBar

from tankmap.analysis.play import HUMAN
from tankmap.analysis.play.agents import FinalActAgent, TankChessAgent, TankWarsAgent
from tankmap.analysis.play.final_act_lines import SideRound
from tankmap.analysis.replay import load_replay
from tankmap.cli import main
from tankmap.editor.play import PlayChoice, open_play
from tankmap.editor.play.setup import PlaySetupDialog
from tankmap.maps import map_path
from tankmap.rules.geometry import Side


def start(make_window: Any, qtbot: Any, name: str, players: tuple[str, str], seed: int = 1) -> Any:
    w = make_window(map_path(name))
    play = open_play(w, PlayChoice(players, seed))
    assert play is not None
    qtbot.addWidget(play)
    qtbot.waitExposed(play)
    play.view.fit()
    return play


def test_a_whole_tank_chess_game_by_clicks_against_random(make_window: Any, qtbot: Any) -> None:
    play = start(make_window, qtbot, "tank-chess/basic-16", (HUMAN, "random"), seed=1)
    s = play.session
    me = TankChessAgent(s.scenario, "heuristic", 0, seed=7)
    while wait_for_person(qtbot, play):
        before = len(s.steps)
        click_tank_chess_turn(play, me.choose(s.state))
        assert len(s.steps) == before + 1 and s.steps[-1].mover is Side.SOUTH
    assert s.result is not None and s.result.reason in ("command-destroyed", "escape")
    assert "game over" in play.status.text()
    assert [step.line for step in load_replay_of(play).steps] == [st.line for st in s.steps]


def load_replay_of(play: Any) -> Any:
    from tankmap.analysis.replay import replay_of

    return replay_of(play.session.record())


def test_a_whole_final_act_game_by_clicks_against_random(make_window: Any, qtbot: Any) -> None:
    play = start(make_window, qtbot, "final-act/mirror", (HUMAN, "random"), seed=2)
    s = play.session
    me = FinalActAgent(s.engine, "heuristic", 0, seed=3)
    while wait_for_person(qtbot, play):
        assert s.phase() == "orders"
        number = s.round_number
        orders, shells, acts = me.decide(s.state)
        click_final_act_part(play, Side.SOUTH, SideRound(orders, shells, acts))
        qtbot.waitUntil(lambda n=number: s.over or s.round_number == n + 1, timeout=60000)
        assert play.message.text() == ""
    assert s.result is not None and s.result.reason == "goal"
    assert "game over" in play.status.text() and play.now.text().startswith("round ")


def test_a_hot_seat_game_hides_orders_and_its_record_replays(
    make_window: Any, qtbot: Any, tmp_path: Path, prompter: Any, capsys: Any
) -> None:
    play = start(make_window, qtbot, "final-act/mirror", (HUMAN, HUMAN))
    s = play.session
    agents = {side: FinalActAgent(s.engine, "heuristic", side.index, seed=5) for side in Side}
    assert play.covered and "Pass the screen to South" in play.cover.text()
    rounds = 0
    while not s.over and rounds < 12:
        for side in Side:
            assert wait_for_person(qtbot, play)  # uncovers for ``side``
            assert play.acting() is side and play.input.side is side
            orders, shells, acts = agents[side].decide(s.state)
            click_final_act_part(play, side, SideRound(orders, shells, acts))
            if side is Side.SOUTH:  # North's turn to decide: South's orders are hidden
                assert play.covered and "South's decisions stay hidden" in play.cover.text()
                assert s.steps[-1:] == [] or s.steps[-1].number == rounds
                assert play.pending.step is None or not play.pending.step.moves
        rounds += 1
    prompter.save = str(tmp_path / "hot-seat.json")
    assert play.save() == prompter.save
    replay = load_replay(prompter.save)
    assert len(replay.steps) == len(s.steps) and replay.steps[-1].line == s.steps[-1].line
    assert main(["replay", prompter.save]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == replay.result_line()


def test_take_back_and_hint(make_window: Any, qtbot: Any) -> None:
    play = start(make_window, qtbot, "tank-chess/basic-16", (HUMAN, "random"), seed=4)
    s = play.session
    assert wait_for_person(qtbot, play)
    press(play.hint_button)
    qtbot.waitUntil(lambda: play.hint_label.text().startswith("Hint (alphabeta): "), timeout=60000)
    hint = play.hint_label.text().split(": ", 1)[1]
    assert play.line.text() == hint and play.hint_overlay.step is not None
    play.line.setFocus()
    qtbot.keyClick(play.line, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: len(s.steps) == 2 and play.acting() is Side.SOUTH, timeout=60000)
    assert s.steps[0].notation == hint
    press(play.undo_button)
    assert s.steps == [] and play.message.text() == "Taken back"
    press(play.hint_button)  # a later hint does not sit under the old "Taken back"
    assert play.message.text() == ""
    qtbot.waitUntil(lambda: not play.busy, timeout=60000)


def test_closing_a_game_says_so_in_the_editor_s_status_bar(make_window: Any, qtbot: Any) -> None:
    play = start(make_window, qtbot, "tank-chess/basic-16", (HUMAN, "random"), seed=4)
    ctx = play.parentWidget().ctx
    assert ctx.last_status.startswith("Playing basic-16")
    play.close()
    assert ctx.last_status.startswith("Closed the game of basic-16.json (")


def test_a_typed_illegal_line_is_refused_with_its_reason(make_window: Any, qtbot: Any) -> None:
    play = start(make_window, qtbot, "tank-wars/default", (HUMAN, "random"), seed=2)
    assert wait_for_person(qtbot, play)
    play.line.setText("xa1")
    play._typed()
    assert "only enemy fields and own craters" in play.message.text()
    assert play.session.steps == [] and play.acting() is Side.SOUTH


def test_a_tank_wars_round_by_clicks(make_window: Any, qtbot: Any) -> None:
    play = start(make_window, qtbot, "tank-wars/default", (HUMAN, "random"), seed=3)
    s = play.session
    me = TankWarsAgent("heuristic", 0, seed=9)
    assert wait_for_person(qtbot, play)
    assert play.last.step is not None and play.last.step.shells  # the artillery's dice
    orders = me.orders(s.state, Side.SOUTH)
    from tankmap.rules.tank_wars.engine import command_end

    for ident, command in sorted(orders.commands.items()):
        v = s.state.vehicle(ident)
        click_cell(play, v.cell)
        click_cell(play, command_end(s.state.board, v.cell, command))
    for cell in orders.gunfire:
        click_cell(play, cell)
    assert play.input.line() == s.lines_io.format(orders)
    press(play.input.commit)
    qtbot.waitUntil(lambda: len(s.steps) == 1, timeout=60000)
    assert s.record().rounds[0][0] == orders


def test_the_set_up_dialog_offers_you_and_every_agent(make_window: Any, qtbot: Any) -> None:
    w = make_window(map_path("final-act/mirror"))
    dialog = PlaySetupDialog(w.doc.scenario, w)
    qtbot.addWidget(dialog)
    combo = dialog.combos[Side.SOUTH]
    assert [combo.itemText(i) for i in range(combo.count())] == [
        "You",
        "random",
        "heuristic",
        "search",
        "ksearch",
        "duct",
        "duct-h",
    ]
    dialog.set_players(HUMAN, "search")
    assert dialog.choice() == PlayChoice((HUMAN, "search"), 0)
    assert "search[:N]" in dialog.notes[Side.NORTH].text()
    assert "not rated yet" in dialog.notes[Side.NORTH].text()
    assert dialog.notes[Side.SOUTH].text() == "A person at this screen."


def test_an_unplayable_board_is_refused_in_one_line(make_window: Any, prompter: Any) -> None:
    w = make_window(map_path("tank-chess/blank-16"))
    assert open_play(w, PlayChoice((HUMAN, "random"))) is None
    ((kind, text),) = [a for a in prompter.asked if a[0] == "error"]
    assert "no units" in text and "\n" not in text


def test_play_is_in_the_game_menu_and_the_toolbar(make_window: Any) -> None:
    w = make_window(map_path("final-act/mirror"))
    act = w.actions_by_id["game.play"]
    assert act.text() == "&Play…" and act.shortcut().toString() == "Ctrl+Shift+P"
    menus = {a.text(): a.menu() for a in w.menuBar().actions()}
    assert (
        act in menus["&Game"].actions()
        and w.actions_by_id["game.resume"] in menus["&Game"].actions()
    )
    assert act in w.findChild(QToolBar, "toolbar-main").actions()


def test_smoke_is_clicked_after_the_moves(make_window: Any, qtbot: Any, tmp_path: Path) -> None:
    from tankmap.rules.fileformat import read_scenario, write_scenario

    path = tmp_path / "smoky.json"
    write_scenario(read_scenario(map_path("final-act/mirror")).with_options(smoke=True), path)
    w = make_window(path)
    play = open_play(w, PlayChoice((HUMAN, "random"), 3))
    assert play is not None
    qtbot.addWidget(play)
    s = play.session
    assert wait_for_person(qtbot, play) and s.phase() == "orders"
    play.line.setText("C:f3N")
    play._typed()
    qtbot.waitUntil(lambda: s.phase() == "moved" and play.acting() is Side.SOUTH, timeout=60000)
    b = s.scenario.board
    assert play.last.step is not None and play.last.step.moves  # the moves are drawn
    assert play.input.declarations_row.isVisible()
    click_cell(play, b.parse_cell("f4"))
    assert play.input.declarations.text() == "smoke:f4"
    press(play.input.commit)
    qtbot.waitUntil(lambda: len(s.steps) == 1, timeout=60000)
    assert s.record_json()["rounds"][0]["actions"]["smoke"]["south"] == "f4"


def test_a_saved_game_is_resumed(make_window: Any, qtbot: Any, tmp_path: Path) -> None:
    from tankmap.editor.play import resume_play

    play = start(make_window, qtbot, "tank-chess/basic-16", (HUMAN, "random"), seed=6)
    s = play.session
    me = TankChessAgent(s.scenario, "heuristic", 0, seed=1)
    for _ in range(2):
        assert wait_for_person(qtbot, play)
        click_tank_chess_turn(play, me.choose(s.state))
    assert wait_for_person(qtbot, play)
    path = tmp_path / "game.json"
    s.save(str(path))
    w = make_window(map_path("final-act/mirror"))
    again = resume_play(w, path, PlayChoice((HUMAN, HUMAN)))
    assert again is not None
    qtbot.addWidget(again)
    assert again.session.record_json() == s.record_json()
    assert again.steps.count() == 4 and again.acting() is Side.SOUTH
    assert "White: you · Black: you" in again.heading.text()


def test_a_tank_chess_click_that_chooses_nothing_says_why(make_window: Any, qtbot: Any) -> None:
    # basic-16: White's light tank on c3 faces N; c4 and c5 are empty, c6 is an obstacle
    play = start(make_window, qtbot, "tank-chess/basic-16", (HUMAN, "random"), seed=1)
    assert wait_for_person(qtbot, play)
    inp: Any = play.input
    c = play.session.scenario.board.parse_cell
    click_cell(play, c("c3"))
    assert inp.piece >= 0 and c("c5") in {cell for cell, _f in inp._ends()}
    click_cell(play, c("c8"))
    assert inp.piece < 0
    assert inp.help.text().startswith("the light tank on c3 cannot end its move on c8: a move")
    click_cell(play, c("c3"))
    click_cell(play, c("c6"))
    assert inp.help.text() == "c6 holds an obstacle or a wreck: no piece can end its move there."
    click_cell(play, c("c3"))
    click_cell(play, c("d16"))  # an enemy piece before an end cell was chosen
    assert inp.help.text().startswith("d16: to shoot there, first click where the light tank")
    click_cell(play, c("c3"))  # a good click puts the instructions back
    assert inp.help.text().startswith("Click one of your pieces")


def test_final_act_units_ordered_onto_a_shared_cell_can_still_be_chosen(
    make_window: Any, qtbot: Any
) -> None:
    # extra-forces: South's AT on h3 may join tank 2 on g3 (an AT and a tank may share); an
    # AT that moves does not fire, so it stays chosen after its order.
    play = start(make_window, qtbot, "final-act/extra-forces", (HUMAN, "random"), seed=1)
    assert wait_for_person(qtbot, play)
    inp: Any = play.input
    st = play.session.state
    c = play.session.scenario.board.parse_cell
    at = next(u for u in st.live(0) if st.cell[u] == c("h3"))
    tank = next(u for u in st.live(0) if st.cell[u] == c("g3"))
    click_cell(play, c("h3"))
    assert inp.unit == at
    click_cell(play, c("g3"))
    assert inp.part.orders[at][0] == c("g3") and inp.unit == at and not inp.aiming
    assert inp.help.text() == "AT2 is ordered to g3; click g3 again to choose your units there."
    click_cell(play, c("g3"))  # again: the tank standing there
    assert inp.unit == tank and inp.part.orders[at][0] == c("g3")
    click_cell(play, c("g7"))  # not one of the tank's orders
    assert inp.unit < 0
    assert (
        inp.help.text()
        == "g7 is not one of tank 2's orders (the dotted cells): nothing is selected."
    )


def test_a_final_act_commit_that_leaves_units_idle_asks_again(make_window: Any, qtbot: Any) -> None:
    # mirror: South's 7 tanks; nothing clicked, Commit: every tank would stay and hold fire
    play = start(make_window, qtbot, "final-act/mirror", (HUMAN, "random"), seed=2)
    assert wait_for_person(qtbot, play)
    inp: Any = play.input
    s = play.session
    press(inp.commit)
    assert s.round_number == 1 and play.acting() is Side.SOUTH
    assert inp.help.text() == (
        "7 units without an order (staying) and 7 units that may fire without a shell. "
        "Press Commit again to commit as it is."
    )
    press(inp.commit)  # the same part again: given as it is
    qtbot.waitUntil(lambda: s.round_number == 2, timeout=60_000)


def test_a_tank_wars_commit_that_leaves_tokens_unused_asks_again(
    make_window: Any, qtbot: Any
) -> None:
    play = start(make_window, qtbot, "tank-wars/default", (HUMAN, "random"), seed=3)
    s = play.session
    assert wait_for_person(qtbot, play)
    inp: Any = play.input
    st = s.state
    have = st.gunfire_available(Side.SOUTH)
    vehicles = len(st.vehicles_of(Side.SOUTH))
    press(inp.commit)
    assert s.steps == []
    assert inp.help.text() == (
        f"{vehicles} vehicles without a command token (staying) and {have} gunfire tokens not "
        "placed. Press Commit again to commit as it is."
    )
    press(inp.commit)
    qtbot.waitUntil(lambda: len(s.steps) == 1, timeout=60_000)
