"""World builders for the search agent: a full state consistent with one
seat's view, the unseen cards dealt at random under the known constraints
(hand counts, suits a player has shown out of, and the trumps a player
would have had to play), plus each game's search wiring (``SearchGame``)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, cast

from engine.ai import auctions as _auctions  # noqa: F401  (registers the auction bidders)
from engine.ai.bidding import BIDDERS
from engine.ai.heuristics.trickplay import CONTEXTS, PlayContext
from engine.ai.knowledge import (
    TrumpDuty,
    cards_not_held,
    completed_tricks,
    equivalence_classes,
    inferred_voids,
    unseen_cards,
)
from engine.ai.playouts import TrickPlayouts
from engine.ai.rollout import TrickRollout, public_cards, suits_led
from engine.ai.sampling import UnseenDealer
from engine.ai.search import Playouts, SearchGame, WorldBuilder, deal_value, register_search
from engine.ai.solver import Solver
from engine.core.actions import Action
from engine.core.cards import Card, standard_deck
from engine.core.game import MatchState
from engine.core.playmask import TrickRules
from engine.core.registry import get_game
from engine.core.view import Observation
from engine.games.batak.rules import play_rules as batak_rules
from engine.games.callbreak.rules import play_rules as callbreak_rules

DECK = standard_deck()
Classes = Callable[[Observation, list[Action]], list[list[Action]]]


def trump_voids(view: Observation, rules: TrickRules) -> dict[int, set[str]]:
    """Shown-out suits, plus trump for a player who was void in a plain led
    suit and did not trump although the rules made a trump compulsory (an
    unruffed trick in Callbreak; any trick in Batak: ``rules.trump_duty``)."""
    duty = cast(TrumpDuty, rules.trump_duty)
    return inferred_voids(view, trump=rules.trump_suit, duty=duty)


#: (seat, the cards it was dealt as far as this world says) -> how far its
#: bid is from what such a hand bids (0 = exactly what the heuristic bids)
BidMisfit = Callable[[int, list[Card]], float]


class HandDealer:
    """Deals the hidden hands of one view, again and again (one call per
    world): the unseen cards, the counts and the constraints are worked out
    once.  ``known`` hands are not dealt.  With ``misfit``, the bids are
    evidence too: of ``tries`` deals, the one whose hands best explain the
    bids (sum of squared misfits; the first on ties) is kept.  ``missing``:
    cards a seat cannot hold; ``held``: cards it is known to hold although
    others have not seen them in play (shown declarations, the other half
    of an announced belote)."""

    def __init__(
        self,
        view: Observation,
        known: dict[int, Sequence[Card]],
        voids: dict[int, set[str]],
        misfit: BidMisfit | None = None,
        tries: int = 8,
        *,
        deck: Sequence[Card] = DECK,
        missing: dict[int, set[Card]] | None = None,
        held: dict[int, set[Card]] | None = None,
        suit_of: Callable[[Card], str] | None = None,
        unseen: Sequence[Card] | None = None,
    ) -> None:
        self.counts = {s: view.hand_counts[s] for s in range(view.num_seats) if s not in known}
        if unseen is None:
            unseen = sorted(
                unseen_cards(view, deck) | _shown_held(held), key=lambda c: (c.suit, c.rank)
            )
        self.unseen = list(unseen)
        self.played: dict[int, list[Card]] = {s: [] for s in range(view.num_seats)}
        for seat, card in view.played:
            self.played[seat].append(card)
        self.misfit = misfit
        self.tries = tries
        extra: dict[str, Any] = {} if suit_of is None else {"suit_of": suit_of}
        self.deal = UnseenDealer(
            self.unseen,
            self.counts,
            forbidden=voids,
            required=held,
            forbidden_cards=missing,
            **extra,
        )

    def __call__(self, rng: random.Random) -> dict[int, list[Card]]:
        best: dict[int, list[Card]] | None = None
        best_fit = float("inf")
        for _ in range(self.tries if self.misfit is not None else 1):
            sampled = self.deal(rng)
            if self.misfit is None:
                return sampled
            fit = sum(self.misfit(s, h + self.played[s]) ** 2 for s, h in sampled.items())
            if fit < best_fit:
                best, best_fit = sampled, fit
        assert best is not None
        return best


def sample_hands(
    view: Observation,
    known: dict[int, Sequence[Card]],
    voids: dict[int, set[str]],
    rng: random.Random,
    misfit: BidMisfit | None = None,
    tries: int = 8,
    *,
    deck: Sequence[Card] = DECK,
    missing: dict[int, set[Card]] | None = None,
    held: dict[int, set[Card]] | None = None,
) -> dict[int, list[str]]:
    """Every seat's hand as card texts: ``known`` ones as they are, the rest
    sampled (``HandDealer``, for one world)."""
    dealer = HandDealer(view, known, voids, misfit, tries, deck=deck, missing=missing, held=held)
    hands = {**{s: list(h) for s, h in known.items()}, **dealer(rng)}
    return {s: [str(c) for c in h] for s, h in hands.items()}


def _shown_held(held: dict[int, set[Card]] | None) -> set[Card]:
    return {c for cards in (held or {}).values() for c in cards}


def _trick(view: Observation) -> list[tuple[int, str]]:
    return [(s, str(c)) for s, c in view.trick]


def callbreak_dealer(view: Observation) -> HandDealer:
    """Callbreak's hidden hands: void and unruffed -> a spade was due
    (rules/callbreak.md "Play"); hands that explain the bids preferred."""
    from engine.ai.heuristics.callbreak import estimate_tricks

    assert view.seat is not None
    voids = trump_voids(view, callbreak_rules("S"))

    def misfit(seat: int, dealt: list[Card]) -> float:
        bid = view.bids[seat]
        return 0.0 if bid is None else estimate_tricks(dealt) - bid

    missing = cards_not_held(view, DECK, trump="S", duty="heading")
    return HandDealer(view, {view.seat: view.hand}, voids, misfit, missing=missing)


def callbreak_world(view: Observation, rng: random.Random) -> MatchState:
    """Callbreak as a ``MatchState`` (``callbreak_dealer``)."""
    game = get_game("callbreak")
    assert view.seat is not None
    hands = {view.seat: list(view.hand), **callbreak_dealer(view)(rng)}
    return game.position(
        hands=_texts(hands),
        trick=_trick(view),
        to_act=view.to_act,
        bids=dict(enumerate(view.bids)),
        tricks_won=dict(enumerate(view.tricks_won)),
        dealer=view.dealer,
        round_number=view.round_number,
        scores=list(view.scores),
        variant=game.variant(rounds=view.round_number),
    )


def batak_dealer(view: Observation) -> HandDealer:
    """Eşli Batak's hidden hands: the seat's own hand and the face-up dummy
    are known; a trump is compulsory whenever a player is void
    (rules/batak.md "Play")."""
    assert view.seat is not None and view.trump is not None and view.dummy_seat is not None
    known: dict[int, Sequence[Card]] = {view.seat: view.hand, view.dummy_seat: view.dummy or ()}
    voids = trump_voids(view, batak_rules(view.trump))
    missing = cards_not_held(view, DECK, trump=view.trump, duty="heading")
    return HandDealer(view, known, voids, missing=missing)


def batak_world(view: Observation, rng: random.Random) -> MatchState:
    """Eşli Batak as a ``MatchState`` (``batak_dealer``)."""
    game = get_game("batak")
    assert view.seat is not None and view.dummy_seat is not None
    hands = {view.seat: list(view.hand), view.dummy_seat: list(view.dummy or ())}
    hands.update(batak_dealer(view)(rng))
    return game.position(
        hands=_texts(hands),
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


def backalley_dealer(view: Observation) -> HandDealer:
    """Backalley's other hands from the unseen cards (the stock takes the
    rest); following is never forced beyond suit, so only shown-out suits
    constrain the deal (rules/backalley.md "Play")."""
    from engine.games.backalley.rules import JOKER_RANKING

    assert view.seat is not None
    voids = inferred_voids(view, JOKER_RANKING, view.trump)
    deck = standard_deck(jokers=True)
    unseen = sorted(unseen_cards(view, deck) - set(view.extra.get("set_aside", ())), key=str)
    return HandDealer(
        view,
        {view.seat: view.hand},
        voids,
        unseen=unseen,
        suit_of=lambda c: JOKER_RANKING.suit_of(c, view.trump),
    )


def backalley_world(view: Observation, rng: random.Random) -> MatchState:
    """Backalley as a ``MatchState`` (``backalley_dealer``)."""
    game = get_game("backalley")
    assert view.seat is not None
    hands = {view.seat: list(view.hand), **backalley_dealer(view)(rng)}
    bids = {
        s: ("backalley" if s in view.extra.get("backalley", ()) else b)
        for s, b in enumerate(view.bids)
    }
    return game.position(
        hands=_texts(hands),
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


def _texts(hands: dict[int, list[Card]]) -> dict[int, list[str]]:
    return {s: [str(c) for c in h] for s, h in hands.items()}


def blot_evidence(view: Observation) -> tuple[dict[int, set[Card]], dict[int, set[Card]]]:
    """(held, missing) for Bazar Blot: the unplayed cards of shown
    declarations are in their owner's hand, so is the other half of an
    announced belote; a player who played the trump K or Q without
    announcing belote was not dealt the other one; and a lower trump (or no
    trump) where a higher one was due means none is held (rules/blot.md
    "Declarations", "Play")."""
    from engine.games.blot.cards import BLOT_RANKING, blot_deck

    played = {c for _, c in view.played}
    held: dict[int, set[Card]] = {s: set() for s in range(4)}
    belote = {s for s, text, cards in view.declarations if not cards and "belote" in text}
    for seat, _, cards in view.declarations:
        held[seat].update(c for c in cards if c not in played)
    missing = cards_not_held(view, blot_deck(), BLOT_RANKING, view.trump, "blot")
    if view.trump is not None:
        pair = {Card(13, view.trump), Card(12, view.trump)}
        for seat, card in view.played:
            if card in pair:
                (other,) = pair - {card}
                if seat in belote and other not in played:
                    held[seat].add(other)
                elif seat not in belote:
                    missing[seat].add(other)
    if view.seat is not None:
        held.pop(view.seat, None)
    return held, missing


def blot_world(view: Observation, rng: random.Random) -> MatchState:
    """Bazar Blot: the contract, card points so far, the shown declarations
    and belotes carried over; hidden hands sampled under ``blot_evidence``
    and the suits players showed out of (a void player who did not trump
    while an opponent was winning holds no trump)."""
    from engine.games.blot.cards import BLOT_RANKING, blot_deck
    from engine.games.blot.declarations import Declaration

    game = get_game("blot")
    assert view.seat is not None and view.contract is not None
    voids = inferred_voids(view, BLOT_RANKING, view.trump, "blot")
    held, missing = blot_evidence(view)
    hands = sample_hands(
        view, {view.seat: view.hand}, voids, rng, deck=blot_deck(), missing=missing, held=held
    )
    world = game.position(
        hands=hands,
        trick=_trick(view),
        to_act=view.to_act,
        contract=view.contract,
        declarer=view.declarer,
        dealer=view.dealer,
        scores=list(view.scores),
        tricks_won=dict(enumerate(view.tricks_won)),
        points_won=list(view.extra.get("card_points", (0, 0))),
    )
    declared = []
    for seat, text, cards in view.declarations:
        if cards:
            value = int(text.rsplit("(", 1)[1].rstrip(")"))
            kind = "four" if text.startswith("four") else "run"
            declared.append(Declaration(seat, kind, tuple(cards), value, len(cards), 0, None))
    state: Any = world
    # the deal's earlier tricks: the last one of eight earns the last-trick bonus
    state.tricks = [list(t) for t in completed_tricks(view)]
    state.declared = declared
    state.declaring_team = declared[0].seat % 2 if declared else None
    state.belote = sorted(s for s, text, cards in view.declarations if not cards)
    state.round_number = view.round_number
    return world


# -- search wiring for the trick games ------------------------------------------------------
def _root_context(game: str, view: Observation) -> PlayContext:
    """The play context of the hand being played now (Batak: maybe the dummy)."""
    seat = view.to_act if view.to_act is not None else view.seat
    assert seat is not None
    hand = view.dummy if seat == view.dummy_seat and view.dummy is not None else view.hand
    return CONTEXTS[game](seat, tuple(hand), view.trump, view.declarer)


def trick_classes(game: str) -> Classes:
    """Legal cards grouped into equivalent runs (see ``equivalence_classes``)."""

    def classes(view: Observation, legal: list[Action]) -> list[list[Action]]:
        ctx = _root_context(game, view)
        by_card = {a.card: a for a in legal}
        unseen = unseen_cards(view, ctx.deck)
        points = {c: ctx.points(c) for c in by_card} if ctx.points is not None else None
        runs = equivalence_classes(list(by_card), unseen, ctx.ranking, ctx.trump, points)
        return [[by_card[c] for c in run] for run in runs]

    return classes


def trick_rollouts(game: str) -> Callable[[Observation], TrickRollout]:
    """Rollouts seeded with the public knowledge of the searching seat's view."""

    def rollouts(view: Observation) -> TrickRollout:
        ctx = _root_context(game, view)
        return TrickRollout(
            game,
            ctx.deck,
            public_cards(view),
            inferred_voids(view, ctx.ranking, ctx.trump, ctx.trump_duty),
            suits_led(view, ctx.ranking, ctx.trump),
        )

    return rollouts


