"""One side's part of a Final Act round as one line of text, and back (docs/notation.md).

Units are named by a *handle*: a tank by its name (``C``, ``1A``; an unnamed tank ``T1``,
``T2`` … in the side's order), an AT ``AT1``, ``AT2`` …, the R/M ``RM`` (``RM1`` … when a
side has several); a unit may also be named by the cell it stands on when no other unit of
its side shares that cell. Handles are read in any case. A line is items separated by
spaces:

- ``C:f2N`` — the unit's order: destination cell and facing (the facing may be left out
  when it stays as it is; ``C:f1N`` on its own cell is an explicit order to stay);
- ``C:f2Nxf8`` / ``C:xf8`` — the order (or none) and the cell it shells;
- declarations of the advanced rules and Extra Forces (docs/rules.md §1.3, §1.8):
  ``repair:C`` (R/M repair), ``berm-repair:C``, ``throttle:C`` (full throttle),
  ``double:Cxf9`` / ``quick:Cxf9`` (an extra shell), ``air:a1xa5,a6`` (air strike: token
  cell x shelled cells), ``spare:AT2`` (the AT kept when one shell hits two), and in their
  phases of the round ``sand:e6``, ``clear:g5`` (start), ``smoke:e6`` (after the moves),
  ``cross:e4``, ``cross-repair:C`` (after the hits);
- ``-`` alone: nothing at all.

A unit not named gets no order (it stays; a record stores ``null``) and fires no shell.
``format_side`` writes what ``parse_side`` reads, so every round of a record round-trips.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tankmap.rules.board import Board
from tankmap.rules.errors import IllegalMoveError, short
from tankmap.rules.final_act.engine_actions import Actions
from tankmap.rules.final_act.tables import Order
from tankmap.rules.geometry import Facing
from tankmap.rules.scenario import Scenario

CODES = {"tank": "T", "at": "AT", "rm": "RM"}
UNIT_WORDS = {
    "repair": "rm_repair",
    "berm-repair": "berm_repair",
    "throttle": "full_throttle",
    "cross-repair": "red_cross_repair",
    "spare": "at_spared",
}
CELL_WORDS = {
    "sand": "quick_sand",
    "clear": "mine_clearing",
    "smoke": "smoke",
    "cross": "red_cross",
}
SHOT_WORDS = {"double": "double_shot", "quick": "quick_shot"}
PHASE_WORDS = {
    "start": frozenset({"sand", "clear"}),
    "orders": frozenset({*UNIT_WORDS, *SHOT_WORDS, "air"} - {"cross-repair"}),
    "moved": frozenset({"smoke"}),
    "hit": frozenset({"cross", "cross-repair"}),
}
"""The declaration words each phase of a round takes (unit orders: ``orders`` only)."""

WORD_OPTION = {
    "repair": "rm_repair",
    "berm-repair": "berm_repair",
    "throttle": "full_throttle",
    "double": "double_shot",
    "quick": "quick_shot",
    "air": "air_strike",
    "sand": "quick_sand",
    "clear": "mine_clearing",
    "smoke": "smoke",
    "cross": "red_cross",
    "cross-repair": "red_cross",
}
"""The ruleset option that allows each declaration word (``spare`` needs none)."""

_CELL = r"[a-z][0-9]{1,2}"
_ORDER_RE = re.compile(
    rf"^(?:(?P<to>{_CELL})(?P<facing>ne|nw|se|sw|n|e|s|w)?)?(?:x(?P<shell>{_CELL}))?$",
    re.IGNORECASE,
)
_SHOT_RE = re.compile(rf"^(?P<ref>.+?)x(?P<cell>{_CELL})$", re.IGNORECASE)


class FinalActLineError(IllegalMoveError):
    """A Final Act line that cannot be read; the message quotes the item and says why."""


@dataclass
class SideRound:
    """One side's decisions in one phase: ``orders`` (unit index → order), ``shells``
    (shooter index → cell) and ``actions`` (declarations; the side's own only)."""

    orders: dict[int, Order] = field(default_factory=dict)
    shells: dict[int, int] = field(default_factory=dict)
    actions: Actions = field(default_factory=Actions)

    def empty(self) -> bool:
        return not self.orders and not self.shells and self.actions.empty()


def unit_handles(scenario: Scenario) -> list[str]:
    """Every unit's handle (see the module docstring), in the scenario's unit order."""
    units = scenario.units
    out: list[str] = []
    for u in units:
        mates = [v for v in units if v.side is u.side]
        named = u.name is not None and sum(1 for v in mates if v.name == u.name) == 1
        if u.kind == "tank" and named:
            out.append(str(u.name))
            continue
        code = CODES.get(u.kind, u.kind.upper())
        same = [v for v in mates if v.kind == u.kind and not (v.kind == "tank" and v.name)]
        if u.kind != "tank" and len(same) == 1:
            out.append(code)
        else:
            out.append(f"{code}{[i for i, v in enumerate(same) if v is u][0] + 1}")
    return out


@dataclass(frozen=True)
class Now:
    """Where each unit stands and faces now and whether it is in play: references by cell,
    orders without a facing and orders to units out of the game need it."""

    cells: list[int]
    facings: list[Facing]
    alive: list[bool]


class LineReader:
    """Reads and writes the lines of one scenario's game (handles fixed at the start)."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.board: Board = scenario.board
        self.handles = unit_handles(scenario)
        self.sides = [u.side.index for u in scenario.units]

    # --- reading ------------------------------------------------------------------------
    def parse(self, text: str, side: int, phase: str, now: Now) -> SideRound:
        """``text`` as ``side``'s decisions in ``phase``; ``FinalActLineError`` naming the
        item and the reason (well-formed but illegal is for the engine to say)."""
        line = text.strip()
        out = SideRound()
        if line == "-":
            return out
        if not line:
            raise FinalActLineError("an empty line (write '-' for nothing this phase)")
        for item in line.split():
            self._item(item, side, phase, now, out)
        return out

    def _item(self, item: str, side: int, phase: str, now: Now, out: SideRound) -> None:
        head, sep, rest = item.partition(":")
        if not sep:
            raise FinalActLineError(
                f"{short(item)}: expected UNIT:ORDER (like C:f2N or C:f2Nxf8) or a "
                "declaration (like repair:C)"
            )
        word = head.lower()
        acts = out.actions
        if word in _ALL_WORDS:
            if word not in PHASE_WORDS.get(phase, frozenset()):
                raise FinalActLineError(
                    f"{short(item)}: {word} is not declared in the {phase} phase"
                )
            if word in UNIT_WORDS:
                getattr(acts, UNIT_WORDS[word]).append(self._unit(rest, item, side, now))
            elif word in CELL_WORDS:
                getattr(acts, CELL_WORDS[word])[side] = self._cell(rest, item)
            elif word in SHOT_WORDS:
                m = _SHOT_RE.match(rest)
                if not m:
                    raise FinalActLineError(f"{short(item)}: expected {word}:UNITxCELL")
                u = self._unit(m["ref"], item, side, now)
                getattr(acts, SHOT_WORDS[word])[u] = self._cell(m["cell"], item)
            else:  # air
                token, x, targets = rest.lower().partition("x")
                if not x or not targets:
                    raise FinalActLineError(f"{short(item)}: expected air:CELLxCELL[,CELL]")
                shelled = [self._cell(t, item) for t in targets.split(",")]
                acts.air_strike[side] = (self._cell(token, item), shelled)
            return
        if phase != "orders":
            raise FinalActLineError(
                f"{short(item)}: orders and shells are given in the orders phase"
            )
        u = self._unit(head, item, side, now)
        m = _ORDER_RE.match(rest)
        if not m or not (m["to"] or m["shell"]):
            raise FinalActLineError(
                f"{short(item)}: expected an order like {head}:f2N, {head}:f2Nxf8 or {head}:xf8"
            )
        if u in out.orders or u in out.shells:
            raise FinalActLineError(f"{short(item)}: {self.handles[u]} is named twice")
        if m["to"]:
            to = self._cell(m["to"], item)
            facing = Facing.parse(m["facing"]) if m["facing"] else now.facings[u]
            out.orders[u] = (to, facing)
        if m["shell"]:
            out.shells[u] = self._cell(m["shell"], item)

    def _cell(self, text: str, item: str) -> int:
        try:
            return self.board.parse_cell(text)
        except ValueError as exc:
            raise FinalActLineError(f"{short(item)}: {exc}") from None

    def _unit(self, ref: str, item: str, side: int, now: Now) -> int:
        """The index of ``side``'s unit called ``ref`` (handle, or a cell it holds alone)."""
        key = ref.strip().lower()
        mine = [u for u, s in enumerate(self.sides) if s == side]
        found = [u for u in mine if self.handles[u].lower() == key]
        if not found:
            try:
                cell = self.board.parse_cell(key)
            except ValueError:
                names = " ".join(self.handles[u] for u in mine if now.alive[u])
                raise FinalActLineError(
                    f"{short(item)}: no unit of this side called {ref!r} (units: {names})"
                ) from None
            found = [u for u in mine if now.alive[u] and now.cells[u] == cell]
            if len(found) > 1:
                both = " and ".join(self.handles[u] for u in found)
                raise FinalActLineError(f"{short(item)}: {both} share {key}: name one of them")
            if not found:
                raise FinalActLineError(f"{short(item)}: no unit of this side stands on {key}")
        u = found[0]
        if not now.alive[u]:
            raise FinalActLineError(f"{short(item)}: {self.handles[u]} is out of the game")
        return u

    # --- writing ------------------------------------------------------------------------
    def format(self, side: int, part: SideRound) -> str:
        """The line ``parse`` reads back as ``part`` (``-`` when it is empty)."""
        name = self.board.cell_name
        h = self.handles
        items: list[str] = []
        for u in sorted(set(part.orders) | set(part.shells)):
            order = part.orders.get(u)
            text = "" if order is None else f"{name(order[0])}{Facing(order[1]).name}"
            if u in part.shells:
                text += f"x{name(part.shells[u])}"
            items.append(f"{h[u]}:{text}")
        a = part.actions
        for word, key in UNIT_WORDS.items():
            items += [f"{word}:{h[u]}" for u in sorted(getattr(a, key))]
        for word, key in SHOT_WORDS.items():
            shots: dict[int, int] = getattr(a, key)
            items += [f"{word}:{h[u]}x{name(c)}" for u, c in sorted(shots.items())]
        if side in a.air_strike:
            token, targets = a.air_strike[side]
            items.append(f"air:{name(token)}x{','.join(name(t) for t in targets)}")
        for word, key in CELL_WORDS.items():
            placed: dict[int, int] = getattr(a, key)
            if side in placed:
                items.append(f"{word}:{name(placed[side])}")
        return " ".join(items) or "-"


_ALL_WORDS = frozenset({*UNIT_WORDS, *CELL_WORDS, *SHOT_WORDS, "air"})
