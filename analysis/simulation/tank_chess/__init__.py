"""Tank Chess simulation: the driver, the compiled kernel and the agents.

- ``driver.py`` (``TankChessDriver``): plays games for the runner; ``random``/``heuristic``
  pairs on the kernel, the others (``uct``, ``search``, or ``TANKMAP_KERNEL=python``) in
  a Python loop over ``rules.tank_chess.state.GameState``, the reference.
- ``prepared.py`` (``Prepared``): what the agents and the kernel share about a scenario.
- ``ends.py``: how a game ends (reason codes and ``GameResult.end``).
- ``results.py`` (``TankChessResults``): the kernel's games as arrays.
- ``kernel/``: the compiled move generator, heuristic and games (``kernel/__init__.py``).
- ``agents/``: the agents by name (``agents/__init__.py`` lists them).
"""
