"""Tank Wars ``regret[:N]`` and ``regret-heuristic[:N]``: a simultaneous-move search over one
round with the dice as chance nodes, which does not assume the enemy plays the heuristic.

Each round, after the artillery has fired, both sides plan at once. The search treats the
round as a game between the two plans, *decoupled*: each live vehicle's command is a choice
of its own (its ``command_options``), and each side's gunfire tokens share one choice of
fields (every field an enemy vehicle can end on this round; the tokens take distinct fields
drawn from it). Every choice learns by regret matching (RM+, linear averaging), both sides
at once, for ``N`` iterations:

1. every choice draws from its current strategy (a token limit of ``tokens_per_kind``
   repaired vehicle by vehicle); one chance outcome is drawn (a 64-bit seed: the supply
   dice of the round, then the dice of the playout);
2. the round is resolved with these plans and dice, then ``depth`` more rounds are played
   by both sides' playout players, and the position is scored by ``value`` (its own
   evaluation: ±``WIN``, AP, being alive, exposure, gunfire tokens, artillery shots, support
   tokens);
3. for every choice, every alternative is scored the same way with everything else
   unchanged — the same dice (common random numbers), the same other choices — and its
   regret grows by how much better it did than the strategy's expectation.

The plan played is drawn from the average strategies. All randomness comes from one seed
drawn from the game's Generator per decision (``kernel/rng.py``).

- ``regret``: the playout players are light (uniform commands, each gunfire token on a
  field a random enemy vehicle can reach): **independent** of the heuristic, which is never
  asked to choose or rank anything (``depth`` ``LIGHT_DEPTH``).
- ``regret-heuristic``: the playouts are played by the heuristic (``HEURISTIC_DEPTH``).

Why this search, compiled (numba, ``kernel/``): a Tank Wars round is one simultaneous move
with hidden plans and dice, so a tree of alternating moves does not fit; regret matching
over the decoupled choices converges towards a mixed plan neither side can exploit, and
common random numbers keep each iteration's comparisons fair. Every iteration scores some
150 alternatives, so it must run on the kernel: measured on this machine (self-play CPU
time per game on ``tank-wars/default``, one process, 20 games, loaded machine) ``heuristic``
0.004 s, ``regret:8`` 0.049 s, ``regret:32`` 0.073 s, ``regret:128`` 0.27 s,
``search:9`` 2.4 s (its Python rounds); ``regret:1024`` costs about what ``search:9`` does.
A look-ahead round of light playouts after the searched round (``depth`` 1) scored 0.45 of
80 games against ``depth`` 0 at 64 iterations, at more cost: ``regret`` plays ``depth`` 0.
Against ``search:9`` (side-swapped, default map): ``regret:256`` 0.45 and ``regret:1024``
0.50 of 40 games; ``benchmarks/bench_agents.py``'s equal-CPU row, ``regret:512`` (1.16 s
CPU per self-play game; ``search:9`` 1.86 s), 0.545 [0.476, 0.613] of 200 games — about as
strong per CPU second, not measurably stronger. Its strength grows slowly with the budget
(``regret:128`` scored 0.55 of 100 games against ``regret:16``), which lets a verdict's
climb level off early.
``regret_ref.py`` is the same search on the Python engine (the reference the kernel is
tested against; it plays when numba is missing or ``TANKMAP_KERNEL=python``).
"""

from __future__ import annotations

import numpy as np

from tankmap.analysis.simulation.tank_wars.agents.options import Policy
from tankmap.analysis.simulation.tank_wars.kernel import base
from tankmap.rules.geometry import Side
from tankmap.rules.tank_wars.engine import Command, Orders, TankWarsState
from tankmap.rules.tank_wars.state import ALL_COMMANDS

