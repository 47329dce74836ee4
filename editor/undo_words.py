"""Undo, redo and History-dock steps that say what they did in the status line, so the
line never keeps the words of an edit that was just taken back."""

from __future__ import annotations

from tankmap.editor.context import EditorContext


def undo_said(ctx: EditorContext) -> None:
    """Undo the last edit: ``"Undone: Place tank C"`` (``"Nothing to undo"``)."""
    stack = ctx.doc.undo_stack
    if not stack.canUndo():
        ctx.say("Nothing to undo")
        return
    text = stack.undoText()
    stack.undo()
    ctx.say(f"Undone: {text}")


def redo_said(ctx: EditorContext) -> None:
    """Redo the last undone edit: ``"Redone: Place tank C"`` (``"Nothing to redo"``)."""
    stack = ctx.doc.undo_stack
    if not stack.canRedo():
        ctx.say("Nothing to redo")
        return
    text = stack.redoText()
    stack.redo()
    ctx.say(f"Redone: {text}")


def history_said(ctx: EditorContext) -> None:
    """After a step was picked in the History dock: where the board is now."""
    stack = ctx.doc.undo_stack
    index = stack.index()
    if index == 0:
        ctx.say("History: back to the board as opened")
    else:
        ctx.say(f"History: after step {index} of {stack.count()}: {stack.text(index - 1)}")
