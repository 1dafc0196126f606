"""Ladder worlds and rollouts on rank counts: the search agent's fast path
for Ladder (``engine.ai.ladder_search`` keeps the ``MatchState`` one).

Suits never matter in Ladder (rules/ladder.md: a play is equal cards of one
rank; the requirement and the effects depend on the rank only), so a hand
is 15 counts indexed by rank, the shown cards too, a hidden slot a rank (0
when empty) and the pile a list of ranks.  The rules are the engine's
(``engine.games.ladder.rules``, default settings: an action card may not
empty the hand, 2 and 3 burn nothing) restated on counts, and the rollout
player is the Ladder heuristic's rules (``heuristics/ladder.py``) on the
same counts; ``tests/ai/test_ladder_playouts.py`` checks both against the
engine and the heuristic move by move.

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

from engine.ai.rollout import COUNTS
from engine.core.actions import Action
from engine.core.cards import standard_deck
from engine.core.view import Observation

ACTION = (False,) * 2 + (True, True) + (False,) * 5 + (True, True) + (False,) * 4
#: rank -> is an action card (2, 3, 9, T)
assert [r for r in range(15) if ACTION[r]] == [2, 3, 9, 10]
#: ``heuristics.ladder.ACTION_PREFERENCE``: the order action ranks are shed in
PREFERENCE = {2: 0, 9: 1, 3: 2, 10: 3}
#: requirement codes: 0 = ANY, v = MIN v, MAX9 = only 2..9
MAX9 = -9
RANKS = range(2, 15)
DECK_RANKS = [c.rank for c in standard_deck()]


def allows(req: int, rank: int) -> bool:
    """``Requirement.allows`` on the code."""
    if req == 0:
        return True
    if req == MAX9:
        return 2 <= rank <= 9
    return ACTION[rank] or rank >= req


def after_play(rank: int) -> int:
    """``requirement.after_play``: 2 and 3 leave ANY, a 9 MAX 9, else MIN rank."""
    if rank in (2, 3):
        return 0
    if rank == 9:
        return MAX9
    return rank


def parse_requirement(text: str | None) -> int:
    parts = (text or "ANY").split()
    if parts[0] == "MAX":
        return MAX9
    if parts[0] == "MIN":
        return int(parts[1])
    return 0


class Table:
    """One Ladder game in play, on rank counts."""

    __slots__ = (
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
    )

    def __init__(self) -> None:
        self.hands: list[list[int]] = [[0] * 15 for _ in range(4)]
        self.sizes = [0, 0, 0, 0]
        self.shown: list[list[int]] = [[0] * 15 for _ in range(4)]
        self.shown_n = [0, 0, 0, 0]
        self.hidden: list[list[int]] = [[0, 0, 0] for _ in range(4)]
        self.hidden_n = [0, 0, 0, 0]
        self.pile: list[int] = []
        self.req = 0
        self.to_act = 0
        self.turns = 0
        self.max_turns = 600
        #: None while the game runs; the winning team, or -1 for a draw
        self.result: int | None = None
        #: the table's own randomness (a T's shuffle, a blind pick), made
        #: from ``seed`` when first needed: a copy costs no generator
        self.seed = 0
        self.rng: random.Random | None = None

    def copy(self) -> Table:
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
        new.result = self.result
        new.seed = self.seed
        if self.rng is None:
            new.rng = None
        else:
            new.rng = random.Random()
            new.rng.setstate(self.rng.getstate())
        return new

    def random(self) -> random.Random:
        if self.rng is None:
            self.rng = random.Random(self.seed)
        return self.rng

    def cards_left(self, seat: int) -> int:
        return self.sizes[seat] + self.shown_n[seat] + self.hidden_n[seat]

    def source(self, seat: int) -> str:
        if self.sizes[seat]:
            return "hand"
        if self.shown_n[seat]:
            return "shown"
        return "hidden"


#: requirement code -> the ranks it allows, lowest first
ALLOWED = {req: tuple(r for r in RANKS if allows(req, r)) for req in (0, MAX9, *RANKS)}


def play_counts(table: Table, seat: int) -> dict[int, tuple[int, int]]:
    """Rank -> the fewest and the most copies the seat may play now (hand
    or shown source; ``LadderState._legal`` with its last-card rule: an
    action card may not be the last card nor empty the hand)."""
    size = table.sizes[seat]
    counts = table.hands[seat] if size else table.shown[seat]
    left = size + table.shown_n[seat] + table.hidden_n[seat]
    out: dict[int, tuple[int, int]] = {}
    for rank in ALLOWED[table.req]:
        have = counts[rank]
        if not have:
            continue
        if not ACTION[rank]:
            out[rank] = (1, have)
            continue
        ks = [k for k in range(1, have + 1) if k != left and k != size]
        if ks:
            out[rank] = (ks[0], ks[-1])
    return out


def heuristic(table: Table, seat: int) -> tuple[int, int] | None:
    """``LadderHeuristic.act`` on counts: (rank, copies) of the play, or
    None when nothing may be played (a pickup).  The legal plays are
    scanned once (``play_counts`` says the same, as a table): from the
    lowest allowed rank up, so the first ordinary rank is the lowest."""
    size = table.sizes[seat]
    counts = table.hands[seat] if size else table.shown[seat]
    left = size + table.shown_n[seat] + table.hidden_n[seat]
    low = 0
    actions: dict[int, tuple[int, int]] = {}
    for rank in ALLOWED[table.req]:
        have = counts[rank]
        if not have:
            continue
        if not ACTION[rank]:
            if not low:
                low = rank
            continue
        ks = [k for k in range(1, have + 1) if k != left and k != size]
        if ks:
            actions[rank] = (ks[0], ks[-1])
    if not low and not actions:
        return None
    sizes = table.sizes
    partner, right, left_seat = (seat + 2) % 4, (seat + 1) % 4, (seat + 3) % 4
    if 10 in actions:
        opp_hands = min(sizes[right], sizes[left_seat])
        if (opp_hands <= 2 and size > opp_hands) or size >= sum(sizes) / 4 + 4:
            return 10, actions[10][1]
    if 3 in actions and table.cards_left(partner) <= 3 < table.cards_left(right):
        return 3, actions[3][0]
    if low:
        if actions:
            hand = table.hands[seat]
            n_actions = hand[2] + hand[3] + hand[9] + hand[10]
            if n_actions >= size - n_actions:
                # too many action cards: they cannot be the last ones, shed one now
                rank = min(actions, key=PREFERENCE.__getitem__)
                return rank, actions[rank][1]
        return low, counts[low]
    rank = min(actions, key=PREFERENCE.__getitem__)
    return rank, actions[rank][0]


def step(table: Table, play: tuple[int, int] | int | None) -> None:
    """One turn (``LadderState._apply``): ``(rank, copies)`` from the
    current source, a hidden slot index, or None to pick up the pile."""
    seat = table.to_act
    table.turns += 1
    if play is None:
        _pick_up(table, seat, 0)
    elif isinstance(play, int):
        rank = table.hidden[seat][play]
        table.hidden[seat][play] = 0
        table.hidden_n[seat] -= 1
        if not allows(table.req, rank) or (ACTION[rank] and table.cards_left(seat) == 0):
            _pick_up(table, seat, rank)
        else:
            _effect(table, seat, rank, 1)
    else:
        rank, k = play
        if table.sizes[seat]:
            table.hands[seat][rank] -= k
            table.sizes[seat] -= k
        else:
            table.shown[seat][rank] -= k
            table.shown_n[seat] -= k
        _effect(table, seat, rank, k)
    # ``LadderState._check_end``: the player who went out first, from this seat
    for s in (seat, (seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4):
        if not table.sizes[s] and not table.shown_n[s] and not table.hidden_n[s]:
            table.result = s % 2
            return
    if table.turns >= table.max_turns:
        table.result = -1


def _pick_up(table: Table, seat: int, extra: int) -> None:
    hand = table.hands[seat]
    for rank in table.pile:
        hand[rank] += 1
    table.sizes[seat] += len(table.pile)
    if extra:
        hand[extra] += 1
        table.sizes[seat] += 1
    table.pile = []
    table.req = 0
    table.to_act = (seat + 1) % 4


def _effect(table: Table, seat: int, rank: int, k: int) -> None:
    table.pile.extend([rank] * k)
    table.req = after_play(rank)
    if rank == 3:
        table.to_act = (seat + 2) % 4
        return
    if rank == 10:
        pool = [r for h in table.hands for r in RANKS for _ in range(h[r])]
        table.random().shuffle(pool)
        table.hands = [[0] * 15 for _ in range(4)]
        table.sizes = [0, 0, 0, 0]
        for i, r in enumerate(pool):
            s = (seat + i) % 4
            table.hands[s][r] += 1
            table.sizes[s] += 1
    table.to_act = (seat + 1) % 4


def turn(table: Table) -> None:
    """The heuristic plays one turn for the seat to act."""
    seat = table.to_act
    if table.source(seat) == "hidden":
        slots = [i for i, r in enumerate(table.hidden[seat]) if r]
        step(table, slots[0] if len(slots) == 1 else table.random().choice(slots))
        return
    step(table, heuristic(table, seat))


def position_value(table: Table, seat: int) -> float:
    """``ladder_search.position_value``: our side's chance of winning in [-1, 1]."""
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
        base.req = parse_requirement(view.requirement)
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
        step(table, as_play(action))
        turns = 0
        clock = time.perf_counter
        while table.result is None and turns < self.horizon:
            if not turns & 7 and clock() > deadline:
                return None
            turn(table)
            turns += 1
        COUNTS["rollouts"] += 1
        COUNTS["cards"] += turns
        self.work += turns + 1
        return value(table, self.decider)


def as_play(action: Action) -> tuple[int, int] | int | None:
    """An engine action as a turn of ``step``."""
    if action.verb == "pickup":
        return None
    if action.verb == "hidden":
        assert action.number is not None
        return action.number - 1
    return action.cards[0].rank, len(action.cards)
