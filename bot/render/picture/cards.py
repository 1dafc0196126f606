"""Card faces and backs for the table picture, drawn once per size and cached.

A face shows the index (rank over suit symbol) in the top-left corner, where
it stays readable when cards overlap in a row, the same index upside down in
the bottom-right corner and a large suit symbol in the middle.  Jokers get a
cream face, a star and the word JOKER, red for ``RJ`` and black for ``BJ``, so
they are never mistaken for a suit card.  Dimmed faces (the last trick) are
the same pictures at reduced opacity, so the felt shows through.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from bot.render.picture.typefaces import Label, label
from engine import Card
from engine.core.cards import CHAR_OF_RANK, SUIT_SYMBOLS

RED = (204, 32, 44)
BLACK = (24, 24, 28)
FACE = (252, 252, 248)
JOKER_FACE = (255, 244, 214)
EDGE = (120, 120, 120)
BACK = (38, 74, 160)
BACK_LINE = (86, 124, 206)
#: height / width of every card picture
RATIO = 1.4
#: room around the card for its shadow
SHADOW = 3


def card_size(width: int) -> tuple[int, int]:
    return width, round(width * RATIO)


def rank_text(card: Card) -> str:
    return "10" if card.rank == 10 else CHAR_OF_RANK[card.rank]


def suit_colour(suit: str) -> tuple[int, int, int]:
    return RED if suit in ("H", "D") else BLACK


def card_colour(card: Card) -> tuple[int, int, int]:
    if card.is_joker:
        return RED if str(card) == "RJ" else BLACK
    return suit_colour(card.suit)


def _blank(width: int, fill: tuple[int, int, int]) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A rounded card with a soft shadow; the card's top-left is (0, 0) and
    the image is ``SHADOW`` px larger to the right and bottom."""
    w, h = card_size(width)
    radius = max(3, width // 9)
    shadow = Image.new("L", (w + SHADOW * 2, h + SHADOW * 2), 0)
    ImageDraw.Draw(shadow).rounded_rectangle(
        (SHADOW, SHADOW, w + SHADOW - 1, h + SHADOW - 1), radius=radius, fill=110
    )
    shadow = shadow.filter(ImageFilter.GaussianBlur(2))
    image = Image.new("RGBA", shadow.size, (0, 0, 0, 0))
    image.putalpha(shadow)
    image = image.crop((SHADOW - 1, SHADOW - 2, w + 2 * SHADOW - 1, h + 2 * SHADOW - 2))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=fill, outline=EDGE)
    return image, draw


def _centre(image: Image.Image, text: Label, cx: float, cy: float) -> None:
    """Paste ``text`` with the middle of its ink (not of its line box) at
    (cx, cy): suit symbols and stars sit visually centred."""
    box = text.image.getbbox() or (0, 0, text.image.width, text.image.height)
    left = round(cx - (box[0] + box[2]) / 2)
    top = round(cy - (box[1] + box[3]) / 2)
    image.alpha_composite(text.image, (left, top))


def _index(card: Card, width: int) -> Image.Image:
    """Rank over a small suit symbol, as one transparent picture."""
    colour = card_colour(card)
    rank = label(rank_text(card), max(9, round(width * 0.28)), colour, bold=True)
    suit = label(SUIT_SYMBOLS[card.suit], max(8, round(width * 0.22)), colour)
    size = (max(rank.width, suit.width) + 4, rank.ascent + suit.ascent + 4)
    tile = Image.new("RGBA", size, (0, 0, 0, 0))
    _centre(tile, rank, size[0] / 2, rank.ascent * 0.6)
    _centre(tile, suit, size[0] / 2, rank.ascent + suit.ascent * 0.55)
    return tile


def _face(card: Card, width: int) -> Image.Image:
    image, _ = _blank(width, FACE)
    w, h = card_size(width)
    index = _index(card, width)
    image.alpha_composite(index, (max(1, width // 20), max(2, width // 16)))
    pip = label(SUIT_SYMBOLS[card.suit], round(width * 0.56), card_colour(card))
    _centre(image, pip, w * 0.58, h * 0.62)
    return image


def _joker(card: Card, width: int) -> Image.Image:
    image, _ = _blank(width, JOKER_FACE)
    w, h = card_size(width)
    colour = card_colour(card)
    letter_size = max(7, round(width * 0.17))
    y = max(3, width // 14) + letter_size * 0.55
    for letter in "JOKER":
        _centre(image, label(letter, letter_size, colour, bold=True), width * 0.16, y)
        y += letter_size * 1.02
    _centre(image, label("★", round(width * 0.6), colour), w * 0.6, h * 0.55)
    return image


def _back(width: int) -> Image.Image:
    """A blue lattice inside a white margin, the same for every card."""
    image, _ = _blank(width, (250, 250, 250))
    w, h = card_size(width)
    inset = max(2, width // 12)
    inner = (w - 2 * inset, h - 2 * inset)
    pattern = Image.new("RGB", inner, BACK)
    draw = ImageDraw.Draw(pattern)
    step = max(5, width // 6)
    for offset in range(-inner[1], inner[0], step):
        draw.line((offset, 0, offset + inner[1], inner[1]), fill=BACK_LINE)
        draw.line((offset + inner[1], 0, offset, inner[1]), fill=BACK_LINE)
    mask = Image.new("L", inner, 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (0, 0, inner[0] - 1, inner[1] - 1), radius=max(2, width // 14), fill=255
    )
    image.paste(pattern, (inset, inset), mask)
    return image


@lru_cache(maxsize=512)
def card_image(card: Card | None, width: int, dim: bool = False) -> Image.Image:
    """A card face (``None``: a back) ``width`` px wide, with its shadow.

    Paste it at the card's top-left corner; ``dim`` fades it for the last
    trick.
    """
    if card is None:
        image = _back(width)
    elif card.is_joker:
        image = _joker(card, width)
    else:
        image = _face(card, width)
    if dim:
        alpha = image.getchannel("A").point(lambda v: v * 62 // 100)
        image.putalpha(alpha)
    return image
