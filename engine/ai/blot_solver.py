"""Bazar Blot card play with every hand open: alpha-beta over a ``Deal``.

One team maximises, the other minimises, what that team takes from here:
its raw card points (last-trick bonus included) plus, when the search
reaches the end of the deal, 1000 if it took every trick and -1000 if it
took none.  Why that is exact: a deal's score (rules/blot.md "Scoring";
``score_deal``) is, for either team, a non-decreasing function of those
two facts -- more card points never hurt, taking every trick is best and
taking none worst -- and the minimax value of a non-decreasing function of
an outcome is that function of the outcome's minimax value.  So the card
points are searched (additive, so a transposition table keyed by the
cards still held, the leader and the two "has taken a trick" flags serves
every route to a position), and turned into the deal's score once, at the
root (``team_result``).

``depth`` limits the search to that many cards (the Bazar Blot paper's
minimax: ``engine.ai.baselines``); with the default it goes to the end of
the deal (the search agent's exact end-game: ``engine.ai.blot_search``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from engine.ai.blot_model import SUIT_MASK, SUIT_OF, TRUMP_BASE, Deal, indices
from engine.games.blot.cards import LAST_TRICK_BONUS

ALL_TRICKS = 1000
INF = 10**6


class OutOfTime(TimeoutError):
    """The deadline passed in the middle of a search."""


class Solver:
    """``values(cards)``: what ``team`` takes from here after each card, with
    best play by all four hands over ``depth`` cards (exact to the end by
    default)."""

    def __init__(
        self, deal: Deal, team: int, depth: int = 64, deadline: float = float("inf")
    ) -> None:
        self.deal = deal
        self.team = team
        self.depth = depth
        self.deadline = deadline
        self.nodes = 0
        #: key -> (lower bound, upper bound, best card)
        self.table: dict[int, tuple[int, int, int]] = {}
        tab = deal.tab
        self._strength = tab.strength
        self._points = tab.points
        self._trump = tab.trump
        self._above = tab.trump_above
        self._trump_mask = tab.trump_mask
        self._exempt = deal.partner_exemption
        self._under = deal.must_undertrump
        self.hands = list(deal.hands)
        self._has = [deal.tricks[0] > 0, deal.tricks[1] > 0]

    # -- the public answers ------------------------------------------------------------------
    def values(self, cards: Sequence[int] | None = None) -> dict[int, int]:
        """Each of ``cards`` (default: every legal card) -> what ``team``
        takes from here if the seat to act plays it, exactly."""
        led, win_seat, win, pts = self.deal.trick_state()
        seat = self.deal.to_act
        n = len(self.deal.trick)
        if cards is None:
            cards = indices(self.deal.legal())
        return {
            c: self._child(seat, n, led, win_seat, win, pts, c, -INF, INF, self.depth)
            for c in cards
        }

    def best(self, cards: Sequence[int] | None = None) -> tuple[int, int]:
        """(a card with the best value for the seat to act, that value): the
        first of equals in ``cards`` order."""
        led, win_seat, win, pts = self.deal.trick_state()
        seat = self.deal.to_act
        n = len(self.deal.trick)
        if cards is None:
            cards = indices(self.deal.legal())
        maximise = seat % 2 == self.team
        alpha, beta = -INF, INF
        best_card, best = cards[0], -INF if maximise else INF
        for c in cards:
            v = self._child(seat, n, led, win_seat, win, pts, c, alpha, beta, self.depth)
            if (maximise and v > best) or (not maximise and v < best):
                best_card, best = c, v
                if maximise:
                    alpha = max(alpha, v)
                else:
                    beta = min(beta, v)
        return best_card, best

    # -- the search --------------------------------------------------------------------------
    def _legal(self, seat: int, n: int, led: int, win_seat: int, win: int) -> int:
        hand = self.hands[seat]
        if n == 0:
            return hand
        same = hand & SUIT_MASK[led]
        if same:
            if led == self._trump:
                return (same & self._above[win]) or same
            return same
        trumps = hand & self._trump_mask
        if not trumps:
            return hand
        if self._exempt and (win_seat - seat) % 2 == 0:
            return hand
        over = trumps & self._above[win] if win >= TRUMP_BASE else trumps
        if over:
            return over
        return trumps if self._under else hand

    def _child(
        self,
        seat: int,
        n: int,
        led: int,
        win_seat: int,
        win: int,
        pts: int,
        card: int,
        alpha: int,
        beta: int,
        depth: int,
    ) -> int:
        """Value (for ``team``) of ``seat`` playing ``card`` as the ``n``-th
        card of the trick."""
        hands = self.hands
        hands[seat] ^= 1 << card
        s = self._strength[card]
        if n == 0:
            led, win_seat, win = SUIT_OF[card], seat, s
        elif s > win and (s >= TRUMP_BASE or SUIT_OF[card] == led):
            win_seat, win = seat, s
        pts += self._points[card]
        try:
            if n < 3:
                if depth <= 1:
                    return 0
                return self._node(
                    (seat + 1) % 4, n + 1, led, win_seat, win, pts, alpha, beta, depth - 1
                )
            last = not (hands[0] | hands[1] | hands[2] | hands[3])
            if last:
                pts += LAST_TRICK_BONUS
            team = win_seat % 2
            has = self._has
            before = has[team]
            has[team] = True
            try:
                gain = pts if team == self.team else 0
                if last:
                    return gain + self._ending()
                if depth <= 1:
                    return gain
                return gain + self._node(
                    win_seat, 0, 0, win_seat, -1, 0, alpha - gain, beta - gain, depth - 1
                )
            finally:
                has[team] = before
        finally:
            hands[seat] ^= 1 << card

    def _ending(self) -> int:
        """The every-trick / no-trick term once the deal is over."""
        mine, theirs = self._has[self.team], self._has[1 - self.team]
        if not theirs:
            return ALL_TRICKS
        if not mine:
            return -ALL_TRICKS
        return 0

    def _node(
        self,
        seat: int,
        n: int,
        led: int,
        win_seat: int,
        win: int,
        pts: int,
        alpha: int,
        beta: int,
        depth: int,
    ) -> int:
        self.nodes += 1
        if self.nodes & 1023 == 0 and time.perf_counter() > self.deadline:
            raise OutOfTime
        hands = self.hands
        key = 0
        hint = -1
        a0, b0 = alpha, beta
        if n == 0:
            has = self._has
            key = (
                (hands[0] | hands[1] << 32 | hands[2] << 64 | hands[3] << 96) << 12
                | depth << 4
                | seat << 2
                | has[0] << 1
                | has[1]
            )
            hit = self.table.get(key)
            if hit is not None:
                lo, hi, hint = hit
                if lo >= beta:
                    return lo
                if hi <= alpha or lo == hi:
                    return hi
                alpha, beta = max(alpha, lo), min(beta, hi)
        moves = self._ordered(seat, n, led, win_seat, win, hint)
        maximise = seat % 2 == self.team
        best = -INF if maximise else INF
        best_card = moves[0]
        for card in moves:
            v = self._child(seat, n, led, win_seat, win, pts, card, alpha, beta, depth)
            if maximise:
                if v > best:
                    best, best_card = v, card
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_card = v, card
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if n == 0:
            old = self.table.get(key)
            lo, hi = (old[0], old[1]) if old is not None else (-INF, INF)
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.table[key] = (lo, hi, best_card)
        return best

    def _ordered(
        self, seat: int, n: int, led: int, win_seat: int, win: int, hint: int
    ) -> list[int]:
        """Legal cards, likely best first: the table's best card, then cards
        that take the lead (richest first), then the rest -- points to a
        partner who is winning, the cheapest card otherwise."""
        legal = indices(self._legal(seat, n, led, win_seat, win))
        if len(legal) == 1:
            return legal
        strength, points = self._strength, self._points
        friendly = n > 0 and (win_seat - seat) % 2 == 0

        def key(c: int) -> tuple[int, int, int]:
            s = strength[c]
            if c == hint:
                return (0, 0, 0)
            if n == 0:
                return (1, -s, 0)
            wins = s > win and (s >= TRUMP_BASE or SUIT_OF[c] == led)
            if wins:
                return (1, -points[c], -s)
            return (2, -points[c] if friendly else points[c], s)

        legal.sort(key=key)
        return legal


def team_result(deal: Deal, team: int, future: int) -> tuple[int, int]:
    """(``team``'s card points, ``team``'s tricks class) at the end of the deal,
    from the solver's value ``future`` of a search that reached the end: the
    tricks class is 0 (none), 8 (all) or 1 (some)."""
    taken = deal.points[team] + future
    if future >= ALL_TRICKS // 2:
        return taken - ALL_TRICKS, 8
    if future <= -ALL_TRICKS // 2:
        return taken + ALL_TRICKS, 0
    return taken, 1


def score_margin(deal: Deal, team: int, future: int) -> int:
    """``team``'s game points minus the other team's, for the deal ending as
    the solver's value ``future`` (a search to the end of the deal) says."""
    points, tricks = team_result(deal, team, future)
    if team == deal.side:
        a, d = deal.score(points, tricks)
        return a - d
    # the declarers' raw points are what this team did not take (162 in all)
    total = 162
    a, d = deal.score(total - points, 8 - tricks if tricks in (0, 8) else 1)
    return d - a
