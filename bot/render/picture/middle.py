"""The middle of the table picture: the trick (or the last one, dimmed),
a status line when no card is out, Batak's dummy, Ladder's pile and
tableaus, and Blot's declarations.

Cards of a trick lie towards the seat that played them, with a small name
tag, so "who played what" reads without a legend even at eight seats.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from bot.i18n import t, tn
from bot.i18n.terms import declaration_text, requirement_text
from bot.render.picture.cards import card_image, card_size
from bot.render.picture.facts import contract_text
from bot.render.picture.layout import CX, CY, HEADER, MARGIN, Box, row_near, seat_side, trick_spot
from bot.render.picture.tiles import panel
from bot.render.picture.typefaces import draw_text, fit_text, label, text_width
from engine import Card, Observation
from engine.core.cards import sort_hand

Colour = tuple[int, int, int]
CAPTION: Colour = (228, 238, 230)
MUTED: Colour = (176, 206, 186)
TAG = (6, 24, 14, 190)


def _paste(
    canvas: Image.Image, card: Card | None, x: float, y: float, width: int, dim: bool = False
) -> None:
    picture = card_image(card, width, dim)
    canvas.paste(picture, (round(x), round(y)), picture)


def _tag(canvas: Image.Image, name: str, card: Box, side: str, dim: bool, room: float) -> None:
    """A small dark pill with the player's (shortened) name under a card;
    under a side seat's card it grows outwards, away from the other cards."""
    text, size = fit_text(name, room, 12, 11)
    width = text_width(text, size) + 16
    cx = (card.x0 + card.x1) / 2
    if side == "left":
        cx = min(cx, card.x1 - width / 2)
    elif side == "right":
        cx = max(cx, card.x0 + width / 2)
    top = card.y1 - 6
    panel(canvas, (cx - width / 2, top, cx + width / 2, top + 17), radius=8, fill=TAG)
    draw_text(canvas, text, cx, top + 13, size, MUTED if dim else CAPTION, align="centre")


def draw_trick(canvas: Image.Image, view: Observation, names: Sequence[str]) -> None:
    """The current trick; else the last one, dimmed and captioned; else a
    line saying what the table waits for."""
    plays, dim = view.trick, False
    if not plays and view.last_trick and not view.is_over:
        plays, dim = view.last_trick, True
    width = 64 if view.num_seats <= 4 else 56 if view.num_seats <= 6 else 52
    w, h = card_size(width)
    for seat, card in plays:
        x, y = trick_spot(seat, view.num_seats, w, h)
        _paste(canvas, card, x, y, width, dim)
    for seat, _ in plays:
        x, y = trick_spot(seat, view.num_seats, w, h)
        side = seat_side(seat, view.num_seats)
        room = 86.0
        if view.num_seats <= 4:
            # the top card's tag sits between the side cards: keep it narrower
            room = 100.0 if side == "top" else 120.0
        _tag(canvas, names[seat], Box(x, y, x + w, y + h), side, dim, room)
    if dim:
        caption = t("Last trick")
        if view.trick_leader is not None:
            caption += " · " + t("won by {name}", name=names[view.trick_leader])
        _, bottom = trick_spot(0, view.num_seats, w, h)
        top = min(trick_spot(s, view.num_seats, w, h)[1] for s in range(view.num_seats))
        below = view.dummy_seat != 0 or view.dummy is None
        baseline = bottom + h + 32 if below else top - 12
        draw_text(
            canvas,
            caption,
            CX,
            baseline,
            15,
            CAPTION,
            bold=True,
            align="centre",
            max_width=300,
            min_size=12,
        )
    elif not plays:
        _status(canvas, view, names)


def _status(canvas: Image.Image, view: Observation, names: Sequence[str], y: float = CY) -> None:
    """What the table waits for (or who won), in the middle of the felt."""
    lines: list[tuple[str, int, bool]] = []
    if view.is_over:
        lines.append((t("Match over"), 26, True))
        winners = _winners(view, names)
        if winners:
            lines.append(("🏆 " + winners, 18, True))
    else:
        standing = view.extra.get("standing_bid")
        if view.phase in ("auction", "bidding"):
            lines.append((t("Bidding"), 24, True))
            if standing:
                bid = contract_text(str(standing))
                lines.append((t("Standing bid {bid}", bid=bid), 16, False))
        elif view.phase == "trump":
            lines.append((t("Naming trump"), 24, True))
        if view.to_act is not None:
            who, _ = fit_text(names[view.to_act], 220, 16, 16)
            if view.phase in ("auction", "bidding"):
                waiting = t("{name} to bid", name=who)
            elif view.phase == "trump":
                waiting = t("{name} names trump", name=who)
            else:
                waiting = t("{name} to lead", name=who)
            lines.append((waiting, 16, False))
    y -= 10 * (len(lines) - 1)
    for text, size, bold in lines:
        draw_text(
            canvas,
            text,
            CX,
            y + size / 3,
            size,
            CAPTION if bold else MUTED,
            bold=bold,
            align="centre",
            max_width=360,
            min_size=12,
        )
        y += size + 10


def _winners(view: Observation, names: Sequence[str]) -> str:
    if not view.ranking:
        return ""
    if view.teams:
        seats = [s for t, members in enumerate(view.teams) if view.ranking[t] == 1 for s in members]
    else:
        seats = [s for s, rank in enumerate(view.ranking) if rank == 1]
    return " & ".join(names[s] for s in seats)


