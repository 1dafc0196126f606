"""Bidding by simulation for the search agent (Callbreak, Backalley).

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


def _others(
    view: Observation, cards: list[Card], rng: random.Random, size: int
) -> dict[int, list[Card]]:
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
        best: dict[int, list[Card]] | None = None
        misfit = float("inf")
        for _ in range(4):
            hands = _others(v, unseen, r, len(v.hand))
            fit = sum(
                (estimate_tricks(h) - b) ** 2
                for s, h in hands.items()
                if (b := v.bids[s]) is not None
            )
            if fit < misfit:
                best, misfit = hands, fit
        assert best is not None and v.seat is not None
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

    rollout = TrickRollout("callbreak", DECK, set(), {s: set() for s in range(4)}, _no_leads(4))

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
        hands = {**_others(v, unseen, r, h), v.seat: list(v.hand)}
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
    rollout = TrickRollout("backalley", deck, public, {s: set() for s in range(n)}, _no_leads(n))
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


def _no_leads(n: int) -> dict[int, set[str]]:
    return {s: set() for s in range(n)}


BIDDERS: dict[
    str, Callable[[Observation, Sequence[Action], random.Random, float, int], Priced | None]
] = {
    "callbreak": callbreak_bid,
    "backalley": backalley_bid,
}


# -- Bazar Blot --------------------------------------------------------------------------------
def blot_bid(
    view: Observation,
    legal: Sequence[Action],
    rng: random.Random,
    deadline: float,
    max_worlds: int = MAX_WORLDS,
) -> Priced | None:
    """The bazar by simulation: each world is played out once per contract
    that matters -- every strain with this seat declaring, and the
    opponents' standing contract -- and every legal action is priced by the
    game's own scoring (``score_deal``) at its level: a plain bid by the
    contract it makes, ``pass`` by the standing contract (0 when there is
    none), ``contra`` by the standing contract doubled.  Hands that explain
    the bids made so far are preferred.  Capot bids, recontra and the
    answer to a contra are left to the heuristic, as is passing while the
    partner holds the bid."""
    from engine.ai.heuristics.blot import PARTNER_POINTS, STRAINS, hand_value
    from engine.core.actions import CONTRA, PASS, RECONTRA
    from engine.games.blot.cards import blot_deck
    from engine.games.blot.declarations import award
    from engine.games.blot.scoring import DealOutcome, score_deal

    assert view.seat is not None
    if RECONTRA in legal:
        return None
    seat = view.seat
    team = seat % 2
    bids = [(s, t.split()) for s, t in view.auction if t.startswith("bid")]
    standing = bids[-1] if bids else None
    if standing is not None and standing[0] % 2 == team:
        return None
    game = get_game("blot")
    deck = blot_deck()
    unseen = sorted((c for c in deck if c not in set(view.hand)), key=lambda c: (c.suit, c.rank))
    dealer = view.dealer if view.dealer is not None else 3
    first = (dealer + 1) % 4

    def misfit(hands: dict[int, list[Card]]) -> float:
        """How far each bidder's hand is from supporting its last bid."""
        total = 0.0
        for s, words in bids:
            if s in hands:
                level, strain = int(words[1]), words[2]
                total += max(0.0, 10 * level - hand_value(hands[s], strain) - PARTNER_POINTS) / 10
        return total

    def play(hands: dict[int, list[Card]], strain: str, declarer: int) -> tuple[int, ...]:
        """(card points, tricks, declarations) of the declaring team, and
        the defenders' declarations, for one play-out of ``strain``."""
        trump = None if strain == "NT" else strain
        state: Any = game.position(
            hands={s: [str(c) for c in h] for s, h in hands.items()},
            to_act=first,
            contract=f"8 {strain}",
            declarer=declarer,
            dealer=dealer,
        )
        winner, declared = award([hands[s] for s in range(4)], trump, first)
        state.declared, state.declaring_team = declared, winner
        rollout = TrickRollout("blot", deck, set(), {s: set() for s in range(4)}, _no_leads(4))
        if not rollout.run(state, deadline):
            raise TimeoutError
        record = state.history[-1]
        side = declarer % 2

        def decl(t: int) -> int:
            shown = sum(d.value for d in declared if d.seat % 2 == t)
            return shown + 20 * sum(1 for s in record.details["belote"] if s % 2 == t)

        tricks = sum(record.tricks_won[s] for s in (side, side + 2))
        return record.details["card_points"][side], tricks, decl(side), decl(1 - side)

    def value(result: tuple[int, ...], level: int, nt: bool, doubling: int, ours: bool) -> float:
        cards, tricks, decl_a, decl_d = result
        a, d = score_deal(DealOutcome(level, nt, doubling, False, cards, tricks, decl_a, decl_d))
        return float(a - d) if ours else float(d - a)

    # strains worth a play-out: near this hand's best, or bid by the partner
    worth = {s: hand_value(view.hand, s) for s in STRAINS}
    top = max(worth.values())
    partner_bids = {w[2] for s, w in bids if s == (seat + 2) % 4}
    strains = [s for s in STRAINS if worth[s] >= top - 25 or s in partner_bids]
    theirs = None
    if standing is not None:
        words = standing[1]
        theirs = (
            standing[0],
            int(words[1]),
            words[2],
            "contra" in view.extra.get("standing_bid", ""),
        )

    def each(f: Callable[[dict[str, tuple[int, ...]]], float]) -> list[float]:
        return [f(r) for r in results]

    def price() -> Priced:
        priced: Priced = {}
        if PASS in legal:
            if theirs is None:
                priced[PASS] = [0.0] * len(results)
            else:
                level, strain = theirs[1], theirs[2]
                doubled = 1 if theirs[3] else 0
                priced[PASS] = each(
                    lambda r: value(r["theirs"], level, strain == "NT", doubled, False)
                )
        if CONTRA in legal and theirs is not None:
            level, strain = theirs[1], theirs[2]
            priced[CONTRA] = each(lambda r: value(r["theirs"], level, strain == "NT", 1, False))
        for action in legal:
            if action.verb != "bid" or action.capot or action.word not in strains:
                continue
            strain, level = str(action.word), action.number or 0
            if level > 16:
                continue
            priced[action] = each(_ours(value, strain, level))
        return priced

    results: list[dict[str, tuple[int, ...]]] = []
    try:
        while len(results) < max_worlds and time.perf_counter() < deadline:
            best: dict[int, list[Card]] | None = None
            fit = float("inf")
            for _ in range(4):
                dealt = {**_others(view, unseen, rng, 8), seat: list(view.hand)}
                f = misfit(dealt)
                if f < fit:
                    best, fit = dealt, f
            assert best is not None
            row = {s: play(best, s, seat) for s in strains}
            if theirs is not None:
                row["theirs"] = play(best, theirs[2], theirs[0])
            results.append(row)
            n = len(results)
            if n >= MIN_BLOT_WORLDS and n % 2 == 0 and clear(price(), resolution=1.0):
                break
    except TimeoutError:
        pass
    if len(results) < MIN_BLOT_WORLDS:
        return None
    return price() or None


