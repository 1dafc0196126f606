"""The table as a picture for the public channel (Pillow, 960x640 palette PNG).

Drawn only from the spectator view (``state.view(None)``), so it shows
nothing a channel may not see: the header names the game, the deal, trump,
the contract and the team scores; seat boxes around the table carry each
player's name, bid, tricks, cards in hand and score; the middle shows the
trick (or the last one, dimmed), Batak's dummy, Ladder's pile and tableaus
and Blot's declarations.

Text goes through ``picture_fonts`` (shipped Noto fonts with per-character
fallback: Turkish, Armenian, Devanagari and colour emoji names render with
real glyphs); geometry is in ``picture_layout``, the wording in
``picture_facts``.  Measured by ``bench/render_speed.py`` (docs/benchmarks.md,
"Table picture"): the background, card faces and labels are cached.  The
PNG has a palette of 256 colours whose first ones are the background's own
(``picture_png.encode_palette_png``): about 20 KiB instead of 100 for
truecolour, with the felt and text unchanged.  A channel uploads at most one
picture a second, so size matters more than the encoder's 30 ms (spent in
a worker thread).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from PIL import Image, ImageDraw

from bot.i18n import t, tn, tp
from bot.i18n.terms import game_title
from bot.render.picture.cards import card_image, suit_colour
from bot.render.picture.facts import (
    TEAM_COLOURS,
    contract_text,
    deal_text,
    phase_text,
    score_text,
)
from bot.render.picture.layout import HEADER, HEIGHT, WIDTH, name_slots, seat_boxes
from bot.render.picture.middle import draw_declarations, draw_dummy, draw_ladder, draw_trick
from bot.render.picture.png import encode_palette_png
from bot.render.picture.seats import draw_seat
from bot.render.picture.tiles import panel
from bot.render.picture.typefaces import draw_text, fit_text, label
from engine import Observation, get_game
from engine.core.cards import SUIT_SYMBOLS

__all__ = ["HEIGHT", "WIDTH", "render_table_image", "render_table_png"]

ROOM = (16, 34, 26)
HEADER_FILL = (9, 24, 17)
RAIL = (84, 52, 30)
FELT_EDGE = (22, 92, 54)
FELT_MIDDLE = (40, 128, 76)
TITLE = (246, 248, 244)
INFO = (186, 212, 196)


@cache
def _background() -> Image.Image:
    """Room, wooden rail and felt with a soft light in the middle; drawn once."""
    image = Image.new("RGB", (WIDTH, HEIGHT), ROOM)
    draw = ImageDraw.Draw(image)
    table = (26, HEADER + 22, WIDTH - 26, HEIGHT - 16)
    draw.rounded_rectangle(table, radius=150, fill=RAIL)
    inner = (table[0] + 12, table[1] + 12, table[2] - 12, table[3] - 12)
    size = (inner[2] - inner[0], inner[3] - inner[1])
    light = Image.radial_gradient("L").resize(size)
    felt = Image.composite(
        Image.new("RGB", size, FELT_EDGE), Image.new("RGB", size, FELT_MIDDLE), light
    )
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), radius=140, fill=255)
    image.paste(felt, inner[:2], mask)
    draw.rectangle((0, 0, WIDTH, HEADER), fill=HEADER_FILL)
    draw.line((0, HEADER, WIDTH, HEADER), fill=(60, 96, 74), width=2)
    return image


@cache
def _background_colours() -> tuple[tuple[int, int, int], ...]:
    """The background's colours (about 70), first in every picture's palette."""
    return tuple(colour for _, colour in _background().getcolors(128) or [])


def _seat_names(view: Observation, names: Sequence[str]) -> list[str]:
    """One line per seat: whitespace runs (newlines too) become one space;
    a missing or blank name becomes "Seat n"."""
    cleaned = [" ".join(str(name).split()) for name in names]
    return [
        cleaned[s] if s < len(cleaned) and cleaned[s] else t("Seat {seat}", seat=s + 1)
        for s in range(view.num_seats)
    ]


def _trump_chip(canvas: Image.Image, view: Observation, right: float) -> float:
    """A white tile with the trump symbol; returns its left edge."""
    if view.trump is None and view.contract is None:
        return right
    x0, x1 = right - 54, right
    panel(canvas, (x0, 8, x1, HEADER - 8), radius=8, fill=(248, 248, 242))
    # i18n: the caption of the trump chip on the picture (tiny: a short word, capitals)
    caption = tp("picture", "TRUMP")
    draw_text(canvas, caption, (x0 + x1) / 2, 21, 10, (110, 110, 110), bold=True, align="centre")
    if view.trump in ("S", "H", "D", "C"):
        symbol = label(SUIT_SYMBOLS[view.trump], 26, suit_colour(view.trump))
        box = symbol.image.getbbox() or (0, 0, symbol.image.width, symbol.image.height)
        canvas.paste(
            symbol.image,
            (round((x0 + x1) / 2 - (box[0] + box[2]) / 2), round(37 - (box[1] + box[3]) / 2) + 4),
            symbol.image,
        )
    else:
        text = "—" if view.trump is None and view.phase != "play" else tp("picture", "NT")
        draw_text(canvas, text, (x0 + x1) / 2, 48, 18, (40, 40, 40), bold=True, align="centre")
    return x0 - 10


def _turned_card(canvas: Image.Image, view: Observation, right: float) -> float:
    """Backalley's turned card (it named trump), small, with its caption."""
    if view.turned is None:
        return right
    picture = card_image(view.turned, 34)
    x = right - picture.width
    canvas.paste(picture, (round(x), 8), picture)
    # i18n: caption of Backalley's turned card on the picture
    draw_text(canvas, t("turned"), x - 6, 40, 12, INFO, align="right")
    return x - 58


