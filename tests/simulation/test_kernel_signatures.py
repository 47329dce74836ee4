"""The compiled kernels of every game compile each function once per argument types: no
function is compiled a second time for a constant argument (numba's ``Literal[int]`` or
``Literal[bool]``), which would compile it and every function it calls again. Read from
numba's cache index of each function, which lists every signature compiled for the
current source, by this process or an earlier one."""

from __future__ import annotations

import importlib
from collections import Counter
from types import ModuleType
from typing import Any

import pytest

numba = pytest.importorskip("numba")

import tankmap  # noqa: E402
from tankmap.analysis.simulation.runner import simulate  # noqa: E402

KERNEL_MODULES = tuple(
    f"tankmap.analysis.simulation.{game}.kernel.{name}"
    for game, names in (
        ("tank_chess", ("alphabeta", "escape", "evaluation", "games", "heuristic", "memo",
                        "moves", "positions", "rng", "search_moves", "set_order", "threats",
                        "transposition")),
        ("tank_wars", ("plan", "playout", "rng", "round", "search", "value")),
        ("final_act", ("base", "lookahead", "orders", "plan_search", "play", "policies",
                       "repair", "round", "rules")),
    )
    for name in names
) + tuple(
    f"tankmap.analysis.simulation.final_act.duct.{name}" for name in ("games", "playout", "search")
)  # fmt: skip
GAMES = (
    ("final-act/extra-forces", "heuristic"),
    ("final-act/extra-forces", "search:1"),
    ("final-act/extra-forces", "ksearch:1"),
    ("final-act/extra-forces", "duct:2"),
    ("final-act/extra-forces", "duct-h:2"),
    ("tank-chess/basic-16", "heuristic"),
    ("tank-chess/basic-16", "alphabeta:20"),
    ("tank-wars/default", "regret:2"),
    ("tank-wars/default", "plan:2"),
)


def _dispatchers(module: ModuleType) -> dict[str, Any]:
    return {
        name: obj
        for name, obj in vars(module).items()
        if isinstance(obj, numba.core.registry.CPUDispatcher)
        and obj.py_func.__module__ == module.__name__
    }


def _cached_signatures(dispatcher: Any) -> list[tuple[Any, ...]]:
    """The argument types of every compiled version in ``dispatcher``'s cache index (empty
    when the index belongs to another version of the source)."""
    index = dispatcher._cache._cache_file._load_index()
    return [key[0] for key in index]


def test_each_kernel_function_is_compiled_once_per_argument_types() -> None:
    for board, agent in GAMES:
        simulate(tankmap.load(board), 1, (agent, agent), seed=1, workers=1)
    compiled = 0
    twice: list[str] = []
    for module_name in KERNEL_MODULES:
        module = importlib.import_module(module_name)
        for name, dispatcher in _dispatchers(module).items():
            signatures = _cached_signatures(dispatcher)
            compiled += len(signatures)
            plain = Counter(tuple(numba.core.types.unliteral(t) for t in sig) for sig in signatures)
            if any(n > 1 for n in plain.values()):
                twice.append(f"{module_name}.{name}: {[str(s) for s in signatures]}")
    assert compiled >= 40, "the games compiled (or loaded) the kernels"
    assert twice == []
