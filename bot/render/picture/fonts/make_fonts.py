"""Rebuild the font files in this folder (a maintainer's tool, not run by the bot).

The table picture (``bot/render/picture/table.py``) must draw Turkish, Armenian,
Devanagari and emoji names with real glyphs and card suits as symbols, from
files the project ships, never from the host's font folders.  This script
documents exactly where each file comes from and how the two derived files
are made:

* the Noto text fonts are copied unchanged from Debian's ``fonts-noto-core``;
* ``CardTableEmoji.ttf`` is Debian's ``fonts-noto-color-emoji`` with its one
  109 ppem colour-bitmap strike shrunk to 28 ppem (32-colour palette PNGs): 11 MB
  down to about 2.4 MB, still in colour, still with the GSUB ligatures for
  flags, skin tones and ZWJ families;
* ``coverage.txt`` lists, per font, the code points its cmap maps, so that
  the renderer can pick a font per character without fontTools at run time.

Usage (needs ``pip install fonttools`` in a scratch environment)::

    apt-get update && apt-get download fonts-noto-core fonts-noto-color-emoji
    for f in *.deb; do dpkg-deb -x "$f" x; done
    python bot/render/picture/fonts/make_fonts.py x/usr/share/fonts/truetype/noto
"""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path

from fontTools.ttLib import TTFont
from PIL import Image

HERE = Path(__file__).resolve().parent
#: copied unchanged, in fallback order (first font that has a glyph wins)
TEXT_FONTS = (
    "NotoSans-Regular.ttf",
    "NotoSans-Bold.ttf",
    "NotoSansArmenian-Regular.ttf",
    "NotoSansArmenian-Bold.ttf",
    "NotoSansDevanagari-Regular.ttf",
    "NotoSansDevanagari-Bold.ttf",
    "NotoSansSymbols2-Regular.ttf",
)
EMOJI_SOURCE = "NotoColorEmoji.ttf"
EMOJI_FONT = "CardTableEmoji.ttf"
EMOJI_PPEM = 28
EMOJI_COLOURS = 32


def shrink_emoji(source: Path, target: Path) -> None:
    """Scale every colour bitmap of the single CBDT strike to ``EMOJI_PPEM``."""
    font = TTFont(source)
    strike = font["CBLC"].strikes[0]
    sizes = strike.bitmapSizeTable
    scale = EMOJI_PPEM / sizes.ppemY
    sizes.ppemX = sizes.ppemY = EMOJI_PPEM
    for line in (sizes.hori, sizes.vert):
        line.ascender = round(line.ascender * scale)
        line.descender = round(line.descender * scale)
        line.widthMax = round(line.widthMax * scale)
    for glyph in font["CBDT"].strikeData[0].values():
        glyph.decompile()
        metrics = glyph.metrics
        image = Image.open(io.BytesIO(glyph.imageData)).convert("RGBA")
        width = max(1, round(metrics.width * scale))
        height = max(1, round(metrics.height * scale))
        image = image.resize((width, height), Image.Resampling.LANCZOS)
        buffer = io.BytesIO()
        image.quantize(EMOJI_COLOURS, method=Image.Quantize.FASTOCTREE).save(
            buffer, "PNG", optimize=True
        )
        glyph.imageData = buffer.getvalue()
        metrics.width, metrics.height = width, height
        metrics.BearingX = round(metrics.BearingX * scale)
        metrics.BearingY = round(metrics.BearingY * scale)
        metrics.Advance = round(metrics.Advance * scale)
    # A modified font gets its own name (OFL 1.1 condition 3 in spirit; Noto
    # declares no Reserved Font Name, so this is courtesy, not obligation).
    names = font["name"]
    for record in names.names:
        if record.nameID in (1, 4, 16):
            record.string = "Card Table Emoji"
        elif record.nameID in (3, 6):
            record.string = "CardTableEmoji-Regular"
    font.save(target)


def ranges(code_points: list[int]) -> str:
    """Compact ``20-7e a0 ...`` text for a sorted list of code points."""
    parts: list[str] = []
    start = prev = code_points[0]
    for cp in [*code_points[1:], -1]:
        if cp == prev + 1:
            prev = cp
            continue
        parts.append(f"{start:x}" if start == prev else f"{start:x}-{prev:x}")
        start = prev = cp
    return " ".join(parts)


def write_coverage() -> None:
    lines = [
        "# Code points each shipped font maps (made by make_fonts.py; do not edit).",
    ]
    for name in (*TEXT_FONTS, EMOJI_FONT):
        cmap = TTFont(HERE / name).getBestCmap()
        lines.append(f"{name}: {ranges(sorted(cmap))}")
    (HERE / "coverage.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(noto_dir: str) -> None:
    source = Path(noto_dir)
    for name in TEXT_FONTS:
        shutil.copyfile(source / name, HERE / name)
    shrink_emoji(source / EMOJI_SOURCE, HERE / EMOJI_FONT)
    write_coverage()


if __name__ == "__main__":
    main(sys.argv[1])
