"""Text for the table picture: shipped fonts, per-character fallback, fitting.

Pillow draws a string with one font and has no fallback, so a Turkish,
Armenian, Devanagari or emoji name in the default font comes out as empty
boxes.  This module ships its own fonts (``bot/render/picture/fonts``, OFL 1.1, see the
README there) and never reads the host's font folders, so a picture looks the
same on every machine.  Text is split into runs by the first font in
``FACES`` whose cmap has the character (``fonts/coverage.txt``, precomputed,
so fontTools is not needed at run time); each run is drawn with its font.

Emoji come from ``CardTableEmoji.ttf``, Noto Color Emoji shrunk to one 28 ppem
colour-bitmap strike: FreeType renders bitmap fonts only at their strike
size, so emoji runs are drawn at 28 px and scaled to the text size.  With
libraqm (``PIL.features.check("raqm")``) runs are shaped, which Devanagari
conjuncts and emoji sequences (flags, skin tones, families) need; without it
they still render, unshaped.

Finished labels are cached (``label``): a table's names and most of its
figures repeat from one picture to the next, which keeps a render fast.
"""

from __future__ import annotations

import threading
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

FONT_DIR = Path(__file__).with_name("fonts")
Colour = tuple[int, int, int] | tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Face:
    """One script's font files; ``bold`` may be the same file as ``regular``."""

    name: str
    regular: str
    bold: str
    #: bitmap-only font drawn at this size and scaled (0 = scalable outlines)
    strike: int = 0


LATIN = Face("latin", "NotoSans-Regular.ttf", "NotoSans-Bold.ttf")
ARMENIAN = Face("armenian", "NotoSansArmenian-Regular.ttf", "NotoSansArmenian-Bold.ttf")
DEVANAGARI = Face("devanagari", "NotoSansDevanagari-Regular.ttf", "NotoSansDevanagari-Bold.ttf")
SYMBOLS = Face("symbols", "NotoSansSymbols2-Regular.ttf", "NotoSansSymbols2-Regular.ttf")
EMOJI = Face("emoji", "CardTableEmoji.ttf", "CardTableEmoji.ttf", strike=28)
#: fallback order: the first face whose cmap has a character draws it
FACES: tuple[Face, ...] = (LATIN, ARMENIAN, DEVANAGARI, SYMBOLS, EMOJI)
#: emoji are drawn a little smaller than their 1.25 em advance suggests
EMOJI_SCALE = 0.92
ELLIPSIS = "…"
_ZWJ = "\u200d"
_VS16 = "\ufe0f"
_VIRAMA = "\u094d"
#: FreeType faces are shared by every picture and pictures are drawn in
#: worker threads (``asyncio.to_thread``); a face is not safe to use from two
#: threads at once, so measuring and drawing text holds this lock.
_FREETYPE = threading.RLock()


@cache
def _coverage() -> dict[str, frozenset[int]]:
    """Code points per font file, from ``fonts/coverage.txt``."""
    table: dict[str, frozenset[int]] = {}
    text = (FONT_DIR / "coverage.txt").read_text(encoding="utf-8")
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        name, _, spans = line.partition(":")
        points: set[int] = set()
        for span in spans.split():
            first, _, last = span.partition("-")
            points.update(range(int(first, 16), int(last or first, 16) + 1))
        table[name.strip()] = frozenset(points)
    return table


def has_glyph(face: Face, ch: str) -> bool:
    return ord(ch) in _coverage()[face.regular]


def _attaches(ch: str) -> bool:
    """Characters that belong to the cluster before them (marks, joiners,
    variation selectors, skin tones, flag tags): never start a run."""
    cp = ord(ch)
    if ch in (_ZWJ, "\u200c", _VS16, "\ufe0e", "\u20e3") or 0x1F3FB <= cp <= 0x1F3FF:
        return True
    return 0xE0020 <= cp <= 0xE007F or unicodedata.category(ch) in ("Mn", "Mc", "Me")


def _is_neutral(ch: str) -> bool:
    """Spaces and punctuation stay in the run they sit in when its font has
    them, so a name in one script is shaped as one run."""
    return unicodedata.category(ch)[0] in ("Z", "P")


def font_for(ch: str, following: str = "") -> Face | None:
    """The face that draws ``ch``; None when no shipped font has it (it is
    then drawn as the main font's missing-glyph box).

    Characters from the supplementary planes' symbol blocks (U+1F000 and up)
    and any character followed by VS16 prefer the colour emoji when it has
    them, as chat clients show them; other symbols (card suits) stay text.
    """
    if (ord(ch) >= 0x1F000 or following == _VS16) and has_glyph(EMOJI, ch):
        return EMOJI
    for face in FACES:
        if has_glyph(face, ch):
            return face
    return None


def split_runs(text: str) -> list[tuple[str, Face]]:
    """Consecutive characters drawn by the same face, in order."""
    runs: list[tuple[str, Face]] = []
    for i, ch in enumerate(text):
        if runs:
            run, face = runs[-1]
            glued = _attaches(ch) or (
                # emoji fonts' spaces are emoji-wide: text spacing stays text
                (run.endswith(_ZWJ) or (_is_neutral(ch) and not face.strike))
                and has_glyph(face, ch)
            )
            if glued:
                runs[-1] = (run + ch, face)
                continue
        face = font_for(ch, text[i + 1 : i + 2]) or LATIN
        if runs and runs[-1][1] is face:
            runs[-1] = (runs[-1][0] + ch, face)
        else:
            runs.append((ch, face))
    return runs


