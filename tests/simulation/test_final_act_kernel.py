"""The compiled Final Act kernel plays by the rules of the reference engine.

Kernel games with their records, on every built-in Final Act map, for every pairing of
``random`` and ``heuristic`` with restrictions, with Extra Forces R/M repair on and off and
with rule options that change a game's course (no wrecks, a short round limit), are
replayed through the reference engine (``Game.play_round``: every order and shell is
checked as legal): the winner, the end, the rounds, the kills, every knock-out (side, kind,
cell, round, by what) and the winning unit with its route must be the kernel's. The records
show both sides' agents declaring R/M repairs. The kernel's helpers (numpy-order pairwise
summation, counter-based noise) are checked against their numpy counterparts directly.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from repair_support import repairs

from tankmap.analysis.simulation import noise
from tankmap.analysis.simulation.final_act.driver import game_result
from tankmap.analysis.simulation.final_act.kernel import games as kernel_games
from tankmap.analysis.simulation.final_act.kernel import lookahead
from tankmap.analysis.simulation.final_act.prepared import Prepared
from tankmap.analysis.simulation.games import Death, GameResult, get_driver, parse_policy
from tankmap.analysis.simulation.runner import COLUMNS, result_columns
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.final_act.engine import SIDES
from tankmap.rules.final_act.engine_record import FinalActRecord
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario

ROOT = Path(__file__).resolve().parents[2]
MAPS = ["mirror", "flanks-vs-centre", "extra-forces"]
PAIRS = [
    ("heuristic", "heuristic"),
    ("random", "random"),
    ("random", "heuristic"),
    ("heuristic+no-berms", "random"),
    ("heuristic", "random+no-at"),
    ("random+no-rm", "heuristic+no-berms"),
]

needs_numba = pytest.mark.skipif(
    not kernel_games.available(), reason="numba is not installed (kernel unavailable)"
)


def _scenario(name: str) -> Scenario:
    return read_scenario(ROOT / "maps" / "final-act" / f"{name}.json")


def _keys(seed: int, games: int) -> list[int]:
    return [noise.game_key(seed, g) for g in range(games)]


def _replayed(prep: Prepared, policies: tuple[str, str], record: FinalActRecord) -> GameResult:
    """The game of ``record`` played again through the reference engine, round by round
    (checked), the restricted units taken out first as the driver does."""
    game = prep.game
    st = game.initial_state()
    for s, spec in enumerate(policies):
        for r in parse_policy(spec)[1]:
            if r != "no-berms":
                for u in range(len(st.kind)):
                    if st.side[u] == s and st.kind[u] == r[3:]:
                        st.alive[u] = False
    deaths = []
    for n, (orders, shells) in enumerate(record.rounds):
        report = game.play_round(st, orders, shells, record.actions.get(n))
        for u, cell, _by, by_unit in report.knocked_out:
            by = st.kind[by_unit] if by_unit >= 0 else None
            deaths.append(Death(SIDES[st.side[u]], st.kind[u], cell, st.round, by))
    assert st.over, "the record ends before the game does"
    return game_result(st, deaths, None)


def _same_order(result: GameResult) -> GameResult:
    """``result`` with each round's knock-outs in one order: they happen together (the
    kernel lists them by shooter, the reference engine as it resolves the hits)."""

    def key(d: Death) -> tuple[int, str, str, int, str]:
        return (d.round, d.side.value, d.kind, d.cell, d.by_kind or "")

    return dataclasses.replace(result, deaths=tuple(sorted(result.deaths, key=key)))


def _replay_all(scenario: Scenario, policies: tuple[str, str], keys: list[int]) -> list[GameResult]:
    """Kernel games with records, each replayed on the reference engine and required equal
    (``GameResult`` equality leaves the record out); the results with their records."""
    prep = get_driver(scenario.ruleset).prepare(scenario)
    played = list(kernel_games.play_many(prep, policies, keys, record=True))
    assert len(played) == len(keys)
    for i, result in enumerate(played):
        assert isinstance(result.record, FinalActRecord)
        assert result.record.result == {
            "winner": None if result.winner is None else result.winner.value,
            "end": result.end,
            "rounds": result.length,
        }
        again = _replayed(prep, policies, result.record)
        assert _same_order(again) == _same_order(result), (
            f"game {i}: kernel {result!r}, reference engine {again!r}"
        )
    return played


@needs_numba
@pytest.mark.parametrize("name", MAPS)
@pytest.mark.parametrize("policies", PAIRS, ids=["/".join(p) for p in PAIRS])
def test_kernel_games_replay_on_the_reference_engine(name: str, policies: tuple[str, str]) -> None:
    scenario = _scenario(name)
    kinds = {u.kind for u in scenario.units}
    if any(f"no-{kind}" in spec for spec in policies for kind in {"at", "rm"} - kinds):
        pytest.skip("the restriction names a kind this map does not field")
    played = _replay_all(scenario, policies, _keys(11, 40))
    assert {r.end for r in played} & {"goal", "annihilation"}
    assert sum(len(r.deaths) for r in played) > 20  # bloody enough to check the hits


@needs_numba
@pytest.mark.parametrize(
    "options",
    [{"wrecks": False}, {"max_rounds": 4}, {"rm_repair": False}],
    ids=["no-wrecks", "short-limit", "no-repair"],
)
@pytest.mark.parametrize("name", ["mirror", "extra-forces"])
def test_kernel_follows_rule_options(name: str, options: dict[str, object]) -> None:
    scenario = _scenario(name).with_options(**options)  # type: ignore[arg-type]
    for policies in (("heuristic", "heuristic"), ("random", "heuristic")):
        played = _replay_all(scenario, policies, _keys(3, 30))
        if "max_rounds" in options:
            assert max(r.length for r in played) == 4
        if options.get("rm_repair") is False:
            assert all(not r.record.actions for r in played)


@needs_numba
@pytest.mark.parametrize("wrecks", [True, False])
@pytest.mark.parametrize(
    "policies",
    [("heuristic", "heuristic"), ("random", "random"), ("random", "heuristic")],
    ids=["heuristic", "random", "random/heuristic"],
)
def test_kernel_repair_games_replay(policies: tuple[str, str], wrecks: bool) -> None:
    """R/M repair on the Extra Forces map (on by default): the records show both sides'
    agents declaring repairs, the games replay on the reference engine, and with wrecks on
    the heuristic pair leaves an R/M wreck of a hit during a repair."""
    scenario = _scenario("extra-forces").with_options(wrecks=wrecks)
    prep = get_driver(scenario.ruleset).prepare(scenario)
    assert "rm_repair" in prep.game.adv.on
    played = _replay_all(scenario, policies, _keys(17, 80))
    declared = [0, 0]
    rm_wrecks = 0
    for result in played:
        assert result.record is not None
        for acts in result.record.actions.values():
            for u in acts.rm_repair:
                declared[scenario.units[u].side.index] += 1
        st = result.record.replay()  # (FinalActRecord's own replay checks the result too)
        rm_wrecks += sum(k == "rm" and w for k, w in zip(st.kind, st.wreck, strict=True))
    assert min(declared) > 0
    if wrecks and policies == ("heuristic", "heuristic"):
        assert rm_wrecks > 0
    if not wrecks:
        assert rm_wrecks == 0


@needs_numba
def test_records_save_and_load(tmp_path: Path) -> None:
    """A kernel record is an ordinary game record: saved, read back and replayed."""
    scenario = _scenario("extra-forces")
    prep = get_driver(scenario.ruleset).prepare(scenario)
    result = kernel_games.play_many(prep, ("heuristic", "random"), _keys(2, 1), record=True)[0]
    assert result.record is not None
    path = tmp_path / "game.fagame.json"
    result.record.save(str(path))
    loaded = FinalActRecord.load(str(path))
    assert loaded.rounds == result.record.rounds
    assert loaded.result == result.record.result
    assert loaded.replay().round == result.length


@needs_numba
def test_a_game_does_not_depend_on_the_others_of_its_call() -> None:
    """Every game is keyed: playing a few keys, or them among many, or with records, gives
    the same games (small runs and records play on the kernel like large ones)."""
    scenario = _scenario("flanks-vs-centre")
    prep = get_driver(scenario.ruleset).prepare(scenario)
    keys = _keys(21, 300)
    many = list(kernel_games.play_many(prep, ("heuristic", "random"), keys))
    few = list(kernel_games.play_many(prep, ("heuristic", "random"), keys[100:105]))
    recorded = list(kernel_games.play_many(prep, ("heuristic", "random"), keys[:3], record=True))
    assert few == many[100:105]
    assert recorded == many[:3]


@needs_numba
def test_kernel_results_are_well_formed() -> None:
    """What the kernel reports hangs together: ends and winners agree, deaths are within the
    game's rounds, kills match the deaths."""
    scenario = _scenario("extra-forces")
    prep = get_driver(scenario.ruleset).prepare(scenario)
    results = kernel_games.play_many(prep, ("heuristic", "heuristic"), _keys(7, 200))
    limit = prep.game.max_rounds
    for r in results:
        assert 1 <= r.length <= limit
        assert r.end in ("goal", "annihilation", "limit")
        assert r.record is None
        if r.end == "limit":
            assert r.winner is None
        if r.end == "goal" and r.winner is not None:
            assert r.winning_unit is not None
        for d in r.deaths:
            assert 1 <= d.round <= r.length
        lost = {side: sum(d.side is side for d in r.deaths) for side in Side}
        # kills are counted by the side that fired: south's kills are north's losses
        assert r.kills == (lost[Side.NORTH], lost[Side.SOUTH])
    assert {r.end for r in results} >= {"goal"}


