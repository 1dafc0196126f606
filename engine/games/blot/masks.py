"""Bazar Blot's card play on bit masks: the one implementation of the play
rules (rules/blot.md "Card order and points", "Play"), used by the table
(``BlotState``) and by every search in ``engine.ai``.

- A card is an index ``0..31`` (``CARDS``: clubs 7..A, diamonds, hearts,
  spades), a hand is a 32-bit mask (``mask_of``, ``cards_of``, ``bits``).
- ``tables(trump)``: each card's strength under a contract (trumps above
  every plain card, each suit in its explicit order from ``cards.py`` --
  never by point value), its points (``card_points``), and ``takers``: the
  cards that take a trick led in a suit from its current winner.  The
  trick winner, the follow rule and the over-trump rule all read
  ``takers``, so card strength is decided in one place.
- ``allowed``: the cards the seat to play may play, and the rule (a code in
  ``RULES``) that restricts them -- the engine's ``_allowed_cards`` and its
  refusal messages come from it, and so do the searches' legal cards.
- ``settle``: the led suit, winner and points of a trick so far.
- ``BlotPlay``: a cheap play state of one deal for search: ``legal``,
  ``play`` and ``undo`` (no events, no log of actions), ``copy``, and the
  deal's score through ``scoring.Stakes``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.core.cards import Card
from engine.games.blot.cards import LAST_TRICK_BONUS, PLAIN_ORDER, TRUMP_ORDER, card_points
from engine.games.blot.scoring import Stakes

SUIT_ORDER = ("C", "D", "H", "S")
RANK_ORDER = (7, 8, 9, 10, 11, 12, 13, 14)
#: card index -> Card (suit-major: clubs 7..A, diamonds, hearts, spades)
CARDS: tuple[Card, ...] = tuple(Card(r, s) for s in SUIT_ORDER for r in RANK_ORDER)
INDEX: dict[Card, int] = {c: i for i, c in enumerate(CARDS)}
SUIT_OF: tuple[int, ...] = tuple(i >> 3 for i in range(32))
SUIT_MASK: tuple[int, ...] = tuple(0xFF << (8 * k) for k in range(4))
#: strengths of trumps start here, above every plain card
TRUMP_BASE = 100
#: (led suit, winning seat, winning strength, points) of a trick (``settle``)
TrickState = tuple[int, int, int, int]
#: one more than the highest strength
_STRENGTHS = TRUMP_BASE + len(TRUMP_ORDER) + 1


def mask_of(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << INDEX[c]
    return m


#: per suit, per byte of that suit's ranks: the card indices, lowest first
_BYTE_BITS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256)) for k in range(4)
)


def bits(mask: int) -> list[int]:
    """The card indices of ``mask``, lowest first."""
    c, d, h, s = _BYTE_BITS
    return [
        *c[mask & 255],
        *d[mask >> 8 & 255],
        *h[mask >> 16 & 255],
        *s[mask >> 24],
    ]


def cards_of(mask: int) -> list[Card]:
    return [CARDS[i] for i in bits(mask)]


def suit_index(suit: str | None) -> int | None:
    return None if suit is None else SUIT_ORDER.index(suit)


@dataclass(frozen=True)
class Tables:
    """Card strengths and points under one contract (``trump`` None = NT)."""

    trump: int | None
    #: trump: ``TRUMP_BASE`` + its place in the trump order; plain: its place
    #: in the plain order (1 = the 7)
    strength: tuple[int, ...]
    points: tuple[int, ...]
    trump_mask: int
    #: per suit, its cards strongest first
    orders: tuple[tuple[int, ...], ...]
    #: ``takers[led][win]``: the cards that take a trick led in suit ``led``
    #: from a winning card of strength ``win`` (rules "Play": the highest
    #: trump wins, else the highest card of the led suit)
    takers: tuple[tuple[int, ...], ...]
    #: the two settings of the follow rule (``BlotVariant``)
    partner_exemption: bool = True
    must_undertrump: bool = False


@lru_cache(maxsize=32)
def tables(
    trump: str | None, partner_exemption: bool = True, must_undertrump: bool = False
) -> Tables:
    """The tables of a contract (``trump`` None = NT) under the variant's
    follow-rule settings."""
    t = suit_index(trump)
    strength = []
    for i, card in enumerate(CARDS):
        if t is not None and SUIT_OF[i] == t:
            strength.append(TRUMP_BASE + len(TRUMP_ORDER) - TRUMP_ORDER.index(card.rank))
        else:
            strength.append(len(PLAIN_ORDER) - PLAIN_ORDER.index(card.rank))
    trump_mask = SUIT_MASK[t] if t is not None else 0
    takers = []
    for led in range(4):
        # the strength a card has in a trick led in ``led``: a trump or a
        # card of the led suit competes, any other card never wins
        power = [strength[i] if trump_mask >> i & 1 or SUIT_OF[i] == led else -1 for i in range(32)]
        takers.append(
            tuple(sum(1 << i for i in range(32) if power[i] > win) for win in range(_STRENGTHS))
        )
    orders = tuple(
        tuple(sorted((i for i in range(32) if SUIT_OF[i] == k), key=lambda i: -strength[i]))
        for k in range(4)
    )
    return Tables(
        t,
        tuple(strength),
        tuple(card_points(c, trump) for c in CARDS),
        trump_mask,
        orders,
        tuple(takers),
        partner_exemption,
        must_undertrump,
    )


# -- the follow rule (rules "Play") ------------------------------------------------------------
ANY_CARD, FOLLOW, BEAT_TRUMP_LEAD, OVERTRUMP, ANY_TRUMP = range(5)
#: rule code -> (reason code, message) of ``engine.core.follow.Allowed``
RULES: tuple[tuple[str, str], ...] = (
    ("any_card", "any card may be played"),
    ("must_follow_suit", "you must follow suit"),
    ("must_overtrump", "on a trump lead you must beat the highest trump if you can"),
    (
        "must_trump",
        "you are void in the led suit: you must trump, beating the highest trump",
    ),
    ("must_trump", "you are void in the led suit: you must still play a trump"),
)


def allowed(hand: int, seat: int, plays: int, trick: TrickState, tab: Tables) -> tuple[int, int]:
    """(the cards ``seat`` may play, the rule that says so) -- rules "Play":
    follow suit; on a trump lead beat the highest trump if you can (even a
    partner's); void: trump, over-trumping if you can, unless your partner
    is winning (``partner_exemption``); no forced under-trump unless
    ``must_undertrump``.  ``plays`` cards are in the trick, whose state
    (``settle``) is ``trick``."""
    if plays == 0:
        return hand, ANY_CARD
    led, win_seat, win, _ = trick
    same = hand & SUIT_MASK[led]
    if same:
        if led == tab.trump:
            higher = same & tab.takers[led][win]
            if higher:
                return higher, BEAT_TRUMP_LEAD
        return same, FOLLOW
    trumps = hand & tab.trump_mask
    if not trumps or (tab.partner_exemption and (win_seat - seat) % 2 == 0):
        return hand, ANY_CARD
    over = trumps & tab.takers[led][win]
    if over:
        return over, OVERTRUMP
    if tab.must_undertrump:
        return trumps, ANY_TRUMP
    return hand, ANY_CARD


def add_card(state: TrickState, seat: int, card: int, tab: Tables) -> TrickState:
    """The trick once ``seat`` adds ``card`` to it (rules "Play": the highest
    trump wins, else the highest card of the led suit).  ``state`` is the
    trick so far as ``settle`` gives it: a winning strength of 0 is an empty
    trick, which ``card`` leads."""
    led, win_seat, win, pts = state
    if not win:
        return SUIT_OF[card], seat, tab.strength[card], tab.points[card]
    if tab.takers[led][win] >> card & 1:
        return led, seat, tab.strength[card], pts + tab.points[card]
    return led, win_seat, win, pts + tab.points[card]


def settle(cards: Sequence[int], leader: int, tab: Tables) -> TrickState:
    """(led suit, winning seat, winning strength, points) of a trick whose
    ``cards`` were played in order from ``leader``; an empty trick is
    (0, leader, 0, 0)."""
    state = (0, leader, 0, 0)
    for i, card in enumerate(cards):
        state = add_card(state, (leader + i) % 4, card, tab)
    return state


def trick_value(points: int, last: bool) -> int:
    """What a complete trick is worth to its winner: its card points, and
    the last trick of the deal 10 more (rules "Card order and points")."""
    return points + LAST_TRICK_BONUS if last else points


class BlotPlay:
    """One deal's card play from some point on, every hand a mask (a
    sampled world, or the real deal for a player that sees all hands).

    The search API: ``legal()``; ``play(card)`` for the seat to act
    (legality is the caller's: take cards from ``legal()``), which gives a
    complete trick to its winner, who leads next; ``undo()`` takes back the
    last ``play``; ``copy()`` (without the undo log).  ``trick`` holds the
    cards of the trick in progress (from ``leader``), ``state`` its (led
    suit, winning seat, winning strength, points) as ``settle`` says.
    Points (last-trick bonus included) and tricks are per team; ``stakes``
    (contract and declarations) turn them into the deal's score."""

    __slots__ = (
        "_done",
        "_log",
        "hands",
        "leader",
        "points",
        "seat",
        "stakes",
        "state",
        "tab",
        "trick",
        "tricks",
        "trump",
    )

    def __init__(
        self,
        hands: Sequence[int],
        leader: int,
        trump: str | None,
        stakes: Stakes,
        trick: Sequence[int] = (),
        points: Sequence[int] = (0, 0),
        tricks: Sequence[int] = (0, 0),
        partner_exemption: bool = True,
        must_undertrump: bool = False,
    ) -> None:
        self.hands = list(hands)
        self.trump = trump
        self.tab = tables(trump, partner_exemption, must_undertrump)
        self.leader = leader
        self.trick = list(trick)
        self.state = settle(self.trick, leader, self.tab)
        self.seat = (leader + len(self.trick)) % 4
        self.points = list(points)
        self.tricks = list(tricks)
        self.stakes = stakes
        #: per card played, ``state`` before it
        self._log: list[TrickState] = []
        #: per trick completed: (its cards, its leader, team, value)
        self._done: list[tuple[list[int], int, int, int]] = []

    @property
    def cards_left(self) -> int:
        h = self.hands
        return (h[0] | h[1] | h[2] | h[3]).bit_count()

    @property
    def to_act(self) -> int:
        return self.seat

    @property
    def side(self) -> int:
        """The declaring team."""
        return self.stakes.side

    def legal(self) -> int:
        seat = self.seat
        return allowed(self.hands[seat], seat, len(self.trick), self.state, self.tab)[0]

    def play(self, card: int) -> None:
        """The seat to act plays ``card``; a fourth card gives the trick to
        its winner, who leads next."""
        seat = self.seat
        hands = self.hands
        hands[seat] &= ~(1 << card)
        state = self.state
        self._log.append(state)
        self.state = state = add_card(state, seat, card, self.tab)
        trick = self.trick
        trick.append(card)
        if len(trick) < 4:
            self.seat = (seat + 1) & 3
            return
        _, winner, _, pts = state
        value = trick_value(pts, not (hands[0] | hands[1] | hands[2] | hands[3]))
        team = winner & 1
        self.points[team] += value
        self.tricks[team] += 1
        self._done.append((trick, self.leader, team, value))
        self.state = (0, winner, 0, 0)  # an empty trick (``settle``)
        self.trick = []
        self.leader = self.seat = winner

    def undo(self) -> None:
        """Take back the last ``play``."""
        self.state = self._log.pop()
        trick = self.trick
        if not trick:
            trick, self.leader, team, value = self._done.pop()
            self.points[team] -= value
            self.tricks[team] -= 1
            self.trick = trick
        card = trick.pop()
        seat = (self.leader + len(trick)) & 3
        self.hands[seat] |= 1 << card
        self.seat = seat

    def copy(self) -> BlotPlay:
        new = BlotPlay.__new__(BlotPlay)
        new.hands = list(self.hands)
        new.leader, new.seat, new.trick, new.state = (
            self.leader,
            self.seat,
            list(self.trick),
            self.state,
        )
        new.points, new.tricks = list(self.points), list(self.tricks)
        new.tab, new.trump = self.tab, self.trump
        new.stakes = self.stakes.copy()
        new._log, new._done = [], []
        return new

    def final_score(self) -> tuple[int, int]:
        """(team 0, team 1) game points once every card is played."""
        return self.stakes.team_scores(self.points, self.tricks)
