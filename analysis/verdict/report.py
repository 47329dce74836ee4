"""``tankmap verdict --out DIR``: ``verdict.html`` with the climb's trace as a chart
(``trace.png``: the balance of each rung's self-play and each rung's score against the one
before it, both with their 95 % intervals) and ``verdict.json``."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402
from matplotlib.transforms import blended_transform_factory  # noqa: E402

from tankmap.analysis.estimates import wilson  # noqa: E402
from tankmap.analysis.outputs import save_figure, save_text  # noqa: E402
from tankmap.analysis.verdict.rule import NO_GAIN, state_text, unplayed_text  # noqa: E402


def _rung_rate(t: dict[str, Any], side: str) -> str:
    """A rung's self-play win rate of ``side`` with its Wilson 95 % interval (the trace
    keeps the rate and the games, so the wins are their product)."""
    rate = t["win_rate"][side]
    lo, hi = wilson(round(rate * t["games"]), t["games"])
    return f"{rate:.3f} [{lo:.3f}, {hi:.3f}]"


def _headline(favoured: str, name: dict[str, str]) -> str:
    """``"favours Black"``, ``"is even"``, ``"is undecided"``."""
    return f"favours {name[favoured]}" if favoured in name else f"is {favoured}"


def trace_figure(doc: dict[str, Any], sides: tuple[str, str]) -> Figure:
    """Two panels over the rungs: the self-play balance with its interval, and the score
    against the previous rung with its interval (0.5 and the no-gain line drawn)."""
    trace = doc["trace"]
    x = list(range(len(trace)))
    labels = [t["agent"] for t in trace]
    fig = Figure(figsize=(7.5, 5.6))
    top, bottom = fig.subplots(2, 1, sharex=True)
    fig.suptitle(
        f"{doc.get('family', '?')} climb, seed {doc.get('seed', '?')}, up to "
        f"{doc.get('games_per_run', '?')} games a run: "
        f"{'converged' if doc.get('converged') else 'NOT converged'}",
        fontsize=10,
    )
    for i, t in enumerate(trace):
        if t["balance"] is None:  # a rung that still beat the one before: no self-play
            continue
        lo, hi = t["balance_ci95"]
        top.plot([i, i], [lo, hi], color="#4a6fa5", linewidth=3)
        top.plot([i], [t["balance"]], "o", color="#1d3557")
        top.annotate(
            {"south": sides[0], "north": sides[1]}.get(t["favoured"], t["favoured"]),
            (i, hi),
            textcoords="offset points",
            xytext=(0, 6),
            ha="center",
            fontsize=9,
            bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none"},  # over the 1.0 line
            zorder=5,
        )
    top.set_ylim(0, 1.2)
    top.set_ylabel("self-play balance\n(1 = even; 95 % interval)")
    top.axhline(1.0, color="#999", linewidth=0.8)
    for i, t in enumerate(trace):
        if t["score_vs_previous"] is None:
            continue
        lo, hi = t["score_ci95"]
        bottom.plot([i, i], [lo, hi], color="#a5674a", linewidth=3)
        bottom.plot([i], [t["score_vs_previous"]], "o", color="#57301d")
    if all(t["score_vs_previous"] is None for t in trace):
        bottom.text(
            0.5,
            0.25,
            "no match played yet: the first rung has no rung before it",
            transform=bottom.transAxes,
            ha="center",
            fontsize=9,
            color="#666",
        )
    bottom.axhline(0.5, color="#999", linewidth=0.8)
    bottom.axhline(NO_GAIN, color="#999", linewidth=0.8, linestyle="--")
    edge = blended_transform_factory(bottom.transAxes, bottom.transData)  # x: axes, y: data
    note = {"transform": edge, "fontsize": 8, "color": "#666"}
    above = f"{NO_GAIN}: at or above, it still beats the rung before"
    bottom.text(0.01, NO_GAIN + 0.01, above, va="bottom", **note)
    bottom.text(0.01, 0.49, "0.5: as strong as the rung before", va="top", **note)
    bottom.set_ylim(0, 1)
    bottom.set_ylabel("score against the\nrung before (95 %)")
    bottom.set_xticks(x, labels, rotation=20)
    bottom.set_xlabel("budget rung")
    fig.tight_layout()
    return fig


def write_verdict_report(
    doc: dict[str, Any], title: str, sides: tuple[str, str], out: Path
) -> Path:
    """Write ``verdict.html``, ``trace.png`` and ``verdict.json`` into ``out``; the HTML path.
    ``sides`` are the display names of south and north."""
    out.mkdir(parents=True, exist_ok=True)
    save_text(out / "verdict.json", json.dumps(doc, indent=1) + "\n")
    if doc["trace"]:
        save_figure(trace_figure(doc, sides), out / "trace.png", dpi=110)
    e = html.escape
    name = {"south": sides[0], "north": sides[1]}
    fav = doc["favoured"]
    headline = _headline(fav, name)
    state = e(state_text(doc))
    rows = "".join(
        f"<tr><td>{e(t['agent'])}</td>"
        + (
            f"<td>{t['games']}</td>"
            f"<td>{_rung_rate(t, 'south')}</td><td>{_rung_rate(t, 'north')}</td>"
            f"<td>{t['balance']:.3f} [{t['balance_ci95'][0]:.3f}, "
            f"{t['balance_ci95'][1]:.3f}]</td>"
            f"<td>{e(name.get(t['favoured'], t['favoured']))}</td>"
            if t["balance"] is not None
            else f'<td colspan="5">no self-play: {e(unplayed_text(t))}</td>'
        )
        + (
            f"<td>{t['score_vs_previous']:.3f} [{t['score_ci95'][0]:.3f}, "
            f"{t['score_ci95'][1]:.3f}] ({t['match_games']} games)</td>"
            if t["score_vs_previous"] is not None
            else "<td>—</td>"
        )
        + f"<td>{t['seconds']:.0f}</td></tr>"
        for t in doc["trace"]
    )
    cc = doc.get("cross_check")
    cross = ""
    if cc:
        reason, agent = str(cc.get("reason") or ""), str(cc.get("agent") or "")
        who = f" {e(agent)}" if agent and agent not in reason else ""  # (named once)
        said = e(reason) if reason else "no reason given"
        cross = f"<p><b>Cross-check{who}:</b> {said}.</p>"
    lo, hi = doc["balance_ci95"]
    rates = " ".join(
        f"{e(name[side])} wins {doc['win_rate'][side]:.3f} "
        f"[{doc['win_rate_ci95'][side][0]:.3f}, {doc['win_rate_ci95'][side][1]:.3f}],"
        for side in ("south", "north")
        if "win_rate_ci95" in doc
    )
    if doc.get("agent") and doc["games"]:
        summary = (
            f"<p><b>The board {e(headline)}</b> ({state}): {rates}\n"
            f"balance {doc['balance']:.3f} [{lo:.3f}, {hi:.3f}] (95 % intervals)\n"
            f"from {doc['games']} self-play games of {e(str(doc['agent']))}, "
            f"seed {doc['seed']}.</p>"
        )
    else:  # no rung played a self-play game: nothing to read a balance from
        summary = (
            f"<p><b>No verdict yet</b> ({state}): no self-play game was played "
            f"(seed {doc['seed']}).</p>"
        )
    chart = '<img src="trace.png" alt="The climb: balance and score per rung">'
    text = f"""<!doctype html><html><head><meta charset="utf-8">
<title>Verdict — {e(title)}</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:2em auto}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:.3em .6em}}</style>
</head><body><h1>Balance verdict: {e(title)}</h1>
{summary}
<p>{e(doc["reason"])}.</p>{cross}
<p>Each rung doubles the budget of the {e(doc["family"])} agent and plays it against the rung
before with sides swapped on common seeds (looking after a fifth, half and all of them: a rung
that already clearly beats the one before skips the rest), then against itself when it no
longer clearly beats the rung before (a rung that still does needs no self-play). The verdict
is converged when a
bigger budget no longer beats the one before it (its score's 95 % interval reaches 0.5 and the
score is under {NO_GAIN}) and the last two rungs' self-play verdicts agree.</p>
{chart if doc["trace"] else ""}
<table><tr><th>agent</th><th>self-play games</th><th>{e(sides[0])} win rate [95 %]</th>
<th>{e(sides[1])} win rate [95 %]</th><th>balance [95 %]</th><th>favours</th>
<th>score vs rung before [95 %]</th><th>seconds</th></tr>{rows}</table>
</body></html>
"""
    path = out / "verdict.html"
    save_text(path, text)
    return path
