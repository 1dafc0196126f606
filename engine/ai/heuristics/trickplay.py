"""Card play shared by the trick-game heuristics (Callbreak, Eşli Batak,
Bazar Blot, Backalley): a few named rules of good play, tried in order.

Following a trick:

- ``partner_holds``: the partner is winning the trick for sure (nobody still
  to play can beat the card): do not overtake; play the lowest card, or in
  a game with card points feed the partner the most points.
- ``cannot_win_play_low``: no legal card beats the trick: play the lowest
  card of the led suit (no dumping of honours), never a master.
- ``discard``: void and not winning: throw the lowest card that keeps the
  hand's winners (no masters, no guard of an honour), keeping trumps and
  shortening a short suit.
- ``last_hand_cheapest``: last to play: win with the cheapest winner.
- ``win_for_sure``: a winner nobody after can beat (a master no one still to
  play can ruff): take the trick with the cheapest such card.
- ``no_overtake``: the partner is winning but not for sure and no card of
  ours makes it sure: play low and leave it to the partner.
- ``second_hand_low``: second to play: the lowest legal card.
- ``third_hand_high``: later hands with an opponent still to play: play high
  to win or to force out the next player's honour, the cheapest of equal
  cards.
- ``ruff``: void, holding a trump that wins: the cheapest trump that holds
  against an over-ruff, else the cheapest winning trump.

Leading:

- ``draw_trumps``: count trumps; when the seat's side holds the master trump
  and the opponents may still hold trumps (and the seat is declarer, or at
  least as long in trumps as the unseen rest), lead the master trump.
- ``cash_master``: lead a side-suit master no opponent is known to ruff.
- ``partner_suit``: return a suit the partner led this deal.
- ``lead_from_length``: lead from the longest side suit no opponent is known
  to ruff: the top of touching honours, else the lowest card.
- ``lead_trump``: only trumps are legal: the cheapest (a master first).

Every seat wants tricks: in all four games a trick (or its card points) is
worth something to the side that takes it and nothing to the others (an
overtrick scores in Callbreak and Backalley).

Each game's compulsory rules (must beat, must trump) are already in the
legal cards: these rules only ever choose among them.  Reads only an
``Observation`` plus the game's trump and card order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.ai.knowledge import (
    TrumpDuty,
    completed_tricks,
    inferred_voids,
    is_master,
    touching,
    unseen_cards,
)
from engine.core.cards import Card
from engine.core.trick import TRUMP_BONUS, Ranking, Trick
from engine.core.view import Observation


@dataclass(frozen=True)
class PlayContext:
    """Who is playing which hand, and what the game's cards mean."""

    seat: int  # the seat whose card is played (Batak's dummy included)
    hand: tuple[Card, ...]  # that seat's cards
    trump: str | None
    ranking: Ranking
    deck: Sequence[Card]
    partner: int | None = None
    #: card points (Blot): feed them to a winning partner, keep them from opponents
    points: Callable[[Card], int] | None = None
    #: lead master trumps before side-suit masters (declarers drawing trumps)
    draw_trumps: bool = False
    #: when a void player must trump (what a discard tells about trumps)
    trump_duty: TrumpDuty = "never"


@dataclass(frozen=True)
class Choice:
    """A card and the name of the rule that chose it."""

    card: Card
    rule: str


@dataclass
class Table:
    """What the seat knows at this decision (computed once)."""

    view: Observation
    ctx: PlayContext
    unseen: set[Card]
    voids: dict[int, set[str]]
    opponents: list[int] = field(default_factory=list)

    def trump(self, card: Card) -> bool:
        return self.ctx.ranking.is_trump(card, self.ctx.trump)

    def suit(self, card: Card) -> str:
        return self.ctx.ranking.suit_of(card, self.ctx.trump)

    def strength(self, card: Card) -> int:
        if self.trump(card):
            return TRUMP_BONUS + self.ctx.ranking.trump_power(card)
        return self.ctx.ranking.plain_power(card)

    def master(self, card: Card) -> bool:
        return is_master(card, self.unseen, self.ctx.ranking, self.ctx.trump)

    def unseen_trumps(self) -> int:
        return sum(1 for c in self.unseen if self.trump(c))

    def may_ruff(self, seat: int, suit: str) -> bool:
        """``seat`` is known void in ``suit`` and may still hold a trump."""
        if self.ctx.trump is None or suit == self.ctx.trump:
            return False
        return (
            suit in self.voids[seat]
            and self.ctx.trump not in self.voids[seat]
            and self.unseen_trumps() > 0
        )

    def sure_later(self, card: Card) -> bool:
        """A master that will win a trick of its own: a trump, or a plain
        card once no trump is left to ruff it."""
        return self.master(card) and (self.trump(card) or self.unseen_trumps() == 0)

    def points(self, card: Card) -> int:
        return self.ctx.points(card) if self.ctx.points is not None else 0


