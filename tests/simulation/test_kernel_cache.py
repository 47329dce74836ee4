"""The compiled kernel's cache is dropped when any kernel source changes (numba itself
only checks the file of each compiled function, not its callees' files)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tankmap.analysis.simulation.drivers import fa_kernel_base as base


def _cache_files(folder: Path) -> list[str]:
    names = [
        "final_act_kernel._play-297.py311.nbi",
        "final_act_kernel._play-297.py311.1.nbc",
        "fa_kernel_rules._apply-40.py311.nbi",
        "final_act.something-1.py311.nbi",  # not a kernel module: "final_act." is no stem
        "tank_chess_kernel.play-1.py311.nbi",  # another kernel's cache
        "final_act_kernel.cpython-311.pyc",  # Python's own cache
    ]
    for name in names:
        (folder / name).write_bytes(b"x")
    return names


def test_a_changed_source_drops_the_kernel_cache_only(tmp_path: Path, monkeypatch: Any) -> None:
    source = tmp_path / "fake_source.py"
    source.write_text("A = 1\n")
    monkeypatch.setattr(base, "KERNEL_SOURCES", (*base.KERNEL_SOURCES, source))
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    _cache_files(cache)
    assert base.guard_cache(cache)  # no fingerprint yet: whatever is cached is suspect
    left = sorted(p.name for p in cache.iterdir())
    assert left == [
        "fa_kernel.sources",
        "final_act.something-1.py311.nbi",
        "final_act_kernel.cpython-311.pyc",
        "tank_chess_kernel.play-1.py311.nbi",
    ]
    _cache_files(cache)  # numba writes its cache again
    assert not base.guard_cache(cache)  # same sources: kept
    assert (cache / "fa_kernel_rules._apply-40.py311.nbi").exists()
    source.write_text("A = 2\n")  # one kernel source changes (e.g. a callee's module)
    assert base.guard_cache(cache)
    assert not (cache / "final_act_kernel._play-297.py311.nbi").exists()
    assert not (cache / "fa_kernel_rules._apply-40.py311.nbi").exists()
    assert not base.guard_cache(cache)


def test_the_fingerprint_covers_every_kernel_module() -> None:
    names = {p.name for p in base.KERNEL_SOURCES}
    here = Path(base.__file__).resolve().parent
    kernel_modules = {
        p.name for p in here.glob("*.py") if p.name.startswith(("fa_kernel", "final_act_kernel"))
    }
    assert kernel_modules <= names
    assert {"noise.py", "final_act_batch.py"} <= names
    assert all(p.is_file() for p in base.KERNEL_SOURCES)


def test_an_unwritable_folder_is_left_alone(tmp_path: Path) -> None:
    missing_parent = tmp_path / "file"
    missing_parent.write_text("not a folder")
    assert not base.guard_cache(missing_parent / "__pycache__")
