"""World builders for the search agent: a full state consistent with one
seat's view, the unseen cards dealt at random under the known constraints."""

from __future__ import annotations

import random

from engine.ai.knowledge import known_voids, unseen_cards
from engine.ai.sampling import deal_unseen
from engine.ai.search import register_world_builder
from engine.core.cards import Card, standard_deck
from engine.core.game import MatchState
from engine.core.spec import get_game
from engine.core.view import Observation


def callbreak_world(view: Observation, rng: random.Random) -> MatchState:
    """Callbreak: other hands from the unseen cards, respecting hand counts and
    shown-out suits; a player who did not trump a plain lead while void is
    also out of spades (rules/callbreak.md, "Play")."""
    game = get_game("callbreak")
    assert view.seat is not None
    voids = known_voids(view, trump="S")
    _spade_voids_from_discards(view, voids)
    counts = {s: view.hand_counts[s] for s in range(4) if s != view.seat}
    unseen = sorted(unseen_cards(view, standard_deck()), key=lambda c: (c.suit, c.rank))
    others = deal_unseen(unseen, counts, rng, forbidden=voids)
    hands: dict[int, list[Card]] = {view.seat: list(view.hand), **others}
    state = game.position(
        hands={s: [str(c) for c in h] for s, h in hands.items()},
        trick=[(s, str(c)) for s, c in view.trick],
        to_act=view.to_act,
        bids={s: b for s, b in enumerate(view.bids)},
        tricks_won={s: t for s, t in enumerate(view.tricks_won)},
        dealer=view.dealer,
        round_number=view.round_number,
        scores=list(view.scores),
        variant=game.variant(rounds=view.round_number),
    )
    return state


def _spade_voids_from_discards(view: Observation, voids: dict[int, set[str]]) -> None:
    from engine.ai.knowledge import completed_tricks

    tricks = [*completed_tricks(view)]
    if view.trick:
        tricks.append(view.trick)
    for trick in tricks:
        led = trick[0][1].suit
        ruffed = False
        for seat, card in trick[1:]:
            if card.suit != led and card.suit != "S" and led != "S" and not ruffed:
                voids[seat].add("S")
            if card.suit == "S" and led != "S":
                ruffed = True


register_world_builder("callbreak", callbreak_world)
