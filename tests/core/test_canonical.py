"""``rules.fileformat.canonical``: the order files are written in (docs/formats.md)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tankmap import maps
from tankmap.rules.fileformat import canonical, dumps_scenario, read_scenario, write_scenario
from tankmap.rules.registry import get_ruleset

MAPS = sorted(Path(maps.ROOT).glob("*/*.json"))


@pytest.mark.parametrize("path", MAPS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_builtin_maps_are_stored_canonical(path: Path) -> None:
    assert dumps_scenario(canonical(read_scenario(path))) == path.read_text("utf-8")


def test_shuffled_terrain_is_written_as_the_same_bytes(tmp_path: Path) -> None:
    s = read_scenario(maps.ROOT / "tank-chess" / "sample-20.json")
    shuffled = s.with_terrain(
        replace(t, cells=t.cells[::-1])
        for t in reversed(s.terrain)  # same board
    )
    assert shuffled != s
    write_scenario(shuffled, tmp_path / "a.json")
    write_scenario(s, tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    assert get_ruleset(s.ruleset).check(canonical(shuffled)) == get_ruleset(s.ruleset).check(s)


def test_terrain_by_owner_then_kind_then_cells() -> None:
    s = read_scenario(maps.ROOT / "final-act" / "mirror.json")
    c = canonical(s.with_terrain(reversed(s.terrain)))
    b = s.board
    order = [(t.side.value if t.side else "", t.kind, b.cell_name(t.cells[0])) for t in c.terrain]
    assert order == [
        ("south", "berm-large", "c3"),
        ("south", "berm-small", "h2"),
        ("south", "berm-small", "j3"),
        ("south", "swamp", "b5"),
        ("south", "minefield", "f5"),
        ("north", "berm-large", "h10"),
        ("north", "berm-small", "b10"),
        ("north", "berm-small", "e10"),
        ("north", "swamp", "j7"),
        ("north", "minefield", "e8"),
    ]


def test_units_keep_their_order() -> None:
    """Tank Wars moves vehicles in card order (the order of the units); records and seeded
    games number units by it, so it is part of the scenario and written as it is."""
    s = read_scenario(maps.ROOT / "tank-wars" / "flank-artillery.json")
    turned = s.with_units(reversed(s.units))
    assert canonical(turned).units == turned.units
    assert dumps_scenario(canonical(turned)) != dumps_scenario(canonical(s))
