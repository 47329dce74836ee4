"""perft: count Tank Chess turn sequences (the move generator's proof, cli-json.md ``perft``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tankmap.rules.tank_chess.state import GameState, Turn


def perft(state: GameState, depth: int) -> int:
    """Count the distinct turn sequences of length ``depth`` (docs/cli-json.md ``perft``): every
    legal shot target counts, a game-ending turn is a leaf, a side with no turn at an
    inner node gives 0, ``max_turns`` is ignored. ``depth`` 0 gives 1; a position whose
    game is already decided gives 0 at every depth."""
    if state.winner >= 0 or state.reason:
        return 0
    if depth <= 0:
        return 1
    if depth == 1:
        return state.count_turns()
    total = 0
    for turn in state.legal_turns():
        state.push(turn)
        total += 1 if state.winner >= 0 else perft(state, depth - 1)
        state.pop()
    return total


def perft_divide(state: GameState, depth: int) -> list[tuple[Turn, int]]:
    """``perft`` split by first turn: ``[(turn, count), ...]`` in generation order."""
    if depth <= 0:
        return []
    out: list[tuple[Turn, int]] = []
    for turn in state.legal_turns():
        state.push(turn)
        out.append((turn, 1 if state.winner >= 0 else perft(state, depth - 1)))
        state.pop()
    return out
