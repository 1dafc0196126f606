"""Baselines from the Bazar Blot paper ("Agent for Bazar Blot", AUA 2024,
and its authors' code; rules/blot.md), to compare our agents with.

``paper-minimax`` is the paper's agent: its hill-climbing bidder with the
paper's value table, and its depth-limited minimax card play that sees
every hand.  It openly cheats, says so (``sees_all = True``) and is handed
the full state by the play-out driver as ``full_state=``; no other agent
ever is.

The bidder (the paper's "v2", the one its results keep): every contract
type gets a value from the paper's table -- a card's points as trump
(J 20, 9 14, A 11, T 10, K 4, Q 3) summed over the suit, or its no-trump
points (A 19, T 10, K 4, Q 3, J 2) over the whole hand, the no-trump sum
divided by 1.7 -- plus the partner's last bid divided by 1.5 on the
partner's contract type.  The best value bids unless it is below 4.5 times
the lowest level allowed; the level is the partner's bid (else the level
below the lowest allowed) raised by a twentieth of the value, rounded
down, and by the hand's combinations in tens (the paper's "Tierce giving
2 points").  It never doubles, redoubles or bids capot: the paper leaves
those "extra conditions" unimplemented.

The card play: alpha-beta minimax with every hand open over the next
``depth`` cards (the paper's "one hand" is 4, its "three hands" 12, the
default here, the stronger of the two in the paper), the team maximising
the card points it has taken at the horizon (the paper's leaf, points / 10:
the tenth changes no choice) and, when the horizon is the end of the deal,
the deal's score -- a non-decreasing function of the points taken (and of
taking every trick), so maximising those is the same choice, ties going to
more points (``engine.ai.blot_solver``).  Equal choices go to the first
card in hand order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from engine.ai.base import BaseAgent, register_agent
from engine.ai.blot_solver import Solver
from engine.core.actions import PASS, Action, bid
from engine.core.cards import Card
from engine.core.game import MatchState
from engine.core.view import Observation
from engine.games.blot.auction import MAX_LEVEL, STRAINS
from engine.games.blot.cards import card_points
from engine.games.blot.declarations import best_split
from engine.games.blot.masks import INDEX
from engine.games.blot.rules import BlotState

#: the paper's v2 constants
PARTNER_DIVISOR = 1.5
NT_DIVISOR = 1.7
PASS_FACTOR = 4.5
LEVEL_DIVISOR = 20


def paper_values(hand: Sequence[Card], partner_bid: tuple[int, str] | None) -> dict[str, float]:
    """The paper's value of each contract type for ``hand`` (module docstring)."""
    values: dict[str, float] = {}
    for strain in STRAINS:
        if strain == "NT":
            total = float(sum(card_points(c, None) for c in hand))
        else:
            total = float(sum(card_points(c, strain) for c in hand if c.suit == strain))
        if partner_bid is not None and partner_bid[1] == strain:
            total += partner_bid[0] / PARTNER_DIVISOR
        values[strain] = total / NT_DIVISOR if strain == "NT" else total
    return values


def paper_bid(view: Observation, legal: Sequence[Action]) -> Action:
    """The paper's hill-climbing bid for the seat to act (module docstring)."""
    assert view.seat is not None
    levels = [a.number or 0 for a in legal if a.verb == "bid" and not a.capot]
    if not levels:
        return PASS  # a capot bid stands or a contra was called: no plain bid
    lowest = min(levels)
    partner = (view.seat + 2) % 4
    partner_bids = [t.split() for s, t in view.auction if s == partner and t.startswith("bid")]
    partner_bid = (int(partner_bids[-1][1]), partner_bids[-1][2]) if partner_bids else None
    values = paper_values(view.hand, partner_bid)
    strain = max(STRAINS, key=lambda s: values[s])
    value = values[strain]
    if PASS_FACTOR * lowest > value:
        return PASS
    trump = None if strain == "NT" else strain
    combinations = sum(d.value for d in best_split(view.seat, view.hand, trump)) // 10
    base = partner_bid[0] if partner_bid is not None else lowest - 1
    level = min(MAX_LEVEL, max(lowest, base + int(value / LEVEL_DIVISOR) + combinations))
    action = bid(level, strain)
    return action if action in legal else PASS


class PaperMinimax(BaseAgent):
    name = "paper-minimax"
    sees_all = True

    def __init__(
        self, game: str | None = None, seed: int | None = None, budget_ms: int = 300, **kw: Any
    ) -> None:
        super().__init__(game, seed, budget_ms)
        self.depth = int(kw.get("depth", 12))

    def act(
        self,
        view: Observation,
        legal: Sequence[Action],
        *,
        full_state: MatchState | None = None,
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        if any(a.verb != "play" for a in legal):
            return paper_bid(view, legal)
        if full_state is None:
            raise ValueError("paper-minimax sees every hand: pass full_state=")
        deal = cast(BlotState, full_state).play_state()
        team = deal.to_act % 2
        by_index = {INDEX[a.card]: a for a in legal}
        card, _ = Solver(deal, team, self.depth).best(list(by_index))
        return by_index[card]


register_agent("paper-minimax", "blot", PaperMinimax)
