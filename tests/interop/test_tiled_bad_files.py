"""Bad Tiled files: every kind of input that crashed the reader in the hardening audit
(tile entries that are not objects, ids missing or not numbers, inf/nan sizes, unknown XML
encodings, lists where numbers belong...), entity tricks and decompression bombs. Each is
refused with one ``ScenarioFormatError`` line naming the file, the place and the value, and
``tankmap import`` exits 2 with one line and writes nothing."""

from __future__ import annotations

import base64
import copy
import gzip
import json
import random
import tracemalloc
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.tiled_cases import sources, tmj_case, tmx_case
from tankmap.cli import main
from tankmap.rules.errors import ScenarioFormatError, TankmapError
from tankmap.rules.fileformat import dumps_scenario, read_scenario
from tankmap.rules.scenario import Scenario
from tankmap.rules.tiled import dumps_tmj, dumps_tmx
from tankmap.rules.tiled_read import loads_tmj, loads_tmx

ROOT = Path(__file__).resolve().parents[2]
MIRROR = read_scenario(ROOT / "maps" / "final-act" / "mirror.json")  # 12x12, 1 tile layer
TMX = dumps_tmx(MIRROR)
TMJ: dict[str, Any] = json.loads(dumps_tmj(MIRROR))
CELLS = 12 * 12


def _refusal(read: Callable[[bytes, str], Scenario], data: bytes, name: str) -> str:
    with pytest.raises(ScenarioFormatError) as err:
        read(data, name)
    message = str(err.value)
    assert "\n" not in message and message.isprintable() and len(message) < 600, message
    return message


# --- .tmj: a schema checked before use ------------------------------------------------


def _set(value: Any, *path: Any) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return edit


def _drop(*path: Any) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        node = doc
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]

    return edit


def _layer_text(data: str, compression: str) -> Callable[[dict[str, Any]], None]:
    return _set({**TMJ["layers"][0], "data": data, "compression": compression}, "layers", 0)


TMJ_CASES = [  # (edit, the place named, what the message quotes)
    (_set(7, "tilesets", 0, "tiles", 3), "$.tilesets[0].tiles[3]", "(got 7)"),
    (_set(["x"], "tilesets", 0, "tiles", 3), "$.tilesets[0].tiles[3]", "(got ['x'])"),
    (_set("3", "tilesets", 0, "tiles", 3, "id"), "$.tilesets[0].tiles[3].id", "(got '3')"),
    (_set([3], "tilesets", 0, "tiles", 3, "id"), "$.tilesets[0].tiles[3].id", "(got [3])"),
    (_drop("tilesets", 0, "tiles", 3, "id"), "$.tilesets[0].tiles[3].id", "needs 'id'"),
    (_set(-1, "tilesets", 0, "tiles", 3, "id"), "$.tilesets[0].tiles[3].id", "(got -1)"),
    (_set(2**40, "tilesets", 0, "tiles", 3, "id"), "$.tilesets[0].tiles[3].id", "1099511627776"),
    (_set(None, "tilesets", 0, "firstgid"), "$.tilesets[0].firstgid", "(got null)"),
    (_set([12], "width"), "$.width", "(got [12])"),
    (_set("12", "height"), "$.height", "(got '12')"),
    (_set(1e308, "width"), "$.width", "(got 1e+308)"),
    (_set(10_000, "width"), "$.width", "from 1 to 26"),
    (_set(0.5, "tilewidth"), "$.tilewidth", "(got 0.5)"),
    (_set([32], "layers", 1, "objects", 0, "x"), "$.layers[1].objects[0].x", "(got [32])"),
    (_set(1e300, "layers", 1, "objects", 0, "y"), "$.layers[1].objects[0].y", "1e+300"),
    (_set("13", "layers", 1, "objects", 0, "gid"), "$.layers[1].objects[0].gid", "'13'"),
    (_set([5], "layers", 0, "data", 17), "$.layers[0].data[17]", "(got [5])"),
    (_set(-1, "layers", 0, "data", 17), "$.layers[0].data[17]", "(got -1)"),
    (_set(2**32, "layers", 0, "data", 17), "$.layers[0].data[17]", "4294967296"),
    (_set("x", "layers", 1, "objects", 0), "$.layers[1].objects[0]", "(got 'x')"),
    (_set(3, "layers", 1, "objects"), "$.layers[1].objects", "(got 3)"),
    (_set("wall", "layers", 1, "type"), "$.layers[1].type", "(got 'wall')"),
    (_set(5, "properties"), "$.properties", "(got 5)"),
    (_set(["final-act"], "properties", 1, "value"), "$.properties[1].value", "['final-act']"),
    (_set({"type": "int", "value": "x"}, "properties", 3), "$.properties[3].name", "needs"),
    (
        _set("1e3", "layers", 1, "objects", 0, "properties", 3, "value"),
        "$.layers[1].objects[0].properties[3].value",
        "(got '1e3')",
    ),
    (_set("\x1b[2J", "layers", 1, "type"), "$.layers[1].type", "'\\x1b[2J'"),
    (_set(True, "infinite"), "$.infinite", "infinite map"),
    (_layer_text("!!!!", ""), "$.layers[0].data", "not base64"),
    (_layer_text("AAAA", "lzma"), "$.layers[0].compression", "(got 'lzma')"),
    (_layer_text("KLUv/QBYAQAA", "zstd"), "$.layers[0].compression", "zstd"),
    (
        _layer_text(base64.b64encode(gzip.compress(bytes(4 * CELLS))).decode(), "zlib"),
        "$.layers[0].data",
        "cannot inflate the zlib data",
    ),
    (
        _layer_text(base64.b64encode(bytes(4 * CELLS - 4)).decode(), ""),
        "$.layers[0].data",
        "expected 144 tile ids of 4 bytes (the map's width x height), got 572 bytes",
    ),
]


