"""Editing tools: each receives the view's mouse events as ``CellEvent``s and pushes at most
one undoable edit per gesture (a drag is one step)."""

from __future__ import annotations

from tankmap.editor.tools.base import CellEvent, Tool
from tankmap.editor.tools.erase import EraseTool
from tankmap.editor.tools.place import PlaceTool
from tankmap.editor.tools.select import SelectTool
from tankmap.editor.tools.stamp import StampTool

__all__ = ["CellEvent", "EraseTool", "PlaceTool", "SelectTool", "StampTool", "Tool", "make_tools"]


def make_tools(ctx: object) -> dict[str, Tool]:
    """One instance of every tool for ``ctx`` (an ``EditorContext``), keyed by id."""
    tools: list[Tool] = [SelectTool(ctx), PlaceTool(ctx), EraseTool(ctx), StampTool(ctx)]  # type: ignore[arg-type]
    return {t.id: t for t in tools}
