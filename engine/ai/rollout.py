"""Fast play-outs for the search agent (FINDINGS, "Cost of one move").

A search decision plays hundreds of rollouts, so the per-card cost is what
matters.  Three savings over ``state.apply(agent.act(state.view(seat), ...))``:

- ``copy_state``: a structural copy of a world (lists, sets, the trick, the
  RNG) instead of ``copy.deepcopy`` of every object; anything it does not
  recognise is still deep-copied.
- Rollout cards come from the game's own legality hook (``_allowed_cards``)
  and go through its own ``_apply``: the same rules, without re-validating
  a card that was just taken from the legal list and without building an
  ``Observation`` (and its legal actions) for every card.
- The rollout players' knowledge (cards seen, suits shown out of, suits led)
  is kept up to date card by card and handed to the shared trick-play rules
  (``trickplay.decide_at``): they play exactly as the heuristic agents do.

Every rollout checks the clock before each card, so a search never runs
past its deadline by more than one card.
"""

from __future__ import annotations

import copy
import random
import time
from collections import Counter
from collections.abc import Sequence
from enum import Enum
from typing import Any

from engine.ai.heuristics.trickplay import CONTEXTS, Table, decide_at
from engine.ai.knowledge import note_play
from engine.core.actions import Action, play
from engine.core.cards import Card
from engine.core.game import MatchState
from engine.core.spec import Variant
from engine.core.trick import Trick
from engine.core.trickgame import TrickGameState
from engine.core.view import Observation

#: play-outs finished, the cards (Ladder: turns) they played, end-games
#: solved exactly: counted for ``bench/ai_rollouts.py`` (never reset here)
COUNTS: Counter[str] = Counter()

_SHARED = (int, float, str, bool, type(None), tuple, frozenset, Enum, Variant)


def _copy_value(value: Any, memo: dict[int, Any]) -> Any:
    if isinstance(value, _SHARED) or id(value) in memo:
        return memo.get(id(value), value)
    if isinstance(value, list):
        return [_copy_value(v, memo) for v in value]
    if isinstance(value, set):
        return set(value)
    if isinstance(value, dict):
        return {k: _copy_value(v, memo) for k, v in value.items()}
    if isinstance(value, Trick):
        return value.copy()
    if isinstance(value, random.Random):
        rng = random.Random()
        rng.setstate(value.getstate())
        return rng
    if getattr(type(value), "__dataclass_params__", None) is not None and getattr(
        type(value).__dataclass_params__, "frozen", False
    ):
        return value  # frozen dataclasses (requirements, records) never change
    return copy.deepcopy(value, memo)


def copy_state(state: MatchState) -> MatchState:
    """An independent copy of ``state`` (as ``state.clone()``, much cheaper)."""
    new = copy.copy(state)
    memo: dict[int, Any] = {id(state.game): state.game, id(state.variant): state.variant}
    for key, value in vars(state).items():
        setattr(new, key, _copy_value(value, memo))
    return new


def public_cards(view: Observation) -> set[Card]:
    """Cards every seat has seen: played this deal, the trick, the dummy,
    shown declarations, the turned trump and cards set aside."""
    cards = {c for _, c in view.played} | {c for _, c in view.trick}
    cards.update(c for _, c in view.last_trick)
    cards.update(view.dummy or ())
    for _, _, shown in view.declarations:
        cards.update(shown)
    if view.turned is not None:
        cards.add(view.turned)
    cards.update(view.extra.get("set_aside", ()))
    return cards


def suits_led(view: Observation, ranking: Any, trump: str | None) -> dict[int, set[str]]:
    """Seat -> plain suits it led this deal (public)."""
    led: dict[int, set[str]] = {s: set() for s in range(view.num_seats)}
    done = view.played[: len(view.played) - len(view.trick)]
    for i in range(0, len(done), view.num_seats):
        seat, card = done[i]
        if not ranking.is_trump(card, trump):
            led[seat].add(ranking.suit_of(card, trump))
    return led


class TrickRollout:
    """Plays a trick game's world to the end of the current deal with the
    heuristic's rules for every seat.  ``public``, ``voids`` and ``led`` are
    what every seat knew at the root (from the searching seat's view: all of
    it public)."""

    def __init__(
        self,
        game: str,
        deck: Sequence[Card],
        public: set[Card],
        voids: dict[int, set[str]],
        led: dict[int, set[str]],
    ) -> None:
        self.context_for = CONTEXTS[game]
        self.deck = frozenset(deck)
        self.public = public
        self.voids = voids
        self.led = led
        self._plays: dict[Card, Action] = {}

    def action(self, card: Card) -> Action:
        act = self._plays.get(card)
        if act is None:
            act = self._plays[card] = play(card)
        return act

    def run(self, state: TrickGameState, deadline: float) -> bool:
        """Play ``state`` until its deal is scored; False if the deadline
        came first (the world is then unusable)."""
        deals = len(state.history)
        cards_before = sum(len(h) for h in state.hands)
        public = set(self.public)
        voids = {s: set(v) for s, v in self.voids.items()}
        led = {s: set(v) for s, v in self.led.items()}
        declarer = getattr(state, "declarer", None)
        clock = time.perf_counter
        while len(state.history) == deals and not state.is_over:
            if clock() > deadline:
                return False
            seat = state.playing_seat
            cards = state._allowed_cards().cards
            trump = state.trump
            if len(cards) == 1:
                card = cards[0]
                ctx = None
            else:
                hand = tuple(state.hands[seat])
                ctx = self.context_for(seat, hand, trump, declarer)
                unseen = self.deck - public - set(hand)
                partner_led = led[ctx.partner] if ctx.partner is not None else set()
                table = Table(
                    ctx, state.trick.plays, state.num_seats, set(unseen), voids, partner_led
                )
                card = decide_at(table, list(cards)).card
            ranking = state.ranking
            if state.trick.plays:
                duty = ctx.trump_duty if ctx is not None else self._duty(seat, trump, declarer)
                note_play(voids, state.trick, seat, card, ranking, trump, duty)
            elif not ranking.is_trump(card, trump):
                led[seat].add(ranking.suit_of(card, trump))
            public.add(card)
            state._apply(self.action(card))
        COUNTS["rollouts"] += 1
        COUNTS["cards"] += cards_before
        return True

    def _duty(self, seat: int, trump: str | None, declarer: int | None) -> Any:
        return self.context_for(seat, (), trump, declarer).trump_duty
