"""Whole Tank Chess games in numba: ``random`` and ``heuristic`` players (restrictions
allowed) in any pairing.

``RandomPolicy.choose`` draws ``rng.integers(n)`` over the ``n`` allowed legal turns in
``GameState.legal_turns`` order; the kernel lists the same turns in the same order
(``moves``) and makes the same draws as the game's ``numpy.random.Generator``
(``rng``: numpy's algorithms on a copy of its PCG64 state); the heuristic's
choice is ``heuristic``'s. So a seed plays the very same game.
``kernel_turns`` returns one game's turns (the driver replays them on a ``GameState``);
``play_seeded`` plays a task's games, each with the generator ``runner.game_rng`` would
give it, and returns what their results are made of (``GameArrays``).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from tankmap.analysis.simulation.tank_chess.kernel import base as kb
from tankmap.analysis.simulation.tank_chess.kernel import rng as kr
from tankmap.analysis.simulation.tank_chess.kernel.base import Board, Position, inline, jit
from tankmap.analysis.simulation.tank_chess.kernel.heuristic import (
    Facts,
    escape_memo,
    facts_of,
    heuristic_choice,
)
from tankmap.analysis.simulation.tank_chess.kernel.moves import (
    legal_turns,
    outcome,
    push,
    turn_rows,
)
from tankmap.analysis.simulation.tank_chess.prepared import Prepared
from tankmap.rules.tank_chess.state import GameState, Turn

CHUNK = 512
"""Plies per kernel call (a game without a turn limit takes several)."""


RANDOM, HEURISTIC = 0, 1
"""``kinds`` codes of ``play``."""


@inline  # small: called, its compiled code would hold the heuristic's once more
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


def _facts(prep: Prepared) -> Facts:
    """The heuristic's tables of ``prep`` (made once per ``Prepared``)."""
    found = _FACTS.get(id(prep))
    if found is None or found[0] is not prep:
        if len(_FACTS) > 8:
            _FACTS.clear()
        found = _FACTS[id(prep)] = (prep, facts_of(prep))
    return found[1]


def _room(start: GameState) -> tuple[Position, Position, kr.U64]:
    """``start``'s position, room for a game's position and for a generator state (this
    thread's, made once per start state)."""
    held = getattr(_LOCAL, "room", None)
    if held is None or held[0] is not start:
        held = _LOCAL.room = (
            start,
            kb.position_of(start),
            kb.position_of(start),
            np.zeros(6, np.uint64),
        )
    return held[1], held[2], held[3]


_PLAYERS: dict[
    tuple[tuple[int, int], tuple[frozenset[int], frozenset[int]]], tuple[kb.I64, kb.I64]
] = {}


def _players(
    kinds: tuple[int, int], banned: tuple[frozenset[int], frozenset[int]]
) -> tuple[kb.I64, kb.I64]:
    """``kinds`` and ``banned`` (as kind bits) as the kernel takes them (read only; made
    once per pairing)."""
    found = _PLAYERS.get((kinds, banned))
    if found is None:
        bits = np.array([sum(1 << k for k in side) for side in banned], dtype=np.int64)
        found = _PLAYERS[kinds, banned] = (np.array(kinds, dtype=np.int64), bits)
    return found


def kernel_games(
    start: GameState,
    prep: Prepared,
    kinds: tuple[int, int],
    banned: tuple[frozenset[int], frozenset[int]],
    seed: int,
    games: Sequence[int],
) -> GameArrays:
    """``play_seeded``: the games numbered ``games`` of a run seeded ``seed`` between the
    players ``kinds`` (``banned`` kinds per side; ``prep``: the heuristic's tables) from
    ``start``."""
    numbers = np.asarray(games, dtype=np.int64)
    if numbers.min(initial=0) < 0:
        raise ValueError("game numbers are not negative")
    b = kb.board_of(start)
    work, states, buf, _, memo = _arrays(b)
    begin, pos, rng = _room(start)
    who, bits = _players(kinds, banned)
    return play_seeded(
        b, _facts(prep), begin, pos, kr.seed_words(seed), numbers, who, bits, work, states,
        buf, memo, rng,
    )  # fmt: skip


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
    h = _facts(prep)
    pos = kb.position_of(start)
    work, states, buf, played, memo = _arrays(b)
    who, bits = _players(kinds, banned)
    state = kr.state_of(rng)
    out: list[Turn] = []
    while True:
        k = play(b, h, pos, state, who, bits, work, states, buf, played, memo)
        out.extend((int(r[0]), int(r[1]), int(r[2]), int(r[3])) for r in played[:k].tolist())
        if k < CHUNK:
            kr.restore(rng, state)
            return out


