"""Ladder worlds and rollouts on the engine's count table: the search
agent's fast path for Ladder (``engine.ai.ladder_search`` keeps the
``MatchState`` one).

The rules are the engine's (``engine.games.ladder.table``: a game on rank
counts, its legal plays and its turn, which ``LadderState`` itself decides
with), played with default settings (an action card may not empty the hand,
2 and 3 burn nothing: the view does not carry the settings).  What is here
is AI: the rollout player -- the Ladder heuristic's choices
(``heuristics/ladder.py``) on the table's legal plays; the sampling of
worlds; the value of a position.  ``tests/ai/test_ladder_playouts.py``
checks the choices against the heuristic move by move.

A world deals the cards the seat has not seen (the other hands and every
hidden card) at random; a T's redistribution and a blind hidden pick are
drawn from the world's own generator, seeded from the agent's, so a
search replays exactly.  Values as ``ladder_search.game_value``: +1 / -1 /
0 once the game is decided, else the fitted chance of winning.
"""

from __future__ import annotations

import math
import random
import time

from engine.ai.heuristics.ladder import ACTION_PREFERENCE
from engine.ai.rollout import COUNTS
from engine.core.actions import Action
from engine.core.cards import standard_deck
from engine.core.view import Observation
from engine.games.ladder.requirement import IS_ACTION, Requirement
from engine.games.ladder.table import (
    HIDDEN,
    Table,
    hidden_slots,
    plays,
    source_of,
    step,
    turn_of,
)

#: the action ranks in the order the heuristic sheds them (``ACTION_PREFERENCE``)
PREFERENCE = tuple(sorted(ACTION_PREFERENCE, key=ACTION_PREFERENCE.__getitem__))
DECK_RANKS = [c.rank for c in standard_deck()]


def heuristic(table: Table, seat: int) -> tuple[int, int] | None:
    """``LadderHeuristic.act`` on the table: (rank, copies) of the play, or
    None when nothing may be played (a pickup).  ``plays`` lists the legal
    ranks from the lowest up, so the first ordinary rank is the lowest."""
    legal = plays(table, seat)
    if not legal:
        return None
    low = 0
    for rank in legal:
        if not IS_ACTION[rank]:
            low = rank
            break
    sizes = table.sizes
    size = sizes[seat]
    partner, right, left_seat = (seat + 2) % 4, (seat + 1) % 4, (seat + 3) % 4
    if 10 in legal:
        opp_hands = min(sizes[right], sizes[left_seat])
        if (opp_hands <= 2 and size > opp_hands) or size >= sum(sizes) / 4 + 4:
            return 10, legal[10]
    if 3 in legal and table.cards_left(partner) <= 3 < table.cards_left(right):
        return 3, 1
    if low:
        hand = table.hands[seat]
        n_actions = hand[2] + hand[3] + hand[9] + hand[10]
        if n_actions >= size - n_actions:
            # too many action cards: they cannot be the last ones, shed one now
            for rank in PREFERENCE:
                if rank in legal:
                    return rank, legal[rank]
        return low, legal[low]
    for rank in PREFERENCE:  # only action cards: the one to part with first
        if rank in legal:
            return rank, 1
    raise AssertionError("unreachable: a legal play is an ordinary or an action rank")


def position_value(table: Table, seat: int) -> float:
    """Our side's chance of winning in [-1, 1], fitted on heuristic
    self-play (``ladder_search``'s module docstring)."""
    left = [table.cards_left(s) for s in range(4)]
    hand = table.sizes
    mine, other = seat % 2, 1 - seat % 2
    d_left = min(left[other], left[other + 2]) - min(left[mine], left[mine + 2])
    d_hand = min(hand[other], hand[other + 2]) - min(hand[mine], hand[mine + 2])
    return 2 / (1 + math.exp(-(0.6 * d_left - 0.45 * d_hand))) - 1


def value(table: Table, seat: int) -> float:
    if table.result is None:
        return position_value(table, seat)
    if table.result < 0:
        return 0.0
    return 1.0 if table.result == seat % 2 else -1.0


class LadderPlayouts:
    """One Ladder decision's worlds and rollouts (``engine.ai.search.Playouts``)."""

    def __init__(self, view: Observation, horizon: int) -> None:
        assert view.seat is not None and view.decider is not None
        self.seat = view.seat
        self.decider = view.decider
        self.horizon = horizon
        #: turns played in rollouts so far (``Playouts.work``)
        self.work = 0
        seen = [c.rank for c in view.hand] + [c.rank for c in view.pile]
        seen += [c.rank for row in view.shown for c in row]
        pool = DECK_RANKS[:]
        for rank in seen:
            pool.remove(rank)
        self.pool = pool
        base = Table()
        for c in view.hand:
            base.hands[self.seat][c.rank] += 1
        base.sizes = list(view.hand_counts)
        for s, row in enumerate(view.shown):
            for c in row:
                base.shown[s][c.rank] += 1
            base.shown_n[s] = len(row)
        base.pile = [c.rank for c in view.pile]
        base.req = Requirement.parse(view.requirement or "ANY").code
        base.to_act = view.to_act if view.to_act is not None else self.seat
        base.turns = int(view.extra.get("turns", 0))
        base.max_turns = int(view.extra.get("max_turns", 600))
        self.base = base
        self.slots = view.extra.get("hidden_slots", ((False,) * 3,) * 4)

    def sample(self, rng: random.Random) -> Table:
        table = self.base.copy()
        pool = self.pool[:]
        rng.shuffle(pool)
        for s in range(4):
            if s == self.seat:
                continue
            hand = table.hands[s]
            for _ in range(table.sizes[s]):
                hand[pool.pop()] += 1
        for s in range(4):
            table.hidden[s] = [pool.pop() if filled else 0 for filled in self.slots[s]]
            table.hidden_n[s] = sum(1 for filled in self.slots[s] if filled)
        table.seed = rng.getrandbits(64)
        return table

    def value(self, world: Table, action: Action, deadline: float) -> float | None:
        table = world.copy()
        step(table, turn_of(action))
        turns = 0
        clock = time.perf_counter
        while table.result is None and turns < self.horizon:
            if not turns & 7 and clock() > deadline:
                return None
            # every seat: a blind hidden card at random, else the heuristic's play
            seat = table.to_act
            if source_of(table, seat) == HIDDEN:
                slots = hidden_slots(table, seat)
                step(table, slots[0] if len(slots) == 1 else table.random().choice(slots))
            else:
                step(table, heuristic(table, seat))
            turns += 1
        COUNTS["rollouts"] += 1
        COUNTS["cards"] += turns
        self.work += turns + 1
        return value(table, self.decider)
