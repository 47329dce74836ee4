"""How the Final Act action tokens are shared out between the sides (docs/rules.md §1.8;
the Final Act rule book, "Expansion Rules": "Commanders can either begin with an equal set
of tokens or set the tokens facing down and divide them randomly. Also, when playing with
all tokens commanders may decide on picking a few each (for example, 3 out of 5)").

The action tokens are the expansion's seven (``ACTION_TOKENS``); those whose option is on
are in play. Option ``token_share``:

- ``equal`` (default): each side holds one of each token in play.
- ``random``: both sides' sets (two of each token in play) are shuffled face down and each
  side draws half, so a side may hold two of one token (usable twice, in two rounds) and
  none of another. Seeded: the deal takes the game's ``numpy.random.Generator``.
- ``pick``: each side picks ``tokens_each`` tokens of its own set (one of each in play;
  all of them if it has no more); who picks what is the side's decision (a policy's
  ``pick_tokens``; without one, a seeded uniform pick).

A hand is ``{token: count}`` per side (``Hands``). ``Advanced.deal`` makes the hands of a
new game; game records keep them (``engine_record``), since a random deal or a pick cannot
be recomputed from the scenario. A game started without a deal holds equal sets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np

from tankmap.rules.errors import IllegalMoveError
from tankmap.rules.final_act.engine_actions import SIDE_NAMES

ACTION_TOKENS = (
    *("air_strike", "full_throttle", "quick_shot", "mine_clearing", "smoke", "quick_sand"),
    "red_cross",
)
"""The expansion's action tokens (the other §1.8 options are advanced rules, no tokens)."""

SHARES = ("equal", "random", "pick")

Hands = tuple[dict[str, int], dict[str, int]]
Picker = Callable[[int, list[str], int], list[str]]
"""``picker(side, tokens in play, how many) -> the tokens the side picks``."""


def equal_hands(in_play: Iterable[str]) -> Hands:
    """One of each token in play per side."""
    tokens = list(in_play)
    return ({t: 1 for t in tokens}, {t: 1 for t in tokens})


def deal(
    in_play: list[str],
    share: str,
    each: int,
    rng: np.random.Generator,
    picker: Picker | None = None,
) -> Hands:
    """The hands of a new game under ``share`` (module docstring). ``picker`` answers for
    ``pick`` (else a uniform seeded pick); ``ValueError`` for an unknown share or a pick
    that is not ``each`` distinct tokens in play."""
    if share == "equal":
        return equal_hands(in_play)
    if share == "random":
        pool = [t for t in in_play for _ in range(2)]
        order = rng.permutation(len(pool)).tolist()
        half = len(pool) // 2
        hands: Hands = ({}, {})
        for k, i in enumerate(order):
            hand = hands[0] if k < half else hands[1]
            hand[pool[i]] = hand.get(pool[i], 0) + 1
        return hands
    if share == "pick":
        k = min(each, len(in_play))
        out: Hands = ({}, {})
        for side in (0, 1):
            if picker is not None:
                chosen = picker(side, list(in_play), k)
            else:
                chosen = [in_play[int(i)] for i in rng.choice(len(in_play), k, replace=False)]
            if len(set(chosen)) != k or not set(chosen) <= set(in_play):
                raise ValueError(f"{SIDE_NAMES[side]} must pick {k} distinct tokens in play")
            out[side].update({t: 1 for t in chosen})
        return out
    raise ValueError(f"unknown token share {share!r} (known: {', '.join(SHARES)})")


def check_hands(hands: Hands, in_play: Iterable[str]) -> None:
    """``IllegalMoveError`` unless every hand holds tokens in play, at most two of each
    (both sides' sets)."""
    allowed = set(in_play)
    for side, hand in enumerate(hands):
        for token, n in hand.items():
            if token not in allowed or not 0 <= n <= 2:
                raise IllegalMoveError(
                    f"{SIDE_NAMES[side]} cannot hold {n} {token} token(s) in this game"
                )


def hands_to_json(hands: Hands) -> dict[str, dict[str, int]]:
    return {SIDE_NAMES[s]: dict(sorted(h.items())) for s, h in enumerate(hands)}


def hands_from_json(raw: Any, fail: Callable[[str, str, Any], Any]) -> Hands:
    """Parse ``hands_to_json`` output; ``fail(path_suffix, message, value)`` must raise."""
    if not isinstance(raw, Mapping) or set(raw) != set(SIDE_NAMES):
        fail("", "must map 'south' and 'north' to {token: count}", raw)
    out: Hands = ({}, {})
    for s, name in enumerate(SIDE_NAMES):
        hand = raw[name]
        if not isinstance(hand, Mapping):
            fail(f".{name}", "must map token names to counts", hand)
        for token, n in hand.items():
            if token not in ACTION_TOKENS:
                fail(
                    f".{name}.{token}", f"unknown token (known: {', '.join(ACTION_TOKENS)})", token
                )
            if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 2:
                fail(f".{name}.{token}", "must be a count 0..2", n)
            out[s][str(token)] = int(n)
    return out
