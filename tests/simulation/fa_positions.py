"""Final Act positions for the compiled agents' tests (``duct``, ``ksearch``): the built-in
maps, a hand-worked landing round with one dominant order, and positions of seeded
``random`` games."""

from __future__ import annotations

import numpy as np

from tankmap.analysis.simulation.final_act.agents.reference import RandomPolicy, RoundView
from tankmap.analysis.simulation.final_act.driver import DRIVER
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.maps import map_path
from tankmap.rules.board import Board
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.final_act.engine import State
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Terrain, Unit

B = Board.of(12, 12)


def fa_map(name: str) -> Scenario:
    """Built-in map ``final-act/name``."""
    path = map_path(f"final-act/{name}")
    assert path is not None
    return read_scenario(path)


def landing_position() -> tuple[Prepared, State]:
    """A round where one order wins at once (south's tank on a11 to a12), hand-worked below."""
    # docs/rules.md §1.5, §1.7: south's tank on a11 facing N, north's swamp on b11 b12 c11
    # c12 (impassable), north's tanks on k12 and l12 facing S (north's own last line, row
    # 12). A tank wins when it ends a round on the enemy line (row 12). a11's orders: stay,
    # forward a12, back a10, back-right b10 (forward-right b12 is swamp). Forward to a12
    # always wins at once: a12 is free, no north unit can enter it this round (k12 and l12
    # are 9 columns away) and north cannot land (its tanks are 11 rows from row 1); a hit
    # would only damage the tank. Every other order wins nothing this round.
    units = (
        Unit("tank", Side.SOUTH, B.parse_cell("a11"), Facing.N, "C"),
        Unit("tank", Side.SOUTH, B.parse_cell("k1"), Facing.N, "1"),
        Unit("tank", Side.NORTH, B.parse_cell("k12"), Facing.S, "C"),
        Unit("tank", Side.NORTH, B.parse_cell("l12"), Facing.S, "1"),
    )
    swamp = Terrain(
        "swamp", tuple(B.parse_cell(c) for c in ("b11", "b12", "c11", "c12")), Side.NORTH
    )
    options = get_ruleset("final-act").new_scenario(B, {}).options
    prep = DRIVER.prepare(Scenario("final-act", B, options, (swamp,), units))
    return prep, prep.game.initial_state()


def random_positions(name: str, count: int, seed: int) -> list[State]:
    """Positions of ``random``-played games of map ``name`` after 0 to 14 rounds."""
    prep = DRIVER.prepare(fa_map(name))
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        st = prep.game.initial_state()
        pols = [RandomPolicy(prep, s) for s in (0, 1)]
        for _ in range(int(rng.integers(0, 15))):
            view = RoundView(st, prep)
            orders: list[object] = [None] * len(st.kind)
            shells: dict[int, int] = {}
            for p in pols:
                o, s = p.decide(view, rng)
                for u, order in o.items():
                    orders[u] = order
                shells.update(s)
            prep.game.apply_round(st, orders, shells, None)  # type: ignore[arg-type]
            if st.over:
                break
        if not st.over:
            out.append(st)
    return out
