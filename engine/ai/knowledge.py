"""What a seat can infer from its own view: cards still unseen, tricks of
this deal, suits a player has shown out of.  Shared by the trick-game
heuristics; every input is an ``Observation``, never the full state."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.core.cards import Card
from engine.core.trick import STANDARD, Ranking
from engine.core.view import Observation, Plays


def completed_tricks(view: Observation) -> list[Plays]:
    """This deal's finished tricks, rebuilt from the public ``played`` list."""
    done = view.played[: len(view.played) - len(view.trick)]
    size = view.num_seats
    return [tuple(done[i : i + size]) for i in range(0, len(done), size)]


def unseen_cards(view: Observation, deck: Iterable[Card]) -> set[Card]:
    """Cards of the deck this seat has not seen: in other hands (or out of play)."""
    return set(deck) - view.visible_cards()


def known_voids(
    view: Observation, ranking: Ranking = STANDARD, trump: str | None = None
) -> dict[int, set[str]]:
    """Seat -> suits it has shown out of this deal (it did not follow the led suit)."""
    voids: dict[int, set[str]] = {s: set() for s in range(view.num_seats)}
    tricks: list[Sequence[tuple[int, Card]]] = [*completed_tricks(view)]
    if view.trick:
        tricks.append(view.trick)
    for trick in tricks:
        led = ranking.suit_of(trick[0][1], trump)
        for seat, card in trick[1:]:
            if ranking.suit_of(card, trump) != led:
                voids[seat].add(led)
    return voids


def is_master(
    card: Card, unseen: set[Card], ranking: Ranking = STANDARD, trump: str | None = None
) -> bool:
    """No unseen card of the same suit is stronger (it wins if the suit is followed)."""
    suit = ranking.suit_of(card, trump)
    strength = ranking.trump_power if suit == trump else ranking.plain_power
    mine = strength(card)
    return not any(ranking.suit_of(c, trump) == suit and strength(c) > mine for c in unseen)
