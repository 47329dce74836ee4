"""Tank Chess is drawn White against Black (editor and reports alike); the other games keep
blue and red."""

from __future__ import annotations

from typing import Any

from tankmap.analysis.board_figure import side_look
from tankmap.editor.items import UnitItem
from tankmap.maps import map_path
from tankmap.rules.geometry import Side


def test_tank_chess_tokens_are_white_and_black_with_outlines() -> None:
    (wf, wo, wt), (bf, bo, bt) = (
        side_look("tank-chess", Side.SOUTH),
        side_look("tank-chess", Side.NORTH),
    )
    assert wf.lower() > "#e0" and bf.lower() < "#30"  # light fill / dark fill
    assert wo != wf and bo != bf and wt != wf and bt != bf  # outlines and text contrast
    assert side_look("final-act", Side.SOUTH)[0] != side_look("final-act", Side.NORTH)[0]


def test_editor_units_use_the_same_look(make_window: Any) -> None:
    w = make_window(map_path("tank-chess/basic-16"))
    items = [i for i in w.ctx.scene.items() if isinstance(i, UnitItem)]
    assert items
    for item in items:
        assert item.look == side_look("tank-chess", item.piece.side)
