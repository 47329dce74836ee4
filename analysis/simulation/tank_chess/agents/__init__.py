"""The Tank Chess agents (``agents/factory.make_policy`` builds one by name).

- ``random``: ``random.py``, uniform over the legal turns.
- ``heuristic``: ``heuristic.py``; its judgement of turns ``scoring.py``, its defence
  against an escaping command tank ``defence.py``, and its fast paths: ``turns.py`` (the
  legal turns without building the list), ``threats.py`` (exposure checks on bit masks)
  and ``heuristic_memo.py`` (facts of each position remembered). The compiled kernel
  plays the same turns (``kernel/heuristic.py``).
- ``uct[:N]``: ``uct.py``, UCT tree search over the heuristic's best turns.
- ``search[:N]``: ``search.py``, a two-ply alpha-beta over the heuristic's best turns.

A new agent gets its own module here and a name in ``factory.make_policy`` and in
``driver.BASES``; ``agent_info.py`` (top level) holds the descriptions users read.
"""
