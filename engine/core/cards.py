"""Cards, decks and their notation.

Notation (DESIGN.md): rank ``2-9 T J Q K A`` then suit ``S H D C``; jokers are
``RJ`` (coloured, highest) and ``BJ`` (mono).  A ``Card`` is an immutable,
hashable named tuple so that hands, sets and dict keys stay cheap in search.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
JOKER_SUIT = "J"
SUIT_NAMES: dict[str, str] = {
    "S": "spades",
    "H": "hearts",
    "D": "diamonds",
    "C": "clubs",
    "J": "jokers",
    "NT": "no trump",
}
SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "J": "🃏"}
RANK_CHARS = "23456789TJQKA"
RANK_OF_CHAR: dict[str, int] = {ch: i + 2 for i, ch in enumerate(RANK_CHARS)}
CHAR_OF_RANK: dict[int, str] = {v: k for k, v in RANK_OF_CHAR.items()}
RANK_NAMES: dict[int, str] = {
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
    10: "ten",
}
#: Joker ranks sit above the ace so that a plain rank comparison orders them.
BLACK_JOKER_RANK = 15
RED_JOKER_RANK = 16


class Card(NamedTuple):
    """A playing card: ``rank`` 2..14 (A = 14; jokers 15/16) and ``suit``."""

    rank: int
    suit: str

    def __str__(self) -> str:
        text = CARD_TEXT.get(self)
        if text is not None:
            return text
        if self.suit == JOKER_SUIT:
            return "RJ" if self.rank == RED_JOKER_RANK else "BJ"
        return CHAR_OF_RANK[self.rank] + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        """Immutable: a copy of a state shares its cards (``MatchState.clone``)."""
        return self

    @property
    def is_joker(self) -> bool:
        return self.suit == JOKER_SUIT

    @staticmethod
    def parse(text: str) -> Card:
        """Parse ``AS``, ``as``, ``10h``, ``th``, ``RJ`` (surrounding ASCII
        whitespace ignored); raise ValueError otherwise -- also for non-text
        and for look-alike letters (``Aſ`` is not ``AS``)."""
        card = None
        if isinstance(text, str) and text.isascii():
            card = _PARSE_CACHE.get(text.strip(" \t\r\n").upper())
        if card is None:
            shown = repr(text) if len(repr(text)) <= 20 else repr(text)[:16] + "..."
            raise ValueError(f"{shown} is not a card (examples: AS, 10H, 7d, RJ)")
        return card


RED_JOKER = Card(RED_JOKER_RANK, JOKER_SUIT)
BLACK_JOKER = Card(BLACK_JOKER_RANK, JOKER_SUIT)

_PARSE_CACHE: dict[str, Card] = {"RJ": RED_JOKER, "BJ": BLACK_JOKER}
for _s in SUITS:
    for _r, _ch in CHAR_OF_RANK.items():
        _PARSE_CACHE[_ch + _s] = Card(_r, _s)
    _PARSE_CACHE["10" + _s] = Card(10, _s)
_VALID = frozenset(_PARSE_CACHE.values())
#: card -> its notation (``AS``, ``TH``, ``RJ``): hot paths (events, action
#: text) look it up instead of formatting it
CARD_TEXT: dict[Card, str] = {
    card: text for text, card in _PARSE_CACHE.items() if not text.startswith("10")
}


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse a space- or comma-separated card list (or an iterable of card
    texts or Cards); ValueError names the first thing that is not a card."""
    if isinstance(text, str):
        parts: list[Any] = text.replace(",", " ").split()
    elif isinstance(text, Iterable) and not isinstance(text, bytes | bytearray | Mapping):
        parts = list(text)
    else:
        raise ValueError(f"expected a list of cards, got {type(text).__name__}")
    return [c if type(c) is Card and c in _VALID else Card.parse(c) for c in parts]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def standard_deck(min_rank: int = 2, jokers: bool = False) -> list[Card]:
    """A full deck in notation order (suits S H D C, ranks high to low).

    ``min_rank=7`` gives the 32-card Blot deck; ``jokers=True`` adds RJ and BJ
    (Backalley's 54 cards).  Built once per kind; each call returns a new list
    (callers shuffle it).
    """
    deck = _DECKS.get((min_rank, jokers))
    if deck is None:
        cards = [Card(r, s) for s in SUITS for r in range(14, min_rank - 1, -1)]
        deck = _DECKS[(min_rank, jokers)] = (
            (RED_JOKER, BLACK_JOKER, *cards) if jokers else tuple(cards)
        )
    return list(deck)


_DECKS: dict[tuple[int, bool], tuple[Card, ...]] = {}


def sort_hand(cards: Iterable[Card], suit_order: Sequence[str] = SUITS) -> list[Card]:
    """Sort for display: jokers first, then by suit in ``suit_order``, high to low."""
    order = {s: i for i, s in enumerate((JOKER_SUIT, *suit_order))}
    return sorted(cards, key=lambda c: (order.get(c.suit, 99), -c.rank))


def pretty(card: Card) -> str:
    """Human-friendly text with a suit symbol: ``A♠``, ``10♥``, ``RJ``."""
    if card.is_joker:
        return str(card)
    rank = "10" if card.rank == 10 else CHAR_OF_RANK[card.rank]
    return rank + SUIT_SYMBOLS[card.suit]
