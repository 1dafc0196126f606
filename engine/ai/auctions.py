"""Bidding by simulation for the partnership auctions: the Bazar Blot
bazar and the Eşli Batak auction with its trump choice (the shared
machinery and the individual games are in ``engine.ai.bidding``).

Each world deals the unseen cards (hands that explain the bids made so far
preferred) and is played out, with the heuristic's card play for every
seat, once per contract that matters; every candidate action is priced by
the game's own scoring function at its level.  Both stop early on the play
search's rule and return each candidate's value per world, so the agent
picks as it does in play.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from engine.ai.bidding import (
    BIDDERS,
    MAX_WORLDS,
    MIN_BLOT_WORLDS,
    Priced,
    best_explained,
    clear,
    deal_others,
    no_leads,
    others_dealer,
)
from engine.ai.playouts import play_out
from engine.ai.rollout import TrickRollout
from engine.core.actions import Action
from engine.core.cards import Card
from engine.core.registry import get_game
from engine.core.view import Observation


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
        rollout = TrickRollout("blot", deck, set(), {s: set() for s in range(4)}, no_leads(4))
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
            best = best_explained(
                lambda: {**deal_others(view, unseen, rng, 8), seat: list(view.hand)}, misfit
            )
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
    naming = any(a.verb == "trump" for a in legal)
    high = next(
        ((s, int(t.split()[1])) for s, t in reversed(view.auction) if t.startswith("bid")), None
    )
    if not naming and high is not None and high[0] == partner:
        return None
    unseen = sorted(set(DECK) - set(view.hand), key=lambda c: (c.suit, c.rank))
    others = others_dealer(view, unseen, 13)
    bids = [(s, int(t.split()[1])) for s, t in view.auction if t.startswith("bid")]

    def misfit(hands: dict[int, list[Card]]) -> float:
        return sum(
            max(0.0, level - 0.5 - best_trump(hands[s])[1] - PARTNER_DEFAULT)
            for s, level in bids
            if s != seat
        )

    def tricks(hands: dict[int, list[Card]], trump: str, declarer: int, level: int) -> int:
        """The declaring team's tricks in one play-out (the declarer leads,
        the dummy's cards are public: rules/batak.md "Play")."""
        won = play_out(
            "batak",
            [hands[s] for s in range(4)],
            trump,
            declarer,
            hands[(declarer + 2) % 4],
            deadline,
        )
        if won is None:
            raise TimeoutError
        return won[declarer % 2] + won[declarer % 2 + 2]

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

    # with no other bid made every deal explains the auction alike: one will do
    tries = 4 if any(s != seat for s, _ in bids) else 1
    rows: list[dict[str, float]] = []
    try:
        while len(rows) < max_worlds and time.perf_counter() < deadline:
            best = best_explained(lambda: {**others(rng), seat: list(view.hand)}, misfit, tries)
            row = {s: diff(level, seat, tricks(best, s, seat, level)) for s in suits}
            if not naming and high is not None and PASS in legal:
                theirs = best_trump(best[high[0]])[0]
                row["pass"] = diff(high[1], high[0], tricks(best, theirs, high[0], high[1]))
            rows.append(row)
            n = len(rows)
            if n >= MIN_BLOT_WORLDS and n % 2 == 0 and clear(price(), 0.25, safe_lead=True):
                break
    except TimeoutError:
        pass
    if len(rows) < MIN_BLOT_WORLDS:
        return None
    return price() or None


BIDDERS["batak"] = batak_bid