def _ours(
    value: Callable[[tuple[int, ...], int, bool, int, bool], float], strain: str, level: int
) -> Callable[[dict[str, tuple[int, ...]]], float]:
    """One world's value of declaring ``level strain`` ourselves."""
    return lambda row: value(row[strain], level, strain == "NT", 0, True)


BIDDERS["blot"] = blot_bid


# -- Eşli Batak --------------------------------------------------------------------------------
def batak_bid(
    view: Observation,
    legal: Sequence[Action],
    rng: random.Random,
    deadline: float,
    max_worlds: int = MAX_WORLDS,
) -> Priced | None:
    """Eşli Batak's auction and trump choice by simulation.  Naming trump:
    the two suits this hand is best in are played out with this seat
    declaring at the contract.  In
    the auction: the lowest legal bid is priced in this hand's best suit,
    ``pass`` by the opponent's
    standing bid played in the suit its sampled hand would name.  Passing
    while the partner holds the bid is left to the heuristic."""
    from engine.ai.heuristics.batak import DECK, PARTNER_DEFAULT, best_trump, hand_tricks
    from engine.core.actions import PASS
    from engine.games.batak.scoring import score_deal

    assert view.seat is not None
    seat, partner = view.seat, (view.seat + 2) % 4
    game = get_game("batak")
    naming = any(a.verb == "trump" for a in legal)
    high = next(
        ((s, int(t.split()[1])) for s, t in reversed(view.auction) if t.startswith("bid")), None
    )
    if not naming and high is not None and high[0] == partner:
        return None
    unseen = sorted(set(DECK) - set(view.hand), key=lambda c: (c.suit, c.rank))
    first_bidder = int(view.extra.get("first_bidder", 0))
    bids = [(s, int(t.split()[1])) for s, t in view.auction if t.startswith("bid")]

    def misfit(hands: dict[int, list[Card]]) -> float:
        return sum(
            max(0.0, level - 0.5 - best_trump(hands[s])[1] - PARTNER_DEFAULT)
            for s, level in bids
            if s != seat
        )

    def tricks(hands: dict[int, list[Card]], trump: str, declarer: int, level: int) -> int:
        """The declaring team's tricks in one play-out."""
        state: Any = game.position(
            hands={s: [str(c) for c in h] for s, h in hands.items()},
            to_act=declarer,
            trump=trump,
            declarer=declarer,
            contract=level,
            first_bidder=first_bidder,
        )
        dummy = set(hands[(declarer + 2) % 4])
        rollout = TrickRollout("batak", DECK, dummy, {s: set() for s in range(4)}, _no_leads(4))
        if not rollout.run(state, deadline):
            raise TimeoutError
        record = state.history[-1]
        return sum(record.tricks_won[s] for s in (declarer % 2, declarer % 2 + 2))

    def diff(level: int, declarer: int, won: int) -> float:
        points = score_deal(level, declarer % 2, won)
        return float(points[seat % 2] - points[1 - seat % 2])

    if naming:
        level = int(str(view.contract or "8").split()[0])
        named = sorted((str(a.word) for a in legal), key=lambda s: -hand_tricks(view.hand, s))
        suits = named[:2]
    else:
        level = min((a.number or 0) for a in legal if a.verb == "bid")
        suits = [best_trump(view.hand)[0]]

    def price() -> Priced:
        priced: Priced = {}
        if naming:
            for action in legal:
                if action.word in suits:
                    priced[action] = [r[str(action.word)] for r in rows]
            return priced
        suit = max(suits, key=lambda s: sum(r[s] for r in rows))
        for action in legal:
            if action.verb == "bid" and action.number == level:
                priced[action] = [r[suit] for r in rows]
            elif action == PASS:
                priced[action] = [r.get("pass", 0.0) for r in rows]
        return priced

    rows: list[dict[str, float]] = []
    try:
        while len(rows) < max_worlds and time.perf_counter() < deadline:
            best: dict[int, list[Card]] | None = None
            fit = float("inf")
            for _ in range(4):
                dealt = {**_others(view, unseen, rng, 13), seat: list(view.hand)}
                f = misfit(dealt)
                if f < fit:
                    best, fit = dealt, f
            assert best is not None
            row = {s: diff(level, seat, tricks(best, s, seat, level)) for s in suits}
            if not naming and high is not None and PASS in legal:
                theirs = best_trump(best[high[0]])[0]
                row["pass"] = diff(high[1], high[0], tricks(best, theirs, high[0], high[1]))
            rows.append(row)
            n = len(rows)
            if n >= MIN_BLOT_WORLDS and n % 2 == 0 and clear(price(), resolution=0.25):
                break
    except TimeoutError:
        pass
    if len(rows) < MIN_BLOT_WORLDS:
        return None
    return price() or None


BIDDERS["batak"] = batak_bid
