"""The dock widgets: palette, problems, inspector (the undo history is a ``QUndoView``)."""
