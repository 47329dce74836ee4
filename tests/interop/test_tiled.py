"""Tiled maps: round trips, a real client (pytmx), Tiled's JSON structure, edits made in
Tiled, and bad files."""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tankmap.cli import main
from tankmap.rules.board import Board
from tankmap.rules.errors import ScenarioFormatError
from tankmap.rules.fileformat import dumps_scenario, loads_scenario, read_scenario
from tankmap.rules.geometry import Facing, Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario, Terrain, Unit
from tankmap.rules.tiled import TILE, dumps_tmj, dumps_tmx, tile_catalogue
from tankmap.rules.tiled_read import loads_tmj, loads_tmx, read_tiled
from tankmap.rules.violations import is_legal

ROOT = Path(__file__).resolve().parents[2]
MAPS = sorted((ROOT / "maps").glob("*/*.json"))
SCHEMA = json.loads((Path(__file__).parent / "tiled_map.schema.json").read_text())


@pytest.mark.parametrize("path", MAPS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_builtin_maps_round_trip_both_formats(path: Path) -> None:
    s = read_scenario(path)
    assert dumps_scenario(loads_tmx(dumps_tmx(s))) == dumps_scenario(s)
    assert dumps_scenario(loads_tmj(dumps_tmj(s))) == dumps_scenario(s)


@pytest.mark.parametrize("path", MAPS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_tmj_has_tileds_documented_structure(path: Path) -> None:
    jsonschema.validate(json.loads(dumps_tmj(read_scenario(path))), SCHEMA)


@pytest.mark.parametrize("path", MAPS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_pytmx_loads_every_exported_tmx(path: Path, tmp_path: Path) -> None:
    pytmx = pytest.importorskip("pytmx")
    s = read_scenario(path)
    out = tmp_path / "board.tmx"
    assert main(["export", str(path), "-o", str(out)]) == 0
    tmx = pytmx.TiledMap(str(out))
    assert (tmx.width, tmx.height) == (s.board.columns, s.board.rows)
    assert (tmx.tilewidth, tmx.tileheight) == (TILE, TILE)
    assert tmx.properties["ruleset"] == s.ruleset
    for name, value in s.options.items():
        assert tmx.properties[f"option:{name}"] == value
    names = [layer.name for layer in tmx.layers]
    assert names[0] == "terrain" and "units" in names and "tankmap pieces" in names
    units = tmx.get_layer_by_name("units")
    unit_objects = [o for o in units if o.type == "unit"]
    assert len(unit_objects) == len(s.units)
    for obj, unit in zip(unit_objects, s.units, strict=True):
        assert obj.properties["kind"] == unit.kind
        assert obj.properties["side"] == unit.side.value
        assert obj.properties["wreck"] is unit.wreck
        if unit.facing is not None:
            assert obj.properties["facing"] == unit.facing.name
    lanes = [o for o in units if o.type == "lane"]
    assert len(lanes) == sum(1 for t in s.terrain if t.lane is not None)
    drawn = sum(
        1 for layer in tmx.visible_tile_layers for _x, _y, g in tmx.layers[layer].iter_data() if g
    )
    assert drawn == sum(len(t.cells) for t in s.terrain)


def test_tileset_image_has_a_tile_for_every_kind() -> None:
    from PIL import Image

    image = Image.open(ROOT / "resources" / "tiled" / "tankmap-tiles.png")
    tiles = tile_catalogue()
    columns = image.width // TILE
    assert columns * (image.height // TILE) >= len(tiles)
    kinds = {(t.role, t.kind) for t in tiles}
    for name in ("final-act", "tank-chess", "tank-wars"):
        rs = get_ruleset(name)
        assert {("terrain", k) for k in rs.terrain_kinds} <= kinds
        assert {("unit", k) for k in rs.unit_kinds} <= kinds


# --- generated scenarios -------------------------------------------------------------------


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    ruleset = draw(st.sampled_from(["final-act", "tank-chess", "tank-wars"]))
    rs = get_ruleset(ruleset)
    default = rs.new_scenario(None, {}).board
    sizes = [(default.columns, default.rows)] + [
        (c, r) for c in (8, 12, 16) for r in (8, 12, 16) if rs.board_problem(c, r) is None
    ]
    cols, rows = draw(st.sampled_from(sizes))
    board = Board.of(cols, rows)
    n = cols * rows
    used: set[int] = set()
    terrain = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(rs.terrain_kinds))
        cells = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4, unique=True))
        if used & set(cells):
            continue
        used |= set(cells)
        side = draw(st.sampled_from([None, Side.SOUTH, Side.NORTH]))
        lane = arrow = None
        if kind == "minefield":
            lane = draw(st.sampled_from(cells))
            arrow = draw(st.sampled_from(list(Facing)))
        shape = draw(st.sampled_from([None, "L", "bar"])) if kind == "obstacle" else None
        terrain.append(Terrain(kind, tuple(cells), side, lane, arrow, shape))
    units = []
    for _ in range(draw(st.integers(0, 8))):
        units.append(
            Unit(
                kind=draw(st.sampled_from(rs.unit_kinds)),
                side=draw(st.sampled_from(list(Side))),
                cell=draw(st.integers(0, n - 1)),
                facing=draw(st.sampled_from([None, *Facing])),
                name=draw(st.sampled_from([None, "C", "1A", "x y"])),
                damage=draw(st.integers(0, 1)) if ruleset == "final-act" else 0,
                armour=draw(st.sampled_from([None, 1, 3])) if ruleset == "tank-wars" else None,
                wreck=draw(st.booleans()),
            )
        )
    options = {"max_rounds": draw(st.integers(1, 99))} if ruleset == "final-act" else {}
    xml_text = st.characters(blacklist_categories=("Cs", "Cc"))
    s = Scenario(
        ruleset=ruleset,
        board=board,
        options=options,
        terrain=tuple(terrain),
        units=tuple(units),
        title=draw(st.text(xml_text, max_size=12)),
        notes="a\nb",
        to_move=draw(st.sampled_from(list(Side))),
    )
    try:  # only scenarios the reader accepts (e.g. Tank Chess pieces carry no armour)
        loads_scenario(dumps_scenario(s))
    except ScenarioFormatError:
        assume(False)
    return s


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_generated_scenarios_round_trip(s: Scenario) -> None:
    text = dumps_scenario(s)
    assert dumps_scenario(loads_tmx(dumps_tmx(s))) == text
    assert dumps_scenario(loads_tmj(dumps_tmj(s))) == text


def test_overlapping_pieces_go_on_a_second_layer_and_come_back() -> None:
    s = read_scenario(ROOT / "maps" / "final-act" / "mirror.json")
    berm = next(t for t in s.terrain if t.kind.startswith("berm"))
    swamp = Terrain("swamp", berm.cells, berm.side)
    both = s.with_terrain((*s.terrain, swamp))
    doc = json.loads(dumps_tmj(both))
    assert [la["name"] for la in doc["layers"] if la["type"] == "tilelayer"] == [
        "terrain",
        "terrain 2",
    ]
    assert dumps_scenario(loads_tmj(dumps_tmj(both))) == dumps_scenario(both)


# --- edits made in Tiled ----------------------------------------------------------------


def _mirror() -> Scenario:
    return read_scenario(ROOT / "maps" / "final-act" / "mirror.json")


def test_a_berm_moved_in_tiled_imports_moved_and_check_sees_it() -> None:
    s = _mirror()
    doc = json.loads(dumps_tmj(s))
    terrain = doc["layers"][0]["data"]
    cols, rows = doc["width"], doc["height"]
    berm = next(t for t in s.terrain if t.kind == "berm-small" and t.side is Side.SOUTH)
    b = s.board
    tile = terrain[(rows - 1 - b.row_of(berm.cells[0])) * cols + b.col_of(berm.cells[0])]
    for c in berm.cells:  # lift the berm ...
        terrain[(rows - 1 - b.row_of(c)) * cols + b.col_of(c)] = 0
    moved = [(b.col_of(c), b.row_of(c) + 3) for c in berm.cells]  # ... and drop it 3 rows up
    for x, r in moved:
        terrain[(rows - 1 - r) * cols + x] = tile
    back = loads_tmj(json.dumps(doc))
    new_berm = [
        t
        for t in back.terrain
        if t.kind == "berm-small" and t.side is Side.SOUTH and t not in s.terrain
    ]
    assert len(new_berm) == 1
    assert sorted(new_berm[0].cells) == sorted(b.cell(x, r) for x, r in moved)
    violations = get_ruleset("final-act").check(back)
    assert not is_legal(violations)  # berms must stay in the owner's first rows
    assert any(set(v.cells) & set(new_berm[0].cells) for v in violations)


def test_a_property_changed_in_tiled_is_read() -> None:
    s = _mirror()
    text = dumps_tmx(s)
    unit = s.units[0]
    needle = f'<property name="facing" value="{unit.facing.name}" />'
    assert needle in text
    edited = text.replace(needle, '<property name="facing" value="E" />', 1)
    back = loads_tmx(edited)
    assert back.units[0].facing is Facing.E
    assert back.units[1:] == s.units[1:]


def test_a_unit_object_dragged_to_another_cell() -> None:
    s = _mirror()
    doc = json.loads(dumps_tmj(s))
    units = next(la for la in doc["layers"] if la["name"] == "units")
    first = units["objects"][0]
    first["x"] += TILE + 5  # one cell east, not snapped to the grid
    back = loads_tmj(json.dumps(doc))
    b = s.board
    cell = s.units[0].cell
    assert back.units[0].cell == b.cell(b.col_of(cell) + 1, b.row_of(cell))


def test_base64_zlib_layer_data_as_tiled_writes_it() -> None:
    s = _mirror()
    doc = json.loads(dumps_tmj(s))
    layer = doc["layers"][0]
    raw = b"".join(g.to_bytes(4, "little") for g in layer["data"])
    layer["data"] = base64.b64encode(zlib.compress(raw)).decode()
    layer["encoding"], layer["compression"] = "base64", "zlib"
    assert loads_tmj(json.dumps(doc)) == s
    text = dumps_tmx(s)
    start = text.index('<data encoding="csv">')
    end = text.index("</data>", start)
    tmx = (
        text[:start]
        + '<data encoding="base64" compression="zlib">'
        + base64.b64encode(zlib.compress(raw)).decode()
        + text[end:]
    )
    assert loads_tmx(tmx) == s


# --- bad files --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, where",
    [
        ("{", "$"),
        ("[]", "$"),
        (
            '{"width": 12, "height": 12, "tilewidth": 32, "tileheight": 32, "tilesets": [], '
            '"layers": []}',
            "properties",
        ),
        ('{"width": 0, "height": 12}', "width"),
    ],
)
def test_bad_tmj_names_the_place(text: str, where: str) -> None:
    with pytest.raises(ScenarioFormatError) as err:
        loads_tmj(text, "x.tmj")
    assert "x.tmj" in str(err.value) and where in str(err.value)


