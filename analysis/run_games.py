"""The games of a simulation run (a ``runner.simulate`` table) worth watching, and where
they were decided: ``sample_games`` picks the shortest and the longest win of each side,
and of the draws (the editor's balance dialog replays them through ``analysis.replay``);
``decided_maps`` counts per cell the units lost and the winning units' last cells."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from tankmap.rules.board import Board
from tankmap.rules.geometry import Side

SIDES = (Side.SOUTH, Side.NORTH)


# --- sample games of a simulation ------------------------------------------------------------
@dataclass(frozen=True)
class SampleGame:
    """A game of a simulation run worth watching: ``outcome`` is ``south``, ``north`` or
    ``draw``, ``which`` is ``shortest``, ``longest`` or ``only``."""

    game: int
    outcome: str
    which: str
    length: int
    end: str

    def describe(self, side_names: Sequence[str] = ("South", "North"), word: str = "round") -> str:
        """``South wins, shortest: game 12 (9 rounds, goal)`` (``side_names``: the game's
        names of south and north, ``rules.sides``)."""
        who = {"south": f"{side_names[0]} wins", "north": f"{side_names[1]} wins"}.get(
            self.outcome, "draw"
        )
        return (
            f"{who}, {self.which}: game {self.game} "
            f"({self.length} {word}{'' if self.length == 1 else 's'}, {self.end})"
        )


def sample_games(table: pd.DataFrame) -> list[SampleGame]:
    """The shortest and the longest game of each outcome (south wins, north wins, draws)
    in a ``runner.simulate`` table; the lowest game number among equals. One entry
    (``only``) when they are the same game."""
    out: list[SampleGame] = []
    for outcome in ("south", "north", "draw"):
        games = table[table["winner"] == outcome].sort_values(["length", "game"], kind="stable")
        if games.empty:
            continue
        first = games.iloc[0]
        longest = games[games["length"] == games["length"].max()].iloc[0]
        picks = [("shortest", first), ("longest", longest)]
        if int(first["game"]) == int(longest["game"]):
            picks = [("only", first)]
        for which, row in picks:
            out.append(
                SampleGame(int(row["game"]), outcome, which, int(row["length"]), str(row["end"]))
            )
    return out


# --- where the games of a run were decided ---------------------------------------------------
def decided_maps(table: pd.DataFrame, board: Board) -> dict[str, np.ndarray]:
    """Per-cell counts (rows × columns, row 0 = row 1) of where the games of a
    ``runner.simulate`` table were decided: ``losses-south`` / ``losses-north`` (units of
    that side knocked out there, ``stats.death_map``) and ``won-south`` / ``won-north``
    (where the winning unit of each game won by that side ended: the goal cell it reached,
    the edge cell a command tank escaped from, or where it fired the deciding shot)."""
    from tankmap.analysis.simulation.stats import death_map

    maps = {f"losses-{s.value}": death_map(table, board, s.value) for s in SIDES}
    for side in SIDES:
        grid = np.zeros((board.rows, board.columns), dtype=np.int64)
        for winner, route in zip(table["winner"], table["route"], strict=True):
            if winner == side.value and isinstance(route, str) and route:
                c = board.parse_cell(route.split()[-1])
                grid[board.row_of(c), board.col_of(c)] += 1
        maps[f"won-{side.value}"] = grid
    return maps