@needs_numba
def test_pairwise_sum_is_numpys() -> None:
    """Scores tie and break as in numpy only if sums are added in numpy's order."""
    rng = np.random.default_rng(0)
    for n in [*range(1, 40), 127, 128, 129, 130, 255, 256, 257, 300]:
        a = (rng.random(n) * 10 - 5).astype(np.float64)
        assert kernel_games._pairwise(a, n) == np.sum(a), n


def test_noise_is_one_function_everywhere() -> None:
    keys = np.array(_keys(5, 8), dtype=np.uint64)
    table = noise.uniforms(keys, 30, 12)
    for g, key in enumerate(keys.tolist()):
        for i in range(12):
            u = noise.uniform(key, 30 + i)
            assert table[g, i] == u
            assert 0.0 <= u < 1.0
            if kernel_games.available():
                assert kernel_games._noise(np.uint64(key), 30 + i) == u


@needs_numba
@pytest.mark.parametrize("name", MAPS)
def test_table_rows_from_the_arrays_are_those_of_the_results(name: str) -> None:
    """``runner.result_columns`` reads the kernel's arrays directly (``table_columns``):
    the same rows as from its ``GameResult``s, for every policy pair and restriction."""
    scenario = _scenario(name)
    prep = get_driver(scenario.ruleset).prepare(scenario)
    for policies in PAIRS:
        got = kernel_games.play_many(prep, policies, _keys(5, 120))
        games = range(100, 220)
        direct = result_columns(scenario.board, policies, got, games)
        assert direct == result_columns(scenario.board, policies, list(got), games)
        assert list(direct) == list(COLUMNS)
    empty = kernel_games.play_many(prep, PAIRS[0], [])
    assert result_columns(scenario.board, PAIRS[0], empty, []) == dict.fromkeys(COLUMNS, [])


