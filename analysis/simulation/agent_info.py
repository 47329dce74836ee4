"""One line per agent (policy) saying what it does — shown by ``tankmap simulate``, the
ladder, the HTML reports and the editor's balance dialog — and which agents a game has.

How *strong* an agent is on a given board is what ``tankmap ladder`` measures; these lines
only say how each one plays.
"""

from __future__ import annotations

from typing import Any

from tankmap.analysis.simulation.games import get_driver, parse_policy
from tankmap.rules.scenario import Scenario

_COMMON = {
    "random": "random — every unit picks uniformly among its legal moves and targets "
    "(a floor: any real agent beats it)",
}
_LINES: dict[str, dict[str, str]] = {
    "final-act": {
        "heuristic": "heuristic — tanks take shortest routes to the enemy's last line, "
        "preferring cells out of enemy fire; shells go where enemies most likely move; "
        "ATs hold and fire (fast, numpy batches)",
        "random-ref": "random-ref — random on the one-game reference engine (same rules, "
        "slower; used when advanced options are on)",
        "heuristic-ref": "heuristic-ref — heuristic on the one-game reference engine (same "
        "decisions, slower; it also plays the advanced rules and action tokens)",
        "search": "search[:N] — plans each round against N sampled enemy heuristic plans "
        "(default 3): tries every order of each tank in place of the heuristic's, scored "
        "one round ahead by material and race position; fights as well as races (slow)",
    },
    "tank-chess": {
        "heuristic": "heuristic — wins at once when it can, else scores destroying shots, "
        "command-tank escape progress and safety from enemy fire one turn deep; blocks an "
        "enemy command tank that would escape first",
        "uct": "uct[:N] — UCT tree search with N heuristic-guided playouts per turn "
        "(default 48) over the heuristic's best 8 turns per node (slow)",
        "search": "search[:N] — two-ply alpha-beta over the heuristic's best turns and the "
        "enemy's best replies, lines scored by short playouts (N lines, default 60)",
    },
    "tank-wars": {
        "heuristic": "heuristic — vehicles collect support tokens and avoid craters on their "
        "paths (with seeded noise); gunfire tokens on the fields enemy vehicles most likely "
        "end on",
        "search": "search[:N] — Monte Carlo planning over the dice: improves the heuristic's "
        "plan command by command and token by token on N sampled futures (default 3)",
    },
}
_RESTRICTION = {
    "no-berms": "never orders a unit onto a berm cell",
    "no-at": "plays without its AT units",
    "no-rm": "plays without its R/M unit",
}


def describe(ruleset: str, spec: str) -> str:
    """The one-line explanation of agent ``spec`` (``"heuristic+no-berms"``, ``"uct:200"``)
    in ``ruleset``; an unknown name says so rather than raising."""
    base, restrictions = parse_policy(spec)
    name = base.split(":")[0]
    line = _LINES.get(ruleset, {}).get(name) or _COMMON.get(name)
    if line is None:
        return f"{spec} — no description (not an agent of {ruleset}?)"
    for r in restrictions:
        what = _RESTRICTION.get(r, f"plays without its {r[3:]} units" if r.startswith("no-") else r)
        line += f"; +{r}: {what}"
    return line


SUPERSEDED = frozenset({"uct"})
"""Agents left out of a default ladder: Tank Chess ``uct`` rates about as high as ``search``
on the built-in boards at three times its cost per game (it alone took three quarters of
a default 200-game ladder of basic-16); ``--agents`` still takes it."""


def default_agents(ruleset: str, everything: bool = False) -> list[str]:
    """The agents a ladder plays by default, weakest first: the game's base agents without
    the ``-ref`` twins (same decisions, slower) and without ``SUPERSEDED`` ones, unless
    ``everything``."""
    names = list(get_driver(ruleset).policy_names())
    if everything:
        return names
    return [n for n in names if not n.endswith("-ref") and n not in SUPERSEDED]


def agents_entry(scenario: Scenario, policies: tuple[str, str]) -> dict[str, Any]:
    """The ``agents`` part of a ``simulate`` document: per side the agent's name, its
    one-line description and its strength on this board from the last ``tankmap ladder``
    run (``None`` when no ladder of this board knows it), plus ``verdict_warning``."""
    from tankmap.analysis.ladder_cache import load_ladder, strength, verdict_warning

    ladder = load_ladder(scenario)
    out: dict[str, Any] = {}
    for side, spec in zip(("south", "north"), policies, strict=True):
        out[side] = {
            "name": spec,
            "description": describe(scenario.ruleset, spec),
            "strength": strength(ladder, spec),
        }
    out["verdict_warning"] = verdict_warning(ladder)
    return out


def strength_text(entry: dict[str, Any]) -> str:
    """``"ladder Elo +763 [279, 1248], strongest of 2"`` or how to get one."""
    st = entry.get("strength")
    if not st:
        return "strength on this board not rated yet: run 'tankmap ladder' on it"
    lo, hi = st["elo_ci95"]
    rank = "strongest" if st["rank"] == 1 else f"rank {st['rank']}"
    return f"ladder Elo {st['elo']:+.0f} [{lo:.0f}, {hi:.0f}] on this board, {rank} of {st['of']}"


SEARCH_DEFAULT_GAMES = {"final-act": 400, "tank-chess": 1000, "tank-wars": 400}
"""Up to this many games ``search`` is ``simulate``'s default agent (about a minute on two
cores: one-core seconds per self-play game in ``benchmarks/bench_agents.py``-style runs,
Final Act 0.34, Tank Chess 0.11, Tank Wars 0.3); beyond it the heuristic, hundreds of
times faster."""


def default_agent(scenario: Scenario, games: int) -> tuple[str, str]:
    """The agent ``simulate`` plays both sides with when none is asked for, and why (one
    sentence): the strongest agent (``search``) when ``games`` finish in about a minute on
    two cores, else ``heuristic``. Final Act boards with advanced options on (rules §1.8)
    get the heuristic: only the one-game engine plays those, and search there is slow (R/M
    repair, which the compiled kernel models, does not count); so do boards with a basic-rule
    reading changed (rules §1.8a)."""
    limit = SEARCH_DEFAULT_GAMES.get(scenario.ruleset)
    names = get_driver(scenario.ruleset).policy_names()
    if limit is None or "search" not in names:
        return "heuristic", "the game's default agent"
    if scenario.ruleset == "final-act":
        from tankmap.rules.final_act.engine_advanced import FAST, MODELLED
        from tankmap.rules.final_act.engine_readings import Readings
        from tankmap.rules.registry import get_ruleset

        opts = get_ruleset(scenario.ruleset).options(scenario)
        if any(opts.get(name) for name in MODELLED if name not in FAST):
            return "heuristic", "advanced options are on, which search plays slowly"
        if Readings.of(opts).changed:
            return "heuristic", "rule readings are changed, which search plays slowly"
    if games > limit:
        return "heuristic", (
            f"search, the strongest agent, is the default only up to {limit} games "
            "(about a minute on two cores)"
        )
    return "search", f"the strongest agent; the default up to {limit} games"
