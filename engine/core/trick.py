"""The trick: leader, plays so far, led suit, current winner.

Written once for every trick game.  A game supplies a ``Ranking`` that says
which suit a card belongs to (Backalley's jokers belong to trump) and how
strong it is inside its suit (Bazar Blot's explicit orders); the default is
the usual A-high order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.core.cards import Card

TRUMP_BONUS = 1000


class Ranking:
    """Card order inside a suit, with and without trump.  Override per game."""

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


STANDARD = Ranking()


@dataclass(slots=True)
class Trick:
    """A trick in progress (or complete): ``plays`` are (seat, card) in order."""

    leader: int
    plays: list[tuple[int, Card]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.plays)

    def copy(self) -> Trick:
        return Trick(self.leader, list(self.plays))

    def cards(self) -> list[Card]:
        return [c for _, c in self.plays]

    def led_suit(self, ranking: Ranking = STANDARD, trump: str | None = None) -> str | None:
        if not self.plays:
            return None
        return ranking.suit_of(self.plays[0][1], trump)

    def winning_play(
        self, ranking: Ranking = STANDARD, trump: str | None = None
    ) -> tuple[int, Card]:
        """The (seat, card) currently winning: the highest trump, else the
        highest card of the led suit (rule books, "trick winner")."""
        led = self.led_suit(ranking, trump)
        assert led is not None, "an empty trick has no winner"
        return max(self.plays, key=lambda p: ranking.power(p[1], led, trump))

    def winner(self, ranking: Ranking = STANDARD, trump: str | None = None) -> int:
        return self.winning_play(ranking, trump)[0]

    def is_ruffed(self, ranking: Ranking = STANDARD, trump: str | None = None) -> bool:
        """Led in a plain suit and a trump has been played to it."""
        led = self.led_suit(ranking, trump)
        if trump is None or led is None or led == trump:
            return False
        return any(ranking.is_trump(c, trump) for _, c in self.plays)

    def highest_of(
        self, suit: str, ranking: Ranking = STANDARD, trump: str | None = None
    ) -> Card | None:
        """The strongest card of ``suit`` played to this trick, if any."""
        cards = [c for _, c in self.plays if ranking.suit_of(c, trump) == suit]
        if not cards:
            return None
        strength = ranking.trump_power if suit == trump else ranking.plain_power
        return max(cards, key=strength)


def trick_winner(
    plays: Iterable[tuple[int, Card]], trump: str | None, ranking: Ranking = STANDARD
) -> int:
    """Seat winning a complete list of (seat, card) plays."""
    plays = list(plays)
    return Trick(plays[0][0], plays).winner(ranking, trump)
