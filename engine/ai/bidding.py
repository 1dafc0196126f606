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
from typing import Any

from engine.ai.rollout import TrickRollout
from engine.ai.sampling import deal_unseen
from engine.ai.search import Evidence
from engine.core.actions import BACKALLEY, Action
from engine.core.cards import Card, standard_deck
from engine.core.game import MatchState
from engine.core.spec import get_game
from engine.core.view import Observation

#: fewest simulated deals worth trusting over the heuristic's formula
MIN_WORLDS = 8
MAX_WORLDS = 60
#: a Blot world costs a play-out per strain considered
MIN_BLOT_WORLDS = 6


def simulate(
    view: Observation,
    rng: random.Random,
    deadline: float,
    world: Callable[[Observation, random.Random], MatchState],
    rollout: TrickRollout,
    max_worlds: int = MAX_WORLDS,
    enough: Callable[[list[int]], bool] | None = None,
) -> list[int]:
    """The seat's tricks in each simulated deal finished before ``deadline``,
    stopping early once ``enough`` says the bid is decided (checked every
    four deals from ``MIN_WORLDS`` on)."""
    assert view.seat is not None
    tricks: list[int] = []
    while len(tricks) < max_worlds and time.perf_counter() < deadline:
        state: Any = world(view, rng)
        before = len(state.history)
        if not rollout.run(state, deadline):
            break
        tricks.append(state.history[before].tricks_won[view.seat])
        n = len(tricks)
        if enough is not None and n >= MIN_WORLDS and n % 4 == 0 and enough(tricks):
            break
    return tricks


#: action -> its value in each simulated world (the same worlds for all)
Priced = dict[Action, list[float]]


def clear(priced: Priced | None, resolution: float, z: float = 2.5) -> bool:
    """The simulation has said enough: as in play (``search.Evidence``), one
    candidate is significantly better than every other, or what is left to
    tell apart is below ``resolution``."""
    if not priced or len(priced) == 1:
        return bool(priced)
    evidence = Evidence(list(priced), priced)
    if evidence.all_equal():
        return True
    evidence.prune(z)
    return len(evidence.candidates) == 1 or evidence.settled(z, resolution)


def price_bids(
    legal: Sequence[Action], tricks: list[int], score: Callable[[Action, int], float]
) -> Priced | None:
    """Every legal bid's score in each simulated deal (None if too few deals)."""
    if len(tricks) < MIN_WORLDS:
        return None
    return {a: [float(score(a, t)) for t in tricks] for a in legal}


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
    counts = {s: size for s in range(view.num_seats) if s != view.seat}
    return deal_unseen(cards, counts, rng)


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

    game = get_game("callbreak")
    assert view.seat is not None
    top = max(a.number or 1 for a in legal)

    def heuristic_bid(hand: list[Card]) -> int:
        return max(1, min(top, round(estimate_tricks(hand))))

    def world(v: Observation, r: random.Random) -> MatchState:
        unseen = sorted(set(DECK) - set(v.hand), key=lambda c: (c.suit, c.rank))
        best = best_explained(
            lambda: deal_others(v, unseen, r, len(v.hand)),
            lambda hands: sum(
                (estimate_tricks(h) - b) ** 2
                for s, h in hands.items()
                if (b := v.bids[s]) is not None
            ),
        )
        assert v.seat is not None
        hands = {**best, v.seat: list(v.hand)}
        bids = {s: v.bids[s] or heuristic_bid(h) for s, h in hands.items()}
        dealer = v.dealer if v.dealer is not None else 3
        return game.position(
            hands={s: [str(c) for c in h] for s, h in hands.items()},
            to_act=(dealer + 1) % 4,
            bids=bids,
            dealer=dealer,
            round_number=v.round_number,
            variant=game.variant(rounds=v.round_number),
        )

    rollout = TrickRollout("callbreak", DECK, set(), {s: set() for s in range(4)}, no_leads(4))

    def score(action: Action, t: int) -> float:
        return score_bid(action.number or 1, t)

    tricks = simulate(
        view,
        rng,
        deadline,
        world,
        rollout,
        max_worlds,
        lambda ts: clear(price_bids(legal, ts, score), resolution=1.0),
    )
    return price_bids(legal, tricks, score)


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

    game = get_game("backalley")
    assert view.seat is not None
    n = view.num_seats
    h = view.hand_size or len(view.hand)
    deck = standard_deck(jokers=True)
    seen = set(view.hand) | set(view.extra.get("set_aside", ()))
    if view.turned is not None:
        seen.add(view.turned)
    unseen = sorted((c for c in deck if c not in seen), key=str)
    own = round(estimate_tricks(view.hand, view.trump, n))

    def world(v: Observation, r: random.Random) -> MatchState:
        assert v.seat is not None and v.trump is not None
        hands = {**deal_others(v, unseen, r, h), v.seat: list(v.hand)}
        bids: dict[int, int] = {}
        for s, hand in hands.items():
            made = v.bids[s] if s < len(v.bids) else None
            bids[s] = made if made is not None else (own if s == v.seat else _guess(hand, v, n))
        dealer = v.dealer if v.dealer is not None else n - 1
        order = [(dealer + 1 + k) % n for k in range(n)]
        leader = max(order, key=lambda s: (bids[s], -order.index(s)))
        return game.position(
            hands={s: [str(c) for c in hand] for s, hand in hands.items()},
            to_act=leader,
            trump=v.trump,
            hand_size=h,
            bids=bids,
            dealer=dealer,
            variant=game.variant(players=n, max_cards=13),
        )

    def _guess(hand: list[Card], v: Observation, players: int) -> int:
        return min(h, round(estimate_tricks(hand, v.trump, players)))

    def score(action: Action, t: int) -> float:
        if action.word == BACKALLEY:
            return score_backalley(h, t)
        return score_bid(action.number or 0, t)

    public = set(view.extra.get("set_aside", ())) | ({view.turned} if view.turned else set())
    rollout = TrickRollout("backalley", deck, public, {s: set() for s in range(n)}, no_leads(n))
    tricks = simulate(
        view,
        rng,
        deadline,
        world,
        rollout,
        max_worlds,
        lambda ts: clear(price_bids(legal, ts, score), resolution=0.25),
    )
    return price_bids(legal, tricks, score)


def no_leads(n: int) -> dict[int, set[str]]:
    """Nobody has led a suit yet (a rollout from the first card of a deal)."""
    return {s: set() for s in range(n)}


BIDDERS: dict[
    str, Callable[[Observation, Sequence[Action], random.Random, float, int], Priced | None]
] = {
    "callbreak": callbreak_bid,
    "backalley": backalley_bid,
}
