"""The Final Act kernel's tables, built a whole board at a time (``kernel/table_rows.py``),
equal the per-cell answers they replace — ``Prepared.ranked``, ``Prepared.likely`` and
the fire tables' pairs, asked cell by cell — on the built-in boards, under the options that
change movement and fire, and on boards with lanes and swamps moved about."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tankmap import maps
from tankmap.analysis.simulation.final_act.kernel.tables import KINDS, ScenarioTables
from tankmap.analysis.simulation.final_act.prepared import INF, Prepared
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.final_act.engine import Game
from tankmap.rules.scenario import Scenario


def _scenario(name: str) -> Scenario:
    path = maps.map_path(f"final-act/{name}")
    assert path is not None
    return read_scenario(path)


def _shifted_terrain(scenario: Scenario, seed: int) -> Scenario:
    """Each terrain piece moved by up to one column (kept on the board): other lanes,
    swamps and berms beside the units, legal or not (the tables do not care)."""
    rng = np.random.default_rng(seed)
    cols = scenario.board.columns
    pieces = []
    for piece in scenario.terrain:
        dx = int(rng.integers(-1, 2))
        if all(0 <= c % cols + dx < cols for c in piece.cells):
            lane = None if piece.lane is None else piece.lane + dx
            piece = dataclasses.replace(piece, cells=tuple(c + dx for c in piece.cells), lane=lane)
        pieces.append(piece)
    return dataclasses.replace(scenario, terrain=tuple(pieces))


CASES = [
    ("mirror", {}, None),
    ("flanks-vs-centre", {"reverse_turn": True, "lane_owner_only": True}, None),
    ("extra-forces", {}, None),
    ("extra-forces", {"strict_line_of_fire": True, "at_berm_elevated": False}, None),
    ("extra-forces", {"lane_owner_only": True}, 1),
    ("flanks-vs-centre", {}, 2),
]


@pytest.mark.parametrize(("name", "options", "shift"), CASES)
def test_whole_board_rows_equal_the_per_cell_answers(
    name: str, options: dict[str, object], shift: int | None
) -> None:
    scenario = _scenario(name).with_options(**options)  # type: ignore[arg-type]
    if shift is not None:
        scenario = _shifted_terrain(scenario, shift)
    prep = Prepared(Game(scenario))
    tb = ScenarioTables(prep)
    n8 = tb.size * 8
    present = {(int(k), int(s)) for k, s in zip(tb.units.kind, tb.units.side, strict=True)}
    for kc, side in present:
        ks = kc * 2 + side
        for idx in range(n8):
            ranked = prep.ranked(KINDS[kc], side, idx // 8, idx % 8)
            k = len(ranked)
            assert tb.ord_dest[ks, idx, :k].tolist() == [to for _d, to, _o in ranked]
            assert tb.ord_fac[ks, idx, :k].tolist() == [int(o[1]) for _d, _to, o in ranked]
            assert tb.ord_d[ks, idx, :k].tolist() == [float(d) for d, _to, _o in ranked]
            assert (tb.ord_dest[ks, idx, k:] == -1).all() and (tb.ord_d[ks, idx, k:] == INF).all()
            likely = prep.likely(KINDS[kc], side, idx // 8, idx % 8)
            m = len(likely)
            assert tb.lik_cell[ks, idx, :m].tolist() == [c for c, _p in likely]
            assert tb.lik_p[ks, idx, :m].tolist() == [p for _c, p in likely]  # float for float
            assert (tb.lik_cell[ks, idx, m:] == tb.size).all() and not tb.lik_p[ks, idx, m:].any()
    for kc in (0, 1):
        table = prep.game.fire_tables[KINDS[kc]]
        if table is None:
            continue
        for idx in range(n8):
            pairs = table.pairs[idx]
            assert tb.tgt[kc, idx, : len(pairs)].tolist() == [t for t, _m in pairs]
            for j, (_t, m) in enumerate(pairs):
                between = [c for c in tb.bet[kc, idx, j].tolist() if c != tb.size]
                assert sum(1 << c for c in between) == m
                words = sum(int(tb.bet_words[w][kc, idx, j]) << (64 * w) for w in range(tb.words))
                assert words == m
            elevated = table.elevated[idx]
            assert tb.elev[kc, idx, : len(elevated)].tolist() == list(elevated)
