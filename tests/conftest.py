"""Shared fixtures: the repository root, built-in maps, and an offscreen Qt platform."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MPLBACKEND", "Agg")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def repo_root() -> Path:
    return ROOT


@pytest.fixture
def data_dir() -> Path:
    return ROOT / "tests" / "data"


@pytest.fixture(autouse=True)
def _private_ladder_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ladder results, verdicts and paces go to a fresh folder per test: no test reads
    another's (or the user's) remembered ones."""
    monkeypatch.setenv("TANKMAP_CACHE_DIR", str(tmp_path_factory.mktemp("ladder-cache")))
