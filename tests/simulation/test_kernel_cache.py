"""A compiled kernel's cache is dropped when any of its sources changes (numba itself only
checks the file of each compiled function, not its callees' files or the constants it
reads), and each kernel fingerprints every file its compiled code depends on."""

from __future__ import annotations

from pathlib import Path

import pytest

from tankmap.analysis.simulation.final_act.kernel import base as fa_base
from tankmap.analysis.simulation.kernel_cache import guard_cache
from tankmap.analysis.simulation.tank_chess.kernel import base as tc_base
from tankmap.analysis.simulation.tank_wars.kernel import base as tw_base


def _cache_files(folder: Path) -> list[str]:
    names = [
        "games._play-297.py311.nbi",
        "games._play-297.py311.1.nbc",
        "rules._apply-40.py311.nbi",
        "other.something-1.py311.nbi",  # not a source of this kernel: "other." is no stem
        "games.cpython-311.pyc",  # Python's own cache
    ]
    for name in names:
        (folder / name).write_bytes(b"x")
    return names


def test_a_changed_source_drops_the_kernel_cache_only(tmp_path: Path) -> None:
    kernel = tmp_path / "kernel"
    kernel.mkdir()
    for name in ("games.py", "rules.py"):
        (kernel / name).write_text("X = 1\n")
    constants = tmp_path / "constants.py"  # a source outside the package (constants)
    constants.write_text("A = 1\n")
    sources = (kernel / "games.py", kernel / "rules.py", constants)
    cache = kernel / "__pycache__"
    cache.mkdir()
    _cache_files(cache)
    assert guard_cache(cache, sources, "k")  # no fingerprint yet: whatever is cached is suspect
    left = sorted(p.name for p in cache.iterdir())
    assert left == ["games.cpython-311.pyc", "k.sources", "other.something-1.py311.nbi"]
    _cache_files(cache)  # numba writes its cache again
    assert not guard_cache(cache, sources, "k")  # same sources: kept
    assert (cache / "rules._apply-40.py311.nbi").exists()
    constants.write_text("A = 2\n")  # one source changes (e.g. constants compiled in)
    assert guard_cache(cache, sources, "k")
    assert not (cache / "games._play-297.py311.nbi").exists()
    assert not (cache / "rules._apply-40.py311.nbi").exists()
    assert not guard_cache(cache, sources, "k")


@pytest.mark.parametrize(
    ("base", "outside"),
    [
        (fa_base, {"noise.py"}),
        (tc_base, {"data.py", "prepared.py", "scoring.py", "defence.py"}),
        (tw_base, set()),
    ],
)
def test_the_fingerprint_covers_every_kernel_module(base: object, outside: set[str]) -> None:
    sources: tuple[Path, ...] = getattr(base, "KERNEL_SOURCES")  # noqa: B009
    here = Path(getattr(base, "__file__")).resolve().parent  # noqa: B009
    assert {p for p in here.glob("*.py")} <= set(sources)
    assert outside <= {p.name for p in sources if p.parent != here}
    assert all(p.is_file() for p in sources)


def test_an_unwritable_folder_is_left_alone(tmp_path: Path) -> None:
    missing_parent = tmp_path / "file"
    missing_parent.write_text("not a folder")
    assert not guard_cache(missing_parent / "__pycache__", fa_base.KERNEL_SOURCES, "k")
