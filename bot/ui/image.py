"""The table as a picture (Pillow): seats around a felt, the trick in the
middle, and Batak's dummy face up.  Rendered only from the spectator view,
so it shows nothing a channel may not see.  Measured by
``bench/render_speed.py``."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from engine import Card, Observation
from engine.core.cards import sort_hand

WIDTH, HEIGHT = 720, 480
FELT = (22, 94, 52)
CARD_W, CARD_H = 46, 64
RED = (200, 30, 40)
BLACK = (20, 20, 20)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # pragma: no cover - very old Pillow
        return ImageFont.load_default()


def _label(card: Card) -> str:
    if card.is_joker:
        return str(card)
    rank = "10" if card.rank == 10 else str(card)[0]
    return rank + {"S": "S", "H": "H", "D": "D", "C": "C"}[card.suit]


Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def _draw_card(draw: ImageDraw.ImageDraw, x: int, y: int, card: Card, font: Font) -> None:
    draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), radius=6, fill="white", outline=BLACK)
    colour = RED if card.suit in ("H", "D") or str(card) == "RJ" else BLACK
    draw.text((x + 5, y + 4), _label(card), fill=colour, font=font)


def seat_position(seat: int, seats: int) -> tuple[int, int]:
    """Seats around an ellipse, seat 0 at the bottom, in playing order."""
    angle = math.pi / 2 + 2 * math.pi * seat / seats
    return int(WIDTH / 2 + math.cos(angle) * 290), int(HEIGHT / 2 + math.sin(angle) * 205)


def render_table_png(view: Observation, names: Sequence[str]) -> bytes:
    assert view.seat is None, "pictures for the channel render the spectator view"
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)
    small, big = _font(14), _font(16)
    for seat in range(view.num_seats):
        x, y = seat_position(seat, view.num_seats)
        turn = seat == view.to_act
        text = f"{names[seat] if seat < len(names) else seat}"
        if seat < len(view.tricks_won) and view.tricks_won:
            text += f"  ({view.tricks_won[seat]})"
        box = draw.textbbox((0, 0), text, font=big)
        w = box[2] - box[0]
        draw.rounded_rectangle(
            (x - w // 2 - 8, y - 14, x + w // 2 + 8, y + 14),
            radius=8,
            fill=(250, 215, 80) if turn else (235, 235, 235),
        )
        draw.text((x - w // 2, y - 9), text, fill=BLACK, font=big)
    trick = view.trick or view.last_trick
    for seat, card in trick:
        sx, sy = seat_position(seat, view.num_seats)
        x = int(WIDTH / 2 + (sx - WIDTH / 2) * 0.35) - CARD_W // 2
        y = int(HEIGHT / 2 + (sy - HEIGHT / 2) * 0.35) - CARD_H // 2
        _draw_card(draw, x, y, card, small)
    if view.dummy and view.dummy_seat is not None:
        cards = sort_hand(view.dummy)
        _, dummy_y = seat_position(view.dummy_seat, view.num_seats)
        row_y = 50 if dummy_y < HEIGHT // 2 else HEIGHT - CARD_H - 50
        start = WIDTH // 2 - (len(cards) * (CARD_W - 14)) // 2
        for i, card in enumerate(cards):
            _draw_card(draw, start + i * (CARD_W - 14), row_y, card, small)
    if view.trump:
        draw.text((12, 10), f"Trump: {view.trump}", fill="white", font=big)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=1)
    return buffer.getvalue()