def _leader(
    canvas: Image.Image,
    view: Observation,
    names: Sequence[str],
    right: float,
) -> float:
    """Individual games: who leads and by how much (every score is in its
    seat box); nothing while all scores are level."""
    if view.teams or len(set(view.scores)) < 2:
        return right
    best = max(range(len(view.scores)), key=lambda s: view.scores[s])
    x0 = right - 190
    panel(
        canvas,
        (x0, 8, right, HEADER - 8),
        radius=9,
        fill=(24, 48, 36),
        outline=(214, 182, 92, 255),
        width=2,
    )
    caption = t("Winner") if view.is_over else t("Leader")
    draw_text(
        canvas,
        f"{caption} · {score_text(view.scores[best], view.score_unit)}",
        x0 + 10,
        27,
        13,
        INFO,
    )
    draw_text(canvas, names[best], x0 + 10, 50, 17, TITLE, bold=True, max_width=170, min_size=11)
    return x0 - 8


def _team_scores(
    canvas: Image.Image,
    view: Observation,
    names: Sequence[str],
    right: float,
) -> float:
    """One chip per team, coloured like the stripes on its seat boxes."""
    if not view.teams or not view.scores:
        return right
    for team in reversed(range(len(view.teams))):
        members = view.teams[team]
        x0 = right - 168
        colour = TEAM_COLOURS[team % len(TEAM_COLOURS)]
        panel(
            canvas,
            (x0, 8, right, HEADER - 8),
            radius=9,
            fill=(24, 48, 36),
            outline=(*colour, 255),
            width=2,
        )
        who = " & ".join(names[s] for s in members)
        draw_text(canvas, who, x0 + 10, 27, 13, INFO, max_width=150, min_size=11)
        score = score_text(view.scores[team], view.score_unit) if team < len(view.scores) else ""
        draw_text(canvas, score, x0 + 10, 50, 19, TITLE, bold=True)
        right = x0 - 8
    return right


def _header(
    canvas: Image.Image,
    view: Observation,
    names: Sequence[str],
    title: str,
) -> None:
    right = float(WIDTH - 10)
    right = _trump_chip(canvas, view, right)
    right = _turned_card(canvas, view, right)
    right = _team_scores(canvas, view, names, right)
    right = _leader(canvas, view, names, right)
    room = right - 16 - 8
    heading = title or game_title(view.game, get_game(view.game).title)
    draw_text(canvas, heading, 16, 29, 22, TITLE, bold=True, max_width=room, min_size=14)
    parts = [deal_text(view)]
    phase = phase_text(view)
    if phase:
        parts.append(phase)
    if view.hand_size is not None:
        parts.append(tn("{n} card each", "{n} cards each", view.hand_size))
    if view.contract is not None:
        if view.declarer is not None:
            contract = t(
                "Contract {contract} by {name}",
                contract=contract_text(view.contract),
                name=_short(names[view.declarer], 130),
            )
        else:
            contract = t("Contract {contract}", contract=contract_text(view.contract))
        parts.append(contract)
    draw_text(canvas, " · ".join(parts), 16, 54, 15, INFO, max_width=room, min_size=11)


def _short(name: str, width: float) -> str:
    text, _ = fit_text(name, width, 15, 15)
    return text


def render_table_png(
    view: Observation,
    names: Sequence[str],
    *,
    away: Sequence[bool] = (),
    title: str = "",
) -> bytes:
    """The table as a PNG for the channel; ``view`` must be the spectator's.

    ``names`` are the players' display names by seat, ``away`` marks seats
    whose player is away, ``title`` replaces the game's name in the header
    (e.g. "Callbreak — table #12").
    """
    canvas = render_table_image(view, names, away=away, title=title)
    return encode_palette_png(canvas, _background_colours())


def render_table_image(
    view: Observation,
    names: Sequence[str],
    *,
    away: Sequence[bool] = (),
    title: str = "",
) -> Image.Image:
    """The table picture in full colour (``render_table_png`` encodes it)."""
    assert view.seat is None, "pictures for the channel render the spectator view"
    canvas = _background().copy()
    seat_names = _seat_names(view, names)
    _header(canvas, view, seat_names, title)
    boxes = seat_boxes(view.num_seats)
    if view.requirement is not None:
        draw_ladder(canvas, view, seat_names, boxes)
    else:
        draw_trick(canvas, view, seat_names)
    draw_dummy(canvas, view, seat_names, boxes)
    draw_declarations(canvas, view, seat_names)
    for seat, slot in enumerate(name_slots(seat_names, view.num_seats)):
        draw_seat(canvas, view, seat, boxes[seat], slot, away)
    return canvas
