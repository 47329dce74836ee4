"""Turns to escape of one piece from many states at once, every other piece blocking.

``escape_turns_from(state, p, states, limit)`` answers, for each state id ``cell * 8 +
facing`` of ``states``, the fewest turns piece ``p`` would need to escape (docs/rules.md §2.3
turns, §2.5 the step off the enemy edge; the escaping turn counts) if it stood there, the
other pieces and wrecks standing still: what ``escape_route`` answers from one start, for
all of them with one search walked back from the escape (the levels of
``terrain_escape_turns`` over the cells free of pieces too). The cell ``p`` stands on
counts as free, so for the end states of ``p``'s own moves this is the exact turns to
escape after the move. Searches are remembered per (free cells, board width, side,
speed, corners). Not used by the heuristic: racing in these turns did not beat racing
in single steps (/work/notes/progress-tc-race.md).
"""

from __future__ import annotations

from tankmap.rules.tank_chess.escape_route import _cell_bits, _free, _Walk
from tankmap.rules.tank_chess.reach import _layout, _step_masks
from tankmap.rules.tank_chess.state import GameState

_Key = tuple[int, int, int, int, bool, bool]
_MEMO: dict[_Key, tuple[int, list[list[int]]]] = {}
_MEMO_LIMIT = 1 << 10


def escape_turns_from(state: GameState, p: int, states: list[int], limit: int) -> list[int | None]:
    """Per state of ``states``: fewest turns for live piece ``p`` to escape from there
    (see the module doc), ``None`` if it needs more than ``limit`` turns or cannot."""
    c0 = state.cell[p]
    if c0 < 0 or not state.alive[p] or limit < 1:
        return [None] * len(states)
    levels = _levels(state, p, c0, limit)
    columns = state.columns
    lay = _layout(columns, state.size // columns, 1)
    bits = _cell_bits(columns, state.size // columns)
    want = [0] * 8
    for s in states:
        want[s & 7] |= bits[s >> 3]
    found: dict[int, int] = {}  # (facing, bit position) -> turns
    for k, level in enumerate(levels[:limit], 1):
        for f in range(8):
            hit = level[f] & want[f]
            if not hit:
                continue
            want[f] ^= hit
            while hit:
                low = hit & -hit
                found[(low.bit_length() - 1) * 8 + f] = k
                hit ^= low
    w = lay.width
    return [
        found.get((((s >> 3) // columns) * w + (s >> 3) % columns) * 8 + (s & 7)) for s in states
    ]


def _levels(state: GameState, p: int, c0: int, limit: int) -> list[list[int]]:
    """``levels[k - 1][f]``: the block-0 cells from which ``p`` facing ``f`` escapes in
    exactly ``k`` turns, for ``k`` up to at least ``limit`` (fewer if the search ran dry)."""
    columns, rows = state.columns, state.size // state.columns
    free = _free(state, c0)
    side, speed, strict = state.side[p], state.speed[p], state.strict_corners
    diagonal = state.tables.diagonal_escape
    key = (free, columns, side, speed, strict, diagonal)
    got = _MEMO.get(key)
    if got is not None and (got[0] >= limit or len(got[1]) < got[0]):
        return got[1]  # deep enough, or the search ran dry before its limit
    lay = _layout(columns, rows, 1, diagonal)
    fwd_ok, back_ok = _step_masks(lay, free, strict)
    walk = _Walk(lay, fwd_ok, back_ok, speed)
    level = [x & free for x in walk.back(list(lay.escape[side]), speed - 1)]
    seen = list(level)
    levels: list[list[int]] = []
    while any(level):
        levels.append(level)
        if len(levels) >= limit:
            break
        level = [a & free & ~s for a, s in zip(walk.back_turn(level), seen, strict=True)]
        seen = [a | b for a, b in zip(seen, level, strict=True)]
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[key] = (limit, levels)
    return levels
