"""The built-in scenarios, one folder per ruleset, named like ``final-act/mirror``.

Every command that takes a scenario FILE also takes such a name (a real file of that name
wins); ``tankmap maps`` lists them, and the editor's Open dialog shows the same catalogue.

>>> "final-act/mirror" in map_names()
True
>>> map_path("tank-chess/basic-16").name
'basic-16.json'
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from tankmap.rules.errors import TankmapError

ROOT = Path(str(resources.files(__name__)))


class UnknownMapError(TankmapError, ValueError):
    """Neither a readable file nor the name of a built-in map."""


@dataclass(frozen=True)
class MapEntry:
    """One built-in map: its name, file, ruleset, title, board size and legality."""

    name: str
    path: Path
    ruleset: str
    title: str
    columns: int
    rows: int
    legal: bool

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "ruleset": self.ruleset,
            "title": self.title,
            "board": {"columns": self.columns, "rows": self.rows},
            "legal": self.legal,
        }


def builtin_maps(ruleset: str | None = None) -> list[Path]:
    """Every built-in scenario file (of one ruleset if given), sorted by path.
    ``UnknownRulesetError`` (naming the known ones) for a ruleset that does not exist.

    >>> builtin_maps("tank-chess")[0].parent.name
    'tank-chess'
    """
    if not ruleset:
        return sorted(ROOT.glob("*/*.json"))
    folders = {p.name for p in ROOT.iterdir() if p.is_dir() and p.name[0] not in "._"}
    if ruleset not in folders:
        from tankmap.rules.registry import get_ruleset

        get_ruleset(ruleset)  # (refuses an unknown one; a known one has no built-in maps)
        return []
    return sorted((ROOT / ruleset).glob("*.json"))


def map_name(path: Path) -> str:
    """``final-act/mirror`` for ``.../maps/final-act/mirror.json``."""
    return f"{path.parent.name}/{path.stem}"


def map_names(ruleset: str | None = None) -> list[str]:
    """The names of the built-in maps (of one ruleset if given), sorted."""
    return [map_name(p) for p in builtin_maps(ruleset)]


def map_path(name: str) -> Path | None:
    """The file of the built-in map ``name`` (``.json`` optional), or ``None``."""
    stem = name.strip().removesuffix(".json")
    for path in builtin_maps():
        if map_name(path) == stem:
            return path
    return None


def resolve(arg: str) -> str:
    """What a command should read for its FILE argument ``arg``: ``arg`` itself when such a
    file (or anything else at that path) exists or it is not a map name, else the built-in
    map's file. Unreadable paths are left to the reader, which names the problem."""
    if Path(arg).exists():
        return arg
    found = map_path(arg)
    return str(found) if found is not None else arg


def catalogue() -> list[MapEntry]:
    """Every built-in map with its ruleset, title, board size and legality (``check``)."""
    from tankmap.rules.fileformat import read_scenario
    from tankmap.rules.registry import get_ruleset
    from tankmap.rules.violations import is_legal

    out = []
    for path in builtin_maps():
        s = read_scenario(path)
        legal = is_legal(get_ruleset(s.ruleset).check(s))
        out.append(
            MapEntry(map_name(path), path, s.ruleset, s.title, s.board.columns, s.board.rows, legal)
        )
    return out
