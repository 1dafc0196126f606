"""Fast Bazar Blot play-outs on a ``Deal`` (``engine.ai.blot_model``).

Bidding by simulation plays many sampled deals to the end for every
contract it prices, and the play search finishes its early worlds the same
way; the table heuristic (``engine.ai.heuristics.blot``) costs about 5 ms a
deal through the engine, this one about a tenth of that.  Every seat plays
by a few card-play rules that use only what a player at the table knows --
its own hand, the trick, and which cards are still out (not where they
are):

- leading: the declaring side draws trumps with the master trump; anyone
  cashes a master (the highest card still out in its suit; the richest
  first); otherwise a cheap plain card;
- a partner sure to win the trick (the last to play, or holding the
  master of the suit) gets the richest plain card allowed ("feeding",
  rules/blot.md "Card order and points");
- an opponent winning: take the trick when last to play, with a master of
  the led suit, or by trumping (the cheapest card that wins); else the
  cheapest card allowed.

Legal cards always come from ``legal_mask`` (rules/blot.md "Play").
"""

from __future__ import annotations

from engine.ai.blot_model import SUIT_MASK, SUIT_OF, TRUMP_BASE, Deal, Tables, indices, legal_mask
from engine.games.blot.cards import LAST_TRICK_BONUS


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


def choose(
    hands: list[int],
    seat: int,
    trick: list[tuple[int, int]],
    led: int,
    win_seat: int,
    win: int,
    legal: int,
    tab: Tables,
    declaring: bool,
) -> int:
    """The card ``seat`` plays (module docstring)."""
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    cards = indices(legal)
    strength, points = tab.strength, tab.points
    orders = tab.orders
    hand = hands[seat]
    out = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hand
    trump = tab.trump
    tmask = tab.trump_mask

    if not trick:
        if trump is not None and declaring and out & tmask and hand & tmask:
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

    if (win_seat - seat) % 2 == 0:
        # the partner is winning: sure when we are last or nothing out beats it
        if len(trick) == 3:
            return _richest(cards, tab)
        if win >= TRUMP_BASE:
            beaten = out & tab.trump_above[win]
        else:
            beaten = 0
            for c in orders[led]:
                if strength[c] <= win:
                    break
                if out >> c & 1:
                    beaten = 1
                    break
        return _cheapest(cards, tab) if beaten else _richest(cards, tab)
    winners = [
        c for c in cards if strength[c] > win and (strength[c] >= TRUMP_BASE or SUIT_OF[c] == led)
    ]
    if winners:
        if len(trick) == 3:
            return min(winners, key=lambda c: strength[c])
        if led != trump and strength[winners[0]] >= TRUMP_BASE:
            return min(winners, key=lambda c: strength[c])
        top = _top(orders[led], hand | out)
        if hand >> top & 1 and top in winners:
            return top
    return _cheapest(cards, tab)


def play_out(deal: Deal, stop_at: int = 0) -> None:
    """Play ``deal`` in place with ``choose`` for every seat, to its end or
    until ``stop_at`` cards are left."""
    tab = deal.tab
    strength, points = tab.strength, tab.points
    hands = deal.hands
    side = deal.side
    exempt, under = deal.partner_exemption, deal.must_undertrump
    led, win_seat, win, pts = deal.trick_state()
    trick = deal.trick
    seat = deal.to_act
    left = deal.cards_left
    while left > stop_at:
        left -= 1
        n = len(trick)
        legal = legal_mask(hands[seat], seat, n, led, win_seat, win, tab, exempt, under)
        card = choose(hands, seat, trick, led, win_seat, win, legal, tab, seat % 2 == side)
        hands[seat] &= ~(1 << card)
        trick.append((seat, card))
        s = strength[card]
        if n == 0:
            led, win_seat, win = SUIT_OF[card], seat, s
        elif s > win and (s >= TRUMP_BASE or SUIT_OF[card] == led):
            win_seat, win = seat, s
        pts += points[card]
        if n < 3:
            seat = (seat + 1) % 4
            continue
        if not left:
            pts += LAST_TRICK_BONUS
        deal.points[win_seat % 2] += pts
        deal.tricks[win_seat % 2] += 1
        trick.clear()
        deal.leader = seat = win_seat
        pts, win = 0, -1
