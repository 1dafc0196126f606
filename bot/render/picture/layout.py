"""Where things go on the table picture: pure geometry, no drawing.

Seats sit on an ellipse whose radii are the free room minus half a seat box,
so every box lies inside the canvas by construction for 2..8 seats (Backalley
seats up to eight); names are then fitted *into* their box (shrunk, then
ellipsized), so no name is ever cut by the canvas edge.  The tests assert
both on ``name_slots`` with 40-character names.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.render.picture.typefaces import fit_text, text_width

WIDTH, HEIGHT = 960, 640
HEADER = 66
MARGIN = 8
#: middle of the table area (below the header)
CX, CY = WIDTH / 2, (HEADER + HEIGHT) / 2
NAME_SIZE, NAME_MIN = 18, 12
PAD = 10
#: room kept at a name's right for the dealer chip
CHIP = 22


@dataclass(frozen=True, slots=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2

    def inside(self, other: Box) -> bool:
        return (
            self.x0 >= other.x0
            and self.y0 >= other.y0
            and self.x1 <= other.x1
            and self.y1 <= other.y1
        )

    def overlaps(self, other: Box) -> bool:
        return not (
            self.x1 <= other.x0 or other.x1 <= self.x0 or self.y1 <= other.y0 or other.y1 <= self.y0
        )

    def as_tuple(self) -> tuple[int, int, int, int]:
        return round(self.x0), round(self.y0), round(self.x1), round(self.y1)


CANVAS = Box(0, 0, WIDTH, HEIGHT)


def seat_box_size(seats: int) -> tuple[int, int]:
    """Narrower boxes for crowded tables, so neighbours never touch."""
    return (224 if seats <= 4 else 200 if seats <= 6 else 184), 74


def seat_angle(seat: int, seats: int) -> float:
    """Seat 0 at the bottom, the others following clockwise on screen."""
    return math.pi / 2 + 2 * math.pi * seat / seats


def seat_direction(seat: int, seats: int) -> tuple[float, float]:
    """Unit vector from the table's middle towards the seat."""
    angle = seat_angle(seat, seats)
    return math.cos(angle), math.sin(angle)


def seat_side(seat: int, seats: int) -> str:
    """ "bottom", "top", "left" or "right": which edge the seat is nearest."""
    dx, dy = seat_direction(seat, seats)
    if abs(dy) >= 0.7:
        return "bottom" if dy > 0 else "top"
    return "right" if dx > 0 else "left"


def seat_boxes(seats: int) -> list[Box]:
    w, h = seat_box_size(seats)
    rx = WIDTH / 2 - w / 2 - MARGIN
    ry = (HEIGHT - HEADER) / 2 - h / 2 - MARGIN
    boxes = []
    for seat in range(seats):
        dx, dy = seat_direction(seat, seats)
        x, y = CX + dx * rx, CY + dy * ry
        boxes.append(Box(x - w / 2, y - h / 2, x + w / 2, y + h / 2))
    return boxes


@dataclass(frozen=True, slots=True)
class NameSlot:
    """A fitted name: the text drawn (maybe ellipsized), its size, its box."""

    text: str
    size: int
    box: Box
    baseline: float


def name_slot(name: str, seat_box: Box) -> NameSlot:
    """Fit ``name`` into the first line of its seat box."""
    room = seat_box.width - 2 * PAD - CHIP
    text, size = fit_text(name or "?", room, NAME_SIZE, NAME_MIN, bold=True)
    width = text_width(text, size, bold=True)
    baseline = seat_box.y0 + 8 + NAME_SIZE
    box = Box(seat_box.x0 + PAD, baseline - size, seat_box.x0 + PAD + width, baseline + size * 0.3)
    return NameSlot(text, size, box, baseline)


def name_slots(names: list[str], seats: int) -> list[NameSlot]:
    """Every seat's fitted name; what the picture draws and the tests check."""
    boxes = seat_boxes(seats)
    return [
        name_slot(names[s] if s < len(names) else f"Seat {s + 1}", boxes[s]) for s in range(seats)
    ]


def trick_spot(seat: int, seats: int, card_w: int, card_h: int) -> tuple[int, int]:
    """Top-left of the card a seat played to the trick: towards that seat
    from the middle, on an ellipse small enough for eight cards."""
    dx, dy = seat_direction(seat, seats)
    rx = 82 if seats <= 4 else 150 if seats <= 6 else 180
    ry = 58 if seats <= 4 else 100 if seats <= 6 else 112
    return round(CX + dx * rx - card_w / 2), round(CY + dy * ry - card_h / 2)


def row_near(seat_box: Box, side: str, width: float, height: float, gap: float = 6) -> Box:
    """A ``width`` x ``height`` strip beside a seat box on the table's side
    (below a top seat, above the others), kept inside the canvas."""
    y0 = seat_box.y1 + gap if side == "top" else seat_box.y0 - gap - height
    cx = seat_box.centre[0]
    if side == "left":
        x0 = seat_box.x0
    elif side == "right":
        x0 = seat_box.x1 - width
    else:
        x0 = cx - width / 2
    x0 = min(max(x0, MARGIN), WIDTH - MARGIN - width)
    return Box(x0, y0, x0 + width, y0 + height)
