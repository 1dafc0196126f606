"""A compact Bazar Blot deal for search (rules/blot.md, "Play" and "Scoring").

The engine's ``BlotState`` is built for the table: it records events,
validates input and keeps a history, and copying one costs about 0.2 ms.
A search visits hundreds of thousands of positions, so this module keeps
just what the card play of one deal needs, as small integers:

- a card is an index ``0..31`` (``CARDS``), a hand is a 32-bit mask;
- per contract, each card's strength (trumps above every plain card, each
  suit in its explicit order -- never by point value) and its points;
- the follow rules of rules/blot.md "Play", including the two settings
  that change them (``partner_exemption``, ``must_undertrump``);
- the deal's score from the engine's own ``score_deal``.

``legal_mask`` is checked against the engine's ``_allowed_cards`` in the
tests (every setting), and ``Deal.from_state`` against the engine's scores
at the end of random deals.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from engine.core.cards import Card
from engine.games.blot.cards import (
    LAST_TRICK_BONUS,
    NATURAL_ORDER,
    PLAIN_ORDER,
    TRUMP_ORDER,
    card_points,
)
from engine.games.blot.declarations import (
    NT_QUADS,
    SUIT_QUADS,
    Declaration,
    best_split,
    has_belote,
    run_value,
    strength_key,
)
from engine.games.blot.scoring import DealOutcome, score_deal

SUIT_ORDER = ("C", "D", "H", "S")
RANK_ORDER = (7, 8, 9, 10, 11, 12, 13, 14)
#: card index -> Card (suit-major: clubs 7..A, diamonds, hearts, spades)
CARDS: tuple[Card, ...] = tuple(Card(r, s) for s in SUIT_ORDER for r in RANK_ORDER)
INDEX: dict[Card, int] = {c: i for i, c in enumerate(CARDS)}
SUIT_OF: tuple[int, ...] = tuple(i >> 3 for i in range(32))
SUIT_MASK: tuple[int, ...] = tuple(0xFF << (8 * k) for k in range(4))
FULL = (1 << 32) - 1
#: four of a kind worth declaring, by contract (False: a suit, True: NT)
QUADS = {False: SUIT_QUADS, True: NT_QUADS}
#: strengths of trumps start here, above every plain card
TRUMP_BASE = 100


def mask_of(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << INDEX[c]
    return m


def cards_of(mask: int) -> list[Card]:
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def indices(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _split(seat: int, hand: Sequence[Card], trump: str | None) -> list[Declaration]:
    """``declarations.best_split``, quick for the usual hands: without a
    four of a kind the best split is every maximal run at its full length
    (runs are disjoint, and a run may not stop next to a card of its
    sequence that no other combination uses)."""
    ranks: dict[str, set[int]] = {}
    for c in hand:
        ranks.setdefault(c.suit, set()).add(c.rank)
    if len(ranks) == 4 and set.intersection(*ranks.values()) & set(QUADS[trump is None]):
        return best_split(seat, hand, trump)
    found = []
    for suit, held in ranks.items():
        rank = 14
        while rank >= 9:
            if rank in held and rank - 1 in held and rank - 2 in held:
                low = rank - 2
                while low - 1 in held:
                    low -= 1
                length = rank - low + 1
                cards = tuple(Card(r, suit) for r in range(rank, low - 1, -1))
                top = 8 - NATURAL_ORDER.index(rank)
                found.append(Declaration(seat, "run", cards, run_value(length), length, top, suit))
                rank = low - 1
            else:
                rank -= 1
    return found


def team_declarations(hands: Sequence[Sequence[Card]], trump: str | None, first: int) -> list[int]:
    """Raw declaration points each team will score with these dealt hands
    and this contract: the awarded combinations (the engine's rule,
    ``declarations.award``, with the split skipped for hands that cannot
    declare) and belote (rules/blot.md "Declarations")."""
    best_key: tuple[int, ...] | None = None
    winner: int | None = None
    splits = []
    for seat in range(4):
        split = _split(seat, hands[seat], trump)
        splits.append(split)
        for d in split:
            key = strength_key(d, trump, (seat - first) % 4)
            if best_key is None or key > best_key:
                best_key, winner = key, seat % 2
    decl = [0, 0]
    if winner is not None:
        decl[winner] = sum(d.value for s in (winner, winner + 2) for d in splits[s])
    for seat in range(4):
        if has_belote(hands[seat], trump):
            decl[seat % 2] += 20
    return decl


@dataclass(frozen=True)
class Tables:
    """Card strengths and points under one contract (``trump`` None = NT)."""

    trump: int | None
    strength: tuple[int, ...]
    points: tuple[int, ...]
    #: strength s -> mask of the trumps stronger than s
    trump_above: tuple[int, ...]
    trump_mask: int
    #: per suit, its cards strongest first
    orders: tuple[tuple[int, ...], ...]


@lru_cache(maxsize=8)
def tables(trump: str | None) -> Tables:
    t = None if trump is None else SUIT_ORDER.index(trump)
    strength = []
    for card in CARDS:
        if t is not None and SUIT_OF[INDEX[card]] == t:
            strength.append(TRUMP_BASE + len(TRUMP_ORDER) - TRUMP_ORDER.index(card.rank))
        else:
            strength.append(len(PLAIN_ORDER) - PLAIN_ORDER.index(card.rank))
    trump_mask = SUIT_MASK[t] if t is not None else 0
    above = []
    for s in range(TRUMP_BASE + 10):
        m = 0
        for i in range(32):
            if trump_mask >> i & 1 and strength[i] > s:
                m |= 1 << i
        above.append(m)
    orders = tuple(
        tuple(sorted((i for i in range(32) if SUIT_OF[i] == k), key=lambda i: -strength[i]))
        for k in range(4)
    )
    return Tables(
        t,
        tuple(strength),
        tuple(card_points(c, trump) for c in CARDS),
        tuple(above),
        trump_mask,
        orders,
    )


def legal_mask(
    hand: int,
    seat: int,
    plays: int,
    led: int,
    win_seat: int,
    win_strength: int,
    tab: Tables,
    partner_exemption: bool = True,
    must_undertrump: bool = False,
) -> int:
    """The cards ``seat`` may play (rules/blot.md "Play"): ``plays`` cards
    are in the trick, led in suit ``led``, won so far by ``win_seat`` with a
    card of strength ``win_strength`` (a trump when >= ``TRUMP_BASE``)."""
    if plays == 0:
        return hand
    same = hand & SUIT_MASK[led]
    if same:
        if led == tab.trump:
            # a trump lead: beat the highest trump if you can, even a partner's
            higher = same & tab.trump_above[win_strength]
            return higher or same
        return same
    trumps = hand & tab.trump_mask
    if not trumps:
        return hand
    if partner_exemption and (win_seat - seat) % 2 == 0:
        return hand
    over = trumps & tab.trump_above[win_strength] if win_strength >= TRUMP_BASE else trumps
    if over:
        return over
    return trumps if must_undertrump else hand


@dataclass
class Deal:
    """One deal's card play from some point on, every hand known (a sampled
    world, or the real deal for the baseline that sees all hands)."""

    hands: list[int]
    #: the trick in progress: (seat, card index), in order
    trick: list[tuple[int, int]]
    leader: int
    trump: str | None
    declarer: int
    level: int
    doubling: int
    capot: bool
    #: raw card points of each team so far (completed tricks, last-trick bonus included)
    points: list[int]
    #: tricks each team has taken so far
    tricks: list[int]
    #: awarded declarations plus belote (announced, or still to come) per team
    decl: list[int]
    partner_exemption: bool = True
    must_undertrump: bool = False
    declarations_count: bool = True
    nt_multipliers: tuple[int, int] = (3, 5)
    tab: Tables = field(init=False)

    def __post_init__(self) -> None:
        self.tab = tables(self.trump)

    @property
    def cards_left(self) -> int:
        return sum(h.bit_count() for h in self.hands)

    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) % 4

    @property
    def side(self) -> int:
        """The declaring team."""
        return self.declarer % 2

    def trick_state(self) -> tuple[int, int, int, int]:
        """(led suit, winning seat, winning strength, points in the trick)."""
        if not self.trick:
            return 0, self.leader, -1, 0
        strength, points = self.tab.strength, self.tab.points
        led = SUIT_OF[self.trick[0][1]]
        win_seat, win = self.trick[0][0], strength[self.trick[0][1]]
        pts = 0
        for seat, card in self.trick:
            pts += points[card]
            s = strength[card]
            if (SUIT_OF[card] == led or s >= TRUMP_BASE) and s > win:
                win_seat, win = seat, s
        return led, win_seat, win, pts

    def legal(self) -> int:
        led, win_seat, win, _ = self.trick_state()
        seat = self.to_act
        return legal_mask(
            self.hands[seat],
            seat,
            len(self.trick),
            led,
            win_seat,
            win,
            self.tab,
            self.partner_exemption,
            self.must_undertrump,
        )

    def play(self, card: int) -> None:
        """Play ``card`` for the seat to act (legality is the caller's)."""
        seat = self.to_act
        self.hands[seat] &= ~(1 << card)
        self.trick.append((seat, card))
        if len(self.trick) < 4:
            return
        _, win_seat, _, pts = self.trick_state()
        if not any(self.hands):
            pts += LAST_TRICK_BONUS
        self.points[win_seat % 2] += pts
        self.tricks[win_seat % 2] += 1
        self.trick = []
        self.leader = win_seat

    def copy(self) -> Deal:
        new = Deal(
            list(self.hands),
            list(self.trick),
            self.leader,
            self.trump,
            self.declarer,
            self.level,
            self.doubling,
            self.capot,
            list(self.points),
            list(self.tricks),
            list(self.decl),
            self.partner_exemption,
            self.must_undertrump,
            self.declarations_count,
            self.nt_multipliers,
        )
        return new

    def score(self, points_declarers: int, tricks_declarers: int) -> tuple[int, int]:
        """(declarers, defenders) game points of the deal ending with the
        declarers on these raw points and tricks (``score_deal``)."""
        side = self.side
        return score_deal(
            DealOutcome(
                level=self.level,
                nt=self.trump is None,
                doubling=self.doubling,
                capot_bid=self.capot,
                cards_declarers=points_declarers,
                tricks_declarers=tricks_declarers,
                decl_declarers=self.decl[side],
                decl_defenders=self.decl[1 - side],
                declarations_count=self.declarations_count,
                nt_multipliers=self.nt_multipliers,
            )
        )

    def final_score(self) -> tuple[int, int]:
        """(team 0, team 1) game points once every card is played."""
        a, d = self.score(self.points[self.side], self.tricks[self.side])
        return (a, d) if self.side == 0 else (d, a)

    @classmethod
    def from_state(cls, state: Any) -> Deal:
        """The play of an engine ``BlotState`` (a real deal or a world) from
        where it stands.  Belote counts for a seat that announced it and for
        one that still holds the trump K and Q (it will announce it when it
        plays the first): rules/blot.md "Declarations"."""
        auction = state.auction
        trump = state.trump
        decl = [0, 0]
        for d in state.declared:
            decl[d.seat % 2] += d.value
        for seat in range(4):
            both = trump is not None and {Card(13, trump), Card(12, trump)} <= set(
                state.hands[seat]
            )
            if seat in state.belote or both:
                decl[seat % 2] += 20
        variant = state.variant
        return cls(
            hands=[mask_of(h) for h in state.hands],
            trick=[(s, INDEX[c]) for s, c in state.trick.plays],
            leader=state.trick.leader,
            trump=trump,
            declarer=auction.bidder,
            level=auction.level,
            doubling=auction.doubling,
            capot=auction.capot,
            points=list(state.points_won),
            tricks=[
                state.tricks_won[0] + state.tricks_won[2],
                state.tricks_won[1] + state.tricks_won[3],
            ],
            decl=decl,
            partner_exemption=variant.partner_exemption,
            must_undertrump=variant.must_undertrump,
            declarations_count=variant.declarations_count_for_contract,
            nt_multipliers=tuple(variant.nt_doubling_multipliers),
        )