def _card_row(
    canvas: Image.Image, cards: Sequence[Card | None], x: float, y: float, width: int, step: float
) -> None:
    for i, card in enumerate(cards):
        _paste(canvas, card, x + i * step, y, width)


def draw_dummy(
    canvas: Image.Image, view: Observation, names: Sequence[str], boxes: Sequence[Box]
) -> None:
    """Batak's dummy face up beside its seat, captioned "Dummy — name"."""
    if not view.dummy or view.dummy_seat is None:
        return
    seat = view.dummy_seat
    cards = sort_hand(view.dummy)
    width = 44
    w, h = card_size(width)
    step = min(26.0, (380 - w) / max(1, len(cards) - 1))
    row_width = w + step * max(0, len(cards) - 1)
    caption = 20
    area = row_near(boxes[seat], seat_side(seat, view.num_seats), max(row_width, 160), h + caption)
    draw_text(
        canvas,
        t("Dummy — {name}", name=names[seat]),
        area.x0 + 2,
        area.y0 + 14,
        14,
        CAPTION,
        bold=True,
        max_width=area.width,
        min_size=11,
    )
    _card_row(canvas, cards, area.x0, area.y0 + caption, width, step)


def draw_declarations(canvas: Image.Image, view: Observation, names: Sequence[str]) -> None:
    """Blot's shown declarations, top-left under the header: who, what, and
    the cards when the declaration shows them (belote shows none)."""
    if not view.declarations:
        return
    x, y = MARGIN + 4, HEADER + 10
    rows = view.declarations[:5]
    heights = [52 if cards else 40 for _, _, cards in rows]
    panel(canvas, (x - 4, y - 4, x + 300, y + 24 + sum(heights)), radius=10, fill=(6, 24, 14, 170))
    draw_text(canvas, t("Declarations"), x + 6, y + 14, 14, CAPTION, bold=True)
    y += 24
    for (seat, description, cards), height in zip(rows, heights, strict=True):
        cards_width = 0.0
        if cards:
            step = 18.0
            cards_width = 32 + step * (len(cards) - 1)
            _card_row(canvas, list(cards), x + 292 - cards_width, y + 2, 32, step)
        room = 284 - cards_width - 14
        draw_text(
            canvas, names[seat], x + 6, y + 16, 14, CAPTION, bold=True, max_width=room, min_size=11
        )
        draw_text(
            canvas,
            declaration_text(description),
            x + 6,
            y + 34,
            13,
            MUTED,
            max_width=room,
            min_size=11,
        )
        y += height


REQUIREMENT_COLOURS = {"ANY": (70, 150, 96), "MIN": (62, 116, 210), "MAX": (214, 110, 46)}


def _pile(canvas: Image.Image, view: Observation) -> None:
    """The pile's top five cards (top last), its size, and the requirement
    the next play must meet as a coloured pill above it."""
    width = 58
    w, h = card_size(width)
    top = list(view.pile[-5:])
    step = 20
    row_width = w + step * max(0, len(top) - 1)
    x0, y0 = CX - row_width / 2, CY - h / 2 + 6
    if top:
        _card_row(canvas, top, x0, y0, width, step)
    else:
        panel(canvas, (CX - w / 2, y0, CX + w / 2, y0 + h), radius=7, outline=MUTED, width=2)
        draw_text(canvas, t("empty"), CX, y0 + h / 2 + 5, 13, MUTED, align="centre")
    count = tn("Pile · {n} card", "Pile · {n} cards", view.pile_size)
    draw_text(canvas, count, CX, y0 + h + 22, 14, CAPTION, align="centre")
    requirement = view.requirement or "ANY"
    colour = REQUIREMENT_COLOURS.get(requirement.split()[0], (90, 90, 90))
    shown = label(requirement_text(requirement), 20, (255, 255, 255), bold=True)
    pill = (CX - shown.width / 2 - 14, y0 - 42, CX + shown.width / 2 + 14, y0 - 12)
    panel(canvas, pill, radius=15, fill=(*colour, 255), outline=(255, 255, 255, 160), width=2)
    shown.paste(canvas, CX - shown.width / 2, y0 - 20)


def draw_ladder(
    canvas: Image.Image,
    view: Observation,
    names: Sequence[str],
    boxes: Sequence[Box],
) -> None:
    """Ladder: the pile's top cards, its size and the requirement in the
    middle (who won, once over); each seat's face-down cards with its shown
    cards on top."""
    if view.is_over:
        _status(canvas, view, names)
    else:
        _pile(canvas, view)
    small = 40
    sw, sh = card_size(small)
    for seat, box in enumerate(boxes):
        hidden = view.hidden[seat] if seat < len(view.hidden) else 0
        cards = view.shown[seat] if seat < len(view.shown) else ()
        slots = max(hidden, len(cards))
        if not slots:
            continue
        area = row_near(box, seat_side(seat, view.num_seats), sw * 3 + 16, sh + 8)
        for slot in range(slots):
            x = area.x0 + slot * (sw + 8)
            if slot < hidden:
                _paste(canvas, None, x, area.y0 + (8 if slot < len(cards) else 4), small)
            if slot < len(cards):
                _paste(canvas, cards[slot], x + 3, area.y0, small)
