"""World builders for the search agent: a full state consistent with one
seat's view, the unseen cards dealt at random under the known constraints
(hand counts, suits a player has shown out of, and the trumps a player
would have had to play)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.ai.knowledge import completed_tricks, known_voids, unseen_cards
from engine.ai.sampling import deal_unseen
from engine.ai.search import register_world_builder
from engine.core.cards import Card, standard_deck
from engine.core.game import MatchState
from engine.core.spec import get_game
from engine.core.view import Observation, Plays

DECK = standard_deck()


def trump_voids(view: Observation, trump: str, compulsory_when_ruffed: bool) -> dict[int, set[str]]:
    """Shown-out suits, plus trump for a player who was void in a plain led
    suit and did not trump although the rules made a trump compulsory (an
    unruffed trick in Callbreak; any trick in Batak)."""
    voids = known_voids(view, trump=trump)
    tricks: list[Plays] = [*completed_tricks(view)]
    if view.trick:
        tricks.append(view.trick)
    for trick in tricks:
        led = trick[0][1].suit
        ruffed = False
        for seat, card in trick[1:]:
            off = card.suit not in (led, trump)
            if off and led != trump and (compulsory_when_ruffed or not ruffed):
                voids[seat].add(trump)
            ruffed = ruffed or (card.suit == trump and led != trump)
    return voids


def sample_hands(
    view: Observation,
    known: dict[int, Sequence[Card]],
    voids: dict[int, set[str]],
    rng: random.Random,
) -> dict[int, list[str]]:
    """Every seat's hand: ``known`` ones as they are, the rest sampled."""
    counts = {s: view.hand_counts[s] for s in range(view.num_seats) if s not in known}
    unseen = sorted(unseen_cards(view, DECK), key=lambda c: (c.suit, c.rank))
    sampled = deal_unseen(unseen, counts, rng, forbidden=voids)
    hands = {**{s: list(h) for s, h in known.items()}, **sampled}
    return {s: [str(c) for c in h] for s, h in hands.items()}


def _trick(view: Observation) -> list[tuple[int, str]]:
    return [(s, str(c)) for s, c in view.trick]


def callbreak_world(view: Observation, rng: random.Random) -> MatchState:
    """Callbreak (rules/callbreak.md "Play": void and unruffed -> a spade)."""
    game = get_game("callbreak")
    assert view.seat is not None
    voids = trump_voids(view, "S", compulsory_when_ruffed=False)
    return game.position(
        hands=sample_hands(view, {view.seat: view.hand}, voids, rng),
        trick=_trick(view),
        to_act=view.to_act,
        bids=dict(enumerate(view.bids)),
        tricks_won=dict(enumerate(view.tricks_won)),
        dealer=view.dealer,
        round_number=view.round_number,
        scores=list(view.scores),
        variant=game.variant(rounds=view.round_number),
    )


def batak_world(view: Observation, rng: random.Random) -> MatchState:
    """Eşli Batak: the seat's own hand and the face-up dummy are known; a
    trump is compulsory whenever a player is void (rules/batak.md "Play")."""
    game = get_game("batak")
    assert view.seat is not None and view.trump is not None and view.dummy_seat is not None
    known: dict[int, Sequence[Card]] = {view.seat: view.hand, view.dummy_seat: view.dummy or ()}
    voids = trump_voids(view, view.trump, compulsory_when_ruffed=True)
    return game.position(
        hands=sample_hands(view, known, voids, rng),
        trick=_trick(view),
        to_act=view.to_act,
        trump=view.trump,
        declarer=view.declarer,
        contract=view.contract,
        trump_broken=view.extra.get("trump_broken", False),
        first_bidder=view.extra.get("first_bidder", 0),
        tricks_won=dict(enumerate(view.tricks_won)),
        scores=list(view.scores),
    )


def backalley_world(view: Observation, rng: random.Random) -> MatchState:
    """Backalley: other hands from the unseen cards (the stock takes the
    rest); following is never forced beyond suit, so only shown-out suits
    constrain the deal (rules/backalley.md "Play")."""
    from engine.games.backalley.rules import JOKER_RANKING

    game = get_game("backalley")
    assert view.seat is not None
    voids = known_voids(view, JOKER_RANKING, view.trump)
    counts = {s: view.hand_counts[s] for s in range(view.num_seats) if s != view.seat}
    deck = standard_deck(jokers=True)
    unseen = sorted(unseen_cards(view, deck) - set(view.extra.get("set_aside", ())), key=str)
    sampled = deal_unseen(
        unseen, counts, rng, forbidden=voids, suit_of=lambda c: JOKER_RANKING.suit_of(c, view.trump)
    )
    hands = {
        view.seat: [str(c) for c in view.hand],
        **{s: [str(c) for c in h] for s, h in sampled.items()},
    }
    bids = {
        s: ("backalley" if s in view.extra.get("backalley", ()) else b)
        for s, b in enumerate(view.bids)
    }
    return game.position(
        hands=hands,
        trick=_trick(view),
        to_act=view.to_act,
        trump=view.trump,
        hand_size=view.hand_size,
        bids=bids,
        tricks_won=dict(enumerate(view.tricks_won)),
        trump_broken=view.extra.get("trump_broken", False),
        dealer=view.dealer,
        scores=list(view.scores),
        variant=game.variant(players=view.num_seats, max_cards=13),
    )


register_world_builder("callbreak", callbreak_world)
register_world_builder("backalley", backalley_world)
register_world_builder("batak", batak_world)
