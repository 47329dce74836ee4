"""Data files shipped with tankmap: ruleset data, the scenario JSON Schema, piece art."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent


def path(*parts: str) -> Path:
    """Path of a resource file, e.g. ``path("scenario.schema.json")``."""
    return ROOT.joinpath(*parts)
