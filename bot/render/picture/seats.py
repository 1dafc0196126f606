"""Seat boxes on the table picture: name, bid and tricks, cards in hand,
score or role, the dealer chip, the away marker and the turn highlight.

The box is where a player looks for themself, so it carries everything
about that seat; the player to act gets a gold box, visible at a glance in
a channel full of messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.i18n import t, tp
from bot.render.picture.facts import (
    TEAM_COLOURS,
    place_text,
    score_text,
    seat_rank,
    seat_role,
    seat_stats,
    team_of,
)
from bot.render.picture.layout import CHIP, PAD, Box, NameSlot
from bot.render.picture.tiles import panel
from bot.render.picture.typefaces import draw_text
from engine import Observation

Colour = tuple[int, int, int]
BOX = (10, 34, 22, 222)
BOX_EDGE = (255, 255, 255, 60)
TURN = (250, 206, 78, 245)
TURN_EDGE = (255, 244, 190, 255)
AWAY = (64, 68, 66, 225)
LIGHT: Colour = (240, 244, 240)
SOFT: Colour = (178, 204, 188)
DARK: Colour = (34, 30, 18)
DARK_SOFT: Colour = (92, 72, 20)
STAT_SIZE = 14


#: room around a seat box for the turn glow
GLOW = 5


@lru_cache(maxsize=64)
def _frame(width: int, height: int, style: str, team: int | None) -> Image.Image:
    """A seat box's background ("turn", "away" or "plain"), drawn once per
    size and style and pasted: blending translucent shapes on every picture
    would cost more than all the text."""
    tile = Image.new("RGBA", (width + 2 * GLOW, height + 2 * GLOW), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tile)
    fill, edge = {"turn": (TURN, TURN_EDGE), "away": (AWAY, BOX_EDGE)}.get(style, (BOX, BOX_EDGE))
    if style == "turn":
        draw.rounded_rectangle(
            (0, 0, width + 2 * GLOW - 1, height + 2 * GLOW - 1), radius=17, fill=(250, 206, 78, 80)
        )
    inner = Image.new("RGBA", tile.size, (0, 0, 0, 0))
    ImageDraw.Draw(inner).rounded_rectangle(
        (GLOW, GLOW, GLOW + width - 1, GLOW + height - 1),
        radius=12,
        fill=fill,
        outline=edge,
        width=2,
    )
    tile.alpha_composite(inner)
    if team is not None:
        stripe = TEAM_COLOURS[team % len(TEAM_COLOURS)]
        draw.rounded_rectangle(
            (GLOW + 3, GLOW + 10, GLOW + 7, GLOW + height - 10), radius=2, fill=stripe
        )
    return tile


@lru_cache(maxsize=4)
def _hand_icon(colour: Colour) -> Image.Image:
    """Two small overlapping card backs: "cards in hand"."""
    tile = Image.new("RGBA", (16, 16), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tile)
    for dx in (0, 4):
        draw.rounded_rectangle(
            (dx, 2 - dx / 2, dx + 9, 15 - dx / 2), radius=2, fill=(54, 92, 178), outline=colour
        )
    return tile


def _dealer_chip() -> Image.Image:
    # i18n: the dealer button on the picture: one letter (the dealer's initial)
    return _chip(tp("picture", "D"))


@lru_cache(maxsize=8)
def _chip(letter: str) -> Image.Image:
    tile = Image.new("RGBA", (20, 20), (0, 0, 0, 0))
    ImageDraw.Draw(tile).ellipse((0, 0, 19, 19), fill=(248, 248, 244), outline=(90, 90, 90))
    draw_text(tile, letter, 10, 14.5, 12, (30, 30, 30), bold=True, align="centre")
    return tile


def _paste(canvas: Image.Image, tile: Image.Image, x: float, y: float) -> None:
    canvas.paste(tile, (round(x), round(y)), tile)


def draw_seat(
    canvas: Image.Image,
    view: Observation,
    seat: int,
    box: Box,
    slot: NameSlot,
    away: Sequence[bool],
) -> None:
    """One seat's box: name (fitted), cards in hand, bid and tricks, then
    score, place or role; gold while the seat is to act, grey when away."""
    turn = view.to_act == seat and not view.is_over
    is_away = seat < len(away) and bool(away[seat])
    style = "turn" if turn else "away" if is_away else "plain"
    text, soft = (DARK, DARK_SOFT) if turn else (LIGHT, SOFT)
    frame = _frame(round(box.width), round(box.height), style, team_of(view, seat))
    _paste(canvas, frame, box.x0 - GLOW, box.y0 - GLOW)
    draw_text(canvas, slot.text, slot.box.x0, slot.baseline, slot.size, text, bold=True)
    if view.dealer == seat:
        _paste(canvas, _dealer_chip(), box.x1 - PAD - CHIP / 2 + 2 - 10, box.y0 + 7)

    left, right = box.x0 + PAD, box.x1 - PAD
    line2, line3 = box.y0 + 48, box.y0 + 67
    count = view.hand_counts[seat] if seat < len(view.hand_counts) else None
    used = 0.0
    if count is not None:
        used = draw_text(
            canvas, str(count), right, line2, STAT_SIZE, text, bold=True, align="right"
        )
        _paste(canvas, _hand_icon(soft), right - used - 17, line2 - 14)
        used += 22
    stats = seat_stats(view, seat)
    if stats:
        draw_text(
            canvas,
            stats,
            left,
            line2,
            STAT_SIZE,
            text,
            max_width=right - left - used - 4,
            min_size=11,
        )

    rank = seat_rank(view, seat)
    parts = []
    if rank is not None:
        parts.append("🏆 " + t("Winner") if rank == 1 else place_text(rank))
    if not view.teams and seat < len(view.scores):
        parts.append(t("Score {score}", score=score_text(view.scores[seat], view.score_unit)))
    role = seat_role(view, seat)
    if role and rank is None:
        parts.append(role)
    third = " · ".join(parts)
    tail = t("away") if is_away else ""
    tail_width = 0.0
    if tail:
        tail_width = draw_text(
            canvas, tail, right, line3, 12, (255, 180, 160), bold=True, align="right"
        )
        panel(
            canvas,
            (right - tail_width - 6, line3 - 13, right + 5, line3 + 4),
            radius=6,
            outline=(255, 180, 160),
        )
    if third:
        draw_text(
            canvas,
            third,
            left,
            line3,
            13,
            soft,
            max_width=right - left - tail_width - 12,
            min_size=11,
        )
