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
- A ``Position`` is the card play of a deal at one moment, as one tuple of
  small integers.  ``allowed(pos)``: the cards the seat to act may play,
  and the rule (a code in ``RULES``) that restricts them -- the table's
  ``_allowed_cards`` and its refusal messages come from it, and so do the
  searches' legal cards.
  ``step(pos, card)``: the next position (the trick's winner, the points
  of a complete trick with the last-trick bonus, who leads next) -- the
  table's card points come from it too.  Positions are immutable, so a
  search goes down by ``step`` and back up by keeping the parent.
- ``BlotPlay``: a position with its contract (``scoring.Stakes``) for the
  searches: ``legal``, ``play``/``undo``, ``run`` (a play-out by a
  policy), ``copy``, and the deal's score.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

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
FULL = (1 << 32) - 1
#: a position's totals are one int: team ``t``'s points (last-trick bonus
#: included) in bits ``POINT_SHIFT[t]`` on (12 bits), its tricks in bits
#: ``TRICK_SHIFT[t]`` on (6 bits); ``totals_of`` reads them
POINT_SHIFT = (0, 12)
TRICK_SHIFT = (24, 30)
#: a position of the card play: (the four hands, by seat; the seat to act;
#: cards in the trick; the trick's led suit, winning seat, winning strength
#: and points; the totals).  An empty trick has led suit 0, its leader as
#: winning seat, strength 0 and no points.  ``pos[seat]`` is that seat's hand.
Position = tuple[int, ...]
SEAT: Final = 4
PLAYS: Final = 5
LED: Final = 6
WIN_SEAT: Final = 7
WIN: Final = 8
TRICK_POINTS: Final = 9
TOTALS: Final = 10
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


def allowed(pos: Position, tab: Tables) -> tuple[int, int]:
    """(the cards the seat to act may play, the rule that says so) -- rules
    "Play": follow suit; on a trump lead beat the highest trump if you can
    (even a partner's); void: trump, over-trumping if you can, unless your
    partner is winning (``partner_exemption``); no forced under-trump
    unless ``must_undertrump``."""
    _, _, _, _, seat, n, led, win_seat, win, _, _ = pos
    hand = pos[seat]
    if not n:
        return hand, ANY_CARD
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


def step(pos: Position, card: int, tab: Tables) -> Position:
    """The position once the seat to act plays ``card`` (legality is the
    caller's: take it from ``allowed``).  Rules "Play": the highest trump
    wins the trick, else the highest card of the led suit; the fourth card
    gives the trick and its points to the winner's team,
    and the winner leads next; the last trick of the deal is worth 10 more
    (rules "Card order and points")."""
    h0, h1, h2, h3, seat, n, led, win_seat, win, pts, totals = pos
    if seat == 0:
        h0 &= ~(1 << card)
    elif seat == 1:
        h1 &= ~(1 << card)
    elif seat == 2:
        h2 &= ~(1 << card)
    else:
        h3 &= ~(1 << card)
    if not n:
        led, win_seat, win, pts = SUIT_OF[card], seat, tab.strength[card], tab.points[card]
    elif tab.takers[led][win] >> card & 1:
        win_seat, win, pts = seat, tab.strength[card], pts + tab.points[card]
    else:
        pts += tab.points[card]
    if n < 3:
        return (h0, h1, h2, h3, (seat + 1) & 3, n + 1, led, win_seat, win, pts, totals)
    if not (h0 | h1 | h2 | h3):  # the last trick of the deal: 10 more
        pts += LAST_TRICK_BONUS
    totals += pts << POINT_SHIFT[win_seat & 1] | 1 << TRICK_SHIFT[win_seat & 1]
    return (h0, h1, h2, h3, win_seat, 0, 0, win_seat, 0, 0, totals)


def position(
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int],
    tab: Tables,
    points: Sequence[int] = (0, 0),
    tricks: Sequence[int] = (0, 0),
) -> Position:
    """The position with these ``hands`` (masks, by seat), the cards of the
    trick in progress played in order from ``leader``, and each team's
    points and tricks so far."""
    totals = points[0] | points[1] << 12 | tricks[0] << 24 | tricks[1] << 30
    h0, h1, h2, h3 = hands
    pos: Position = (h0, h1, h2, h3, leader, 0, 0, leader, 0, 0, totals)
    for card in trick:
        pos = step(pos, card, tab)
    return pos


