"""The Final Act agent of a name (``random``, ``heuristic``, ``search[:N]``,
``ksearch[:N]``, ``duct[:N]``, ``duct-h[:N]``, the ``-ref`` twins), as the one-game driver
loop plays it (``FinalActDriver.play``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tankmap.analysis.simulation.final_act.agents.duct import DuctPolicy
from tankmap.analysis.simulation.final_act.agents.reference import (
    HeuristicPolicy,
    RandomPolicy,
)
from tankmap.analysis.simulation.final_act.duct.players import parse_duct
from tankmap.analysis.simulation.final_act.prepared import Prepared

if TYPE_CHECKING:
    from tankmap.analysis.simulation.final_act.agents.ksearch import KSearchPolicy


def make_policy(
    name: str, restrictions: tuple[str, ...], prep: Prepared, side: int
) -> RandomPolicy | HeuristicPolicy | DuctPolicy | KSearchPolicy:
    """The policy ``name`` for ``side`` (0 south, 1 north); ``KeyError`` if unknown,
    ``ValueError`` for a bad ``search:N`` or ``ksearch:N`` budget, ``PolicyError`` for a
    bad ``duct:N`` budget or a ``duct`` or ``ksearch`` agent on a board with advanced
    options. ``random``/``heuristic``
    here are the reference agents: the driver plays those names on the kernel unless the
    game needs the reference engine."""
    no_berms = "no-berms" in restrictions
    duct = parse_duct(name)
    if duct is not None:
        return DuctPolicy(prep, side, no_berms, *duct)
    if name == "search" or name.startswith("search:"):
        # (loaded on demand: it loads the compiled kernel)
        from tankmap.analysis.simulation.final_act.agents.search import (
            DEFAULT_SAMPLES,
            SearchPolicy,
        )

        samples = int(name[7:]) if name.startswith("search:") else DEFAULT_SAMPLES
        if samples < 1:
            raise ValueError(samples)
        return SearchPolicy(prep, side, no_berms, samples)
    if name == "ksearch" or name.startswith("ksearch:"):
        from tankmap.analysis.simulation.final_act.agents.ksearch import (
            DEFAULT_SAMPLES as KSEARCH_SAMPLES,
        )
        from tankmap.analysis.simulation.final_act.agents.ksearch import KSearchPolicy

        samples = int(name[8:]) if name.startswith("ksearch:") else KSEARCH_SAMPLES
        if samples < 1:
            raise ValueError(samples)
        return KSearchPolicy(prep, side, no_berms, samples)
    if name in ("random", "random-ref"):
        return RandomPolicy(prep, side, no_berms)
    if name in ("heuristic", "heuristic-ref"):
        return HeuristicPolicy(prep, side, no_berms)
    raise KeyError(name)
