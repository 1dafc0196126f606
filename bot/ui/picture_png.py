"""A fast PNG writer for the table picture.

Pillow's PNG encoder picks a filter for every row by trying all five, even
at ``compress_level=0``; for a 960x640 RGB picture that search costs about
three times as much as deflate itself (measured on the 2-core machine: 43 ms
against 12 ms with this writer, for PNGs of the same size, ~100 KiB).  Flat
colours, which is what a table picture is made of, compress just as well
unfiltered, so this writes filter type 0 rows through zlib at level 1: a
standard PNG any viewer (and Pillow) reads.
"""

from __future__ import annotations

import struct
import zlib

from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def encode_png(image: Image.Image, level: int = 1) -> bytes:
    """``image`` (RGB) as PNG bytes: 8-bit truecolour, no filtering."""
    if image.mode != "RGB":
        image = image.convert("RGB")
    width, height = image.size
    raw = image.tobytes()
    stride = width * 3
    rows = b"".join(b"\0" + raw[y * stride : (y + 1) * stride] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(rows, level))
        + _chunk(b"IEND", b"")
    )