def register_trick_game(
    game: str,
    world: WorldBuilder,
    resolution: float,
    endgame_cards: int = 0,
    dealer: Callable[[Observation], HandDealer] | None = None,
) -> None:
    """The search wiring of a trick game; with ``dealer``, the fast path
    (``engine.ai.playouts``) plays its worlds."""

    def playouts(view: Observation) -> Playouts:
        assert dealer is not None
        return TrickPlayouts(game, view, dealer(view), endgame_cards)

    register_search(
        game,
        SearchGame(
            world=world,
            classes=trick_classes(game),
            rollouts=trick_rollouts(game),
            value=deal_value,
            resolution=resolution,
            bidder=BIDDERS.get(game),
            endgame=Solver.endgame(game) if endgame_cards else None,
            endgame_cards=endgame_cards,
            playouts=playouts if dealer is not None else None,
        ),
    )


# resolutions in each game's score unit: a tenth of a Callbreak point, a
# quarter of a Batak or Backalley point
register_trick_game("callbreak", callbreak_world, 1.0, dealer=callbreak_dealer)
register_trick_game("backalley", backalley_world, 0.25, dealer=backalley_dealer)
# partnership games: the last two tricks are solved exactly in every world
register_trick_game("batak", batak_world, 0.25, endgame_cards=8, dealer=batak_dealer)
register_trick_game("blot", blot_world, 1.0, endgame_cards=8)
