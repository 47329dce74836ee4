"""Tank Wars ``plan[:N]``: ``search``'s Monte Carlo planning on the compiled kernel, with
``N`` sampled futures per decision.

The plan starts as the heuristic's. Then, vehicle by vehicle (card order), every command it
could be given is tried in place of its current one, then, token by token, each of the
``GUNFIRE_CANDIDATES`` enemy fields most enemy options end on (that no other token holds);
a change is kept when it scores better. A plan is scored on ``N`` sampled futures — the
enemy's plan drawn from its heuristic, the dice of the round and of the next ``LOOKAHEAD``
rounds, played by the heuristic for both sides — by the value of the position reached (AP
and a third of the gunfire tokens, own minus enemy's; ±100 for a won/lost game). Every
candidate is scored on the *same* futures (common random numbers).

Why this search, compiled (``kernel/plan.py``): it is the ``search`` agent's algorithm,
which the other Tank Wars searches have not beaten per CPU second, made cheap enough to
afford many more futures.
All randomness comes from one seed drawn from the game's Generator per decision
(``kernel/rng.py``). ``plan_ref.py`` is the same search on the Python engine (the reference
the kernel is tested against; it plays when numba is missing or ``TANKMAP_KERNEL=python``).
"""

from __future__ import annotations

import numpy as np

from tankmap.analysis.simulation.tank_wars.agents.options import Policy
from tankmap.analysis.simulation.tank_wars.agents.regret import Roster
from tankmap.analysis.simulation.tank_wars.kernel import base
from tankmap.rules.geometry import Side
from tankmap.rules.tank_wars.engine import Command, Orders, TankWarsState
from tankmap.rules.tank_wars.state import ALL_COMMANDS

DEFAULT_SAMPLES = 64
LOOKAHEAD = 2
GUNFIRE_CANDIDATES = 6


def plan_policy(
    rng: np.random.Generator,
    samples: int = DEFAULT_SAMPLES,
    banned: frozenset[str] = frozenset(),
    lookahead: int = LOOKAHEAD,
) -> Policy:
    """The ``plan`` policy (see the module docstring) with ``samples`` futures per
    decision, drawing its seeds from ``rng``."""
    kernel = base.available()
    roster = Roster()

    def policy(state: TankWarsState, side: Side) -> Orders:
        seed = int(rng.integers(0, 2**63))
        kinds, sides = roster.update(state)
        if not kernel:
            from tankmap.analysis.simulation.tank_wars.agents.plan_ref import reference_plan

            return reference_plan(state, side, samples, lookahead, seed, banned)
        return kernel_plan(state, side, samples, lookahead, seed, banned, kinds, sides)

    return policy


def kernel_plan(
    state: TankWarsState,
    side: Side,
    samples: int,
    lookahead: int,
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
    placed = plan(t, pos, side.index, samples, lookahead, GUNFIRE_CANDIDATES, np.uint64(seed),
                  picks, gun)  # fmt: skip
    commands: dict[int, Command] = {}
    for v in state.vehicles_of(side):
        if picks[v.ident] >= 0:
            commands[v.ident] = ALL_COMMANDS[int(picks[v.ident])]
    return Orders(commands, tuple(int(c) for c in gun[:placed]))
