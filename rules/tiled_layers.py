"""Tile layer data as Tiled writes it, decoded into global tile ids with bounded memory.

Tiled writes a layer's tile ids as a JSON list (``.tmj``), CSV text (``.tmx``), ``<tile>``
elements (old ``.tmx``) or base64 of little-endian 32-bit ids, plain or compressed with
zlib, gzip or zstd. Compressed data is inflated step by step and refused as soon as it
would grow past the layer's own size (width x height x 4 bytes), so a small file that
inflates to gigabytes (a decompression bomb) costs no more memory than the layer. zstd is
refused with one line: the standard library reads it only from Python 3.14 on.

Every refusal is a ``ScenarioFormatError`` naming the file, the layer's data and the value.
"""

from __future__ import annotations

import base64
import binascii
import re
import struct
import zlib
from typing import Any

from tankmap.rules.tiled_shape import GID_LIMIT, Fail

_WBITS = {"zlib": zlib.MAX_WBITS, "gzip": 16 + zlib.MAX_WBITS}
_CSV_ENTRY = re.compile(r"\s*([0-9]{1,10})\s*")
_BASE64_SPACE = re.compile(r"[ \t\r\n]+")
ZSTD_REFUSED = (
    "zstd-compressed layer data cannot be read (tankmap reads CSV and base64, plain, zlib "
    "or gzip: choose one as the map's Tile Layer Format in Tiled)"
)


def layer_gids(layer: dict[str, Any], size: int, where: str, fail: Fail) -> list[int]:
    """The ``size`` global tile ids of the tile layer ``layer`` (at path ``where``, its
    shape checked by ``rules.tiled_shape``): its ``data`` is a list of ids or base64 text
    with the ``encoding`` and ``compression`` the file names.

    Raises ``ScenarioFormatError`` for another count of ids, an encoding or compression
    tankmap does not read, text that is not base64, data that does not inflate, and data
    that would inflate past ``size`` x 4 bytes (without inflating it further).
    """
    data = layer["data"]
    if isinstance(data, list):
        if len(data) != size:
            raise fail(
                f"{where}.data", f"expected {size} tile ids (the map's width x height)", len(data)
            )
        return list(data)
    encoding = layer.get("encoding", "base64")
    if encoding != "base64":
        raise fail(
            f"{where}.encoding",
            "unknown encoding for layer data given as text (Tiled writes base64 there)",
            encoding,
        )
    compression = layer.get("compression", "")
    check_compression(compression, where, fail)
    raw = inflate(decode_base64(data, f"{where}.data", fail), compression, 4 * size, where, fail)
    if len(raw) != 4 * size:
        raise fail(
            f"{where}.data",
            f"expected {size} tile ids of 4 bytes (the map's width x height), got {len(raw)} bytes",
        )
    return list(struct.unpack(f"<{size}I", raw))


def decode_base64(text: str, where: str, fail: Fail) -> bytes:
    """The bytes of base64 ``text`` (spaces and line breaks ignored, as Tiled indents it);
    ``ScenarioFormatError`` for any other character or a wrong length."""
    try:
        return base64.b64decode(_BASE64_SPACE.sub("", text), validate=True)
    except (binascii.Error, ValueError):
        raise fail(where, "layer data is not base64 text", text) from None


def inflate(raw: bytes, compression: str, limit: int, where: str, fail: Fail) -> bytes:
    """``raw``, the data of the tile layer at path ``where``, inflated (``compression``
    ``""`` leaves it as it is), at most ``limit`` bytes of it: ``ScenarioFormatError`` as
    soon as the output would pass ``limit``, for data that does not inflate or ends early,
    for zstd and for an unknown compression."""
    check_compression(compression, where, fail)
    if not compression:
        return raw
    where = f"{where}.data"
    out = bytearray()
    rest = raw
    try:
        while True:  # one round per gzip member (zlib data is one stream)
            stream = zlib.decompressobj(_WBITS[compression])
            out += stream.decompress(rest, limit + 1 - len(out))
            if len(out) > limit:
                raise fail(
                    where,
                    f"the {compression} data inflates to more than {limit} bytes, the size of "
                    "the map's layer: refused unread (a decompression bomb?)",
                )
            if not stream.eof:
                raise fail(where, f"the {compression} data ends early (cut off?)")
            rest = stream.unused_data
            if not rest or compression == "zlib":
                break
    except zlib.error as exc:
        raise fail(where, f"cannot inflate the {compression} data ({exc})") from None
    if rest:
        raise fail(where, f"bytes after the end of the {compression} data", len(rest))
    return bytes(out)


def check_compression(compression: str, where: str, fail: Fail) -> None:
    """``ScenarioFormatError`` unless the tile layer at path ``where`` is plain, zlib or
    gzip (zstd gets its own message: what to choose in Tiled instead)."""
    if compression == "zstd":
        raise fail(f"{where}.compression", ZSTD_REFUSED, compression)
    if compression and compression not in _WBITS:
        raise fail(
            f"{where}.compression",
            "unknown compression (Tiled writes zlib, gzip or zstd)",
            compression,
        )


def csv_gids(text: str, most: int, where: str, fail: Fail) -> list[int]:
    """The tile ids of a TMX layer's CSV text; ``ScenarioFormatError`` for more than
    ``most`` of them (before reading them) or an entry that is not a tile id."""
    entries = text.split(",")
    if entries and not entries[-1].strip():
        entries.pop()  # a trailing comma, as some tools write
    if len(entries) > most:
        raise fail(where, f"more than {most} tile ids (a board's most)", len(entries))
    out = []
    for n, entry in enumerate(entries):
        m = _CSV_ENTRY.fullmatch(entry)
        if m is None or int(m[1]) >= GID_LIMIT:
            raise fail(
                f"{where}[{n}]", f"expected a tile id from 0 to {GID_LIMIT - 1}", entry.strip()
            )
        out.append(int(m[1]))
    return out
