"""Bazar Blot card play with every hand open: alpha-beta over the engine's
``BlotPlay`` (``engine.games.blot.masks``: legal cards, ``play``/``undo``).

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

from engine.games.blot.cards import DEAL_TOTAL
from engine.games.blot.masks import (
    PLAYS,
    POINT_SHIFT,
    SEAT,
    TOTALS,
    TRICK_SHIFT,
    BlotPlay,
    Position,
    allowed,
    bits,
    step,
    totals_of,
)

ALL_TRICKS = 1000
INF = 10**6


class OutOfTime(TimeoutError):
    """The deadline passed in the middle of a search."""


class Solver:
    """``values(cards)``: what ``team`` takes from here after each card, with
    best play by all four hands over ``depth`` cards (exact to the end by
    default).

    The rules are the engine's (``engine.games.blot.masks``): legal cards
    from ``allowed``, the next position from ``step``.  Positions are
    immutable tuples, so the search goes down a card by ``step`` and back
    up by returning to the parent: no copy, no undo."""

    def __init__(
        self, deal: BlotPlay, team: int, depth: int = 64, deadline: float = float("inf")
    ) -> None:
        self.deal = deal
        self.team = team
        self.depth = depth
        self.deadline = deadline
        self.nodes = 0
        #: key -> (lower bound, upper bound, best card)
        self.table: dict[tuple[int, ...], tuple[int, int, int]] = {}
        self.tab = deal.tab

    # -- the public answers ------------------------------------------------------------------
    def values(self, cards: Sequence[int] | None = None) -> dict[int, int]:
        """Each of ``cards`` (default: every legal card) -> what ``team``
        takes from here if the seat to act plays it, exactly."""
        pos = self.deal.pos
        if cards is None:
            cards = bits(allowed(pos, self.tab)[0])
        return {c: self._node(pos, -INF, INF, self.depth, (c,)) for c in cards}

    def best(self, cards: Sequence[int] | None = None) -> tuple[int, int]:
        """(a card with the best value for the seat to act, that value): the
        first of equals in ``cards`` order."""
        pos = self.deal.pos
        if cards is None:
            cards = bits(allowed(pos, self.tab)[0])
        maximise = pos[SEAT] % 2 == self.team
        alpha, beta = -INF, INF
        best_card, best = cards[0], -INF if maximise else INF
        for c in cards:
            v = self._node(pos, alpha, beta, self.depth, (c,))
            if (maximise and v > best) or (not maximise and v < best):
                best_card, best = c, v
                if maximise:
                    alpha = max(alpha, v)
                else:
                    beta = min(beta, v)
        return best_card, best

    # -- the search --------------------------------------------------------------------------
    def _ending(self, pos: Position) -> int:
        """The every-trick / no-trick term once the deal is over."""
        tricks = totals_of(pos)[2:]
        if not tricks[1 - self.team]:
            return ALL_TRICKS
        if not tricks[self.team]:
            return -ALL_TRICKS
        return 0

    def _node(
        self,
        pos: Position,
        alpha: int,
        beta: int,
        depth: int,
        only: Sequence[int] | None = None,
    ) -> int:
        """The value (for ``team``) of ``pos`` with best play over ``depth``
        cards; with ``only``, of the best of those cards (the root's own
        question: not a node of the search, not kept in the table)."""
        h0, h1, h2, h3, seat, n, led, win_seat, win, _, totals = pos
        key: tuple[int, ...] = ()
        hint = -1
        hit = None
        a0, b0 = alpha, beta
        if only is None:
            self.nodes += 1
            if self.nodes & 1023 == 0 and time.perf_counter() > self.deadline:
                raise OutOfTime
            if n == 0:
                tricks = totals >> TRICK_SHIFT[0]  # both teams' tricks
                small = depth << 4 | seat << 2 | (tricks & 63 > 0) << 1 | (tricks >> 6 > 0)
                key = (h0, h1, h2, h3, small)
                hit = self.table.get(key)
                if hit is not None:
                    lo, hi, hint = hit
                    if lo >= beta:
                        return lo
                    if hi <= alpha or lo == hi:
                        return hi
                    alpha, beta = max(alpha, lo), min(beta, hi)
            moves: Sequence[int] = self._ordered(pos, seat, n, led, win_seat, win, hint)
        else:
            moves = only
        tab, team = self.tab, self.team
        shift = POINT_SHIFT[team]
        mine = totals >> shift & 4095
        maximise = seat % 2 == team
        best = -INF if maximise else INF
        best_card = moves[0]
        for card in moves:
            child = step(pos, card, tab)
            if child[PLAYS]:  # the trick goes on
                v = 0 if depth <= 1 else self._node(child, alpha, beta, depth - 1)
            else:  # the trick is taken: what it gave ``team``, and on
                gain = (child[TOTALS] >> shift & 4095) - mine
                if not child[child[SEAT]]:  # the leader has no card: the deal is over
                    v = gain + self._ending(child)
                elif depth <= 1:
                    v = gain
                else:
                    v = gain + self._node(child, alpha - gain, beta - gain, depth - 1)
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
        if n == 0 and only is None:
            # the entry read above (a position never recurs below itself:
            # every card played is gone from the key)
            lo, hi = (hit[0], hit[1]) if hit is not None else (-INF, INF)
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.table[key] = (lo, hi, best_card)
        return best

    def _ordered(
        self, pos: Position, seat: int, n: int, led: int, win_seat: int, win: int, hint: int
    ) -> list[int]:
        """Legal cards, likely best first: the table's best card, then cards
        that take the lead (richest first), then the rest -- points to a
        partner who is winning, the cheapest card otherwise."""
        tab = self.tab
        mask = allowed(pos, tab)[0]
        if not mask & (mask - 1):
            return [mask.bit_length() - 1]
        legal = bits(mask)
        strength, points = tab.strength, tab.points
        if n == 0:
            legal.sort(key=strength.__getitem__, reverse=True)  # stable: equals keep their order
        else:
            takers = tab.takers[led][win]
            if (win_seat - seat) % 2 == 0:  # a partner is winning: feed it
                keyed = [
                    (
                        (1 << 16 | (32 - points[c]) << 8 | 255 - strength[c])
                        if takers >> c & 1
                        else (2 << 16 | (32 - points[c]) << 8 | strength[c]),
                        c,
                    )
                    for c in legal
                ]
            else:
                keyed = [
                    (
                        (1 << 16 | (32 - points[c]) << 8 | 255 - strength[c])
                        if takers >> c & 1
                        else (2 << 16 | points[c] << 8 | strength[c]),
                        c,
                    )
                    for c in legal
                ]
            keyed.sort()
            legal = [c for _, c in keyed]
        if hint >= 0 and hint in legal:
            legal.remove(hint)
            legal.insert(0, hint)
        return legal


def team_result(deal: BlotPlay, team: int, future: int) -> tuple[int, int]:
    """(``team``'s card points, ``team``'s tricks class) at the end of the deal,
    from the solver's value ``future`` of a search that reached the end: the
    tricks class is 0 (none), 8 (all) or 1 (some)."""
    taken = deal.points[team] + future
    if future >= ALL_TRICKS // 2:
        return taken - ALL_TRICKS, 8
    if future <= -ALL_TRICKS // 2:
        return taken + ALL_TRICKS, 0
    return taken, 1


def score_margin(deal: BlotPlay, team: int, future: int) -> int:
    """``team``'s game points minus the other team's, for the deal ending as
    the solver's value ``future`` (a search to the end of the deal) says."""
    points, tricks = team_result(deal, team, future)
    if team == deal.side:
        a, d = deal.stakes.score(points, tricks)
        return a - d
    # the declarers' raw points are what this team did not take
    a, d = deal.stakes.score(DEAL_TOTAL - points, 8 - tricks if tricks in (0, 8) else 1)
    return d - a