def choose_card(view: Observation, cards: list[Card], ctx: PlayContext) -> Card:
    """The card to play among the legal ``cards``."""
    return decide(view, cards, ctx).card


def decide(view: Observation, cards: list[Card], ctx: PlayContext) -> Choice:
    """The card to play and the rule that chose it."""
    table = Table(
        view,
        ctx,
        unseen_cards(view, ctx.deck),
        inferred_voids(view, ctx.ranking, ctx.trump, ctx.trump_duty),
    )
    table.opponents = [s for s in range(view.num_seats) if s not in (ctx.seat, ctx.partner)]
    if len(cards) == 1:
        return Choice(cards[0], "only_card")
    if not view.trick:
        return _lead(table, cards)
    return _follow(table, cards)


# -- leading --------------------------------------------------------------------------------
def _lead(t: Table, cards: list[Card]) -> Choice:
    side = [c for c in cards if not t.trump(c)]
    trumps = [c for c in cards if t.trump(c)]
    master_trumps = [c for c in trumps if t.master(c)]
    out = t.unseen_trumps()
    opponents_trumps = any(t.ctx.trump not in t.voids[o] for o in t.opponents)
    if master_trumps and out and opponents_trumps and (t.ctx.draw_trumps or len(trumps) >= out):
        return Choice(_cheapest_equal(t, master_trumps), "draw_trumps")
    safe = [
        c for c in side if t.master(c) and not any(t.may_ruff(o, t.suit(c)) for o in t.opponents)
    ]
    if safe:
        length = _lengths(t, cards)
        return Choice(max(safe, key=lambda c: (length[t.suit(c)], t.strength(c))), "cash_master")
    if not side:
        if master_trumps:
            return Choice(_cheapest_equal(t, master_trumps), "lead_trump")
        return Choice(min(cards, key=t.strength), "lead_trump")
    led_by_partner = _partner_suits(t)
    ours = [
        c
        for c in side
        if t.suit(c) in led_by_partner and not any(t.may_ruff(o, t.suit(c)) for o in t.opponents)
    ]
    if ours:
        return Choice(min(ours, key=t.strength), "partner_suit")
    return Choice(_from_length(t, side), "lead_from_length")


def _lengths(t: Table, cards: Sequence[Card]) -> dict[str, int]:
    length: dict[str, int] = {}
    for card in t.ctx.hand or cards:
        length[t.suit(card)] = length.get(t.suit(card), 0) + 1
    return length


def _partner_suits(t: Table) -> set[str]:
    """Plain suits the partner led this deal."""
    if t.ctx.partner is None:
        return set()
    return {
        t.suit(trick[0][1])
        for trick in completed_tricks(t.view)
        if trick[0][0] == t.ctx.partner and not t.trump(trick[0][1])
    }


def _from_length(t: Table, side: list[Card]) -> Card:
    """The longest side suit no opponent is known to ruff; its top card when
    it heads touching honours (K from K Q, forcing the ace), else its lowest."""
    length = _lengths(t, side)
    by_suit: dict[str, list[Card]] = {}
    for card in side:
        by_suit.setdefault(t.suit(card), []).append(card)

    def rank(suit: str) -> tuple[bool, int, int]:
        ruffed = any(t.may_ruff(o, suit) for o in t.opponents)
        low = min(t.strength(c) for c in by_suit[suit])
        return (not ruffed, length[suit], -low)

    suit = max(by_suit, key=rank)
    group = sorted(by_suit[suit], key=t.strength, reverse=True)
    if len(group) >= 2 and touching(group[1], group[0], t.unseen, t.ctx.ranking, t.ctx.trump):
        honour = t.ctx.ranking.plain_power(group[1]) >= t.ctx.ranking.plain_power(
            Card(11, group[1].suit)
        )
        if honour:
            return group[0]
    return group[-1]


def _cheapest_equal(t: Table, cards: list[Card]) -> Card:
    """The weakest card among those equal to the strongest of ``cards``."""
    ordered = sorted(cards, key=t.strength, reverse=True)
    pick = ordered[0]
    for card in ordered[1:]:
        if touching(card, pick, t.unseen, t.ctx.ranking, t.ctx.trump):
            pick = card
        else:
            break
    return pick


