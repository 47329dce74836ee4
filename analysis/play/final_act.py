"""A Final Act game being played: simultaneous secret orders on the one-game engine.

A round is decided in phases (docs/rules.md §1.4, §1.8), each side answering each phase
with one line (``final_act_lines``) that stays secret until every side asked has answered:

1. ``start`` — only while a side may lay quick sand or clear mines: those tokens, placed
   (seen by both) before any order is given;
2. ``orders`` — every unit's order and shell, and the declarations made with them (R/M
   repair, berm repair, full throttle, double and quick shot, air strike, the AT kept);
3. ``moved`` — only while a side may lay smoke: after the moves, seeing them but not the
   shells (smoke is laid "before shells are placed", docs/rules.md §1.8);
4. ``hit`` — only while a side may use its Red Cross: after the hits.

Phases 3 and 4 happen in the middle of the engine's round: the session plays the round on
a copy (``Game.apply_round`` with a ``respond`` that asks agents at once and stops at a
person's decision still to come), shows where it stopped, and plays it again once the
answer is in. The round itself is then played, checked, by ``Game.play_round`` — as a
record is replayed — so the result is always the engine's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tankmap.analysis.play.base import SIDES, LineError, PlaySession, Result, refused
from tankmap.analysis.play.final_act_lines import (
    PHASE_WORDS,
    WORD_OPTION,
    FinalActLineError,
    LineReader,
    Now,
    SideRound,
    unit_handles,
)
from tankmap.analysis.replay import Casualty, Move, ReplayStep, Shell, final_act_step
from tankmap.rules.errors import IllegalMoveError
from tankmap.rules.final_act.engine import Game, RoundReport, State
from tankmap.rules.final_act.engine_actions import Actions
from tankmap.rules.final_act.engine_checks import check_round, plain_orders
from tankmap.rules.final_act.engine_record import FinalActRecord, Round
from tankmap.rules.final_act.engine_tokens import Hands
from tankmap.rules.final_act.tables import Order
from tankmap.rules.geometry import Side
from tankmap.rules.scenario import Scenario
from tankmap.rules.sides import side_name

PHASES = ("start", "orders", "moved", "hit")
PHASE_TITLES = {
    "start": "start of the round",
    "orders": "orders",
    "moved": "after the moves",
    "hit": "after the hits",
}
PAUSE_TEXT = {
    "moved": "the moves are made: smoke may be laid now, before the shells are shown",
    "hit": "the hits are in: the Red Cross may be used now",
}
SYNTAX = {
    "start": "Start of the round: sand:CELL (quick sand), clear:CELL (mine clearing), or -",
    "orders": (
        "Orders: one item per unit, UNIT:CELLFACING[xSHELL], e.g. C:f2N 1A:b3Exc9 AT1:xe8\n"
        "(UNIT is the tank's name, AT1/AT2, RM, or the cell it stands on alone; a unit not\n"
        "named stays and does not fire; - alone: no orders). Declarations with the orders:\n"
        "repair:C berm-repair:C throttle:C double:Cxf9 quick:Cxf9 air:a1xa5,a6 spare:AT2"
    ),
    "moved": "After the moves: smoke:CELL (a vacant cell next to one of your tanks), or -",
    "hit": "After the hits: cross:CELL (lay your Red Cross), cross-repair:C, or -",
}


class _Pause(Exception):
    """The trial round stopped at a person's mid-round decision (``phase``)."""

    def __init__(self, phase: str, state: State, report: RoundReport) -> None:
        super().__init__(phase)
        self.phase, self.state, self.report = phase, state, report


