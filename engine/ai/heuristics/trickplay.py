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
from dataclasses import dataclass

from engine.ai.knowledge import (
    TrumpDuty,
    completed_tricks,
    inferred_voids,
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


#: the fixed suit order of ``Table.order`` (jokers: Backalley's jokers-only trump)
SUIT_ORDER = {"S": 0, "H": 1, "D": 2, "C": 3, "J": 4}

#: per game: (playing seat, its cards, trump, declarer) -> PlayContext; the
#: heuristics register theirs so that search rollouts play exactly like them
ContextFor = Callable[[int, tuple[Card, ...], str | None, int | None], PlayContext]
CONTEXTS: dict[str, ContextFor] = {}


def register_context(game: str, context_for: ContextFor) -> None:
    CONTEXTS[game] = context_for


@dataclass(frozen=True)
class Choice:
    """A card and the name of the rule that chose it."""

    card: Card
    rule: str


class _Facts(dict[Card, tuple[str, int, bool]]):
    """Card -> (suit it counts as, strength with trumps on top, is trump),
    filled on first use."""

    def __init__(self, ranking: Ranking, trump: str | None) -> None:
        super().__init__()
        self.ranking = ranking
        self.trump = trump

    def __missing__(self, card: Card) -> tuple[str, int, bool]:
        ranking, trump = self.ranking, self.trump
        suit = ranking.suit_of(card, trump)
        is_trump = trump is not None and suit == trump
        power = TRUMP_BONUS + ranking.trump_power(card) if is_trump else ranking.plain_power(card)
        self[card] = (suit, power, is_trump)
        return self[card]


_FACTS: dict[tuple[int, str | None], _Facts] = {}


def card_facts(ranking: Ranking, trump: str | None) -> _Facts:
    """The shared per-(ranking, trump) table of card facts."""
    key = (id(ranking), trump)
    facts = _FACTS.get(key)
    if facts is None:
        facts = _FACTS[key] = _Facts(ranking, trump)
    return facts


class Table:
    """What the seat knows at one decision: the trick so far, the cards it
    has not seen, the suits each player is known to lack, the plain suits
    its partner led.  Built from an ``Observation`` (``table_from_view``) or,
    in search rollouts, kept up to date card by card (``engine.ai.rollout``)."""

    __slots__ = (
        "_facts",
        "ctx",
        "num_seats",
        "opponents",
        "partner_led",
        "top_unseen",
        "trick",
        "unseen",
        "unseen_trump_count",
        "voids",
    )

    def __init__(
        self,
        ctx: PlayContext,
        trick: Sequence[tuple[int, Card]],
        num_seats: int,
        unseen: set[Card],
        voids: dict[int, set[str]],
        partner_led: set[str],
    ) -> None:
        self.ctx = ctx
        self.trick = trick
        self.num_seats = num_seats
        self.unseen = unseen
        self.voids = voids
        self.partner_led = partner_led
        self.opponents = [s for s in range(num_seats) if s not in (ctx.seat, ctx.partner)]
        self._facts = card_facts(ctx.ranking, ctx.trump)
        #: suit -> strength of the strongest unseen card of it
        top: dict[str, int] = {}
        facts = self._facts
        for card in unseen:
            suit, power, _ = facts[card]
            if power > top.get(suit, -1):
                top[suit] = power
        self.top_unseen = top
        self.unseen_trump_count = sum(1 for c in unseen if facts[c][2])

    def trump(self, card: Card) -> bool:
        return self._facts[card][2]

    def suit(self, card: Card) -> str:
        return self._facts[card][0]

    def strength(self, card: Card) -> int:
        return self._facts[card][1]

    def order(self, card: Card) -> int:
        """A fixed order of the cards (suits S H D C J, then strength): the
        last tie-break of every choice, so that equal candidates never fall
        to the order of the hand (and the bit-coded rollouts of
        ``engine.ai.bitplay`` choose exactly the same card)."""
        suit, power, _ = self._facts[card]
        return SUIT_ORDER.get(suit, 5) * 100 + power % TRUMP_BONUS

    def master(self, card: Card) -> bool:
        """No unseen card of its suit is stronger."""
        suit, power, _ = self._facts[card]
        return power > self.top_unseen.get(suit, -1)

    def unseen_trumps(self) -> int:
        return self.unseen_trump_count

    def may_ruff(self, seat: int, suit: str) -> bool:
        """``seat`` is known void in ``suit`` and may still hold a trump."""
        if self.ctx.trump is None or suit == self.ctx.trump:
            return False
        return (
            suit in self.voids[seat]
            and self.ctx.trump not in self.voids[seat]
            and self.unseen_trump_count > 0
        )

    def sure_later(self, card: Card) -> bool:
        """A master that will win a trick of its own: a trump, or a plain
        card once no trump is left to ruff it."""
        return self.master(card) and (self.trump(card) or self.unseen_trump_count == 0)

    def points(self, card: Card) -> int:
        return self.ctx.points(card) if self.ctx.points is not None else 0


def table_from_view(view: Observation, ctx: PlayContext) -> Table:
    """Everything ``decide`` needs, inferred from one seat's view."""
    partner_led: set[str] = set()
    if ctx.partner is not None:
        partner_led = {
            ctx.ranking.suit_of(trick[0][1], ctx.trump)
            for trick in completed_tricks(view)
            if trick[0][0] == ctx.partner and not ctx.ranking.is_trump(trick[0][1], ctx.trump)
        }
    return Table(
        ctx,
        view.trick,
        view.num_seats,
        unseen_cards(view, ctx.deck),
        inferred_voids(view, ctx.ranking, ctx.trump, ctx.trump_duty),
        partner_led,
    )


def decide(view: Observation, cards: list[Card], ctx: PlayContext) -> Choice:
    """The card to play and the rule that chose it."""
    if len(cards) == 1:
        return Choice(cards[0], "only_card")
    return decide_at(table_from_view(view, ctx), cards)


def decide_at(table: Table, cards: list[Card]) -> Choice:
    """``decide`` for a ``Table`` already built."""
    if len(cards) == 1:
        return Choice(cards[0], "only_card")
    if not table.trick:
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
        return Choice(
            max(safe, key=lambda c: (length[t.suit(c)], t.strength(c), -t.order(c))),
            "cash_master",
        )
    if not side:
        if master_trumps:
            return Choice(_cheapest_equal(t, master_trumps), "lead_trump")
        return Choice(min(cards, key=t.strength), "lead_trump")
    ours = [
        c
        for c in side
        if t.suit(c) in t.partner_led and not any(t.may_ruff(o, t.suit(c)) for o in t.opponents)
    ]
    if ours:
        return Choice(min(ours, key=lambda c: (t.strength(c), t.order(c))), "partner_suit")
    return Choice(_from_length(t, side), "lead_from_length")


def _lengths(t: Table, cards: Sequence[Card]) -> dict[str, int]:
    length: dict[str, int] = {}
    for card in t.ctx.hand or cards:
        length[t.suit(card)] = length.get(t.suit(card), 0) + 1
    return length


def _from_length(t: Table, side: list[Card]) -> Card:
    """The longest side suit no opponent is known to ruff; its top card when
    it heads touching honours (K from K Q, forcing the ace), else its lowest."""
    length = _lengths(t, side)
    by_suit: dict[str, list[Card]] = {}
    for card in side:
        by_suit.setdefault(t.suit(card), []).append(card)

    def rank(suit: str) -> tuple[bool, int, int, int]:
        ruffed = any(t.may_ruff(o, suit) for o in t.opponents)
        low = min(t.strength(c) for c in by_suit[suit])
        return (not ruffed, length[suit], -low, -SUIT_ORDER.get(suit, 5))

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
    ctx = t.ctx
    trick = Trick(t.trick[0][0], list(t.trick))
    led = trick.led_suit(ctx.ranking, ctx.trump)
    assert led is not None
    win_seat, win_card = trick.winning_play(ctx.ranking, ctx.trump)

    def power(c: Card) -> int:
        return ctx.ranking.power(c, led, ctx.trump)

    best = power(win_card)
    winners = [c for c in cards if power(c) > best]
    losers = [c for c in cards if power(c) <= best]
    after = [(trick.leader + k) % t.num_seats for k in range(len(t.trick) + 1, t.num_seats)]
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
    if len(t.trick) == 1:
        return Choice(
            min(cards, key=lambda c: (t.master(c), power(c), t.order(c))), "second_hand_low"
        )
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
            t.order(c),
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
