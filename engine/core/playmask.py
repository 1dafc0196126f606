"""The play of one deal of a trick game on bit masks: the engine's fast play
state and the search API (Callbreak, Eşli Batak, Backalley).

``TrickRules`` is what a deal's play follows, fixed for the deal and chosen
by the game's rules module (``play_rules``): the legal-card function of its
follow family (``engine.core.follow``), the trump slot, the seats, and what
breaks trump.  ``PlayMask`` is the deal in play: hands, the trick so far,
tricks won, trump broken, each a few ints (cards are bits,
``engine.core.bits``).  ``PlayMask.play`` is the only statement of what
playing a card does: the card leaves the hand, the trick's winner so far is
kept up to date (the strongest trump, else the strongest card of the led
suit: rule books, "trick winner"), trump is broken as the game says, and a
full trick goes to its winner, who leads next.  The engine's own
``apply`` and ``legal_actions`` (``engine.core.trickgame.MaskTrickState``)
go through it and ``TrickRules.legal``, so a search and the table play by
the same statements.

The search API (model: python-chess's board with ``legal_moves``,
``push`` and ``pop``).  Get a ``PlayMask`` from a state in its play phase
(``state.play_masks()``) or build one from masks (``PlayMask(rules, hands,
leader, won)``); then

- ``legal()``: the legal-card mask of the seat to act (``allowed()`` also
  gives the rule's reason code);
- ``push(bit)`` / ``pop()``: play a card and take it back (a stack of
  undo records; no events, messages, ``Action`` objects or log);
- ``play(bit)``: play a card for good (a play-out that never takes back);
- ``copy()``: an independent copy (a few list copies).

A bit is ``state_codec.bit(card)``; ``rules.codec`` turns bits back into
cards.  What the deal is worth is the game's own scoring function of
``won`` (``engine.games.<game>.scoring``).  ``engine.ai.bitplay`` (the
heuristic play-outs) and ``engine.ai.playouts`` (sampled worlds, the exact
end-game) are built on this and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Protocol

from engine.core.bits import ABOVE, SLOT, SUIT_MASK, SUIT_OF_SLOT, Codec, codec
from engine.core.follow import LegalMask
from engine.core.spec import Variant

#: what breaks trump (the lead rules read it): nothing (Callbreak); any
#: trump played (Backalley); a trick with a trump in it, when it is over
#: (Batak ``trump_unlock=any_trump``); a ruffed trick, when it is over
#: (Batak ``ruff_only``)
BREAKS = ("never", "trump_played", "trump_trick", "ruff")


@dataclass(frozen=True)
class TrickRules:
    """What one deal's play follows: built once per deal by the game's
    rules module (``play_rules``), read by ``PlayMask`` and the engine."""

    num_seats: int
    #: the trump slot
    trump: int
    #: the follow family with its options (``engine.core.follow``)
    legal: LegalMask
    #: one of ``BREAKS``
    breaks: str
    codec: Codec
    #: reason code, led suit, trump -> the rule's message (``follow``)
    message: Callable[[str, str | None, str | None], str]
    #: when a void player had to trump (what a discard tells a reader of the
    #: play): "never", "unruffed" (not on a ruffed trick) or "always"
    trump_duty: str = "never"

    #: ``play(deal, bit)``: the seat to act plays ``bit`` (``make_play``)
    play: Callable[[PlayMask, int], None] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.breaks not in BREAKS:
            raise ValueError(f"breaks {self.breaks!r} is not one of {BREAKS}")
        object.__setattr__(self, "play", make_play(self.num_seats, self.trump, self.breaks))

    @property
    def trump_suit(self) -> str:
        return SUIT_OF_SLOT[self.trump]


def make_play(num_seats: int, trump: int, breaks: str) -> Callable[[PlayMask, int], None]:
    """What playing a card does, once for every trick game on masks (the
    rule books' "trick winner", and what breaks trump), specialised for
    one deal's seats, trump slot and ``breaks`` (a search plays millions of
    cards through it): the card leaves the hand; the trick's winner so far
    is the strongest trump, else the strongest card of the led suit; a full
    trick is counted to its winner, who leads next."""
    on_play = breaks == "trump_played"
    on_trick = breaks in ("trump_trick", "ruff")
    ruff_only = breaks == "ruff"

    def play(deal: PlayMask, bit: int) -> None:
        seat = deal.to_act
        deal.hands[seat] &= ~(1 << bit)
        slot = bit >> 4
        plays = deal.plays
        if not plays:
            deal.led = slot
            deal.led_top = bit
            if slot == trump:
                deal.trump_top = bit
                if on_play:
                    deal.broken = True
            else:
                deal.trump_top = -1
            deal.win_seat = seat
        elif slot == trump:
            if bit > deal.trump_top:
                deal.trump_top = bit
                deal.win_seat = seat
                if slot == deal.led:
                    deal.led_top = bit
            if on_play:
                deal.broken = True
        elif slot == deal.led and bit > deal.led_top:
            deal.led_top = bit
            if deal.trump_top < 0:
                deal.win_seat = seat
        plays.append(bit)
        if len(plays) < num_seats:
            deal.to_act = seat + 1 if seat + 1 < num_seats else 0
            return
        winner = deal.win_seat
        deal.won[winner] += 1
        if on_trick and deal.trump_top >= 0 and not (ruff_only and deal.led == trump):
            deal.broken = True
        deal.plays = []
        deal.leader = deal.to_act = winner
        deal.led = deal.led_top = deal.trump_top = -1

    return play


def trick_rules(
    num_seats: int,
    trump: str,
    legal: Callable[[int], LegalMask],
    message: Callable[[str, str | None, str | None], str],
    *,
    breaks: str = "never",
    jokers: bool = False,
    trump_duty: str = "never",
) -> TrickRules:
    """``TrickRules`` for trump suit ``trump`` (``"J"``: the jokers alone);
    ``legal`` builds the follow function for the trump slot."""
    slot = SLOT[trump]
    return TrickRules(
        num_seats, slot, legal(slot), breaks, codec(trump, jokers), message, trump_duty
    )


#: ``push``'s record: bit, seat, and the fields of ``_UNDONE`` before the card
Undo = tuple[int, int, tuple[object, ...]]


class PlayMask:
    """One deal in play on masks: the search API (module docstring).

    ``hands[seat]``: the seat's cards; ``plays``: the bits of the trick so
    far; ``led`` the led slot, ``led_top`` / ``trump_top`` the strongest bit
    of the led slot / of trump in the trick (-1: none), ``win_seat`` the seat
    winning it so far; ``won[seat]``: tricks taken this deal; ``broken``:
    trump is broken."""

    __slots__ = (
        "broken",
        "hands",
        "leader",
        "led",
        "led_top",
        "plays",
        "rules",
        "stack",
        "to_act",
        "trump_top",
        "win_seat",
        "won",
    )

    def __init__(
        self,
        rules: TrickRules,
        hands: list[int],
        leader: int,
        won: list[int] | None = None,
        broken: bool = False,
    ) -> None:
        self.rules = rules
        self.hands = hands
        self.leader = leader
        self.to_act = leader
        self.won = won if won is not None else [0] * rules.num_seats
        self.broken = broken
        self.plays: list[int] = []
        self.led = -1
        self.led_top = -1
        self.trump_top = -1
        self.win_seat = -1
        #: undo records of ``push``
        self.stack: list[Undo] = []

    def copy(self) -> PlayMask:
        """An independent copy (the undo stack is not copied)."""
        new = PlayMask.__new__(PlayMask)
        new.rules = self.rules
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
        new.stack = []
        return new

    @property
    def cards_left(self) -> int:
        return sum(h.bit_count() for h in self.hands)

    def legal(self) -> int:
        """The cards the seat to act may play."""
        return self.rules.legal(
            self.hands[self.to_act], self.led, self.led_top, self.trump_top, self.broken
        )[0]

    def allowed(self, hand: int | None = None) -> tuple[int, str]:
        """The legal cards of ``hand`` (default: the seat to act's) and the
        rule's reason code."""
        if hand is None:
            hand = self.hands[self.to_act]
        return self.rules.legal(hand, self.led, self.led_top, self.trump_top, self.broken)

    def beating(self, cards: int) -> int:
        """The cards of ``cards`` that would win the trick so far if played
        now (the trick-winner rule as a mask: above the strongest trump in
        it, else above the strongest card of the led suit or any trump)."""
        if self.trump_top >= 0:
            return cards & ABOVE[self.trump_top]
        return cards & ABOVE[self.led_top] | cards & SUIT_MASK[self.rules.trump]

    def play(self, bit: int) -> None:
        """The seat to act plays ``bit`` (for good: see ``push``); a full
        trick goes to its winner, who leads next (``TrickRules.play``)."""
        self.rules.play(self, bit)

    def push(self, bit: int) -> None:
        """Play ``bit``, remembering how to take it back (``pop``)."""
        self.stack.append((bit, self.to_act, _saved(self)))
        self.plays = self.plays[:]
        self.play(bit)

    def pop(self) -> int:
        """Take back the last ``push``; its bit."""
        if not self.plays:  # the card closed a trick: its winner leads now
            self.won[self.leader] -= 1
        bit, seat, saved = self.stack.pop()
        for name, value in zip(_UNDONE, saved, strict=True):
            setattr(self, name, value)
        self.hands[seat] |= 1 << bit
        self.to_act = seat
        return bit


#: what ``push`` keeps and ``pop`` puts back (with the bit and the seat)
_UNDONE = ("leader", "led", "led_top", "trump_top", "win_seat", "broken", "plays")
_saved = attrgetter(*_UNDONE)


def trick_masks(rules: TrickRules, leader: int, bits: list[int], broken: bool) -> PlayMask:
    """A ``PlayMask`` of one trick: ``bits`` played from ``leader`` (the
    hands left empty); ``broken`` as it was before the trick's last card.
    The engine reads the legal cards and the winner from it."""
    pm = PlayMask(rules, [0] * rules.num_seats, leader, None, broken)
    for bit in bits:
        pm.play(bit)
    return pm


class MaskGame(Protocol):
    """A game whose play rules are a ``TrickRules`` (its ``Game`` object)."""

    def play_rules(
        self, trump: str, num_seats: int = 4, variant: Variant | None = None
    ) -> TrickRules: ...
