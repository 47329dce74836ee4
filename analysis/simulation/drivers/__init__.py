"""Per-ruleset game drivers (playout loops around the rules engines)."""
