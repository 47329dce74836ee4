"""The Final Act kernel's rules on given orders, and a reference-engine position as the
kernel's arrays.

``given_rounds(prep, state, dest, facing, shells, repair)`` plays rounds whose every order,
shell and R/M repair declaration is given (``[round, unit]`` arrays: the end cell and
facing of each unit's order, its shell's target or -1, whether the tank is declared
repaired) from a reference-engine ``State``, with the kernel's rules (``rules.py``), and
returns the position after each round (``Rounds``). No agent decides anything: this is
how the compiled rules are checked round by round against ``rules.final_act.engine``
(tests/simulation/test_final_act_kernel_rules.py). Orders are trusted as the rules'
``apply_round`` trusts them (no legality check).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.final_act.kernel.base import _jit
from tankmap.analysis.simulation.final_act.kernel.packed import Tables, tables
from tankmap.analysis.simulation.final_act.kernel.round import _scratch
from tankmap.analysis.simulation.final_act.kernel.rules import _apply, _check_end, rule_tables
from tankmap.analysis.simulation.final_act.kernel.tables import tables_of
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.rules.final_act.engine import State

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


class Position(NamedTuple):
    """A position as the kernel's arrays (one entry per unit; ``wreck_cells`` and
    ``tie_base`` as the rules keep them)."""

    cell: IntArray
    facing: IntArray
    damage: IntArray
    alive: BoolArray
    wreck: BoolArray
    wreck_cells: BoolArray
    tie_base: BoolArray
    rm_left: IntArray


def position_of(T: Tables, state: State) -> Position:
    """The reference-engine ``state`` as the kernel's arrays (``T``: its scenario's
    tables); R/Ms' repairs left count only when the game has R/M repair on."""
    units = len(state.kind)
    wreck_cells = np.zeros(T.n, dtype=np.bool_)
    mask = state.wreck_mask
    while mask:
        low = mask & -mask
        wreck_cells[low.bit_length() - 1] = True
        mask ^= low
    tie = np.zeros(units, dtype=np.bool_)
    if state.tie_base:
        tie[list(state.tie_base)] = True
    rm_left = np.zeros(units, dtype=np.int64)
    for u, left in state.adv.rm_left.items():
        rm_left[u] = left if T.repair_on else 0
    return Position(
        np.array(state.cell, dtype=np.int64),
        np.array([int(f) for f in state.facing], dtype=np.int64),
        np.array(state.damage, dtype=np.int64),
        np.array(state.alive, dtype=np.bool_),
        np.array(state.wreck, dtype=np.bool_),
        wreck_cells,
        tie,
        rm_left,
    )


class Rounds(NamedTuple):
    """The position after each round ``r`` of ``given_rounds`` (``[r, unit]`` rows; ``kills``
    ``[r, side]`` so far), how the game stands then (``end``: ``END_CODES`` index, 0 while it
    goes on; ``winner`` -1 for none) and the knock-outs of all rounds in order (``deaths``
    rows: unit, cell, round, by unit)."""

    cell: IntArray
    facing: IntArray
    damage: IntArray
    alive: BoolArray
    wreck: BoolArray
    rm_left: IntArray
    kills: IntArray
    end: IntArray
    winner: IntArray
    deaths: IntArray


@_jit
def _given(
    T: Tables,
    done: int,
    pos: Any,
    kills0: Any,
    dest: Any,
    fac: Any,
    shells: Any,
    repair: Any,
    out: Any,
) -> int:
    """Play the ``dest.shape[0]`` rounds given from ``pos`` (``done`` rounds played, the
    kills so far ``kills0``) into
    ``out`` (``Rounds``' arrays, ``deaths`` as ``[unit, cell, round, by]`` columns); stop
    after a round that ends the game. Returns the knock-outs."""
    cell, facing, damage, alive, wreck, wreck_cells, tie_base, rm_left = pos
    o_cell, o_facing, o_damage, o_alive, o_wreck, o_rm_left, o_kills, o_end, o_winner, o_d = out
    g0 = np.int64(0)  # game row 0, not the literal 0: one compiled _apply for every caller
    units = cell.shape[0]
    S = _scratch(T, units)
    moving, bounce, rwreck, grid, links = S[5], S[6], S[20], S[21], S[22]
    kills = np.zeros((1, 2), dtype=np.int64)
    kills[0, :] = kills0
    d_count = np.zeros(1, dtype=np.int64)
    d_unit = np.zeros((1, units), dtype=np.int64)
    d_cell = np.zeros((1, units), dtype=np.int64)
    d_round = np.zeros((1, units), dtype=np.int64)
    d_by = np.zeros((1, units), dtype=np.int64)
    here_dest = np.empty(units, dtype=np.int64)
    here_fac = np.empty(units, dtype=np.int64)
    here_shells = np.empty(units, dtype=np.int64)
    here_repair = np.empty(units, dtype=np.bool_)
    found = 0
    for r in range(dest.shape[0]):
        here_dest[:] = dest[r]
        here_fac[:] = fac[r]
        here_shells[:] = shells[r]
        here_repair[:] = repair[r]
        d_count[0] = 0
        rnd = done + r + 1
        _apply(
            rule_tables(T), g0, rnd, cell, facing, damage, alive, wreck, wreck_cells, kills,
            here_dest, here_fac, here_shells, moving, bounce, d_count, d_unit, d_cell,
            d_round, d_by, rm_left, here_repair, rwreck, grid, links,
        )  # fmt: skip
        end, winner = _check_end(
            T.goal, T.had_tanks, T.kind, T.max_rounds, T.side, rnd, cell, alive, tie_base
        )
        o_cell[r, :] = cell
        o_facing[r, :] = facing
        o_damage[r, :] = damage
        o_alive[r, :] = alive
        o_wreck[r, :] = wreck
        o_rm_left[r, :] = rm_left
        o_kills[r, :] = kills[0]
        o_end[r] = end
        o_winner[r] = winner
        for j in range(d_count[0]):
            o_d[found, 0] = d_unit[0, j]
            o_d[found, 1] = d_cell[0, j]
            o_d[found, 2] = d_round[0, j]
            o_d[found, 3] = d_by[0, j]
            found += 1
        if end != 0:
            break
    return found


def given_rounds(
    prep: Prepared,
    state: State,
    dest: IntArray,
    facing: IntArray,
    shells: IntArray,
    repair: BoolArray,
) -> Rounds:
    """Play the rounds given as ``[round, unit]`` arrays from the reference-engine
    ``state`` on the kernel's rules (module docstring); the rounds after one that ends
    the game are not played (their rows stay zero)."""
    T = tables(tables_of(prep))
    pos = position_of(T, state)
    rounds, units = dest.shape
    i, b = np.int64, np.bool_
    out = Rounds(
        cell=np.zeros((rounds, units), dtype=i),
        facing=np.zeros((rounds, units), dtype=i),
        damage=np.zeros((rounds, units), dtype=i),
        alive=np.zeros((rounds, units), dtype=b),
        wreck=np.zeros((rounds, units), dtype=b),
        rm_left=np.zeros((rounds, units), dtype=i),
        kills=np.zeros((rounds, 2), dtype=i),
        end=np.zeros(rounds, dtype=i),
        winner=np.full(rounds, -1, dtype=i),
        deaths=np.zeros((rounds * units, 4), dtype=i),
    )
    c = np.ascontiguousarray
    kills = np.array(state.kills, dtype=i)
    orders = (c(dest, i), c(facing, i), c(shells, i), c(repair, b))
    found = _given(T, state.round, tuple(pos), kills, *orders, tuple(out))
    return out._replace(deaths=out.deaths[:found])
