"""``tankmap analyze``: reachability, lanes, choke points and fire coverage of scenarios."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tankmap.commands.common import add_option_flag


def register(sub: Any) -> None:
    p = sub.add_parser(
        "analyze",
        help="reachability, lanes, choke points and fire coverage (JSON or an HTML report)",
        description=(
            "Analyse scenarios with terrain-only movement (other units ignored): rounds/turns "
            "to the goal per unit and side, reach and fire-coverage maps, contested and safe "
            "cells, cell-disjoint lanes, the choke point and the least exposed route. "
            "--json prints the docs/cli-json.md document (one file: the document itself; several "
            'files: {"files": [...]} with a "file" key in each, and an "error" entry for a '
            "file that could not be read, as 'tankmap check' has: the others are analysed, "
            "one line on standard error says why, and the exit code is 2). --out DIR writes "
            "report.html with PNG charts and CSV tables (several files: one sub-folder each "
            "plus an index.html comparing them); any file that cannot be read stops it "
            "before anything is written. DIR is written whole or not at all: it must "
            "be new, empty or an earlier analyze report, which it replaces (not another "
            "command's report); an interrupted run leaves "
            "it as it was. A progress bar shows on a terminal's standard error."
        ),
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="scenario files (.json)")
    p.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    p.add_argument("--out", metavar="DIR", help="write report.html, PNGs and CSVs into DIR")
    p.add_argument(
        "--workers",
        type=int,
        metavar="K",
        help="analyse several files on K processes at once (default: one per CPU)",
    )
    add_option_flag(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from contextlib import nullcontext
    from pathlib import Path

    from tankmap.analysis.staged_folder import staged_folder
    from tankmap.commands.common import load, print_json, worker_count
    from tankmap.rules.errors import printable

    if args.out or len(args.files) == 1:  # bad input stops us first
        loaded: list[Any] = [load(path, args.option) for path in args.files]
    else:  # several files: an unreadable one is said and left out, as 'check' does
        loaded = _load_each(args.files, args.option)
    read = [(p, s) for p, s in zip(args.files, loaded, strict=True) if not isinstance(s, dict)]
    workers = worker_count(args.workers, None, "analyze")
    # --out: written into a temp folder that takes DIR's place at the end, complete or not
    # at all (an interrupted run leaves no folder, or the old report intact)
    with staged_folder(args.out, "analyze") if args.out else nullcontext(None) as stage:
        docs, written = _analyse(args, read, workers, stage)
    code = 2 if len(read) < len(args.files) else 0
    if args.json:
        if len(args.files) > 1:
            found = iter(docs)
            files = [
                s if isinstance(s, dict) else dict(file=p, **next(found))
                for p, s in zip(args.files, loaded, strict=True)
            ]
            print_json({"files": files})
        else:
            print_json(docs[0])
        return code
    if args.out:
        print(f"wrote {printable(str(Path(args.out) / written), 300)}")
        return code
    for (path, _scenario), doc in zip(read, docs, strict=True):
        _print_text(path, doc)
    return code


def _load_each(paths: list[str], options: list[str]) -> list[Any]:
    """Each file's scenario, or for one that cannot be read its ``--json`` entry
    ``{"file", "error"}`` (a ``dict``), the reason said on standard error."""
    from tankmap.commands.common import file_error, load
    from tankmap.rules.errors import TankmapError

    loaded: list[Any] = []
    for path in paths:
        try:
            loaded.append(load(path, options))
        except TankmapError as exc:
            loaded.append(file_error("analyze", path, exc))
    return loaded


def _analyse(
    args: argparse.Namespace, read: list[tuple[str, Any]], workers: int, stage: Any
) -> tuple[list[dict[str, Any]], str]:
    """The ``--json`` documents of the ``(file, scenario)`` pairs ``read``, their reports
    written into the folder ``stage`` (if not ``None``), and the page to name (relative to
    ``stage``): the report, or for several files the index. A progress bar on a
    terminal's standard error."""
    from pathlib import Path

    from tankmap.analysis.batch import Job, analyse_many
    from tankmap.analysis.report import write_index
    from tankmap.commands.common import terminal_bar
    from tankmap.rules.errors import TankmapError

    if not read:
        return [], ""
    paths = [path for path, _scenario in read]
    scenarios = [scenario for _path, scenario in read]
    many = len(args.files) > 1
    folders: list[str | None] = [None] * len(paths)
    shown: list[str | None] = [None] * len(paths)
    if stage is not None:
        slugs: set[str] = set()
        for i, path in enumerate(paths):
            slug, n = _slug(path), 2
            while slug in slugs:  # the same name twice: keep both reports
                slug, n = f"{_slug(path)}-{n}", n + 1
            slugs.add(slug)
            folders[i] = str(Path(stage) / slug if many else Path(stage))
            shown[i] = str(Path(args.out) / slug if many else Path(args.out))
    jobs = [
        Job(s, folder, path, name)
        for s, folder, path, name in zip(scenarios, folders, paths, shown, strict=True)
    ]
    tick, finish = terminal_bar("analyze")
    try:
        outcomes = analyse_many(jobs, workers, tick)
    finally:
        finish()
    failed = next((o.error for o in outcomes if o.error), None)
    if failed:
        raise TankmapError(failed)
    docs = [o.doc for o in outcomes]
    if stage is None:
        return docs, ""
    if not many:
        return docs, str(Path(str(outcomes[0].report)).relative_to(stage))
    entries = [(p, Path(str(o.report)).parent, o.doc) for p, o in zip(paths, outcomes, strict=True)]
    try:
        index = write_index(entries, Path(stage))
    except OSError as exc:
        raise TankmapError(f"cannot write the index into {args.out!r}: {exc}") from None
    return docs, str(index.relative_to(stage))


