"""``tankmap ladder --out DIR``: ``ladder.html`` (tables and an Elo chart) and ``ladder.json``."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402

from tankmap.analysis.outputs import save_figure, save_text  # noqa: E402
from tankmap.rules.geometry import Side  # noqa: E402
from tankmap.rules.registry import get_ruleset  # noqa: E402
from tankmap.rules.scenario import Scenario  # noqa: E402


def elo_figure(doc: dict[str, Any]) -> Figure:
    """Elo with 95 % intervals per agent, strongest at the top."""
    agents = list(reversed(doc["agents"]))
    fig = Figure(figsize=(6.5, 0.6 + 0.5 * len(agents)))
    ax = fig.add_subplot()
    for y, a in enumerate(agents):
        lo, hi = a["elo_ci95"]
        ax.plot([lo, hi], [y, y], color="#4a6fa5", linewidth=3)
        ax.plot([a["elo"]], [y], "o", color="#1d3557")
    ax.set_yticks(range(len(agents)), [a["name"] for a in agents])
    ax.set_xlabel(f"Elo (95 % interval; {doc['agents'][-1]['name']} weakest)")
    ax.axvline(0, color="#999", linewidth=0.8)
    fig.tight_layout()
    return fig


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
        f"<tr><td>{e(a['name'])}</td><td>{a['elo']:.0f}</td>"
        f"<td>[{a['elo_ci95'][0]:.0f}, {a['elo_ci95'][1]:.0f}]</td>"
        f"<td>{e(a.get('description', ''))}</td></tr>"
        for a in doc["agents"]
    )
    brows = "".join(
        f"<tr><td>{e(b['agent'])}</td><td>{b['win_rate']['south']['estimate']:.3f}</td>"
        f"<td>{b['win_rate']['north']['estimate']:.3f}</td><td>{b['draws']}</td>"
        f"<td>{b['balance']:.3f} [{b['ci95'][0]:.3f}, {b['ci95'][1]:.3f}]</td>"
        f"<td>{e(favoured.get(b['favoured'], 'even'))}</td><td>{b['median_length']}</td>"
        f"<td>{b['units_lost_per_game']:.2f}</td><td>{b['race_share']:.0%}</td></tr>"
        for b in doc["balance"]
    )
    verdict = "stable" if doc["stable"] else "NOT stable"
    text = f"""<!doctype html><html><head><meta charset="utf-8">
<title>Ladder — {e(scenario.title or doc["file"])}</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:2em auto}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:.3em .6em}}</style>
</head><body><h1>Strength ladder: {e(scenario.title or doc["file"])}</h1>
<p>{doc["games"]} games per pairing (sides swapped) and per self-play run, seed {doc["seed"]}.
Balance = 1 − |win rate {e(south)} − win rate {e(north)}|.</p>
<p><b>Verdict {verdict}:</b> {e(doc["stability"]["reason"])}.</p>
<h2>Agents by strength</h2><table><tr><th>agent</th><th>Elo</th><th>95 %</th>
<th>how it plays</th></tr>{rows}</table><img src="elo.png" alt="Elo chart">
<h2>The board's balance under each agent (self-play)</h2>
<table><tr><th>agent</th><th>{e(south)} wins</th><th>{e(north)} wins</th><th>draws</th>
<th>balance [95 %]</th><th>favours</th><th>median length</th><th>units lost / game</th>
<th>races won, no loss</th></tr>{brows}</table>
</body></html>
"""
    path = out / "ladder.html"
    save_text(path, text)
    return path
