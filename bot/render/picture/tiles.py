"""Cached translucent shapes for the table picture.

Drawing a translucent rounded rectangle straight onto the canvas blends it
pixel by pixel on every picture; the same panel drawn once into a small
RGBA tile and pasted costs a fraction of that, and a table's panels (seat
boxes, score chips, name tags) have the same few sizes picture after picture.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

RGBA = tuple[int, int, int, int] | tuple[int, int, int]


@lru_cache(maxsize=256)
def rounded(
    width: int,
    height: int,
    radius: int,
    fill: RGBA | None,
    outline: RGBA | None = None,
    line: int = 1,
) -> Image.Image:
    """A ``width`` x ``height`` rounded rectangle as an RGBA tile."""
    tile = Image.new("RGBA", (max(1, width), max(1, height)), (0, 0, 0, 0))
    ImageDraw.Draw(tile).rounded_rectangle(
        (0, 0, tile.width - 1, tile.height - 1),
        radius=radius,
        fill=fill,
        outline=outline,
        width=line,
    )
    return tile


def paste(canvas: Image.Image, tile: Image.Image, x: float, y: float) -> None:
    """Blend ``tile`` onto ``canvas`` with its top-left at (x, y)."""
    canvas.paste(tile, (round(x), round(y)), tile)


def panel(
    canvas: Image.Image,
    xy: tuple[float, float, float, float],
    *,
    radius: int,
    fill: RGBA | None = None,
    outline: RGBA | None = None,
    width: int = 1,
) -> None:
    """``ImageDraw.rounded_rectangle`` over ``xy`` (x0, y0, x1, y1, both
    ends included), through the tile cache."""
    x0, y0, x1, y1 = xy
    tile = rounded(round(x1 - x0) + 1, round(y1 - y0) + 1, radius, fill, outline, width)
    paste(canvas, tile, x0, y0)
