"""Packaging: the wheel holds only `tankmap`, optional extras fail with one line, and local
workers started with `spawn` (macOS, Windows) give the numbers `fork` gives."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tankmap.analysis.simulation.executors import ProcessExecutor
from tankmap.analysis.simulation.runner import simulate
from tankmap.maps import map_path
from tankmap.rules.fileformat import read_scenario

ROOT = Path(__file__).resolve().parents[2]


def test_wheel_has_only_tankmap_at_the_top(tmp_path: Path) -> None:
    build = tmp_path / "src"
    shutil.copytree(
        ROOT,
        build,
        symlinks=True,
        ignore=shutil.ignore_patterns(".venv", ".git", "build", "*.egg-info", "__pycache__"),
    )
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path / "dist"),
            str(build),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    wheel = next((tmp_path / "dist").glob("tankmap-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    dist_info = wheel.name.split("-py3")[0] + ".dist-info"
    assert {n.split("/")[0] for n in names} == {"tankmap", dist_info}
    for data in (
        "tankmap/maps/final-act/mirror.json",
        "tankmap/resources/scenario.schema.json",
        "tankmap/resources/tiled/tankmap-tiles.png",
        "tankmap/py.typed",
        "tankmap/rules/final_act/engine.py",
        "tankmap/editor/mainwindow.py",
    ):
        assert data in names, data
    assert not any(n.startswith(("tankmap/tests", "benchmarks")) for n in names)


@pytest.mark.parametrize(
    "module, argv, extra",
    [
        ("PySide6", ["edit"], "gui"),
        (
            "distributed",
            ["simulate", "final-act/mirror", "--games", "2", "--scheduler", "local"],
            "dask",
        ),
    ],
)
def test_missing_extra_is_one_line_naming_it(module: str, argv: list[str], extra: str) -> None:
    code = (
        f"import sys; sys.modules[{module!r}] = None\n"
        "from tankmap.cli import main\n"
        f"raise SystemExit(main({argv!r}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and f"pip install 'tankmap[{extra}]'" in lines[0], out.stderr


def test_spawned_workers_give_the_same_numbers_as_forked(monkeypatch: pytest.MonkeyPatch) -> None:
    path = map_path("final-act/mirror")
    assert path is not None
    scenario = read_scenario(path)
    forked = simulate(scenario, 40, seed=5, workers=2, batch_size=10)
    import tankmap.analysis.simulation.executors as ex

    monkeypatch.setattr(ex, "default_start_method", lambda: "spawn")
    spawned = simulate(scenario, 40, seed=5, workers=2, batch_size=10)
    columns = ["winner", "length", "end", "kills_south", "kills_north", "route"]
    assert forked[columns].equals(spawned[columns])
    assert isinstance(ProcessExecutor(1, "spawn"), ProcessExecutor)
