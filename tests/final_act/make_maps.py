"""Rebuilds maps/final-act/*.json (canonical bytes via write_scenario); run from the repo root:
``.venv/bin/python tests/final_act/make_maps.py``. Each map is checked legal and complete."""

from __future__ import annotations

from tankmap.rules.board import Board
from tankmap.rules.fileformat import write_scenario
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Terrain, Unit
from tankmap.rules.violations import is_complete, is_legal

B = Board.of(12, 12)
P = B.parse_cell
S, N = Side.SOUTH, Side.NORTH


def T(  # noqa: N802 - a short builder name keeps the map tables readable
    kind: str, side: Side, cells: str, lane: str | None = None, arrow: str | None = None
) -> Terrain:
    return Terrain(
        kind,
        tuple(P(c) for c in cells.split()),
        side,
        None if lane is None else P(lane),
        None if arrow is None else Facing.parse(arrow),
    )


def tanks(side: Side, spec: str, facing: str) -> list[Unit]:
    return [
        Unit("tank", side, P(c), Facing.parse(facing), n)
        for n, c in (x.split("@") for x in spec.split())
    ]


def mirror_terrain(t: Terrain) -> Terrain:
    return Terrain(
        t.kind,
        tuple(sorted(B.mirror(c) for c in t.cells)),
        N,
        None if t.lane is None else B.mirror(t.lane),
        None if t.arrow is None else t.arrow.opposite,
    )


def mirror_unit(u: Unit) -> Unit:
    return Unit(
        u.kind, N, B.mirror(u.cell), None if u.facing is None else u.facing.opposite, u.name
    )


def save(sc: Scenario, name: str) -> None:
    v = get_ruleset("final-act").check(sc)
    assert is_legal(v) and is_complete(v), (name, v)
    write_scenario(sc, f"maps/final-act/{name}")


def main() -> None:
    """Write the three maps (each checked legal and complete first)."""
    # --- flanks vs centre
    south_t = [
        T("berm-large", S, "e3 f3 g3"),
        T("berm-small", S, "d2 d3"),
        T("berm-small", S, "h2 h3"),
        T("swamp", S, "f5 g5 f6 g6"),
        T("minefield", S, "h5 i5 j5", "j5", "N"),
    ]
    south_u = tanks(S, "1B@a3 1A@b3 1@b2 C@f2 2@k2 2A@k3 2B@l3", "N")
    north_t = [
        T("berm-large", N, "j10 k10 l10"),
        T("berm-small", N, "b10 c10"),
        T("berm-small", N, "k11 k12"),
        T("swamp", N, "a7 b7 a8 b8"),
        T("minefield", N, "j7 k7 l7", "k7", "S"),
    ]
    north_u = tanks(N, "2B@d10 2A@e10 2@e11 C@f11 1@g11 1A@g10 1B@h10", "S")
    save(
        Scenario(
            "final-act",
            B,
            {},
            tuple(south_t + north_t),
            tuple(south_u + north_u),
            title="Flanks vs centre",
            author="tankmap",
            notes="South closes the middle: a berm wall on row 3, the swamp in the centre and the "
            "minefield beside it, and sends its tanks up both flanks (the lane on j5 opens "
            "the right flank). North leaves the middle open: berms, swamp and minefield sit "
            "on the flanks and all seven tanks face the centre lane.",
        ),
        "flanks-vs-centre.json",
    )

    # --- mirror: north is the 180-degree image of south
    ms_t = [
        T("berm-large", S, "c3 d3 e3"),
        T("berm-small", S, "h2 h3"),
        T("berm-small", S, "j3 k3"),
        T("swamp", S, "b5 c5 b6 c6"),
        T("minefield", S, "f5 g5 h5", "g5", "N"),
    ]
    ms_u = tanks(S, "1B@b2 1A@c2 1@d3 C@f2 2@h3 2A@i2 2B@k2", "N")
    save(
        Scenario(
            "final-act",
            B,
            {},
            tuple(ms_t + [mirror_terrain(t) for t in ms_t]),
            tuple(ms_u + [mirror_unit(u) for u in ms_u]),
            title="Mirror",
            author="tankmap",
            notes="Both sides set up identically: north is south turned 180 degrees about the "
            "board's centre (cells and facings). Neither side has an advantage from the "
            "map, so simulated games should come out even; a balance test.",
        ),
        "mirror.json",
    )

    # --- extra forces
    xs_t = [
        T("berm-large", S, "d3 e3 f3"),
        T("berm-small", S, "a3 b3"),
        T("berm-small", S, "j2 j3"),
        T("swamp", S, "h5 i5 h6 i6"),
        T("minefield", S, "c5 d5 e5", "d5", "N"),
    ]
    xs_u = tanks(S, "1B@a2 1A@b2 1@c3 C@e2 2@g3 2A@i3 2B@k2", "N") + [
        Unit("at", S, P("e2"), Facing.N),
        Unit("at", S, P("h3"), Facing.N),
        Unit("rm", S, P("f1"), Facing.N),
    ]
    xn_t = [
        T("berm-large", N, "f10 g10 h10"),
        T("berm-small", N, "c10 c11"),
        T("berm-small", N, "k10 l10"),
        T("swamp", N, "d7 e7 d8 e8"),
        T("minefield", N, "i8 j8 k8", "j8", "S"),
    ]
    xn_u = tanks(N, "2B@b11 2A@d10 2@e11 C@g11 1@i10 1A@j11 1B@l11", "S") + [
        Unit("at", N, P("e10"), Facing.S),
        Unit("at", N, P("e10"), Facing.S),
        Unit("rm", N, P("h12"), Facing.S),
    ]
    save(
        Scenario(
            "final-act",
            B,
            {"extra_forces": True},
            tuple(xs_t + xn_t),
            tuple(xs_u + xn_u),
            title="Extra Forces",
            author="tankmap",
            notes="The Extra Forces expansion: each side adds two anti-tank infantry units and a "
            "repair/medic unit. South rides an AT with its command tank on e2 and keeps the "
            "R/M behind the berm; north stacks both ATs on e10 in front of its centre and "
            "keeps the R/M on its back row. The minefield lanes (d5 north, j8 south) are the "
            "short ways through.",
        ),
        "extra-forces.json",
    )


if __name__ == "__main__":
    main()
    print("ok")