@pytest.mark.parametrize("edit, place, quoted", TMJ_CASES)
def test_bad_tmj_names_file_place_and_value(
    edit: Callable[[dict[str, Any]], None], place: str, quoted: str
) -> None:
    doc = copy.deepcopy(TMJ)
    edit(doc)
    message = _refusal(loads_tmj, json.dumps(doc).encode(), "m.tmj")
    assert message.startswith("m.tmj: ") and place in message and quoted in message


@pytest.mark.parametrize(
    "text, place, quoted",
    [
        ('"width": 1e400', "$.width", "1e400 is too large for a number"),
        ('"width": NaN', "$", "NaN is not a JSON number"),
        ('"width": -Infinity', "$", "-Infinity"),
        ('"width": ' + "[" * 5000 + "]" * 5000, "$", "nested too deeply"),
        ('"width": ' + "[" * 70 + "12" + "]" * 70, "$.width[0][0]", "nested too deeply"),
    ],
)
def test_inf_nan_and_deep_nesting_in_tmj(text: str, place: str, quoted: str) -> None:
    data = json.dumps(TMJ).replace('"width": 12', text, 1).encode()
    message = _refusal(loads_tmj, data, "m.tmj")
    assert message.startswith(f"m.tmj: {place}") and quoted in message


# --- .tmx: checked attributes, safe XML ------------------------------------------------


def _tmx(old: str, new: str) -> str:
    assert old in TMX, old
    return TMX.replace(old, new, 1)


