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
            "tankmap-tiles.png is written beside OUT; an existing file of that name is kept "
            "when it is byte for byte the same image, and refused otherwise (unless "
            "--force). 'tankmap import' reads the map back "
            "(also after editing it in Tiled); docs/interop.md explains the layers."
        ),
    )
    p.add_argument("file", metavar="FILE", help="scenario file")
    p.add_argument(
        "--format",
        choices=("tmx", "tmj"),
        help="Tiled format (default: from OUT's extension); it must agree with a .tmx or "
        ".tmj OUT, and a name without one of those gets the format's extension added",
    )
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="map file to write")
    p.add_argument(
        "--force",
        action="store_true",
        help="overwrite OUT, and a different tankmap-tiles.png beside it, if they exist",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from tankmap.commands.common import claim_output, load

    out, fmt = _output_name(args.output, args.format)
    scenario = load(args.file)
    target = claim_output(out, args.force)
    _claim_tileset(target, args.force)
    from tankmap.rules.tiled import write_tiled

    image = write_tiled(scenario, target)
    print(f"wrote {out} ({fmt}, tileset {image.name} beside it)")
    return 0


def _output_name(out: str, given: str | None) -> tuple[str, str]:
    """The map file to write and its format: ``OUT`` as given when its extension says the
    format (``--format`` must agree), else ``OUT.<format>``. ``TankmapError`` when the two
    disagree or neither says a format."""
    from tankmap.rules.errors import TankmapError
    from tankmap.rules.tiled import tiled_format

    named = tiled_format(out)
    if named is not None and given is not None and named != given:
        raise TankmapError(
            f"{out}: the name says a {named} map but --format says {given}; "
            f"name it .{given} or drop --format"
        )
    fmt = named or given
    if fmt is None:
        raise TankmapError(f"{out}: give --format tmx|tmj or a name ending in .tmx or .tmj")
    return (out, fmt) if named else (f"{out}.{fmt}", fmt)


def _claim_tileset(target: Any, force: bool) -> None:
    """Refuse (``TankmapError``, one line) to replace a ``tankmap-tiles.png`` beside
    ``target`` that is not byte for byte the image export writes, unless ``force``."""
    import os
    from importlib import resources

    from tankmap.rules.errors import TankmapError
    from tankmap.rules.tiled import TILESET_IMAGE

    image = target.parent / TILESET_IMAGE
    if force or not os.path.lexists(image):
        return
    shipped = resources.files("tankmap.resources").joinpath("tiled", TILESET_IMAGE).read_bytes()
    try:
        same = image.stat().st_size == len(shipped) and image.read_bytes() == shipped
    except OSError:
        same = False
    if not same:
        raise TankmapError(
            f"{image}: already exists and is not tankmap's tileset image (use --force to overwrite)"
        )
