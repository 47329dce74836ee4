"""Balance statistics over the runner's per-game table.

- ``wilson(k, n)``: Wilson score 95 % interval of a proportion (from ``analysis.estimates``,
  which also turns win counts into the balance with its interval: ``BalanceEstimate``).
- ``summary(df, ...)``: the ``tankmap simulate --json`` document (docs/cli-json.md) plus extra
  keys (draw rate, end reasons, length distribution, kills by unit kind, first mover).
- ``death_map`` / ``route_map``: counts per cell as ``rows × columns`` arrays (``[0]`` = row 1).

``balance`` = 1 − |win rate south − win rate north| (Ludii's definition): 1 is perfectly
even, 0 is one side always winning.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pandas as pd

from tankmap.analysis.estimates import Z95 as Z95  # re-exported: the package's interval
from tankmap.analysis.estimates import BalanceEstimate, difference_ci95
from tankmap.analysis.estimates import wilson as wilson
from tankmap.rules.board import Board


def rate(k: int, n: int) -> dict[str, Any]:
    """``{"estimate": k/n, "ci95": [lo, hi]}`` rounded to 6 decimals."""
    lo, hi = wilson(k, n)
    est = k / n if n else 0.0
    return {"estimate": round(est, 6), "ci95": [round(lo, 6), round(hi, 6)]}


def balance(wins_south: int, wins_north: int, games: int) -> float:
    """1 − |ws − wn| with rates over all games (draws count for nobody)."""
    if games <= 0:
        return 1.0
    return 1.0 - abs(wins_south - wins_north) / games


def losses_by_kind(df: pd.DataFrame) -> dict[str, dict[str, int]]:
    """Units lost per side and kind: ``{"south": {"tank": 12, ...}, "north": {...}}``."""
    out: dict[str, Counter[str]] = {"south": Counter(), "north": Counter()}
    for text in df["deaths"]:
        for item in str(text).split():
            side, kind = item.split(":")[:2]
            out[side][kind] += 1
    return {s: dict(sorted(c.items())) for s, c in out.items()}


def kills_by_kind(df: pd.DataFrame) -> dict[str, dict[str, int]]:
    """Enemy units knocked out per side and by the kind of unit that did it:
    ``{"south": {"tank": 30, "at": 4}, ...}`` (kills no single unit made are left out)."""
    out: dict[str, Counter[str]] = {"south": Counter(), "north": Counter()}
    for text in df["deaths"]:
        for item in str(text).split():
            parts = item.split(":")
            if len(parts) > 3 and parts[3] != "-":
                killer = "north" if parts[0] == "south" else "south"
                out[killer][parts[3]] += 1
    return {s: dict(sorted(c.items())) for s, c in out.items()}


def _cell_counts(board: Board, names: list[str]) -> np.ndarray:
    grid = np.zeros((board.rows, board.columns), dtype=np.int64)
    for name in names:
        c = board.parse_cell(name)
        grid[board.row_of(c), board.col_of(c)] += 1
    return grid


def death_map(df: pd.DataFrame, board: Board, side: str | None = None) -> np.ndarray:
    """How many units (of ``side``, or all) were knocked out on each cell."""
    names = []
    for text in df["deaths"]:
        for item in str(text).split():
            s, _kind, cell = item.split(":")[:3]
            if side is None or s == side:
                names.append(cell)
    return _cell_counts(board, names)


def route_map(df: pd.DataFrame, board: Board, side: str | None = None) -> np.ndarray:
    """How many games' winning units (of ``side``, or either) passed each cell (a cell
    counts once per game)."""
    names: list[str] = []
    for winner, route in zip(df["winner"], df["route"], strict=True):
        if isinstance(route, str) and route and (side is None or winner == side):
            names.extend(dict.fromkeys(route.split()))
    return _cell_counts(board, names)


def length_stats(df: pd.DataFrame) -> dict[str, Any]:
    """Mean, median, quartiles, min, max and a histogram (``{"edges": [...], "counts": [...]}``)."""
    lengths = df["length"].to_numpy()
    if len(lengths) == 0:
        return {"mean": 0.0, "median": 0}
    hi = int(lengths.max())
    lo = int(lengths.min())
    bins = min(30, max(1, hi - lo + 1))
    counts, edges = np.histogram(lengths, bins=bins, range=(lo, hi + 1))
    median = float(np.median(lengths))
    return {
        "mean": round(float(lengths.mean()), 4),
        "median": int(median) if median.is_integer() else median,
        "min": lo,
        "max": hi,
        "q1": float(np.percentile(lengths, 25)),
        "q3": float(np.percentile(lengths, 75)),
        "histogram": {"edges": [float(e) for e in edges], "counts": [int(c) for c in counts]},
    }


def first_mover(df: pd.DataFrame) -> dict[str, Any]:
    """Win rate of the side that moved first, with its interval, and ``advantage`` = its win
    rate minus the second mover's (alternating games), with its interval
    (``advantage_ci95``, as a verdict's win-rate difference)."""
    n = len(df)
    k_first = int((df["winner"] == df["first"]).sum())
    k_second = int(((df["winner"] != df["first"]) & (df["winner"] != "draw")).sum())
    out = rate(k_first, n)
    out["advantage"] = round((k_first - k_second) / n, 6) if n else 0.0
    out["advantage_ci95"] = [round(v, 6) for v in difference_ci95(k_first, k_second, n)]
    return out


def summary(
    df: pd.DataFrame,
    *,
    seed: int | None = None,
    policies: tuple[str, str] | None = None,
    playouts_per_second: float | None = None,
    alternating: bool = False,
) -> dict[str, Any]:
    """The ``simulate --json`` document for the table ``df`` (docs/cli-json.md keys first)."""
    n = len(df)
    ws = int((df["winner"] == "south").sum())
    wn = int((df["winner"] == "north").sum())
    draws = n - ws - wn
    if policies is None:
        policies = (
            str(df["policy_south"].iloc[0]) if n else "",
            str(df["policy_north"].iloc[0]) if n else "",
        )
    if seed is None:
        seed = int(df.attrs.get("seed", 0))
    if playouts_per_second is None:
        playouts_per_second = float(df.attrs.get("playouts_per_second", 0.0))
    est = BalanceEstimate(ws, wn, n, policies[0] if policies[0] == policies[1] else "")
    out: dict[str, Any] = {
        "games": n,
        "seed": seed,
        "policy": {"south": policies[0], "north": policies[1]},
        "wins": {"south": ws, "north": wn},
        "draws": draws,
        "win_rate": {"south": rate(ws, n), "north": rate(wn, n)},
        "balance": round(balance(ws, wn, n), 6),
        "balance_ci95": [round(v, 6) for v in est.balance_ci95()],
        "difference_ci95": [round(v, 6) for v in est.difference_ci95()],
        "favoured": est.favoured(),
        "length": length_stats(df),
        "playouts_per_second": round(playouts_per_second, 1),
        "draw_rate": rate(draws, n),
        "end": {str(k): int(v) for k, v in sorted(Counter(df["end"]).items())},
        "kills": {
            "south": int(df["kills_south"].sum()),
            "north": int(df["kills_north"].sum()),
        },
        "losses_by_kind": losses_by_kind(df),
        "kills_by_kind": kills_by_kind(df),
    }
    if alternating:
        out["first_mover"] = first_mover(df)
    return out
