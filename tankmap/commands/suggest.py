"""``tankmap suggest``: legal terrain edits that bring the board's balance toward even."""

from __future__ import annotations

import argparse
from typing import Any

from tankmap.commands.common import add_option_flag, add_seed_and_workers


def register(sub: Any) -> None:
    p = sub.add_parser(
        "suggest",
        help="suggest legal terrain edits that even the balance",
        description=(
            "Search single-piece terrain edits (shift a berm, swamp, minefield or obstacle by "
            "up to two cells, turn it, move a minefield's lane; Tank Chess also removes "
            "obstacles) that the rules allow and that keep the board legal and complete; "
            "steer by terrain-only turns to goal, screen with playouts of the agent paired "
            "with the current board on common seeds, and re-measure the best few on fresh "
            "seeds. An edit is listed only when the interval of the balance it gains excludes "
            "0 at a level that guards against picking noise among them (Bonferroni over the "
            "re-measured ones); otherwise the answer is 'no edit found that evens the board "
            "beyond noise'. docs/design-assistant.md explains the search."
        ),
    )
    p.add_argument("file", metavar="FILE", help="scenario file or built-in map name")
    p.add_argument(
        "--agent",
        default=None,
        help="agent playing both sides (default: the everyday agent of the game's verdict "
        "family when the search fits --budget at its pace on this board, else heuristic)",
    )
    p.add_argument(
        "--confirm-with",
        metavar="AGENT",
        help="re-measure the listed edits with this agent too (paired, 95 %%), e.g. the "
        "verdict's agent after a heuristic search",
    )
    p.add_argument(
        "--games", type=int, default=400, metavar="N", help="games per measured board (default 400)"
    )
    p.add_argument(
        "--budget",
        type=float,
        default=240.0,
        metavar="SECONDS",
        help="time for the search (default 240): how many candidates are played is planned "
        "from the agent's pace on this board so that the search fits it",
    )
    p.add_argument(
        "--keep-symmetry",
        action="store_true",
        help="apply every edit to the other side's mirrored piece too",
    )
    p.add_argument(
        "--units",
        action="store_true",
        help="also move units' set-up positions (one unit one cell per edit)",
    )
    p.add_argument("--top", type=int, default=3, metavar="K", help="suggestions (default 3)")
    add_seed_and_workers(
        p,
        scheduler=False,
        depends="a board's numbers do not depend on it, but how many candidates fit "
        "--budget does (two processes are planned as 1.75 times one)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument(
        "--out",
        metavar="DIR",
        help="also write each suggested board as DIR/suggestion-K.json and the whole result"
        " as DIR/suggest.json"
        " (DIR must be new, empty or an earlier report of this command, which is"
        " replaced whole)",
    )
    add_option_flag(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:

    from tankmap.analysis.simulation.agent_info import verdict_entry
    from tankmap.analysis.simulation.runner import check_policies
    from tankmap.analysis.suggest import suggest
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
    from tankmap.rules.errors import TankmapError
    from tankmap.rules.fileformat import write_scenario
    from tankmap.rules.registry import get_ruleset

    scenario = load(args.file, args.option)
    check_range(args.games, 10, MAX_GAMES, "--games")
    check_range(args.seed, 0, MAX_SEED, "--seed")
    check_range(args.top, 1, 20, "--top")
    if not 1 <= args.budget <= 24 * 3600:
        raise TankmapError(f"--budget must be between 1 and 86400 seconds, not {args.budget}")
    workers = worker_count(args.workers, None, "suggest")
    require_playable(scenario, args.file)
    # both agents before the search (--confirm-with plays only once edits are listed)
    check_policies(scenario, [a for a in (args.agent, args.confirm_with) if a is not None])
    if args.out:
        prepare_out_dir(args.out, "suggest")
    bar, finish = terminal_bar("suggest")
    result = suggest(
        scenario,
        args.agent,
        args.games,
        args.budget,
        args.seed,
        args.keep_symmetry,
        workers,
        args.top,
        bar,
        units=args.units,
        confirm_agent=args.confirm_with,
    )
    finish()
    doc = result.to_json()
    doc["file"] = args.file
    doc.update(verdict_entry(scenario))  # the board's remembered verdict, as simulate shows it
    doc["verdict_clash"] = side_clash(doc, get_ruleset(scenario.ruleset).side_names())
    if args.out:
        import json

        from tankmap.analysis.outputs import save_text
        from tankmap.analysis.staged_folder import staged_folder
        from tankmap.commands.common import final_path

        with staged_folder(args.out, "suggest") as stage:
            for k, (edit, _m) in enumerate(result.suggestions, 1):
                path = stage / f"suggestion-{k}.json"
                write_scenario(suggested_board(edit.scenario, edit.words), path)
                doc["suggestions"][k - 1]["file"] = final_path(args.out, path)
            # the whole result beside the boards: a folder with no suggestion says why
            doc["report"] = final_path(args.out, stage / "suggest.json")
            save_text(stage / "suggest.json", json.dumps(doc, indent=2, ensure_ascii=False))
    if args.json:
        print_json(doc)
        return 0
    b = doc["before"]
    names = {side.value: name for side, name in get_ruleset(scenario.ruleset).side_names().items()}

    from tankmap.analysis.board_figure import time_unit

    unit = time_unit(scenario)  # Final Act and Tank Wars count rounds, Tank Chess turns

    def race(turns: dict[str, Any]) -> str:
        shown = {side: "none" if t is None else t for side, t in turns.items()}
        return (
            f"{unit} to goal {names['south']} {shown['south']}, {names['north']} {shown['north']}"
        )

    favours = side_text(b["favoured"], names)
    print(
        f"{args.file}: balance {b['balance']:.4f} [{b['ci95'][0]:.4f}, {b['ci95'][1]:.4f}] "
        f"({favours}) with {result.agent} ({result.agent_reason}), {b['games']} games on seed "
        f"{result.check_seed} (fresh, drawn from --seed {args.seed}: 'simulate --seed "
        f"{result.check_seed}' plays the same games); {race(b['turns_to_goal'])}"
    )
    print(f"  {doc['verdict_line']}")
    if doc["verdict_disagreement"]:
        print(f"  warning: {doc['verdict_disagreement']}")
    if doc["verdict_clash"]:
        print(f"  warning: {doc['verdict_clash']}")
    print(
        f"  {result.candidates} legal edits, {result.played} played, {result.remeasured} "
        f"re-measured on fresh seeds, {result.seconds:.0f} s"
    )
    if not doc["suggestions"]:
        print(f"  {doc['reason']}")
    for k, s in enumerate(doc["suggestions"], 1):
        print(suggestion_text(k, s, b["balance"], race(s["turns_to_goal"])))
    if doc["suggestions"] and result.heuristic_only:
        from tankmap.analysis.simulation.agent_info import default_agent

        strong = default_agent(scenario)[0]
        if strong != result.agent:
            print(
                f"  these rest on the heuristic alone: confirm them with the verdict's agent: "
                f"tankmap suggest {args.file} --agent heuristic --confirm-with {strong}"
            )
    for note in doc["notes"]:
        print(f"  note: {note}")
    return 0


def suggestion_text(k: int, s: dict[str, Any], before: float, race: str) -> str:
    """Suggestion ``k`` of ``suggest --json``'s list as the text output's lines: its edits,
    the balance ``before`` → after with the gain, and any confirmation. Balances and gains
    at 4 decimals, so that the printed numbers add up (a balance of N games is a multiple of
    2/N: at 3 decimals 0.6375 → 0.785 read as a gain of +0.147).
    """
    lo, hi = s["improvement_ci95"]
    lines = [
        f"  {k}. {'; '.join(s['edits'])}",
        f"     balance {before:.4f} -> {s['balance']:.4f} on the same fresh seeds: "
        f"{s['improvement']:+.4f} [{lo:+.3f}, {hi:+.3f}] "
        f"({s['improvement_level']:.1%} interval); {race}"
        + (f"; {s['file']}" if "file" in s else ""),
    ]
    c = s.get("confirmation")
    if c:
        clo, chi = c["improvement_ci95"]
        word = "confirmed" if c["confirmed"] else "NOT confirmed"
        lines.append(
            f"     {word} by {c['agent']}: {c['balance_before']:.4f} -> {c['balance']:.4f}, "
            f"{c['improvement']:+.4f} [{clo:+.3f}, {chi:+.3f}]"
        )
    return "\n".join(lines)


def side_text(favoured: str, names: dict[str, str]) -> str:
    """``"favours White"``, ``"even"``, ``"undecided"`` (a balance estimate's side)."""
    return f"favours {names[favoured]}" if favoured in names else favoured


def side_clash(doc: dict[str, Any], side_names: Any) -> str | None:
    """A note when the search's agent favours one side and the board's remembered verdict
    the other: its edits would even the board as that agent sees it, which may move it
    the wrong way (``None`` when they do not clash, or either is even or undecided)."""
    from tankmap.rules.geometry import Side

    verdict = doc.get("verdict") or {}
    mine, theirs = doc["before"].get("favoured"), verdict.get("favoured")
    sides = ("south", "north")
    if mine not in sides or theirs not in sides or mine == theirs:
        return None
    names = {side.value: name for side, name in side_names.items() if isinstance(side, Side)}
    return (
        f"{doc['agent']} favours {names[mine]} on this board, but its verdict "
        f"({verdict.get('agent')}) favours {names[theirs]}: edits that even the board for "
        f"{doc['agent']} may move it the wrong way; confirm them with --confirm-with "
        f"{verdict.get('agent')}"
    )


def suggested_board(scenario: Any, edits: Any) -> Any:
    """``scenario`` (a suggestion) as its file says it: its notes first say which edits
    made it, so that the original's description (often "point-symmetric", "as the rule
    book draws it") is not read as the edited board's."""
    from dataclasses import replace

    made = f"Suggested by tankmap suggest: {'; '.join(edits)}."
    notes = (
        f"{made} The notes of the board it was made from: {scenario.notes}"
        if scenario.notes
        else made
    )
    return replace(scenario, notes=notes)
