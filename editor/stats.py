"""A unit kind's stats as the inspector shows them: short human-readable rows per ruleset
(never a raw ``unit_stats`` dict dump).

``stat_rows(ruleset, kind)`` → ``[("Hits to knock out", "2"), ("Fires", "yes"), ...]``.
Final Act (docs/rules.md §1.2–1.6): hits, fires / blocks fire, movement, Extra Forces.
Tank Chess (§2.1): speed, gun, armour front / side / rear, how it fires.
Tank Wars (§3): armour points, moves, shells, gunfire (provisional).
Any other ruleset: its stats with readable keys and values.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from tankmap.rules.ruleset import Ruleset

Rows = list[tuple[str, str]]

FINAL_ACT_MOVES = {
    "tank": "stay, or 1 cell forward, back or diagonally (not sideways); "
    "turns 90° only with a diagonal move",
    "any-neighbour": "stay, or 1 cell in any of 8 directions; may turn to any facing "
    "(does not shoot after moving)",
}

TANK_CHESS_FIRE = {
    "turret": "ahead and ±45°, first piece on the ray; never at an adjacent cell (at least "
    "one empty cell between)",
    "fixed": "straight ahead only, first piece on the ray; never at an adjacent cell (at "
    "least one empty cell between)",
    "mortar": "straight ahead, exactly 3, 4 or 5 cells, over anything (so never adjacent)",
}

TANK_WARS_MOVES = {
    "straight1": "straight 1",
    "straight2": "straight 2",
    "diagonal1": "diagonal 1",
    "diagonal2": "diagonal 2",
}


def yes_no(value: object) -> str:
    return "yes" if value else "no"


def plain(value: object) -> str:
    """A stat value as text: booleans yes/no, mappings ``a 1 / b 2``, lists joined."""
    if isinstance(value, bool):
        return yes_no(value)
    if isinstance(value, Mapping):
        return " / ".join(f"{k} {plain(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(plain(v) for v in value)
    return str(value)


def _final_act(stats: Mapping[str, Any]) -> Rows:
    rows: Rows = []
    if "hits" in stats:
        rows.append(("Hits to knock out", str(stats["hits"])))
    if "fires" in stats:
        rows.append(("Fires", yes_no(stats["fires"])))
    if "blocks_fire" in stats:
        rows.append(("Blocks fire", yes_no(stats["blocks_fire"])))
    if "movement" in stats:
        move = str(stats["movement"])
        rows.append(("Movement", FINAL_ACT_MOVES.get(move, move.replace("-", " "))))
    if "per_side" in stats:
        rows.append(("Per side", str(stats["per_side"])))
    if stats.get("extra_forces"):
        rows.append(("Expansion", "Extra Forces"))
    return rows


def _tank_chess(stats: Mapping[str, Any]) -> Rows:
    rows: Rows = []
    if "speed" in stats:
        rows.append(("Speed", f"{stats['speed']} steps (a step = 1 cell or a 45° turn)"))
    if "gun" in stats:
        rows.append(("Gun", str(stats["gun"])))
    armour = stats.get("armour")
    if isinstance(armour, Mapping):
        rows.append(
            (
                "Armour",
                " / ".join(f"{armour.get(k, '?')} {k}" for k in ("front", "side", "rear")),
            )
        )
    if "fire" in stats:
        fire = str(stats["fire"])
        rows.append(("Fires", TANK_CHESS_FIRE.get(fire, fire)))
    return rows


def _tank_wars(stats: Mapping[str, Any]) -> Rows:
    rows: Rows = []
    if "armour" in stats:
        rows.append(("Armour points", str(stats["armour"])))
    moves = stats.get("moves")
    if isinstance(moves, list | tuple):
        rows.append(("Moves", " or ".join(TANK_WARS_MOVES.get(str(m), str(m)) for m in moves)))
    if "shells" in stats:
        rows.append(("Artillery shells", str(stats["shells"])))
    if "gunfire" in stats:
        rows.append(("Gunfire symbols", str(stats["gunfire"])))
    if stats.get("provisional"):
        rows.append(("Note", "provisional numbers (rules not final)"))
    return rows


def _generic(stats: Mapping[str, Any]) -> Rows:
    skip = {"label", "name", "code", "display"}
    return [(k.replace("_", " ").capitalize(), plain(v)) for k, v in stats.items() if k not in skip]


FORMATTERS = {"final-act": _final_act, "tank-chess": _tank_chess, "tank-wars": _tank_wars}


def stat_rows(ruleset: Ruleset, kind: str) -> Rows:
    """The inspector rows for a unit ``kind`` of ``ruleset`` (empty if it has no stats)."""
    stats = ruleset.unit_stats(kind)
    if not stats:
        return []
    return FORMATTERS.get(ruleset.name, _generic)(stats) or _generic(stats)


def stats_html(rows: Rows) -> str:
    """Rows as rich text for a ``QLabel``: one "Label: value" line each, labels in grey.
    (Plain lines, not an HTML table: a table's layout costs ~6 ms on every selection.)"""
    if not rows:
        return "—"
    return "<br>".join(
        f"<span style='color:#5f6b73'>{escape(k)}:</span> {escape(v)}" for k, v in rows
    )


def kind_title(ruleset: Ruleset, kind: str) -> str:
    """The kind's display name (``Heavy tank``), falling back to the kind id."""
    stats = ruleset.unit_stats(kind)
    for key in ("name", "display", "label"):
        value = stats.get(key)
        if isinstance(value, str) and value:
            return value[0].upper() + value[1:]
    return kind