def totals_of(pos: Position) -> tuple[int, int, int, int]:
    """(team 0's points, team 1's points, team 0's tricks, team 1's tricks)."""
    t = pos[TOTALS]
    return t & 4095, t >> 12 & 4095, t >> 24 & 63, t >> 30


def hands_of(pos: Position) -> list[int]:
    """The four hands of a position, by seat."""
    return [pos[0], pos[1], pos[2], pos[3]]


def held(pos: Position) -> int:
    """Every card still held, by anyone."""
    return pos[0] | pos[1] | pos[2] | pos[3]


class BlotPlay:
    """One deal's card play from some point on, every hand known (a sampled
    world, or the real deal for a player that sees all hands): the search
    API.  ``pos`` is the position (immutable: a child is a new tuple, so a
    search may keep any it likes); ``legal()``; ``play(card)`` and
    ``undo()``; ``run(policy)`` plays on with a policy's cards; ``copy()``.
    ``stakes`` (contract and declarations) turn the points and tricks into
    the deal's score."""

    __slots__ = ("_log", "pos", "stakes", "tab", "trump")

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
        self.trump = trump
        self.tab = tables(trump, partner_exemption, must_undertrump)
        self.pos = position(hands, leader, trick, self.tab, points, tricks)
        self.stakes = stakes
        self._log: list[Position] = []

    @classmethod
    def at(cls, pos: Position, trump: str | None, tab: Tables, stakes: Stakes) -> BlotPlay:
        """A play state at ``pos`` (``tab``: the contract's ``tables``)."""
        new = cls.__new__(cls)
        new.pos, new.tab, new.trump, new.stakes = pos, tab, trump, stakes
        new._log = []
        return new

    @property
    def hands(self) -> list[int]:
        return hands_of(self.pos)

    @property
    def cards_left(self) -> int:
        return held(self.pos).bit_count()

    @property
    def to_act(self) -> int:
        return self.pos[SEAT]

    @property
    def points(self) -> list[int]:
        return list(totals_of(self.pos)[:2])

    @property
    def tricks(self) -> list[int]:
        return list(totals_of(self.pos)[2:])

    @property
    def side(self) -> int:
        """The declaring team."""
        return self.stakes.side

    def deal(self, hands: Sequence[int]) -> None:
        """Give the seats these hands (a sampled world), the trick as it is."""
        h0, h1, h2, h3 = hands
        self.pos = (h0, h1, h2, h3, *self.pos[4:])

    def legal(self) -> int:
        return allowed(self.pos, self.tab)[0]

    def play(self, card: int) -> None:
        self._log.append(self.pos)
        self.pos = step(self.pos, card, self.tab)

    def undo(self) -> None:
        """Take back the last ``play``."""
        self.pos = self._log.pop()

    def run(self, policy: Callable[[Position, int], int], stop_at: int = 0) -> None:
        """Play on, each card ``policy(position, legal cards)`` (asked only
        when there is a choice), to the end of the deal or until ``stop_at``
        cards are left (no undo)."""
        pos, tab = self.pos, self.tab
        left = held(pos).bit_count()
        while left > stop_at:
            left -= 1
            legal = allowed(pos, tab)[0]
            # a single legal card is played without asking
            card = legal.bit_length() - 1 if not legal & (legal - 1) else policy(pos, legal)
            pos = step(pos, card, tab)
        self.pos = pos

    def copy(self) -> BlotPlay:
        new = BlotPlay.__new__(BlotPlay)
        new.pos, new.tab, new.trump = self.pos, self.tab, self.trump
        new.stakes = self.stakes.copy()
        new._log = []
        return new

    def final_score(self) -> tuple[int, int]:
        """(team 0, team 1) game points once every card is played."""
        return self.stakes.team_scores(self.points, self.tricks)