class GameArrays(NamedTuple):
    """Games played by ``play_seeded``, game ``i`` of the call:
    ``res[i]`` = winner (-1: none), plies, end (a ``REASONS`` code; -1: the game stopped
    where a ``random`` player had no turn, the caller plays it itself), the winning unit
    (the last mover of a won game, -1 if none), kills of south and of north;
    its deaths ``deaths[d_start[i]:d_start[i + 1]]`` (piece, cell, ply, killer piece) in
    order; its winning unit's route ``route[r_start[i]:r_start[i + 1]]`` (its cells, the
    start first, an escape not a cell)."""

    res: kb.I64
    d_start: kb.I64
    deaths: kb.I64
    r_start: kb.I64
    route: kb.I64


@jit
def _grown(a: Any, need: int) -> Any:
    """``a`` if it has ``need`` rows, else a copy with room for twice as many."""
    if need <= a.shape[0]:
        return a
    out = np.empty((2 * need, *a.shape[1:]), a.dtype)
    out[: a.shape[0]] = a
    return out


@jit
def _reset(pos: Position, start: Position) -> None:
    """``pos`` = a copy of ``start``."""
    pos.grid[:] = start.grid
    pos.cell[:] = start.cell
    pos.facing[:] = start.facing
    pos.alive[:] = start.alive
    pos.meta[:] = start.meta


@jit
def play_seeded(b: Board, h: Facts, start: Position, pos: Position, words: Any, games: Any,
                kinds: Any, banned: Any, work: Any, states: Any, buf: Any, memo: Any,
                rng: Any) -> GameArrays:  # fmt: skip
    """Play game ``games[i]`` of a run seeded ``seed`` (``words = rng.seed_words
    (seed)``) from ``start`` for each ``i``, drawing as ``runner.game_rng(seed, games[i])``
    (``pos`` and ``rng``: room for a position and a generator state), between the players
    ``kinds`` (see ``choose``)."""
    n_games = games.shape[0]
    res = np.empty((n_games, 6), np.int64)
    d_start = np.zeros(n_games + 1, np.int64)
    r_start = np.zeros(n_games + 1, np.int64)
    deaths = np.empty((16, 4), np.int64)
    route = np.empty(16, np.int64)
    moved = np.empty((64, 2), np.int64)  # the game's turns: piece, cell
    n_d = 0
    n_r = 0
    for i in range(n_games):
        kr.seeded(words, games[i], rng)
        _reset(pos, start)
        kills = np.zeros(2, np.int64)
        k = 0
        end = outcome(b, pos)
        while end < 0:
            r = choose(b, h, pos, rng, kinds, banned, work, states, buf, memo)
            if r < 0:
                break
            me = pos.meta[0]
            p, target = buf[r, 0], buf[r, 3]
            moved = _grown(moved, k + 1)
            moved[k, 0] = p
            moved[k, 1] = buf[r, 1]
            k += 1
            if push(b, pos, p, buf[r, 1], buf[r, 2], target):
                kills[me] += 1
                deaths = _grown(deaths, n_d + 1)
                deaths[n_d, 0] = target
                deaths[n_d, 1] = pos.cell[target]
                deaths[n_d, 2] = pos.meta[1]
                deaths[n_d, 3] = p
                n_d += 1
            end = outcome(b, pos)
        winner = pos.meta[2]
        unit = moved[k - 1, 0] if winner >= 0 and k > 0 else -1
        if unit >= 0:
            route = _grown(route, n_r + k + 1)
            route[n_r] = start.cell[unit]
            n_r += 1
            for j in range(k):
                c = moved[j, 1]
                if moved[j, 0] == unit and c >= 0 and c != route[n_r - 1]:
                    route[n_r] = c
                    n_r += 1
        res[i, 0] = winner
        res[i, 1] = pos.meta[1]
        res[i, 2] = end
        res[i, 3] = unit
        res[i, 4] = kills[0]
        res[i, 5] = kills[1]
        d_start[i + 1] = n_d
        r_start[i + 1] = n_r
    return GameArrays(res, d_start, deaths[:n_d], r_start, route[:n_r])
