"""Helpers of the R/M repair cross-checks (test_final_act_kernel_rules.py,
test_final_act_kernel.py): random orders changed so that Extra Forces R/M repairs happen
often."""

from __future__ import annotations

import numpy as np

from tankmap.rules.final_act.engine import State
from tankmap.rules.final_act.tables import Order


def repairs(
    st: State,
    orders: list[Order | None],
    shells: dict[int, int],
    rng: np.random.Generator,
) -> list[int]:
    """Change random orders so that R/M repairs happen: an R/M with repairs left next to a
    damaged own tank moves onto it (when a legal order does) with probability 1/2; a
    damaged tank sharing with its R/M is declared repaired with probability 1/2 (both
    stay, no shell). Returns the tanks declared."""
    adv = st.game.adv
    if "rm_repair" not in adv.on:
        return []
    for v in st.live():
        if st.kind[v] != "rm" or st.adv.rm_left.get(v, 0) == 0:
            continue
        for u in st.live(st.side[v]):
            if st.kind[u] == "tank" and st.damage[u] and st.cell[u] != st.cell[v]:
                onto = [o for o in st.orders(v) if o[0] == st.cell[u]]
                if onto and rng.random() < 0.5:
                    orders[v] = onto[0]
    declared = []
    for u in st.live():
        partner = adv.repair_partner(st, u) if st.kind[u] == "tank" else -1
        if partner >= 0 and rng.random() < 0.5:
            declared.append(u)
            orders[u] = orders[partner] = None
            shells.pop(u, None)
    return declared
