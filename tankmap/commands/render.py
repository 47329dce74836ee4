"""``tankmap render``: a picture of the board (SVG, PNG or PDF)."""

from __future__ import annotations

import argparse
from typing import Any

from tankmap.commands.common import add_option_flag

FORMATS = {".svg": "svg", ".png": "png", ".pdf": "pdf"}


def register(sub: Any) -> None:
    p = sub.add_parser(
        "render",
        help="draw the board as an SVG, PNG or PDF picture",
        description=(
            "Draw the scenario's board with its terrain and units (facing arrows, side "
            "colours, names; Final Act range colours; Tank Wars' two boards). The format "
            "follows the output file's extension: .svg, .png or .pdf. The per-side setup "
            "sheets are 'tankmap sheets'."
        ),
    )
    p.add_argument("file", metavar="FILE", help="scenario file (.json)")
    p.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT",
        help="picture to write: board.svg, .png or .pdf",
    )
    p.add_argument("--dpi", type=int, default=150, help="PNG resolution (default 150)")
    p.add_argument(
        "--force",
        action="store_true",
        help="replace OUT even if it is not a picture of that format, or write through it "
        "if it is a symbolic link (an earlier picture is replaced without it)",
    )
    p.add_argument("--title", help="title drawn above the board (default: the scenario's)")
    add_option_flag(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from tankmap.commands.common import load
    from tankmap.rules.errors import TankmapError, printable

    out = Path(args.output)
    fmt = FORMATS.get(out.suffix.lower())
    if fmt is None:
        raise TankmapError(
            f"cannot render to {args.output!r}: use a .svg, .png or .pdf file name "
            f"(not {out.suffix or 'no extension'!r})"
        )
    if not 1 <= args.dpi <= 1200:
        raise TankmapError(f"--dpi must be between 1 and 1200, not {args.dpi}")
    scenario = load(args.file, args.option)
    from tankmap.rules.safeio import check_output

    # before drawing: a refusal costs nothing
    target = check_output(out, force=args.force, hint="--force does")
    replaced = target.exists()

    from tankmap.analysis.board_figure import board_figure
    from tankmap.analysis.outputs import figure_bytes
    from tankmap.rules.safeio import atomic_write_bytes

    # a --title with control characters is drawn escaped, as the file's title is
    title = None if args.title is None else printable(args.title, 300)
    fig = board_figure(scenario, title=title)
    # drawn in memory, then written atomically: a full disk leaves the old picture
    atomic_write_bytes(target, figure_bytes(fig, fmt, args.dpi))
    shown = printable(str(out), 300)
    print(f"wrote {shown}" + (" (replaced the earlier picture)" if replaced else ""))
    return 0
