"""Fixtures of the analysis tests: registers the grid-toy ruleset (see grid_toy.py)."""

from __future__ import annotations

import pytest
from grid_toy import GRID, GridToy


@pytest.fixture
def grid() -> GridToy:
    return GRID
