"""Callbreak heuristic (issue "Foundation", AI): bid from hand strength, play
to win cheaply while the bid is unmade, duck once it is made, and keep spades
for the tricks where they count.  Sees only its own ``Observation``."""

from __future__ import annotations

from collections.abc import Sequence

from engine.ai.base import BaseAgent, register_agent
from engine.ai.knowledge import is_master, known_voids, unseen_cards
from engine.core.actions import Action, bid
from engine.core.cards import Card, standard_deck
from engine.core.game import MatchState
from engine.core.trick import STANDARD, TRUMP_BONUS, Trick
from engine.core.view import Observation

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

    # -- play ------------------------------------------------------------------
    def choose_card(self, view: Observation, cards: list[Card]) -> Card:
        seat = view.seat
        assert seat is not None
        my_bid = view.bids[seat] or 0
        need = my_bid - view.tricks_won[seat]
        unseen = unseen_cards(view, DECK)
        voids = known_voids(view, STANDARD, TRUMP)
        if not view.trick:
            return self._lead(cards, need, unseen, voids, seat, view.num_seats)
        return self._follow(view, cards, need, unseen, voids)

    def _lead(
        self,
        cards: list[Card],
        need: int,
        unseen: set[Card],
        voids: dict[int, set[str]],
        seat: int,
        num_seats: int,
    ) -> Card:
        others = [s for s in range(num_seats) if s != seat]
        unseen_spades = any(c.suit == TRUMP for c in unseen)
        side = [c for c in cards if c.suit != TRUMP]
        if need > 0:
            # cash side-suit masters nobody is known to ruff
            safe = [
                c
                for c in side
                if is_master(c, unseen, STANDARD, TRUMP)
                and not (unseen_spades and any(c.suit in voids[o] for o in others))
            ]
            if safe:
                return max(safe, key=lambda c: c.rank)
            spade_masters = [c for c in cards if c.suit == TRUMP and is_master(c, unseen)]
            if spade_masters and unseen_spades:
                return max(spade_masters, key=lambda c: c.rank)
            if side:
                # lead low from the shortest side suit to build a ruff
                by_len = {s: sum(1 for c in side if c.suit == s) for s in {c.suit for c in side}}
                return min(side, key=lambda c: (by_len[c.suit], c.rank))
            return min(cards, key=lambda c: c.rank)
        # bid made: lead something unlikely to win
        pool = side or cards
        return min(pool, key=lambda c: (self._higher_unseen(c, unseen) == 0, c.rank))

    def _follow(
        self,
        view: Observation,
        cards: list[Card],
        need: int,
        unseen: set[Card],
        voids: dict[int, set[str]],
    ) -> Card:
        trick = Trick(view.trick[0][0], list(view.trick))
        led = trick.led_suit()
        assert led is not None
        best = max(STANDARD.power(c, led, TRUMP) for _, c in view.trick)
        winners = [c for c in cards if STANDARD.power(c, led, TRUMP) > best]
        losers = [c for c in cards if c not in winners]
        last = len(view.trick) == view.num_seats - 1

        def cost(c: Card) -> tuple[int, int]:
            return (c.suit == TRUMP, c.rank)

        if need > 0 and winners:
            if last:
                return min(winners, key=lambda c: STANDARD.power(c, led, TRUMP))
            still = {
                (view.trick[0][0] + k) % view.num_seats
                for k in range(len(view.trick), view.num_seats)
            }
            safe = [c for c in winners if self._holds(c, led, unseen, voids, still)]
            if safe:
                return min(safe, key=lambda c: STANDARD.power(c, led, TRUMP))
            return max(winners, key=lambda c: STANDARD.power(c, led, TRUMP))
        if losers:
            # duck with the highest card that still loses (sheds danger cards)
            return max(
                losers, key=lambda c: (c.suit != TRUMP, STANDARD.power(c, led, TRUMP) % TRUMP_BONUS)
            )
        return min(cards, key=cost)

    @staticmethod
    def _higher_unseen(card: Card, unseen: set[Card]) -> int:
        return sum(1 for c in unseen if c.suit == card.suit and c.rank > card.rank)

    @staticmethod
    def _holds(
        card: Card, led: str, unseen: set[Card], voids: dict[int, set[str]], still: set[int]
    ) -> bool:
        """Will ``card`` survive the players still to play?  Not if a higher
        card of its suit is unseen, nor (for a plain card) if one of them may
        be void in the led suit and still hold spades."""
        if not is_master(card, unseen, STANDARD, TRUMP):
            return False
        if card.suit == TRUMP:
            return True
        may_ruff = any(c.suit == TRUMP for c in unseen) and any(led in voids[s] for s in still)
        return not may_ruff


register_agent("heuristic", "callbreak", CallbreakHeuristic)
