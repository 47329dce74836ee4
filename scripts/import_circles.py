"""List file-level import circles in the project: modules that import each other in a loop.

Every import counts — at the top of a module or inside a function (a lazy import still ties
the two files together) — except those under ``if TYPE_CHECKING:`` (types only, never run).
The packages are the repository's folders as the ``tankmap`` namespace links them
(``rules/`` is ``tankmap.rules``, and so on). A module imports a package's ``__init__``
only when it names the package itself. Prints each circle, then a summary line; exits 1
when there is a circle (the test suite runs it: tests/core/test_architecture.py):

    python scripts/import_circles.py [PROJECT_ROOT]
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

PACKAGES = {
    "rules": "tankmap.rules",
    "analysis": "tankmap.analysis",
    "editor": "tankmap.editor",
    "tankmap": "tankmap",
}


def modules(root: Path) -> dict[str, Path]:
    """Module name -> file, for every ``.py`` file of ``PACKAGES`` under ``root`` (links
    and ``__pycache__`` folders skipped)."""
    found: dict[str, Path] = {}
    for folder, package in PACKAGES.items():
        base = root / folder
        for path in sorted(_python_files(base)):
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([package, *parts])] = path
    return found


def _python_files(folder: Path) -> Iterator[Path]:
    if not folder.is_dir() or folder.is_symlink():
        return
    for entry in folder.iterdir():
        if entry.is_symlink() or entry.name == "__pycache__":
            continue
        if entry.is_dir():
            yield from _python_files(entry)
        elif entry.suffix == ".py":
            yield entry


def imported(path: Path, name: str, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` that the module ``name`` (file ``path``) imports, at any
    depth of its code except under ``if TYPE_CHECKING:``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(inner) for inner in ast.walk(node))
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            out.add(module)
            out.update(f"{module}.{alias.name}" for alias in node.names)
    return {m for m in out if m in known and m != name}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` with more than one module, each
    sorted, largest first (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found, key=len, reverse=True)


def main(argv: list[str]) -> int:
    root = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent
    known = modules(root)
    graph = {name: imported(path, name, known) for name, path in known.items()}
    found = circles(graph)
    for circle in found:
        print(f"circle of {len(circle)}: " + ", ".join(circle))
    print(f"{len(found)} circles, {sum(map(len, found))} modules in them ({len(known)} modules)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
