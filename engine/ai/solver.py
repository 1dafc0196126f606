"""Exact play of the last tricks with every hand open (double dummy).

Alpha-beta over the card plays of a partnership trick game (Eşli Batak,
Bazar Blot) with a transposition table: one side maximises what it takes
from here to the end of the deal -- tricks in Batak, card points with the
last-trick bonus in Blot -- and the other side minimises it.  Both are
what each game's scoring rewards (rules/batak.md and rules/blot.md
"Scoring": more tricks, or more card points, never hurt the side that takes
them).  Legality and the effect of a card come from the game itself
(``_allowed_cards`` and ``_apply`` on a copy), so every compulsory rule is
respected.

``depth`` limits the search to that many cards (plies); at the limit the
value is what was taken so far.  Used as the search agent's end-game
evaluator and by the paper's minimax baseline (``engine.ai.baselines``),
which is the only caller that hands it a real full state.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.ai.rollout import copy_state
from engine.core.actions import Action, play
from engine.core.cards import Card

#: (state) -> what each team has taken so far this deal, as [team 0, team 1]
Taken = Callable[[Any], list[int]]


def taken_tricks(state: Any) -> list[int]:
    won = state.tricks_won
    return [won[0] + won[2], won[1] + won[3]]


def taken_points(state: Any) -> list[int]:
    return list(state.points_won)


TAKEN: dict[str, Taken] = {"batak": taken_tricks, "blot": taken_points}


class OutOfTime(TimeoutError):
    """The deadline passed in the middle of a search."""


@dataclass
class Solver:
    """``solve(state, team)``: the best total ``team`` can be sure to take
    this deal from here (with what it already has), and a card that gets it."""

    game: str
    deadline: float = float("inf")
    table: dict[tuple[Any, ...], tuple[int, int, int]] = field(default_factory=dict)
    nodes: int = 0
    _plays: dict[Card, Action] = field(default_factory=dict)

    def solve(self, state: Any, team: int, depth: int = 64) -> tuple[int, Card | None]:
        self.taken = TAKEN[self.game]
        self.deals = len(state.history)
        best_card: list[Card | None] = [None]
        value = self._search(state, team, depth, -(10**9), 10**9, best_card, root=True)
        return value, best_card[0]

    def _key(self, state: Any) -> tuple[Any, ...]:
        hands = tuple(frozenset(h) for h in state.hands)
        return (hands, tuple(state.trick.plays), state.to_act, tuple(self.taken(state)))

    def _search(
        self,
        state: Any,
        team: int,
        depth: int,
        alpha: int,
        beta: int,
        best_card: list[Card | None],
        root: bool = False,
    ) -> int:
        self.nodes += 1
        if self.nodes % 16 == 0 and time.perf_counter() > self.deadline:
            raise OutOfTime
        if len(state.history) > self.deals or state.is_over:
            record = state.history[self.deals]
            return int(self._final(record)[team])
        if depth == 0:
            return self.taken(state)[team]
        key = self._key(state)
        if not root:
            hit = self.table.get(key)
            if hit is not None and hit[2] >= depth:
                value, flag, _ = hit
                if flag == 0 or (flag < 0 and value <= alpha) or (flag > 0 and value >= beta):
                    return value
        cards = list(state._allowed_cards().cards)
        maximise = state.playing_seat % 2 == team
        # strongest cards first: cutoffs come sooner
        cards.sort(key=lambda c: state.ranking.plain_power(c), reverse=True)
        start_alpha, start_beta = alpha, beta
        best = -(10**9) if maximise else 10**9
        for card in cards:
            child = copy_state(state)
            action = self._plays.get(card) or self._plays.setdefault(card, play(card))
            child._apply(action)
            value = self._search(child, team, depth - 1, alpha, beta, best_card)
            if maximise:
                if value > best:
                    best = value
                    if root:
                        best_card[0] = card
                alpha = max(alpha, value)
            else:
                if value < best:
                    best = value
                    if root:
                        best_card[0] = card
                beta = min(beta, value)
            if alpha >= beta:
                break
        flag = 0
        if best <= start_alpha:
            flag = -1  # an upper bound
        elif best >= start_beta:
            flag = 1  # a lower bound
        self.table[key] = (best, flag, depth)
        return best

    @staticmethod
    def endgame(game: str) -> Callable[[Any, int, float], float]:
        """The search agent's end-game evaluator for ``game``: the exact
        total the deciding seat's side takes this deal."""

        def value(state: Any, seat: int, deadline: float) -> float:
            if len(state.history) > 0 and state.phase.value != "play":
                return float(Solver(game)._final(state.history[-1])[seat % 2])
            return float(Solver(game, deadline).solve(state, seat % 2)[0])

        return value

    def _final(self, record: Any) -> list[int]:
        """What each team took in the finished deal."""
        if self.game == "blot":
            return list(record.details["card_points"])
        won = record.tricks_won
        return [won[0] + won[2], won[1] + won[3]]
