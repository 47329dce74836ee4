"""Converged balance verdicts: a board's balance judged at the top of an agent family's
budget climb, with the evidence that a stronger agent would not change it.

- ``rule``: the stopping rule on match and self-play counts (``judge``, ``Step``),
- ``climb``: ``run_verdict`` plays the climb (``Verdict``, its ``--json`` document),
- ``cache``: verdicts remembered per board for ``simulate``, the reports and the editor,
- ``report``: ``verdict.html`` with the trace chart.

The agent families are ``analysis.simulation.families``; one balance estimate for every
figure is ``analysis.estimates``.
"""
