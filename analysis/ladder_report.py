"""``tankmap ladder --out DIR``: ``ladder.html`` (tables and an Elo chart) and ``ladder.json``."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402

from tankmap.analysis.estimates import MIN_VERDICT_GAMES  # noqa: E402
from tankmap.analysis.ladder import elo_words  # noqa: E402
from tankmap.analysis.outputs import save_figure, save_text  # noqa: E402
from tankmap.rules.geometry import Side  # noqa: E402
from tankmap.rules.registry import get_ruleset  # noqa: E402
from tankmap.rules.scenario import Scenario  # noqa: E402


def elo_figure(doc: dict[str, Any]) -> Figure:
    """Elo with 95 % intervals per agent, strongest at the top; an agent with no measured
    Elo (only clean sweeps) is named with its sweeps instead of a point."""
    agents = list(reversed(doc["agents"]))
    fig = Figure(figsize=(6.5, 1.1 + 0.5 * len(agents)))
    ax = fig.add_subplot()
    measured = False
    for y, a in enumerate(agents):
        words = elo_words(a, doc.get("anchor"))
        if a["name"] == doc.get("anchor"):
            ax.plot([0], [y], "D", color="#1d3557")
            note = "  " + words.replace("anchor", "anchor (0 by definition)", 1)
            ax.text(0, y, note, va="center", fontsize=8, color="#555")
            continue
        if words:
            ax.text(0, y, f" no measured Elo: {words}", va="center", fontsize=8, color="#555")
            continue
        lo, hi = a["elo_ci95"]
        ax.plot([lo, hi], [y, y], color="#4a6fa5", linewidth=3)
        ax.plot([a["elo"]], [y], "o", color="#1d3557")
        measured = True
    if not measured:  # only the anchor's 0: an Elo scale, not matplotlib's ±0.04 around it
        ax.set_xlim(-400, 400)
    ax.set_yticks(range(len(agents)), [a["name"] for a in agents])
    ax.set_ylim(-0.6, len(agents) - 0.4)
    ax.set_xlabel(f"Elo (0 = {doc.get('anchor', 'heuristic')}; 95 % interval)")
    ax.set_title(
        f"{doc.get('games', '?')} games per pairing, sides swapped, seed {doc.get('seed', '?')}",
        fontsize=9,
    )
    ax.axvline(0, color="#999", linewidth=0.8)
    fig.tight_layout()
    return fig


def _elo_cells(agent: dict[str, Any], anchor: str | None) -> str:
    """The Elo and interval cells of ``agent``'s row: 0 for the anchor, its sweeps for an
    agent with no measured Elo, else the Elo and its 95 % interval."""
    words = html.escape(elo_words(agent, anchor))
    if agent["name"] == anchor:
        return f"<td>0</td><td>{words}</td>"
    if words:
        return f'<td colspan="2">{words} (no measured Elo)</td>'
    lo, hi = agent["elo_ci95"]
    return f"<td>{agent['elo']:.0f}</td><td>[{lo:.0f}, {hi:.0f}]</td>"


def _rate(rate: dict[str, Any]) -> str:
    """A win rate with its Wilson 95 % interval: ``0.400 [0.219, 0.613]``."""
    lo, hi = rate["ci95"]
    return f"{rate['estimate']:.3f} [{lo:.3f}, {hi:.3f}]"


def write_ladder_report(doc: dict[str, Any], scenario: Scenario, out: Path) -> Path:
    """Write ``ladder.html``, ``elo.png`` and ``ladder.json`` into ``out``; the HTML path."""
    out.mkdir(parents=True, exist_ok=True)
    save_figure(elo_figure(doc), out / "elo.png", dpi=110)
    save_text(out / "ladder.json", json.dumps(doc, indent=1) + "\n")
    e = html.escape
    names = get_ruleset(scenario.ruleset).side_names()
    south, north = names[Side.SOUTH], names[Side.NORTH]
    favoured = {"south": south, "north": north}
    rows = "".join(
        f"<tr><td>{e(a['name'])}</td>{_elo_cells(a, doc.get('anchor'))}"
        f"<td>{e(a.get('description', ''))}</td></tr>"
        for a in doc["agents"]
    )
    brows = "".join(
        f"<tr><td>{e(b['agent'])}</td><td>{b.get('games', doc['games'])}</td>"
        f"<td>{_rate(b['win_rate']['south'])}</td>"
        f"<td>{_rate(b['win_rate']['north'])}</td><td>{b['draws']}</td>"
        f"<td>{b['balance']:.3f} [{b['ci95'][0]:.3f}, {b['ci95'][1]:.3f}]</td>"
        f"<td>{e(favoured.get(b['favoured'], b['favoured']))}</td><td>{b['median_length']}</td>"
        f"<td>{b['units_lost_per_game']:.2f}</td>"
        f"<td>{b['race_share']:.0%} ({b['race_no_loss_share']:.0%} with no loss)</td></tr>"
        for b in doc["balance"]
    )
    settled = "settle" if doc["stable"] else "do NOT settle"
    from tankmap.analysis.simulation.agent_info import verdict_entry

    board_verdict = verdict_entry(scenario)["verdict_line"]
    text = f"""<!doctype html><html><head><meta charset="utf-8">
<title>Ladder — {e(scenario.title or doc["file"])}</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:2em auto}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:.3em .6em}}</style>
</head><body><h1>Strength ladder: {e(scenario.title or doc["file"])}</h1>
<p>{doc["games"]} games per pairing (sides swapped) and per self-play run, seed {doc["seed"]}.
Balance = 1 − |win rate {e(south)} − win rate {e(north)}|.</p>
<p><b>The two strongest agents {settled} the board:</b> {e(doc["stability"]["reason"])}.</p>
<p>The board's {e(board_verdict)} (<code>tankmap verdict</code> climbs one agent family's
budgets until a stronger agent no longer changes it).</p>
<h2>Agents by strength</h2><table><tr><th>agent</th><th>Elo</th><th>95 %</th>
<th>how it plays</th></tr>{rows}</table>
<p>Elo 0 = {e(str(doc.get("anchor", "heuristic")))}; an agent whose every match was a clean
sweep has no measured Elo (the fit's prior alone would set it).</p>
<img src="elo.png" alt="Elo chart">
<h2>The board's balance under each agent (self-play)</h2>
<p>Win rates with their Wilson 95 % intervals; a side is favoured when the 95 % interval of
the win-rate difference excludes 0, and with fewer than {MIN_VERDICT_GAMES} games the answer
is "undecided".</p>
<table><tr><th>agent</th><th>games</th><th>{e(south)} win rate [95 %]</th>
<th>{e(north)} win rate [95 %]</th><th>draws (games)</th>
<th>balance [95 %]</th><th>favours</th><th>median length</th><th>units lost / game</th>
<th>races (decided by reaching the goal)</th></tr>{brows}</table>
</body></html>
"""
    path = out / "ladder.html"
    save_text(path, text)
    return path
