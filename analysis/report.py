"""HTML reports: ``write_report`` writes one scenario's ``report.html`` with its PNG figures
and CSV tables beside it (plain files: the report works offline, from any folder);
``write_index`` writes an ``index.html`` comparing several analysed scenarios.

Files written by ``write_report(result, out)``::

    out/report.html      the board's remembered verdict, summary, balance table, figures,
                         units, lanes
    out/board.png reach.png coverage.png contested.png lanes.png routes.png balance.png
    out/kill.png (Tank Chess)  out/artillery.png (Tank Wars)
    out/balance.csv units.csv lanes.csv reach_<side>.csv coverage_<side>.csv
    out/analysis.json    the ``tankmap analyze --json`` document
"""

from __future__ import annotations

import html
import json
import urllib.parse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from tankmap.analysis.balance import DIFF, balance_table
from tankmap.analysis.board_figure import board_figure, time_unit
from tankmap.analysis.figures import (
    artillery_figure,
    contested_figure,
    coverage_figure,
    kill_figure,
    lanes_figure,
    reach_figure,
    routes_figure,
)
from tankmap.analysis.measures_figure import measures_figure
from tankmap.analysis.outputs import save_figure, save_text
from tankmap.analysis.summary import ScenarioAnalysis
from tankmap.rules.board import Board
from tankmap.rules.errors import TankmapError
from tankmap.rules.geometry import Side
from tankmap.rules.registry import get_ruleset
from tankmap.rules.scenario import Scenario
from tankmap.rules.sides import side_names

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:2em auto;
max-width:1100px;color:#222;padding:0 1em}
h1{margin-bottom:.2em} .sub{color:#666;margin-top:0}
.prov{background:#fff3cd;border:1px solid #e0c36a;padding:.5em 1em;border-radius:4px}
table{border-collapse:collapse;margin:.6em 0;font-size:.9em}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f3f3f3} td.l,th.l{text-align:left} tr>th.l:first-child{white-space:nowrap}
.wide{overflow-x:auto;max-width:100%}
img{max-width:100%;border:1px solid #eee;margin:.4em 0}
.grid{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}
code{background:#f5f5f5;padding:0 .2em}
"""


def whole_numbers_as_integers(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with each column whose values are all whole numbers (or missing) as
    integers, so that a CSV says ``9``, not ``9.0``; other columns as they are."""
    out = table.copy()
    for name in out.columns:
        col = out[name]
        known = col.dropna()
        if pd.api.types.is_float_dtype(col) and bool((known == known.round()).all()):
            out[name] = col.astype("Int64")
    return out


def _save(fig: Figure | None, path: Path) -> str | None:
    if fig is None:
        return None
    save_figure(fig, path, dpi=100)
    return path.name


def _fmt(v: object) -> str:
    """A table cell: floats to 4 significant digits, missing values (None, NaN, pandas'
    ``NA``) as a dash."""
    if v is None or v is pd.NA or (isinstance(v, float) and v != v):
        return "–"
    if isinstance(v, float):
        return f"{v:.4g}"
    return html.escape(str(v))


def _table(df: pd.DataFrame, unit: str = "turns") -> str:
    """An HTML table of ``df`` that fits the page: headers in words (``rounds to goal``,
    so they wrap; ``unit``: the game's time unit, ``time_unit``), the row names kept on one
    line, and a scroll bar of its own when it is still wider than the page (never cut
    off)."""

    def words(name: object) -> str:
        text = f"{unit}_to_goal" if name == "turns_to_goal" else str(name)
        return html.escape(text.replace("_", " "))

    head = "".join(f"<th>{words(c)}</th>" for c in df.columns)
    rows = []
    for idx, row in df.iterrows():
        cells = "".join(f"<td>{_fmt(v)}</td>" for v in row.to_numpy())
        rows.append(f"<tr><th class=l>{html.escape(str(idx))}</th>{cells}</tr>")
    return (
        f"<div class=wide><table><tr><th class=l>{words(df.index.name or '')}</th>{head}</tr>"
        + "".join(rows)
        + "</table></div>"
    )


def units_frame(result: ScenarioAnalysis) -> pd.DataFrame:
    """One row per live unit: name, kind, side, cell, facing, turns_to_goal, route."""
    doc = result.to_json()
    rows = [
        {
            "side": u["side"],
            "kind": u["kind"],
            "name": u["name"] or "",
            "cell": u["cell"],
            "facing": u["facing"] or "",
            "turns_to_goal": u["turns_to_goal"],
            "route": " ".join(u["route"]),
        }
        for u in doc["units"]
    ]
    return pd.DataFrame(
        rows, columns=["side", "kind", "name", "cell", "facing", "turns_to_goal", "route"]
    )


def lanes_frame(result: ScenarioAnalysis) -> pd.DataFrame:
    """One row per lane (and safest route) per side: side, what, length, exposure, cells."""
    b = result.scenario.board
    rows: list[dict[str, object]] = []
    for side in Side:
        la = result.lanes[side]
        for i, lane in enumerate(la.lanes, 1):
            rows.append(
                {
                    "side": side.value,
                    "what": f"lane {i}",
                    "length": lane.length,
                    "exposure": lane.exposure,
                    "cells": " ".join(b.cell_name(c) for c in lane.cells),
                }
            )
        if la.safest is not None:
            rows.append(
                {
                    "side": side.value,
                    "what": "safest route",
                    "length": la.safest.length,
                    "exposure": la.safest.exposure,
                    "cells": " ".join(b.cell_name(c) for c in la.safest.cells),
                }
            )
        if la.applicable:
            rows.append(
                {
                    "side": side.value,
                    "what": "choke",
                    "length": len(la.choke),
                    "exposure": None,
                    "cells": " ".join(b.cell_name(c) for c in la.choke),
                }
            )
    frame = pd.DataFrame(rows, columns=["side", "what", "length", "exposure", "cells"])
    return frame.astype({"length": "Int64", "exposure": "Int64"})


def grid_frame(values: object, b: Board) -> pd.DataFrame:
    """A board-shaped list of rows (``[0]`` = row 1, as in ``analyze --json``) as a
    DataFrame labelled like the board: index ``"R"``..``"1"`` (north at the top, named
    ``row``), columns ``"a"``..; missing values (cells nobody reaches) are ``<NA>``."""
    grid: pd.DataFrame = pd.DataFrame(values).iloc[::-1].astype("Int64")  # type: ignore[call-overload]
    grid.index = [str(r) for r in range(b.rows, 0, -1)]
    grid.columns = [chr(97 + c) for c in range(b.columns)]
    grid.index.name = "row"
    return grid


REPORT_STEPS = 10
"""How many times ``write_report`` calls its ``on_step``: once per figure, once for the
tables and the page."""


def write_report(
    result: ScenarioAnalysis,
    out: str | Path,
    source: str = "",
    on_step: Callable[[], None] | None = None,
) -> Path:
    """Write the report of one analysed scenario into folder ``out`` (created if needed);
    return the path of ``report.html``. ``on_step()`` is called after each of its
    ``REPORT_STEPS`` steps (a figure takes seconds: progress bars). Raises ``OSError`` if
    the folder is not writable."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    s = result.scenario
    rs = get_ruleset(s.ruleset)
    doc = result.to_json()
    table = balance_table(result)
    figures: dict[str, Callable[[], Figure | None]] = {
        "board": lambda: board_figure(s),
        "reach": lambda: reach_figure(result),
        "coverage": lambda: coverage_figure(result),
        "contested": lambda: contested_figure(result),
        "lanes": lambda: lanes_figure(result),
        "routes": lambda: routes_figure(result),
        "balance": lambda: measures_figure(table, s.ruleset),
        "kill": lambda: kill_figure(result),
        "artillery": lambda: artillery_figure(result),
    }
    images = {}
    for key, draw in figures.items():
        images[key] = _save(draw(), out / f"{key}.png")
        if on_step is not None:
            on_step()
    save_text(out / "balance.csv", whole_numbers_as_integers(table.round(3)).to_csv())
    units = units_frame(result)
    save_text(out / "units.csv", units.astype({"turns_to_goal": "Int64"}).to_csv(index=False))
    lanes = lanes_frame(result)
    save_text(out / "lanes.csv", lanes.to_csv(index=False))
    for side in Side:
        entry = doc["sides"][side.value]
        board = result.scenario.board
        save_text(out / f"reach_{side.value}.csv", grid_frame(entry["reach"], board).to_csv())
        save_text(out / f"coverage_{side.value}.csv", grid_frame(entry["coverage"], board).to_csv())
    save_text(out / "analysis.json", json.dumps(doc, indent=1))

    title = s.title or Path(source).stem or "scenario"
    names = rs.side_names()
    parts = [
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>",
        f"<title>{html.escape(title)} — tankmap analysis</title><style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p class=sub>{html.escape(rs.title)} · {s.board.columns}×{s.board.rows} board"
        + (f" · <code>{html.escape(source)}</code>" if source else "")
        + "</p>",
    ]
    if rs.provisional:
        parts.append(
            "<p class=prov><b>Provisional ruleset.</b> The rules behind these numbers "
            "are reconstructed from an incomplete manual; treat them as estimates.</p>"
        )
    if s.notes:
        parts.append(f"<p>{html.escape(s.notes)}</p>")
    parts.append(_verdict_html(s))
    parts.append("<h2>Summary</h2><ul>")
    for side in Side:
        e = doc["sides"][side.value]
        choke = e["choke"]
        who = f"<li><b>{html.escape(names[side])}</b>: "
        if choke["width"] is None:  # no unit of this game wins by moving (Tank Wars)
            parts.append(
                f"{who}no unit wins by moving (no goal, lanes or choke point); "
                f"{e['safe_cells']} safe cells in its half.</li>"
            )
            continue
        calls = ""
        if e.get("check") or e.get("escape"):
            said = " ".join(w for w, k in (("Check!", "check"), ("Escape!", "escape")) if e[k])
            turns = ", ".join(e["check_turns"] + e["escape_turns"])
            calls = f" <b>Moving next: {said}</b> ({html.escape(turns)})."
        parts.append(
            f"{who}goal in {_fmt(e['turns_to_goal'])} {time_unit(s)}; {len(e['lanes'])} lanes; "
            f"choke width {_fmt(choke['width'])} "
            f"({html.escape(' '.join(choke['cells'])) or '–'}); "
            f"{e['safe_cells']} safe cells in its half.{calls}</li>"
        )
    parts.append(f"<li>Contested cells (both sides fire): {doc['contested']}.</li>")
    status = (
        "legal" if doc["legal"] else "<b>breaks setup rules</b> (see <code>tankmap check</code>)"
    )
    if doc["legal"] and not doc["complete"]:
        status += ", incomplete"
    parts.append(f"<li>Setup: {status}.</li></ul>")
    parts.append(
        "<p>Movement is terrain-only: each unit alone on the terrain with the wrecks "
        "(other units ignored). Coverage counts the units that can fire at a cell now."
        "</p>"
    )
    sn, nn = names[Side.SOUTH], names[Side.NORTH]
    shown = table.rename(index={"south": sn, "north": nn, DIFF: f"{sn} − {nn}"})
    parts.append(
        "<h2>Static measures per side</h2><p>Counts on the board as it is set up "
        "(movement on the terrain alone, fire from where the units stand): <b>not win "
        "rates</b> — <code>tankmap simulate</code> plays games for those. A difference "
        "between the sides marks an asymmetric board.</p>" + _table(shown, time_unit(s))
    )
    parts.append(
        "<p><a href=balance.csv>balance.csv</a> · <a href=units.csv>units.csv</a> · "
        "<a href=lanes.csv>lanes.csv</a> · "
        + " · ".join(
            f"{html.escape(names[x])}: <a href=reach_{x.value}.csv>reach_{x.value}.csv</a>, "
            f"<a href=coverage_{x.value}.csv>coverage_{x.value}.csv</a>"
            for x in Side
        )
        + " · <a href=analysis.json>analysis.json</a></p>"
    )
    captions = {
        "board": "The board",
        "balance": "Static measures per side (chart)",
        "reach": f"Reach: {time_unit(s)} for any unit of the side to stand on each cell",
        "coverage": "Fire coverage: how many units of the side can fire at each cell",
        "contested": "Contested and safe cells",
        "lanes": "Lanes, choke point and safest route",
        "routes": "Shortest route of each unit to its goal",
        "kill": "Kill coverage (Tank Chess)",
        "artillery": "Artillery hit probability (Tank Wars)",
    }
    for key, caption in captions.items():
        name = images.get(key)
        if name:
            parts.append(f"<h2>{caption}</h2><img src='{name}' alt='{html.escape(caption)}'>")
    words = {"south": sn, "north": nn}  # the CSV files keep south / north
    parts.append(
        "<h2>Units</h2>" + _table(units.replace({"side": words}).set_index("side"), time_unit(s))
    )
    parts.append(
        "<h2>Lanes</h2>" + _table(lanes.replace({"side": words}).set_index("side"), time_unit(s))
    )
    parts.append("<p class=sub>Generated by tankmap analyze.</p></body></html>")
    path = out / "report.html"
    save_text(path, "\n".join(parts))
    if on_step is not None:
        on_step()
    return path


def _verdict_html(scenario: Scenario) -> str:
    """The board's remembered verdict (``tankmap verdict``), or how to get one, in the
    words of ``simulate``'s line, with a warning when its families disagree."""
    from tankmap.analysis.simulation.agent_info import verdict_entry

    entry = verdict_entry(scenario)
    line = str(entry["verdict_line"])
    page = (
        f"<p><b>{html.escape(line[:1].upper() + line[1:])}</b><br><small>The verdict is the "
        "balance at the top of an agent's budget climb, where a stronger agent no longer "
        "changes it (<code>tankmap verdict</code>); the measures below are static, not "
        "win rates.</small></p>"
    )
    if entry["verdict_disagreement"]:
        warning = html.escape(str(entry["verdict_disagreement"]))
        page += f"<p class=prov><b>Warning:</b> {warning}</p>"
    return page


def write_index(entries: Sequence[tuple[str, Path, dict[str, Any]]], out: str | Path) -> Path:
    """Write ``out/index.html`` comparing analysed scenarios; ``entries`` are (source file,
    report folder, its ``analyze --json`` document). Returns the index path."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for source, folder, doc in entries:
        rel = folder.relative_to(out) if folder.is_relative_to(out) else folder
        href = html.escape(urllib.parse.quote(rel.as_posix()), quote=True)
        cells = [
            f'<td class=l><a href="{href}/report.html">{html.escape(source)}</a><br>'
            f"<small>{html.escape(doc['title'])}</small></td>",
            f"<td class=l>{html.escape(doc['ruleset'])}"
            + (" (provisional)" if doc["provisional"] else "")
            + "</td>",
        ]
        for side in Side:
            e = doc["sides"][side.value]
            cells.append(
                f"<td>{_fmt(e['turns_to_goal'])}</td>"
                f"<td>{'–' if e['choke']['width'] is None else len(e['lanes'])}</td>"
                f"<td>{_fmt(e['choke']['width'])}</td><td>{e['safe_cells']}</td>"
            )
        cells.append(f"<td>{doc['contested']}</td>")
        cells.append(
            f'<td><a href="{href}/report.html"><img src="{href}/board.png" '
            "style='max-width:140px'></a></td>"
        )
        rows.append("<tr>" + "".join(cells) + "</tr>")
    rulesets = sorted({str(doc["ruleset"]) for _source, _folder, doc in entries})
    side_head = "".join(
        f"<th colspan=4>{html.escape(' / '.join(_names(r)[s] for r in rulesets) or s.value)}</th>"
        for s in Side
    )
    sub = "<th>goal</th><th>lanes</th><th>choke</th><th>safe</th>" * 2
    page = (
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>tankmap analysis index"
        f"</title><style>{_CSS}</style></head><body><h1>Scenario comparison</h1>"
        "<p class=sub>goal = rounds/turns to the goal; lanes = cell-disjoint lanes; choke = "
        "narrowest cut; safe = cells of the side's half no enemy can fire at.</p>"
        f"<table><tr><th class=l rowspan=2>file</th><th class=l rowspan=2>ruleset</th>{side_head}"
        f"<th rowspan=2>contested</th><th rowspan=2>board</th></tr><tr>{sub}</tr>"
        + "".join(rows)
        + "</table></body></html>"
    )
    path = out / "index.html"
    save_text(path, page)
    return path


def _names(ruleset: str) -> dict[Side, str]:
    """The sides' names in ``ruleset`` (South and North for a ruleset not known here)."""
    try:
        return side_names(ruleset)
    except TankmapError:
        return {Side.SOUTH: "South", Side.NORTH: "North"}
