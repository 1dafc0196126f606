"""Ladder heuristic (issue "Ladder", AI): shed low ordinary cards first (as
many copies as allowed), keep action cards for when they save a pickup, use
a 3 to hand the turn to the partner when the partner is close to going out,
and play a T when the opponents hold few hand cards (rules/ladder.md)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.ai.base import BaseAgent, register_agent
from engine.core.actions import Action
from engine.core.game import MatchState
from engine.core.view import Observation
from engine.games.ladder.requirement import ACTION_RANKS

#: ranks in the order they are worth keeping (a T or 2 rescues most)
ACTION_PREFERENCE = {2: 0, 9: 1, 3: 2, 10: 3}


def total_cards(view: Observation, seat: int) -> int:
    return view.hand_counts[seat] + len(view.shown[seat]) + view.hidden[seat]


class LadderHeuristic(BaseAgent):
    name = "heuristic"

    def act(
        self,
        view: Observation,
        legal: Sequence[Action],
        *,
        full_state: MatchState | None = None,
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        if legal[0].verb == "hidden":
            return self.rng.choice(list(legal))
        seat = view.seat
        assert seat is not None
        partner = (seat + 2) % 4
        opponents = [(seat + 1) % 4, (seat + 3) % 4]
        ordinary = [a for a in legal if a.cards[0].rank not in ACTION_RANKS]
        actions = [a for a in legal if a.cards[0].rank in ACTION_RANKS]
        by_rank: dict[int, list[Action]] = {}
        for a in actions:
            by_rank.setdefault(a.cards[0].rank, []).append(a)
        opp_hands = min(view.hand_counts[o] for o in opponents)
        mean_hand = sum(view.hand_counts) / 4
        if 10 in by_rank and (
            (opp_hands <= 2 and view.hand_counts[seat] > opp_hands)
            or view.hand_counts[seat] >= mean_hand + 4
        ):
            return max(by_rank[10], key=lambda a: len(a.cards))
        if 3 in by_rank and total_cards(view, partner) <= 3 < total_cards(view, opponents[0]):
            return min(by_rank[3], key=lambda a: len(a.cards))
        hand_ranks = [c.rank for c in view.hand]
        n_actions = sum(r in ACTION_RANKS for r in hand_ranks)
        if actions and ordinary and n_actions >= len(hand_ranks) - n_actions:
            # too many action cards: they cannot be the last ones, shed one now
            rank = min(by_rank, key=lambda r: ACTION_PREFERENCE[r])
            return max(by_rank[rank], key=lambda a: len(a.cards))
        if ordinary:
            low = min(a.cards[0].rank for a in ordinary)
            same = [a for a in ordinary if a.cards[0].rank == low]
            return max(same, key=lambda a: len(a.cards))
        rank = min(by_rank, key=lambda r: ACTION_PREFERENCE[r])
        return min(by_rank[rank], key=lambda a: len(a.cards))


register_agent("heuristic", "ladder", LadderHeuristic)
