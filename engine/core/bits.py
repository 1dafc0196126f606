"""Cards as bits: the card <-> bit codec of the trick games' mask core
(Callbreak, Eşli Batak, Backalley; ``engine.core.playmask``).

A hand is one ``int``: bit ``16 * slot + strength`` per card, where *slot*
is the suit the card counts as (S H D C = 0..3; the jokers' own slot 4 when
they are Backalley's only trump, rules/backalley.md "Jokers") and
*strength* orders the cards of the slot (rank - 2, so the ace is 12;
Backalley's jokers 13 (BJ) and 14 (RJ), above the ace of trump).  With this
order "the cards of a suit" is one ``and``, "the cards that beat this one"
another (``ABOVE``), and the legal cards and the trick winner are a few mask
operations (``engine.core.follow``, ``engine.core.playmask``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from engine.core.cards import JOKER_SUIT, Card, standard_deck

#: suit -> slot (jokers have their own slot only as the jokers-only trump)
SLOT: dict[str, int] = {"S": 0, "H": 1, "D": 2, "C": 3, JOKER_SUIT: 4}
#: slot -> suit letter
SUIT_OF_SLOT = ("S", "H", "D", "C", JOKER_SUIT)
SLOTS = 5
#: every bit of a slot
SUIT_MASK: tuple[int, ...] = tuple(0xFFFF << (16 * s) for s in range(SLOTS))
#: bit -> the bits of its slot strictly stronger than it (index -1: none)
ABOVE: tuple[int, ...] = tuple(SUIT_MASK[b >> 4] & ~((2 << b) - 1) for b in range(16 * SLOTS))
#: Backalley: the jokers' strength, above the ace (12) of trump
JOKER_STRENGTH = {15: 13, 16: 14}


def bits_of(mask: int) -> list[int]:
    """The set bits of ``mask``, weakest slot and strength first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True)
class Codec:
    """Cards <-> bits for one deal: its trump (Backalley's jokers belong to
    trump, or form their own slot when ``trump`` is ``"J"`` or None) and
    whether the deck has jokers.  Get one with ``codec()`` (shared)."""

    trump: str | None
    jokers: bool
    #: card -> bit index
    bit_of: dict[Card, int] = field(init=False, repr=False, compare=False)
    #: card -> ``1 << bit``
    flag_of: dict[Card, int] = field(init=False, repr=False, compare=False)
    #: bit index -> card
    card_of: dict[int, Card] = field(init=False, repr=False, compare=False)
    #: every card of the deck
    deck: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        table: dict[Card, int] = {}
        for card in standard_deck(jokers=self.jokers):
            if card.suit == JOKER_SUIT:
                slot = SLOT[self.trump] if self.trump is not None else SLOT[JOKER_SUIT]
                table[card] = 16 * slot + JOKER_STRENGTH[card.rank]
            else:
                table[card] = 16 * SLOT[card.suit] + card.rank - 2
        object.__setattr__(self, "bit_of", table)
        object.__setattr__(self, "flag_of", {c: 1 << b for c, b in table.items()})
        object.__setattr__(self, "card_of", {b: c for c, b in table.items()})
        object.__setattr__(self, "deck", sum(1 << b for b in table.values()))

    def bit(self, card: Card) -> int:
        return self.bit_of[card]

    def card(self, bit: int) -> Card:
        return self.card_of[bit]

    def mask(self, cards: Iterable[Card]) -> int:
        flags = self.flag_of
        m = 0
        for card in cards:
            m |= flags[card]
        return m

    def cards(self, mask: int) -> list[Card]:
        table = self.card_of
        return [table[b] for b in bits_of(mask)]


@cache
def codec(trump: str | None, jokers: bool = False) -> Codec:
    """The shared codec for a trump and deck."""
    return Codec(trump, jokers)
