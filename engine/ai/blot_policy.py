"""The Bazar Blot play-out policy: how every seat plays a sampled deal to
its end, quickly (bidding by simulation, and the play search's early
worlds).  The rules come from the engine (``engine.games.blot.masks``:
legal cards, trick winner, points); this module only chooses among the
legal cards.  The table heuristic (``engine.ai.heuristics.blot``) costs
about 5 ms a deal through the engine, this about a tenth of that.  Every
seat plays by a few card-play rules that use only what a player at the
table knows -- its own hand, the trick, and which cards are still out (not
where they are):

- leading: the declaring side draws trumps with the master trump; anyone
  cashes a master (the highest card still out in its suit; the richest
  first); otherwise a cheap plain card;
- a partner sure to win the trick (the last to play, or nothing out of its
  card's suit beats it) gets the richest plain card allowed ("feeding",
  rules/blot.md "Card order and points");
- an opponent winning: take the trick when last to play, with a master of
  the led suit, or by trumping (the cheapest card that wins); else the
  cheapest card allowed.
"""

from __future__ import annotations

from functools import partial

from engine.games.blot.masks import (
    SUIT_MASK,
    TRUMP_BASE,
    BlotPlay,
    Position,
    Tables,
    bits,
)


def _top(order: tuple[int, ...], pool: int) -> int:
    """The strongest card of ``order`` in ``pool`` (-1 if none)."""
    for c in order:
        if pool >> c & 1:
            return c
    return -1


def _cheapest(cards: list[int], tab: Tables) -> int:
    """The card worth fewest points (the weakest of equals), plain before trump."""
    points, strength, tmask = tab.points, tab.strength, tab.trump_mask
    best, key = -1, (9, 999, 999)
    for c in cards:
        k = (tmask >> c & 1, points[c], strength[c])
        if k < key:
            best, key = c, k
    return best


def _richest(cards: list[int], tab: Tables) -> int:
    """The card worth most points (the weakest of equals), plain before trump."""
    points, strength, tmask = tab.points, tab.strength, tab.trump_mask
    best, key = -1, (9, 999, 999)
    for c in cards:
        k = (tmask >> c & 1, -points[c], strength[c])
        if k < key:
            best, key = c, k
    return best


def choose(tab: Tables, side: int, pos: Position, legal: int) -> int:
    """The card the seat to act plays of ``legal`` (module docstring);
    ``side`` is the declaring team."""
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    cards = bits(legal)
    strength, points = tab.strength, tab.points
    orders = tab.orders
    h0, h1, h2, h3, seat, n, led, win_seat, win, _, _ = pos
    hand = pos[seat]
    out = (h0 | h1 | h2 | h3) & ~hand
    trump = tab.trump
    tmask = tab.trump_mask

    if not n:
        if trump is not None and seat & 1 == side and out & tmask and hand & tmask:
            top = _top(orders[trump], hand | out)
            if hand >> top & 1:
                return top
        best, key = -1, (-1, -1)
        for k in range(4):
            if k == trump or not hand & SUIT_MASK[k] or not out & SUIT_MASK[k]:
                continue
            top = _top(orders[k], hand | out)
            if hand >> top & 1 and (points[top], strength[top]) > key:
                best, key = top, (points[top], strength[top])
        if best >= 0:
            return best
        return _cheapest(cards, tab)

    takers = tab.takers[led][win]
    if (win_seat - seat) % 2 == 0:
        # the partner is winning: sure when we are last or nothing out of
        # its card's suit beats it
        if n == 3:
            return _richest(cards, tab)
        suit = tmask if win >= TRUMP_BASE else SUIT_MASK[led]
        return _cheapest(cards, tab) if out & suit & takers else _richest(cards, tab)
    winning = legal & takers
    if winning:
        winners = bits(winning)
        if n == 3:
            return min(winners, key=lambda c: strength[c])
        if led != trump and strength[winners[0]] >= TRUMP_BASE:
            return min(winners, key=lambda c: strength[c])
        top = _top(orders[led], hand | out)
        if winning >> top & 1:
            return top
    return _cheapest(cards, tab)


def play_out(deal: BlotPlay, stop_at: int = 0) -> None:
    """Play ``deal`` in place with ``choose`` for every seat, to its end or
    until ``stop_at`` cards are left (``BlotPlay.run``)."""
    deal.run(partial(choose, deal.tab, deal.side), stop_at)
