"""Search for Ladder (rules/ladder.md): determinized Monte Carlo like the
trick games, with what is special to a climbing game.

- Worlds: the cards nobody has seen -- the other players' hands and every
  hidden table card, the seat's own included -- are dealt at random from
  the cards not in the seat's hand, on the table or in the pile (the rest is
  out of play); hidden cards keep their slots, so ``hidden 2`` means the
  same in the world as at the table; a T's redistribution is shuffled by a
  generator drawn from the agent's RNG.
- Equivalent actions: plays of the same rank, count and source (suits never
  matter in Ladder), and every blind ``hidden`` slot.
- Rollouts: the Ladder heuristic plays every seat for ``horizon`` turns or
  until the game is decided; an undecided game is valued by the chance of
  winning that the seat's side has, fitted on heuristic self-play (150
  games, logistic regression): ``2 sigmoid(0.6 d_left - 0.45 d_hand) - 1``
  with ``d_left`` the opponents' fewest cards left minus ours and
  ``d_hand`` the same for hand cards; a won game is +1, a lost one -1.
"""

from __future__ import annotations

import random
import time
from collections import defaultdict
from typing import Any

from engine.ai.base import get_agent
from engine.ai.ladder_playouts import LadderPlayouts
from engine.ai.ladder_playouts import position_value as table_value
from engine.ai.rollout import COUNTS
from engine.ai.search import SearchGame, register_search
from engine.core.actions import Action
from engine.core.cards import Card, standard_deck
from engine.core.game import MatchState
from engine.core.registry import get_game
from engine.core.view import Observation

DECK = standard_deck()
#: turns a rollout plays before the position is valued
HORIZON = 30


def ladder_world(view: Observation, rng: random.Random) -> MatchState:
    """A full Ladder state consistent with ``view`` (see the module docstring)."""
    game = get_game("ladder")
    assert view.seat is not None
    seen = set(view.hand) | set(view.pile) | {c for row in view.shown for c in row}
    pool = sorted((c for c in DECK if c not in seen), key=lambda c: (c.suit, c.rank))
    rng.shuffle(pool)
    hands: dict[int, list[Card]] = {view.seat: list(view.hand)}
    for seat in range(4):
        if seat != view.seat:
            n = view.hand_counts[seat]
            hands[seat], pool = pool[:n], pool[n:]
    max_turns = int(view.extra.get("max_turns", 600))
    state: Any = game.position(
        hands={s: [str(c) for c in h] for s, h in hands.items()},
        shown={s: [str(c) for c in row] for s, row in enumerate(view.shown)},
        hidden={s: 0 for s in range(4)},
        pile=[str(c) for c in view.pile],
        requirement=view.requirement or "ANY",
        to_act=view.to_act,
        variant=game.variant(max_turns=max_turns),
    )
    slots = view.extra.get("hidden_slots", ((False,) * 3,) * 4)
    for seat in range(4):
        row: list[Card | None] = []
        for filled in slots[seat]:
            if filled:
                row.append(pool.pop())
            else:
                row.append(None)
        state.hidden[seat] = row
    state.burned = pool
    state.turns = int(view.extra.get("turns", 0))
    state.scores = list(view.scores)
    state.results = list(view.extra.get("results", ()))
    state.round_number = view.round_number
    state.rng = random.Random(rng.getrandbits(64))
    state.resync()  # the engine's count table follows the cards dealt here
    world: MatchState = state
    return world


def ladder_classes(view: Observation, legal: list[Action]) -> list[list[Action]]:
    """Same rank, same count, same source: one class; all blind plays: one."""
    groups: dict[tuple[str, int, int], list[Action]] = defaultdict(list)
    for action in legal:
        if action.verb == "play":
            groups[("play", action.cards[0].rank, len(action.cards))].append(action)
        else:
            groups[(action.verb, 0, 0)].append(action)
    return list(groups.values())


def position_value(state: Any, seat: int) -> float:
    """Our side's chance of winning, scaled to [-1, 1] (module docstring),
    read from the state's count table."""
    return table_value(state.table, seat)


def game_value(state: MatchState, seat: int, games_before: int) -> float:
    """+1 / -1 once the game is decided (0 for a draw), else ``position_value``."""
    results: list[int | None] = getattr(state, "results", [])
    if len(results) > games_before:
        team = results[games_before]
        return 0.0 if team is None else (1.0 if team == seat % 2 else -1.0)
    return position_value(state, seat)


class LadderRollout:
    """The Ladder heuristic for every seat, ``horizon`` turns at most."""

    def __init__(self, view: Observation, seed: int, horizon: int = HORIZON) -> None:
        self.horizon = horizon
        self.players = [get_agent("heuristic", game="ladder", seed=seed + s) for s in range(4)]

    def run(self, state: Any, deadline: float) -> bool:
        games = len(state.results)
        clock = time.perf_counter
        turns = 0
        for _ in range(self.horizon):
            if state.is_over or len(state.results) > games:
                break
            if clock() > deadline:
                return False
            turns += 1
            seat = state.to_act
            legal = state._legal()
            if len(legal) == 1:
                action = legal[0]
            else:
                action = self.players[seat].act(self._view(state, seat), legal)
            state._apply(action)
        COUNTS["rollouts"] += 1
        COUNTS["cards"] += turns
        return True

    @staticmethod
    def _view(state: Any, seat: int) -> Observation:
        """What the heuristic reads, without building the legal actions again."""
        return Observation(
            game="ladder",
            seat=seat,
            num_seats=4,
            phase="play",
            round_number=state.round_number,
            to_act=seat,
            decider=seat,
            hand=tuple(state.hands[seat]),
            hand_counts=tuple(len(h) for h in state.hands),
            shown=tuple(tuple(s) for s in state.shown),
            hidden=tuple(sum(c is not None for c in h) for h in state.hidden),
            requirement=str(state.requirement),
        )


register_search(
    "ladder",
    SearchGame(
        world=ladder_world,
        classes=ladder_classes,
        rollouts=lambda view: LadderRollout(view, seed=len(view.pile) * 131 + view.round_number),
        value=game_value,
        verbs=frozenset({"play", "pickup", "hidden"}),
        resolution=0.05,
        mark=lambda state: len(getattr(state, "results", [])),
        playouts=lambda view: LadderPlayouts(view, HORIZON),
    ),
)
