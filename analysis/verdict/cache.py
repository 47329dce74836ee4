"""Verdicts remembered per board, so that every balance figure can show the board's verdict.

``tankmap verdict`` saves its document under the board's content hash
(``ladder_cache.board_key``: the canonical scenario text without title and notes, options
included), one entry per agent family. ``simulate``, the reports and the editor read it
back with ``load_verdict``: the default family's verdict when there is one, and a note when
an independent and a heuristic-based family's verdicts disagree. The folder is
``$TANKMAP_CACHE_DIR/verdict``, else ``$XDG_CACHE_HOME/tankmap/verdict``, else
``~/.cache/tankmap/verdict``. A missing or unreadable entry means "no verdict yet"; a cache
that cannot be written never fails the command that computed the verdict.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tankmap.analysis.ladder_cache import board_key
from tankmap.rules.errors import TankmapError
from tankmap.rules.fileformat import atomic_write_text
from tankmap.rules.scenario import Scenario


def verdict_dir() -> Path:
    """Where verdicts are kept (see the module docstring)."""
    if os.environ.get("TANKMAP_CACHE_DIR"):
        return Path(os.environ["TANKMAP_CACHE_DIR"]) / "verdict"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tankmap" / "verdict"


def _path(scenario: Scenario) -> Path:
    return verdict_dir() / f"{board_key(scenario)}.json"


def _read(path: Path) -> dict[str, Any]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    fams = doc.get("families") if isinstance(doc, dict) else None
    return {k: v for k, v in fams.items() if isinstance(v, dict)} if isinstance(fams, dict) else {}


def save_verdict(scenario: Scenario, doc: dict[str, Any]) -> Path | None:
    """Remember a verdict document (its ``family`` key names the entry); ``None`` and
    nothing raised when the cache cannot be written."""
    path = _path(scenario)
    fams = _read(path)
    fams[str(doc.get("family"))] = doc
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps({"families": fams}, indent=1) + "\n")
    except (OSError, TankmapError):
        return None
    return path


def load_verdicts(scenario: Scenario) -> dict[str, dict[str, Any]]:
    """Every remembered verdict of this board by family name (empty when none)."""
    return _read(_path(scenario))


def load_verdict(scenario: Scenario, family: str | None = None) -> dict[str, Any] | None:
    """The verdict to show for this board: family ``family``'s, else the game's default
    family's, else a converged one, else any; ``None`` when the board has none."""
    fams = load_verdicts(scenario)
    if not fams:
        return None
    if family is not None:
        return fams.get(family)
    from tankmap.analysis.simulation.families import families

    order = [f.name for f in families(scenario.ruleset)]
    ranked = sorted(
        fams.values(),
        key=lambda d: (
            not d.get("converged"),
            order.index(d["family"]) if d.get("family") in order else len(order),
        ),
    )
    return ranked[0]


def disagreement(scenario: Scenario) -> str | None:
    """A sentence when this board's remembered verdicts of an independent and of a
    heuristic-based family favour different sides, else ``None``."""
    fams = list(load_verdicts(scenario).values())
    for a in fams:
        for b in fams:
            if a.get("independent") and not b.get("independent"):
                if a.get("favoured") != b.get("favoured"):
                    return (
                        f"{a.get('agent')} (independent of the heuristic) says "
                        f"{a.get('favoured')}, {b.get('agent')} (heuristic-based) says "
                        f"{b.get('favoured')}"
                    )
    return None


def verdict_line(doc: dict[str, Any] | None, sides: tuple[str, str] = ("south", "north")) -> str:
    """One line for a remembered verdict, or how to get one:
    ``"verdict: favours south (converged), balance 0.62 [0.55, 0.70], search:12, 200 games"``.
    ``sides`` are the display names of south and north."""
    if doc is None:
        return "verdict: none yet for this board (run 'tankmap verdict' on it)"
    names = {"south": sides[0], "north": sides[1]}
    fav = doc.get("favoured")
    what = {"even": "even", "undecided": "undecided"}.get(
        str(fav), f"favours {names.get(str(fav), fav)}"
    )
    state = "converged" if doc.get("converged") else "NOT converged"
    lo, hi = doc.get("balance_ci95", [0.0, 1.0])
    return (
        f"verdict: {what} ({state}), balance {doc.get('balance', 0.0):.2f} [{lo:.2f}, {hi:.2f}], "
        f"{doc.get('agent')}, {doc.get('games')} games, seed {doc.get('seed')}"
    )
