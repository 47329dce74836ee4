"""Game records played back step by step: the position after every round (every turn in
Tank Chess) and what happened in it, through the checked engines.

``tankmap replay`` prints these steps and the editor's replay view shows them, so both
tell the same story:

>>> from tankmap.analysis.replay import load_replay
>>> # replay = load_replay("game.json")              # any of the three record formats
>>> # replay.position(3)                             # the board after step 3 (0 = start)
>>> # replay.steps[2].line                           # 'round 3: 14 moved (...); shells ...'
>>> # replay.result_line()                           # 'result: South wins (goal) after 11 rounds'

A step holds the orders carried out (``moves``: start and end cell; ``end`` is ``None`` for
a Tank Chess command tank leaving the board), the cells shelled or shot at (``shells``),
the units hit (``hits``) and knocked out (``out``), the advanced rules' tokens placed that
round (``tokens``, Final Act: quick sand, smoke, mine clearing, Red Cross, air strike;
Tank Wars: support tokens dropped) and Tank Chess's "Check!"/"Escape!" (``announcements``).
``text`` is the step's line as ``tankmap replay`` prints it, in parts. A game being played
builds the same steps one at a time (``tank_chess_step``, ``final_act_step``,
``tank_wars_step``: ``analysis.play``).

Every error is a ``TankmapError`` naming the record and the round or turn: not a record,
a bad record, an illegal order, or a stored result that the replay does not reproduce.
The games of a simulation run worth watching, and where they were decided, are
``analysis.run_games``'.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tankmap.rules.errors import IllegalMoveError, TankmapError, short
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario
from tankmap.rules.sides import result_text, side_name
from tankmap.rules.steps import step_word, steps_text

FORMATS = {
    "tankmap-final-act-game": "final-act",
    "tankmap-game": "tank-chess",
    "tankmap-tank-wars-game": "tank-wars",
}
"""Record format (``$.format``) → the game it records."""

SIDES = (Side.SOUTH, Side.NORTH)


@dataclass(frozen=True)
class Move:
    """An order carried out: unit ``unit`` (index in the record's start scenario) went from
    ``start`` to ``end`` (``None``: off the board, a Tank Chess escape)."""

    unit: int
    side: Side
    start: int
    end: int | None
    label: str


@dataclass(frozen=True)
class Shell:
    """A cell shelled or shot at by ``side``: ``kind`` is ``shell`` (Final Act), ``shot``
    (Tank Chess), ``artillery`` or ``gunfire`` (Tank Wars), or a Final Act advanced shell
    (``double-shot``, ``quick-shot``, ``air-strike``); ``origin`` is the shooter's cell
    when one unit fired it."""

    side: Side
    cell: int
    kind: str
    origin: int | None = None


@dataclass(frozen=True)
class Casualty:
    """A unit hit or knocked out (``side`` is its owner, ``cell`` where it was)."""

    unit: int
    side: Side
    cell: int
    label: str


@dataclass(frozen=True)
class Token:
    """A token placed in the step (``side`` its owner, when it has one)."""

    kind: str
    side: Side | None
    cell: int


@dataclass(frozen=True)
class ReplayResult:
    """How the replayed game ended: ``winner`` (``None``: a draw or not decided), ``end``
    (``None`` while undecided) and the rounds (Tank Chess: turns) played."""

    winner: Side | None
    end: str | None
    rounds: int

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": None if self.winner is None else self.winner.value,
            "end": self.end,
            "rounds": self.rounds,
        }


@dataclass(frozen=True)
class ReplayStep:
    """One round (Tank Chess: one turn) and the position after it (see the module doc)."""

    game: str
    number: int
    text: tuple[str, ...]
    position: Scenario
    moves: tuple[Move, ...] = ()
    shells: tuple[Shell, ...] = ()
    hits: tuple[Casualty, ...] = ()
    out: tuple[Casualty, ...] = ()
    tokens: tuple[Token, ...] = ()
    announcements: tuple[str, ...] = ()
    notation: str | None = None
    mover: Side | None = None
    events: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """``round 3`` or (Tank Chess) ``turn 3``."""
        return f"{'turn' if self.game == 'tank-chess' else 'round'} {self.number}"

    @property
    def line(self) -> str:
        """The step as ``tankmap replay`` prints it."""
        return f"{self.label}: " + "; ".join(self.text)

    def to_json(self) -> dict[str, Any]:
        """The step's entry of ``tankmap replay --json`` (``rounds[]``)."""
        b = self.position.board
        if self.game == "tank-chess":
            return {
                "turn": self.number,
                "label": self.label,
                "text": list(self.text),
                "notation": self.notation,
                "announcements": list(self.announcements),
            }
        if self.game == "tank-wars":
            return {
                "round": self.number,
                "label": self.label,
                "text": list(self.text),
                "events": list(self.events),
            }
        return {
            "round": self.number,
            "label": self.label,
            "text": list(self.text),
            "moved": len(self.moves),
            "shells": [b.cell_name(s.cell) for s in self.shells if s.kind == "shell"],
            "hits": [h.label for h in self.hits],
            "out": [o.label for o in self.out],
        }


@dataclass(frozen=True)
class Replay:
    """A game record played back: the start position, every step and the result."""

    game: str
    source: str
    start: Scenario
    steps: tuple[ReplayStep, ...]
    result: ReplayResult

    @property
    def step_word(self) -> str:
        """``turn`` (Tank Chess) or ``round``."""
        return step_word(self.game)

    def position(self, k: int) -> Scenario:
        """The position after step ``k`` (``0``: the start; ``IndexError`` past the end)."""
        if not 0 <= k <= len(self.steps):
            raise IndexError(f"no step {k} (0 to {len(self.steps)})")
        return self.start if k == 0 else self.steps[k - 1].position

    @property
    def final(self) -> Scenario:
        return self.position(len(self.steps))

    def result_line(self) -> str:
        """``result: South wins (goal) after 11 rounds``, Tank Chess ``result: White wins
        (command-destroyed) after 169 turns`` (as ``tankmap replay`` ends); a game stopped
        before its end: ``result: not decided after 2 turns``."""
        r = self.result
        steps = steps_text(r.rounds, self.game)
        if r.end is None:  # a record of a game stopped before its end
            return f"result: not decided after {steps}"
        who = result_text(self.game, r.winner)
        return f"result: {who} ({r.end}) after {steps}"


# --- reading ---------------------------------------------------------------------------------
def record_game_kind(data: Any, source: str) -> str:
    """The game a record document is of; ``TankmapError`` if it is not a game record."""
    fmt = data.get("format") if isinstance(data, dict) else None
    if not isinstance(fmt, str) or fmt not in FORMATS:
        raise TankmapError(f"{source}: $.format: not a game record (one of {', '.join(FORMATS)})")
    return FORMATS[fmt]


def read_record(path: str | os.PathLike[str]) -> Any:
    """The JSON document of a record file (bounded read, strict JSON); ``TankmapError``."""
    from tankmap.rules.fileformat import MAX_FILE_BYTES
    from tankmap.rules.safeio import read_bounded, strict_json

    return strict_json(read_bounded(path, MAX_FILE_BYTES), str(path))


def load_replay(path: str | os.PathLike[str]) -> Replay:
    """Read and replay the record file ``path`` (``TankmapError`` naming what is wrong)."""
    source = str(path)
    return replay_record(read_record(path), source)


def replay_record(data: Any, source: str = "<record>") -> Replay:
    """Replay a record document (``FinalActRecord``/``GameRecord``/``TankWarsRecord``
    JSON); ``source`` names it in errors."""
    game = record_game_kind(data, source)
    if game == "final-act":
        start, steps = _final_act(data, source)
    elif game == "tank-chess":
        start, steps = _tank_chess(data, source)
    else:
        start, steps = _tank_wars(data, source)
    played: list[ReplayStep] = []
    while True:
        try:
            played.append(next(steps))
        except StopIteration as stop:
            result: ReplayResult = stop.value
            break
    return Replay(game, source, start, tuple(played), result)


def replay_of(record: Any, source: str = "<record>") -> Replay:
    """Replay a record object (anything with ``to_json()``, e.g. ``runner.record_game``'s)."""
    return replay_record(record.to_json(), source)


Steps = Generator[ReplayStep, None, ReplayResult]


def _said(game: str, result: Any) -> str:
    """A result document (``{"winner": "south", "end": "goal", ...}``, Tank Chess ``reason``
    for ``end``; ``None``: not decided) in words: ``South wins (goal)``, ``not decided``."""
    end = result.get("end", result.get("reason")) if isinstance(result, dict) else None
    return "not decided" if end is None else f"{result_text(game, result['winner'])} ({end})"


# --- Final Act -------------------------------------------------------------------------------
def _final_act(data: Any, source: str) -> tuple[Scenario, Steps]:
    from tankmap.rules.final_act.engine_record import FinalActRecord

    rec = FinalActRecord.from_json(data, source)
    try:
        game, st = rec.start()
    except TankmapError as exc:
        raise IllegalMoveError(f"{source}: {exc}") from None
    return st.to_scenario(), _final_act_steps(rec, game, st, source)


def _final_act_steps(rec: Any, game: Any, st: Any, source: str, first: int = 1) -> Steps:
    b = rec.scenario.board
    units = rec.scenario.units
    label = [u.label + f" ({u.side.value})" for u in units]
    for i, (orders, shells) in enumerate(rec.rounds):
        n = first + i
        if st.over:
            raise IllegalMoveError(f"{source}: round {n}: the game was already over")
        before = list(st.cell)
        acts = rec.actions.get(i)
        try:
            report = game.play_round(st, orders, shells, acts)
        except TankmapError as exc:
            raise IllegalMoveError(f"{source}: round {n}: {exc}") from None
        moves = tuple(
            Move(u, units[u].side, before[u], st.cell[u], label[u])
            for u in range(len(orders))
            if st.cell[u] != before[u]
        )
        moved = [f"{m.label} {b.cell_name(m.start)}-{b.cell_name(st.cell[m.unit])}" for m in moves]
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
        fired = [Shell(units[u].side, c, "shell", before[u]) for u, c in shells.items()]
        tokens: list[Token] = []
        if acts is not None:
            for kind, extra in (("double-shot", acts.double_shot), ("quick-shot", acts.quick_shot)):
                fired += [Shell(units[u].side, c, kind, before[u]) for u, c in extra.items()]
            for s, (token, targets) in acts.air_strike.items():
                tokens.append(Token("air-strike", SIDES[s], token))
                fired += [Shell(SIDES[s], c, "air-strike") for c in targets]
            for kind, placed in (
                ("quick-sand", acts.quick_sand),
                ("smoke", acts.smoke),
                ("mine-clearing", acts.mine_clearing),
                ("red-cross", acts.red_cross),
            ):
                tokens += [Token(kind, SIDES[s], c) for s, c in placed.items()]
        yield ReplayStep(
            "final-act",
            n,
            tuple(text),
            st.to_scenario(),
            moves=moves,
            shells=tuple(fired),
            hits=tuple(Casualty(u, units[u].side, st.cell[u], label[u]) for u in report.hits),
            out=tuple(
                Casualty(u, units[u].side, cell, label[u]) for u, cell, *_ in report.knocked_out
            ),
            tokens=tuple(tokens),
        )
    result = ReplayResult(st.winner, st.end, st.round)
    if rec.result is not None and rec.result != result.to_json():
        raise IllegalMoveError(
            f"{source}: the record says {_said('final-act', rec.result)} but replaying gives "
            f"{_said('final-act', result.to_json())} (after round {st.round})"
        )
    return result


# --- Tank Chess ------------------------------------------------------------------------------
def _tank_chess(data: Any, source: str) -> tuple[Scenario, Steps]:
    from tankmap.rules.tank_chess.record import GameRecord
    from tankmap.rules.tank_chess.state import GameState

    rec = GameRecord.from_json(data, source)
    try:
        st = GameState(rec.scenario)
    except TankmapError as exc:  # a start the engine cannot play (pieces sharing a cell)
        raise IllegalMoveError(f"{source}: {exc}") from None
    return st.to_scenario(), _tank_chess_steps(rec, st, source)


def _tank_chess_steps(rec: Any, st: Any, source: str, first: int = 1) -> Steps:
    from tankmap.rules.tank_chess.announce import announcements
    from tankmap.rules.tank_chess.notation import parse_turn
    from tankmap.rules.tank_chess.state import ESCAPE

    units = rec.scenario.units
    for n, text in enumerate(rec.turns, first):
        mover = side_name("tank-chess", SIDES[st.to_move])
        try:
            turn = parse_turn(st, text)
            st.play(turn)
        except TankmapError as exc:
            raise IllegalMoveError(f"{source}: turn {n} ({short(text)}): {exc}") from None
        said = announcements(st)
        words = [f"{mover} {text}"] + [" ".join(said)] if said else [f"{mover} {text}"]
        (p, cell, _facing, target), start, _old_facing, destroyed, *_ = st.history[-1]
        side = SIDES[st.side[p]]
        end = None if cell == ESCAPE else cell
        shells: tuple[Shell, ...] = ()
        out: tuple[Casualty, ...] = ()
        if target >= 0:
            where = st.cell[target]
            shells = (Shell(side, where, "shot", end),)
            if destroyed:
                out = (Casualty(target, SIDES[st.side[target]], where, units[target].label),)
        yield ReplayStep(
            "tank-chess",
            n,
            tuple(words),
            st.to_scenario(),
            moves=(Move(p, side, start, end, units[p].label),) if end != start else (),
            shells=shells,
            hits=out,
            out=out,
            announcements=tuple(said),
            notation=text,
            mover=side,
        )
    got = st.outcome()
    if rec.result is not None and got != rec.result:
        raise IllegalMoveError(
            f"{source}: the record says {_said('tank-chess', rec.result.to_json())} but "
            f"replaying gives {_said('tank-chess', None if got is None else got.to_json())} "
            f"(after turn {len(rec.turns)})"
        )
    return ReplayResult(
        None if got is None else got.winner, None if got is None else got.reason, len(rec.turns)
    )


# --- Tank Wars -------------------------------------------------------------------------------
def _tank_wars(data: Any, source: str) -> tuple[Scenario, Steps]:
    from tankmap.analysis.simulation.tank_wars.driver import TankWarsRecord
    from tankmap.rules.tank_wars.state import initial_state, to_scenario

    rec = TankWarsRecord.from_json(data, source)
    try:
        state = initial_state(rec.scenario)
    except TankmapError as exc:  # a start the engine cannot play (two vehicles on a field)
        raise IllegalMoveError(f"{source}: {exc}") from None
    return to_scenario(state, rec.scenario), _tank_wars_steps(rec, state, source)


_TW_HITS = ("shot-hit", "crater-hit", "gunfire-hit")


def _tank_wars_steps(rec: Any, state: Any, source: str) -> Steps:

    from tankmap.analysis.simulation.tank_wars.driver import result_of
    from tankmap.rules.tank_wars.engine import artillery_phase, resolve_orders
    from tankmap.rules.tank_wars.state import Event, outcome

    dice = np.random.default_rng(rec.dice_seed)
    for n, (south, north) in enumerate(rec.rounds, 1):
        if outcome(state) is not None:
            raise IllegalMoveError(f"{source}: round {n}: the game was already over")
        events: list[Event] = []
        start = {v.ident: v.cell for v in state.vehicles}
        gunfire: list[Shell] = []
        try:  # engine.play_round with the orders known in advance, phase by phase
            mid = artillery_phase(state, dice, events)
            state = mid
            if mid.in_round:
                gunfire = tank_wars_gunfire(mid, (south, north))
                state = resolve_orders(mid, south, north, dice, events)
        except TankmapError as exc:
            raise IllegalMoveError(f"{source}: round {n}: {exc}") from None
        yield tank_wars_step(rec.scenario, n, events, start, gunfire, state)
    wrong = rec.mismatch(result_of(state))
    if wrong:
        raise IllegalMoveError(f"{source}: {wrong}")
    got = outcome(state)
    return ReplayResult(
        None if got is None else got.winner, None if got is None else got.reason, state.round
    )


def tank_wars_gunfire(mid: Any, orders: tuple[Any, Any]) -> list[Shell]:
    """The gunfire tokens that count of both sides' ``orders`` (south, north) in the round
    whose artillery has fired (``mid``)."""
    return [
        Shell(side, c, "gunfire")
        for side, o in zip(SIDES, orders, strict=True)
        for c in o.gunfire[: mid.gunfire_available(side)]
    ]


_TW_EVENT_WORDS = {
    "shot-support": "{side}'s artillery removes the support token on {cell}",
    "shot-hit": "{side}'s artillery hits {vehicle} on {cell}",
    "crater-left": "a crater opens under {vehicle} on {cell}",
    "shot-crater": "{side}'s artillery leaves a crater on {cell}",
    "shot-on-crater": "{side}'s artillery falls on the crater on {cell}",
    "not-executed": "{vehicle}'s command is not executed",
    "cancelled": "{vehicle}'s move to {cell} is cancelled (occupied)",
    "moved": "{vehicle} moves to {cell}",
    "crater-hit": "{vehicle} runs into the crater on {cell}",
    "collected": "{vehicle} collects the support token on {cell}",
    "gunfire-hit": "{side}'s gunfire hits {vehicle} on {cell}",
    "crater-cleared": "the crater on {cell} is cleared",
    "supply": "{side} places a support token on {cell}",
    "supply-collected": "{vehicle} collects the support token on {cell}",
    "supply-lost": "{side}'s support token on {cell} is lost",
    "destroyed": "{vehicle} is destroyed on {cell}",
}
"""How a round's engine event reads (``rules.tank_wars.state.Event``): ``side`` acts (the
shooter of a shot or gunfire, else the owner), ``vehicle`` is the one concerned."""


def tank_wars_event_text(what: str, side: str, cell: str, vehicle: str) -> str:
    """One engine event of a Tank Wars round in words: ``"heavy (north) is destroyed on
    b12"``, ``"south's artillery hits heavy (north) on b12"`` (an unknown kind of event: its
    side, name and cell)."""
    words = _TW_EVENT_WORDS.get(what)
    if words is None or ("{vehicle}" in words and not vehicle):
        return f"{side} {what} {cell}"
    return words.format(side=side, cell=cell, vehicle=vehicle)


def tank_wars_step(
    scenario: Scenario,
    number: int,
    events: Sequence[Any],
    start: dict[int, int],
    gunfire: Sequence[Shell],
    after: Any,
) -> ReplayStep:
    """Tank Wars round ``number`` of a game from ``scenario``: the engine's ``events`` of
    the round, the vehicles' cells before it (``start``, by ident), the gunfire tokens
    (``tank_wars_gunfire``) and the state after it."""
    from tankmap.rules.tank_wars.state import Event, to_scenario

    b = scenario.board
    units = scenario.units
    label = [u.label + f" ({u.side.value})" for u in units]
    text = tuple(
        tank_wars_event_text(
            e.what,
            e.side.value,
            b.cell_name(e.cell),
            label[e.vehicle] if e.vehicle is not None and 0 <= e.vehicle < len(label) else "",
        )
        for e in events
    )

    def casualty(e: Event) -> Casualty:
        i = e.vehicle if e.vehicle is not None else -1
        owner = units[i].side if i >= 0 else e.side
        return Casualty(i, owner, e.cell, label[i] if i >= 0 else "")

    return ReplayStep(
        "tank-wars",
        number,
        text or ("nothing",),
        to_scenario(after, scenario),
        moves=tuple(
            Move(e.vehicle, e.side, start[e.vehicle], e.cell, label[e.vehicle])
            for e in events
            if e.what == "moved" and e.vehicle is not None
        ),
        shells=tuple(Shell(e.side, e.cell, "artillery") for e in events if e.what[:5] == "shot-")
        + tuple(gunfire),
        hits=tuple(casualty(e) for e in events if e.what in _TW_HITS),
        out=tuple(casualty(e) for e in events if e.what == "destroyed"),
        tokens=tuple(Token("support", e.side, e.cell) for e in events if e.what == "supply"),
        events=text,
    )


def tank_chess_step(start: Scenario, state: Any, text: str, number: int) -> ReplayStep:
    """Play Tank Chess turn ``text`` (notation) on ``state`` (checked) and describe it as
    step ``number`` of a game from ``start``; ``IllegalMoveError`` if it is not legal."""
    from tankmap.rules.tank_chess.record import GameRecord

    return next(_tank_chess_steps(GameRecord(start, [text]), state, "turn", number))


def final_act_step(
    start: Scenario, game: Any, state: Any, round_: Any, actions: Any, number: int
) -> ReplayStep:
    """Play Final Act round ``round_`` (orders, shells) with its declarations ``actions``
    on ``state`` (checked, ``Game.play_round``) and describe it as round ``number`` of a
    game from ``start``; ``IllegalMoveError`` if the rules refuse it."""
    from tankmap.rules.final_act.engine_record import FinalActRecord

    rec = FinalActRecord(start, [round_], None, {} if actions is None else {0: actions})
    return next(_final_act_steps(rec, game, state, "play", number))
