"""The repository's documents and the tankmap-level API: links resolve, nothing points
outside the repository, every option is documented, the API examples run."""

from __future__ import annotations

import doctest
import importlib
import importlib.metadata
import json
import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

import tankmap
from tankmap.rules.registry import get_ruleset

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted((ROOT / "docs").glob("*.md"))
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


@pytest.mark.parametrize("doc", [ROOT / "README.md", *DOCS], ids=lambda p: p.name)
def test_relative_links_resolve_inside_the_repository(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    assert "../shared" not in text and "CONTRACTS.md" not in text and "RULES.md" not in text
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (doc.parent / target.split("#")[0]).resolve()
        assert path.exists(), f"{doc.name}: dead link {target}"
        assert ROOT in path.parents or path == ROOT, f"{doc.name}: {target} leaves the repo"


def test_every_ruleset_option_is_in_the_rules_document_with_its_default() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    sections = text.split("\n## ")
    for name, title in (("final-act", "1."), ("tank-chess", "2."), ("tank-wars", "3.")):
        section = next(s for s in sections if s.startswith(title))
        documented = dict(re.findall(r"^\| `(\w+)` \| ([^|]+) \|", section, re.M))
        for spec in get_ruleset(name).option_specs:
            assert spec.name in documented, f"docs/rules.md lacks the {name} option {spec.name}"
            assert json.loads(documented[spec.name]) == spec.default, spec.name


@pytest.mark.parametrize("module", ["tankmap.api", "tankmap.maps"])
def test_api_examples_run_as_doctests(module: str) -> None:
    mod = importlib.import_module(module)
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_example_notebook_runs(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(ROOT / "docs" / "example_notebook.py"), run_name="example")
    out = capsys.readouterr().out
    assert "balance" in out and "figures:" in out


def test_api_names_are_lazy_and_documented() -> None:
    for name in tankmap._API:
        assert callable(getattr(tankmap, name)) and getattr(tankmap, name).__doc__
    code = (
        "import sys, tankmap, tankmap.rules, tankmap.cli;"
        "print(any(m in sys.modules for m in ('pandas', 'matplotlib', 'networkx')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr


def test_one_version_source() -> None:
    assert importlib.metadata.version("tankmap") == tankmap.__version__
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## {tankmap.__version__}" in changelog
