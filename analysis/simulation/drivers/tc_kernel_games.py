"""Whole Tank Chess games in numba: ``random`` and ``heuristic`` players (restrictions
allowed) in any pairing.

``RandomPolicy.choose`` draws ``rng.integers(n)`` over the ``n`` allowed legal turns in
``GameState.legal_turns`` order; the kernel lists the same turns in the same order
(``tc_kernel_moves``) and makes the same draws as the game's ``numpy.random.Generator``
(``tc_kernel_rng``: numpy's algorithms on a copy of its PCG64 state); the heuristic's
choice is ``tc_kernel_heuristic``'s. So a seed plays the very same game.
``kernel_turns`` returns one game's turns (the driver replays them on a ``GameState``);
``play_seeded`` plays a task's games, each with the generator ``runner.game_rng`` would
give it, and returns what their results are made of (``GameArrays``).
"""

from __future__ import annotations

import threading
from typing import Any, NamedTuple

import numpy as np

from tankmap.analysis.simulation.drivers import tc_kernel_base as kb
from tankmap.analysis.simulation.drivers import tc_kernel_rng as kr
from tankmap.analysis.simulation.drivers.tc_kernel_base import Board, Position, jit
from tankmap.analysis.simulation.drivers.tc_kernel_heuristic import (
    Facts,
    escape_memo,
    facts_of,
    heuristic_choice,
)
from tankmap.analysis.simulation.drivers.tc_kernel_moves import (
    legal_turns,
    outcome,
    push,
    turn_rows,
)
from tankmap.analysis.simulation.policies.tank_chess import Prepared
from tankmap.rules.tank_chess.state import GameState, Turn

CHUNK = 512
"""Plies per kernel call (a game without a turn limit takes several)."""


RANDOM, HEURISTIC = 0, 1
"""``kinds`` codes of ``play``."""


@jit
def choose(b: Board, h: Facts, pos: Position, rng: Any, kinds: Any, banned: Any, work: Any,
           states: Any, buf: Any, memo: Any) -> int:  # fmt: skip
    """The row of ``buf`` holding the turn the player ``kinds[side]`` (``RANDOM``/
    ``HEURISTIC``, allowed kinds ``banned[side]``: kind bits) of the side to move chooses
    (drawing from the state ``rng``), or -1 when a ``random`` player has no turn."""
    me = pos.meta[0]
    if kinds[me] == HEURISTIC:
        return heuristic_choice(b, h, pos, rng, banned[me], work, states, buf, memo)
    n = legal_turns(b, pos, banned[me], work, states, buf)
    if n == 0:
        return -1
    return kr.integer(rng, n)


@jit
def play(b: Board, h: Facts, pos: Position, rng: Any, kinds: Any, banned: Any, work: Any,
         states: Any, buf: Any, played: Any, memo: Any) -> int:  # fmt: skip
    """Play the turns of the players ``kinds`` (see ``choose``) from ``pos`` until the
    game ends or ``played`` is full; the turns go to ``played``, their count is returned
    (fewer than its rows only when the game ended or a side had no turn)."""
    k = 0
    while k < played.shape[0]:
        if outcome(b, pos) >= 0:
            break
        r = choose(b, h, pos, rng, kinds, banned, work, states, buf, memo)
        if r < 0:
            break
        for j in range(4):
            played[k, j] = buf[r, j]
        push(b, pos, buf[r, 0], buf[r, 1], buf[r, 2], buf[r, 3])
        k += 1
    return k


_FACTS: dict[int, tuple[Prepared, Facts]] = {}
_LOCAL = threading.local()  # work arrays per thread (games may run in threads)


def _arrays(
    b: Board,
) -> tuple[tuple[kb.I64, ...], kb.I64, kb.I64, kb.I64, tuple[kb.I64, ...]]:
    """This thread's work arrays for board ``b``, made once: its memo of end states serves
    every game on the board (and fresh large arrays per game would cost page faults)."""
    held = getattr(_LOCAL, "arrays", None)
    if held is None or held[0] is not b:
        size = int(b.flags[1])
        held = _LOCAL.arrays = (
            b,
            kb.scratch(b, memo=True),
            np.empty(8 * size, np.int64),
            np.empty((turn_rows(b), 4), np.int64),
            np.empty((CHUNK, 4), np.int64),
            escape_memo(b),
        )
    return held[1], held[2], held[3], held[4], held[5]


def kernel_turns(
    start: GameState,
    prep: Prepared,
    kinds: tuple[int, int],
    banned: tuple[frozenset[int], frozenset[int]],
    rng: np.random.Generator,
) -> list[Turn]:
    """The turns of the game the players ``kinds`` (``RANDOM``/``HEURISTIC``; ``banned``
    kinds per side; ``prep``: the heuristic's tables) play from ``start`` with ``rng``
    (which advances as theirs would). It stops early only where a side has no turn (the
    caller's Python loop then takes over, as the reference would)."""
    b = kb.board_of(start)
    found = _FACTS.get(id(prep))
    if found is None or found[0] is not prep:
        if len(_FACTS) > 8:
            _FACTS.clear()
        found = _FACTS[id(prep)] = (prep, facts_of(prep))
    h = found[1]
    pos = kb.position_of(start)
    work, states, buf, played, memo = _arrays(b)
    bits = np.array([sum(1 << k for k in side) for side in banned], dtype=np.int64)
    who = np.array(kinds, dtype=np.int64)
    state = kr.state_of(rng)
    out: list[Turn] = []
    while True:
        k = play(b, h, pos, state, who, bits, work, states, buf, played, memo)
        out.extend((int(r[0]), int(r[1]), int(r[2]), int(r[3])) for r in played[:k].tolist())
        if k < CHUNK:
            kr.restore(rng, state)
            return out
