"""The simulation report: per-game CSV, summary JSON, PNG charts and a self-contained HTML
page (the PNGs sit beside it; nothing is loaded from the network).

``write_report(df, scenario, summary, out_dir)`` writes ``games.csv``, ``summary.json``,
``board.png``, ``win_rates.png``, ``lengths.png``, ``deaths.png``, ``routes.png`` and
``report.html`` and returns the path of the HTML file. Figures are built with matplotlib's
object API (Agg; no window ever opens).
"""

from __future__ import annotations

import html
import json
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from tankmap.analysis.board_figure import (
    add_key,
    add_scale,
    board_figure,
    board_key,
    draw_board,
    figure_size,
)
from tankmap.analysis.estimates import MIN_VERDICT_GAMES
from tankmap.analysis.outputs import save_figure, save_text
from tankmap.analysis.simulation.stats import death_map, route_map
from tankmap.rules.geometry import Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario

SIDE_COLOURS = {"south": "#1f5fbf", "north": "#c0392b", "draw": "#888888"}
# Tank Chess is White against Black: light and dark bars (each with a dark edge), a mid
# grey for draws between them
CHESS_COLOURS = {"south": "#e8e6df", "north": "#2b2b2b", "draw": "#9a9a9a"}


def side_colours(ruleset: str) -> dict[str, str]:
    """The bar colours of south, north and draws: the sides' own colours in the game."""
    return CHESS_COLOURS if ruleset == "tank-chess" else SIDE_COLOURS


SIDES = ("south", "north")


def win_rate_figure(
    summary: dict[str, Any],
    names: Sequence[str] = ("South", "North"),
    colours: dict[str, str] = SIDE_COLOURS,
) -> Figure:
    """Bars of the south / north / draw rates with their Wilson 95 % intervals; the bars
    are labelled ``names`` (the game's names of south and north: White, Black)."""
    fig = Figure(figsize=(5.0, 3.2), layout="constrained")
    ax = fig.add_subplot()
    labels = [*names, "draw"]
    rates = [summary["win_rate"]["south"], summary["win_rate"]["north"], summary["draw_rate"]]
    est = np.array([r["estimate"] for r in rates])
    lo = np.array([r["ci95"][0] for r in rates])
    hi = np.array([r["ci95"][1] for r in rates])
    ax.bar(labels, est, color=list(colours.values()), edgecolor="#333333", linewidth=0.6)
    ax.errorbar(labels, est, yerr=[est - lo, hi - est], fmt="none", ecolor="black", capsize=6)
    for x, (e, a, b) in enumerate(zip(est, lo, hi, strict=True)):
        ax.text(x, b + 0.02, f"{e:.3f}\n[{a:.3f}, {b:.3f}]", ha="center", fontsize=7)
    ax.axhline(0.5, color="#999999", lw=0.8, ls="--")
    ax.set_ylim(0, 1.15)
    policy = summary.get("policy", {})
    lo_b, hi_b = summary.get("balance_ci95", [0.0, 1.0])
    ax.set_title(
        f"{policy.get('south', '?')} ({names[0]}) vs {policy.get('north', '?')} ({names[1]}), "
        f"{summary['games']} games, seed {summary.get('seed', '?')}\n"
        f"balance {summary['balance']:.3f} [{lo_b:.3f}, {hi_b:.3f}] (95 %; win rates: Wilson "
        "95 % intervals)",
        fontsize=9,
    )
    ax.set_ylabel("share of games")
    return fig


