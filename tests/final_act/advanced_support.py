"""Helpers of the docs/rules.md §1.8 round tests (test_advanced.py, test_advanced_tokens.py): a
12 x 12 Final Act game with Extra Forces, units facing the enemy, and one round played from
``{unit index: (cell, facing)}`` moves and ``{unit index: cell}`` shells."""

from __future__ import annotations

from tankmap.rules.board import Board
from tankmap.rules.final_act.engine import Game, State
from tankmap.rules.final_act.engine_advanced import Actions
from tankmap.rules.final_act.tables import Order
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.scenario import Scenario, Terrain, Unit

B = Board.of(12, 12)
S, N = Side.SOUTH, Side.NORTH
c = B.parse_cell


def tank(side: Side, cell: str, name: str, damage: int = 0, wreck: bool = False) -> Unit:
    facing = Facing.N if side is S else Facing.S
    return Unit("tank", side, c(cell), facing, name, damage, wreck=wreck)


def rm(side: Side, cell: str) -> Unit:
    return Unit("rm", side, c(cell), Facing.N if side is S else Facing.S)


def at(side: Side, cell: str) -> Unit:
    return Unit("at", side, c(cell), Facing.N if side is S else Facing.S)


def game(*units: Unit, terrain: tuple[Terrain, ...] = (), **options: object) -> Game:
    opts = {"extra_forces": True, **options}
    return Game(Scenario("final-act", B, opts, terrain, units))  # type: ignore[arg-type]


def stay(g: Game) -> list[Order | None]:
    return [None] * len(g.scenario.units)


def play(
    g: Game,
    st: State,
    moves: dict[int, tuple[str, Facing]] | None = None,
    shells: dict[int, str] | None = None,
    actions: Actions | None = None,
) -> None:
    orders = stay(g)
    for u, (cell, facing) in (moves or {}).items():
        orders[u] = (c(cell), facing)
    g.play_round(st, orders, {u: c(t) for u, t in (shells or {}).items()}, actions)


# Far-away tanks keep both sides in the game: south 2B a1, north 2B l12 (indices 0, 1).
FAR = (tank(S, "a1", "2B"), tank(N, "l12", "2B"))
