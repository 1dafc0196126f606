"""A player's rating trend as a picture (``/history``): a line through the
rating after each finished match, oldest on the left, labelled with the
tables' numbers.  One look shows the direction a list of numbers hides.

Drawn with Pillow and the table picture's fonts (``picture_fonts``: the
names of players in any of the bot's languages render with real glyphs)
and its PNG encoder.  Only numbers the player's own results hold are
drawn: no card, no other person's data.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.render.picture.png import encode_png
from bot.render.picture.typefaces import draw_text

WIDTH, HEIGHT = 720, 300
LEFT, RIGHT, TOP, BOTTOM = 64, 24, 56, 44
#: room left and right of the first and last points for their labels
PAD = 28
BACKGROUND = (24, 38, 31)
GRID = (52, 78, 63)
LINE = (240, 196, 84)
TEXT = (232, 236, 230)
MUTED = (160, 176, 166)
UP, DOWN = (120, 210, 140), (236, 120, 110)


def _scale(values: Sequence[float]) -> tuple[float, float]:
    low, high = min(values), max(values)
    if high - low < 1.0:
        middle = (high + low) / 2
        low, high = middle - 0.5, middle + 0.5
    pad = (high - low) * 0.1
    return low - pad, high + pad


def rating_trend_png(points: Sequence[tuple[str, float]], title: str) -> bytes:
    """``points``: (label, rating) oldest first, at least one; an empty
    label draws no text (the rating before the first listed match)."""
    assert points, "a trend needs at least one rating"
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw_text(image, title, LEFT, 34, 20, TEXT, bold=True, max_width=WIDTH - LEFT - RIGHT)
    values = [v for _, v in points]
    low, high = _scale(values)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def y_of(value: float) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    inner = plot_w - 2 * PAD

    def x_of(i: int) -> float:
        return LEFT + PAD + (inner * i / (len(points) - 1) if len(points) > 1 else inner / 2)

    for k in range(5):
        value = low + (high - low) * k / 4
        y = y_of(value)
        draw.line((LEFT, y, WIDTH - RIGHT, y), fill=GRID, width=1)
        draw_text(image, f"{value:.1f}", LEFT - 8, y + 5, 13, MUTED, align="right")
    xy = [(x_of(i), y_of(v)) for i, v in enumerate(values)]
    if len(xy) > 1:
        draw.line(xy, fill=LINE, width=3, joint="curve")
    for i, ((x, y), (name, value)) in enumerate(zip(xy, points, strict=True)):
        colour = LINE if i == 0 else (UP if value >= values[i - 1] else DOWN)
        draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=colour, outline=BACKGROUND)
        if name:
            draw_text(image, name, x, HEIGHT - 16, 13, MUTED, align="center")
    last_x, last_y = xy[-1]
    draw_text(image, f"{values[-1]:.1f}", last_x, last_y - 12, 15, TEXT, bold=True, align="center")
    return encode_png(image, level=6)
