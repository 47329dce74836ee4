"""tankmap is one namespace: its packages are ``tankmap.*`` and nothing imports a generic
top-level ``rules``, ``analysis`` or ``editor`` (they would collide with other distributions)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_subpackages_are_the_repository_folders() -> None:
    from tankmap import analysis, editor, rules

    for module, folder in ((rules, "rules"), (analysis, "analysis"), (editor, "editor")):
        assert module.__file__ is not None
        assert Path(module.__file__).resolve().parent == ROOT / folder


def test_no_generic_top_level_package_is_imported() -> None:
    code = (
        "import sys, tankmap.cli, tankmap.rules, tankmap.analysis.summary, tankmap.editor;"
        "print(sorted(n for n in ('rules', 'analysis', 'editor', 'maps', 'resources')"
        " if n in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd="/", check=True
    )
    assert out.stdout.strip() == "[]"
