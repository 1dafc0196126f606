"""Bidding by simulation for the search agent: the shared machinery, and
Callbreak's and Backalley's bids (the partnership auctions of Bazar Blot
and Eşli Batak are in ``engine.ai.auctions``).

The heuristics bid from a hand-strength formula.  The search agent instead
deals the unseen cards at random many times (hands that explain the bids
already made are preferred, as in play), plays each deal out with the
heuristic's card play for every seat, and counts the tricks its own hand
takes.  The bid is the legal one with the best mean score over those deals
under the game's own scoring function -- which also settles Backalley's
``bid backalley``: it is chosen when taking every trick is likely enough to
be worth +10h against -10h.

The heuristics' card play does not depend on the bids (every seat takes
every trick it can), so one play-out per world prices every bid at once.
Bids not yet made are filled in with the heuristic's bid for the sampled
hand (Backalley: they also decide who leads).  Runs within the agent's
deadline; with too few worlds in time it returns None and the heuristic
bids.  Bidders return every candidate's value in every simulated deal; the
agent picks as in play (``SearchAgent``): the best mean, unless the
heuristic's own bid is within one standard error of it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from engine.ai.evidence import MIN_SAFE_WORLDS, Evidence
from engine.ai.playouts import play_out
from engine.ai.sampling import UnseenDealer
from engine.core.actions import BACKALLEY, Action
from engine.core.cards import Card, standard_deck
from engine.core.view import Observation

#: fewest simulated deals worth trusting over the heuristic's formula
MIN_WORLDS = 8
MAX_WORLDS = 60
#: a Blot world costs a play-out per strain considered
MIN_BLOT_WORLDS = 6


#: action -> its value in each simulated world (the same worlds for all)
Priced = dict[Action, list[float]]


def simulate(
    deadline: float,
    one: Callable[[], int | None],
    legal: Sequence[Action],
    score: Callable[[Action, int], float],
    resolution: float,
    max_worlds: int = MAX_WORLDS,
) -> Priced | None:
    """Every legal bid's score in each simulated deal (``one`` plays a deal
    and gives the seat's tricks, None when the deadline came first), until
    ``max_worlds`` deals, the deadline, or the bid is decided (``decided``,
    checked every four deals from ``MIN_WORLDS`` on); None with fewer than
    ``MIN_WORLDS`` deals."""
    evidence = Evidence(legal)
    n = 0
    while n < max_worlds and time.perf_counter() < deadline:
        won = one()
        if won is None:
            break
        evidence.add({a: float(score(a, won)) for a in legal})
        n += 1
        if n >= MIN_WORLDS and n % 4 == 0 and decided(evidence, resolution):
            break
    if n < MIN_WORLDS:
        return None
    return evidence.values


def decided(evidence: Evidence, resolution: float, z: float = 2.5, safe_lead: bool = True) -> bool:
    """The simulation has said enough, by the play search's rules
    (``engine.ai.evidence``): every candidate alike, one significantly
    better than every other, what is left to tell apart below
    ``resolution``, or (``safe_lead``) the leader's expected loss below it."""
    if len(evidence.candidates) <= 1 or evidence.all_equal():
        return True
    evidence.prune(z)
    return (
        len(evidence.candidates) == 1
        or evidence.settled(z, resolution)
        or (safe_lead and evidence.worlds >= MIN_SAFE_WORLDS and evidence.regret() < resolution)
    )


def clear(
    priced: Priced | None, resolution: float, z: float = 2.5, safe_lead: bool = False
) -> bool:
    """``decided`` for a priced table (the auctions' bidders)."""
    if not priced:
        return False
    return decided(Evidence(list(priced), priced), resolution, z, safe_lead)


def best_explained(
    sample: Callable[[], dict[int, list[Card]]],
    misfit: Callable[[dict[int, list[Card]]], float],
    tries: int = 4,
) -> dict[int, list[Card]]:
    """Of ``tries`` sampled deals, the one the evidence (bids, the auction)
    explains best: the least ``misfit``; the first of equals."""
    return min((sample() for _ in range(tries)), key=misfit)


def deal_others(
    view: Observation, cards: list[Card], rng: random.Random, size: int
) -> dict[int, list[Card]]:
    """``size`` random cards from ``cards`` for every seat but the viewer's."""
    return others_dealer(view, cards, size)(rng)


