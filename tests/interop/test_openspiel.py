"""The three games as OpenSpiel games: OpenSpiel's own consistency checks on the built-in
maps, serialization, and OpenSpiel's MCTS bot playing Tank Chess basic-16 to the end."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import tankmap.analysis.openspiel  # noqa: E402  (registers the games)
from tankmap.rules.fileformat import read_scenario  # noqa: E402
from tankmap.rules.tank_chess.state import initial_state  # noqa: E402

GAMES = [
    ("tankmap_tank_chess", "tank-chess/basic-16"),
    ("tankmap_tank_chess", "tank-chess/sample-20"),
    ("tankmap_final_act", "final-act/mirror"),
    ("tankmap_final_act", "final-act/flanks-vs-centre"),
    ("tankmap_final_act", "final-act/extra-forces"),
    ("tankmap_tank_wars", "tank-wars/default"),
    ("tankmap_tank_wars", "tank-wars/flank-artillery"),
]


@pytest.mark.parametrize("name, scenario", GAMES)
def test_openspiel_random_simulation_and_serialization(name: str, scenario: str) -> None:
    game = pyspiel.load_game(name, {"scenario": scenario})
    sims = 3 if name == "tankmap_tank_wars" else 1
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_game_types_and_returns() -> None:
    chess = pyspiel.load_game("tankmap_tank_chess")
    assert chess.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    fa = pyspiel.load_game("tankmap_final_act")
    assert fa.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    tw = pyspiel.load_game("tankmap_tank_wars")
    assert tw.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    s = tw.new_initial_state()
    assert s.is_chance_node() and sum(p for _, p in s.chance_outcomes()) == pytest.approx(1)
    for g in (chess, fa, tw):
        assert (g.min_utility(), g.max_utility()) == (-1.0, 1.0)


def test_tank_chess_actions_compose_the_engines_legal_turns() -> None:
    """Every (piece, end, shot) action triple is one legal turn of the rules engine, and
    every legal turn is reachable: the counts agree on the opening position."""
    game = pyspiel.load_game("tankmap_tank_chess", {"scenario": "tank-chess/basic-16"})
    s = game.new_initial_state()
    triples = 0
    for a in s.legal_actions():
        s1 = s.child(a)
        for b in s1.legal_actions():
            triples += len(s1.child(b).legal_actions())
    from pathlib import Path

    maps = Path(tankmap.analysis.openspiel.__file__).resolve().parents[2] / "maps"
    engine = initial_state(read_scenario(maps / "tank-chess" / "basic-16.json"))
    assert triples == len(engine.legal_turns()) == 549  # perft(1) of basic-16


def test_final_act_pending_orders_stay_secret() -> None:
    game = pyspiel.load_game("tankmap_final_act")
    s = game.new_initial_state()
    rng = np.random.default_rng(3)
    s.apply_actions([int(rng.choice(s.legal_actions(p))) for p in (0, 1)])
    mine, theirs = s.information_state_string(0), s.information_state_string(1)
    assert mine != theirs
    other = game.new_initial_state()
    other.apply_actions([s.history()[0], int(s.legal_actions(1)[0])])
    assert other.information_state_string(0) == mine  # north's choice is not visible


def test_mcts_bot_plays_tank_chess_basic_16_to_the_end() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("tankmap_tank_chess", {"scenario": "tank-chess/basic-16"})
    rng = np.random.RandomState(1)
    # short rollouts, more simulations: the game ends in about 200 plies (with 8
    # simulations of 30-step rollouts it took 680 plies and 20 s)
    evaluator = mcts.RandomRolloutEvaluator(1, rng, max_length=10)
    bot = mcts.MCTSBot(game, 2.0, 16, evaluator, random_state=np.random.RandomState(2))
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
        else:
            action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
    assert state.returns()[0] == 1.0  # the searching side beats a random player


def test_missing_open_spiel_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "try:\n    import tankmap.analysis.openspiel\n"
        "except Exception as e:\n    print(type(e).__name__, e)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == (
        "MissingExtraError OpenSpiel support is an optional part of tankmap; "
        "install it with pip install 'tankmap[openspiel]'"
    )


def test_the_interop_guide_s_mcts_example_prints_what_its_comment_says() -> None:
    """docs/interop.md's example played an unseeded random opponent, so its printed
    returns changed from run to run (a reader got [-1.0, 1.0] two times in five)."""
    import re
    from pathlib import Path

    guide = Path(__file__).resolve().parents[2] / "docs" / "interop.md"
    blocks = re.findall(r"```python\n(.*?)```", guide.read_text(encoding="utf-8"), re.S)
    example = next(b for b in blocks if "MCTSBot" in b)
    said = re.search(r"print\(state\.returns\(\)\)  # (\[[^\]]*\])", example)
    assert said is not None
    run = subprocess.run(
        [sys.executable, "-c", example], capture_output=True, text=True, timeout=300, check=True
    )
    assert run.stdout.strip() == said.group(1)
