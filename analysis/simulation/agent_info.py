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
        "ATs hold and fire (fast, compiled kernel)",
        "random-ref": "random-ref — random on the one-game reference engine (same rules, "
        "slower; used when advanced options are on)",
        "heuristic-ref": "heuristic-ref — heuristic on the one-game reference engine (same "
        "decisions, slower; it also plays the advanced rules and action tokens)",
        "search": "search[:N] — plans each round against N sampled enemy heuristic plans "
        "(default 3): tries every order of each tank in place of the heuristic's, scored "
        "one round ahead by material and race position; fights as well as races (slow)",
        "ksearch": "ksearch[:N] — search's planning compiled whole, shells included: the "
        "heuristic's plan improved tank by tank, orders then shells, in two sweeps against N "
        "sampled enemy heuristic plans (default 6), scored one round ahead by material and "
        "race position (heuristic-based; the strongest Final Act agent per CPU second)",
        "duct": "duct[:N] — decoupled UCT: every unit of both sides is a bandit over its "
        "orders and shells, N iterations a round (default 64), each judged by 4 rounds of "
        "light shortest-route playouts and a material-and-race value; never reads the "
        "heuristic (independent evidence)",
        "duct-h": "duct-h[:N] — duct with the heuristic playing both sides in its playouts "
        "(default 32; heuristic-based)",
    },
    "tank-chess": {
        "heuristic": "heuristic — wins at once when it can, else scores destroying shots, "
        "command-tank escape progress and safety from enemy fire one turn deep; blocks an "
        "enemy command tank that would escape first",
        "uct": "uct[:N] — UCT tree search with N heuristic-guided playouts per turn "
        "(default 48) over the heuristic's best 8 turns per node (slow)",
        "search": "search[:N] — two-ply alpha-beta over the heuristic's best turns and the "
        "enemy's best replies, lines scored by short playouts (N lines, default 60)",
        "alphabeta": "alphabeta[:N] — iterative-deepening alpha-beta with a transposition "
        "table, N positions per turn (default 3200), scored by its own evaluation "
        "(material, the command tanks' race to escape, wins in hand); never asks the "
        "heuristic",
    },
    "tank-wars": {
        "heuristic": "heuristic — vehicles collect support tokens and avoid craters on their "
        "paths (with seeded noise); gunfire tokens on the fields enemy vehicles most likely "
        "end on",
        "search": "search[:N] — Monte Carlo planning over the dice: improves the heuristic's "
        "plan command by command and token by token on N sampled futures (default 3)",
        "plan": "plan[:N] — search's planning on the compiled kernel: improves the "
        "heuristic's plan command by command and token by token on N sampled futures "
        "(enemy heuristic plan and dice; default 128), scored by a fitted evaluation; the "
        "strongest per CPU second (heuristic-based)",
        "regret": "regret[:N] — both sides' secret plans learnt at once by regret matching "
        "over the round, N iterations (default 64), dice sampled, scored by its own "
        "evaluation; never asks the heuristic (compiled)",
        "regret-heuristic": "regret-heuristic[:N] — regret, its look-ahead round played by "
        "the heuristic for both sides (compiled)",
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


SUPERSEDED = frozenset({"uct", "regret-heuristic", "duct", "duct-h"})
"""Agents left out of a default ladder (``--agents`` still takes them): Tank Chess ``uct``
rates about as high as ``search`` on the built-in boards at three times its cost per game
(it alone took three quarters of a default 200-game ladder of basic-16); Tank Wars
``regret-heuristic`` is ``regret`` with heuristic look-ahead (a variant, not a rung of its
own); Final Act ``duct``/``duct-h`` are verdict families' agents (``duct`` the independent
cross-check), weaker than ``search`` per CPU second."""


def default_agents(ruleset: str, everything: bool = False) -> list[str]:
    """The agents a ladder plays by default, weakest first: the game's base agents without
    the ``-ref`` twins (same decisions, slower) and without ``SUPERSEDED`` ones, unless
    ``everything``."""
    names = list(get_driver(ruleset).policy_names())
    if everything:
        return names
    return [n for n in names if not n.endswith("-ref") and n not in SUPERSEDED]


def agents_entry(
    scenario: Scenario, policies: tuple[str, str], judge: str = "run 'tankmap verdict' on it"
) -> dict[str, Any]:
    """The ``agents`` part of a ``simulate`` document: per side the agent's name, its
    one-line description and its strength on this board from the last ``tankmap ladder``
    run (``None`` when no ladder of this board knows it), plus ``verdict_warning`` and the
    board's remembered verdict (``verdict_entry``; ``judge``: how to get one, in its
    line when there is none)."""
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
    out.update(verdict_entry(scenario, judge))
    return out


def verdict_entry(scenario: Scenario, judge: str = "run 'tankmap verdict' on it") -> dict[str, Any]:
    """The board's remembered verdict (``tankmap verdict``): ``verdict`` (its document's
    headline keys, or ``None``), ``verdict_line`` (one line to print before any balance;
    ``judge`` says how to get a verdict when there is none) and ``verdict_disagreement`` (a
    sentence when an independent and a heuristic-based family disagree, else ``None``)."""
    from tankmap.analysis.verdict.cache import disagreement, shown_verdict
    from tankmap.rules.geometry import Side
    from tankmap.rules.registry import get_ruleset

    names = get_ruleset(scenario.ruleset).side_names()
    doc, line = shown_verdict(scenario, (names[Side.SOUTH], names[Side.NORTH]), judge)
    keys = (
        "agent",
        "family",
        "favoured",
        "balance",
        "balance_ci95",
        "games",
        "converged",
        "reason",
        "seed",
    )
    return {
        "verdict": None if doc is None else {k: doc.get(k) for k in keys},
        "verdict_line": line,
        "verdict_disagreement": disagreement(scenario),
    }


def strength_text(entry: dict[str, Any]) -> str:
    """``"ladder Elo +163 [79, 248], 0 = heuristic on this board, strongest of 3"``, a
    clean sweep said as such, or how to get one."""
    st = entry.get("strength")
    if not st:
        return "strength on this board not rated yet: run 'tankmap ladder' on it"
    lo, hi = st["elo_ci95"]
    rank = "strongest" if st["rank"] == 1 else f"rank {st['rank']}"
    if st.get("only_sweeps"):
        swept = (
            f"swept by {', '.join(st['swept_by'])}"
            if st.get("swept_by")
            else f"sweeps {', '.join(st.get('sweeps', []))}"
        )
        return f"ladder: {swept} on this board (no measured Elo), {rank} of {st['of']}"
    if st.get("anchor") and st["anchor"] == entry.get("name"):  # the scale's zero itself
        return f"ladder anchor on this board, Elo 0 by definition, {rank} of {st['of']}"
    anchor = f", 0 = {st['anchor']}" if st.get("anchor") else ""
    return (
        f"ladder Elo {st['elo']:+.0f} [{lo:.0f}, {hi:.0f}]{anchor} on this board, "
        f"{rank} of {st['of']}"
    )


def default_agent(scenario: Scenario) -> tuple[str, str]:
    """The agent ``simulate``, the editor's balance dialog and its live meter play both sides
    with when none is asked for, and why (one sentence): the everyday agent of the game's
    verdict family (the default budget of its first agent family,
    ``analysis.simulation.families``; not always the strongest agent per CPU second),
    whatever the number of games — a run that will take long says so instead. Final Act
    boards with advanced options on (rules §1.8) or a basic-rule reading changed (§1.8a)
    get the heuristic: only the one-game engine plays those, where search is very slow (R/M
    repair, which the compiled kernel models, does not count)."""
    from tankmap.analysis.simulation.families import families

    fams = families(scenario.ruleset)
    names = get_driver(scenario.ruleset).policy_names()
    if not fams or fams[0].name not in names:
        return "heuristic", "the game's default agent"
    if scenario.ruleset == "final-act":
        from tankmap.rules.final_act.engine_advanced import FAST, MODELLED
        from tankmap.rules.final_act.engine_readings import Readings
        from tankmap.rules.registry import get_ruleset

        opts = get_ruleset(scenario.ruleset).options(scenario)
        if any(opts.get(name) for name in MODELLED if name not in FAST):
            return "heuristic", "advanced options are on, which search plays very slowly"
        if Readings.of(opts).changed:
            return "heuristic", "rule readings are changed, which search plays very slowly"
    return fams[0].default_agent(), "the everyday agent of the game's verdict family"