# -- following -------------------------------------------------------------------------------
def _follow(t: Table, cards: list[Card]) -> Choice:
    view, ctx = t.view, t.ctx
    trick = Trick(view.trick[0][0], list(view.trick))
    led = trick.led_suit(ctx.ranking, ctx.trump)
    assert led is not None
    win_seat, win_card = trick.winning_play(ctx.ranking, ctx.trump)

    def power(c: Card) -> int:
        return ctx.ranking.power(c, led, ctx.trump)

    best = power(win_card)
    winners = [c for c in cards if power(c) > best]
    losers = [c for c in cards if power(c) <= best]
    after = [
        (trick.leader + k) % view.num_seats for k in range(len(view.trick) + 1, view.num_seats)
    ]
    opponents_after = [s for s in after if s != ctx.partner]
    partner_winning = ctx.partner is not None and win_seat == ctx.partner
    following = any(t.suit(c) == led for c in cards)

    def holds(card: Card) -> bool:
        return _holds(t, card, led, opponents_after)

    if partner_winning and (not opponents_after or holds(win_card)):
        if losers:
            return Choice(_low(t, losers, led, feed=True), "partner_holds")
        return Choice(min(winners, key=power), "partner_holds")
    if not winners:
        if following:
            return Choice(_low(t, losers, led), "cannot_win_play_low")
        return Choice(_discard(t, losers), "discard")
    if not following:
        if partner_winning and losers:
            return Choice(_discard(t, losers), "no_overtake")
        sure = [c for c in winners if holds(c)]
        return Choice(min(sure or winners, key=power), "ruff")
    if not opponents_after:
        return Choice(min(winners, key=power), "last_hand_cheapest")
    sure = [c for c in winners if holds(c)]
    if sure:
        return Choice(min(sure, key=power), "win_for_sure")
    if partner_winning and losers:
        return Choice(_low(t, losers, led), "no_overtake")
    if len(view.trick) == 1:
        return Choice(min(cards, key=lambda c: (t.master(c), power(c))), "second_hand_low")
    return Choice(_cheapest_equal(t, winners), "third_hand_high")


def _low(t: Table, cards: list[Card], led: str, feed: bool = False) -> Card:
    """The card to play when this trick is not ours to win: of the led suit
    when following, the lowest (with card points: the fewest for the
    opponents, the most non-master points for a partner who holds it)."""
    same = [c for c in cards if t.suit(c) == led]
    if not same:
        return _discard(t, cards, feed)
    if feed and t.ctx.points is not None:
        return max(same, key=lambda c: (not t.sure_later(c), t.points(c), -t.strength(c)))
    return min(same, key=lambda c: (t.master(c), t.points(c), t.strength(c)))


def _discard(t: Table, cards: list[Card], feed: bool = False) -> Card:
    """Void in the led suit: the lowest card that keeps the hand's winners --
    no trump while a plain card is left, no master, no card guarding an
    honour -- from the shortest suit (it may become a void).  Feeding a
    partner who holds the trick: the most points, keeping a master that
    will win its own trick (no trump left to ruff it)."""
    hand = t.ctx.hand or tuple(cards)
    length = _lengths(t, hand)

    def guards(card: Card) -> bool:
        """The only low card beside a non-master honour of its suit (K x)."""
        suit = [c for c in hand if t.suit(c) == t.suit(card)]
        honours = [c for c in suit if not t.master(c) and t.strength(c) > t.strength(card)]
        return len(suit) == 2 and bool(honours) and not t.master(card)

    if feed and t.ctx.points is not None:
        return max(
            cards,
            key=lambda c: (not t.trump(c), not t.sure_later(c), t.points(c), -t.strength(c)),
        )
    return min(
        cards,
        key=lambda c: (
            t.trump(c),
            t.master(c),
            guards(c),
            t.points(c),
            t.strength(c) % TRUMP_BONUS,
            length[t.suit(c)],
        ),
    )


def _holds(t: Table, card: Card, led: str, opponents_after: list[int]) -> bool:
    """Will ``card`` (winning now) survive the opponents still to play?  Not
    if a stronger card of its suit is unseen; a plain card not if one of them
    is known void in the led suit and may hold a trump; a trump played on a
    plain lead holds unless such a void opponent may over-ruff it."""
    if not opponents_after:
        return True
    if t.trump(card) and led != t.ctx.trump:
        if t.master(card):
            return True
        return not any(t.may_ruff(o, led) for o in opponents_after)
    if not t.master(card):
        return False
    if t.trump(card) or t.ctx.trump is None:
        return True
    return not any(t.may_ruff(o, led) for o in opponents_after)
