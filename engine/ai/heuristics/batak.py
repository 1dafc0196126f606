"""Eşli Batak heuristic (issue "Eşli Batak", AI): bid from trump length and
high cards plus what the partner's bids promise, name the longest strong
suit, and play both its own hand and -- as declarer -- the dummy, always
trying to take tricks for the team (more tricks are worth more to both
sides, rules/batak.md "Scoring")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from engine.ai.base import BaseAgent, register_agent
from engine.ai.heuristics.trickplay import Choice, PlayContext, decide, register_context
from engine.ai.knowledge import TrumpDuty
from engine.core.actions import PASS, Action, trump
from engine.core.cards import SUITS, Card, standard_deck
from engine.core.game import MatchState
from engine.core.trick import STANDARD
from engine.core.view import Observation
from engine.games.batak.rules import play_rules

DECK = standard_deck()
#: what an unknown partner's 13 cards are worth, in tricks, as the dummy
PARTNER_DEFAULT = 3.0


def hand_tricks(hand: Sequence[Card], trump_suit: str) -> float:
    """Tricks this hand should take with ``trump_suit`` as trump."""
    trumps = sorted((c.rank for c in hand if c.suit == trump_suit), reverse=True)
    n = len(trumps)
    est = 0.0
    honours = {14: (1, 1.0), 13: (2, 0.9), 12: (3, 0.7), 11: (4, 0.5)}
    for rank in trumps:
        if rank in honours and n >= honours[rank][0]:
            est += honours[rank][1]
    est += max(0, n - 4) * 0.9
    for suit in SUITS:
        if suit == trump_suit:
            continue
        ranks = sorted((c.rank for c in hand if c.suit == suit), reverse=True)
        if 14 in ranks:
            est += 1.0 if len(ranks) <= 5 else 0.7
        if 13 in ranks and len(ranks) >= 2:
            est += 0.75 if len(ranks) <= 5 else 0.4
        if 12 in ranks and len(ranks) >= 3 and {13, 14} & set(ranks):
            est += 0.35
        if n >= 3 and len(ranks) <= 1:
            est += 0.8 if not ranks else 0.4
    return est


def best_trump(hand: Sequence[Card]) -> tuple[str, float]:
    """The suit that makes this hand strongest, with its trick estimate."""
    scored = [(hand_tricks(hand, s), sum(1 for c in hand if c.suit == s), s) for s in SUITS]
    est, _, suit = max(scored)
    return suit, est


class BatakHeuristic(BaseAgent):
    name = "heuristic"

    def act(
        self,
        view: Observation,
        legal: Sequence[Action],
        *,
        full_state: MatchState | None = None,
    ) -> Action:
        verbs = {a.verb for a in legal}
        if "trump" in verbs:
            return trump(best_trump(view.hand)[0])
        if "pass" in verbs or "bid" in verbs:
            return self.bid(view, legal)
        return Action("play", (self.explain(view, [a.card for a in legal]).card,))

    def bid(self, view: Observation, legal: Sequence[Action]) -> Action:
        seat = view.seat
        assert seat is not None
        partner = (seat + 2) % 4
        levels = sorted(a.number for a in legal if a.verb == "bid" and a.number is not None)
        if not levels:
            return PASS
        lowest = levels[0]
        if PASS not in legal:  # the forced opening
            return Action("bid", number=lowest)
        partner_bid = view.bids[partner]
        high_seat = next((s for s, text in reversed(view.auction) if text.startswith("bid")), None)
        if high_seat == partner:
            return PASS
        partner_worth = PARTNER_DEFAULT
        if partner_bid is not None:
            partner_worth = max(PARTNER_DEFAULT, partner_bid - 3.5)
        elif any(s == partner and t == "pass" for s, t in view.auction):
            partner_worth = 2.5
        own = best_trump(view.hand)[1]
        team = own + partner_worth
        return Action("bid", number=lowest) if team >= lowest + 0.5 else PASS

    def explain(self, view: Observation, cards: list[Card]) -> Choice:
        """The card for the seat, or as declarer for the dummy, and why."""
        seat = view.seat
        assert seat is not None
        if (
            view.dummy_seat is not None
            and view.to_act == view.dummy_seat
            and seat != view.dummy_seat
        ):
            ctx = play_context(view.dummy_seat, view.dummy or (), view.trump, view.declarer)
        else:
            ctx = play_context(seat, view.hand, view.trump, view.declarer)
        return decide(view, cards, ctx)


#: when a void player must trump (the engine's rules say it)
_DUTY = cast(TrumpDuty, play_rules("S").trump_duty)


def play_context(
    seat: int, hand: tuple[Card, ...], trump: str | None, declarer: int | None
) -> PlayContext:
    """A void player must trump whenever able (the game's ``play_rules``:
    rules/batak.md "Play"); the dummy's partner is the declarer who plays it."""
    return PlayContext(seat, hand, trump, STANDARD, DECK, (seat + 2) % 4, trump_duty=_DUTY)


register_agent("heuristic", "batak", BatakHeuristic)
register_context("batak", play_context)
