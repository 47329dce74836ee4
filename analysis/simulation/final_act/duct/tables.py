"""The tables the ``duct`` search reads (``search.py``): the kernel's ``Tables`` and
its own lookups, built once per prepared scenario.

This module is the search's one import of the kernel's per-scenario tables (``tables_of``
and ``packed.tables``): where those are built may change without touching the search.

``DuctTables`` adds what the search asks many times per round and the kernel's tables
answer only by a scan: whether a cell is in a shooter's cone, and where.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from tankmap.analysis.simulation.final_act.kernel.packed import Tables, tables
from tankmap.analysis.simulation.final_act.kernel.tables import tables_of
from tankmap.analysis.simulation.final_act.prepared import Prepared

__all__ = ["DuctTables", "Tables", "duct_tables"]


class DuctTables(NamedTuple):
    """``cone_pos[kc, cell * 8 + facing, target]``: the position of ``target`` in the cone
    list ``Tables.tgt[kc, idx]`` (its between-cells are ``Tables.bet_words[kc, idx, pos]``),
    -1 when ``target`` is not in the cone (``kc``: 0 tank, 1 AT; ``target`` up to ``n``, the
    padding cell, never in a cone). ``elev_in[kc, idx, target]``: ``target`` is in the
    zone of a shooter standing elevated on a berm (no line-of-fire limits)."""

    cone_pos: npt.NDArray[np.int8]
    elev_in: npt.NDArray[np.bool_]


_BUILT: dict[int, tuple[Prepared, Tables, DuctTables]] = {}


def duct_tables(prep: Prepared) -> tuple[Tables, DuctTables]:
    """The kernel's tables of ``prep`` and the search's own (built once per scenario)."""
    found = _BUILT.get(id(prep))
    if found is not None and found[0] is prep:
        return found[1], found[2]
    T = tables(tables_of(prep))
    n = T.n
    kinds, rows, width = T.tgt.shape
    cone_pos = np.full((kinds, rows, n + 1), -1, dtype=np.int8)
    elev_in = np.zeros((kinds, rows, n + 1), dtype=np.bool_)
    tgt = np.asarray(T.tgt, dtype=np.int64)
    elev = np.asarray(T.elev, dtype=np.int64)
    for kc in range(kinds):
        for idx in range(rows):
            for t in range(int(T.n_tgt[kc, idx])):
                cone_pos[kc, idx, tgt[kc, idx, t]] = t
            for t in range(int(T.n_elev[kc, idx])):
                elev_in[kc, idx, elev[kc, idx, t]] = True
    cone_pos[:, :, n] = -1
    elev_in[:, :, n] = False
    extra = DuctTables(np.ascontiguousarray(cone_pos), np.ascontiguousarray(elev_in))
    if len(_BUILT) > 8:
        _BUILT.clear()
    _BUILT[id(prep)] = (prep, T, extra)
    return T, extra
