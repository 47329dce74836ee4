"""Verdicts remembered per board, so that every balance figure can show the board's verdict.

``tankmap verdict`` saves its document under the board's content hash
(``ladder_cache.board_key``: the canonical scenario text without title and notes, options
included), one entry per agent family. ``simulate``, the reports and the editor read it
back with ``load_verdict``: the default family's verdict when there is one, and a note when
an independent and a heuristic-based family's verdicts disagree. A verdict without games,
or one resting on less than the family's kept one (a quicker climb, one cut short), is not
remembered: the board keeps the figure with the most evidence. A verdict is kept with the
code that made it (``analysis/code_version.py``) and read back only by the same code: one
made by other agents (an earlier tankmap) is not the board's verdict now, and the line
shown says so (``earlier_verdict``). The folder is
``$TANKMAP_CACHE_DIR/verdict``, else ``$XDG_CACHE_HOME/tankmap/verdict``, else
``~/.cache/tankmap/verdict``. A missing or unreadable entry means "no verdict yet"; a cache
that cannot be written never fails the command that computed the verdict.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tankmap.analysis.code_version import made_here, stamp, unstamped
from tankmap.analysis.estimates import MIN_VERDICT_GAMES, games_text
from tankmap.analysis.ladder_cache import board_key
from tankmap.analysis.verdict.rule import state_text
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
    """Every family's entry in ``path``, whatever code made it (empty when unreadable)."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    fams = doc.get("families") if isinstance(doc, dict) else None
    return {k: v for k, v in fams.items() if isinstance(v, dict)} if isinstance(fams, dict) else {}


def evidence(doc: dict[str, Any]) -> tuple[bool, int, int]:
    """How much a verdict document rests on, to rank two of one family: converged first,
    then the rungs that played games (a match or a self-play), then its self-play games."""
    trace = doc.get("trace") or []
    rungs = sum(
        1
        for t in trace
        if isinstance(t, dict) and ((t.get("games") or 0) > 0 or (t.get("match_games") or 0) > 0)
    )
    return bool(doc.get("converged")), rungs, int(doc.get("games") or 0)


def stronger_kept(scenario: Scenario, doc: dict[str, Any]) -> dict[str, Any] | None:
    """The verdict this code keeps for the board in ``doc``'s family when it rests on more
    than ``doc`` (``evidence``), else ``None``: a quicker or cut-short climb never replaces
    it."""
    kept = load_verdicts(scenario).get(str(doc.get("family")))
    if kept is not None and evidence(kept) > evidence(doc):
        return kept
    return None


def save_verdict(scenario: Scenario, doc: dict[str, Any]) -> Path | None:
    """Remember a verdict document (its ``family`` key names the entry) as this code's,
    dropping the entries other code made, unless it has no self-play game or the family's
    kept verdict rests on more (``stronger_kept``); ``None`` when it is not remembered or
    the cache cannot be written (nothing is raised)."""
    if not doc.get("games") or stronger_kept(scenario, doc) is not None:
        return None
    path = _path(scenario)
    fams = {k: v for k, v in _read(path).items() if made_here(v)}
    fams[str(doc.get("family"))] = stamp(doc)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps({"families": fams}, indent=1) + "\n")
    except (OSError, TankmapError):
        return None
    return path


def _kept(scenario: Scenario) -> tuple[dict[str, dict[str, Any]], bool]:
    """This code's verdicts of the board by family name, and whether verdicts other code
    made are kept without any of this code's (one read of the file)."""
    fams = _read(_path(scenario))
    mine = {k: unstamped(v) for k, v in fams.items() if made_here(v)}
    return mine, bool(fams) and not mine


def load_verdicts(scenario: Scenario) -> dict[str, dict[str, Any]]:
    """Every verdict of this board remembered by this code, by family name (empty when
    none)."""
    return _kept(scenario)[0]


def earlier_verdict(scenario: Scenario) -> bool:
    """Whether a verdict of this board made by other code (an earlier tankmap) is kept,
    and none of this code's."""
    return _kept(scenario)[1]


def load_verdict(scenario: Scenario, family: str | None = None) -> dict[str, Any] | None:
    """The verdict to show for this board: family ``family``'s, else the game's default
    family's, else a converged one, else any; ``None`` when the board has none."""
    return _chosen(scenario.ruleset, load_verdicts(scenario), family)


def shown_verdict(
    scenario: Scenario,
    sides: tuple[str, str] = ("south", "north"),
    judge: str = "run 'tankmap verdict' on it",
) -> tuple[dict[str, Any] | None, str]:
    """The verdict to show for this board (``load_verdict``) and its line (``verdict_line``:
    ``sides`` the display names, ``judge`` how to get one), saying so when only a verdict
    made by other code is kept."""
    fams, earlier = _kept(scenario)
    doc = _chosen(scenario.ruleset, fams, None)
    return doc, verdict_line(doc, sides, earlier, judge)


def _chosen(
    ruleset: str, fams: dict[str, dict[str, Any]], family: str | None
) -> dict[str, Any] | None:
    """``load_verdict``'s choice among ``fams``."""
    if not fams:
        return None
    if family is not None:
        return fams.get(family)
    from tankmap.analysis.simulation.families import families

    order = [f.name for f in families(ruleset)]
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


def verdict_line(
    doc: dict[str, Any] | None,
    sides: tuple[str, str] = ("south", "north"),
    earlier: bool = False,
    judge: str = "run 'tankmap verdict' on it",
) -> str:
    """One line for a remembered verdict, or how to get one:
    ``"verdict: favours south (converged), balance 0.620 [0.550, 0.700], search:12, 200 games"``.
    ``sides`` are the display names of south and north; ``earlier``: no ``doc``, but one
    made by other code is kept (``earlier_verdict``); ``judge`` says how to judge the board
    (the editor has a button for it)."""
    if doc is None and earlier:
        return (
            "verdict: none yet from this tankmap's agents (the one kept was made by other "
            f"agent code, before an update: {judge} again)"
        )
    if doc is None:
        return f"verdict: none yet for this board ({judge})"
    names = {"south": sides[0], "north": sides[1]}
    fav = doc.get("favoured")
    what = {"even": "even", "undecided": "undecided"}.get(
        str(fav), f"favours {names.get(str(fav), fav)}"
    )
    state = state_text(doc)
    games = int(doc.get("games") or 0)
    needed = int(doc.get("min_games") or MIN_VERDICT_GAMES)
    if fav == "undecided" and games == 0:  # no game: no balance to show
        return (
            f"verdict: {what} ({state}): no self-play game finished yet, {doc.get('agent')}, "
            f"seed {doc.get('seed')}"
        )
    counted = (
        f"{games} of the {needed} self-play games a verdict needs"
        if fav == "undecided" and games < needed
        else games_text(games)
    )
    lo, hi = doc.get("balance_ci95", [0.0, 1.0])
    return (
        f"verdict: {what} ({state}), balance {doc.get('balance', 0.0):.3f} [{lo:.3f}, {hi:.3f}], "
        f"{doc.get('agent')}, {counted}, seed {doc.get('seed')}"
    )
