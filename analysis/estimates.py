"""One way to turn games into a balance figure, used everywhere a balance is printed.

A run of games between two agents on one board ends in ``wins_south``, ``wins_north`` and
draws. ``BalanceEstimate`` turns those counts into

- each side's win rate with its Wilson 95 % interval (``win_rate``),
- the difference ``d`` = win rate south − win rate north with its 95 % interval
  (``difference_ci95``: the Agresti–Caffo interval of a difference of two proportions of
  one trinomial sample — one win added to each side before the normal approximation, so
  that a clean sweep or a handful of games still gets an honest width),
- the balance ``1 − |d|`` (1 = even) and its interval (``balance_ci95``: the image of the
  difference's interval; its upper end is 1 when the difference's interval covers 0),
- the favoured side (``favoured``): ``"south"`` or ``"north"`` when the difference's
  interval excludes 0, ``"even"`` when it covers 0, and ``"undecided"`` — never ``"even"`` —
  below ``MIN_VERDICT_GAMES`` games.

``score_interval`` is the match counterpart: the share of points (a draw = ½) an agent
scored against another, with its 95 % interval.

>>> e = BalanceEstimate(wins_south=120, wins_north=70, games=200, agent="search")
>>> e.favoured(), round(e.balance, 3)
('south', 0.75)
>>> [round(v, 3) for v in e.balance_ci95()]
[0.622, 0.883]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

Z95 = 1.959963984540054


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``k`` successes in ``n`` trials (``(0, 1)`` if ``n == 0``).

    >>> lo, hi = wilson(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


MIN_VERDICT_GAMES = 100
"""Below this many games a run names no favoured side and does not call a board even
("undecided"): a 40-game run covers 0 in its difference interval on almost any board."""

Favoured = Literal["south", "north", "even", "undecided"]


def games_text(n: int) -> str:
    """``"1 game"``, ``"200 games"``."""
    return f"{n} game" if n == 1 else f"{n} games"


def difference_ci95(wins_south: int, wins_north: int, games: int) -> tuple[float, float]:
    """95 % interval of (south win rate − north win rate) from one run of ``games`` games
    (draws count for nobody), clipped to [-1, 1]; ``(-1, 1)`` for no games.

    Agresti–Caffo: each side gets one virtual win (``games + 2`` games) before the normal
    approximation of the trinomial's difference, whose variance is
    ``(ps + pn − (ps − pn)²) / n``.

    >>> [round(v, 3) for v in difference_ci95(10, 10, 20)]
    [-0.418, 0.418]
    >>> [round(v, 3) for v in difference_ci95(20, 0, 20)]
    [0.735, 1.0]
    """
    if games <= 0:
        return (-1.0, 1.0)
    if not (0 <= wins_south and 0 <= wins_north and wins_south + wins_north <= games):
        raise ValueError(f"bad counts: {wins_south} + {wins_north} wins in {games} games")
    n = games + 2
    ps, pn = (wins_south + 1) / n, (wins_north + 1) / n
    d = ps - pn
    half = Z95 * math.sqrt(max(ps + pn - d * d, 0.0) / n)
    centre = (wins_south - wins_north) / games
    # centred on the adjusted estimate, as Agresti–Caffo; the raw estimate always lies inside
    lo, hi = min(d - half, centre), max(d + half, centre)
    return (max(-1.0, lo), min(1.0, hi))


def balance_of_difference(lo: float, hi: float) -> tuple[float, float]:
    """The interval of ``1 − |d|`` when ``d`` lies in ``[lo, hi]``.

    >>> balance_of_difference(-0.1, 0.2)
    (0.8, 1.0)
    >>> [round(v, 3) for v in balance_of_difference(0.1, 0.3)]
    [0.7, 0.9]
    """
    far = max(abs(lo), abs(hi))
    near = 0.0 if lo <= 0.0 <= hi else min(abs(lo), abs(hi))
    return (1.0 - far, 1.0 - near)


@dataclass(frozen=True)
class BalanceEstimate:
    """The balance of a board from one run of ``games`` games of ``agent`` (both sides, or
    ``"A vs B"``); ``seed`` is the run's seed when known. See the module docstring."""

    wins_south: int
    wins_north: int
    games: int
    agent: str
    seed: int | None = None

    def __post_init__(self) -> None:
        if self.games < 0 or self.wins_south < 0 or self.wins_north < 0:
            raise ValueError(f"negative counts in {self!r}")
        if self.wins_south + self.wins_north > self.games:
            raise ValueError(f"more wins than games in {self!r}")

    @classmethod
    def of_table(cls, df: Any, agent: str | None = None) -> BalanceEstimate:
        """The estimate of a ``simulate`` table (its ``winner`` column; ``agent`` defaults
        to the table's policies: one name when both sides played the same agent)."""
        n = len(df)
        ws = int((df["winner"] == "south").sum())
        wn = int((df["winner"] == "north").sum())
        if agent is None:
            if n:
                south, north = str(df["policy_south"].iloc[0]), str(df["policy_north"].iloc[0])
                agent = south if south == north else f"{south} vs {north}"
            else:
                agent = ""
        seed = df.attrs.get("seed") if hasattr(df, "attrs") else None
        return cls(ws, wn, n, agent, None if seed is None else int(seed))

    @property
    def draws(self) -> int:
        return self.games - self.wins_south - self.wins_north

    @property
    def difference(self) -> float:
        """South's win rate minus north's (0 for no games)."""
        return (self.wins_south - self.wins_north) / self.games if self.games else 0.0

    @property
    def balance(self) -> float:
        """1 − |difference|: 1 is even, 0 is one side always winning."""
        return 1.0 - abs(self.difference)

    def win_rate(self, side: str) -> tuple[float, tuple[float, float]]:
        """``side``'s win rate and its Wilson 95 % interval."""
        k = self.wins_south if side == "south" else self.wins_north
        return (k / self.games if self.games else 0.0, wilson(k, self.games))

    def difference_ci95(self) -> tuple[float, float]:
        """See the module function ``difference_ci95``."""
        return difference_ci95(self.wins_south, self.wins_north, self.games)

    def balance_ci95(self) -> tuple[float, float]:
        """95 % interval of the balance (the image of ``difference_ci95``)."""
        return balance_of_difference(*self.difference_ci95())

    def favoured(self, min_games: int = MIN_VERDICT_GAMES) -> Favoured:
        """``"south"``/``"north"`` when the difference's interval excludes 0, ``"even"``
        when it covers 0, ``"undecided"`` with fewer than ``min_games`` games."""
        if self.games < min_games:
            return "undecided"
        lo, hi = self.difference_ci95()
        if lo > 0:
            return "south"
        if hi < 0:
            return "north"
        return "even"

    def text(self, sides: tuple[str, str] = ("south", "north")) -> str:
        """``"balance 0.750 [0.615, 0.885], south 0.60, north 0.35 (search, 200 games)"``;
        ``sides`` are the display names of south and north (Tank Chess: White, Black)."""
        lo, hi = self.balance_ci95()
        s, _ = self.win_rate("south")
        n, _ = self.win_rate("north")
        return (
            f"balance {self.balance:.3f} [{lo:.3f}, {hi:.3f}], {sides[0]} {s:.2f}, "
            f"{sides[1]} {n:.2f} ({self.agent}, {games_text(self.games)})"
        )

    def to_json(self) -> dict[str, Any]:
        """The keys every balance document shares (``balance``, ``balance_ci95``, …)."""
        return {
            "agent": self.agent,
            "games": self.games,
            "seed": self.seed,
            "win_rate": {
                side: {
                    "estimate": round(self.win_rate(side)[0], 6),
                    "ci95": [round(v, 6) for v in self.win_rate(side)[1]],
                }
                for side in ("south", "north")
            },
            "draws": self.draws,
            "balance": round(self.balance, 6),
            "balance_ci95": [round(v, 6) for v in self.balance_ci95()],
            "difference_ci95": [round(v, 6) for v in self.difference_ci95()],
            "favoured": self.favoured(),
        }


def score_interval(points: float, games: int) -> tuple[float, float]:
    """95 % interval of the share of points (win 1, draw ½) an agent scored in ``games``
    games: Wilson's interval on the points (a half point counts as half a success).

    >>> [round(v, 3) for v in score_interval(60, 100)]
    [0.502, 0.691]
    """
    if not 0 <= points <= max(games, 0):
        raise ValueError(f"{points} points in {games} games")
    return wilson(points, games)
