"""Final Act playouts: both policies decide from the same position, the engine resolves.

Two engines play: ``random`` and ``heuristic`` run on the compiled kernel (``kernel/``,
whole games per call, records included); ``random-ref`` and ``heuristic-ref`` are the
readable one-game-at-a-time reference implementations of the same ideas
(``agents/reference.py`` on the reference engine, ``rules.final_act.engine``), and
``search[:N]`` plays one game at a time there, scoring its candidates on the kernel
(``agents/search.py``); ``duct[:N]`` and ``duct-h[:N]`` (``agents/duct.py``) play whole
games on the kernel against ``random``, ``heuristic`` or each other (``duct/games.py``),
else one game at a time. Both kinds of game record replay through the reference engine.

Advanced rules and tokens (docs/rules.md §1.8), and the basic-rule readings set away from
their defaults (§1.8a, ``rules.final_act.engine_readings``), are modelled by the reference
engine and policies only: then ``random``/``heuristic`` fall back to the reference
implementations (``fallback_note`` says so; ``tankmap simulate`` prints it and adds it to
the JSON), as they do where numba cannot be imported. The Extra Forces R/M repair
(``rm_repair``, docs/rules.md §1.3, on by default) is modelled by the kernel too
(``engine_advanced.FAST``) and never causes a fallback.

Restrictions: ``+no-KIND`` removes the side's units of that kind before round 1 (they take
no part; they are not counted as losses); ``+no-berms`` is handled by the policy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tankmap.analysis.simulation.budgets import check_budget
from tankmap.analysis.simulation.final_act.agents.compiled_policy import refuse_slow
from tankmap.analysis.simulation.final_act.agents.factory import make_policy
from tankmap.analysis.simulation.final_act.agents.reference import RoundView
from tankmap.analysis.simulation.final_act.duct.players import PLAYOUTS, SidePlayer, parse_duct
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.analysis.simulation.games import (
    Death,
    GameResult,
    PolicyError,
    parse_policy,
)
from tankmap.analysis.simulation.interrupt import between_decisions
from tankmap.analysis.simulation.noise import game_keys, key_of
from tankmap.rules.final_act.data import DATA
from tankmap.rules.final_act.engine import END_GOAL, SIDES, Game, RoundReport, State
from tankmap.rules.final_act.engine_advanced import FAST, MODELLED, Actions
from tankmap.rules.final_act.engine_readings import Readings
from tankmap.rules.final_act.engine_record import FinalActRecord, Round
from tankmap.rules.final_act.tables import Order
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario

BASES = (
    "random",
    "heuristic",
    "search",
    "ksearch",
    "duct",
    "duct-h",
    "random-ref",
    "heuristic-ref",
)
BATCHED = ("random", "heuristic")  # the agents the kernel plays, whole games per call


class FinalActDriver:
    """Plays Final Act games (see ``analysis.simulation.games.Driver``)."""

    batch_size = 1000  # games per task: a kernel call's fixed costs are shared by its games
    # (the runner splits finer for workers)

    def batched(self, policies: tuple[str, str], prepared: Any = None) -> bool:
        """Whether both policies play on the compiled kernel (whole games per call): not
        when the prepared game has advanced options (rules §1.8) on that only the reference
        engine models or a reading (§1.8a) changed, nor where numba cannot be imported."""
        if prepared is not None and (prepared.game.adv.slow or prepared.game.readings.changed):
            return False
        return all(parse_policy(p)[0] in BATCHED for p in policies) and _kernel_available()

    def fallback_note(self, scenario: Scenario, policies: tuple[str, str]) -> str | None:
        """One line saying that ``random``/``heuristic`` fall back to the reference engine
        because advanced options (docs/rules.md §1.8) are on in ``scenario``, a reading
        (§1.8a) changed, or numba cannot be imported; else ``None``."""
        if not any(parse_policy(p)[0] in BATCHED for p in policies):
            return None
        opts = get_ruleset(scenario.ruleset).options(scenario)
        on = [name for name in MODELLED if opts.get(name) and name not in FAST]
        changed = [
            f"{name}={str(opts[name]).lower() if isinstance(opts[name], bool) else opts[name]}"
            for name in Readings.of(opts).changed
        ]
        if on or changed:
            what = []
            if on:
                what.append(f"advanced options {', '.join(on)}")
            if changed:
                what.append(f"readings {', '.join(changed)}")
            return (
                f"{' and '.join(what)} are modelled by the reference engine only: "
                "random/heuristic play as random-ref/heuristic-ref (slower)"
            )
        if not _kernel_available():
            return (
                "numba cannot be imported, so the compiled kernel cannot play: "
                "random/heuristic play as random-ref/heuristic-ref (slower, other draws)"
            )
        return None

    def duct_players(
        self, policies: tuple[str, str], prepared: Any = None
    ) -> tuple[SidePlayer, SidePlayer] | None:
        """How each side plays a kernel game with ``duct`` players (``duct/games.py``): when
        a policy is ``duct``/``duct-h`` and the other ``random``, ``heuristic`` or a
        ``duct`` too, on a game the kernel models; else ``None`` (one game at a time)."""
        if prepared is not None and (prepared.game.adv.slow or prepared.game.readings.changed):
            return None
        south, north = (SidePlayer.of(*parse_policy(spec)) for spec in policies)
        if south is None or north is None or not {south.agent, north.agent} & set(PLAYOUTS):
            return None
        return south, north

    def warm(self, prepared: Any, policies: tuple[str, str], games: int | None = None) -> None:
        """Build the kernel's tables and load the compiled kernel now, before worker
        processes fork, so that they share both instead of each loading the kernel (about
        half a second per process) — when ``policies`` will use them (``random``/
        ``heuristic``, or the search agent's look-ahead). ``games`` (how many games the
        run may play) does not change what is loaded."""
        searching = any(parse_policy(p)[0].split(":")[0] == "search" for p in policies)
        game = prepared.game
        slow = game.adv.slow or game.readings.changed
        if not slow and any(parse_duct(parse_policy(p)[0]) for p in policies):
            from tankmap.analysis.simulation.final_act.duct.games import warm as warm_duct

            warm_duct(prepared)
        planning = any(parse_policy(p)[0].split(":")[0] == "ksearch" for p in policies)
        if not (self.batched(policies, prepared) or searching or planning) or slow:
            return
        if not _kernel_available():  # pragma: no cover - numba is a dependency
            return
        from tankmap.analysis.simulation.final_act.kernel import games as kernel_games

        kernel_games.warm(prepared, searching, planning)

    def play_seeded(
        self,
        prepared: Any,
        policies: tuple[str, str],
        seed: int,
        games: list[int],
        record: bool = False,
    ) -> Sequence[GameResult]:
        """Games number ``games`` of a run seeded ``seed`` (the runner's entry point).
        Kernel games (``batched``) are keyed by ``noise.game_key(seed, game)``, records
        included; the others play one game per ``game_rng(seed, game)``."""
        if self.batched(policies, prepared):
            return self._batched(prepared, policies, game_keys(seed, games), record)
        players = self.duct_players(policies, prepared)
        if players is not None:
            return _duct_games(prepared, players, game_keys(seed, games), record)
        from tankmap.analysis.simulation.runner import game_rng

        return [self.play(prepared, policies, game_rng(seed, g), record) for g in games]

    def play_many(
        self,
        prepared: Any,
        policies: tuple[str, str],
        rngs: list[np.random.Generator],
        record: bool = False,
    ) -> Sequence[GameResult]:
        """One game per Generator; on the kernel when both policies allow it (each game
        then draws its key from its Generator)."""
        if self.batched(policies, prepared):
            return self._batched(prepared, policies, [key_of(rng) for rng in rngs], record)
        players = self.duct_players(policies, prepared)
        if players is not None:
            return _duct_games(prepared, players, [key_of(rng) for rng in rngs], record)
        return [self.play(prepared, policies, rng, record) for rng in rngs]

    def _batched(
        self, prepared: Any, policies: tuple[str, str], keys: list[int], record: bool
    ) -> Sequence[GameResult]:
        from tankmap.analysis.simulation.final_act.kernel import games as kernel_games

        return kernel_games.play_many(prepared, policies, keys, record)

    def prepare(self, scenario: Scenario) -> Prepared:
        return Prepared(Game(scenario))

    def policy_names(self) -> tuple[str, ...]:
        return BASES

    def restrictions(self) -> tuple[str, ...]:
        return ("no-berms", *(f"no-{kind}" for kind in DATA.units))

    def check_policy(self, prepared: Any, spec: str) -> None:
        base, restrictions = parse_policy(spec)
        name = base.partition(":")[0]
        if name in BASES:
            check_budget("final-act", spec)  # (a budget on an agent that takes one, in range)
        if name in PLAYOUTS:
            if prepared is not None:
                refuse_slow(prepared, name)
        elif name not in BASES:
            raise PolicyError(
                f"unknown Final Act policy {base!r} (known: {', '.join(BASES)}; "
                f"restrictions: {', '.join('+' + r for r in self.restrictions())})"
            )
        if name == "ksearch" and prepared is not None:
            refuse_slow(prepared, name)
        for r in restrictions:
            if r not in self.restrictions():
                raise PolicyError(f"unknown restriction {r!r} for Final Act")

    def play(
        self,
        prepared: Any,
        policies: tuple[str, str],
        rng: np.random.Generator,
        record: bool = False,
    ) -> GameResult:
        if self.batched(policies, prepared):
            return self._batched(prepared, policies, [key_of(rng)], record)[0]
        kernel_players = self.duct_players(policies, prepared)
        if kernel_players is not None:
            return _duct_games(prepared, kernel_players, [key_of(rng)], record)[0]
        prep: Prepared = prepared
        game = prep.game
        adv = game.adv
        st = game.initial_state()
        players = []
        for s, spec in enumerate(policies):
            base, restrictions = parse_policy(spec)
            for r in restrictions:
                if r != "no-berms":
                    for u in range(len(st.kind)):
                        if st.side[u] == s and st.kind[u] == r[3:]:
                            st.alive[u] = False
            players.append(make_policy(base, restrictions, prep, s))
        if adv:  # the action tokens' share-out (docs/rules.md §1.8; equal sets: no draw)
            adv.deal(st, rng, lambda side, tokens, k: players[side].pick_tokens(tokens, k, rng))
        deaths: list[Death] = []
        rounds: list[Round] = []
        actions: dict[int, Actions] = {}
        n = len(st.kind)
        acts: Actions | None = None
        two_ats = any(
            sum(1 for u in range(n) if st.kind[u] == "at" and st.side[u] == s) > 1 for s in (0, 1)
        )
        while not st.over:
            between_decisions()  # (a run aborted in this process stops here: ``interrupt``)
            acts = None
            if adv:  # start-of-round tokens first: both sides see them before deciding
                acts = players[0].pre_round(st, rng).merge(players[1].pre_round(st, rng))
                adv.begin(st, acts, check=False)
            view = RoundView(st, prep)
            o0, s0 = players[0].decide(view, rng)
            o1, s1 = players[1].decide(view, rng)
            if acts is not None:
                acts = acts.merge(players[0].act(view, o0, s0, rng))
                acts = acts.merge(players[1].act(view, o1, s1, rng))
            if two_ats:  # which AT a shell on two of them takes (docs/rules.md §1.6)
                spared = players[0].spare_ats(view, o0) + players[1].spare_ats(view, o1)
                if spared:
                    acts = acts or Actions()
                    acts.at_spared.extend(spared)
            orders: list[Order | None] = [None] * n
            for u, o in o0.items():
                orders[u] = o
            for u, o in o1.items():
                orders[u] = o
            shells = s0
            shells.update(s1)
            if record:
                rounds.append((list(orders), dict(shells)))
            respond = None
            if adv:

                def respond(
                    phase: str, now: State, placed: dict[int, int], so_far: RoundReport
                ) -> Actions:
                    return (
                        players[0]
                        .respond(phase, now, placed, so_far, rng)
                        .merge(players[1].respond(phase, now, placed, so_far, rng))
                    )

            report = game.apply_round(st, orders, shells, acts, respond)
            if record and not report.actions.empty():
                actions[len(rounds) - 1] = report.actions
            for u, cell, _by, by_unit in report.knocked_out:
                deaths.append(
                    Death(
                        SIDES[st.side[u]],
                        st.kind[u],
                        cell,
                        st.round,
                        st.kind[by_unit] if by_unit >= 0 else None,
                    )
                )
        return game_result(st, deaths, FinalActRecord.of(st, rounds, actions) if record else None)


def _duct_games(
    prepared: Any, players: tuple[SidePlayer, SidePlayer], keys: list[int], record: bool
) -> Sequence[GameResult]:
    """Games with ``duct`` players on the kernel (``duct/games.py``), loaded on demand."""
    from tankmap.analysis.simulation.final_act.duct.games import play_many as play_duct

    return play_duct(prepared, players, keys, record)


def game_result(st: State, deaths: list[Death], record: Any) -> GameResult:
    """The ``GameResult`` of the finished game ``st`` (its knock-outs ``deaths``; the
    winning unit and its route when a tank won on the enemy line)."""
    g = st.game
    unit_label = None
    route: tuple[int, ...] = ()
    if st.end == END_GOAL and st.winner is not None:
        w = st.winner.index
        for u in range(len(st.kind)):
            if (
                st.alive[u]
                and st.side[u] == w
                and st.kind[u] == "tank"
                and g.goal_mask[w] >> st.cell[u] & 1
            ):
                unit_label = g.scenario.units[u].label
                route = tuple(st.routes[u])
                break
    return GameResult(
        winner=st.winner,
        length=st.round,
        end=st.end or "",
        kills=(st.kills[0], st.kills[1]),
        winning_unit=unit_label,
        route=route,
        deaths=tuple(deaths),
        record=record,
    )


def _kernel_available() -> bool:
    """Whether the compiled kernel can play (numba importable; loads numba, not the
    kernel's compiled functions)."""
    from tankmap.analysis.simulation.final_act.kernel.base import available

    return available()


DRIVER = FinalActDriver()
