"""Tank Chess as the OpenSpiel game ``tankmap_tank_chess`` (sequential, perfect information).

A turn — piece, end state (cell and facing, or the escape), shot target or none — is
chosen in three OpenSpiel actions by the same player, so the action space stays small:

- ``p`` (``0 <= p < P``): pick the piece with index ``p`` (the scenario's unit order);
- ``P + cell * 8 + facing``, or ``P + 8 * N`` for the escape: where it ends;
- ``P + 8 * N + 1 + target``, or ``P + 8 * N + 1 + P`` for no shot: what it shoots.

Only choices that complete a legal turn of the rules engine are legal, so every action
sequence is a legal game. Returns: +1 / -1 for the winner / loser, 0 for a draw
(``max_turns``, no move).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from tankmap.analysis.openspiel.common import (
    SCENARIO_PARAMS,
    Cloned,
    Shared,
    game_type,
    load_scenario_param,
)
from tankmap.rules.fileformat import dumps_scenario, loads_scenario
from tankmap.rules.tank_chess.data import KINDS
from tankmap.rules.tank_chess.state import ESCAPE, NO_TARGET, GameState, Turn, initial_state

NAME = "tankmap_tank_chess"
DEFAULT_MAP = "tank-chess/basic-16"
_PARAMS = SCENARIO_PARAMS

GAME_TYPE = game_type(
    NAME, "tankmap Tank Chess", "SEQUENTIAL", "DETERMINISTIC", "PERFECT_INFORMATION"
)


class TankChessGame(pyspiel.Game):  # type: ignore[misc]
    """The game for one scenario (parameter ``scenario``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_PARAMS, **(params or {})}
        scenario = load_scenario_param(str(params["scenario"]), DEFAULT_MAP)
        start = initial_state(scenario)
        pieces, cells = len(start.kind), start.size
        max_turns = start.max_turns if start.max_turns > 0 else 1000
        super().__init__(
            GAME_TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=pieces + 8 * cells + 1 + pieces + 1,
                max_chance_outcomes=0,
                num_players=2,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=3 * max_turns,
            ),
            params,
        )
        self.start = start
        self.pieces, self.cells = pieces, cells

    def __reduce__(self) -> tuple[Any, ...]:
        return (TankChessGame, (self.get_parameters(),))

    def new_initial_state(self) -> TankChessState:
        return TankChessState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TankChessObserver:
        return TankChessObserver(self)


