"""Tank Wars ``random``: the engine's baseline ``random_orders`` (uniform command per
vehicle, staying included; every gunfire token on a uniform target); vehicles of a banned
kind (``+no-KIND``) get no command, or one that is not executed when every vehicle needs
a token."""

from __future__ import annotations

import numpy as np

from tankmap.analysis.simulation.tank_wars.agents.options import Policy, idle_command
from tankmap.rules.geometry import Side
from tankmap.rules.tank_wars.engine import Orders, TankWarsState, random_orders


def random_policy(rng: np.random.Generator, banned: frozenset[str] = frozenset()) -> Policy:
    def policy(state: TankWarsState, side: Side) -> Orders:
        orders = random_orders(state, side, rng)
        if not banned:
            return orders
        kinds = {v.ident: v.kind for v in state.vehicles}
        kept = {i: c for i, c in orders.commands.items() if kinds.get(i) not in banned}
        for v in state.vehicles_of(side):
            if v.kind in banned:
                idle = idle_command(state, v, kept)
                if idle is not None:
                    kept[v.ident] = idle
        return Orders(kept, orders.gunfire)

    return policy
