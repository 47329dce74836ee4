"""``tankmap replay``: play a game record back through the checked engine, round by round."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="play a game record back and say what happened",
        description=(
            "Play a game record (as 'tankmap simulate --record' writes it, for any of the "
            "three games; docs/formats.md) through the checked engine and print what "
            "happened in each round or turn: moves, shells and hits, units out, Tank Chess "
            "announcements, and the result. An illegal order, or a stored result the replay "
            "does not reproduce, is an error naming the round (exit 2). -o writes the final "
            "position as a scenario file that opens in the editor."
        ),
    )
    p.add_argument("record", metavar="RECORD", help="game record (.json)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument("-o", "--output", metavar="FINAL.json", help="write the final position")
    p.add_argument("--force", action="store_true", help="overwrite FINAL.json if it exists")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import os

    from tankmap.commands.common import print_json
    from tankmap.rules.errors import TankmapError
    from tankmap.rules.fileformat import MAX_FILE_BYTES, scenario_to_json, write_scenario
    from tankmap.rules.safeio import read_bounded, strict_json

    data = strict_json(read_bounded(args.record, MAX_FILE_BYTES), args.record)
    fmt = data.get("format") if isinstance(data, dict) else None
    players = {
        "tankmap-final-act-game": _final_act,
        "tankmap-game": _tank_chess,
        "tankmap-tank-wars-game": _tank_wars,
    }
    if fmt not in players:
        raise TankmapError(
            f"{args.record}: $.format: not a game record (one of {', '.join(players)})"
        )
    if args.output and os.path.exists(args.output) and not args.force:
        raise TankmapError(f"{args.output}: already exists (use --force to overwrite)")
    result, final, rounds = players[fmt](data, args.record)
    doc = {"result": result, "final": scenario_to_json(final), "rounds": rounds}
    if args.output:
        write_scenario(final, args.output)
        doc["written"] = args.output
    if args.json:
        print_json(doc)
        return 0
    for entry in rounds:
        print(f"{entry['label']}: " + "; ".join(entry["text"]))
    who = "draw" if result["winner"] is None else f"{result['winner']} wins"
    print(
        f"result: {who} ({result['end']}) after {result['rounds']} "
        f"{'turns' if fmt == 'tankmap-game' else 'rounds'}"
    )
    if args.output:
        print(f"wrote {args.output}")
    return 0


def _final_act(data: Any, source: str) -> tuple[dict[str, Any], Any, list[dict[str, Any]]]:
    from tankmap.rules.errors import IllegalMoveError, TankmapError
    from tankmap.rules.final_act.engine import Game
    from tankmap.rules.final_act.engine_record import FinalActRecord

    rec = FinalActRecord.from_json(data, source)
    game = Game(rec.scenario)
    st = game.initial_state()
    b = rec.scenario.board
    label = [u.label + f" ({u.side.value})" for u in rec.scenario.units]
    rounds = []
    for n, (orders, shells) in enumerate(rec.rounds, 1):
        if st.over:
            raise IllegalMoveError(f"{source}: round {n}: the game was already over")
        before = list(st.cell)
        try:
            report = game.play_round(st, orders, shells, rec.actions.get(n - 1))
        except TankmapError as exc:
            raise IllegalMoveError(f"{source}: round {n}: {exc}") from None
        moved = [
            f"{label[u]} {b.cell_name(before[u])}-{b.cell_name(st.cell[u])}"
            for u in range(len(orders))
            if st.cell[u] != before[u]
        ]
        text = [
            f"{len(moved)} moved"
            + (
                f" ({', '.join(moved[:4])}…)"
                if len(moved) > 4
                else f" ({', '.join(moved)})"
                if moved
                else ""
            )
        ]
        text.append(
            "shells " + (" ".join(sorted(b.cell_name(c) for c in shells.values())) or "none")
        )
        if report.hits:
            text.append("hit " + ", ".join(label[u] for u in report.hits))
        if report.knocked_out:
            text.append("out " + ", ".join(label[u] for u, *_ in report.knocked_out))
        rounds.append(
            {
                "round": n,
                "label": f"round {n}",
                "text": text,
                "moved": len(moved),
                "shells": [b.cell_name(c) for c in shells.values()],
                "hits": [label[u] for u in report.hits],
                "out": [label[u] for u, *_ in report.knocked_out],
            }
        )
    result = {
        "winner": None if st.winner is None else st.winner.value,
        "end": st.end,
        "rounds": st.round,
    }
    if rec.result is not None and rec.result != result:
        raise IllegalMoveError(
            f"{source}: the record says {rec.result} but replaying gives {result} "
            f"(after round {st.round})"
        )
    return result, st.to_scenario(), rounds


def _tank_chess(data: Any, source: str) -> tuple[dict[str, Any], Any, list[dict[str, Any]]]:
    from tankmap.rules.errors import IllegalMoveError, TankmapError
    from tankmap.rules.tank_chess.announce import announcements
    from tankmap.rules.tank_chess.notation import parse_turn
    from tankmap.rules.tank_chess.record import GameRecord
    from tankmap.rules.tank_chess.state import GameState

    rec = GameRecord.from_json(data, source)
    st = GameState(rec.scenario)
    rounds = []
    for n, text in enumerate(rec.turns, 1):
        mover = ("White", "Black")[st.to_move]
        try:
            st.play(parse_turn(st, text))
        except TankmapError as exc:
            raise IllegalMoveError(f"{source}: turn {n} ({text!r}): {exc}") from None
        said = announcements(st)
        words = [f"{mover} {text}"] + [" ".join(said)] if said else [f"{mover} {text}"]
        rounds.append(
            {
                "turn": n,
                "label": f"turn {n}",
                "text": words,
                "notation": text,
                "announcements": list(said),
            }
        )
    got = st.outcome()
    result = {
        "winner": None if got is None or got.winner is None else got.winner.value,
        "end": None if got is None else got.reason,
        "rounds": len(rec.turns),
    }
    if rec.result is not None and got != rec.result:
        raise IllegalMoveError(
            f"{source}: the record says {rec.result.to_json()} but replaying gives "
            f"{None if got is None else got.to_json()} (after turn {len(rec.turns)})"
        )
    return result, st.to_scenario(), rounds


def _tank_wars(data: Any, source: str) -> tuple[dict[str, Any], Any, list[dict[str, Any]]]:
    import numpy as np

    from tankmap.analysis.simulation.drivers.tank_wars import TankWarsRecord
    from tankmap.rules.errors import IllegalMoveError, TankmapError
    from tankmap.rules.tank_wars.engine import play_round
    from tankmap.rules.tank_wars.state import Event, initial_state, outcome, to_scenario

    rec = TankWarsRecord.from_json(data, source)
    dice = np.random.default_rng(rec.dice_seed)
    state = initial_state(rec.scenario)
    b = rec.scenario.board
    rounds = []
    for n, (south, north) in enumerate(rec.rounds, 1):
        if outcome(state) is not None:
            raise IllegalMoveError(f"{source}: round {n}: the game was already over")
        events: list[Event] = []
        try:
            state = play_round(state, south, north, dice, events)
        except TankmapError as exc:
            raise IllegalMoveError(f"{source}: round {n}: {exc}") from None
        text = [f"{e.side.value} {e.what} {b.cell_name(e.cell)}" for e in events]
        rounds.append(
            {"round": n, "label": f"round {n}", "text": text or ["nothing"], "events": text}
        )
    got = outcome(state)
    result = {
        "winner": None if got is None or got.winner is None else got.winner.value,
        "end": None if got is None else got.reason,
        "rounds": state.round,
    }
    return result, to_scenario(state, rec.scenario), rounds
