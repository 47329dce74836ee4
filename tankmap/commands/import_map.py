"""``tankmap import``: a Tiled map (``.tmx`` or ``.tmj``) as a scenario file."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "import",
        help="read a Tiled map (.tmx or .tmj) into a scenario file",
        description=(
            "Read a Tiled map written by 'tankmap export' (and perhaps edited in Tiled) and "
            "write it as a scenario file. Terrain comes from the tile layers, units and "
            "minefield lanes from the 'units' object layer. The result may be illegal "
            "after an edit: 'tankmap check' says why."
        ),
    )
    p.add_argument("map", metavar="MAP", help="Tiled map, .tmx or .tmj")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="scenario file to write")
    p.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:

    from tankmap.commands.common import claim_output
    from tankmap.rules.fileformat import write_scenario
    from tankmap.rules.registry import get_ruleset
    from tankmap.rules.tiled_read import read_tiled
    from tankmap.rules.violations import is_legal

    scenario = read_tiled(args.map)
    write_scenario(scenario, claim_output(args.output, args.force))
    legal = is_legal(get_ruleset(scenario.ruleset).check(scenario))
    verdict = "legal" if legal else "not legal: run 'tankmap check' for why"
    print(f"wrote {args.output} ({scenario.ruleset}, {verdict})")
    return 0
