"""The dependency direction rules <- analysis <- editor <- tankmap, the per-game simulation
packages independent of each other (import-linter), and no import circles between files
(scripts/import_circles.py)."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_import_linter_contracts_hold() -> None:
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert exe, "import-linter is part of the test extra"
    result = subprocess.run([exe], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 4 kept, 0 broken" in result.stdout


def _checker() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "import_circles", ROOT / "scripts" / "import_circles.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_file_imports_itself_through_others() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "import_circles.py"), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("0 circles, 0 modules in them"), result.stdout


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        # a lazy import inside a function ties the files as much as one at the top
        (
            {
                "rules/a.py": "from tankmap.rules.b import X\n",
                "rules/b.py": "def f():\n    from tankmap.rules import a\n",
            },
            [["tankmap.rules.a", "tankmap.rules.b"]],
        ),
        # relative imports, three modules round, across packages
        (
            {
                "rules/p/__init__.py": "",
                "rules/p/a.py": "from . import b\n",
                "rules/p/b.py": "from tankmap.analysis.c import Y\n",
                "analysis/c.py": "import tankmap.rules.p.a\n",
            },
            [["tankmap.analysis.c", "tankmap.rules.p.a", "tankmap.rules.p.b"]],
        ),
        # an import for type checking only is no circle
        (
            {
                "editor/a.py": "from tankmap.editor.b import X\n",
                "editor/b.py": (
                    "from typing import TYPE_CHECKING\n"
                    "if TYPE_CHECKING:\n    from tankmap.editor.a import Y\n"
                ),
            },
            [],
        ),
    ],
)
def test_the_checker_finds_circles(
    tmp_path: Path, files: dict[str, str], expected: list[list[str]]
) -> None:
    checker = _checker()
    root = _project(tmp_path, files)
    known = checker.modules(root)
    graph = {name: checker.imported(path, name, known) for name, path in known.items()}
    assert checker.circles(graph) == expected
    assert checker.main(["import_circles.py", str(root)]) == (1 if expected else 0)
