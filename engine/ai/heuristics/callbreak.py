"""Callbreak heuristic (issue "Foundation", AI): bid from hand strength and
play the shared trick-play rules (``trickplay.py``): win cheaply, never dump
an honour under a trick it cannot win, keep spades for the tricks where they
count.  Sees only its own ``Observation``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from engine.ai.base import BaseAgent, register_agent
from engine.ai.heuristics.trickplay import Choice, PlayContext, decide, register_context
from engine.ai.knowledge import TrumpDuty
from engine.core.actions import Action, bid
from engine.core.cards import Card, standard_deck
from engine.core.game import MatchState
from engine.core.trick import STANDARD
from engine.core.view import Observation
from engine.games.callbreak.rules import play_rules

TRUMP = "S"
DECK = standard_deck()


def estimate_tricks(hand: Sequence[Card]) -> float:
    """Expected tricks: high spades and spade length, side aces and guarded
    kings, and ruffing chances from short side suits (rules/callbreak.md:
    spades always trump)."""
    spades = sorted((c.rank for c in hand if c.suit == TRUMP), reverse=True)
    n_sp = len(spades)
    est = 0.0
    for rank in spades:
        if rank == 14:
            est += 1.0
        elif rank == 13:
            est += 0.9 if n_sp >= 2 else 0.4
        elif rank == 12:
            est += 0.6 if n_sp >= 3 else 0.2
        elif rank == 11:
            est += 0.3 if n_sp >= 4 else 0.0
    est += max(0, n_sp - 4) * 0.9
    spare_trumps = max(0, n_sp - 2)
    for suit in "HDC":
        ranks = sorted((c.rank for c in hand if c.suit == suit), reverse=True)
        length = len(ranks)
        if 14 in ranks:
            est += 0.95 if length <= 5 else 0.7
        if 13 in ranks and length >= 2:
            est += 0.7 if length <= 4 else 0.4
        if 12 in ranks and length >= 3 and (14 in ranks or 13 in ranks):
            est += 0.3
        if length <= 1 and spare_trumps:
            ruffs = min(spare_trumps, 2 - length)
            est += 0.6 * ruffs
            spare_trumps -= ruffs
    return est


class CallbreakHeuristic(BaseAgent):
    name = "heuristic"

    def act(
        self,
        view: Observation,
        legal: Sequence[Action],
        *,
        full_state: MatchState | None = None,
    ) -> Action:
        if legal[0].verb == "bid":
            top = max(a.number or 1 for a in legal)
            return bid(max(1, min(top, round(estimate_tricks(view.hand)))))
        cards = [a.card for a in legal]
        return Action("play", (self.choose_card(view, cards),))

    def choose_card(self, view: Observation, cards: list[Card]) -> Card:
        return self.explain(view, cards).card

    def explain(self, view: Observation, cards: list[Card]) -> Choice:
        """Take tricks, also once the bid is made: an overtrick scores 0.1
        and is a trick the others miss (rules/callbreak.md "Scoring"; ducking
        after the bid measured no better, bench/ai_revision.py)."""
        assert view.seat is not None
        return decide(view, cards, play_context(view.seat, view.hand, TRUMP, None))


#: when a void player must trump (the engine's rules say it)
_DUTY = cast(TrumpDuty, play_rules(TRUMP).trump_duty)


def play_context(
    seat: int, hand: tuple[Card, ...], trump: str | None, declarer: int | None
) -> PlayContext:
    """Spades always trump; void and unruffed, a spade is due (the game's
    ``play_rules``: rules/callbreak.md)."""
    return PlayContext(seat, hand, TRUMP, STANDARD, DECK, trump_duty=_DUTY)


register_agent("heuristic", "callbreak", CallbreakHeuristic)
register_context("callbreak", play_context)
