"""Tank Wars simulation: the driver (``driver.py``: rounds with dice on
``rules.tank_wars.engine``, records) and the agents (``agents/__init__.py`` lists them)."""
