"""Play mode: Game ▸ Play… plays the board being edited — a person against an agent, or
two people at one screen — and Game ▸ Resume game… goes on with a saved game record.

``setup`` asks who plays each side, ``window`` shows the game, and the per-game inputs
(``tank_chess_input``, ``final_act_input``, ``tank_wars_input``) turn clicks into the
notation's lines; the game itself is an ``analysis.play`` session.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QDialog

from tankmap.editor.play.setup import PlayChoice, PlaySetupDialog
from tankmap.rules.errors import TankmapError

if TYPE_CHECKING:
    from tankmap.analysis.play import PlaySession
    from tankmap.editor.mainwindow import MainWindow
    from tankmap.editor.play.window import PlayWindow

__all__ = ["PlayChoice", "open_play", "resume_play", "show_play"]


def open_play(window: MainWindow, choice: PlayChoice | None = None) -> PlayWindow | None:
    """Game ▸ Play…: check that the board can be played, ask who plays (unless
    ``choice`` is given) and open the play window; ``None`` if refused or cancelled."""
    from tankmap.analysis.play import check_playable, open_session

    scenario = window.doc.scenario
    try:
        check_playable(scenario)
    except TankmapError as exc:
        window.prompter.error(f"Cannot play this board: {' '.join(str(exc).split())}")
        return None
    if choice is None:
        choice = _ask(window, scenario)
        if choice is None:
            return None
    try:
        session = open_session(scenario, choice.players, choice.seed)
    except TankmapError as exc:
        window.prompter.error(" ".join(str(exc).split()))
        return None
    return show_play(window, session, window.doc.display_name)


def resume_play(
    window: MainWindow, path: str | Path | None = None, choice: PlayChoice | None = None
) -> PlayWindow | None:
    """Game ▸ Resume game…: a game record (``tankmap play --record``, the play window's
    Save, ``simulate --record``) played to where it stops, then played on."""
    from tankmap.analysis.play.records import session_of_record
    from tankmap.analysis.replay import read_record, record_game_kind
    from tankmap.editor.dialogs import default_dir

    if path is None:
        path = window.prompter.open_file(
            default_dir(window.doc.path), "Resume a game", "Game records (*.json);;All files (*)"
        )
        if path is None:
            return None
    try:
        data = read_record(path)
        record_game_kind(data, str(path))
        session, _ = session_of_record(data, source=str(path))
        if choice is None:
            choice = _ask(window, session.scenario)
            if choice is None:
                return None
        session.set_players(choice.players)
    except TankmapError as exc:
        window.prompter.error(" ".join(str(exc).split()))
        return None
    return show_play(window, session, Path(path).name)


def _ask(window: MainWindow, scenario: object) -> PlayChoice | None:
    dialog = PlaySetupDialog(scenario, window)  # type: ignore[arg-type]
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    return dialog.choice()


def show_play(window: MainWindow, session: PlaySession, title: str) -> PlayWindow:
    """Open a play window on ``session`` over ``window`` (saving asks its prompter)."""
    from tankmap.editor.dialogs import default_dir
    from tankmap.editor.play.window import PlayWindow

    def save_path() -> str | None:
        suggested = str(Path(default_dir(window.doc.path)) / "game.json")
        return window.prompter.save_path(suggested, "Save game record", "Game records (*.json)")

    play = PlayWindow(session, window, title, save_path, window.prompter.error)
    play.show()
    play.raise_()
    play.activateWindow()
    window.ctx.say(f"Playing {title}: {play.status.text()}")
    play.closed.connect(lambda last: window.ctx.say(f"Closed the game of {title} ({last})"))
    return play
