"""Tank Wars ``plan[:N]``: ``search``'s Monte Carlo planning on the compiled kernel, with
``N`` sampled futures per decision (default 128).

The plan starts as the heuristic's. Then, vehicle by vehicle (card order), every command it
could be given is tried in place of its current one, then, token by token, each of the
``GUNFIRE_CANDIDATES`` enemy fields most enemy options end on (that no other token holds);
a change is kept when it scores better. A plan is scored on ``N`` sampled futures — the
enemy's plan drawn from its heuristic and the dice of the round (and of ``lookahead`` more
rounds played by the heuristic for both sides; ``plan`` plays ``LOOKAHEAD`` = 0) — by
``regret_value``'s evaluation of the position reached, with weights fitted to ``plan``'s own
games (``WEIGHTS``). Every candidate is scored on the *same* futures (common random
numbers). All randomness comes from one seed drawn from the game's Generator per decision
(``kernel/rng.py``). ``plan_ref.py`` is the same search on the Python engine (the reference
the kernel is tested against; it plays when numba is missing or ``TANKMAP_KERNEL=python``).

Why this search, and why compiled (``kernel/plan.py``): ``search`` was the strongest Tank
Wars agent per CPU second (``regret:512`` scored only 0.545 against ``search:9``), and its
cost is its Python rounds — about 150 µs per candidate and future, against some 2 µs on the
kernel. Measured on ``tank-wars/default`` (side-swapped matches, seeded, CPU per self-play
game on one core of a loaded machine; ``search:9`` cost 1.3-2.1 s):

- ``search``'s own scoring (AP and a third of the gunfire tokens, ±100 for a decided game,
  two heuristic look-ahead rounds), compiled: ``plan:256`` (0.70 s) scored 0.64 and
  ``plan:384`` 0.70 [0.59, 0.79] of 80 games against ``search:9``.
- the fitted evaluation in place of that score: 0.655 [0.587, 0.717] of 200 games at 128
  futures against the same search with ``search``'s score (and cheaper per game: its games
  are more decisive);
- look-ahead: at equal CPU, one round (192 futures) scored 0.51 against two (128); none
  (384 futures) 0.64 [0.57, 0.70] against two — the evaluation reads the position better
  than two noisy heuristic rounds do, so ``plan`` spends its budget on futures instead;
- a second pass over the vehicles and tokens (64 futures) scored 0.47 against one pass
  (128) at equal CPU; 12 or all 36 gunfire candidates in place of 6 scored 0.54 and 0.52
  at equal budget (not significant, more CPU per round): not kept.

``benchmarks/strength_per_cpu.py`` (the largest half-octave budget within ``search:9``'s
CPU per self-play game, then 200 side-swapped games): ``plan:1024`` (1.08 s per game;
``search:9`` 1.57 s) scored 0.818 [0.761, 0.867] against ``search:9``.
"""

from __future__ import annotations

import numpy as np

from tankmap.analysis.simulation.tank_wars.agents.options import Policy
from tankmap.analysis.simulation.tank_wars.agents.regret import Roster
from tankmap.analysis.simulation.tank_wars.kernel import base
from tankmap.rules.geometry import Side
from tankmap.rules.tank_wars.engine import Command, Orders, TankWarsState
from tankmap.rules.tank_wars.state import ALL_COMMANDS

DEFAULT_SAMPLES = 128
LOOKAHEAD = 0
GUNFIRE_CANDIDATES = 6
WEIGHTS = (0.672, 0.882, 1.051, 0.021, 0.620, 0.068, -0.083, 0.708, 0.203, -3.863, 0.171, -0.021)
"""``regret_value``'s feature weights for ``plan``: ``regret_fit``'s logistic regression on
the positions of ``plan:128`` self-play (600 games per built-in board, seed 29), fitted
twice — first playing with ``regret``'s weights (``regret_fit 600 128 plan
0.671,0.332,…``), then with the weights that gave. Against ``plan:256`` with ``regret``'s
weights the first fit scored 0.575 [0.506, 0.641] of 200 side-swapped games (at some 10 %
more CPU per game: its games last longer); the second scored 0.537 [0.471, 0.608] against
the first."""


def plan_policy(
    rng: np.random.Generator,
    samples: int = DEFAULT_SAMPLES,
    banned: frozenset[str] = frozenset(),
    lookahead: int = LOOKAHEAD,
    weights: tuple[float, ...] = WEIGHTS,
) -> Policy:
    """The ``plan`` policy (see the module docstring) with ``samples`` futures per
    decision, ``lookahead`` rounds deep, drawing its seeds from ``rng``."""
    kernel = base.available()
    roster = Roster()

    def policy(state: TankWarsState, side: Side) -> Orders:
        seed = int(rng.integers(0, 2**63))
        kinds, sides = roster.update(state)
        if not kernel:
            from tankmap.analysis.simulation.tank_wars.agents.plan_ref import reference_plan

            return reference_plan(
                state, side, samples, lookahead, weights, seed, banned, GUNFIRE_CANDIDATES
            )
        return kernel_plan(state, side, samples, lookahead, weights, seed, banned, kinds, sides)

    return policy


def kernel_plan(
    state: TankWarsState,
    side: Side,
    samples: int,
    lookahead: int,
    weights: tuple[float, ...],
    seed: int,
    banned: frozenset[str],
    kinds: tuple[str, ...],
    sides: tuple[Side, ...],
) -> Orders:
    """``side``'s orders from the compiled search (``kernel.plan.plan``): the same
    arguments as ``plan_ref.reference_plan``, and the game's vehicles by ident (``kinds``,
    ``sides``)."""
    from tankmap.analysis.simulation.tank_wars.kernel.plan import plan

    n = len(kinds)
    t = base.tables_of(state, kinds, sides, banned, side)
    pos = base.position_of(state, n)
    picks = np.full(n, -1, dtype=np.int64)
    gun = np.zeros(max(state.rules.gunfire_tokens, 1), dtype=np.int64)
    w = np.asarray(weights, dtype=np.float64)
    placed = plan(t, pos, side.index, samples, lookahead, GUNFIRE_CANDIDATES, np.uint64(seed), w,
                  picks, gun)  # fmt: skip
    commands: dict[int, Command] = {}
    for v in state.vehicles_of(side):
        if picks[v.ident] >= 0:
            commands[v.ident] = ALL_COMMANDS[int(picks[v.ident])]
    return Orders(commands, tuple(int(c) for c in gun[:placed]))