def length_figure(
    df: pd.DataFrame,
    unit: str,
    names: Sequence[str] = ("South", "North"),
    colours: dict[str, str] = SIDE_COLOURS,
) -> Figure:
    """Histogram of game lengths, split by winner (``names``: the sides' names)."""
    fig = Figure(figsize=(5.0, 3.2), layout="constrained")
    ax = fig.add_subplot()
    lengths = df["length"].to_numpy()
    if len(lengths):
        lo, hi = int(lengths.min()), int(lengths.max())
        bins: int | list[float] = [x - 0.5 for x in range(lo, hi + 2)] if hi - lo < 60 else 40
        labels = dict(zip(colours, [f"{names[0]} wins", f"{names[1]} wins", "draws"], strict=False))
        # only outcomes that happened: a key listing "draws" with none drawn misleads
        shown = [k for k in colours if (df["winner"] == k).any()]
        ax.hist(
            [df.loc[df["winner"] == k, "length"].to_numpy() for k in shown],
            bins=bins,
            stacked=True,
            color=[colours[k] for k in shown],
            edgecolor="#333333",
            linewidth=0.4,
            label=[labels[k] for k in shown],
        )
        ax.legend(fontsize=7)
    ax.set_xlabel(f"game length ({unit})")
    ax.set_ylabel("games")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # counts of games
    ax.set_title("Game length by winner", fontsize=9)
    return fig


def heat_figure(
    scenario: Scenario,
    grids: dict[str, np.ndarray],
    title: str,
    cmap: str,
    notes: dict[str, str],
    scale: str = "count",
    empty: str = "no cell counted",
) -> Figure:
    """One board panel per side with per-cell counts (blank = zero); ``notes[side]`` follows
    the side's name in its panel title (e.g. "412 losses"); ``scale`` says what a count is
    (under each panel's colour scale); ``empty`` is written across a panel with no count
    (so that an empty board does not read as a drawing that failed); a key of the board's
    marks under the panels."""
    w, h = figure_size(scenario, panels=len(grids), extra=0.9)
    fig = Figure(figsize=(w, h + 0.3), layout="constrained")
    axes = fig.subplots(1, len(grids))
    names = get_ruleset(scenario.ruleset).side_names()
    # one colour scale for every panel: the same colour is the same count on each side
    top = max([1.0, *(float(np.max(g)) for g in grids.values() if np.size(g))])
    for ax, (side, grid) in zip(np.atleast_1d(axes), grids.items(), strict=True):
        values = grid.astype(float).ravel()
        values[values <= 0] = np.nan
        mappable = draw_board(
            ax,
            scenario,
            values,
            cmap=cmap,
            vmin=0,
            vmax=top,
            unit_alpha=0.35,
            fmt="{:.0f}",
            title=f"{names[Side(side)]}: {notes[side]}",
        )
        add_scale(fig, mappable, ax, f"{scale} (blank: none)")
        if not np.any(grid > 0):
            ax.text(
                0.5, 0.5, textwrap.fill(empty, 24), transform=ax.transAxes, ha="center",
                va="center", fontsize=9, color="#555",
                bbox={"boxstyle": "round,pad=0.4", "fc": "white", "ec": "#bbb"},
            )  # fmt: skip
    fig.suptitle(title, fontsize=11)
    add_key(fig, board_key(scenario, heat=True))
    return fig


