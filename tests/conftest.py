"""Shared fixtures: the repository root, built-in maps, and an offscreen Qt platform."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MPLBACKEND", "Agg")

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config: pytest.Config) -> None:
    """On a parallel run (``-n``), compile every numba kernel once before the workers start
    (``scripts/warm_kernels.py``): otherwise each worker, and each command a test starts,
    compiles the kernels it meets on its own, side by side, minutes of CPU from a clean
    clone. Skipped when ``dev.py test`` has just done it (``TANKMAP_KERNELS_WARM``)."""
    if hasattr(config, "workerinput") or not config.getoption("numprocesses", None):
        return
    if os.environ.get("TANKMAP_KERNELS_WARM") == "1":
        return
    import subprocess
    import sys

    subprocess.run([sys.executable, str(ROOT / "scripts" / "warm_kernels.py")], check=False)


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
