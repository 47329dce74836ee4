"""Tank Chess playouts: alternate turns chosen by each side's policy until the game ends
(command tank destroyed or escaped, no legal turn, or ``max_turns`` plies: a draw).

Games between ``random`` and ``heuristic`` players (any pairing and restrictions) run on
the compiled kernel (``kernel.games``: the same turns for the same seed) unless
``TANKMAP_KERNEL`` is ``python``, which keeps every game on this pure-Python
loop, the reference.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from tankmap.analysis.simulation.budgets import check_budget
from tankmap.analysis.simulation.games import (
    END_NO_MOVES,
    Death,
    GameResult,
    PolicyError,
    parse_policy,
)
from tankmap.analysis.simulation.interrupt import between_decisions
from tankmap.analysis.simulation.tank_chess.agents.factory import make_policy
from tankmap.analysis.simulation.tank_chess.ends import ENDS
from tankmap.analysis.simulation.tank_chess.prepared import Prepared
from tankmap.rules.scenario import Scenario
from tankmap.rules.tank_chess.data import KIND_CODE, KINDS
from tankmap.rules.tank_chess.record import GameRecord
from tankmap.rules.tank_chess.state import SIDES, GameState, Turn

BASES = ("random", "heuristic", "uct", "search", "alphabeta")


class TankChessPrepared:
    """A scenario with its start state (each game plays on a copy) and the policies'
    per-scenario data (``Prepared``: escape tables and the heuristic's memo)."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.start = GameState(scenario)
        self.policy_data = Prepared(self.start)


class TankChessDriver:
    """Plays Tank Chess games (see ``analysis.simulation.games.Driver``)."""

    def prepare(self, scenario: Scenario) -> TankChessPrepared:
        return TankChessPrepared(scenario)

    def policy_names(self) -> tuple[str, ...]:
        return BASES

    def restrictions(self) -> tuple[str, ...]:
        return tuple(f"no-{kind}" for kind in KINDS)

    def check_policy(self, prepared: Any, spec: str) -> None:
        base, restrictions = parse_policy(spec)
        if base.partition(":")[0] in BASES:
            check_budget("tank-chess", spec)  # (a budget on an agent that takes one, in range)
        try:
            make_policy(base, restrictions, prepared.policy_data, 0)
        except (KeyError, ValueError):
            raise PolicyError(
                f"unknown Tank Chess policy {spec!r} "
                "(known: random, heuristic, uct, uct:N, search, search:N, alphabeta, "
                "alphabeta:N; "
                f"restrictions: {', '.join('+' + r for r in self.restrictions())})"
            ) from None

    def play_seeded(
        self,
        prepared: Any,
        policies: tuple[str, str],
        seed: int,
        games: Sequence[int],
        record: bool = False,
    ) -> Sequence[GameResult]:
        """Games number ``games`` of a run seeded ``seed`` (the runner's entry point), each
        the game ``play`` plays with ``runner.game_rng(seed, game)``. Without records, games
        of ``random`` and ``heuristic`` players are played by one kernel call and kept as
        arrays (``results.TankChessResults``); a game the kernel stops (a
        ``random`` player without a turn) is played again by ``play``."""
        from tankmap.analysis.simulation.runner import game_rng

        plan = None if record else _kernel_plan(policies)
        if plan is None:
            return [self.play(prepared, policies, game_rng(seed, g), record) for g in games]
        from tankmap.analysis.simulation.tank_chess.kernel.games import kernel_games
        from tankmap.analysis.simulation.tank_chess.results import TankChessResults

        prep: TankChessPrepared = prepared
        arrays = kernel_games(prep.start, prep.policy_data, *plan, seed, games)
        results = TankChessResults(prep.start, arrays)
        if arrays.res[:, 2].min(initial=0) >= 0:
            return results
        out = results.results()
        for i in np.flatnonzero(arrays.res[:, 2] < 0).tolist():
            out[i] = self.play(prepared, policies, game_rng(seed, games[i]))
        return out

    def play(
        self,
        prepared: Any,
        policies: tuple[str, str],
        rng: np.random.Generator,
        record: bool = False,
    ) -> GameResult:
        prep: TankChessPrepared = prepared
        st = prep.start.copy()
        players = [
            make_policy(*parse_policy(spec), prep.policy_data, s) for s, spec in enumerate(policies)
        ]
        first = st.to_move
        deaths: list[Death] = []
        kills = [0, 0]
        # (the kernel draws as PCG64, the bit generator of ``default_rng``)
        pcg = isinstance(rng.bit_generator, np.random.PCG64)
        plan = _kernel_plan(policies) if pcg else None
        if plan is not None:
            from tankmap.analysis.simulation.tank_chess.kernel.games import kernel_turns

            for turn in kernel_turns(prep.start, prep.policy_data, *plan, rng):
                _push(st, turn, kills, deaths)
        while True:
            out = st.outcome()
            if out is not None:
                break
            # a game without an outcome always has legal turns (every live piece can
            # rotate): the policies find them themselves (the heuristic only those it needs)
            between_decisions()  # (a run aborted in this process stops here: ``interrupt``)
            turn = players[st.to_move].choose(st, None, rng)
            _push(st, turn, kills, deaths)
        out = st.outcome()
        winner = out.winner if out is not None else None
        end = ENDS.get(out.reason, out.reason) if out is not None else END_NO_MOVES
        unit = None
        route: tuple[int, ...] = ()
        if winner is not None and st.history:
            last = st.history[-1][0]
            p = last[0]
            unit = (
                f"{KINDS[st.kind[p]]} {prep.scenario.board.cell_name(prep.scenario.units[p].cell)}"
            )
            route = _route(st, p)
        return GameResult(
            winner=winner,
            length=st.ply,
            end=end,
            kills=(kills[0], kills[1]),
            winning_unit=unit,
            route=route,
            deaths=tuple(deaths),
            first=SIDES[first],
            record=GameRecord.of(st) if record else None,
        )


Plan = tuple[tuple[int, int], tuple[frozenset[int], frozenset[int]]]
_PLANS: dict[tuple[tuple[str, str], str], Plan | None] = {}


def _kernel_plan(policies: tuple[str, str]) -> Plan | None:
    """``_players(policies)``, worked out once per pair of policies and ``TANKMAP_KERNEL``
    value (a task of one short game spent 2 % of its time on it)."""
    key = (policies, os.environ.get("TANKMAP_KERNEL", ""))
    if key not in _PLANS:
        _PLANS[key] = _players(policies)
    return _PLANS[key]


def _players(policies: tuple[str, str]) -> Plan | None:
    """The kernel's players (``kernel.games.RANDOM``/``HEURISTIC``) and banned kinds
    per side when both policies are ``random`` or ``heuristic`` and the kernel may play
    (``kernel.base.available``), else ``None``."""
    parsed = [parse_policy(spec) for spec in policies]
    if any(base not in ("random", "heuristic") for base, _ in parsed):
        return None
    from tankmap.analysis.simulation.tank_chess.kernel.base import available

    if not available():
        return None
    from tankmap.analysis.simulation.tank_chess.kernel.set_order import agrees

    if not agrees():  # pragma: no cover - another interpreter's set order
        return None
    from tankmap.analysis.simulation.tank_chess.kernel.games import HEURISTIC, RANDOM

    a, b = ((HEURISTIC if base == "heuristic" else RANDOM) for base, _ in parsed)
    c, d = (frozenset(KIND_CODE[r[3:]] for r in rs) for _, rs in parsed)
    return (a, b), (c, d)


def _push(st: GameState, turn: Turn, kills: list[int], deaths: list[Death]) -> None:
    """Play ``turn`` and count what it destroyed."""
    mover = st.to_move
    st.push(turn)
    if st.history[-1][3]:  # destroyed
        target = turn[3]
        kills[mover] += 1
        deaths.append(
            Death(
                SIDES[st.side[target]],
                KINDS[st.kind[target]],
                st.cell[target],
                st.ply,
                KINDS[st.kind[turn[0]]],
            )
        )


def _route(st: GameState, p: int) -> tuple[int, ...]:
    """Cells piece ``p`` stood on during the game (start first; escape not a cell)."""
    cells = [st.scenario.units[p].cell]
    for turn, *_ in st.history:
        if turn[0] == p and turn[1] >= 0 and turn[1] != cells[-1]:
            cells.append(turn[1])
    return tuple(cells)


DRIVER = TankChessDriver()
