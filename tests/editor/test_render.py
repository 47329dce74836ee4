"""Every built-in map opens and renders in the editor; exports write real PNG/SVG/PDF."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tankmap.editor.export import (
    export_png,
    export_setup_sheets,
    export_svg,
    setup_lines,
    side_only,
)
from tankmap.maps import builtin_maps
from tankmap.rules.fileformat import read_scenario
from tankmap.rules.geometry import Side

MAPS = builtin_maps()


@pytest.mark.parametrize("path", MAPS, ids=[f"{p.parent.name}/{p.stem}" for p in MAPS])
def test_builtin_map_renders(make_window: Any, path: Path, tmp_path: Path) -> None:
    w = make_window(path)
    s = w.doc.scenario
    assert len(w.ctx.scene.piece_items()) == len(s.units) + len(s.terrain)
    w.select_all()  # selection outlines and (no) unit view
    if s.units:
        w.doc.select([s.units[0]])  # the unit view of one unit
    image = w.grab()
    assert not image.isNull() and image.width() >= 800
    out = tmp_path / "shot.png"
    assert image.save(str(out))
    assert out.stat().st_size > 10_000
    title = w.windowTitle()
    assert path.name in title
    assert ("provisional" in title) == w.doc.ruleset.provisional


def test_exports(make_window: Any, tmp_path: Path, repo_root: Path) -> None:
    s = read_scenario(repo_root / "maps" / "final-act" / "flanks-vs-centre.json")
    make_window()  # a QApplication and window exist
    export_png(s, tmp_path / "b.png")
    assert (tmp_path / "b.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    export_svg(s, tmp_path / "b.svg")
    assert "<svg" in (tmp_path / "b.svg").read_text(encoding="utf-8")
    assert export_setup_sheets(s, tmp_path / "b.pdf") == 2
    assert (tmp_path / "b.pdf").read_bytes()[:5] == b"%PDF-"


def test_setup_sheet_hides_the_other_side(repo_root: Path) -> None:
    s = read_scenario(repo_root / "maps" / "final-act" / "flanks-vs-centre.json")
    south = side_only(s, Side.SOUTH)
    assert south.units and all(u.side is Side.SOUTH for u in south.units)
    assert all(t.side in (None, Side.SOUTH) for t in south.terrain)
    assert len(setup_lines(s, Side.SOUTH)) == len(s.units_of(Side.SOUTH)) + sum(
        t.side is Side.SOUTH for t in s.terrain
    )


def test_export_action_uses_the_prompted_path(
    make_window: Any, prompter: Any, tmp_path: Path
) -> None:
    w = make_window()
    prompter.save = str(tmp_path / "x.svg")
    w.run_action("file.export_svg")
    assert (tmp_path / "x.svg").exists()


def test_cli_edit_missing_file_is_one_line_error(capsys: Any, tmp_path: Path) -> None:
    from tankmap.cli import main

    assert main(["edit", str(tmp_path / "nope.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file" in err


def test_sheet_image_renders(make_window: Any, repo_root: Path) -> None:
    from tankmap.editor.export import sheet_image

    make_window()
    s = read_scenario(repo_root / "maps" / "tank-wars" / "default.json")
    image = sheet_image(s, Side.NORTH, 400, 560)
    assert (image.width(), image.height()) == (400, 560)
    assert len({image.pixel(x, 300) for x in range(0, 400, 7)}) > 3  # a board was drawn
