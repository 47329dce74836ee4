"""``tankmap ladder``: agents of rising strength on one board, their Elo, and whether the
board's balance verdict holds up under stronger play."""

from __future__ import annotations

import argparse
from typing import Any

from tankmap.commands.common import add_option_flag, add_seed_and_workers


def register(sub: Any) -> None:
    p = sub.add_parser(
        "ladder",
        formatter_class=_AgentsHelp,
        help="rate agents by strength and check the balance verdict against them",
        description=(
            "Play every pair of agents on the board with sides swapped (half the games "
            "each way), fit Elo ratings with 95 % intervals, and play each agent against "
            "itself for the board's balance under that agent, with the kind of play behind "
            "it (median length, units lost per game, share of games decided by reaching the "
            "goal, and of those with no unit lost). Elo is anchored at the heuristic (0); a "
            "clean sweep is reported as such, not as a rating. The verdict-stability line "
            "applies the verdict rule to the two strongest agents: stable when the strongest "
            "no longer beats the second and both favour the same side (or both call it even) "
            "on at least 100 games each; 'tankmap verdict' climbs one agent's budgets to a "
            "converged verdict. "
            "Reproducible from --seed for any --workers. The result is remembered for this "
            "board, so 'tankmap simulate' and the editor can say how strong their agent is "
            "here. docs/balance.md explains the numbers."
        ),
    )
    p.add_argument("file", metavar="FILE", help="scenario file or built-in map name")
    p.add_argument(
        "--agents",
        metavar="A,B,...",
        help=f"comma-separated agents (default, weakest first: {DEFAULTS_MARK}; "
        "'tankmap ladder FILE --help-agents' lists every agent of the game, e.g. uct)",
    )
    p.add_argument(
        "--help-agents", action="store_true", help="list the game's agents with a line each"
    )
    p.add_argument(
        "--games",
        type=int,
        default=100,
        metavar="N",
        help="games per pairing and per self-play run (default 100)",
    )
    add_seed_and_workers(p)
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument(
        "--out",
        metavar="DIR",
        help="also write ladder.html, elo.png and ladder.json there"
        " (DIR must be new, empty or an earlier report of this command, which is"
        " replaced whole)",
    )
    add_option_flag(p)
    p.set_defaults(handler=run)


DEFAULTS_MARK = "<the default agents of each game>"
"""Stands in ``--agents``' help for ``default_agents_text()``, filled in only when the
help is shown (the agents' table imports numpy: ``tankmap --help`` stays fast)."""


def default_agents_text() -> str:
    """Each game's default ladder, from ``default_agents`` (what ``run`` plays):
    "final-act: random,heuristic,search,ksearch; tank-chess: ..."."""
    from tankmap.analysis.simulation.agent_info import default_agents
    from tankmap.analysis.simulation.games import NoDriverError
    from tankmap.rules.registry import ruleset_names

    lines = []
    for name in ruleset_names():
        try:
            lines.append(f"{name}: {','.join(default_agents(name))}")
        except NoDriverError:  # a ruleset that cannot be played has no ladder
            continue
    return "; ".join(lines)


class _AgentsHelp(argparse.HelpFormatter):
    """The ladder's help, with ``DEFAULTS_MARK`` replaced by ``default_agents_text()``."""

    def _expand_help(self, action: argparse.Action) -> str:
        text = super()._expand_help(action)
        return text.replace(DEFAULTS_MARK, default_agents_text()) if DEFAULTS_MARK in text else text


def run(args: argparse.Namespace) -> int:

    from tankmap.analysis.ladder import elo_words, run_ladder
    from tankmap.analysis.ladder_cache import save_ladder
    from tankmap.analysis.simulation.agent_info import default_agents, describe
    from tankmap.commands.common import (
        MAX_GAMES,
        MAX_SEED,
        check_range,
        load,
        prepare_out_dir,
        print_json,
        require_playable,
        terminal_bar,
        worker_count,
    )
    from tankmap.rules.registry import get_ruleset

    scenario = load(args.file, args.option)
    if args.help_agents:
        for name in default_agents(scenario.ruleset, everything=True):
            print(f"{name:16} {describe(scenario.ruleset, name)}")
        return 0
    require_playable(scenario, args.file)
    agents = args.agents.split(",") if args.agents else default_agents(scenario.ruleset)
    check_range(args.games, 2, MAX_GAMES, "--games")
    check_range(args.seed, 0, MAX_SEED, "--seed")
    workers = worker_count(args.workers, args.scheduler, "ladder")
    if args.out:
        prepare_out_dir(args.out, "ladder")
    bar, finish = terminal_bar("ladder")

    result = run_ladder(
        scenario,
        agents,
        args.games,
        seed=args.seed,
        workers=workers,
        scheduler=args.scheduler,
        progress=bar,
    )
    finish()
    doc = result.to_json()
    doc["file"] = args.file
    doc["ruleset"] = scenario.ruleset
    for entry in doc["agents"]:
        entry["description"] = describe(scenario.ruleset, entry["name"])
    saved = save_ladder(scenario, doc)  # simulate and the editor quote it for this board
    if saved is not None:
        doc["saved"] = str(saved)
    if args.out:
        from tankmap.analysis.ladder_report import write_ladder_report
        from tankmap.analysis.staged_folder import staged_folder
        from tankmap.commands.common import final_path

        with staged_folder(args.out, "ladder") as stage:
            doc["report"] = final_path(args.out, write_ladder_report(doc, scenario, stage))
    if args.json:
        print_json(doc)
        return 0
    names = {side.value: name for side, name in get_ruleset(scenario.ruleset).side_names().items()}
    print(
        f"{args.file}: ladder of {len(agents)} agents, {args.games} games per run, seed {args.seed}"
    )
    elos = []
    for entry in doc["agents"]:
        lo, hi = entry["elo_ci95"]
        words = elo_words(entry, doc["anchor"])
        if entry["name"] == doc["anchor"]:
            elos.append(f"{0:6.0f}  ({words})")
        else:
            elos.append(words or f"{entry['elo']:6.0f}  [{lo:6.0f}, {hi:6.0f}]")
    width = max(28, *(len(e) for e in elos))  # a long "swept by ..." widens the column
    print(
        f"  agent          {'   Elo  [95% interval]'.ljust(width)}   self-play balance [95%]"
        "   favours    median length  lost/game  races (decided by reaching the goal)"
    )
    for entry, elo, sp in zip(doc["agents"], elos, doc["balance"], strict=True):
        blo, bhi = sp["ci95"]
        print(
            f"  {entry['name']:14} {elo.ljust(width)}   "
            f"{sp['balance']:.3f} [{blo:.3f}, {bhi:.3f}]        "
            f"{names.get(sp['favoured'], sp['favoured']):9}"
            f"  {sp['median_length']:13}  {sp['units_lost_per_game']:9.2f}  "
            f"{sp['race_share']:5.0%} ({sp['race_no_loss_share']:.0%} with no loss)"
        )
    print(
        f"  Elo 0 = {doc['anchor']}; an agent whose every match was a clean sweep has no "
        "measured Elo (the fit's prior alone would set it)"
    )
    settled = "settle" if doc["stable"] else "do NOT settle"
    print(f"  the two strongest agents {settled} the board: {doc['stability']['reason']}")
    from tankmap.analysis.simulation.agent_info import verdict_entry

    print(f"  {verdict_entry(scenario)['verdict_line']}")  # the board's, by its own climb
    if args.out:
        print(f"  report: {doc['report']}")
    return 0