def write_report(
    df: pd.DataFrame, scenario: Scenario, summary: dict[str, Any], out_dir: str | Path
) -> Path:
    """Write the report files into ``out_dir`` (created if needed); returns report.html."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    save_text(out / "games.csv", df.to_csv(index=False))
    save_text(out / "summary.json", json.dumps(summary, indent=2) + "\n")
    unit = "plies" if scenario.ruleset == "tank-chess" else "rounds"
    names = get_ruleset(scenario.ruleset).side_names()
    sides = (names[Side.SOUTH], names[Side.NORTH])
    board = scenario.board
    deaths = {s: death_map(df, board, s) for s in SIDES}
    figures = {
        "board.png": board_figure(scenario),
        "win_rates.png": win_rate_figure(summary, sides, side_colours(scenario.ruleset)),
        "lengths.png": length_figure(df, unit, sides, side_colours(scenario.ruleset)),
        "deaths.png": heat_figure(
            scenario,
            deaths,
            "Where units were knocked out (losses of each side)",
            "Reds",
            {s: f"{int(grid.sum())} losses" for s, grid in deaths.items()},
            "units of the side knocked out on the cell",
            "no unit of this side knocked out",
        ),
        "routes.png": heat_figure(
            scenario,
            {s: route_map(df, board, s) for s in SIDES},
            "Cells where the winning unit ended its turns (games won by each side)"
            if scenario.ruleset == "tank-chess"  # multi-step moves: only the end cells
            else "Cells the winning unit passed (games won by each side)",
            "Greens",
            {s: f"{int((df['winner'] == s).sum())} games won" for s in SIDES},
            "games whose winning unit ended a turn on the cell"
            if scenario.ruleset == "tank-chess"
            else "games whose winning unit passed the cell",
            "no winning unit's route for this side (a win by destroying every enemy unit has none)",
        ),
    }
    for name, fig in figures.items():
        save_figure(fig, out / name, dpi=110)
    path = out / "report.html"
    save_text(path, _html(scenario, summary, list(figures), unit))
    return path


def _kills(summary: dict[str, Any], side: str) -> str:
    """Enemy units ``side`` knocked out, by its unit kind; kills credited to no single unit
    (Tank Wars' artillery dice and gunfire tokens) counted apart, not shown as none."""
    by_kind = summary["kills_by_kind"][side]
    total = int((summary.get("kills") or {}).get(side, 0))
    apart = total - sum(by_kind.values())
    if apart <= 0:
        return _counts(by_kind)
    shown = f"{_counts(by_kind)}; " if by_kind else ""
    return f"{shown}{apart} credited to no single unit"


def _counts(by_kind: dict[str, int]) -> str:
    """``{"light": 32, "command": 31}`` → ``"32 light, 31 command"`` (most first)."""
    items = sorted(by_kind.items(), key=lambda kv: (-kv[1], kv[0]))
    return html.escape(", ".join(f"{n} {kind}" for kind, n in items)) or "–"


def _warning(summary: dict[str, Any]) -> str:
    agents = summary.get("agents", {})
    out = []
    for key in ("verdict_disagreement", "verdict_warning"):
        text = agents.get(key)
        if text:
            out.append(f"<p style='color:#a00'><b>Warning:</b> {html.escape(text)}</p>")
    return "".join(out)


def _verdict(summary: dict[str, Any]) -> str:
    """The board's remembered verdict, shown before the run's own numbers."""
    line = summary.get("agents", {}).get("verdict_line")
    if not line:
        return ""
    line = html.escape(line[:1].upper() + line[1:])
    return (
        f"<p style='font-size:110%'><b>{line}</b><br><small>The verdict is the balance at the "
        "top of an agent's budget climb, where a stronger agent no longer changes it "
        "(<code>tankmap verdict</code>); the numbers below are this run's.</small></p>"
    )


def _favoured(summary: dict[str, Any], label: dict[str, str]) -> str:
    """The side this run favours, as ``simulate --json``'s ``favoured`` says it (a side
    when the difference's 95 % interval excludes 0, else even; undecided below
    ``MIN_VERDICT_GAMES`` games)."""
    fav = summary.get("favoured")
    if not fav:
        return ""
    if fav in label:
        return (
            f"Favoured: <b>{html.escape(label[fav])}</b> (the 95 % interval of the difference "
            "excludes 0)."
        )
    if fav == "undecided":
        return (
            f"Favoured: <b>undecided</b> (fewer than {MIN_VERDICT_GAMES} games: no side is "
            "named and the board is not called even)."
        )
    return f"Favoured: <b>{html.escape(str(fav))}</b> (the difference's 95 % interval covers 0)."


def _options(summary: dict[str, Any]) -> str:
    """The options the run was given on the command line (``--option``), as a sentence."""
    given = summary.get("options") or {}
    if not given:
        return ""
    words = ", ".join(f"{name}={json.dumps(v)}" for name, v in given.items())
    return f" Options given: {html.escape(words)}."


def _agent_cell(summary: dict[str, Any], side: str) -> str:
    """The agent's name, its one-line description and its strength on this board."""
    from tankmap.analysis.simulation.agent_info import strength_text

    name = html.escape(summary["policy"][side])
    agent = summary.get("agents", {}).get(side)
    if not agent:
        return name
    return (
        f"<b>{name}</b><br><small>{html.escape(agent['description'])}<br>"
        f"{html.escape(strength_text(agent))}</small>"
    )


def _html(scenario: Scenario, summary: dict[str, Any], images: list[str], unit: str) -> str:
    rs = get_ruleset(scenario.ruleset)
    title = html.escape(scenario.title or "untitled scenario")
    names = rs.side_names()
    label = {s.value: html.escape(names[s]) for s in Side}
    rows = []
    for side in SIDES:
        r = summary["win_rate"][side]
        rows.append(
            f"<tr><td>{label[side]}</td><td>{_agent_cell(summary, side)}</td>"
            f"<td>{summary['wins'][side]}</td><td>{r['estimate']:.4f}</td>"
            f"<td>[{r['ci95'][0]:.4f}, {r['ci95'][1]:.4f}]</td></tr>"
        )
    d = summary["draw_rate"]
    rows.append(
        f"<tr><td>draw</td><td></td><td>{summary['draws']}</td><td>{d['estimate']:.4f}</td>"
        f"<td>[{d['ci95'][0]:.4f}, {d['ci95'][1]:.4f}]</td></tr>"
    )
    length = summary["length"]
    extra = ""
    if "first_mover" in summary:
        fm = summary["first_mover"]
        extra = (
            f"<p>First mover wins {fm['estimate']:.4f} "
            f"[{fm['ci95'][0]:.4f}, {fm['ci95'][1]:.4f}] (advantage {fm['advantage']:+.4f} "
            f"[{fm['advantage_ci95'][0]:+.4f}, {fm['advantage_ci95'][1]:+.4f}]).</p>"
        )
    losses = "".join(
        f"<tr><td>{label[s]}</td><td>{_counts(summary['losses_by_kind'][s])}</td>"
        f"<td>{_kills(summary, s)}</td></tr>"
        for s in SIDES
    )
    ends = ", ".join(f"{html.escape(k)}: {v}" for k, v in summary["end"].items())
    # (a provisional ruleset's title already says so: "… — provisional")
    provisional = "" if not rs.provisional or "provisional" in rs.title else " <b>(provisional)</b>"
    imgs = "\n".join(f'<p><img src="{name}" alt="{name}"></p>' for name in images)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Simulation: {title}</title>
<style>body{{font-family:sans-serif;max-width:1100px;margin:2em auto}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:3px 8px}}
img{{max-width:100%}}</style></head><body>
<h1>Simulation report: {title}</h1>
<p>Ruleset {html.escape(rs.title)}{provisional}; {summary["games"]} games, seed {summary["seed"]},
{summary["playouts_per_second"]:.1f} playouts/s.{_options(summary)}</p>
{_verdict(summary)}
<h2>Results</h2>
<table><tr><th>side</th><th>agent</th><th>wins</th><th>rate</th><th>Wilson 95 %</th></tr>
{"".join(rows)}</table>
<p><b>Balance</b> = 1 − |win rate {label["south"]} − win rate {label["north"]}| =
{summary["balance"]:.4f} [{summary.get("balance_ci95", [0, 1])[0]:.4f},
{summary.get("balance_ci95", [0, 1])[1]:.4f}] (95 % interval;
{html.escape(summary["policy"]["south"])} vs {html.escape(summary["policy"]["north"])},
{summary["games"]} games: a figure of this board <i>as played by these agents</i>;
<code>tankmap verdict</code> climbs an agent's strength until it stops changing).
{_favoured(summary, label)}</p>
{_warning(summary)}
{extra}
<p>Length ({unit}): mean {length["mean"]}, median {length["median"]}. Endings: {ends}.</p>
<h2>Losses and kills by unit kind</h2>
<table><tr><th>side</th><th>units lost</th><th>enemy units knocked out, by own unit kind</th></tr>
{losses}</table>
<h2>Charts</h2>
{imgs}
<p>Per-game table: <a href="games.csv">games.csv</a>;
summary: <a href="summary.json">summary.json</a>.</p>
</body></html>
"""
