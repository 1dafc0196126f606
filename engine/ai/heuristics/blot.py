"""Bazar Blot heuristic (issue "Bazar Blot", AI): bid a contract the team
can make (its card points, trump strength, declarations, the partner's
bids), double an opponent who overbids, and play sensibly: declarers draw
trumps, everyone cashes aces and tens, points go to a partner who holds the
trick and not to the opponents (rules/blot.md)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.ai.base import BaseAgent, register_agent
from engine.ai.heuristics.trickplay import Choice, PlayContext, decide, register_context
from engine.core.actions import CONTRA, PASS, RECONTRA, Action
from engine.core.cards import Card
from engine.core.game import MatchState
from engine.core.view import Observation
from engine.games.blot.cards import BLOT_RANKING, blot_deck, card_points
from engine.games.blot.declarations import best_split, has_belote

DECK = blot_deck()
STRAINS = ("C", "D", "H", "S", "NT")
#: what an unknown partner brings, in raw points (about a quarter of 162)
PARTNER_POINTS = 35


def hand_value(hand: Sequence[Card], strain: str) -> float:
    """Raw points this hand should win for its team with ``strain`` as the
    contract, plus its declarations and belote."""
    trump = None if strain == "NT" else strain
    value = 0.0
    trumps = [c for c in hand if c.suit == trump]
    n = len(trumps)
    ranks = {c.rank for c in trumps}
    for card in trumps:
        value += {11: 26, 9: 18 if 11 in ranks or n >= 3 else 10, 14: 14, 10: 11}.get(card.rank, 6)
    value += max(0, n - 3) * 8
    for card in hand:
        if card.suit == trump:
            continue
        suit_ranks = {c.rank for c in hand if c.suit == card.suit}
        if card.rank == 14:
            value += 24 if trump is None else 14
        elif card.rank == 10:
            value += (12 if 14 in suit_ranks else 4) + (6 if trump is None else 0)
        else:
            value += card_points(card, trump) * 0.3
    if trump is not None and n <= 1:
        value -= 25  # a short trump suit loses control
    value += sum(d.value for d in best_split(0, hand, trump))
    if has_belote(hand, trump):
        value += 20
    return value


def best_contract(hand: Sequence[Card]) -> tuple[str, float]:
    return max(((s, hand_value(hand, s)) for s in STRAINS), key=lambda p: p[1])


class BlotHeuristic(BaseAgent):
    name = "heuristic"

    def act(
        self,
        view: Observation,
        legal: Sequence[Action],
        *,
        full_state: MatchState | None = None,
    ) -> Action:
        if legal[0].verb == "play":
            return Action("play", (self.explain(view, [a.card for a in legal]).card,))
        return self.auction(view, legal)

    # -- the bazar -------------------------------------------------------------
    def auction(self, view: Observation, legal: Sequence[Action]) -> Action:
        seat = view.seat
        assert seat is not None
        partner = (seat + 2) % 4
        if RECONTRA in legal:
            standing = str(view.extra.get("standing_bid") or "")
            level = int(standing.split()[0]) if standing else 99
            strain = standing.split()[1] if standing else "NT"
            mine = hand_value(view.hand, strain) + PARTNER_POINTS + 10
            return RECONTRA if mine >= 10 * level + 40 else PASS
        last_bid = next(((s, t) for s, t in reversed(view.auction) if t.startswith("bid")), None)
        if last_bid is not None and last_bid[0] % 2 == seat % 2:
            return PASS  # our side holds the bid: do not bid against the partner
        partner_points = PARTNER_POINTS
        partner_strain = None
        partner_bids = [t for s, t in view.auction if s == partner and t.startswith("bid")]
        if partner_bids:
            parts = partner_bids[-1].split()
            partner_points = max(PARTNER_POINTS, 10 * int(parts[1]) - 50)
            partner_strain = parts[2]
        strain, value = best_contract(view.hand)
        if partner_strain is not None and hand_value(view.hand, partner_strain) >= value - 15:
            strain, value = partner_strain, hand_value(view.hand, partner_strain)
        team = value + partner_points
        if last_bid is not None and CONTRA in legal:
            parts = last_bid[1].split()
            level, their = int(parts[1]), parts[2]
            defence = hand_value(view.hand, their) * 0.6 + PARTNER_POINTS
            if 10 * level > 162 - defence + 30 and level >= 10:
                return CONTRA
        level = int(team // 10)
        options = [a for a in legal if a.verb == "bid" and a.word == strain and not a.capot]
        fitting = [a for a in options if (a.number or 0) <= level]
        if fitting:
            return min(fitting, key=lambda a: a.number or 0)
        return PASS

    # -- play -------------------------------------------------------------------
    def explain(self, view: Observation, cards: list[Card]) -> Choice:
        """The card to play and the trick-play rule that chose it."""
        assert view.seat is not None
        return decide(view, cards, play_context(view.seat, view.hand, view.trump, view.declarer))


def play_context(
    seat: int, hand: tuple[Card, ...], trump: str | None, declarer: int | None
) -> PlayContext:
    """Card points to feed or keep; declarers draw trumps; a void player
    trumps unless the partner is winning (rules/blot.md "Play")."""
    return PlayContext(
        seat,
        hand,
        trump,
        BLOT_RANKING,
        DECK,
        (seat + 2) % 4,
        points=_POINTS[trump],
        draw_trumps=declarer is not None and declarer % 2 == seat % 2,
        trump_duty="blot",
    )


def _points_under(trump: str | None) -> Callable[[Card], int]:
    return lambda card: card_points(card, trump)


_POINTS = {t: _points_under(t) for t in (*"CDHS", None)}

register_agent("heuristic", "blot", BlotHeuristic)
register_context("blot", play_context)