def others_dealer(view: Observation, cards: list[Card], size: int) -> UnseenDealer:
    """``deal_others`` for many worlds of one decision."""
    counts = {s: size for s in range(view.num_seats) if s != view.seat}
    return UnseenDealer(cards, counts)


# -- Callbreak ---------------------------------------------------------------------------------
def callbreak_bid(
    view: Observation,
    legal: Sequence[Action],
    rng: random.Random,
    deadline: float,
    max_worlds: int = MAX_WORLDS,
) -> Priced | None:
    from engine.ai.heuristics.callbreak import DECK, estimate_tricks
    from engine.games.callbreak.scoring import score_bid

    assert view.seat is not None
    seat = view.seat
    unseen = sorted(set(DECK) - set(view.hand), key=lambda c: (c.suit, c.rank))
    dealer = others_dealer(view, unseen, len(view.hand))
    leader = ((view.dealer if view.dealer is not None else 3) + 1) % 4

    def misfit(hands: dict[int, list[Card]]) -> float:
        bids = view.bids
        return sum(
            (estimate_tricks(h) - b) ** 2 for s, h in hands.items() if (b := bids[s]) is not None
        )

    # with no bid made yet every deal explains the bids alike: one will do
    tries = 4 if any(b is not None for b in view.bids) else 1

    def one() -> int | None:
        """The seat's tricks in one simulated deal (the bids do not change
        the heuristic's card play, so they need not be filled in)."""
        best = best_explained(lambda: dealer(rng), misfit, tries)
        hands = [view.hand if s == seat else best[s] for s in range(4)]
        won = play_out("callbreak", hands, "S", leader, deadline=deadline)
        return None if won is None else won[seat]

    def score(action: Action, t: int) -> float:
        return score_bid(action.number or 1, t)

    return simulate(deadline, one, legal, score, 1.0, max_worlds)


# -- Backalley ---------------------------------------------------------------------------------
def backalley_bid(
    view: Observation,
    legal: Sequence[Action],
    rng: random.Random,
    deadline: float,
    max_worlds: int = MAX_WORLDS,
) -> Priced | None:
    from engine.ai.heuristics.backalley import estimate_tricks
    from engine.games.backalley.scoring import score_backalley, score_bid

    assert view.seat is not None and view.trump is not None
    seat, trump = view.seat, view.trump
    n = view.num_seats
    h = view.hand_size or len(view.hand)
    deck = standard_deck(jokers=True)
    seen = set(view.hand) | set(view.extra.get("set_aside", ()))
    if view.turned is not None:
        seen.add(view.turned)
    unseen = sorted((c for c in deck if c not in seen), key=str)
    dealer = others_dealer(view, unseen, h)
    own = round(estimate_tricks(view.hand, trump, n))
    first = ((view.dealer if view.dealer is not None else n - 1) + 1) % n
    order = [(first + k) % n for k in range(n)]
    public = list(view.extra.get("set_aside", ())) + ([view.turned] if view.turned else [])

    def one() -> int | None:
        """The seat's tricks in one simulated deal; bids not yet made are
        the heuristic's for the sampled hand, and the highest bid leads
        (the earliest bidder of equals: rules/backalley.md "Play")."""
        hands = {**dealer(rng), seat: list(view.hand)}
        bids: dict[int, int] = {}
        for s, hand in hands.items():
            made = view.bids[s] if s < len(view.bids) else None
            if made is not None:
                bids[s] = made
            else:
                bids[s] = own if s == seat else min(h, round(estimate_tricks(hand, trump, n)))
        leader = max(order, key=lambda s: (bids[s], -order.index(s)))
        won = play_out("backalley", [hands[s] for s in range(n)], trump, leader, public, deadline)
        return None if won is None else won[seat]

    def score(action: Action, t: int) -> float:
        if action.word == BACKALLEY:
            return score_backalley(h, t)
        return score_bid(action.number or 0, t)

    return simulate(deadline, one, legal, score, 0.25, max_worlds)


def no_leads(n: int) -> dict[int, set[str]]:
    """Nobody has led a suit yet (a rollout from the first card of a deal)."""
    return {s: set() for s in range(n)}


BIDDERS: dict[
    str, Callable[[Observation, Sequence[Action], random.Random, float, int], Priced | None]
] = {
    "callbreak": callbreak_bid,
    "backalley": backalley_bid,
}
