"""What ``check`` and ``can_place`` report: violations with a severity and the cells at fault."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from tankmap.rules.board import Board
from tankmap.rules.geometry import Side


class Severity(StrEnum):
    """``error`` makes a setup illegal; ``incomplete`` means a piece is still missing;
    ``warning`` is advice that does not make the setup illegal."""

    ERROR = "error"
    INCOMPLETE = "incomplete"
    WARNING = "warning"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Violation:
    """One broken rule. ``cells`` lists exactly the offending cells (docs/cli-json.md)."""

    code: str
    severity: Severity
    message: str
    cells: tuple[int, ...] = ()
    side: Side | None = None

    def to_json(self, board: Board) -> dict[str, Any]:
        """The ``check --json`` form of this violation (cells as names)."""
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "cells": [board.cell_name(c) for c in self.cells],
            "side": None if self.side is None else self.side.value,
        }


@dataclass(frozen=True)
class Finished:
    """A position whose game is already over: ``winner`` (``None`` for a draw) and why
    (the engines' end names, e.g. ``command-destroyed``, ``goal``, ``annihilation``)."""

    winner: Side | None
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"winner": None if self.winner is None else self.winner.value, "reason": self.reason}

    def __str__(self) -> str:
        who = "a draw" if self.winner is None else f"{self.winner.value} wins"
        return f"finished: {who} ({self.reason})"


def is_legal(violations: list[Violation]) -> bool:
    """No violation of severity ``error``."""
    return not any(v.severity is Severity.ERROR for v in violations)


def is_complete(violations: list[Violation]) -> bool:
    """No violation of severity ``incomplete``."""
    return not any(v.severity is Severity.INCOMPLETE for v in violations)


@dataclass(frozen=True)
class Placement:
    """The answer to the editor's "may this piece go here?".

    ``ok`` is False when placing the piece would add an ``error`` violation; ``reasons``
    then holds those new violations (their messages say why). Warnings the placement would
    add are in ``warnings`` and do not refuse it.
    """

    ok: bool
    reasons: tuple[Violation, ...] = ()
    warnings: tuple[Violation, ...] = field(default=())

    @property
    def message(self) -> str:
        """One line for a status bar: empty when ok."""
        return "; ".join(v.message for v in self.reasons)
