"""A deal of Callbreak, Eşli Batak or Backalley as bitmasks, for play-outs
(issue 14: "search agent: at least 5x more rollouts per second").

A search decision plays thousands of cards in sampled worlds; the engine's
``MatchState`` keeps a log, events, an ``Allowed`` with messages and frozen
``Action`` objects per card, which is right for a table and far too much for
a play-out.  Here a hand is one ``int``: bit ``16 * slot + strength`` per
card, where *slot* is the suit the card counts as (S H D C, and the jokers'
own slot 4 when they are Backalley's only trump) and *strength* orders the
cards of the slot (rank - 2; Backalley's jokers 13 and 14, above the ace of
trump).  Following, heading, trumping and winning a trick are then a few
mask operations.

The rules are the engine's (``engine.core.follow``, the games' ``rules.py``)
restated on masks: ``tests/ai/test_bitplay.py`` plays positions of every
game through both and checks that the legal cards, the trick winners and
the deal scores agree card by card.  Only the play of one deal is modelled;
what follows the deal is the engine's business.  (An engine API for a legal
mask and a cheap copy would let most of this module go: docs/benchmarks.md,
"AI: rollouts per second".)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from engine.core.cards import JOKER_SUIT, Card, standard_deck
from engine.games.backalley.scoring import score_backalley
from engine.games.backalley.scoring import score_bid as backalley_bid_score
from engine.games.batak.scoring import score_deal as batak_score
from engine.games.callbreak.scoring import score_bid as callbreak_bid_score

#: suit -> slot (jokers have their own slot only as the jokers-only trump)
SLOT = {"S": 0, "H": 1, "D": 2, "C": 3, JOKER_SUIT: 4}
SLOTS = 5
#: every bit of a slot
SUIT_MASK = tuple(0xFFFF << (16 * s) for s in range(SLOTS))
#: bit -> the bits of its slot strictly stronger than it
ABOVE = tuple(SUIT_MASK[b >> 4] & ~((2 << b) - 1) for b in range(16 * SLOTS))
#: Backalley: the jokers' strength, above the ace (12) of trump
JOKER_STRENGTH = {15: 13, 16: 14}


def bits_of(mask: int) -> list[int]:
    """The set bits of ``mask``, weakest slot and strength first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True)
class Codec:
    """Cards <-> bits for one game and trump (Backalley's jokers follow trump)."""

    trump: str | None
    jokers: bool

    def bit(self, card: Card) -> int:
        return _bit_table(self.trump, self.jokers)[card]

    def card(self, bit: int) -> Card:
        return _card_table(self.trump, self.jokers)[bit]

    def mask(self, cards: Iterable[Card]) -> int:
        table = _bit_table(self.trump, self.jokers)
        m = 0
        for card in cards:
            m |= 1 << table[card]
        return m

    def cards(self, mask: int) -> list[Card]:
        table = _card_table(self.trump, self.jokers)
        return [table[b] for b in bits_of(mask)]

    @property
    def deck(self) -> int:
        return _deck_mask(self.trump, self.jokers)


@cache
def _bit_table(trump: str | None, jokers: bool) -> dict[Card, int]:
    table: dict[Card, int] = {}
    for card in standard_deck(jokers=jokers):
        if card.suit == JOKER_SUIT:
            slot = SLOT[trump] if trump is not None else SLOT[JOKER_SUIT]
            table[card] = 16 * slot + JOKER_STRENGTH[card.rank]
        else:
            table[card] = 16 * SLOT[card.suit] + card.rank - 2
    return table


@cache
def _deck_mask(trump: str | None, jokers: bool) -> int:
    m = 0
    for b in _bit_table(trump, jokers).values():
        m |= 1 << b
    return m


@cache
def _card_table(trump: str | None, jokers: bool) -> dict[int, Card]:
    return {b: c for c, b in _bit_table(trump, jokers).items()}


@cache
def codec(game: str, trump: str | None) -> Codec:
    return Codec(trump, jokers=game == "backalley")


@dataclass(frozen=True)
class Rules:
    """What one deal's play follows (fixed for the deal).

    ``follow``: "heading" (Callbreak, Batak: follow with a higher card when
    able, void -> trump, over-trump a ruffed trick; a void player who cannot
    over-trump plays any card in Callbreak, any trump in Batak) or "suit"
    (Backalley: follow suit, else anything).  ``lead``: "any", "unbroken"
    (no trump lead while trump is unbroken unless only trumps are held) or
    "only_trumps" (never, unless only trumps are held).  ``unlock``: what
    breaks trump in Batak ("any_trump" or "ruff_only")."""

    game: str
    num_seats: int
    trump: int  # slot
    follow: str
    lead: str
    under_trump: str = "any_card"
    unlock: str = "any_trump"


def rules_for(game: str, num_seats: int, trump: str, **options: str) -> Rules:
    slot = SLOT[trump]
    if game == "callbreak":
        return Rules(game, 4, slot, "heading", "any")
    if game == "batak":
        return Rules(
            game, 4, slot, "heading", "unbroken", "any_trump", options.get("unlock", "any_trump")
        )
    if game == "backalley":
        lead = "unbroken" if options.get("trump_lead") == "broken" else "only_trumps"
        return Rules(game, num_seats, slot, "suit", lead)
    raise ValueError(f"no bit-coded deal for {game!r}")


