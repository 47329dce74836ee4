"""The built-in scenarios, one folder per ruleset (``maps/final-act/*.json`` ...)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent


def builtin_maps(ruleset: str | None = None) -> list[Path]:
    """Every built-in scenario file (of one ruleset if given), sorted by path."""
    pattern = f"{ruleset}/*.json" if ruleset else "*/*.json"
    return sorted(ROOT.glob(pattern))
