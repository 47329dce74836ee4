"""Final Act advanced rules and action tokens (docs/rules.md §1.8) for the reference engine.

Rule texts: the Final Act rule book's "Advanced Rules (optional)" 2–4 and "Expansion
Rules", and the Extra Forces rules' "Repairing a damaged tank". Every rule is a ruleset
option (off by default); ``Advanced`` holds which are on, ``AdvancedState`` the per-game
counters, ``Actions`` what the sides declare in one round (saved in game records).
Readings chosen where the texts leave gaps (docs/rules.md §1.3 and §1.8 state them for
users):

- ``rm_repair`` (Extra Forces, on by default; only on in games with an R/M): a damaged tank
  and its own R/M that has repairs left (2 per game) may end a round on one cell (the only
  time a tank and an R/M may share). In a later round the side declares ``rm_repair`` for
  that tank: the tank and the R/M both stay (an order that moves either one is illegal)
  and the tank places no shell. At the end of that round the tank is undamaged and the R/M
  has one repair fewer — unless the cell was hit: a hit on the damaged tank knocks it out
  and, as for any tank knocked out on a shared cell, the R/M with it; both stay as wrecks
  ("remain on the board as wrecks"; with ``wrecks`` off both are removed). A hit on the
  pair in a round without a declared repair follows the ordinary rules (the R/M is
  removed). After the repair the two may keep sharing until one of them leaves. The
  compiled simulation kernel models this option too (``FAST``).
- ``officer_loss``: in the round after a round in which a side lost officer tanks (named
  C, 1, 2), its tanks place that many shells fewer than the tanks that may fire — only if
  the side still has at least 3 live tanks.
- ``double_shot`` / ``quick_shot`` (two separate options, each once per game per side):
  only after the side has lost a tank (before this round); one tank that fires its normal
  shell places a second shell anywhere in its fire zone (the same cell allowed).
- **Lost tanks' shells are one budget per round** (docs/rules.md §1.8): double shot, quick
  shot and air strike fire extra shells "using the shell" of a tank that is out of the
  game, so in one round a side's double and quick shots together use at most one shell per
  tank it has lost (``tanks_lost``), and its air strike gets only the lost tanks' shells
  left over; each further air-strike shell takes an active tank's shell, which then does
  not fire.
- ``berm_repair``: once per game per side, a damaged tank standing in its own half (own
  rows 1–6) directly behind a berm (the cell one step toward the enemy holds a berm;
  option ``berm_repair_cover`` ``ahead-or-diagonal``: or one of the two cells diagonally
  toward the enemy) declares a repair: it stays and places no shell; if it survives the
  round it is undamaged.
- ``full_throttle`` (once per game per side): one **tank** (not the R/M) whose order is a
  one-cell move without facing change moves two cells straight on in that direction; the
  order names the one-cell move (the dial), the token the tank. The second cell must be
  one a normal move from the first could enter, and the cell passed over must not hold a
  tank, the R/M or a wreck at the start of the round ("only one tank is allowed on each
  square area at any given time"); otherwise the tank makes its one-cell move. Conflicts
  are judged where the tank would end. Option ``throttle_passed`` ``after-moves``: the
  cell passed over is judged once the moves are made instead — a unit leaving it that
  round frees it, a tank or the R/M ending there (or a wreck) blocks it, and then the
  tank's order is its one-cell move and the conflicts are judged again
  (``TokenRules.settle_throttle``).
- ``quick_sand`` (once per game per side): placed on any cell at the start of a round
  (before orders, visible to both); for that round and the next no tank or R/M may enter
  it (ATs, infantry, are not stopped); units on it may stay or leave.
- ``air_strike`` (once per game per side): declared with the shells: a token on one cell
  of the side's own row 1 and 1 or 2 more shells anywhere on that column except the token's
  cell (hits like any shell; no unit is credited; no line of fire, so smoke never stops
  it). Its shells come out of the lost tanks' budget above, the rest from active tanks.
- ``mine_clearing`` (once per game per side): placed at the start of a round (before
  orders, seen by both) on one minefield cell — of the side's own minefield at any time, of
  the enemy's only while one of the side's live tanks stands in the enemy half (own rows
  7–12). That round and the next the cell is open ground for the side's units (any
  direction, any kind; a cleared lane loses its arrow for them); for the enemy nothing
  changes. A unit still on the cell when the token goes may leave it as from any cell.
- ``smoke`` (once per game per side): laid after the orders are revealed and the moves
  executed, before the shells land ("any time after the movement phase, and before the
  shooting phase"): on a vacant cell (no unit, no wreck, after the moves) next to one of
  the side's live tanks (8 neighbours, where the tank now stands). For that round it
  blocks lines of fire like a tank: a shell placed (from the shooter's start-of-round cell
  and facing) whose line of fire passes through the smoke does not land (elevated
  shooters and air strikes have no line of fire and are not stopped). Option
  ``smoke_blocks_owner`` (default true): it stops both sides' shells; false: only the
  enemy's. The side decides it seeing the moves but not the shells ("before shells are
  placed"): ``Game.apply_round``'s ``respond``, phase ``"moved"``, gets no shells and no
  declaration made with them.
- ``red_cross``: see ``engine_redcross``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from tankmap.rules.errors import IllegalMoveError
from tankmap.rules.final_act.data import DATA
from tankmap.rules.final_act.engine_actions import SIDE_NAMES, Actions
from tankmap.rules.final_act.engine_redcross import settle_red_cross
from tankmap.rules.final_act.engine_token_rules import TokenRules
from tankmap.rules.final_act.engine_tokens import ACTION_TOKENS, Hands, equal_hands
from tankmap.rules.final_act.tables import Order, Tables, tables_for

if TYPE_CHECKING:
    from tankmap.rules.final_act.engine import Game, RoundReport, State

MODELLED = (
    "rm_repair",
    "officer_loss",
    "double_shot",
    "berm_repair",
    "quick_shot",
    "full_throttle",
    "quick_sand",
    "smoke",
    "air_strike",
    "mine_clearing",
    "red_cross",
)
"""The §1.8 options the reference engine implements."""

TOKENS = (
    *("double_shot", "quick_shot", "full_throttle", "quick_sand", "smoke", "berm_repair"),
    *("air_strike", "mine_clearing", "red_cross"),
)
"""Once-per-game (per side) actions; their use is remembered in ``AdvancedState.used``."""

FAST = frozenset({"rm_repair"})
"""The §1.8-style options the compiled simulation kernel models too."""

__all__ = ["FAST", "MODELLED", "TOKENS", "Actions", "Advanced", "AdvancedState"]


class AdvancedState:
    """Per-game counters of the advanced rules (part of ``State``; ``copy()`` is cheap).

    ``rm_left[u]`` repairs left of R/M unit ``u``; ``used[side]`` once-per-game actions
    used; ``shots_lost[side]`` shells the side's tanks lose this round (officer loss);
    ``tanks_lost[side]`` tanks knocked out so far; ``sand`` = ``(cell, last round)`` of
    quick-sand tokens on the board; ``clear`` = ``(side, cell, last round)`` of
    mine-clearing tokens and ``tables[side]`` the movement tables with them (``None``: the
    game's own); ``crosses[side]`` the cell of a Red Cross token on the board; ``begun`` =
    the round whose start-of-round tokens are placed; ``held[side]`` the action tokens the
    side still holds (``engine_tokens``) and ``dealt`` its hands at the start."""

    __slots__ = (
        *("rm_left", "used", "shots_lost", "tanks_lost", "sand", "clear", "tables"),
        *("crosses", "begun", "held", "dealt"),
    )

    def __init__(self) -> None:
        self.rm_left: dict[int, int] = {}
        self.used: tuple[set[str], set[str]] = (set(), set())
        self.shots_lost = [0, 0]
        self.tanks_lost = [0, 0]
        self.sand: list[tuple[int, int]] = []
        self.clear: list[tuple[int, int, int]] = []
        self.tables: list[Tables | None] = [None, None]
        self.crosses: dict[int, int] = {}
        self.begun = -1
        self.held: Hands = ({}, {})
        self.dealt: Hands = ({}, {})

    def copy(self) -> AdvancedState:
        a = AdvancedState()
        a.rm_left = dict(self.rm_left)
        a.used = (set(self.used[0]), set(self.used[1]))
        a.shots_lost = self.shots_lost[:]
        a.tanks_lost = self.tanks_lost[:]
        a.sand = self.sand[:]
        a.clear = self.clear[:]
        a.tables = self.tables[:]
        a.crosses = dict(self.crosses)
        a.held = (dict(self.held[0]), dict(self.held[1]))
        a.dealt = self.dealt  # never changed after the deal
        a.begun = self.begun
        return a


REPAIRS_PER_RM = 2


class Advanced(TokenRules):
    """The advanced rules that are on for one game (``on``) and their round logic (the
    action tokens' own rules in ``engine_token_rules.TokenRules``)."""

    def __init__(self, game: Game, options: dict[str, Any]) -> None:
        self.game = game
        on = {n for n in MODELLED if options.get(n)}
        if not any(u.kind == "rm" for u in game.scenario.units):
            on.discard("rm_repair")  # an Extra Forces rule: nothing to repair with
        self.on = frozenset(on)
        self.smoke_blocks_owner = bool(options.get("smoke_blocks_owner", True))
        self.throttle_after_moves = options.get("throttle_passed", "start") == "after-moves"
        self.share = str(options.get("token_share", "equal"))  # engine_tokens
        self.each = int(options.get("tokens_each", 3))
        self.in_play = [t for t in ACTION_TOKENS if t in self.on]
        self.officer = [u.kind == "tank" and u.name in DATA.officers for u in game.scenario.units]
        half = DATA.half_rows
        b = game.board
        # cells in the own half with a berm one step toward the enemy (berm_repair_cover
        # "ahead-or-diagonal": or one step diagonally toward it)
        self.behind_berm = [0, 0]
        wide = options.get("berm_repair_cover", "ahead") == "ahead-or-diagonal"
        for side in (0, 1):
            dy = 1 if side == 0 else -1
            for cell in range(b.size):
                covers = [b.offset(cell, dx, dy) for dx in ((-1, 0, 1) if wide else (0,))]
                if (
                    b.own_row(cell, side) <= half
                    and any(c >= 0 and game.berm_mask >> c & 1 for c in covers)
                    and not game.berm_mask >> cell & 1
                ):
                    self.behind_berm[side] |= 1 << cell
        self.mines: tuple[list[int], list[int]] = ([], [])  # minefield cells per owner
        for piece in game.scenario.terrain:
            tk = DATA.terrain.get(piece.kind)
            if tk is not None and tk.family == "minefield" and piece.side is not None:
                self.mines[piece.side.index].extend(piece.cells)
        self._variants: dict[frozenset[int], Tables] = {}

    def __bool__(self) -> bool:
        return bool(self.on)

    @property
    def slow(self) -> frozenset[str]:
        """The options on that only the reference engine models (not in ``FAST``)."""
        return self.on - FAST

    # --- state ------------------------------------------------------------------------
    def initial(self, state: State) -> AdvancedState:
        a = AdvancedState()
        for u, kind in enumerate(state.kind):
            if kind == "rm":
                a.rm_left[u] = REPAIRS_PER_RM
        a.held = equal_hands(self.in_play)
        a.dealt = equal_hands(self.in_play)
        return a

    def may_use(self, state: State, side: int, name: str) -> bool:
        """Whether ``side`` may use the action ``name`` now: an action token it still holds,
        another once-per-game action it has not used."""
        if name not in self.on:
            return False
        if name in ACTION_TOKENS:
            if state.adv.held[side].get(name, 0) <= 0:
                return False
        elif name in state.adv.used[side]:
            return False
        if name in ("double_shot", "quick_shot"):
            return state.adv.tanks_lost[side] > 0
        return True

    def spend(self, state: State, side: int, name: str) -> None:
        """``side`` uses the action ``name`` (one token of it, if it is a token)."""
        state.adv.used[side].add(name)
        if name in ACTION_TOKENS:
            held = state.adv.held[side]
            held[name] = held.get(name, 0) - 1

    def meet_ok(self, state: State, kept: list[int]) -> bool:
        """May these units (one side) share a cell as a repair pair: one tank damaged at
        the start of the round and one R/M with repairs left, nothing else?"""
        if "rm_repair" not in self.on or len(kept) != 2:
            return False
        kinds = sorted(state.kind[u] for u in kept)
        if kinds != ["rm", "tank"] or state.side[kept[0]] != state.side[kept[1]]:
            return False
        tank = kept[0] if state.kind[kept[0]] == "tank" else kept[1]
        rm = kept[1] if tank == kept[0] else kept[0]
        return state.damage[tank] > 0 and state.adv.rm_left.get(rm, 0) > 0

    def repair_partner(self, state: State, tank: int) -> int:
        """The own R/M with repairs left sharing damaged ``tank``'s cell, or -1."""
        if "rm_repair" not in self.on or not state.alive[tank] or state.damage[tank] == 0:
            return -1
        for v, left in state.adv.rm_left.items():
            if (
                left > 0
                and state.alive[v]
                and state.side[v] == state.side[tank]
                and state.cell[v] == state.cell[tank]
            ):
                return v
        return -1

    def repair_wrecks(self, state: State, actions: Actions) -> frozenset[int]:
        """The R/Ms repairing this round: knocked out with their tank, they stay as wrecks."""
        if not actions.rm_repair:
            return frozenset()
        return frozenset(self.repair_partner(state, u) for u in actions.rm_repair) - {-1}

    def can_berm_repair(self, state: State, tank: int) -> bool:
        side = state.side[tank]
        return (
            self.may_use(state, side, "berm_repair")
            and state.alive[tank]
            and state.kind[tank] == "tank"
            and state.damage[tank] > 0
            and bool(self.behind_berm[side] >> state.cell[tank] & 1)
        )

    def clearable(self, state: State, side: int) -> list[int]:
        """Minefield cells ``side`` may clear now: its own always, the enemy's while one of
        its live tanks stands in the enemy half."""
        b = self.game.board
        forward = any(
            state.alive[u]
            and state.kind[u] == "tank"
            and state.side[u] == side
            and b.own_row(state.cell[u], side) > DATA.half_rows
            for u in range(len(state.kind))
        )
        return sorted(self.mines[side] + (self.mines[1 - side] if forward else []))

    def _refresh_tables(self, state: State) -> None:
        """Movement tables per side with its cleared minefield cells as open ground."""
        for side in (0, 1):
            cleared = frozenset(c for s, c, _last in state.adv.clear if s == side)
            if not cleared:
                state.adv.tables[side] = None
                continue
            state.adv.tables[side] = self.tables_with(cleared)

    def tables_with(self, cleared: frozenset[int]) -> Tables:
        """The game's movement tables with the ``cleared`` minefield cells as open ground."""
        found = self._variants.get(cleared)
        if found is None:
            sc = self.game.scenario
            terrain = tuple(
                replace(p, cells=tuple(c for c in p.cells if c not in cleared))
                if p.kind in DATA.terrain and DATA.terrain[p.kind].family == "minefield"
                else p
                for p in sc.terrain
            )
            found = self._variants[cleared] = tables_for(sc.board, terrain, sc.options)
        return found

    # --- the round --------------------------------------------------------------------
    def begin(self, state: State, actions: Actions, check: bool) -> None:
        """Place the start-of-round tokens (quick sand, mine clearing) once per round;
        with ``check`` raise ``IllegalMoveError`` for one the rules refuse (the caller
        restores ``state.adv`` then: ``Game.play_round``)."""
        adv = state.adv
        if adv.begun == state.round:
            return
        adv.begun = state.round
        for side, cell in actions.quick_sand.items():
            if check and not self.may_use(state, side, "quick_sand"):
                raise IllegalMoveError(f"{SIDE_NAMES[side]} may not use quick sand now")
            self.spend(state, side, "quick_sand")
            adv.sand.append((cell, state.round + 2))
        state.smoke = 0
        state.no_entry = 0
        for cell, _last in adv.sand:
            state.no_entry |= 1 << cell
        for side, cell in actions.mine_clearing.items():
            if check and (
                not self.may_use(state, side, "mine_clearing")
                or cell not in self.clearable(state, side)
            ):
                raise IllegalMoveError(
                    f"{SIDE_NAMES[side]} may not clear {self.game.board.cell_name(cell)}"
                )
            self.spend(state, side, "mine_clearing")
            adv.clear.append((side, cell, state.round + 2))
        if actions.mine_clearing:
            self._refresh_tables(state)

    def check(
        self,
        state: State,
        orders: list[Order | None],
        shells: dict[int, int],
        actions: Actions,
        blockers: int,
    ) -> None:
        """Raise ``IllegalMoveError`` for a declaration the rules do not allow."""
        names = self.game.scenario.units
        for key in (
            *("rm_repair", "berm_repair", "double_shot", "quick_shot", "full_throttle"),
            "air_strike",
        ):
            if getattr(actions, key) and key not in self.on:
                raise IllegalMoveError(f"{key} is not on in this game")
        sides_using: dict[str, list[int]] = {}
        for u in actions.rm_repair:
            rm = self.repair_partner(state, u) if 0 <= u < len(state.kind) else -1
            if rm < 0 or state.kind[u] != "tank":
                raise IllegalMoveError(f"unit #{u} cannot be repaired by an R/M now")
            for v in (u, rm):
                o = orders[v]
                if o is not None and o[0] != state.cell[v]:
                    raise IllegalMoveError(f"{names[v].label}: must stay while repairing")
        for u in actions.berm_repair:
            if not (0 <= u < len(state.kind) and self.can_berm_repair(state, u)):
                raise IllegalMoveError(f"unit #{u} cannot be repaired behind a berm now")
            o = orders[u]
            if o is not None and o[0] != state.cell[u]:
                raise IllegalMoveError(f"{names[u].label}: must stay while repairing")
            sides_using.setdefault("berm_repair", []).append(state.side[u])
        for u in set(actions.rm_repair) | set(actions.berm_repair):
            if u in shells:
                raise IllegalMoveError(f"{names[u].label}: a tank under repair does not fire")
        for key in ("double_shot", "quick_shot"):
            for u, target in getattr(actions, key).items():
                if not 0 <= u < len(state.kind) or state.kind[u] != "tank" or u not in shells:
                    raise IllegalMoveError(f"{key}: unit #{u} places no normal shell")
                if not self.may_use(state, state.side[u], key):
                    raise IllegalMoveError(f"{names[u].label}: {key} not available")
                if target not in state.fire_zone(u, blockers):
                    raise IllegalMoveError(f"{names[u].label}: {key} target not in its fire zone")
                sides_using.setdefault(key, []).append(state.side[u])
        for u in actions.full_throttle:
            if not (
                0 <= u < len(state.kind) and self.may_use(state, state.side[u], "full_throttle")
            ):
                raise IllegalMoveError(f"unit #{u}: full throttle not available")
            if orders[u] not in self.throttle_orders(state, u):
                raise IllegalMoveError(
                    f"{names[u].label}: full throttle needs a tank's one-cell move without a turn"
                )
            sides_using.setdefault("full_throttle", []).append(state.side[u])
        for key, sides in sides_using.items():
            if len(sides) != len(set(sides)):
                raise IllegalMoveError(f"one {key} per side and round")
        for side in (0, 1):
            extra = self.extra_shot_count(state, side, actions)
            if extra > state.adv.tanks_lost[side]:
                raise IllegalMoveError(
                    f"{SIDE_NAMES[side]}: {extra} double/quick shots this round but only "
                    f"{state.adv.tanks_lost[side]} lost tanks' shells"
                )
        b = self.game.board
        for side, (token, targets) in actions.air_strike.items():
            if not self.may_use(state, side, "air_strike") or b.own_row(token, side) != 1:
                raise IllegalMoveError(
                    f"{SIDE_NAMES[side]}: no air strike from {b.cell_name(token)}"
                )
            if not 1 <= len(targets) <= 2:
                raise IllegalMoveError(
                    f"{SIDE_NAMES[side]}: an air strike places 1 or 2 shells, not {len(targets)}"
                )
            if any(t == token or b.col_of(t) != b.col_of(token) for t in targets):
                raise IllegalMoveError(
                    f"{SIDE_NAMES[side]}: air strike shells go on the token's column, not on it"
                )
        repairing = set(actions.rm_repair) | set(actions.berm_repair)
        for side in (0, 1):
            able = [u for u in state.live(side) if state.kind[u] == "tank" and u not in repairing]
            cap = self.tank_shell_cap(state, side, len(able), actions)
            if sum(1 for u in able if u in shells) > cap:
                raise IllegalMoveError(
                    f"{SIDE_NAMES[side]}: at most {cap} tank shells this round"
                    " (officer loss / air strike)"
                )

    def tank_shell_cap(self, state: State, side: int, able: int, actions: Actions) -> int:
        """How many shells ``side``'s ``able`` tanks (live, not repairing) may place: fewer
        after an officer loss, and for air-strike shells no lost tank pays for."""
        cap = able
        if "officer_loss" in self.on:
            cap -= state.adv.shots_lost[side]
        strike = actions.air_strike.get(side)
        if strike is not None:
            free = max(0, state.adv.tanks_lost[side] - self.extra_shot_count(state, side, actions))
            cap -= max(0, len(strike[1]) - free)
        return max(0, cap)

    @staticmethod
    def extra_shot_count(state: State, side: int, actions: Actions) -> int:
        """``side``'s double and quick shots declared in ``actions``."""
        return sum(
            1
            for key in (actions.double_shot, actions.quick_shot)
            for u in key
            if 0 <= u < len(state.side) and state.side[u] == side
        )

    def lost_shells_left(self, state: State, side: int, actions: Actions) -> int:
        """Lost tanks' shells ``side`` has not yet used this round in ``actions`` (double
        and quick shots first, then air-strike shells)."""
        strike = actions.air_strike.get(side)
        used = self.extra_shot_count(state, side, actions) + (len(strike[1]) if strike else 0)
        return max(0, state.adv.tanks_lost[side] - used)

    def extra_shells(self, state: State, actions: Actions) -> list[tuple[int, int, int]]:
        """``(shooter, target, side)`` of the round's shells beyond one per unit (shooter
        -1 for an air strike)."""
        out = [(u, t, state.side[u]) for u, t in actions.double_shot.items()]
        out += [(u, t, state.side[u]) for u, t in actions.quick_shot.items()]
        for side, (_token, targets) in actions.air_strike.items():
            out += [(-1, t, side) for t in targets]
        return out

    def finish(
        self, state: State, actions: Actions, report: RoundReport, check: bool = False
    ) -> None:
        """After the hits: the Red Cross (``engine_redcross``; with ``check`` it raises
        ``IllegalMoveError`` for a use the rules refuse), repairs, token bookkeeping,
        officer losses (``state.round`` is already the number of the round just played)."""
        adv = state.adv
        if actions.red_cross_repair or actions.red_cross:
            settle_red_cross(self, state, actions, report, check)
        for u in actions.rm_repair:
            rm = self.repair_partner(state, u)
            if rm >= 0:
                state.damage[u] = 0
                adv.rm_left[rm] -= 1
        for u in actions.berm_repair:
            self.spend(state, state.side[u], "berm_repair")
            if state.alive[u]:
                state.damage[u] = 0
        for key in ("double_shot", "quick_shot"):
            for u in getattr(actions, key):
                self.spend(state, state.side[u], key)
        for u in actions.full_throttle:
            self.spend(state, state.side[u], "full_throttle")
        for side in actions.air_strike:
            self.spend(state, side, "air_strike")
        officers = [0, 0]
        for u, _cell, _by, _by_unit in report.knocked_out:
            if state.kind[u] == "tank":
                adv.tanks_lost[state.side[u]] += 1
                if self.officer[u]:
                    officers[state.side[u]] += 1
        if "officer_loss" in self.on:
            for side in (0, 1):
                tanks = sum(1 for u in state.live(side) if state.kind[u] == "tank")
                adv.shots_lost[side] = officers[side] if tanks >= 3 else 0
        adv.sand = [(c, last) for c, last in adv.sand if last > state.round]
        if adv.clear:
            adv.clear = [(s, c, last) for s, c, last in adv.clear if last > state.round]
            self._refresh_tables(state)
        state.smoke = 0
        state.no_entry = 0
        for cell, _last in adv.sand:
            state.no_entry |= 1 << cell
