"""Ladder results remembered per board, so that every balance figure can say how strong the
agent behind it is on *that* board.

``tankmap ladder`` saves its result under the board's content hash (the canonical scenario
text: the same board in any file, with the same options, shares it). ``simulate``, its report
and the editor's balance dialog read it back: an agent's Elo on this board, and a warning
when the heuristic and the strongest agent see the board differently. The folder is
``$TANKMAP_CACHE_DIR``, else ``$XDG_CACHE_HOME/tankmap/ladder``, else
``~/.cache/tankmap/ladder``. A missing or unreadable entry simply means "no ladder yet", and
so does a ladder played by other agent code (an earlier tankmap: ``analysis/code_version.py``).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from tankmap.analysis.code_version import made_here, stamp, unstamped
from tankmap.rules.errors import TankmapError
from tankmap.rules.fileformat import atomic_write_text, canonical, dumps_scenario
from tankmap.rules.scenario import Scenario


def cache_dir() -> Path:
    """Where ladder results are kept (see the module docstring)."""
    if os.environ.get("TANKMAP_CACHE_DIR"):
        return Path(os.environ["TANKMAP_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tankmap" / "ladder"


def board_key(scenario: Scenario) -> str:
    """A short hash of the board's canonical text (title, notes and the editor's settings
    excluded)."""
    from dataclasses import replace

    bare = replace(scenario, title="", author="", notes="", editor={})
    text = dumps_scenario(canonical(bare))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def save_ladder(scenario: Scenario, doc: dict[str, Any]) -> Path | None:
    """Remember a ladder document for this board; ``None`` (and nothing raised) when the
    cache folder cannot be written — the ladder's own output is what matters."""
    path = cache_dir() / f"{board_key(scenario)}.json"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(stamp(doc), indent=1) + "\n")
    except (OSError, TankmapError):
        return None
    return path


def load_ladder(scenario: Scenario) -> dict[str, Any] | None:
    """The last ladder run on this board by this code, or ``None``."""
    path = cache_dir() / f"{board_key(scenario)}.json"
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not made_here(doc) or not isinstance(doc.get("agents"), list):
        return None
    return unstamped(doc)


def strength(ladder: dict[str, Any] | None, agent: str) -> dict[str, Any] | None:
    """``agent``'s standing in a ladder document: Elo, interval, rank (1 = strongest) among
    how many agents, and the ladder's seed and games; ``None`` if it was not in it."""
    if ladder is None:
        return None
    names = [a.get("name") for a in ladder["agents"]]
    if agent not in names:
        return None
    entry = ladder["agents"][names.index(agent)]
    return {
        "elo": entry["elo"],
        "elo_ci95": entry["elo_ci95"],
        "rank": names.index(agent) + 1,
        "of": len(names),
        "strongest": names[0],
        "ladder_seed": ladder.get("seed"),
        "ladder_games": ladder.get("games"),
        "anchor": ladder.get("anchor"),
        "only_sweeps": bool(entry.get("only_sweeps")),
        "sweeps": list(entry.get("sweeps") or []),
        "swept_by": list(entry.get("swept_by") or []),
    }


def verdict_warning(ladder: dict[str, Any] | None) -> str | None:
    """A warning when the ladder's strongest agent and the heuristic disagree on which side
    the board favours (or the ladder's two strongest agents do not settle it), else
    ``None``."""
    if ladder is None:
        return None
    balance = {b["agent"]: b for b in ladder.get("balance", [])}
    strongest = ladder["agents"][0]["name"] if ladder["agents"] else None
    if strongest is None or strongest not in balance:
        return None
    if "heuristic" in balance and strongest != "heuristic":
        fh = _favours(balance["heuristic"].get("favoured"))
        fs = _favours(balance[strongest].get("favoured"))
        if fh != fs:
            return (
                f"on this board the heuristic favours {fh} but the strongest agent "
                f"({strongest}) favours {fs}: quote the stronger agent's balance"
            )
    if not ladder.get("stable", True):
        reason = ladder.get("stability", {}).get("reason", "")
        return f"the ladder's two strongest agents do not settle this board ({reason})"
    return None


def _favours(word: Any) -> str:
    """``"south"``, ``"north"``, ``"neither side"`` (even) or ``"undecided"`` (also for a
    ladder saved before the favoured side had four values, where ``None`` meant even)."""
    if word in ("south", "north", "undecided"):
        return str(word)
    return "neither side"