def test_control_characters_refused_for_tmx_but_kept_in_tmj() -> None:
    from dataclasses import replace

    from tankmap.rules.errors import TankmapError

    s = replace(_mirror(), title="bell\x07")
    with pytest.raises(TankmapError, match="export as .tmj"):
        dumps_tmx(s)
    assert loads_tmj(dumps_tmj(s)).title == "bell\x07"


def test_tile_off_the_catalogue_and_bad_xml() -> None:
    doc = json.loads(dumps_tmj(_mirror()))
    doc["layers"][0]["data"][0] = 999
    with pytest.raises(ScenarioFormatError, match=r"data\[0\].*tile 999"):
        loads_tmj(json.dumps(doc), "m.tmj")
    with pytest.raises(ScenarioFormatError, match="not valid XML"):
        loads_tmx("<map", "m.tmx")


def test_cli_export_import_round_trip_and_refusals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = ROOT / "maps" / "tank-chess" / "basic-16.json"
    out = tmp_path / "basic"
    assert main(["export", str(src), "--format", "tmj", "-o", str(out)]) == 0
    assert (tmp_path / "basic.tmj").exists() and (tmp_path / "tankmap-tiles.png").exists()
    assert main(["import", str(tmp_path / "basic.tmj"), "-o", str(tmp_path / "b.json")]) == 0
    assert (tmp_path / "b.json").read_text() == src.read_text()
    assert "legal" in capsys.readouterr().out
    assert main(["import", str(tmp_path / "basic.tmj"), "-o", str(tmp_path / "b.json")]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["export", str(src), "-o", str(tmp_path / "x.png")]) == 2
    assert main(["import", str(src), "-o", str(tmp_path / "c.json")]) == 2
    assert read_tiled(tmp_path / "basic.tmj") == read_scenario(src)


