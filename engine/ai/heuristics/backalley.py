"""Backalley heuristic (issue "Backalley", AI): bid from trump strength,
jokers and hand size (bidding backalley only when every card is a sure
winner), respect the hook, and take every trick it can: an overtrick still
scores one point and a bid of 0 scores a point a trick (rules/backalley.md
"Scoring"); ducking once the bid was made measured worse (bench/ai_revision.py,
-4.1 +- 1.8 points a game).  Card play: the shared rules of ``trickplay.py``."""

from __future__ import annotations

from collections.abc import Sequence

from engine.ai.base import BaseAgent, register_agent
from engine.ai.heuristics.trickplay import Choice, PlayContext, decide, register_context
from engine.core.actions import Action
from engine.core.cards import JOKER_SUIT, Card, standard_deck
from engine.core.game import MatchState
from engine.core.view import Observation
from engine.games.backalley.rules import JOKER_RANKING

DECK = standard_deck(jokers=True)


def trump_order(trump: str | None) -> list[Card]:
    """Every trump from the top: RJ, BJ, then the trump suit A..2."""
    top = [c for c in DECK if c.suit == JOKER_SUIT]
    if trump in (None, JOKER_SUIT):
        return top
    return top + [c for c in DECK if c.suit == trump]


def sure_winners(hand: Sequence[Card], trump: str | None, seen: set[Card]) -> int:
    """Trumps in an unbroken run from the top (counting cards already out of
    play as held): each of them wins whatever happens."""
    count = 0
    for card in trump_order(trump):
        if card in hand:
            count += 1
        elif card not in seen:
            break
    return count


def estimate_tricks(hand: Sequence[Card], trump: str | None, players: int) -> float:
    """Expected tricks; side cards lose value as hands grow and more players
    may be void and trump them."""
    est = 0.0
    size = len(hand)
    trumps = [c for c in hand if JOKER_RANKING.is_trump(c, trump)]
    for card in trumps:
        if card.suit == JOKER_SUIT:
            est += 1.0 if card.rank == 16 else 0.9
        elif card.rank == 14:
            est += 0.85
        elif card.rank == 13:
            est += 0.6 if len(trumps) >= 2 else 0.35
        elif card.rank >= 10:
            est += 0.35 if len(trumps) >= 3 else 0.15
        else:
            est += 0.15 if len(trumps) >= 4 else 0.05
    side_value = {14: 0.75, 13: 0.4}
    crowd = 1.0 if players <= 3 else 0.85 if players <= 5 else 0.7
    for card in hand:
        if card in trumps:
            continue
        est += side_value.get(card.rank, 0.0) * crowd * (1.0 if size <= 7 else 0.8)
    return est


class BackalleyHeuristic(BaseAgent):
    name = "heuristic"

    def act(
        self,
        view: Observation,
        legal: Sequence[Action],
        *,
        full_state: MatchState | None = None,
    ) -> Action:
        if legal[0].verb == "bid":
            return self.bid(view, legal)
        return Action("play", (self.explain(view, [a.card for a in legal]).card,))

    def explain(self, view: Observation, cards: list[Card]) -> Choice:
        """The card to play and the trick-play rule that chose it."""
        assert view.seat is not None
        return decide(view, cards, play_context(view.seat, view.hand, view.trump, None))

    def bid(self, view: Observation, legal: Sequence[Action]) -> Action:
        h = view.hand_size or len(view.hand)
        seen = set(view.extra.get("set_aside", ())) | ({view.turned} if view.turned else set())
        backalley = next((a for a in legal if a.word == "backalley"), None)
        if backalley is not None and sure_winners(view.hand, view.trump, seen) >= h:
            return backalley
        want = round(estimate_tricks(view.hand, view.trump, view.num_seats))
        numbers = [a for a in legal if a.number is not None]
        return min(numbers, key=lambda a: (abs((a.number or 0) - want), a.number))


def play_context(
    seat: int, hand: tuple[Card, ...], trump: str | None, declarer: int | None
) -> PlayContext:
    """Jokers are the top trumps; no trump is ever compulsory (rules/backalley.md)."""
    return PlayContext(seat, hand, trump, JOKER_RANKING, DECK)


register_agent("heuristic", "backalley", BackalleyHeuristic)
register_context("backalley", play_context)
