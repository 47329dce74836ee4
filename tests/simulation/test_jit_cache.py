"""numba's kernel cache where the install and HOME cannot be written (issue 32): a private
temp folder, else no cache — never "cannot cache function ...: no locator available".

As root, permissions stop nothing, so the places are made unusable for everyone: HOME
under a regular file, and a module whose ``__pycache__`` is a regular file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

KERNEL = textwrap.dedent(
    """
    import json
    import numba
    from tankmap.analysis.simulation.jit_cache import cache_folder

    FOLDER = cache_folder(__file__)

    @numba.njit(cache=FOLDER is not None)
    def add(a, b):
        return a + b

    total = add(1, 2)
    hits = sum(add.stats.cache_hits.values())
    print(json.dumps({"folder": str(FOLDER), "sum": total, "hits": hits}))
    """
)


def unwritable_home(tmp_path: Path) -> dict[str, str]:
    """An environment whose HOME cannot hold a cache folder, with its own temp folder."""
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a folder")
    temp = tmp_path / "temp"
    temp.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CACHE_HOME", "NUMBA_CACHE_DIR")}
    env.update(HOME=str(blocker / "home"), TMPDIR=str(temp), MPLBACKEND="Agg")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def read_only_module(tmp_path: Path) -> Path:
    """``kern.py`` in a folder whose ``__pycache__`` is a file: numba cannot cache there."""
    pkg = tmp_path / "install"
    pkg.mkdir()
    (pkg / "__pycache__").write_text("not a folder")
    module = pkg / "kern.py"
    module.write_text(KERNEL)
    return module


def run_kernel(module: Path, env: dict[str, str]) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-B", str(module)], capture_output=True, text=True, env=env, timeout=300
    )
    assert out.returncode == 0 and out.stderr == "", out.stderr[-2000:]
    answer: dict[str, object] = json.loads(out.stdout)
    return answer


def test_a_read_only_install_caches_in_a_private_temp_folder(tmp_path: Path) -> None:
    env = unwritable_home(tmp_path)
    module = read_only_module(tmp_path)
    first = run_kernel(module, env)
    private = tmp_path / "temp" / f"tankmap-numba-{os.getuid()}"
    assert first["sum"] == 3 and Path(str(first["folder"])).parent == private
    assert (private.stat().st_mode & 0o777) == 0o700
    second = run_kernel(module, env)
    assert second["folder"] == first["folder"] and second["hits"] == 1  # loaded, not compiled


@pytest.mark.parametrize("kind", ["open to others", "a symbolic link", "a file"])
def test_a_private_folder_that_is_not_private_is_not_used(tmp_path: Path, kind: str) -> None:
    env = unwritable_home(tmp_path)
    module = read_only_module(tmp_path)
    private = tmp_path / "temp" / f"tankmap-numba-{os.getuid()}"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    if kind == "open to others":
        private.mkdir()
        private.chmod(0o777)  # anyone could put machine code there
    elif kind == "a symbolic link":
        private.symlink_to(elsewhere)
    else:
        private.write_text("")
    answer = run_kernel(module, env)
    assert answer == {"folder": "None", "sum": 3, "hits": 0}  # compiled, not cached
    assert not any(elsewhere.iterdir())


CHILD = textwrap.dedent(
    """
    import importlib, pkgutil, sys
    import numba.core.caching as caching

    # the in-tree cache unwritable, as in a read-only install (numba's own error for it)
    def refuse(self):
        raise PermissionError(13, "Permission denied", self.get_cache_path())

    for name in ("InTreeCacheLocator", "_InTreeCacheLocator"):
        if hasattr(caching, name):
            getattr(caching, name).ensure_cache_path = refuse

    from tankmap.cli import main

    # a command that loads the kernels' modules; its games stay on the Python reference
    # path (TANKMAP_KERNEL=python), so that nothing is compiled (compiling from an empty
    # cache took 35 s here; the first test shows that a compiled kernel is cached)
    code = main(["simulate", "tank-chess/basic-16", "--games", "4", "--policy", "heuristic"])
    import tankmap.analysis.simulation as simulation

    for info in pkgutil.walk_packages(simulation.__path__, simulation.__name__ + "."):
        importlib.import_module(info.name)  # every kernel decorated, none compiled
    sys.exit(code)
    """
)


def test_the_kernels_load_where_neither_the_install_nor_home_is_writable(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-c", CHILD],
        capture_output=True,
        text=True,
        env={**unwritable_home(tmp_path), "TANKMAP_KERNEL": "python"},
        cwd=tmp_path,
        timeout=300,
    )
    # before: RuntimeError: cannot cache function '_noise': no locator available ...
    assert out.returncode == 0 and out.stderr == "", out.stderr[-2000:]
    assert "balance" in out.stdout
    # numba's cache and matplotlib's configuration went to private temp folders
    assert sorted(p.name for p in (tmp_path / "temp").iterdir()) == [
        f"tankmap-matplotlib-{os.getuid()}",
        f"tankmap-numba-{os.getuid()}",
    ]


def test_matplotlib_keeps_its_own_folder_where_home_is_writable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tankmap.commands.common import settle_unwritable_home

    monkeypatch.delenv("MPLCONFIGDIR", raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    settle_unwritable_home()
    assert "MPLCONFIGDIR" not in os.environ