class TankChessState(pyspiel.State):  # type: ignore[misc]
    """A position plus the part of the current turn chosen so far."""

    def __init__(self, game: TankChessGame) -> None:
        super().__init__(game)
        self._shared = Shared(game)
        self._gs = Cloned(game.start.copy(), _reduce, _rebuild)
        self._piece = -1  # chosen piece of the turn being built, -1 before
        self._end: tuple[int, int] | None = None  # chosen (cell or ESCAPE, facing)
        self._legal = Shared(None)  # the position's legal turns, once computed

    # --- helpers -------------------------------------------------------------------------
    @property
    def gs(self) -> GameState:
        gs: GameState = self._gs.value
        return gs

    def _turns(self) -> list[Turn]:
        if self._legal.value is None:
            gs = self.gs
            self._legal = Shared(gs.legal_turns() if gs.outcome() is None else [])
        turns: list[Turn] = self._legal.value
        if self._piece >= 0:
            turns = [t for t in turns if t[0] == self._piece]
        if self._end is not None:
            turns = [t for t in turns if (t[1], t[2]) == self._end]
        return turns

    def _end_action(self, cell: int, facing: int) -> int:
        g: TankChessGame = self._shared.value
        return g.pieces + (8 * g.cells if cell == ESCAPE else cell * 8 + facing)

    def _shot_action(self, target: int) -> int:
        g: TankChessGame = self._shared.value
        return g.pieces + 8 * g.cells + 1 + (g.pieces if target == NO_TARGET else target)

    # --- OpenSpiel API -------------------------------------------------------------------
    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.gs.to_move)

    def _legal_actions(self, player: int) -> list[int]:
        turns = self._turns()
        if self._piece < 0:
            return sorted({t[0] for t in turns})
        if self._end is None:
            return sorted({self._end_action(t[1], t[2]) for t in turns})
        return sorted({self._shot_action(t[3]) for t in turns})

    def _apply_action(self, action: int) -> None:
        g: TankChessGame = self._shared.value
        if self._piece < 0:
            self._piece = action
            return
        if self._end is None:
            a = action - g.pieces
            self._end = (ESCAPE, -1) if a == 8 * g.cells else (a // 8, a % 8)
            return
        target = action - g.pieces - 8 * g.cells - 1
        turn = (
            self._piece,
            self._end[0],
            self._end[1],
            NO_TARGET if target == g.pieces else target,
        )
        if turn not in self._turns():
            raise pyspiel.SpielError(f"turn {turn} is not legal here")
        self.gs.push(turn)
        self._piece, self._end = -1, None
        self._legal = Shared(None)

    def _action_to_string(self, player: int, action: int) -> str:
        g: TankChessGame = self._shared.value
        if action < g.pieces:
            return f"piece {self.gs.piece_label(action)}"
        a = action - g.pieces
        if a < 8 * g.cells:
            facing = "N NE E SE S SW W NW".split()[a % 8]
            return f"to {self.gs.scenario.board.cell_name(a // 8)} facing {facing}"
        if a == 8 * g.cells:
            return "escape"
        target = a - 8 * g.cells - 1
        return "no shot" if target == g.pieces else f"shoot {self.gs.piece_label(target)}"

    def is_terminal(self) -> bool:
        return self.gs.outcome() is not None

    def returns(self) -> list[float]:
        out = self.gs.outcome()
        if out is None or out.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if out.winner.index == 0 else [-1.0, 1.0]

    def __str__(self) -> str:
        return render(self.gs, self._piece, self._end)


def _reduce(gs: GameState) -> tuple[str, list[Turn]]:
    return (dumps_scenario(gs.scenario), gs.turns())


def _rebuild(text: str, turns: list[Turn]) -> GameState:
    gs = initial_state(loads_scenario(text))
    for p, c, f, target in turns:
        gs.push((p, c, f, target))
    return gs


def render(gs: GameState, piece: int, end: tuple[int, int] | None) -> str:
    """The board as text, north at the top: pieces by kind letter (upper case south),
    ``#`` obstacles, ``x`` wrecks; then whose turn it is and the turn being built."""
    board = gs.scenario.board
    rows = []
    for r in range(board.rows - 1, -1, -1):
        line = []
        for c in range(board.columns):
            cell = board.cell(c, r)
            who = gs.grid[cell]
            if who == -2:
                line.append("#")
            elif who >= 0:
                ch = "x" if not gs.alive[who] else KINDS[gs.kind[who]][0]
                line.append(ch.upper() if gs.side[who] == 0 and gs.alive[who] else ch)
            else:
                line.append(".")
        rows.append("".join(line))
    mover = ("south", "north")[gs.to_move]
    tail = f"{mover} to move, ply {gs.ply}"
    if piece >= 0:
        tail += f"; piece {gs.piece_label(piece)}"
    if end is not None:
        tail += " escapes" if end[0] == ESCAPE else f" to {board.cell_name(end[0])}"
    return "\n".join(rows) + "\n" + tail


class TankChessObserver:
    """Planes (kind x side, facing, wreck, obstacle, side to move, chosen piece) x rows x
    columns; the string is the rendered board. The game is fully observed."""

    PLANES = 2 * len(KINDS) + 8 + 4

    def __init__(self, game: TankChessGame) -> None:
        b = game.start.scenario.board
        self.tensor = np.zeros((self.PLANES, b.rows, b.columns), np.float32)
        self.dict = {"observation": self.tensor}
        self._board = b

    def set_from(self, state: TankChessState, player: int) -> None:
        gs, b, t = state.gs, self._board, self.tensor
        t.fill(0)
        for p in range(len(gs.kind)):
            cell = gs.cell[p]
            if cell < 0:
                continue
            r, c = b.row_of(cell), b.col_of(cell)
            if gs.alive[p]:
                t[gs.side[p] * len(KINDS) + gs.kind[p], r, c] = 1
                t[2 * len(KINDS) + gs.facing[p], r, c] = 1
            else:
                t[2 * len(KINDS) + 8, r, c] = 1
            if p == state._piece:
                t[2 * len(KINDS) + 11, r, c] = 1
        for cell, who in enumerate(gs.grid):
            if who == -2:
                t[2 * len(KINDS) + 9, b.row_of(cell), b.col_of(cell)] = 1
        t[2 * len(KINDS) + 10].fill(gs.to_move)

    def string_from(self, state: TankChessState, player: int) -> str:
        return str(state)


pyspiel.register_game(GAME_TYPE, TankChessGame)
