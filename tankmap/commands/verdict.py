"""``tankmap verdict``: the board's balance verdict, judged at the top of an agent family's
budget climb, with the evidence that a stronger agent would not change it."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tankmap.commands.common import add_option_flag, add_seed_and_workers

EXIT_SECONDS = 1.0
"""What the command needs after its climb's deadline, within ``--time-limit``: stopping the
worker processes (with one worker, the batch of games running may end later), then saving
the verdict and the interpreter's exit (about 0.25 s with pandas, numba and matplotlib
loaded)."""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "verdict",
        help="the board's balance verdict, checked against ever stronger agents",
        description=(
            "Climb one agent family's budgets (B, 2B, 4B, ...) on the board: each rung plays "
            "the new budget against the one before with sides swapped on common seeds (looking"
            " after a fifth, half and all of them: it stops at the first look where the new "
            "budget clearly wins), and "
            "against itself unless it still beats the one before (the first rung plays a fifth"
            " of its self-play, the rest when it is needed or when the second rung might not "
            "fit in the time left). The verdict is converged when"
            " a bigger budget no longer beats the one before (its score's 95 % interval reaches"
            " 0.5 and the score is under 0.55) and the last two rungs' self-play verdicts agree"
            " (the same favoured side, or both even; a side is favoured when the 95 % interval "
            "of the win-rate difference excludes 0, and with fewer than 100 games the answer is"
            " 'undecided'); when the two verdicts differ only by noise (their intervals "
            "overlap), both self-plays go on to twice, then four times --games first. When "
            "--time-limit runs out first, the verdict is not converged, "
            "says what is missing, and is read from the strongest rung played. The same --seed "
            "gives the same trace on any number of workers. The result is remembered for this "
            "board: 'simulate', the reports and the editor show it beside their numbers. The "
            "games played are kept too: judging the board again with the same --seed (after "
            "the time limit, Ctrl-C or SIGTERM, which lose only the games being played; with a "
            "longer --time-limit or not) goes on where the last climb stopped, with the trace one "
            "long enough climb would give. "
            "docs/balance.md explains it."
        ),
    )
    p.add_argument("file", metavar="FILE", help="scenario file or built-in map name")
    p.add_argument(
        "--family",
        metavar="NAME",
        help="the agent family to climb (default: the first '--help-families' lists, "
        "the one whose climb fits the default time limit best)",
    )
    p.add_argument("--help-families", action="store_true", help="list the game's agent families")
    p.add_argument(
        "--games",
        type=int,
        default=200,
        metavar="N",
        help="games per self-play run and per match (default 200; at least 100 for a "
        "decided verdict)",
    )
    p.add_argument(
        "--time-limit",
        type=float,
        default=180.0,
        metavar="SECONDS",
        help="the command's time, counted from its start (default 180): a climb it cuts is "
        "not converged; a cross-check after the climb uses what is left of it. With two or "
        "more --workers the games still running at the limit are left unfinished (the next "
        "run plays them again); with one, at the next decision of the game in progress",
    )
    p.add_argument(
        "--no-cross-check",
        action="store_true",
        help="skip the self-play of a family of the other kind (independent of the "
        "heuristic, or based on it) that checks the verdict",
    )
    p.add_argument(
        "--fresh",
        action="store_true",
        help="play every game again instead of taking those kept from earlier verdicts of "
        "this board (they are replaced)",
    )
    add_seed_and_workers(
        p,
        depends="the trace does not depend on it, but how far a climb gets within "
        "--time-limit does",
    )
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument(
        "--out",
        metavar="DIR",
        help="also write verdict.html, trace.png and verdict.json there"
        " (DIR must be new, empty or an earlier report of this command, which is"
        " replaced whole)",
    )
    add_option_flag(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:

    from tankmap.analysis.simulation.agent_info import describe
    from tankmap.analysis.simulation.families import families
    from tankmap.analysis.verdict.cache import save_verdict, stronger_kept, verdict_line
    from tankmap.analysis.verdict.climb import run_verdict
    from tankmap.analysis.verdict.played import PlayedGames
    from tankmap.commands.common import (
        MAX_GAMES,
        MAX_SEED,
        check_range,
        draw_bar,
        load,
        prepare_out_dir,
        print_json,
        require_playable,
        worker_count,
    )
    from tankmap.rules.errors import TankmapError, printable
    from tankmap.rules.geometry import Side
    from tankmap.rules.registry import get_ruleset

    scenario = load(args.file, args.option)
    if args.help_families:
        for f in families(scenario.ruleset):
            kind = "independent of the heuristic" if f.independent else "heuristic-based"
            print(
                f"{f.name:12} budgets {f.base}..{f.limit} ({kind}); "
                f"{describe(scenario.ruleset, f.name)}"
            )
        return 0
    require_playable(scenario, args.file)
    check_range(args.games, 2, MAX_GAMES, "--games")
    check_range(args.seed, 0, MAX_SEED, "--seed")
    if not 0 < args.time_limit <= 7 * 24 * 3600:
        raise TankmapError(
            "--time-limit takes seconds, more than 0 and at most a week (604800), not "
            f"{args.time_limit:g}"
        )
    workers = worker_count(args.workers, args.scheduler, "verdict")
    if args.out:
        prepare_out_dir(args.out, "verdict")
    show = sys.stderr.isatty()

    def bar(stage: str, done: int, total: int) -> None:
        if show:
            draw_bar(f"verdict {stage}", done, total)

    names = get_ruleset(scenario.ruleset).side_names()
    sides = (names[Side.SOUTH], names[Side.NORTH])
    store = PlayedGames.of(scenario, fresh=args.fresh)
    try:
        result = run_verdict(
            scenario,
            args.family,
            seed=args.seed,
            games=args.games,
            time_limit=args.time_limit,
            workers=workers,
            scheduler=args.scheduler,
            cross_check=not args.no_cross_check,
            progress=bar,
            store=store,
            started=getattr(args, "started", None),
            finish=EXIT_SECONDS,
        )
    except (KeyboardInterrupt, SystemError) as exc:  # Ctrl-C or SIGTERM (tankmap.cli)
        if show:
            sys.stderr.write("\n")
        if store.count():  # (the climb kept the games finished, up to the batches running)
            exc.add_note(f"{store.count()} games kept: judge the board again to go on")
        raise
    if show:
        sys.stderr.write("\n")
    doc = {"file": args.file, "ruleset": scenario.ruleset, **result.to_json()}
    saved = save_verdict(scenario, doc)
    if saved is not None:
        doc["saved"] = str(saved)
    kept = stronger_kept(scenario, doc)
    note = (
        None
        if kept is None
        else "not remembered: the board keeps a verdict resting on more games and rungs ("
        + verdict_line(kept, sides).removeprefix("verdict: ")
        + "), which simulate, the reports and the editor go on showing"
    )
    if args.out:
        from tankmap.analysis.staged_folder import staged_folder
        from tankmap.analysis.verdict.report import write_verdict_report
        from tankmap.commands.common import final_path

        title = scenario.title or args.file
        with staged_folder(args.out, "verdict") as stage:
            doc["report"] = final_path(args.out, write_verdict_report(doc, title, sides, stage))
    if args.json:
        print_json(doc)
        return 0
    print(text_report(doc, printable(args.file, 200), sides))
    if note is not None:
        print(f"  {note}")
    return 0


def win_rate_text(doc: dict[str, Any], side: str, shown: str) -> str:
    """``"South 0.525 [0.456, 0.593]"``: a side's self-play win rate with its 95 % interval
    (the rate alone in a document without ``win_rate_ci95``)."""
    rate = f"{shown} {doc['win_rate'][side]:.3f}"
    ci = (doc.get("win_rate_ci95") or {}).get(side)
    return f"{rate} [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else rate


def cross_check_text(cc: dict[str, Any]) -> str:
    """The cross-check as the text report says it: its agent's self-play (games, balance
    with its 95 % interval, when played) and whether it agrees."""
    from tankmap.analysis.estimates import games_text

    if not cc.get("games"):
        return f"{cc['agent']}: {cc['reason']}"
    shown = f"{cc['agent']} self-play, {games_text(cc['games'])}"
    if cc.get("balance") is not None:
        lo, hi = cc["balance_ci95"]
        shown += f", balance {cc['balance']:.3f} [{lo:.3f}, {hi:.3f}]"
    return f"{shown}: {cc['reason']}"


def text_report(doc: dict[str, Any], name: str, sides: tuple[str, str]) -> str:
    """The verdict as lines of text (the command's output without --json)."""
    from tankmap.analysis.estimates import games_text
    from tankmap.analysis.verdict.rule import state_text, unplayed_text

    side = {"south": sides[0], "north": sides[1]}
    fav = doc["favoured"]
    headline = f"{side[fav]} FAVOURED" if fav in side else fav.upper()
    state = state_text(doc)
    lo, hi = doc["balance_ci95"]
    played = (
        f"{games_text(doc['games'])}, seed {doc['seed']}: "
        f"{win_rate_text(doc, 'south', sides[0])}, {win_rate_text(doc, 'north', sides[1])}, "
        f"draws {doc['draws']:.3f}; balance {doc['balance']:.3f} [{lo:.3f}, {hi:.3f}]"
        if doc["games"]
        else f"no game finished yet, seed {doc['seed']}"
    )
    lines = [
        f"{name}: {headline} ({state})",
        f"  {doc['agent']} self-play, {played}",
        f"  why: {doc['reason']}",
        "  rung              games  favours   balance [95%]            score vs previous [95%]",
    ]
    for t in doc["trace"]:
        score = (
            f"{t['score_vs_previous']:.3f} [{t['score_ci95'][0]:.3f}, {t['score_ci95'][1]:.3f}]"
            if t["score_vs_previous"] is not None
            else "-"
        )
        if t["balance"] is None:  # no self-play: not needed, or not played in time
            why = "(not needed)" if unplayed_text(t).startswith("not needed") else "(not played)"
            lines.append(f"  {t['agent']:16} {'-':>6}  {'-':9} {why:24} {score}")
            continue
        blo, bhi = t["balance_ci95"]
        lines.append(
            f"  {t['agent']:16} {t['games']:6}  {side.get(t['favoured'], t['favoured']):9} "
            f"{t['balance']:.3f} [{blo:.3f}, {bhi:.3f}]     {score}"
        )
    cc = doc.get("cross_check")
    if cc:
        lines.append(f"  cross-check: {cross_check_text(cc)}")
    reused = doc.get("reused_games", 0)
    kept = f" ({reused} games taken from earlier verdicts of this board)" if reused else ""
    lines.append(f"  {doc['seconds']:.0f} s{kept}")
    if doc.get("report"):
        lines.append(f"  report: {doc['report']}")
    return "\n".join(lines)