@lru_cache(maxsize=128)
def get_font(face: Face, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The face's font at ``size`` px (at its strike size for bitmap fonts).
    Use it under ``_FREETYPE`` when other threads may draw."""
    engine = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC
    path = FONT_DIR / (face.bold if bold else face.regular)
    return ImageFont.truetype(str(path), face.strike or size, layout_engine=engine)


def _scale(face: Face, size: int) -> float:
    return size * EMOJI_SCALE / face.strike if face.strike else 1.0


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, bold: bool = False) -> float:
    """Advance width of ``text`` in px, summed over its runs."""
    with _FREETYPE:
        return sum(
            get_font(face, size, bold).getlength(run) * _scale(face, size)
            for run, face in split_runs(text)
        )


def _cut_points(text: str) -> list[int]:
    """Indexes where the text may be cut without splitting a cluster."""
    points = []
    for i in range(1, len(text)):
        before = text[i - 1]
        if not _attaches(text[i]) and before not in (_ZWJ, _VIRAMA):
            points.append(i)
    return points


def ellipsize(text: str, size: int, max_width: float, bold: bool = False) -> str:
    """``text`` itself if it fits, else its longest whole-cluster prefix + "…"."""
    if text_width(text, size, bold) <= max_width:
        return text
    best = ELLIPSIS
    points = _cut_points(text)
    lo, hi = 0, len(points) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        candidate = text[: points[mid]].rstrip() + ELLIPSIS
        if text_width(candidate, size, bold) <= max_width:
            best, lo = candidate, mid + 1
        else:
            hi = mid - 1
    return best


def fit_text(
    text: str, max_width: float, size: int, min_size: int, bold: bool = False
) -> tuple[str, int]:
    """Shrink from ``size`` down to ``min_size`` until ``text`` fits; past that,
    ellipsize at ``min_size``.  Names are never clipped by the canvas edge."""
    for candidate in range(size, min_size - 1, -1):
        if text_width(text, candidate, bold) <= max_width:
            return text, candidate
    return ellipsize(text, min_size, max_width, bold), min_size


@dataclass(frozen=True, slots=True)
class Label:
    """Rendered text: an RGBA image whose baseline is ``ascent`` px from its
    top and whose pen starts ``left`` px in (room for overhangs); ``width``
    is the advance, what layout measures."""

    image: Image.Image
    ascent: int
    width: int
    left: int

    def paste(self, canvas: Image.Image, x: float, baseline: float) -> None:
        at = (round(x) - self.left, round(baseline) - self.ascent)
        canvas.paste(self.image, at, self.image)


@lru_cache(maxsize=1024)
def label(text: str, size: int, colour: Colour, bold: bool = False) -> Label:
    """Render ``text`` once (cached): text runs as a mask in ``colour``,
    emoji runs as scaled colour bitmaps, all on one baseline."""
    with _FREETYPE:
        return _render_label(text, size, colour, bold)


def _render_label(text: str, size: int, colour: Colour, bold: bool) -> Label:
    runs = split_runs(text)
    ascent = descent = 0
    for _, face in runs:
        font = get_font(face, size, bold)
        up, down = font.getmetrics()
        ascent = max(ascent, round(up * _scale(face, size)))
        descent = max(descent, round(down * _scale(face, size)))
    width = round(text_width(text, size, bold))
    pad = max(2, size // 4)
    ascent += pad
    mask = Image.new("L", (width + 2 * pad, ascent + descent + pad), 0)
    draw = ImageDraw.Draw(mask)
    pictures: list[tuple[int, tuple[Image.Image, int]]] = []
    x = float(pad)
    for run, face in runs:
        font = get_font(face, size, bold)
        if face.strike:
            pictures.append((round(x), _emoji_image(run, size)))
        else:
            draw.text((x, ascent), run, font=font, fill=255, anchor="ls")
        x += font.getlength(run) * _scale(face, size)
    if len(colour) == 4:
        mask = mask.point(lambda v: v * colour[3] // 255)
    image = Image.new("RGBA", mask.size, (*colour[:3], 0))
    image.putalpha(mask)
    for left, (picture, picture_ascent) in pictures:
        image.alpha_composite(picture, (left, max(0, ascent - picture_ascent)))
    return Label(image, ascent, width, pad)


@lru_cache(maxsize=256)
def _emoji_image(run: str, size: int) -> tuple[Image.Image, int]:
    """An emoji run drawn at the strike size, then scaled to ``size``; with
    its ascent (baseline offset from the top) at that size."""
    font = get_font(EMOJI, size)
    scale = _scale(EMOJI, size)
    up, down = font.getmetrics()
    width = max(1, round(font.getlength(run)))
    big = Image.new("RGBA", (width, up + down), (0, 0, 0, 0))
    ImageDraw.Draw(big).text((0, up), run, font=font, anchor="ls", embedded_color=True)
    small = big.resize(
        (max(1, round(width * scale)), max(1, round((up + down) * scale))),
        Image.Resampling.LANCZOS,
    )
    return small, round(up * scale)


def draw_text(
    canvas: Image.Image,
    text: str,
    x: float,
    baseline: float,
    size: int,
    colour: Colour,
    *,
    bold: bool = False,
    align: str = "left",
    max_width: float | None = None,
    min_size: int | None = None,
) -> float:
    """Draw ``text`` with its baseline at ``baseline``, aligned on ``x``
    ("left", "centre" or "right"); fitted into ``max_width`` when given.
    Returns the advance width drawn."""
    if max_width is not None:
        text, size = fit_text(text, max_width, size, min_size or size, bold)
    drawn = label(text, size, colour, bold)
    if align == "centre":
        x -= drawn.width / 2
    elif align == "right":
        x -= drawn.width
    drawn.paste(canvas, x, baseline)
    return drawn.width