DEFAULT_ITERATIONS = 64
LIGHT, HEURISTIC = 0, 1
LIGHT_DEPTH = 0
HEURISTIC_DEPTH = 1
WEIGHTS = (
    0.671,
    0.332,
    0.920,
    0.307,
    0.733,
    0.046,
    -0.407,
    1.086,
    0.138,
    -1.969,
    0.090,
    -0.055,
    0.0,
)
"""``regret_value``'s feature weights, then the purification of the final draw (weights
under this fraction of the largest dropped)."""


class Roster:
    """The kinds and sides of a game's vehicles by ident, as far as the states seen show
    them (a vehicle destroyed before it was seen, which never comes back, gets the first
    kind and south)."""

    def __init__(self) -> None:
        self.seen: dict[int, tuple[str, Side]] = {}

    def update(self, state: TankWarsState) -> tuple[tuple[str, ...], tuple[Side, ...]]:
        for v in state.vehicles:
            self.seen.setdefault(v.ident, (v.kind, v.side))
        n = 1 + max(self.seen, default=-1)
        blank = (state.rules.kinds[0].kind, Side.SOUTH)
        got = [self.seen.get(i, blank) for i in range(n)]
        return tuple(k for k, _ in got), tuple(s for _, s in got)


def regret_policy(
    rng: np.random.Generator,
    iterations: int = DEFAULT_ITERATIONS,
    banned: frozenset[str] = frozenset(),
    mode: int = LIGHT,
    depth: int | None = None,
    weights: tuple[float, ...] = WEIGHTS,
) -> Policy:
    """The ``regret`` (``mode=LIGHT``) or ``regret-heuristic`` (``mode=HEURISTIC``) policy
    with ``iterations`` per decision, drawing its seeds from ``rng``."""
    if depth is None:
        depth = LIGHT_DEPTH if mode == LIGHT else HEURISTIC_DEPTH
    kernel = base.available()
    roster = Roster()

    def policy(state: TankWarsState, side: Side) -> Orders:
        seed = int(rng.integers(0, 2**63))
        kinds, sides = roster.update(state)
        if not kernel:
            from tankmap.analysis.simulation.tank_wars.agents.regret_ref import reference_search

            plan = reference_search(state, side, iterations, depth, mode, weights, seed, banned)
            return plan.orders
        return kernel_orders(
            state, side, iterations, depth, mode, weights, seed, banned, kinds, sides
        )

    return policy


def kernel_orders(
    state: TankWarsState,
    side: Side,
    iterations: int,
    depth: int,
    mode: int,
    weights: tuple[float, ...],
    seed: int,
    banned: frozenset[str],
    kinds: tuple[str, ...],
    sides: tuple[Side, ...],
) -> Orders:
    """``side``'s orders from the compiled search (``kernel.search.search``): the same
    arguments as ``regret_ref.reference_search``, and the game's vehicles by ident
    (``kinds``, ``sides``)."""
    from tankmap.analysis.simulation.tank_wars.kernel.search import search

    n = len(kinds)
    t = base.tables_of(state, kinds, sides, banned, side)
    pos = base.position_of(state, n)
    picks = np.full(n, -1, dtype=np.int64)
    gun = np.zeros(max(state.rules.gunfire_tokens, 1), dtype=np.int64)
    avg_cmd = np.zeros((n, t.opt.shape[3]), dtype=np.float64)
    avg_gun = np.zeros((2, base.CELLS), dtype=np.float64)
    fields = np.zeros((2, base.CELLS), dtype=np.int64)
    nfields = np.zeros(2, dtype=np.int64)
    w = np.asarray(weights, dtype=np.float64)
    placed = search(t, pos, side.index, iterations, depth, mode, w, np.uint64(seed),
                    picks, gun, avg_cmd, avg_gun, fields, nfields)  # fmt: skip
    commands: dict[int, Command] = {}
    for v in state.vehicles_of(side):
        if picks[v.ident] >= 0:
            commands[v.ident] = ALL_COMMANDS[int(picks[v.ident])]
    return Orders(commands, tuple(int(c) for c in gun[:placed]))
