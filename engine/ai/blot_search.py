"""The Bazar Blot search agent: the "hard" seat (rules/blot.md).

It reads only its own ``Observation``.  Bids come from simulation
(``engine.ai.blot_bidding``).  A card is chosen by determinized Monte
Carlo: worlds are dealt from the unseen cards under everything the view
shows -- suits a player showed out of, trumps a player would have had to
play, shown declarations and the other half of an announced belote are
held, a trump K or Q played without belote means the other was not dealt
(``engine.ai.worlds.blot_evidence``) -- and in each world every candidate
card is valued by the deal's score margin for this side:

- with ``exact_cards`` or fewer cards left, exactly: every hand of the
  world open, best play by all four (``engine.ai.blot_solver``; 8-card
  hands are small enough that this covers the second half of every deal);
- earlier, by playing the world on with the play-out policy
  (``engine.ai.blot_policy``) to the last two tricks, which are solved.

Worlds are the engine's own play state on masks (``engine.games.blot.
masks.BlotPlay``): the rules of play are the engine's.

Candidates are one card per class of equivalent cards; the agent stops
when one candidate is left, when every world agrees, or when what is left
to tell apart is below a game point, and plays the heuristic's own card
unless the search shows better by a standard error (the play search's
rules, ``engine.ai.search.Evidence``).

Budgets: at most ``max_worlds`` worlds for a card and ``bid_worlds`` for a
bid; a work cap (play-out cards and solver positions, ``WORK_PER_MS`` per
ms of the time limit) that ends a long search before the clock does, so a
table replays identically however busy the machine; and the clock as the
guard: never past the time limit, ``budget_ms`` capped at ``TIME_CAP_MS``
so that a decision stays within 250 ms whatever the table's budget.
Benchmarks of strength set the time limit out of reach so that the world
counts alone decide.  Seeded: the same seed and the same view give the
same choice.  ``last["how"]`` says how the last decision ended.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

from engine.ai.base import BaseAgent, get_agent, register_agent
from engine.ai.blot_bidding import auction_evidence, blot_bid, values_misfit
from engine.ai.blot_hands import mask_values
from engine.ai.blot_policy import play_out
from engine.ai.blot_solver import OutOfTime, Solver, score_margin
from engine.ai.evidence import MIN_SAFE_WORLDS, Evidence
from engine.ai.knowledge import inferred_voids, unseen_cards
from engine.ai.rollout import COUNTS
from engine.ai.sampling import UnseenDealer
from engine.ai.worlds import blot_evidence, trick_classes
from engine.core.actions import Action
from engine.core.cards import Card
from engine.core.game import MatchState
from engine.core.view import Observation
from engine.games.blot.cards import BLOT_RANKING, blot_deck
from engine.games.blot.declarations import belote_points
from engine.games.blot.masks import INDEX, BlotPlay, mask_of
from engine.games.blot.scoring import Stakes

DECK = blot_deck()
#: the most a decision may take, whatever the table's budget
TIME_CAP_MS = 240
#: cards left at which a world is solved exactly
EXACT_CARDS = 16
#: sampled deals per world of which the one that best explains the bazar is kept
WORLD_TRIES = 4
#: cards left at which a play-out hands over to the exact solver
ENDGAME_CARDS = 8
#: work, in about a microsecond of this 2-core machine each: a card of a
#: play-out, a position of the solver
CARD_WORK = 15
NODE_WORK = 5
#: work allowed per ms of the time limit: the work cap, not the clock,
#: ends a long search (so a table replays identically on a busy machine)
WORK_PER_MS = 800


def parse_contract(text: str) -> tuple[int, str, bool, int]:
    """(level, strain, capot, doubling) of a contract text like "10 H contra"."""
    words = text.split()
    doubling = 2 if "recontra" in words else 1 if "contra" in words else 0
    return int(words[0]), words[1], "capot" in words, doubling


class BlotWorlds:
    """The worlds of one play decision: everything that depends only on the
    view is worked out once; ``sample`` deals the hidden hands."""

    def __init__(self, view: Observation, tries: int = 1) -> None:
        assert view.seat is not None and view.contract is not None
        assert view.declarer is not None and view.trick_leader is not None
        self.seat = view.seat
        trump = view.trump
        self.trump = trump
        self.voids = inferred_voids(view, BLOT_RANKING, trump, "blot")
        self.held, self.missing = blot_evidence(view)
        shown = {c for cards in self.held.values() for c in cards}
        self.unseen = sorted(unseen_cards(view, DECK) | shown, key=lambda c: (c.suit, c.rank))
        self.counts = {s: view.hand_counts[s] for s in range(4) if s != view.seat}
        #: deals the hidden hands: the constraints are worked out once a decision
        self.dealer = UnseenDealer(
            self.unseen,
            self.counts,
            forbidden=self.voids,
            required=self.held,
            forbidden_cards=self.missing,
        )
        self.hand = mask_of(view.hand)
        level, strain, capot, doubling = parse_contract(view.contract)
        decl = [0, 0]
        for seat, text, cards in view.declarations:
            if cards:
                decl[seat % 2] += int(text.rsplit("(", 1)[1].rstrip(")"))
        #: seats that announced belote (its 20 is added per world: ``sample``)
        self.announced = {s for s, _, cards in view.declarations if not cards}
        won = view.tricks_won
        self.template = BlotPlay(
            [0, 0, 0, 0],
            view.trick_leader,
            None if strain == "NT" else strain,
            Stakes(view.declarer, level, strain == "NT", doubling, capot, decl),
            trick=[INDEX[c] for _, c in view.trick],
            points=view.extra.get("card_points", (0, 0)),
            tricks=(won[0] + won[2], won[1] + won[3]),
        )
        # the bazar is evidence too: of ``tries`` deals, the one whose hands
        # (with the cards already played) best explain it is kept
        self.evidence = auction_evidence(view)
        self.telling = sorted({e.seat for e in self.evidence} - {view.seat})
        self.tries = tries if self.telling else 1
        #: per telling seat, what it said; the cards it has played, as a mask
        self.said = {s: [e for e in self.evidence if e.seat == s] for s in self.telling}
        self.played = [0, 0, 0, 0]
        for seat, card in view.played:
            self.played[seat] |= 1 << INDEX[card]

    def _deal(self, rng: random.Random) -> dict[int, list[Card]]:
        return self.dealer(rng)

    def _misfit(self, hands: dict[int, list[Card]]) -> float:
        """How badly the hands (with the cards already played) explain the
        bazar (``blot_bidding.evidence_misfit``)."""
        return sum(
            values_misfit(mask_values(mask_of(hands[s]) | self.played[s]), self.said[s]) ** 2
            for s in self.telling
        )

    def sample(self, rng: random.Random) -> BlotPlay:
        hands = self._deal(rng)
        if self.tries > 1:
            fit = self._misfit(hands)
            for _ in range(self.tries - 1):
                other = self._deal(rng)
                other_fit = self._misfit(other)
                if other_fit < fit:
                    hands, fit = other, other_fit
        deal = self.template.copy()
        masks = [self.hand if s == self.seat else mask_of(hands[s]) for s in range(4)]
        deal.deal(masks)
        belote = belote_points(masks, self.trump, self.announced)
        decl = deal.stakes.decl
        decl[0] += belote[0]
        decl[1] += belote[1]
        return deal


def finish(deal: BlotPlay, team: int, deadline: float) -> tuple[float, int]:
    """``team``'s margin once ``deal`` is played to its end -- fast play-out
    rules down to ``ENDGAME_CARDS``, exact from there -- and the work done."""
    work = 0
    if deal.cards_left > ENDGAME_CARDS:
        work += CARD_WORK * (deal.cards_left - ENDGAME_CARDS)
        play_out(deal, stop_at=ENDGAME_CARDS)
    if deal.cards_left == 0:
        a, d = deal.final_score()
        return (float(a - d) if team == 0 else float(d - a)), work
    solver = Solver(deal, team, deadline=deadline)
    values = solver.values()
    best = max(values.values()) if deal.to_act % 2 == team else min(values.values())
    return float(score_margin(deal, team, best)), work + NODE_WORK * solver.nodes


class BlotSearch(BaseAgent):
    """See the module docstring."""

    name = "search"

    def __init__(
        self, game: str | None = None, seed: int | None = None, budget_ms: int = 300, **kw: Any
    ) -> None:
        super().__init__(game, seed, budget_ms)
        self.fallback = get_agent("heuristic", game="blot", seed=seed)
        self.max_worlds = int(kw.get("max_worlds", 48))
        self.bid_worlds = int(kw.get("bid_worlds", 48))
        self.min_worlds = int(kw.get("min_worlds", 6))
        self.exact_cards = int(kw.get("exact_cards", EXACT_CARDS))
        self.world_tries = int(kw.get("world_tries", WORLD_TRIES))
        self.z = float(kw.get("z", 2.5))
        #: standard errors by which the leader must beat the heuristic's choice
        self.prefer_own = float(kw.get("prefer_own", 1.0))
        self.time_cap_ms = int(kw.get("time_cap_ms", TIME_CAP_MS))
        self.min_safe_worlds = int(kw.get("min_safe_worlds", MIN_SAFE_WORLDS))
        self.work_cap = int(kw.get("work", min(self.budget_ms, self.time_cap_ms) * WORK_PER_MS))
        self._work = 0
        #: False: no clock at all, the world and work caps alone (benchmarks
        #: of strength: the table's profile, reproducible on a busy machine)
        self.clock = bool(kw.get("clock", True))
        #: how the last decision went (tests and benchmarks read it)
        self.last: dict[str, Any] = {}

    def act(
        self,
        view: Observation,
        legal: Sequence[Action],
        *,
        full_state: MatchState | None = None,
    ) -> Action:
        start = time.perf_counter()
        limit = min(self.budget_ms, self.time_cap_ms)
        deadline = start + (limit - max(5.0, 0.15 * limit)) / 1000 if self.clock else math.inf
        legal = list(legal)
        if len(legal) == 1:
            return self._done(legal[0], "only_action", 0, start)
        if legal[0].verb != "play":
            return self._bid(view, legal, deadline, start)
        classes = trick_classes("blot")(view, legal)
        if len(classes) == 1:
            return self._done(classes[0][0], "all_equivalent", 0, start)
        own = self.fallback.act(view, legal)
        candidates = [own if own in c else c[0] for c in classes]
        evidence = Evidence(list(candidates))
        worlds = BlotWorlds(view, self.world_tries)
        team = view.seat % 2 if view.seat is not None else 0
        self._work = 0
        stop = "max_worlds"
        while evidence.worlds < self.max_worlds:
            if time.perf_counter() >= deadline:
                stop = "clock"
                break
            if self._work >= self.work_cap:
                stop = "work"
                break
            row = self._world(worlds.sample(self.rng), evidence.candidates, team, deadline)
            if row is None:
                stop = "clock"
                break
            evidence.add(row)
            why = self._enough(evidence)
            if why is not None:
                stop = why
                break
        if evidence.worlds == 0:
            return self._done(own, "no_world_in_time", 0, start)
        return self._done(self._choose(evidence, own), stop, evidence.worlds, start)

    def _enough(self, evidence: Evidence) -> str | None:
        """Why the worlds so far settle the choice, or None to go on (the
        play search's rules, ``engine.ai.search``)."""
        if evidence.worlds < self.min_worlds:
            return None
        if evidence.all_equal():
            return "all_equal"
        evidence.prune(self.z)
        if len(evidence.candidates) == 1:
            return "one_left"
        if evidence.settled(self.z, 1.0):
            return "settled"
        if evidence.worlds >= self.min_safe_worlds and evidence.regret() < 1.0:
            return "safe_lead"
        return None

    def _world(
        self, deal: BlotPlay, candidates: list[Action], team: int, deadline: float
    ) -> dict[Action, float] | None:
        """Every candidate's margin in one world; None when out of time."""
        try:
            if deal.cards_left <= self.exact_cards:
                solver = Solver(deal, team, deadline=deadline)
                values = solver.values([INDEX[a.card] for a in candidates])
                self._work += NODE_WORK * solver.nodes
                COUNTS["solved"] += len(candidates)
                return {
                    a: float(score_margin(deal, team, values[INDEX[a.card]])) for a in candidates
                }
            row = {}
            for action in candidates:
                child = deal.copy()
                child.play(INDEX[action.card])
                cards = child.cards_left
                row[action], work = finish(child, team, deadline)
                self._work += work
                COUNTS["rollouts"] += 1
                COUNTS["cards"] += cards
            return row
        except OutOfTime:
            return None

    def _bid(self, view: Observation, legal: list[Action], deadline: float, start: float) -> Action:
        priced = blot_bid(view, legal, self.rng, deadline, self.bid_worlds)
        own = self.fallback.act(view, legal)
        if priced is None:
            return self._done(own, "heuristic", 0, start)
        if len(priced) == 1:
            return self._done(next(iter(priced)), "instant_bid", 0, start)
        evidence = Evidence(list(priced), dict(priced))
        return self._done(self._choose(evidence, own), "simulated_bid", evidence.worlds, start)

    def _choose(self, evidence: Evidence, own: Action) -> Action:
        """The leader, unless the heuristic's own choice is too close to call."""
        best = evidence.leader()
        if own in evidence.candidates and own != best:
            mean, se = evidence.margin(best, own)
            if mean <= self.prefer_own * se:
                return own
        return best

    def _done(self, action: Action, how: str, worlds: int, start: float) -> Action:
        self.last = {"how": how, "worlds": worlds, "ms": (time.perf_counter() - start) * 1000}
        if how == "clock":
            self.last["stop"] = "deadline"  # bench/ai_speed.py counts these
        return action


register_agent("search", "blot", BlotSearch)
