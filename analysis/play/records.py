"""Game records and play sessions: resume a record where it stops, and turn a record into
the lines ``tankmap play --as both`` reads (``tankmap replay --lines``).

Both go through a session in which people play both sides: every recorded turn or round
becomes the lines that give it, phase by phase, and is played by ``submit`` — so a line
that the session refuses is a record that does not replay, reported with its number.
"""

from __future__ import annotations

from typing import Any

from tankmap.analysis.play.base import HUMAN, LineError, PlaySession
from tankmap.analysis.play.final_act_lines import SideRound
from tankmap.analysis.replay import record_game_kind
from tankmap.rules.errors import IllegalMoveError, TankmapError
from tankmap.rules.final_act.engine_actions import Actions
from tankmap.rules.steps import step_word


def session_of_record(
    data: Any, players: tuple[str, str] = (HUMAN, HUMAN), seed: int = 0, source: str = "record"
) -> tuple[PlaySession, list[str]]:
    """A session that has played every turn or round of the record document ``data``
    (as written by ``simulate --record`` or ``tankmap play``), now played by ``players``,
    and the lines it was fed. ``TankmapError`` for a bad record (naming ``source`` and
    the turn or round)."""
    from tankmap.analysis.play import open_session

    def opened(scenario: Any, **extra: Any) -> PlaySession:
        try:
            return open_session(scenario, (HUMAN, HUMAN), seed, **extra)
        except TankmapError as exc:  # (an illegal or finished scenario): name the record
            raise IllegalMoveError(f"{source}: {exc}") from None

    game = record_game_kind(data, source)
    if game == "tank-chess":
        from tankmap.rules.tank_chess.record import GameRecord

        tc = GameRecord.from_json(data, source)
        session = opened(tc.scenario)
        plan: list[Any] = list(tc.turns)
    elif game == "final-act":
        from tankmap.rules.final_act.engine_record import FinalActRecord

        fa = FinalActRecord.from_json(data, source)
        session = opened(fa.scenario, hands=fa.hands)
        plan = [(o, s, fa.actions.get(i, Actions())) for i, (o, s) in enumerate(fa.rounds)]
    else:
        from tankmap.analysis.play.agents import TankWarsRecord

        tw = TankWarsRecord.from_json(data, source)
        session = opened(tw.scenario, dice_seed=tw.dice_seed)
        plan = list(tw.rounds)
    lines: list[str] = []
    for n, entry in enumerate(plan, 1):
        if session.over:
            break
        try:
            lines += _feed(session, entry)
        except LineError as exc:
            raise IllegalMoveError(f"{source}: {step_word(game)} {n}: {exc}") from None
    session.set_players(players)
    return session, lines


def record_lines(data: Any, source: str = "record") -> list[str]:
    """The lines, in the order ``tankmap play --as both`` asks for them, that play the
    record document ``data`` again (a record's own turns give the same record)."""
    return session_of_record(data, source=source)[1]


def _feed(session: PlaySession, entry: Any) -> list[str]:
    """Submit the lines of one recorded turn or round; returns them."""
    if isinstance(entry, str):  # a Tank Chess turn
        session.submit(session.waiting()[0], entry)
        return [entry]
    if session.game == "tank-wars":
        fed = []
        for side in session.waiting():
            line = session.lines_io.format(entry[side.index])  # type: ignore[attr-defined]
            session.submit(side, line)
            fed.append(line)
        return fed
    parts = _final_act_parts(session, *entry)
    fed = []
    number = session.round_number  # type: ignore[attr-defined]
    while not session.over and session.round_number == number:  # type: ignore[attr-defined]
        waiting = session.waiting()
        if not waiting:  # pragma: no cover - a phase always waits for someone
            raise LineError("the round stopped without asking anyone")
        side = waiting[0]
        part = parts.get((session.phase(), side.index), SideRound())
        line = session.reader.format(side.index, part)  # type: ignore[attr-defined]
        session.submit(side, line)
        fed.append(line)
    return fed


def _final_act_parts(
    session: Any, orders: list[Any], shells: dict[int, int], acts: Actions
) -> dict[tuple[str, int], SideRound]:
    """A recorded Final Act round split into each phase's part of each side."""
    side_of = session.reader.sides
    parts: dict[tuple[str, int], SideRound] = {}

    def part(phase: str, side: int) -> SideRound:
        return parts.setdefault((phase, side), SideRound())

    for u, o in enumerate(orders):
        if o is not None:
            part("orders", side_of[u]).orders[u] = o
    for u, c in shells.items():
        part("orders", side_of[u]).shells[u] = c
    for key, phase in (
        ("rm_repair", "orders"),
        ("berm_repair", "orders"),
        ("full_throttle", "orders"),
        ("at_spared", "orders"),
        ("red_cross_repair", "hit"),
    ):
        for u in getattr(acts, key):
            getattr(part(phase, side_of[u]).actions, key).append(u)
    for key in ("double_shot", "quick_shot"):
        for u, c in getattr(acts, key).items():
            getattr(part("orders", side_of[u]).actions, key)[u] = c
    for key, phase in (
        ("quick_sand", "start"),
        ("mine_clearing", "start"),
        ("smoke", "moved"),
        ("red_cross", "hit"),
        ("air_strike", "orders"),
    ):
        for s, value in getattr(acts, key).items():
            getattr(part(phase, s).actions, key)[s] = value
    return parts


__all__ = ["record_lines", "session_of_record"]
