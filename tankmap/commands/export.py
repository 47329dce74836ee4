"""``tankmap export``: a scenario as a Tiled map (``.tmx`` or ``.tmj``)."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "export",
        help="write a scenario as a Tiled map (.tmx or .tmj)",
        description=(
            "Write FILE as a Tiled map: terrain as a tile layer, units and minefield lanes "
            "as objects with custom properties (kind, side, name, facing, damage, wreck), "
            "the ruleset and its options as map properties. The tileset image "
            "tankmap-tiles.png is written beside OUT. 'tankmap import' reads the map back "
            "(also after editing it in Tiled); docs/interop.md explains the layers."
        ),
    )
    p.add_argument("file", metavar="FILE", help="scenario file")
    p.add_argument(
        "--format", choices=("tmx", "tmj"), help="Tiled format (default: from OUT's extension)"
    )
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="map file to write")
    p.add_argument("--force", action="store_true", help="overwrite OUT if it exists")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:

    from tankmap.commands.common import claim_output, load
    from tankmap.rules.errors import TankmapError
    from tankmap.rules.tiled import tiled_format, write_tiled

    out = args.output
    fmt = args.format or tiled_format(out)
    if fmt is None:
        raise TankmapError(f"{out}: give --format tmx|tmj or a name ending in .tmx or .tmj")
    if tiled_format(out) != fmt:
        out = f"{out}.{fmt}"
    scenario = load(args.file)
    image = write_tiled(scenario, claim_output(out, args.force))
    print(f"wrote {out} ({fmt}, tileset {image.name} beside it)")
    return 0