def test_game_keys_are_distinct_and_take_any_seed() -> None:
    keys = {noise.game_key(seed, g) for seed in (0, 1, 2, 2**64, 2**64 + 1) for g in range(50)}
    assert len(keys) == 250
    assert noise.game_key(2**200, 3) != noise.game_key(2**200 + 2**64, 3)
    with pytest.raises(ValueError):
        noise.game_key(-1, 0)
    for seed in (0, 7, 2**64 + 1, 2**200):  # the vectorised keys are the same keys
        games = [0, 1, 5, 999, 2**40, 2**63 + 3]
        assert noise.game_keys(seed, games) == [noise.game_key(seed, g) for g in games]
    with pytest.raises(ValueError):
        noise.game_keys(0, [3, -1])


def test_noise_is_uniform_enough() -> None:
    """A coarse check that the generator is not broken (mean and spread of 10^5 draws)."""
    keys = np.array(_keys(9, 1000), dtype=np.uint64)
    u = noise.uniforms(keys, 0, 100).ravel()
    assert abs(u.mean() - 0.5) < 0.005
    assert abs(u.var() - 1 / 12) < 0.002
    counts, _ = np.histogram(u, bins=10, range=(0, 1))
    assert counts.min() > 9_700 and counts.max() < 10_300


@needs_numba
@pytest.mark.parametrize("name", MAPS)
def test_search_scores_one_round_as_the_reference_engine(name: str) -> None:
    """The search agent's kernel scoring, with no look-ahead rounds, values the forced
    round exactly as the reference engine's ``apply_round`` + ``agents.search.value``:
    random legal plans (orders and shells of both sides) on positions of seeded games."""
    from tankmap.analysis.simulation.final_act.agents.reference import HeuristicPolicy, RoundView
    from tankmap.analysis.simulation.final_act.agents.search import value
    from tankmap.rules.final_act.engine_advanced import Actions

    scenario = _scenario(name)
    prep = get_driver(scenario.ruleset).prepare(scenario)
    game = prep.game
    rng = np.random.default_rng(4)
    checked = 0
    declared = 0
    for _ in range(3):
        st = game.initial_state()
        players = (HeuristicPolicy(prep, 0), HeuristicPolicy(prep, 1))
        while not st.over:
            rows = []
            for _ in range(12):
                view = RoundView(st, prep)
                orders: list[tuple[int, object] | None] = [None] * len(st.kind)
                shells: dict[int, int] = {}
                for u in st.live():
                    options = st.orders(u)
                    orders[u] = options[int(rng.integers(len(options)))]
                    zone = view.zones[u]
                    if zone and st.can_fire(u, orders[u]) and rng.random() < 0.8:
                        shells[u] = zone[int(rng.integers(len(zone)))]
                fixed = repairs(st, orders, shells, rng)  # type: ignore[arg-type]
                declared += len(fixed)
                rows.append((orders, shells, fixed))
            units = len(st.kind)
            dest = np.tile(np.array(st.cell, dtype=np.int64), (len(rows), 1))
            fac = np.tile(np.array([int(f) for f in st.facing], dtype=np.int64), (len(rows), 1))
            fire = np.full((len(rows), units), -1, dtype=np.int64)
            fix = np.zeros((len(rows), units), dtype=np.bool_)
            for r, (orders, shells, fixed) in enumerate(rows):
                for u, o in enumerate(orders):
                    if o is not None:
                        dest[r, u], fac[r, u] = o[0], int(o[1])  # type: ignore[call-overload]
                for u, c in shells.items():
                    fire[r, u] = c
                fix[r, fixed] = True
            keys = np.arange(len(rows), dtype=np.uint64)
            for me in (0, 1):
                got = lookahead.lookahead_values(prep, st, me, dest, fac, fire, keys, 0, fix)
                for r, (orders, shells, fixed) in enumerate(rows):
                    work = st.copy()
                    game.apply_round(work, orders, shells, Actions(rm_repair=fixed))  # type: ignore[arg-type]
                    assert got[r] == value(work, prep, me), (r, me, st.round)
                    checked += 1
            view = RoundView(st, prep)
            (o0, s0), (o1, s1) = (p.decide(view, rng) for p in players)
            # the heuristic's own repairs and R/M drives (reference policies) make pairs
            acts = Actions()
            if game.adv:
                acts = players[0].act(view, o0, s0, rng).merge(players[1].act(view, o1, s1, rng))
            full: list[tuple[int, object] | None] = [None] * len(st.kind)
            for plan in (o0, o1):
                for u, o in plan.items():
                    full[u] = o
            game.apply_round(st, full, {**s0, **s1}, acts)  # type: ignore[arg-type]
    assert checked > 300
    if name == "extra-forces":  # R/M repair on: repair rounds were scored too
        assert declared > 5