class FinalActSession(PlaySession):
    """A Final Act game (see the module docstring and ``base.PlaySession``)."""

    game = "final-act"

    def __init__(
        self,
        scenario: Scenario,
        players: tuple[str, str],
        seed: int,
        hands: Hands | None = None,
    ) -> None:
        super().__init__(scenario, players, seed)
        self.engine = Game(scenario)
        self.state = self.engine.initial_state()
        self.reader = LineReader(scenario)
        self.handles = unit_handles(scenario)
        adv = self.engine.adv
        if hands is not None and adv:
            adv.set_hands(self.state, hands)
        elif adv and adv.share != "equal":  # a person's pick is the strongest agent's
            adv.deal(self.state, np.random.default_rng([seed, 9]), self._pick)
        self.rounds: list[Round] = []
        self.round_actions: dict[int, Actions] = {}
        self.snapshots: list[State] = []
        self.parts: dict[str, dict[int, SideRound]] = {}
        self.lines: list[tuple[str, Side, str]] = []  # this round's (phase, side, line)
        self.paused: _Pause | None = None
        self._phase = "orders"
        self._begin_round()

    def _make_agent(self, spec: str, side: int, key: int) -> Any:
        from tankmap.analysis.play.agents import FinalActAgent

        return FinalActAgent(self.engine, spec, side, self.seed, key)

    def _pick(self, side: int, tokens: list[str], k: int) -> list[str]:
        who = SIDES[side]
        agent = self.hint_agent(who) if self.is_human(who) else self.agent(who)
        return list(agent.pick_tokens(tokens, k))

    # --- phases -------------------------------------------------------------------------
    def _begin_round(self) -> None:
        if len(self.snapshots) == len(self.rounds):
            self.snapshots.append(self.state.copy())
        self.parts, self.lines, self.paused = {}, [], None
        if self.state.over:
            self._phase = "over"
            return
        start = any(self._asks("start", s, self.state) for s in (0, 1))
        self._phase = "start" if start else "orders"

    def _asks(self, phase: str, side: int, now: State) -> bool:
        adv = self.engine.adv
        if phase == "orders":
            return True
        if not adv:
            return False
        if phase == "start":
            return any(adv.may_use(now, side, t) for t in ("quick_sand", "mine_clearing"))
        if phase == "moved":
            return "smoke" in adv.on and adv.may_use(now, side, "smoke")
        return "red_cross" in adv.on and (
            adv.may_use(now, side, "red_cross") or side in now.adv.crosses
        )

    def phase(self) -> str:
        return self._phase

    def waiting(self) -> list[Side]:
        if self._phase == "over":
            return []
        now = self.paused.state if self.paused is not None else self.state
        done = self.parts.get(self._phase, {})
        return [s for s in SIDES if s.index not in done and self._asks(self._phase, s.index, now)]

    @property
    def round_number(self) -> int:
        """The round being decided (1 for the first)."""
        return len(self.rounds) + 1

    @property
    def result(self) -> Result | None:
        st = self.state
        return Result(st.winner, st.end) if st.end is not None else None

    def now(self) -> Now:
        """Where the units stand for the phase being decided."""
        st = self.state if self.paused is None else self.paused.state
        return Now(list(st.cell), list(st.facing), list(st.alive))

    # --- submitting ---------------------------------------------------------------------
    def parse(self, side: Side, line: str) -> SideRound:
        """``line`` read as ``side``'s part of the phase now (not checked by the rules)."""
        text = line.strip()
        self.check_line(side, text)
        try:
            return self.reader.parse(text, side.index, self._phase, self.now())
        except FinalActLineError as exc:
            raise refused(text, exc) from None

    def submit(self, side: Side, line: str) -> None:
        part = self.parse(side, line)
        self.submit_part(side, part, line.strip())

    def submit_part(self, side: Side, part: SideRound, line: str | None = None) -> None:
        """Play ``side``'s part of the phase now (as ``submit``; the board clicks)."""
        text = line if line is not None else self.reader.format(side.index, part)
        self.check_line(side, text)
        phase = self._phase
        try:
            self._check(side.index, part)
        except IllegalMoveError as exc:
            raise refused(text, exc) from None
        self.parts.setdefault(phase, {})[side.index] = part
        if phase in ("moved", "hit"):
            try:
                self._play(self.state.copy())
            except IllegalMoveError as exc:
                del self.parts[phase][side.index]
                raise refused(text, exc) from None
        self.lines.append((phase, side, self.reader.format(side.index, part)))
        if not self.waiting():
            self._advance()

    def _check(self, side: int, part: SideRound) -> None:
        """The engine's checks of one side's part on its own (``IllegalMoveError``)."""
        g = self.engine
        if self._phase == "start":
            g.adv.begin(self.state.copy(), part.actions, check=True)
        elif self._phase == "orders":
            trial = self.state.copy()
            orders: list[Order | None] = [None] * len(trial.kind)
            for u, o in part.orders.items():
                orders[u] = o
            check_round(g, trial, plain_orders(g, trial, orders), part.shells, part.actions)

    def _advance(self) -> None:
        """Every side asked has answered the phase: go on with the round."""
        if self._phase == "start":
            merged = Actions()
            for p in self.parts["start"].values():
                merged.absorb(p.actions)
            self.engine.adv.begin(self.state, merged, check=True)
            self._phase = "orders"
            if self.waiting():
                return
        pause = self._trial()
        if pause is not None:
            self.paused, self._phase = pause, pause.phase
            return
        self._finish_round()

    def _round_parts(self) -> tuple[list[Order | None], dict[int, int], Actions]:
        orders: list[Order | None] = [None] * len(self.state.kind)
        shells: dict[int, int] = {}
        acts = Actions()
        for phase in PHASES:
            for side in (0, 1):
                p = self.parts.get(phase, {}).get(side)
                if p is None:
                    continue
                for u, o in p.orders.items():
                    orders[u] = o
                shells.update(p.shells)
                acts.absorb(p.actions)
        return orders, shells, acts

    def _trial(self) -> _Pause | None:
        """Play the round on a copy, asking agents mid-round; the pause at a person's
        decision still to come, or ``None`` when every decision is in."""
        orders, shells, acts = self._round_parts()

        def respond(phase: str, now: State, placed: dict[int, int], report: RoundReport) -> Actions:
            out = Actions()
            missing = False
            for side in (0, 1):
                if not self._asks(phase, side, now):
                    continue
                part = self.parts.get(phase, {}).get(side)
                if part is None and self.is_human(SIDES[side]):
                    missing = True
                    continue
                if part is None:
                    answer = self.agent(SIDES[side]).respond(phase, now, placed, report)
                    part = self.parts.setdefault(phase, {})[side] = SideRound(actions=answer)
                    self.lines.append((phase, SIDES[side], self.reader.format(side, part)))
                out.absorb(part.actions)
            if missing:
                raise _Pause(phase, now.copy(), report)
            return out

        try:
            self.engine.apply_round(self.state.copy(), orders, shells, acts, respond)
        except _Pause as pause:
            return pause
        return None

    def _play(self, state: State) -> Any:
        orders, shells, acts = self._round_parts()
        return self.engine.play_round(state, orders, shells, acts)

    def _finish_round(self) -> None:
        orders, shells, acts = self._round_parts()
        number = self.round_number
        step = final_act_step(
            self.scenario, self.engine, self.state, (orders, shells), acts, number
        )
        self.steps.append(step)
        lines = [(side, line) for _phase, side, line in self.lines]
        self.revealed = sorted(lines, key=lambda entry: entry[0].index)
        self.rounds.append((orders, shells))
        if not acts.empty():
            self.round_actions[number - 1] = acts
        self._begin_round()

    # --- agents and hints ---------------------------------------------------------------
    def agent_line(self, side: Side) -> str:
        return self._decision(self.agent(side), side)

    def hint_line(self, side: Side) -> str:
        return self._decision(self.hint_agent(side), side)

    def _decision(self, agent: Any, side: Side) -> str:
        s = side.index
        phase = self._phase
        if phase == "start":
            return self.reader.format(s, SideRound(actions=agent.pre_round(self.state)))
        if phase == "orders":
            orders, shells, acts = agent.decide(self.state)
            return self.reader.format(s, SideRound(orders, shells, acts))
        if self.paused is None:
            raise LineError(f"no {phase} decision is awaited")
        placed = self._round_parts()[1] if phase == "hit" else {}  # smoke: blind (§1.8)
        answer = agent.respond(phase, self.paused.state, placed, self.paused.report)
        return self.reader.format(s, SideRound(actions=answer))

    # --- taking back --------------------------------------------------------------------
    def undo(self) -> bool:
        people = [s for s in SIDES if self.is_human(s)]
        mine = [line for line in self.lines if line[1] in people]
        if mine:  # decisions of this round: the round starts again
            self.state = self.snapshots[-1].copy()
            self._begin_round()
            return True
        if not self.rounds:
            return False
        self.rounds.pop()
        self.steps.pop()
        self.round_actions.pop(len(self.rounds), None)
        self.snapshots.pop()
        self.state = self.snapshots[-1].copy()
        self._begin_round()
        return True

    # --- views --------------------------------------------------------------------------
    def current_step(self) -> ReplayStep | None:
        if self.paused is None:
            return None
        before, now = self.state, self.paused.state
        units = self.scenario.units
        label = [u.label + f" ({u.side.value})" for u in units]
        _orders, shells, _acts = self._round_parts()
        if self._phase == "moved":  # smoke is decided before the shells are shown (§1.8)
            shells = {}
        report = self.paused.report
        return ReplayStep(
            "final-act",
            self.round_number,
            (PAUSE_TEXT[self._phase],),
            now.to_scenario(),
            moves=tuple(
                Move(u, units[u].side, before.cell[u], now.cell[u], label[u])
                for u in range(len(units))
                if now.cell[u] != before.cell[u]
            ),
            shells=tuple(
                Shell(units[u].side, c, "shell", before.cell[u]) for u, c in shells.items()
            ),
            hits=tuple(Casualty(u, units[u].side, now.cell[u], label[u]) for u in report.hits),
            out=tuple(
                Casualty(u, units[u].side, cell, label[u]) for u, cell, *_ in report.knocked_out
            ),
        )

    def position(self) -> Scenario:
        st = self.state if self.paused is None else self.paused.state
        return st.to_scenario()

    def record(self) -> FinalActRecord:
        return FinalActRecord.of(self.state, self.rounds, self.round_actions)

    def declarations(self, side: Side) -> list[str]:
        """The declaration words (``final_act_lines``) ``side`` may use in this phase:
        those of the rules that are on in this game (``spare`` with two ATs)."""
        adv = self.engine.adv
        ats = sum(1 for u in self.state.live(side.index) if self.state.kind[u] == "at")
        return sorted(
            w
            for w in PHASE_WORDS.get(self._phase, ())
            if (w == "spare" and ats > 1) or (adv and WORD_OPTION.get(w) in adv.on)
        )

    def syntax(self) -> str:
        return SYNTAX.get(self._phase, "the game is over")

    def legal_lines(self, side: Side) -> list[str]:
        if side not in self.waiting():
            return []
        if self._phase != "orders":
            return [SYNTAX[self._phase]]
        st = self.state
        name = st.game.board.cell_name
        out = []
        for u in st.live(side.index):
            orders = " ".join(f"{name(c)}{f.name}" for c, f in st.orders(u))
            fire = " ".join(name(c) for c in st.fire_zone(u)) or "none"
            where = f"{name(st.cell[u])} {st.facing[u].name}"
            out.append(
                f"{self.handles[u]} ({st.kind[u]} on {where}): orders {orders}; shells {fire}"
            )
        return out

    def unit_entries(self) -> list[tuple[Side, str, str]]:
        """``(side, handle, "e2N (damaged)")`` of every unit in play, for the text view."""
        st = self.state if self.paused is None else self.paused.state
        name = st.game.board.cell_name
        return [
            (
                SIDES[st.side[u]],
                self.handles[u],
                f"{name(st.cell[u])}{st.facing[u].name}" + (" (damaged)" if st.damage[u] else ""),
            )
            for u in st.live()
        ]

    def prompt(self) -> str:
        """``"Round 3, orders: South and North to decide"`` or the result."""
        if self.over:
            return "the game is over"
        names = " and ".join(side_name(self.game, s) for s in self.waiting())
        phase = PHASE_TITLES.get(self._phase, self._phase)
        return f"Round {self.round_number}, {phase}: {names} to decide"