TMX_CASES = [  # (text, the place named, what the message quotes)
    (_tmx('<tile id="3">', '<tile id="x">'), "map/tileset[1]/tile[4]/@id", "(got 'x')"),
    (_tmx('<tile id="3">', "<tile>"), "map/tileset[1]/tile[4]/@id", "needs 'id'"),
    (_tmx('<tile id="3">', '<tile id="-1">'), "map/tileset[1]/tile[4]/@id", "(got -1)"),
    (_tmx('<tile id="3">', '<tile id="3.0">'), "map/tileset[1]/tile[4]/@id", "'3.0'"),
    (_tmx('width="12"', 'width="inf"'), "map/@width", "(got 'inf')"),
    (_tmx('width="12"', 'width="nan"'), "map/@width", "(got 'nan')"),
    (_tmx('width="12"', 'width="1e308"'), "map/@width", "(got '1e308')"),
    (_tmx('width="12"', 'width="100000"'), "map/@width", "(got 100000)"),
    (_tmx('height="12"', 'height="' + "9" * 40 + '"'), "map/@height", "at most 30 digits"),
    (_tmx('tilewidth="32"', 'tilewidth="0"'), "map/@tilewidth", "(got 0)"),
    (_tmx('firstgid="1"', 'firstgid="one"'), "map/tileset[1]/@firstgid", "'one'"),
    (_tmx('x="32" y="352"', 'x="nan" y="352"'), "map/objectgroup[1]/object[1]/@x", "'nan'"),
    (
        _tmx('x="32" y="352"', 'x="1e400" y="352"'),
        "map/objectgroup[1]/object[1]/@x",
        "small enough to hold (got '1e400')",
    ),
    (
        _tmx('name="damage" type="int" value="0"', 'name="damage" type="float" value="-1E999"'),
        "map/objectgroup[1]/object[1]/properties/property[4]/@value",
        "(got '-1E999')",
    ),
    (_tmx('gid="13"', 'gid="13x"'), "map/objectgroup[1]/object[1]/@gid", "'13x'"),
    (
        _tmx('name="damage" type="int" value="0"', 'name="damage" type="int" value="[]"'),
        "map/objectgroup[1]/object[1]/properties/property[4]/@value",
        "'[]'",
    ),
    (
        _tmx('name="wreck" type="bool" value="false"', 'name="wreck" type="bool" value="no"'),
        "map/objectgroup[1]/object[1]/properties/property[5]/@value",
        "'no'",
    ),
    (_tmx('encoding="csv">\n0,0,', 'encoding="csv">\n0,,'), "map/layer[1]/data (entry 2)", "''"),
    (_tmx('encoding="csv">\n0,0,', 'encoding="csv">\n0,-1,'), "map/layer[1]/data (entry 2)", "-1"),
    (_tmx('encoding="csv">\n0,0,', 'encoding="csv">\n0,'), "map/layer[1]/data", "144 tile ids"),
    (_tmx('encoding="csv"', 'encoding="yaml"'), "map/layer[1]/data/@encoding", "'yaml'"),
    (_tmx('encoding="csv"', 'encoding="base64"'), "map/layer[1]/data", "not base64"),
    (
        _tmx('encoding="csv"', 'encoding="base64" compression="zstd"'),
        "map/layer[1]/data/@compression",
        "zstd",
    ),
    (_tmx('name="ruleset"', 'name="rules"'), "map/properties", "no 'ruleset' map property"),
    (_tmx('infinite="0"', 'infinite="1"'), "map/@infinite", "infinite map"),
    (_tmx('infinite="0"', 'infinite="no"'), "map/@infinite", "'no'"),
    (_tmx('"orthogonal"', '"hexagonal"'), "map/@orientation", "(got 'hexagonal')"),
    (TMX.replace("<map ", "<board ").replace("</map>", "</board>"), "map", "<board>"),
    (TMX[: len(TMX) // 2], "map", "not valid XML"),
    (_tmx("</map>", "</map><map/>"), "map", "not valid XML"),
    (_tmx("<properties>", "<properties>" + "<g>" * 70 + "</g>" * 70), "map", "nested more than 64"),
]


@pytest.mark.parametrize("text, place, quoted", TMX_CASES)
def test_bad_tmx_names_file_element_and_value(text: str, place: str, quoted: str) -> None:
    message = _refusal(loads_tmx, text.encode(), "m.tmx")
    assert message.startswith(f"m.tmx: {place}: ") and quoted in message


@pytest.mark.parametrize(
    "encoding", ["klingon", "utf-32", "UTF-7", "cp037", "base64", "zlib", "rot13", "idna", "hz"]
)
def test_xml_declaration_with_an_unread_encoding_is_one_line(encoding: str) -> None:
    text = _tmx('encoding="UTF-8"', f'encoding="{encoding}"')
    message = _refusal(loads_tmx, text.encode(), "m.tmx")
    assert message.startswith("m.tmx: map: the XML declaration names an encoding")
    assert f"(got {encoding!r})" in message


TIMES = _tmx('value="Mirror"', 'value="Mirror \u00d7"')  # a title beyond ASCII


@pytest.mark.parametrize(
    "data",
    [
        TIMES.encode("utf-8"),
        b"\xef\xbb\xbf" + TIMES.encode("utf-8"),  # with a byte order mark
        TIMES.replace('"UTF-8"', '"UTF-16"').encode("utf-16"),
        TIMES.replace('"UTF-8"', '"ISO-8859-1"').encode("latin-1"),
        TIMES.replace('"UTF-8"', '"utf8"').encode("utf-8"),
    ],
    ids=["utf-8", "bom", "utf-16", "latin-1", "utf8"],
)
def test_encodings_tiled_and_xml_use_are_read(data: bytes) -> None:
    assert loads_tmx(data, "m.tmx").title == "Mirror \u00d7"


def test_undecodable_bytes_and_lone_surrogates() -> None:
    bad = TIMES.encode("utf-8").replace("\u00d7".encode(), b"\xff", 1)
    assert "not UTF-8 text (bad byte at offset" in _refusal(loads_tmx, bad, "m.tmx")
    ascii_text = TIMES.replace('"UTF-8"', '"US-ASCII"').encode("utf-8")
    assert "not US-ASCII text" in _refusal(loads_tmx, ascii_text, "m.tmx")
    with pytest.raises(ScenarioFormatError, match="lone surrogate"):
        loads_tmx(TMX.replace("Mirror", "\ud800"), "m.tmx")


# --- entities: refused, never expanded or fetched -------------------------------------


def _with_doctype(doctype: str, title: str) -> bytes:
    head, body = TMX.split("\n", 1)
    old = f'name="title" value="{MIRROR.title}"'
    assert old in body
    return (
        head + "\n" + doctype + "\n" + body.replace(old, f'name="title" value="{title}"')
    ).encode()


LAUGHS = (
    '<!DOCTYPE map [<!ENTITY l0 "lol">'
    + "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
    + "]>"
)


@pytest.mark.parametrize(
    "doctype, title",
    [
        (LAUGHS, "&l9;"),  # a billion laughs
        ('<!DOCTYPE map [<!ENTITY big "' + "x" * 10_000 + '">]>', "&big;" * 1000),
        ('<!DOCTYPE map [<!ENTITY ext SYSTEM "file:///etc/hostname">]>', "&ext;"),
        ('<!DOCTYPE map [<!ENTITY % ext SYSTEM "file:///etc/hostname"> %ext;]>', "x"),
        ('<!DOCTYPE map [<!ENTITY pic SYSTEM "a.png" NDATA png>]>', "x"),
    ],
    ids=["billion-laughs", "quadratic", "external", "parameter", "unparsed"],
)
def test_entity_declarations_are_refused(doctype: str, title: str) -> None:
    message = _refusal(loads_tmx, _with_doctype(doctype, title), "m.tmx")
    assert message.startswith("m.tmx: map: refused XML at line 2: the entity declaration")


def test_external_dtd_is_never_read(tmp_path: Path) -> None:
    """Old Tiled versions wrote a DOCTYPE naming Tiled's DTD: such a map reads, and the
    DTD (here a local file that defines an entity) is not opened."""
    dtd = tmp_path / "evil.dtd"
    dtd.write_text('<!ENTITY secret "from the DTD">')
    plain = _with_doctype('<!DOCTYPE map SYSTEM "http://mapeditor.org/dtd/1.0/map.dtd">', "T")
    assert loads_tmx(plain, "m.tmx").title == "T"
    in_attribute = _with_doctype(f'<!DOCTYPE map SYSTEM "{dtd.as_uri()}">', "&secret;")
    assert "from the DTD" not in loads_tmx(in_attribute, "m.tmx").title
    in_text = _with_doctype(f'<!DOCTYPE map SYSTEM "{dtd.as_uri()}">', "T").replace(
        b"</map>", b"&secret;</map>"
    )
    assert "undeclared entity 'secret'" in _refusal(loads_tmx, in_text, "m.tmx")


# --- decompression bombs ----------------------------------------------------------------


def _zeros(size: int, how: str) -> str:
    """``size`` zero bytes compressed (in 1 MB steps) and in base64."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31 if how == "gzip" else 15)
    parts = [packer.compress(bytes(1 << 20)) for _ in range(size >> 20)]
    return base64.b64encode(b"".join(parts) + packer.flush()).decode()


@pytest.fixture(scope="module")
def bombs() -> dict[str, str]:
    return {how: _zeros(256 << 20, how) for how in ("zlib", "gzip")}


def _bomb_file(fmt: str, text: str, how: str) -> bytes:
    if fmt == "tmj":
        doc = copy.deepcopy(TMJ)
        doc["layers"][0].update(data=text, encoding="base64", compression=how)
        return json.dumps(doc).encode()
    start = TMX.index('<data encoding="csv">')
    end = TMX.index("</data>", start)
    head = f'<data encoding="base64" compression="{how}">'
    return (TMX[:start] + head + text + TMX[end:]).encode()


@pytest.mark.parametrize("fmt", ["tmx", "tmj"])
@pytest.mark.parametrize("how", ["zlib", "gzip"])
def test_decompression_bomb_refused_with_the_layers_memory(
    bombs: dict[str, str], fmt: str, how: str
) -> None:
    """A layer that inflates to 256 MB is refused after inflating 577 bytes (the 12x12
    layer's 576 and one more): the reading holds well under 1 MB more than the file."""
    data = _bomb_file(fmt, bombs[how], how)
    assert len(data) < 400_000  # the file is small...
    read = loads_tmx if fmt == "tmx" else loads_tmj
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        message = _refusal(read, data, f"m.{fmt}")
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    place = "map/layer[1]/data" if fmt == "tmx" else "$.layers[0].data"
    assert message.startswith(f"m.{fmt}: {place}: the {how} data inflates to more than 576 bytes")
    assert peak < 4 * len(data) + (1 << 20), peak  # ... and so is what reading it took


def test_gzip_members_count_together_and_exact_layers_read() -> None:
    raw = b"".join(g.to_bytes(4, "little") for g in TMJ["layers"][0]["data"])
    half = len(raw) // 2
    two = gzip.compress(raw[:half], mtime=0) + gzip.compress(raw[half:], mtime=0)
    for data, how in ((two, "gzip"), (zlib.compress(raw), "zlib"), (raw, "")):
        doc = copy.deepcopy(TMJ)
        doc["layers"][0].update(data=base64.b64encode(data).decode(), compression=how)
        assert loads_tmj(json.dumps(doc)) == MIRROR
    doc["layers"][0].update(data=base64.b64encode(two + two).decode(), compression="gzip")
    assert "inflates to more than 576 bytes" in _refusal(loads_tmj, json.dumps(doc).encode(), "m")
    cut = zlib.compress(raw)[:-9]
    doc["layers"][0].update(data=base64.b64encode(cut).decode(), compression="zlib")
    assert "ends early" in _refusal(loads_tmj, json.dumps(doc).encode(), "m")


# --- group layers, the command, mutated files --------------------------------------------


def test_layers_inside_groups_are_read_in_both_formats() -> None:
    doc = copy.deepcopy(TMJ)
    doc["layers"] = [{"type": "group", "id": 9, "name": "g", "layers": doc["layers"]}]
    assert loads_tmj(json.dumps(doc)) == MIRROR
    text = _tmx("<layer ", '<group id="9" name="g">\n<layer ')
    text = text.replace("</objectgroup>\n</map>", "</objectgroup>\n</group></map>")
    assert "<group" in text and "</group>" in text
    assert loads_tmx(text) == MIRROR


@pytest.mark.parametrize(
    "name, data, quoted",
    [
        ("bad.tmx", TMX.replace('<tile id="3">', '<tile id="x">').encode(), "@id"),
        ("bad.tmx", _tmx('encoding="UTF-8"', 'encoding="base64"').encode(), "'base64'"),
        ("bad.tmx", _with_doctype(LAUGHS, "&l9;"), "entity declaration"),
        ("bad.tmj", json.dumps({**TMJ, "width": [12]}).encode(), "$.width"),
        ("zstd.tmj", b"", "zstd"),
        ("zstd.tmx", b"", "zstd"),
    ],
)
def test_import_command_refuses_in_one_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, data: bytes, quoted: str
) -> None:
    if name.startswith("zstd"):
        text = base64.b64encode(b"(\xb5/\xfd" + bytes(20)).decode()  # a zstd frame's magic
        data = _bomb_file(name[-3:], text, "zstd")
    src, out = tmp_path / name, tmp_path / "out.json"
    src.write_bytes(data)
    assert main(["import", str(src), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"tankmap import: error: {src}: ")
    assert quoted in err and not out.exists()


@pytest.mark.parametrize(
    "old, new, message",
    [
        ('value="tank"', 'value="zeppelin"', "property 'kind': unknown unit kind 'zeppelin'"),
        ('value="N"', 'value="X"', "property 'facing': not a facing: 'X'"),
        ('type="int" value="0"', 'type="int" value="-1"', "property 'damage': must be between"),
    ],
)
def test_an_illegal_unit_is_named_by_its_object(old: str, new: str, message: str) -> None:
    """The scenario reader's complaint about a unit names the object it came from."""
    units = TMX.index('<objectgroup id="2" name="units">')
    text = TMX[:units] + TMX[units:].replace(old, new, 1)
    got = _refusal(loads_tmx, text.encode(), "m.tmx")
    assert got.startswith(f"m.tmx: map/objectgroup[1]/object[1]: {message}")


SOURCES = sources()


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_mutated_tiled_files_give_one_typed_line(seed: int) -> None:
    """The fuzzer's mutations (``benchmarks/fuzz_tiled.py`` runs many more): a scenario or
    one short ``TankmapError``, never another exception."""
    rng = random.Random(seed)
    for fmt, data in (("tmj", tmj_case(rng, SOURCES[0])), ("tmx", tmx_case(rng, SOURCES[1]))):
        try:
            scenario = (loads_tmx if fmt == "tmx" else loads_tmj)(data, f"case.{fmt}")
        except TankmapError as exc:
            message = str(exc)
            assert "\n" not in message and len(message) < 600 and message.isprintable()
        else:
            assert dumps_scenario(scenario)
