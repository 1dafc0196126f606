"""The trick: leader, plays so far, led suit, current winner.

Written once for every trick game.  A game supplies a ``Ranking`` that says
which suit a card belongs to (Backalley's jokers belong to trump) and how
strong it is inside its suit (Bazar Blot's explicit orders); the default is
the usual A-high order.

A ``Ranking``'s methods are pure functions of (card, trump), so each ranking
keeps their answers per trump in two tables (``tables(trump)``): the follow
filters and the trick winner look a card up instead of calling methods.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from engine.core.cards import Card

TRUMP_BONUS = 1000


class _SuitTable(dict[Card, str]):
    """card -> ``ranking.suit_of(card, trump)``, filled on first use."""

    def __init__(self, ranking: Ranking, trump: str | None) -> None:
        super().__init__()
        self.ranking, self.trump = ranking, trump

    def __missing__(self, card: Card) -> str:
        suit = self[card] = self.ranking.suit_of(card, self.trump)
        return suit


class _StrengthTable(dict[Card, int]):
    """card -> its strength inside the suit it counts as: ``trump_power``
    for a trump, else ``plain_power`` (filled on first use)."""

    def __init__(self, ranking: Ranking, trump: str | None, suits: _SuitTable) -> None:
        super().__init__()
        self.ranking, self.trump, self.suits = ranking, trump, suits

    def __missing__(self, card: Card) -> int:
        if self.trump is not None and self.suits[card] == self.trump:
            value = self[card] = self.ranking.trump_power(card)
        else:
            value = self[card] = self.ranking.plain_power(card)
        return value


class CardTables(NamedTuple):
    """A ranking's answers under one trump: ``suit[card]`` (the suit it counts
    as) and ``strength[card]`` (its order inside that suit)."""

    suit: dict[Card, str]
    strength: dict[Card, int]


class Ranking:
    """Card order inside a suit, with and without trump.  Override per game."""

    def __init__(self) -> None:
        self._tables: dict[str | None, CardTables] = {}

    def suit_of(self, card: Card, trump: str | None) -> str:
        """The suit a card counts as for following, leading and winning."""
        return card.suit

    def plain_power(self, card: Card) -> int:
        return card.rank

    def trump_power(self, card: Card) -> int:
        return card.rank

    def is_trump(self, card: Card, trump: str | None) -> bool:
        return trump is not None and self.suit_of(card, trump) == trump

    def power(self, card: Card, led: str, trump: str | None) -> int:
        """Strength of ``card`` in a trick led in ``led``: trumps above the led
        suit, and any other card never wins (-1)."""
        suit = self.suit_of(card, trump)
        if trump is not None and suit == trump:
            return TRUMP_BONUS + self.trump_power(card)
        if suit == led:
            return self.plain_power(card)
        return -1

    def tables(self, trump: str | None) -> CardTables:
        """``suit_of`` and the in-suit power of every card under ``trump``,
        remembered per trump (the methods above must not depend on anything
        else)."""
        found = self._tables.get(trump)
        if found is None:
            suits = _SuitTable(self, trump)
            found = self._tables[trump] = CardTables(suits, _StrengthTable(self, trump, suits))
        return found


STANDARD = Ranking()


@dataclass(slots=True)
class Trick:
    """A trick in progress (or complete): ``plays`` are (seat, card) in order."""

    leader: int
    plays: list[tuple[int, Card]] = field(default_factory=list)
    #: the engine's mask mirror of the trick so far (``MaskTrickState``):
    #: ``(plays, count, PlayMask)``, valid while ``plays`` is that list with
    #: that many cards; never compared, copied or shown
    masks: Any = field(default=None, compare=False, repr=False)

    def __getstate__(self) -> tuple[int, list[tuple[int, Card]]]:
        """Pickled and deep-copied without the mask mirror (rebuilt on use)."""
        return self.leader, self.plays

    def __setstate__(self, state: tuple[int, list[tuple[int, Card]]]) -> None:
        self.leader, self.plays = state
        self.masks = None

    def __len__(self) -> int:
        return len(self.plays)

    def copy(self) -> Trick:
        return Trick(self.leader, list(self.plays))

    def cards(self) -> list[Card]:
        return [c for _, c in self.plays]

    def led_suit(self, ranking: Ranking = STANDARD, trump: str | None = None) -> str | None:
        if not self.plays:
            return None
        return ranking.tables(trump).suit[self.plays[0][1]]

    def winning_play(
        self, ranking: Ranking = STANDARD, trump: str | None = None
    ) -> tuple[int, Card]:
        """The (seat, card) currently winning: the highest trump, else the
        highest card of the led suit (rule books, "trick winner")."""
        assert self.plays, "an empty trick has no winner"
        suit, strength = ranking.tables(trump)
        best = self.plays[0]
        best_suit = suit[best[1]]
        for play in self.plays[1:]:
            card_suit = suit[play[1]]
            if card_suit == best_suit:
                if strength[play[1]] > strength[best[1]]:
                    best = play
            elif trump is not None and card_suit == trump:
                best, best_suit = play, card_suit  # the first trump on a plain lead
        return best

    def winner(self, ranking: Ranking = STANDARD, trump: str | None = None) -> int:
        return self.winning_play(ranking, trump)[0]

    def is_ruffed(self, ranking: Ranking = STANDARD, trump: str | None = None) -> bool:
        """Led in a plain suit and a trump has been played to it."""
        if trump is None or not self.plays:
            return False
        suit = ranking.tables(trump).suit
        if suit[self.plays[0][1]] == trump:
            return False
        return any(suit[c] == trump for _, c in self.plays)

    def highest_of(
        self, suit: str, ranking: Ranking = STANDARD, trump: str | None = None
    ) -> Card | None:
        """The strongest card of ``suit`` played to this trick, if any."""
        suits, strength = ranking.tables(trump)
        best: Card | None = None
        for _, card in self.plays:
            if suits[card] == suit and (best is None or strength[card] > strength[best]):
                best = card
        return best


def trick_winner(
    plays: Iterable[tuple[int, Card]], trump: str | None, ranking: Ranking = STANDARD
) -> int:
    """Seat winning a complete list of (seat, card) plays."""
    plays = list(plays)
    return Trick(plays[0][0], plays).winner(ranking, trump)