def _slug(path: str) -> str:
    """A folder name for a file's report inside --out: letters, digits, ``-``, ``_`` and
    inner dots only, so no input name can make a report leave --out (``...json``)."""
    import re
    from pathlib import Path

    p = Path(path)
    parent = p.parent.name
    raw = f"{parent}-{p.stem}" if parent and parent not in (".", "..") else p.stem
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", raw).strip("._-")[:80]
    return slug or "scenario"


def _print_text(path: str, doc: dict[str, Any]) -> None:
    """The text summary; what comes from the file (its name, title, unit names) shown
    escaped, so that no control character reaches the terminal."""
    from tankmap.rules.errors import printable
    from tankmap.rules.sides import side_name
    from tankmap.rules.steps import step_word

    out = sys.stdout
    title = f" — {printable(doc['title'], 200)}" if doc.get("title") else ""
    prov = " (provisional)" if doc.get("provisional") else ""
    out.write(f"{printable(path, 300)}: {doc['ruleset']}{prov}{title}\n")
    if not doc.get("legal", True):
        out.write("  note: the setup breaks rules (see tankmap check); analysed as it stands\n")
    out.write(f"  contested cells: {doc['contested']}\n")
    steps = step_word(doc["ruleset"]) + "s"  # the game's time unit
    for side, s in doc["sides"].items():
        choke = s["choke"]
        lanes = len(s["lanes"])
        units = sum(1 for u in doc["units"] if u["side"] == side and not u.get("wreck"))
        turns = turns_text(s) if units else "none (no unit on the board)"
        out.write(
            f"  {side_name(doc['ruleset'], side)}: {steps} to goal {turns}, lanes "
            f"{lanes}, choke width "
            f"{choke['width']} ({' '.join(choke['cells']) or '-'}), safe cells {s['safe_cells']}\n"
        )
        if s.get("check") or s.get("escape"):
            said = [w for w, k in (("Check!", "check"), ("Escape!", "escape")) if s.get(k)]
            turns = s.get("check_turns", []) + s.get("escape_turns", [])
            out.write(f"    moving next: {' '.join(said)} ({', '.join(turns[:6])})\n")
        route = s.get("safest_route")
        if route:
            over = "" if units else " over the terrain alone"
            out.write(
                f"    safest route{over} ({route['length']} cells, exposure {route['exposure']}): "
                f"{' '.join(route['cells'])}\n"
            )
    for u in doc["units"]:
        label = f"{side_name(doc['ruleset'], u['side'])} {u['kind']}" + (
            f" {printable(u['name'], 60)}" if u["name"] else ""
        )
        out.write(f"  {label} at {u['cell']}: {steps} to goal {turns_text(u)}\n")


def turns_text(entry: dict[str, Any]) -> str:
    """A side's or unit's ``turns_to_goal`` in words: the number, or why there is none.

    >>> turns_text({"turns_to_goal": 4}), turns_text({"turns_to_goal": None})
    ('4', 'none (cannot win by moving)')
    >>> turns_text({"turns_to_goal": None, "wreck": True})
    'none (a wreck)'
    """
    turns = entry["turns_to_goal"]
    if turns is not None:
        return str(turns)
    return "none (a wreck)" if entry.get("wreck") else "none (cannot win by moving)"
