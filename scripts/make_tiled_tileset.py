"""Draw the Tiled tileset shipped in ``resources/tiled/tankmap-tiles.png``.

Run it again when a ruleset gains a terrain or unit kind (``tankmap.rules.tiled``'s
``tile_catalogue`` lists the tiles; a test checks the image has one tile for each):

    python scripts/make_tiled_tileset.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from tankmap.rules.tiled import TILE, TILESET_COLUMNS, TILESET_IMAGE, tile_catalogue

OUT = Path(__file__).resolve().parent.parent / "resources" / "tiled" / TILESET_IMAGE
SIDE_COLOURS = {"south": (60, 110, 200), "north": (200, 60, 60), None: (120, 120, 120)}
TERRAIN_COLOURS = {
    "berm-large": (150, 110, 60),
    "berm-small": (175, 135, 80),
    "swamp": (80, 140, 110),
    "minefield": (210, 190, 90),
    "obstacle": (90, 90, 90),
    "crater": (110, 85, 70),
    "support": (120, 170, 210),
}
UNIT_LETTERS = {
    "tank": "T",
    "at": "A",
    "rm": "R",
    "command": "K",
    "light": "L",
    "medium": "M",
    "heavy": "H",
    "destroyer": "D",
    "mortar": "O",
    "artillery": "Y",
}


def main() -> None:
    tiles = tile_catalogue()
    rows = -(-len(tiles) // TILESET_COLUMNS)
    img = Image.new("RGBA", (TILESET_COLUMNS * TILE, rows * TILE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    for n, t in enumerate(tiles):
        x0, y0 = (n % TILESET_COLUMNS) * TILE, (n // TILESET_COLUMNS) * TILE
        box = (x0, y0, x0 + TILE - 1, y0 + TILE - 1)
        side = SIDE_COLOURS[t.side]
        if t.role == "terrain":
            draw.rectangle(box, fill=TERRAIN_COLOURS.get(t.kind, (128, 128, 128)))
            for k in range(-TILE, TILE, 8):  # hatching, as on the editor's board
                draw.line((x0 + k, y0 + TILE - 1, x0 + k + TILE, y0 - 1), fill=(0, 0, 0, 70))
            draw.rectangle(box, outline=side, width=3)
        else:
            pad = 4
            draw.ellipse(
                (x0 + pad, y0 + pad, x0 + TILE - pad, y0 + TILE - pad),
                fill=side,
                outline=(20, 20, 20),
                width=2,
            )
            letter = UNIT_LETTERS.get(t.kind, t.kind[:1].upper())
            draw.text((x0 + TILE // 2, y0 + TILE // 2), letter, fill="white", anchor="mm")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    img.save(OUT)
    print(f"wrote {OUT} ({len(tiles)} tiles)")


if __name__ == "__main__":
    main()
