"""Compile (or load) every numba kernel once, two groups side by side, so that the
processes started afterwards load them from numba's cache instead of compiling them again
each (``python scripts/warm_kernels.py``; the test suite runs it before its workers start).

From a clean clone this takes about two minutes on two cores (the kernels compile in
about 4½ minutes of CPU: Final Act 30 s, its look-ahead 19 s, ``ksearch`` 25 s and
``duct`` 52 s, Tank Chess 63 s, ``alphabeta`` 42 s after it, Tank Wars ``regret`` 27 s and
``plan`` 9 s after it, measured one at a time; Final Act in one group, the others in the
other);
with the cache warm, a few seconds. Exit code 0 when every group played its game.
"""

from __future__ import annotations

import subprocess
import sys

GROUPS = (
    (
        ("final-act/mirror", "heuristic"),
        ("final-act/mirror", "search:1"),
        ("final-act/mirror", "ksearch:1"),
        ("final-act/mirror", "duct:2"),
    ),
    (
        ("tank-chess/basic-16", "heuristic"),
        ("tank-chess/basic-16", "alphabeta:20"),
        ("tank-wars/default", "regret:2"),
        ("tank-wars/default", "plan:2"),
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
