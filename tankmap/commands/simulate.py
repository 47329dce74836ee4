"""``tankmap simulate``: seeded playouts and balance statistics (docs/cli-json.md ``simulate``)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tankmap.commands.common import add_option_flag, add_seed_and_workers


def register(sub: Any) -> None:
    p = sub.add_parser(
        "simulate",
        help="play many seeded games and report win rates and balance",
        description=(
            "Play seeded games of a scenario with the given policies and report win and "
            "draw rates (Wilson 95 percent intervals), balance = 1 - |south - north| (Tank "
            "Chess: White and Black), game lengths, losses and heat maps. The same --seed "
            "gives the same numbers whatever --workers or --scheduler."
        ),
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--games", type=int, default=200, metavar="N", help="games (default 200)")
    p.add_argument(
        "--policy",
        default=None,
        metavar="P",
        help="agent for both sides: random, heuristic, search[:N]; Tank Chess also "
        "alphabeta[:N] and uct[:N], Final Act ksearch[:N] and duct[:N], Tank Wars plan[:N] "
        "and "
        "regret[:N]; add restrictions like heuristic+no-berms or heuristic+no-at. Default: "
        "the first verdict family's everyday agent (Final Act search, Tank Chess alphabeta, "
        "Tank Wars regret), whatever "
        "--games; a run that will take long "
        "says how long once its first games are done. 'tankmap ladder FILE --help-agents' "
        "describes each",
    )
    p.add_argument(
        "--south",
        "--white",
        dest="south",
        metavar="P",
        help="policy of south (Tank Chess: White; overrides --policy)",
    )
    p.add_argument(
        "--north",
        "--black",
        dest="north",
        metavar="P",
        help="policy of north (Tank Chess: Black; overrides --policy)",
    )
    add_seed_and_workers(p)
    p.add_argument(
        "--until-ci",
        type=float,
        metavar="W",
        help="keep playing --games more at a time until both sides' win-rate intervals are "
        "narrower than W, their full width (upper end minus lower end; e.g. 0.05 = about "
        "+/-0.025), or --max-games is reached",
    )
    p.add_argument(
        "--max-games",
        type=int,
        metavar="N",
        help=f"with --until-ci: play at most N games in all, the first --games included "
        f"(N below --games plays N; default {MAX_UNTIL_CI:,}); refused without --until-ci",
    )
    p.add_argument(
        "--record",
        metavar="PATH",
        help="also save the first game's record (orders/turns, replayable) as JSON; an "
        "existing PATH is refused (checked before the games are played) unless --force",
    )
    p.add_argument("--force", action="store_true", help="overwrite the --record PATH if it exists")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument(
        "--out",
        metavar="DIR",
        help="write report.html, charts and games.csv"
        " (DIR must be new, empty or an earlier report of this command, which is"
        " replaced whole)",
    )
    add_option_flag(p)
    p.set_defaults(handler=run)


MAX_UNTIL_CI = 200_000
"""``--max-games`` when ``--until-ci`` is given without it."""


def run(args: argparse.Namespace) -> int:
    from tankmap.analysis.simulation.agent_info import agents_entry
    from tankmap.analysis.simulation.batching import FAST_AGENTS, progress_batch
    from tankmap.analysis.simulation.games import get_driver
    from tankmap.analysis.simulation.runner import (
        fallback_note,
        simulate,
    )
    from tankmap.analysis.simulation.stats import summary
    from tankmap.commands.common import (
        MAX_SEED,
        check_range,
        claim_output,
        load,
        parse_option_args,
        prepare_out_dir,
        require_playable,
        terminal_bar,
        worker_count,
    )
    from tankmap.rules.errors import TankmapError
    from tankmap.rules.registry import get_ruleset

    scenario = load(args.file, args.option)
    ruleset = get_ruleset(scenario.ruleset)
    require_playable(scenario, args.file)
    check_range(args.seed, 0, MAX_SEED, "--seed")
    games, max_games = _game_counts(args)
    args.workers = worker_count(args.workers, args.scheduler, "simulate")
    if args.out:
        prepare_out_dir(args.out, "simulate")  # before the games: results are never lost at the end
    # before the games: an existing file (without --force) or an unwritable folder
    record_target = claim_output(args.record, args.force) if args.record else None
    chosen: tuple[str, str] | None = None
    if args.policy is None and not (args.south and args.north):
        from tankmap.analysis.simulation.agent_info import default_agent

        chosen = default_agent(scenario)
    default = args.policy or (chosen[0] if chosen else "heuristic")
    south = args.south or default
    north = args.north or default
    fallback = fallback_note(scenario, (south, north))
    if fallback:
        sys.stderr.write(f"simulate: {fallback}\n")
    bar, finish = terminal_bar("simulate")
    bar = _with_estimate(bar, (south, north), args.workers)
    batch = None  # fast agents: the runner's own (big, vectorised) tasks
    agents = {p.split("+")[0].split(":")[0] for p in (south, north)}
    if not agents <= FAST_AGENTS or fallback:
        # slow agents: a game or a few per task, so the bar and its time left move per game
        driver_batch = int(getattr(get_driver(scenario.ruleset), "batch_size", 20))
        batch = progress_batch(scenario, games, (south, north), driver_batch)

    df = simulate(
        scenario,
        games,
        (south, north),
        seed=args.seed,
        workers=args.workers,
        scheduler=args.scheduler,
        until_ci=args.until_ci,
        max_games=max_games,
        batch_size=batch,
        progress=bar,
    )
    finish()
    if len(df) >= 2:  # the editor's estimates and defaults follow the measured pace
        from tankmap.analysis.simulation.pace import remember_pace

        remember_pace(scenario, (south, north), df.attrs["seconds"] * args.workers / len(df))
    doc = summary(df, alternating=scenario.ruleset == "tank-chess")
    doc["agents"] = agents_entry(scenario, (south, north))
    doc["verdict"] = doc["agents"]["verdict"]  # the board's remembered verdict, if any
    doc["file"] = args.file
    doc["ruleset"] = scenario.ruleset
    doc["provisional"] = ruleset.provisional
    doc["options"] = parse_option_args(ruleset, args.option)  # with FILE: the run again
    if fallback:
        doc["fallback"] = fallback
    if chosen is not None:
        doc["default_agent"] = {"name": chosen[0], "reason": chosen[1]}
    failed: list[str] = []  # a write that fails after the games: results printed anyway
    if record_target is not None:
        from tankmap.analysis.simulation.runner import record_game

        _result, rec = record_game(scenario, (south, north), seed=args.seed, game=0)
        try:
            rec.save(record_target)
            doc["record"] = args.record
        except TankmapError as exc:
            failed.append(str(exc))
    if args.out:
        from tankmap.analysis.simulation.report import write_report
        from tankmap.analysis.staged_folder import staged_folder
        from tankmap.commands.common import final_path

        try:
            with staged_folder(args.out, "simulate") as stage:
                doc["report"] = final_path(args.out, write_report(df, scenario, doc, stage))
        except TankmapError as exc:
            failed.append(str(exc))
    if failed:
        doc["write_error"] = failed[0]
    code = _show(args, doc, ruleset, south, north)
    if failed:
        raise TankmapError(f"the games were played but {failed[0]}")
    return code


def _game_counts(args: argparse.Namespace) -> tuple[int, int]:
    """The games of the first batch and the cap of ``--until-ci``: ``--max-games`` (else
    ``MAX_UNTIL_CI``), and ``--games`` cut to it. ``TankmapError`` for a count out of
    range, or ``--max-games`` without ``--until-ci`` (it would be ignored)."""
    from tankmap.commands.common import MAX_GAMES, check_range
    from tankmap.rules.errors import TankmapError

    check_range(args.games, 1, MAX_GAMES, "--games")
    if args.max_games is None:
        return args.games, MAX_UNTIL_CI
    if args.until_ci is None:
        raise TankmapError(
            f"--max-games only applies with --until-ci (without it --games {args.games} are played)"
        )
    check_range(args.max_games, 1, MAX_GAMES, "--max-games")
    return min(args.games, args.max_games), args.max_games


LONG_RUN = 20.0
"""A run whose games will take longer than this (seconds) says so once its first are done."""


def _with_estimate(
    bar: Any, policies: tuple[str, str], workers: int, terminal: bool | None = None
) -> Any:
    """``bar`` that also prints, once, how long the run will take when that is more than
    ``LONG_RUN`` seconds, at the pace of its first games (instead of switching agents).
    Like the progress bar, only on a terminal (``terminal``: whether stderr is one; by
    default asked), so that scripts reading stderr get only errors."""
    import time

    from tankmap.analysis.simulation.batching import time_left
    from tankmap.commands.common import format_seconds

    started = time.monotonic()
    said = [not (sys.stderr.isatty() if terminal is None else terminal)]
    slower = any(p.split("+")[0].split(":")[0] != "heuristic" for p in policies)
    advice = "; --policy heuristic is far faster" if slower else ""

    def tick(done: int, total: int) -> None:
        now = time.monotonic()
        left = time_left(done, total, now, started, None)
        if not said[0] and left is not None and done < total and now - started >= 1.0:
            said[0] = True
            if left > LONG_RUN:
                agents = policies[0] if policies[0] == policies[1] else " vs ".join(policies)
                sys.stderr.write(
                    f"\rsimulate: about {format_seconds(left)} more for {total} games of "
                    f"{agents} on {workers} worker{'s' if workers > 1 else ''} (the pace "
                    f"of the first {done}){advice}\n"
                )
        bar(done, total)

    return tick


def _show(
    args: argparse.Namespace, doc: dict[str, Any], ruleset: Any, south: str, north: str
) -> int:
    from tankmap.analysis.estimates import games_text
    from tankmap.analysis.simulation.agent_info import strength_text
    from tankmap.commands.common import print_json

    if args.json:
        print_json(doc)
        return 0
    names = {side.value: name for side, name in ruleset.side_names().items()}
    width = max(len(n) for n in names.values())
    note = " (provisional rules)" if ruleset.provisional else ""
    given = "".join(f", --option {name}={_word(v)}" for name, v in doc["options"].items())
    print(f"{args.file}: {doc['games']} games, seed {doc['seed']}, {south} vs {north}{given}{note}")
    for side in ("south", "north"):
        agent = doc["agents"][side]
        print(f"  {names[side]} agent: {agent_line(agent['name'], agent['description'])}")
        print(f"    ({strength_text(agent)})")
    if "default_agent" in doc:
        chosen = doc["default_agent"]
        print(f"  default agent {chosen['name']}: {chosen['reason']} (--policy picks another)")
    print(f"  {doc['agents']['verdict_line']}")
    if doc["agents"]["verdict_disagreement"]:
        print(f"  warning: {doc['agents']['verdict_disagreement']}")
    if doc["agents"]["verdict_warning"]:
        print(f"  warning: {doc['agents']['verdict_warning']}")
    for side in ("south", "north"):
        r = doc["win_rate"][side]
        lo, hi = r["ci95"]
        who = f"{names[side]} wins".ljust(width + 5)
        print(f"  {who} {doc['wins'][side]:6}  {r['estimate']:.4f}  [{lo:.4f}, {hi:.4f}]")
    print(f"  {'draws'.ljust(width + 5)} {doc['draws']:6}")
    blo, bhi = doc["balance_ci95"]
    print(
        f"  balance {doc['balance']:.4f} [{blo:.4f}, {bhi:.4f}] ({south} vs {north}, "
        f"{games_text(doc['games'])}); length mean {doc['length']['mean']}, median "
        f"{doc['length']['median']}; {doc['playouts_per_second']:.1f} playouts/s"
    )
    if "first_mover" in doc:
        fm = doc["first_mover"]
        print(f"  first mover wins {fm['estimate']:.4f} [{fm['ci95'][0]:.4f}, {fm['ci95'][1]:.4f}]")
    if "report" in doc:
        print(f"  report: {doc['report']}")
    return 0


def _word(value: Any) -> str:
    """An option's value as ``--option`` takes it (``true``, not ``True``).

    >>> _word(True), _word(2), _word("any")
    ('true', '2', 'any')
    """
    return str(value).lower() if isinstance(value, bool) else str(value)


def agent_line(name: str, description: str) -> str:
    """The agent played, then what it does: ``"search (search[:N]) — plans …"`` names the
    agent as asked for before the description's generic head.

    >>> agent_line("search", "search[:N] — plans each round")
    'search (search[:N]) — plans each round'
    >>> agent_line("heuristic", "heuristic — rule of thumb")
    'heuristic — rule of thumb'
    """
    head, sep, rest = description.partition(" — ")
    if not sep or head == name:
        return description
    return f"{name} ({head}) — {rest}"
