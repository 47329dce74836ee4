"""View ▸ Board only: hide every panel so the board takes the whole window (a 20 × 20 board
on a 1024 × 640 screen gets about twice the cells' width), and bring back exactly the
panels it hid.

The panels a user opens or closes while the board is alone are theirs: turning it off
shows only the panels it hid that are still hidden. The window saves its layout with the
panels back (``restore``), so the next start never opens on a board without its panels.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtWidgets import QDockWidget


class BoardOnly:
    """Hides and brings back the window's panels (``docks()``: the docks of the moment,
    the Suggestions dock included once it exists); ``fit`` fits the board afterwards."""

    def __init__(self, docks: Callable[[], Iterable[QDockWidget]], fit: Callable[[], None]):
        self._docks = docks
        self._fit = fit
        self._hidden: list[QDockWidget] = []

    @property
    def on(self) -> bool:
        """Whether the panels are hidden by Board only."""
        return bool(self._hidden)

    def set(self, on: bool) -> str:
        """Hide the visible panels (``on``) or bring back those it hid; returns what to say
        in the status bar."""
        if on == self.on:
            return ""
        if on:
            self._hidden = [d for d in self._docks() if d.isVisible()]
            if not self._hidden:
                return "Board only: there are no panels to hide."
            for dock in self._hidden:
                dock.hide()
            self._fit()
            return (
                "Board only: the panels are hidden. "
                "Ctrl+Shift+F (View ▸ Board only) brings them back."
            )
        self.restore()
        self._fit()
        return "The panels are back."

    def restore(self) -> None:
        """Show the panels Board only hid (before the window saves its layout)."""
        hidden, self._hidden = self._hidden, []
        for dock in hidden:
            dock.show()
