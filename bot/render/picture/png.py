"""PNG writers for the table picture: a small palette PNG (what the channel
gets) and a fast truecolour one.

**Palette** (``encode_palette_png``): a table picture is made of flat
colours, the felt's gradient and the anti-aliased edges of text and cards
(about 3,000 colours in all).  256 colours written as an 8-bit palette PNG
are a fifth of the truecolour size (measured, ``bench/render_speed.py``:
Callbreak 97 -> 20 KiB, Backalley with 8 players 108 -> 25 KiB).  The
palette is the background's own colours (``base``: the felt's gradient and
the room, about 70, kept exact so the felt does not band) plus the
colours Pillow's fast octree picks for the rest; no dithering (it would
speckle the felt and text and grow the file).  Measured against the
alternatives on the same pictures: an octree palette of 256 alone bands
the felt visibly (20 KiB); median cut does not band but costs 33 KiB and
39 ms; lossy WebP at quality 90 is 27-37 KiB and blurs small text; lossless
WebP is 40-50 KiB and takes 240 ms.

**Truecolour** (``encode_png``):

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
from collections.abc import Sequence
from io import BytesIO

from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def encode_png(image: Image.Image, level: int = 1) -> bytes:
    """``image`` (RGB) as PNG bytes: 8-bit truecolour, no filtering.

    Rows go to zlib one by one (a zero filter byte, then the row) rather than
    as one joined buffer: that copy of 1.8 MB cost more than the calls."""
    if image.mode != "RGB":
        image = image.convert("RGB")
    width, height = image.size
    raw = memoryview(image.tobytes())
    stride = width * 3
    deflate = zlib.compressobj(level)
    parts = []
    for start in range(0, height * stride, stride):
        parts.append(deflate.compress(b"\0"))
        parts.append(deflate.compress(raw[start : start + stride]))
    parts.append(deflate.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", b"".join(parts))
        + _chunk(b"IEND", b"")
    )


def encode_palette_png(image: Image.Image, base: Sequence[tuple[int, int, int]] = ()) -> bytes:
    """``image`` (RGB) as an 8-bit palette PNG of 256 colours: ``base`` (the
    background's colours, at most 128) and the octree's choice for the
    rest; each pixel gets the nearest (Pillow matches on a grid of about 4
    levels per channel, so a felt shade may move by a level or two: not
    visible, and fewer distinct rings compress better)."""
    base = list(base)[:128]
    free = 256 - len(base)
    rest = image.quantize(free, Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    flat = [v for colour in base for v in colour] + (rest.getpalette() or [])[: 3 * free]
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat)
    indexed = image.quantize(palette=palette, dither=Image.Dither.NONE)
    out = BytesIO()
    indexed.save(out, "PNG", compress_level=8)
    return out.getvalue()