def test_cli_export_keeps_a_foreign_tileset_and_a_disagreeing_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unrelated tankmap-tiles.png beside OUT is refused unless --force (the same image
    is kept as it is); an OUT named .tmx with --format tmj is an error, not OUT.tmx.tmj."""
    src = str(ROOT / "maps" / "final-act" / "mirror.json")
    tiles = tmp_path / "tankmap-tiles.png"
    tiles.write_bytes(b"my own picture")
    assert main(["export", src, "-o", str(tmp_path / "new1.tmx")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith(
        "tankmap-tiles.png: already exists and is not tankmap's tileset image "
        "(use --force to overwrite)"
    )
    assert tiles.read_bytes() == b"my own picture" and not (tmp_path / "new1.tmx").exists()
    assert main(["export", src, "-o", str(tmp_path / "new1.tmx"), "--force"]) == 0
    assert tiles.read_bytes().startswith(b"\x89PNG")
    assert main(["export", src, "-o", str(tmp_path / "new2.tmx")]) == 0  # the same image
    assert main(["export", src, "-o", str(tmp_path / "new3.tmx"), "--format", "tmj"]) == 2
    assert "the name says a tmx map but --format says tmj" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "new1.tmx",
        "new2.tmx",
        "tankmap-tiles.png",
    ]
