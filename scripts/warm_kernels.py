"""Compile (or load) every numba kernel once, two groups side by side, so that the
processes started afterwards load them from numba's cache instead of compiling them again
each (``python scripts/warm_kernels.py``; the test suite runs it before its workers start).

From a clean clone this takes about three minutes on two cores. Measured from an empty
cache, one agent per process, both groups side by side (2026-11-28, wall seconds): Final Act
34, ``ksearch`` 28 and ``duct`` 57 after it; Tank Chess 78, ``alphabeta`` 52 after it; Tank
Wars ``regret`` 41 and ``plan`` about 10 after it; Final Act ``search`` 18 after the Final
Act kernel. The groups are about even: 169 s and 148 s;
with the cache warm, a few seconds. Exit code 0 when every group played its game.
"""

from __future__ import annotations

import subprocess
import sys

GROUPS = (
    (
        ("final-act/mirror", "heuristic"),
        ("final-act/mirror", "ksearch:1"),
        ("final-act/mirror", "duct:2"),
        ("tank-wars/default", "regret:2"),
        ("tank-wars/default", "plan:2"),
    ),
    (
        ("tank-chess/basic-16", "heuristic"),
        ("tank-chess/basic-16", "alphabeta:20"),
        # last: by then the other group has compiled the Final Act kernel search:1 uses
        ("final-act/mirror", "search:1"),
    ),
)
"""Games that load every kernel: one group per process, about even in compile time."""

PLAY = """
import sys
import tankmap
from tankmap.analysis.simulation.runner import simulate

for item in sys.argv[1:]:
    board, agent = item.split("=")
    simulate(tankmap.load(board), 1, (agent, agent), seed=1, workers=1)
"""


def main() -> int:
    children = [
        subprocess.Popen([sys.executable, "-c", PLAY, *(f"{b}={a}" for b, a in group)])
        for group in GROUPS
    ]
    return max(child.wait() for child in children)


if __name__ == "__main__":
    sys.exit(main())
