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
            "--json prints the CONTRACTS.md document (one file: the document itself; several "
            'files: {"files": [...]} with a "file" key in each); --out DIR writes '
            "report.html with PNG charts and CSV tables (several files: one sub-folder each "
            "plus an index.html comparing them)."
        ),
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="scenario files (.json)")
    p.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    p.add_argument("--out", metavar="DIR", help="write report.html, PNGs and CSVs into DIR")
    add_option_flag(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from analysis.summary import analyse
    from rules.errors import TankmapError
    from tankmap.commands.common import load, print_json, progress

    if args.out:
        from analysis.report import write_index, write_report
    many = len(args.files) > 1
    results = []
    written: list[Path] = []
    slugs: set[str] = set()
    for path in progress(args.files, len(args.files), "analyze"):
        result = analyse(load(path, args.option))
        results.append((path, result))
        if args.out:
            slug, n = _slug(path), 2
            while slug in slugs:  # the same name twice: keep both reports
                slug, n = f"{_slug(path)}-{n}", n + 1
            slugs.add(slug)
            folder = Path(args.out) / slug if many else Path(args.out)
            try:
                written.append(write_report(result, folder, source=path))
            except OSError as exc:
                raise TankmapError(f"cannot write the report into {str(folder)!r}: {exc}") from None
    if args.out and many:
        entries = [(p, w.parent, r) for (p, r), w in zip(results, written, strict=True)]
        try:
            written = [write_index(entries, Path(args.out))]
        except OSError as exc:
            raise TankmapError(f"cannot write the index into {args.out!r}: {exc}") from None
    if args.json:
        if many:
            print_json({"files": [dict(file=p, **r.to_json()) for p, r in results]})
        else:
            print_json(results[0][1].to_json())
        return 0
    if args.out:
        print(f"wrote {written[-1]}")
        return 0
    for path, result in results:
        _print_text(path, result.to_json())
    return 0


def _slug(path: str) -> str:
    from pathlib import Path

    p = Path(path)
    parent = p.parent.name
    return f"{parent}-{p.stem}" if parent and parent != "." else p.stem


def _print_text(path: str, doc: dict[str, Any]) -> None:
    out = sys.stdout
    title = f" — {doc['title']}" if doc.get("title") else ""
    prov = " (provisional)" if doc.get("provisional") else ""
    out.write(f"{path}: {doc['ruleset']}{prov}{title}\n")
    if not doc.get("legal", True):
        out.write("  note: the setup breaks rules (see tankmap check); analysed as it stands\n")
    out.write(f"  contested cells: {doc['contested']}\n")
    for side, s in doc["sides"].items():
        choke = s["choke"]
        lanes = len(s["lanes"])
        out.write(
            f"  {side}: turns to goal {s['turns_to_goal']}, lanes {lanes}, choke width "
            f"{choke['width']} ({' '.join(choke['cells']) or '-'}), safe cells {s['safe_cells']}\n"
        )
        route = s.get("safest_route")
        if route:
            out.write(
                f"    safest route ({route['length']} cells, exposure {route['exposure']}): "
                f"{' '.join(route['cells'])}\n"
            )
    for u in doc["units"]:
        label = f"{u['side']} {u['kind']}" + (f" {u['name']}" if u["name"] else "")
        out.write(f"  {label} at {u['cell']}: turns to goal {u['turns_to_goal']}\n")
