"""The one-line forms of a side's Final Act and Tank Wars round (docs/notation.md): parse
and format round trips, and refusals that name the item and the reason."""

from __future__ import annotations

import pytest

from tankmap.analysis.play.final_act_lines import (
    FinalActLineError,
    LineReader,
    Now,
    unit_handles,
)
from tankmap.analysis.play.tank_wars_lines import TankWarsLineError, TankWarsLines
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Facing
from tankmap.rules.tank_wars.state import Command, Orders, initial_state

MIRROR = read_scenario(map_path("final-act/mirror"))
EXTRA = read_scenario(map_path("final-act/extra-forces"))
TW = read_scenario(map_path("tank-wars/default"))


def now_of(scenario: object) -> Now:
    units = scenario.units  # type: ignore[attr-defined]
    return Now([u.cell for u in units], [u.facing for u in units], [True] * len(units))


def test_handles_are_tank_names_and_numbered_infantry() -> None:
    handles = unit_handles(EXTRA)
    south = handles[:10]
    assert south == ["1B", "1A", "1", "C", "2", "2A", "2B", "AT1", "AT2", "RM"]


@pytest.mark.parametrize(
    "line",
    [
        "C:f3N",
        "C:f3Nxf9",
        "C:xf9",
        "1B:b3N 1A:c2Nxc5 2B:l3E",
        "-",
        "repair:C",
        "2:h4N throttle:2",
        "C:f2Nxf8 double:Cxf9",
        "air:a1xa5,a6",
        "spare:AT2",
    ],
)
def test_final_act_lines_round_trip(line: str) -> None:
    reader = LineReader(EXTRA)
    part = reader.parse(line, 0, "orders", now_of(EXTRA))
    assert reader.format(0, part) == line
    assert reader.parse(reader.format(0, part), 0, "orders", now_of(EXTRA)) == part


def test_final_act_orders_map_to_unit_indices() -> None:
    reader = LineReader(MIRROR)
    b = MIRROR.board
    part = reader.parse("c:f3NE d3:xd8 1b:b2N", 0, "orders", now_of(MIRROR))
    c = next(i for i, u in enumerate(MIRROR.units) if u.name == "C" and u.side.value == "south")
    on_d3 = next(i for i, u in enumerate(MIRROR.units) if u.cell == b.parse_cell("d3"))
    assert part.orders[c] == (b.parse_cell("f3"), Facing.NE)
    assert part.shells == {on_d3: b.parse_cell("d8")} and on_d3 not in part.orders


def test_an_order_without_a_facing_keeps_the_units_facing() -> None:
    reader = LineReader(MIRROR)
    part = reader.parse("C:f3", 0, "orders", now_of(MIRROR))
    (order,) = part.orders.values()
    assert order[1] is Facing.N and reader.format(0, part) == "C:f3N"


@pytest.mark.parametrize(
    ("line", "phase", "reason"),
    [
        ("", "orders", "empty line"),
        ("C", "orders", "expected UNIT:ORDER"),
        ("X9:f3N", "orders", "no unit of this side called 'X9'"),
        ("C:f3Q", "orders", "expected an order like C:f2N"),
        ("C:z3N", "orders", "cell 'z3' is off the 12x12 board"),
        ("C:f30N", "orders", "off the 12x12 board"),
        ("C:f3N C:f4N", "orders", "C is named twice"),
        ("e2:f3N", "orders", "C and AT1 share e2: name one of them"),
        ("a9:xf5", "orders", "no unit of this side stands on a9"),
        ("smoke:e5", "orders", "smoke is not declared in the orders phase"),
        ("C:f3N", "moved", "orders and shells are given in the orders phase"),
        ("double:C", "orders", "expected double:UNITxCELL"),
        ("air:a1", "orders", "expected air:CELLxCELL"),
    ],
)
def test_final_act_refusals_name_the_item(line: str, phase: str, reason: str) -> None:
    reader = LineReader(EXTRA)
    with pytest.raises(FinalActLineError) as err:
        reader.parse(line, 0, phase, now_of(EXTRA))
    assert reason in str(err.value)


def test_a_unit_out_of_the_game_takes_no_order() -> None:
    reader = LineReader(MIRROR)
    now = now_of(MIRROR)
    c = next(i for i, u in enumerate(MIRROR.units) if u.name == "C" and u.side.value == "south")
    now.alive[c] = False
    with pytest.raises(FinalActLineError, match="C is out of the game"):
        reader.parse("C:f3N", 0, "orders", now)


@pytest.mark.parametrize(
    ("line", "commands", "gunfire"),
    [
        ("heavy:s2N", {0: "straight2 N"}, []),
        ("medium:d1NE xc10 xc10", {1: "diagonal1 NE"}, ["c10", "c10"]),
        ("xa7 xb8 xc9", {}, ["a7", "b8", "c9"]),
        ("-", {}, []),
    ],
)
def test_tank_wars_lines_round_trip(
    line: str, commands: dict[int, str], gunfire: list[str]
) -> None:
    io = TankWarsLines(TW)
    orders = io.parse(line, 0, initial_state(TW))
    assert orders == Orders(
        {i: Command.parse(c) for i, c in commands.items()},
        tuple(TW.board.parse_cell(c) for c in gunfire),
    )
    assert io.format(orders) == line


def test_tank_wars_long_token_names_are_read_too() -> None:
    io = TankWarsLines(TW)
    orders = io.parse("heavy:straight2N e2:diagonal1-ne", 0, initial_state(TW))
    assert io.format(orders) == "heavy:s2N medium:d1NE"


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("tank:s1N", "no vehicle of this side called 'tank'"),
        ("heavy:s3N", "expected a command token"),
        ("heavy:s1NE", "cannot point NE"),
        ("heavy:s1N heavy:s2N", "has two tokens"),
        ("heavy s1N", "expected VEHICLE:TOKEN"),
        ("xz99", "cell 'z99' is off the 6x12 board"),
        ("x", "not a cell name"),
        ("f6:s1N", "no vehicle of this side on f6"),
    ],
)
def test_tank_wars_refusals_name_the_item(line: str, reason: str) -> None:
    with pytest.raises(TankWarsLineError) as err:
        TankWarsLines(TW).parse(line, 0, initial_state(TW))
    assert reason in str(err.value)