class Deal:
    """One deal in play: hands, the trick, tricks won, trump broken."""

    __slots__ = (
        "broken",
        "hands",
        "leader",
        "led",
        "led_top",
        "plays",
        "to_act",
        "trump_top",
        "win_seat",
        "won",
    )

    def __init__(self, hands: list[int], leader: int, won: list[int], broken: bool = False) -> None:
        self.hands = hands
        self.leader = leader
        self.to_act = leader
        self.won = won
        self.broken = broken
        self.plays: list[int] = []
        self.led = -1
        self.led_top = -1
        self.trump_top = -1
        self.win_seat = -1

    def copy(self) -> Deal:
        new = Deal.__new__(Deal)
        new.hands = self.hands[:]
        new.leader = self.leader
        new.to_act = self.to_act
        new.won = self.won[:]
        new.broken = self.broken
        new.plays = self.plays[:]
        new.led = self.led
        new.led_top = self.led_top
        new.trump_top = self.trump_top
        new.win_seat = self.win_seat
        return new

    @property
    def cards_left(self) -> int:
        return sum(h.bit_count() for h in self.hands)


def legal(deal: Deal, rules: Rules) -> int:
    """The cards the seat to act may play (``engine.core.follow``, the
    games' ``_allowed_cards``)."""
    hand = deal.hands[deal.to_act]
    trumps_mask = SUIT_MASK[rules.trump]
    if not deal.plays:
        if rules.lead == "any" or (rules.lead == "unbroken" and deal.broken):
            return hand
        plain = hand & ~trumps_mask
        return plain if plain and plain != hand else hand
    same = hand & SUIT_MASK[deal.led]
    if rules.follow == "suit":
        return same or hand
    ruffed = deal.led != rules.trump and deal.trump_top >= 0
    if same:
        if ruffed:
            return same
        return same & ABOVE[deal.led_top] or same
    trumps = hand & trumps_mask
    if not trumps:
        return hand
    if not ruffed:
        return trumps
    over = trumps & ABOVE[deal.trump_top]
    if over:
        return over
    return trumps if rules.under_trump == "any_trump" else hand


def play(deal: Deal, rules: Rules, bit: int) -> None:
    """The seat to act plays ``bit``; a full trick goes to its winner."""
    seat = deal.to_act
    deal.hands[seat] &= ~(1 << bit)
    slot = bit >> 4
    trump = rules.trump
    if not deal.plays:
        deal.led = slot
        deal.led_top = bit
        deal.trump_top = bit if slot == trump else -1
        deal.win_seat = seat
    else:
        if slot == deal.led and bit > deal.led_top:
            deal.led_top = bit
            if deal.trump_top < 0:
                deal.win_seat = seat
        if slot == trump and bit > deal.trump_top:
            deal.trump_top = bit
            deal.win_seat = seat
    if slot == trump and rules.game == "backalley":
        deal.broken = True
    deal.plays.append(bit)
    n = rules.num_seats
    if len(deal.plays) < n:
        deal.to_act = (seat + 1) % n
        return
    winner = deal.win_seat
    deal.won[winner] += 1
    if (
        rules.game == "batak"
        and deal.trump_top >= 0
        and (rules.unlock == "any_trump" or deal.led != trump)
    ):
        deal.broken = True
    deal.plays = []
    deal.leader = deal.to_act = winner
    deal.led = deal.led_top = deal.trump_top = -1


# -- scoring (the games' own functions) ----------------------------------------------------
@dataclass(frozen=True)
class Contract:
    """What a finished deal is scored against: Callbreak and Backalley bids
    per seat (Backalley: the seats that bid backalley and the hand size),
    Batak's level, declarer and defenders' minimum."""

    bids: tuple[int, ...] = ()
    backalley: frozenset[int] = frozenset()
    hand_size: int = 0
    level: int = 0
    declarer: int = 0
    defender_min: int = 2


def deal_scores(game: str, contract: Contract, won: list[int]) -> tuple[int, ...]:
    """The deal's scores: per seat, or per team in Batak (rules/<game>.md "Scoring")."""
    if game == "callbreak":
        return tuple(callbreak_bid_score(b, t) for b, t in zip(contract.bids, won, strict=True))
    if game == "batak":
        team = contract.declarer % 2
        return batak_score(contract.level, team, won[team] + won[team + 2], contract.defender_min)
    return tuple(
        score_backalley(contract.hand_size, t)
        if s in contract.backalley
        else backalley_bid_score(b, t)
        for s, (b, t) in enumerate(zip(contract.bids, won, strict=True))
    )


def side_value(game: str, contract: Contract, won: list[int], seat: int) -> float:
    """The seat's side's deal score minus the mean of the others (as
    ``engine.ai.search.deal_value``)."""
    scores = deal_scores(game, contract, won)
    mine = seat % 2 if game == "batak" else seat
    return float(scores[mine] - (sum(scores) - scores[mine]) / (len(scores) - 1))
