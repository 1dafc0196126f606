"""Bazar Blot declarations (bot/rulebook/blot.md "Declarations").

Runs in natural order in one suit (3 = tierce 20, 4 = fifty 50, 5+ =
hundred 100) and four of a kind (suit contract: J 200, 9 140, A 110,
T/K/Q 100; NT: A 190, T/K/Q/J 100; 7s, 8s and NT 9s are worth nothing and
are not declared).  A card belongs to at most one combination: the split
with the highest total is chosen.  Belote (K+Q of trump, 20) is separate:
announced when played, never voided, and its cards may sit in a run.

Teams compare their single best combination: any four of a kind beats any
run; four of a kinds by value then rank (ruling: the contract's card order,
trump order in a suit contract, the plain order in NT); runs by length,
then top card in natural order, then trump over plain, then the player who
plays earlier in trick 1.  The winning team scores all its combinations.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import cast

from engine.core.cards import SUITS, Card
from engine.games.blot.cards import NATURAL_ORDER, PLAIN_ORDER, TRUMP_ORDER
from engine.games.blot.masks import INDEX

RUN_NAMES = {3: "tierce", 4: "fifty", 5: "hundred"}
SUIT_QUADS = {11: 200, 9: 140, 14: 110, 10: 100, 13: 100, 12: 100}
NT_QUADS = {14: 190, 10: 100, 13: 100, 12: 100, 11: 100}
RANK_WORDS = {14: "aces", 13: "kings", 12: "queens", 11: "jacks", 10: "tens", 9: "nines"}


@dataclass(frozen=True, slots=True)
class Declaration:
    seat: int
    kind: str  # "run" or "four"
    cards: tuple[Card, ...]
    value: int
    #: run: length and top card's natural strength; four: rank
    length: int
    top: int
    suit: str | None

    def describe(self) -> str:
        if self.kind == "four":
            return f"four {RANK_WORDS.get(self.top, str(self.top))} ({self.value})"
        name = RUN_NAMES[min(self.length, 5)]
        return f"{name} ({self.value})"


def run_value(length: int) -> int:
    return 20 if length == 3 else 50 if length == 4 else 100


def _natural_index(rank: int) -> int:
    return NATURAL_ORDER.index(rank)


def candidate_combinations(seat: int, hand: Sequence[Card], trump: str | None) -> list[Declaration]:
    """Every maximal-or-shorter run (length >= 3) and every four of a kind
    worth something; the best disjoint subset is chosen afterwards."""
    found: list[Declaration] = []
    quads = NT_QUADS if trump is None else SUIT_QUADS
    for rank, value in quads.items():
        four = tuple(c for c in hand if c.rank == rank)
        if len(four) == 4:
            found.append(Declaration(seat, "four", four, value, 4, rank, None))
    for suit in SUITS:
        idx = sorted(_natural_index(c.rank) for c in hand if c.suit == suit)
        held = set(idx)
        for start in idx:
            for length in range(3, 9):
                span = range(start, start + length)
                if not all(i in held for i in span):
                    break
                cards = tuple(Card(NATURAL_ORDER[i], suit) for i in span)
                found.append(
                    Declaration(seat, "run", cards, run_value(length), length, 8 - start, suit)
                )
    return found


def _extendable(run: Declaration, free: set[Card]) -> bool:
    """A run is counted at its full length: it may not stop next to a card of
    its sequence that no other combination uses."""
    first = _natural_index(run.cards[0].rank)
    last = _natural_index(run.cards[-1].rank)
    neighbours = [i for i in (first - 1, last + 1) if 0 <= i < len(NATURAL_ORDER)]
    return any(Card(NATURAL_ORDER[i], cast(str, run.suit)) in free for i in neighbours)


def best_split(seat: int, hand: Sequence[Card], trump: str | None) -> list[Declaration]:
    """The disjoint set of combinations with the highest total (a card
    belongs to at most one combination).  A sequence is one run at its full
    length, shortened only where a four of a kind takes one of its cards.

    Without a four of a kind worth declaring nothing competes for a card,
    so the split is every maximal run (``_RUNS``: the same list
    ``_search_split`` finds, in the same order, without its search)."""
    quads = NT_QUADS if trump is None else SUIT_QUADS
    held = dict.fromkeys(SUITS, 0)  # per suit, a bit per natural-order place
    ranks: dict[int, int] = {}
    for c in hand:
        held[c.suit] |= _NATURAL_BIT[c.rank]
        ranks[c.rank] = ranks.get(c.rank, 0) + 1
    if any(ranks.get(rank) == 4 for rank in quads):
        return _search_split(seat, hand, trump)
    found: list[Declaration] = []
    for suit in SUITS:
        for start, length in _RUNS[held[suit]]:
            cards = tuple(Card(NATURAL_ORDER[i], suit) for i in range(start, start + length))
            found.append(
                Declaration(seat, "run", cards, run_value(length), length, 8 - start, suit)
            )
    return found


#: rank -> its bit in a suit's byte of natural-order places (A = bit 0)
_NATURAL_BIT = {rank: 1 << i for i, rank in enumerate(NATURAL_ORDER)}


def _maximal_runs_of(byte: int) -> tuple[tuple[int, int], ...]:
    """(start, length) of every maximal run of three or more places held in
    ``byte``, higher first (the order of ``candidate_combinations``)."""
    runs = []
    start = 0
    while start < 8:
        if not byte >> start & 1:
            start += 1
            continue
        end = start
        while end + 1 < 8 and byte >> (end + 1) & 1:
            end += 1
        if end - start + 1 >= 3:
            runs.append((start, end - start + 1))
        start = end + 1
    return tuple(runs)


_RUNS = tuple(_maximal_runs_of(b) for b in range(256))


def _search_split(seat: int, hand: Sequence[Card], trump: str | None) -> list[Declaration]:
    """``best_split`` by trying every disjoint set of up to three candidates."""
    cands = candidate_combinations(seat, hand, trump)
    best: list[Declaration] = []
    best_total = 0
    for size in range(1, min(len(cands), 3) + 1):
        for combo in combinations(cands, size):
            used = [c for d in combo for c in d.cards]
            if len(used) != len(set(used)):
                continue
            taken_by_fours = {c for d in combo if d.kind == "four" for c in d.cards}
            free = set(hand) - taken_by_fours
            if any(d.kind == "run" and _extendable(d, free - set(d.cards)) for d in combo):
                continue
            total = sum(d.value for d in combo)
            if total > best_total:
                best, best_total = list(combo), total
    return best


def strength_key(decl: Declaration, trump: str | None, order_in_trick1: int) -> tuple[int, ...]:
    """Comparison key: higher wins (rules "Declarations", team comparison)."""
    if decl.kind == "four":
        order = PLAIN_ORDER if trump is None else TRUMP_ORDER
        return (1, decl.value, len(order) - order.index(decl.top), 0, -order_in_trick1)
    is_trump = 1 if trump is not None and decl.suit == trump else 0
    return (0, decl.length, decl.top, is_trump, -order_in_trick1)


def award(
    hands: Sequence[Sequence[Card]], trump: str | None, first_player: int
) -> tuple[int | None, list[Declaration]]:
    """The team whose best combination wins, and all its combinations."""
    per_seat = {s: best_split(s, hands[s], trump) for s in range(4)}
    best_key: tuple[int, ...] | None = None
    winner: int | None = None
    for seat, decls in per_seat.items():
        order = (seat - first_player) % 4
        for decl in decls:
            key = strength_key(decl, trump, order)
            if best_key is None or key > best_key:
                best_key, winner = key, seat % 2
    if winner is None:
        return None, []
    awarded = [d for s in (winner, winner + 2) for d in per_seat[s]]
    return winner, awarded


def has_belote(hand: Sequence[Card], trump: str | None) -> bool:
    """K and Q of trump in the dealt hand (no belote in NT)."""
    return trump is not None and Card(13, trump) in hand and Card(12, trump) in hand


def team_points(hands: Sequence[Sequence[Card]], trump: str | None, first_player: int) -> list[int]:
    """Raw declaration points each team scores with these dealt hands:
    the awarded combinations (``award``) and belote (``has_belote``)."""
    points = [0, 0]
    _, awarded = award(hands, trump, first_player)
    for d in awarded:
        points[d.seat % 2] += d.value
    for seat in range(4):
        if has_belote(hands[seat], trump):
            points[seat % 2] += 20
    return points


def belote_points(hands: Sequence[int], trump: str | None, announced: Collection[int]) -> list[int]:
    """Belote's 20 per team for each seat that announced it or still holds
    the trump K and Q (``hands`` are masks, ``masks.INDEX``): such a seat
    was dealt both and will announce it when it plays the first."""
    points = [0, 0]
    if trump is None:
        return points
    pair = 1 << INDEX[Card(13, trump)] | 1 << INDEX[Card(12, trump)]
    for seat in range(4):
        if seat in announced or hands[seat] & pair == pair:
            points[seat % 2] += 20
    return points
