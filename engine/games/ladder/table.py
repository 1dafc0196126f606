"""Ladder's play rules, written once, on rank counts (bot/rulebook/ladder.md
"What may be played", "Effects", "End"): what ``LadderState`` decides with,
and the search API.

Suits never matter in Ladder's rules (a play is equal cards of one rank; the
requirement and the effects depend on the rank only), so a ``Table`` -- one
game in play -- keeps per seat a hand and the shown cards as 15 counts
indexed by rank, the hidden slots as ranks (0 = empty slot), the pile as a
list of ranks and the requirement as a code (``requirement.py``).

- ``source_of(t, seat)``: hand, then shown cards, then hidden ones.
- ``plays(t, seat)``: the legal plays from the hand or the shown cards, as
  rank -> the most copies that may be played (every count from 1 up to it
  is legal); empty: the seat must pick up.  ``hidden_slots(t, seat)``: the
  blind plays once only hidden cards are left.
- ``step(t, turn)``: one turn -- ``(rank, copies)``, a hidden slot index
  (0..2) or ``None`` for a pickup -- with its effect, the next seat and the
  end of the game (``t.result``); it returns ``PICKED_UP``/``BURNED``/
  ``SKIPPED``/``REDEALT`` flags.  No events, no messages, no log.
- ``Table.copy()``: a copy costs a few list copies; search plays a copy out.

``LadderState`` (``rules.py``) keeps a ``Table`` beside its cards:
``legal_actions()`` expands ``plays`` into card combinations and ``apply()``
steps the table, then moves the cards as the flags say (its T deals cards
with the match RNG through ``step``'s ``deal`` hook).  Search
(``engine.ai.ladder_playouts``) builds tables for sampled worlds and plays
them out with the same functions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from engine.core.actions import Action
from engine.games.ladder.requirement import (
    ACTION_ORDER,
    AFTER_PLAY,
    ALLOWED,
    ANY_CODE,
    IS_ACTION,
    RANKS,
    allows,
)

#: ``source`` values
HAND, SHOWN, HIDDEN = 0, 1, 2
SOURCE_NAMES = ("hand", "shown", "hidden")
#: ``step`` flags: the seat picked the pile up (a pickup, or a blocked blind card)
PICKED_UP = 1
#: a 2 or 3 cleared the pile (setting ``burn_on_2_3``)
BURNED = 2
#: a 3 skipped the next seat
SKIPPED = 4
#: a T pooled and redealt every hand
REDEALT = 8
#: a turn of ``step``: (rank, copies) from hand or shown cards, a hidden
#: slot index, or None to pick up the pile
Turn = tuple[int, int] | int | None
T = TypeVar("T")


class Table:
    """One Ladder game in play, on rank counts (module docstring)."""

    __slots__ = (
        "burn",
        "forbid_empty_hand",
        "hands",
        "hidden",
        "hidden_n",
        "max_turns",
        "pile",
        "req",
        "result",
        "rng",
        "seed",
        "shown",
        "shown_n",
        "sizes",
        "to_act",
        "turns",
        "winner",
    )

    def __init__(self, forbid_empty_hand: bool = True, burn: bool = False) -> None:
        #: hand counts by rank, and hand sizes
        self.hands: list[list[int]] = [[0] * 15 for _ in range(4)]
        self.sizes = [0, 0, 0, 0]
        #: shown table cards by rank, and how many
        self.shown: list[list[int]] = [[0] * 15 for _ in range(4)]
        self.shown_n = [0, 0, 0, 0]
        #: hidden slots 1..3 as ranks (0: played), and how many are left
        self.hidden: list[list[int]] = [[0, 0, 0] for _ in range(4)]
        self.hidden_n = [0, 0, 0, 0]
        self.pile: list[int] = []
        self.req = ANY_CODE
        self.to_act = 0
        self.turns = 0
        self.max_turns = 600
        #: settings: ``action_last_card == "forbid_empty_hand"``, ``burn_on_2_3``
        self.forbid_empty_hand = forbid_empty_hand
        self.burn = burn
        #: None while the game runs; then the winning team, or -1 for a draw
        self.result: int | None = None
        #: the seat that went out first (-1: a draw), once ``result`` is set
        self.winner = -1
        #: the table's own randomness (a T's shuffle when no ``deal`` hook is
        #: given; search's blind picks), made from ``seed`` when first needed:
        #: a copy costs no generator
        self.seed = 0
        self.rng: random.Random | None = None

    def copy(self) -> Table:
        """An independent copy (the search API: play a copy out)."""
        new = Table.__new__(Table)
        new.hands = [h[:] for h in self.hands]
        new.sizes = self.sizes[:]
        new.shown = [s[:] for s in self.shown]
        new.shown_n = self.shown_n[:]
        new.hidden = [h[:] for h in self.hidden]
        new.hidden_n = self.hidden_n[:]
        new.pile = self.pile[:]
        new.req = self.req
        new.to_act = self.to_act
        new.turns = self.turns
        new.max_turns = self.max_turns
        new.forbid_empty_hand = self.forbid_empty_hand
        new.burn = self.burn
        new.result = self.result
        new.winner = self.winner
        new.seed = self.seed
        if self.rng is None:
            new.rng = None
        else:
            new.rng = random.Random()
            new.rng.setstate(self.rng.getstate())
        return new

    def __eq__(self, other: object) -> bool:
        """Equal tables hold the same game (their generators by state)."""
        if not isinstance(other, Table):
            return NotImplemented
        return all(
            getattr(self, k) == getattr(other, k) for k in Table.__slots__ if k != "rng"
        ) and (None if self.rng is None else self.rng.getstate()) == (
            None if other.rng is None else other.rng.getstate()
        )

    __hash__ = None  # type: ignore[assignment]  # mutable

    def random(self) -> random.Random:
        if self.rng is None:
            self.rng = random.Random(self.seed)
        return self.rng

    def cards_left(self, seat: int) -> int:
        """Hand, shown and hidden cards: none left is out ("End")."""
        return self.sizes[seat] + self.shown_n[seat] + self.hidden_n[seat]

    def set_hands(self, ranks: Sequence[Sequence[int]]) -> None:
        """Every hand from its ranks (a deal, a T's redistribution)."""
        for seat, row in enumerate(ranks):
            counts = [0] * 15
            for rank in row:
                counts[rank] += 1
            self.hands[seat] = counts
            self.sizes[seat] = len(row)


def source_of(t: Table, seat: int) -> int:
    """ "What may be played": from the hand while it holds cards, then the
    shown table cards, then the hidden ones (``HAND``, ``SHOWN``, ``HIDDEN``)."""
    if t.sizes[seat]:
        return HAND
    if t.shown_n[seat]:
        return SHOWN
    return HIDDEN


def plays(t: Table, seat: int) -> dict[int, int]:
    """The legal plays from the seat's current source (hand or shown cards):
    rank -> the most copies allowed, lowest rank first ("What may be
    played": one rank, one or more copies, allowed by the requirement; an
    action card may not be the seat's last card, nor -- setting
    ``forbid_empty_hand`` -- empty its hand).  Only the play of every copy
    can break the last-card rule, so the counts allowed are 1..most."""
    size = t.sizes[seat]
    if size:
        counts = t.hands[seat]
        empties = size if t.forbid_empty_hand else 0
    else:
        counts = t.shown[seat]
        empties = 0
    left = size + t.shown_n[seat] + t.hidden_n[seat]
    out = {rank: counts[rank] for rank in ALLOWED[t.req] if counts[rank]}
    if left <= 4 or 0 < empties <= 4:  # a rank has 4 copies at most
        for rank in ACTION_ORDER:
            have = out.get(rank)
            if have is not None and have in (left, empties):
                if have > 1:
                    out[rank] = have - 1
                else:
                    del out[rank]
    return out


def hidden_slots(t: Table, seat: int) -> list[int]:
    """The filled hidden slots (0-based): a seat with only hidden cards
    left plays one of them blind ("What may be played")."""
    return [i for i, rank in enumerate(t.hidden[seat]) if rank]


def deal_round(pool: Sequence[T], seat: int) -> list[list[T]]:
    """ "Effects", T: the pooled cards dealt one at a time from the T's
    player in seat order (the caller shuffles the pool)."""
    return [list(pool[(s - seat) % 4 :: 4]) for s in range(4)]


def redeal(t: Table, seat: int) -> None:
    """A T's redistribution with the table's own generator."""
    pool = [r for h in t.hands for r in RANKS for _ in range(h[r])]
    t.random().shuffle(pool)
    t.set_hands(deal_round(pool, seat))


def step(t: Table, turn: Turn, deal: Callable[[int], None] | None = None) -> int:
    """One turn of the seat to act (module docstring); ``deal(seat)`` does
    a T's redistribution instead of ``redeal`` (the engine deals its cards).
    The caller passes a legal turn."""
    seat = t.to_act
    t.turns += 1
    if turn is None:
        flags = _pick_up(t, seat, 0)
    elif type(turn) is int:
        # a blind card is played when the requirement allows it and it is
        # not an action card that would be the seat's last; else picked up
        hidden = t.hidden[seat]
        rank = hidden[turn]
        hidden[turn] = 0
        t.hidden_n[seat] -= 1
        if allows(t.req, rank) and not (IS_ACTION[rank] and not t.cards_left(seat)):
            flags = _effect(t, seat, rank, 1, deal)
        else:
            flags = _pick_up(t, seat, rank)
    else:
        rank, k = turn  # type: ignore[misc]
        if t.sizes[seat]:
            t.hands[seat][rank] -= k
            t.sizes[seat] -= k
        else:
            t.shown[seat][rank] -= k
            t.shown_n[seat] -= k
        flags = _effect(t, seat, rank, k, deal)
    # "End": the first player with no cards at all, from this seat on
    sizes, shown_n, hidden_n = t.sizes, t.shown_n, t.hidden_n
    if 0 in sizes:  # (nobody is out while every hand holds cards)
        for s in (seat, (seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4):
            if not sizes[s] and not shown_n[s] and not hidden_n[s]:
                t.winner = s
                t.result = s % 2
                return flags
    if t.turns >= t.max_turns:
        t.result = -1
    return flags


def _pick_up(t: Table, seat: int, extra: int) -> int:
    """No legal play: the pile (and a blocked blind card) to the hand; the
    requirement is ANY and the next seat plays."""
    hand = t.hands[seat]
    for rank in t.pile:
        hand[rank] += 1
    t.sizes[seat] += len(t.pile)
    if extra:
        hand[extra] += 1
        t.sizes[seat] += 1
    t.pile = []
    t.req = ANY_CODE
    t.to_act = (seat + 1) % 4
    return PICKED_UP


def _effect(t: Table, seat: int, rank: int, k: int, deal: Callable[[int], None] | None) -> int:
    """ "Effects", once however many copies: the requirement the rank
    leaves; 2 and 3 clear the pile with ``burn``; a 3 skips to the partner;
    a T pools and redeals every hand; else the next seat plays."""
    t.pile.extend([rank] * k)
    t.req = AFTER_PLAY[rank]
    flags = 0
    if rank == 2 or rank == 3:
        if t.burn:
            t.pile = []
            flags = BURNED
        if rank == 3:
            t.to_act = (seat + 2) % 4
            return flags | SKIPPED
    elif rank == 10:
        if deal is None:
            redeal(t, seat)
        else:
            deal(seat)
        flags = REDEALT
    t.to_act = (seat + 1) % 4
    return flags


def turn_of(action: Action) -> Turn:
    """An engine action as a turn of ``step``."""
    if action.verb == "pickup":
        return None
    if action.verb == "hidden":
        assert action.number is not None
        return action.number - 1
    return action.cards[0].rank, len(action.cards)
