"""The Tank Wars agents (``agents/factory.make_policy`` builds one by name).

- ``random``: ``random.py``, the engine's baseline orders.
- ``heuristic``: ``heuristic.py``, support tokens and craters, gunfire where the enemy
  likely ends.
- ``search[:N]``: ``search.py``, Monte Carlo planning over the dice and the enemy's plan.
- ``plan[:N]``: ``plan.py``, the same planning on the compiled kernel (``../kernel/plan.py``)
  with a fitted evaluation; ``plan_ref.py`` its plain-Python reference.
- ``regret[:N]``, ``regret-heuristic[:N]``: ``regret.py``, regret matching over the round
  on the compiled kernel (``../kernel/``); ``regret_ref.py`` its plain-Python reference,
  ``regret_value.py`` its evaluation, ``regret_fit.py`` how the evaluation was fitted.

``options.py`` holds what they share (the ``Policy`` type, each vehicle's choices). A new
agent gets its own module here and a name in ``factory.make_policy`` and in
``driver.BASES``; ``agent_info.py`` (top level) holds the descriptions users read.
"""
