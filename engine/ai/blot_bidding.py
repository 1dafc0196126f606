"""The Bazar Blot bazar by simulation (rules/blot.md "Auction", "Scoring").

Every action worth considering is priced by what it would score if the
auction ended with it: a bid ``L S`` by this side's result when ``S`` is
played, ``pass`` by the standing contract (nothing without one), ``contra``
and ``recontra`` by the standing contract doubled or redoubled.  Prices are
the deciding side's margin in game points (``score_deal``), in sampled
deals: the unseen cards dealt to the other three seats, hands that explain
the bids made so far preferred, each contract that matters played out
once per deal with the play-out policy (``engine.ai.blot_policy``) on the
engine's play state (``engine.games.blot.masks.BlotPlay``) --
every level of a contract type is priced from the same play-out, so one
play-out per contract type and deal is all a price needs.

Cheap first, so a decision is quick: the opening bazar has hundreds of
legal bids, and most are out of reach.  A value-table estimate (the
heuristic's ``hand_value`` plus what the partner's bids promise) keeps the
contract types within reach of the best one, and for each only the levels
the team might make; while this side holds the bid, only raises of its
contract type; when nothing but ``pass`` is left the answer is immediate
(``Plan.instant``).  Stops like the play search: once one action is
significantly better than the rest, or what is left to tell apart is
below a game point, or the expected loss of choosing now is.

The bazar so far is evidence about the hidden hands (``auction_evidence``,
``blot_hands``): bids and passes weigh the sampled deals, and an
opponent's bid too high for chance deals to explain gets deals built
around an explanation (a four of a kind, a run, top trumps).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.ai.bidding import Priced
from engine.ai.blot_hands import explanation, quick_values
from engine.ai.blot_policy import play_out
from engine.ai.evidence import MIN_SAFE_WORLDS, expected_excess
from engine.ai.heuristics.blot import PARTNER_POINTS, hand_value
from engine.ai.rollout import COUNTS
from engine.core.actions import CONTRA, PASS, RECONTRA, Action, bid
from engine.core.cards import Card
from engine.core.view import Observation
from engine.games.blot.auction import STRAINS
from engine.games.blot.cards import blot_deck
from engine.games.blot.declarations import team_points
from engine.games.blot.masks import BlotPlay, mask_of
from engine.games.blot.scoring import Stakes

DECK = blot_deck()
MIN_WORLDS = 8
#: sampled deals of which the one that best explains the bazar is kept
TRIES = 4
#: misfit (tens of raw points) above which a bid counts as unexplained by chance
UNEXPLAINED = 2.0
#: raw points (of 162) by which the team estimate may fall short of a level
#: and that level still be simulated
SLACK = 30
#: how many levels above the lowest allowed are priced at most
LEVELS = 10
#: team estimate for a capot bid to be priced
CAPOT_ESTIMATE = 140


@dataclass(frozen=True)
class Contract:
    """A contract to price: its type, its declarer, and the doubling."""

    strain: str
    declarer: int
    level: int
    capot: bool = False
    doubling: int = 0


@dataclass
class Plan:
    """What one bazar decision will simulate and price."""

    #: action -> the contract it leads to (None: a redeal, worth nothing)
    actions: dict[Action, Contract | None] = field(default_factory=dict)

    @property
    def instant(self) -> bool:
        return len(self.actions) <= 1

    def playouts(self) -> set[tuple[str, int]]:
        """(strain, declaring team) pairs to play out in each world."""
        return {(c.strain, c.declarer % 2) for c in self.actions.values() if c is not None}


def _bids(view: Observation) -> list[tuple[int, list[str]]]:
    return [(s, t.split()) for s, t in view.auction if t.startswith("bid")]


def team_estimates(view: Observation) -> dict[str, float]:
    """Raw points (cards plus declarations) this side may expect with each
    contract type: the hand's value (``hand_value``) and the partner's share
    -- what an unknown partner brings, or what its last bid promises."""
    assert view.seat is not None
    partner = (view.seat + 2) % 4
    said = [w for s, w in _bids(view) if s == partner]
    estimates = {}
    for strain in STRAINS:
        share = float(PARTNER_POINTS)
        if said and said[-1][2] == strain:
            share = max(share, 10 * int(said[-1][1]) - 50)
        estimates[strain] = hand_value(view.hand, strain) + share
    return estimates


def plan(view: Observation, legal: Sequence[Action]) -> Plan:
    """The actions worth pricing (module docstring) and what each means."""
    assert view.seat is not None
    seat = view.seat
    bids = _bids(view)
    standing_text = str(view.extra.get("standing_bid") or "")
    standing = None
    if bids:
        s, words = bids[-1]
        doubling = 2 if "recontra" in standing_text else 1 if "contra" in standing_text else 0
        standing = Contract(words[2], s, int(words[1]), "capot" in words, doubling)
    result = Plan()
    if PASS in legal:
        result.actions[PASS] = standing
    if RECONTRA in legal and standing is not None:
        estimate = team_estimates(view)[standing.strain]
        if estimate + SLACK >= 10 * standing.level:
            result.actions[RECONTRA] = Contract(
                standing.strain, standing.declarer, standing.level, standing.capot, 2
            )
        return result
    ours = standing is not None and standing.declarer % 2 == seat % 2
    if CONTRA in legal and standing is not None and not ours:
        result.actions[CONTRA] = Contract(
            standing.strain, standing.declarer, standing.level, standing.capot, 1
        )
    estimates = team_estimates(view)
    plain = sorted({a.number or 0 for a in legal if a.verb == "bid" and not a.capot})
    capots = sorted({a.number or 0 for a in legal if a.verb == "bid" and a.capot})
    top = max(estimates.values())
    # while this side holds the bid, only a raise of its contract type: a
    # partner who bids another type over it starts a bidding war the
    # opponents only have to watch (each finds its own type better)
    types = (standing.strain,) if ours and standing is not None else STRAINS
    for strain in types:
        estimate = estimates[strain]
        if estimate < top - 25 and not ours:
            continue
        for level in plain[:LEVELS]:
            if 10 * level > estimate + SLACK:
                break
            result.actions[bid(level, strain)] = Contract(strain, seat, level)
        if capots and estimate >= CAPOT_ESTIMATE:
            level = capots[0]
            result.actions[bid(level, strain, capot=True)] = Contract(
                strain, seat, level, capot=True
            )
    result.actions = {a: c for a, c in result.actions.items() if a in legal}
    if CONTRA in result.actions and len(result.actions) == 2 and standing is not None:
        # only pass or contra: worth a simulation when the contract is ambitious
        assert standing is not None
        theirs = 10 * standing.level
        ours_est = hand_value(view.hand, standing.strain) + PARTNER_POINTS
        if theirs + ours_est < 162 - SLACK:
            del result.actions[CONTRA]
    return result


@dataclass(frozen=True)
class Said:
    """One bazar action as evidence: who, the bid (level, strain) or None
    for a pass, and the lowest level a bid needed then (None when a pass
    says nothing: the passer's side held the bid, or a contra was called)."""

    seat: int
    bid: tuple[int, str] | None
    lowest: int | None


def auction_evidence(view: Observation) -> list[Said]:
    """The bazar so far, action by action, with what each one tells the
    viewer.  The partner's actions after the viewer's first bid are left
    out: they answer the viewer's bids, so they tell about the partnership
    (which the viewer's own hand is part of) more than about the partner's
    hand, and reading them as the partner's strength alone would have two
    partners raise each other without end."""
    said: list[Said] = []
    standing: tuple[int, int] | None = None  # (seat, level)
    doubled = False
    viewer_bid = False
    partner = (view.seat + 2) % 4 if view.seat is not None else None
    for seat, text in view.auction:
        words = text.split()
        answering = seat == partner and viewer_bid
        if words[0] == "bid":
            if not answering:
                said.append(Said(seat, (int(words[1]), words[2]), None))
            standing = (seat, int(words[1]))
            viewer_bid = viewer_bid or seat == view.seat
        elif words[0] == "pass" and not doubled and not answering:
            if standing is None:
                said.append(Said(seat, None, 8))
            elif standing[0] % 2 != seat % 2:
                said.append(Said(seat, None, standing[1] + 1))
        elif words[0] in ("contra", "recontra"):
            doubled = True
    return said


def evidence_misfit(seat: int, hand: Sequence[Card], evidence: list[Said]) -> float:
    """How badly ``hand`` explains what ``seat`` said: a bid the hand is
    far from supporting, or a pass with a hand that would have bid
    (in tens of raw points; the team estimate as in ``team_estimates``)."""
    mine = [e for e in evidence if e.seat == seat]
    if not mine:
        return 0.0
    return values_misfit(quick_values(hand), mine)


def values_misfit(values: dict[str, float], said: list[Said]) -> float:
    """``evidence_misfit`` of a hand with these ``quick_values`` and a seat
    that said ``said``."""
    total = 0.0
    for e in said:
        if e.bid is not None:
            level, strain = e.bid
            total += max(0.0, 10 * level - values[strain] - PARTNER_POINTS) / 10
        elif e.lowest is not None:
            total += max(0.0, max(values.values()) + PARTNER_POINTS - 10 * e.lowest - 10) / 10
    return total


@dataclass(frozen=True)
class Outcome:
    """One play-out: the declaring team's card points and tricks, and each
    team's declarations (belote included)."""

    points: int
    tricks: int
    decl_declarers: int
    decl_defenders: int


def play(masks: list[int], strain: str, team: int, first: int, decl: list[int]) -> Outcome:
    """One sampled deal (the hands as masks, by seat) played out with
    ``strain`` as the contract and ``team`` declaring (the level does not
    change the play); ``decl``: the teams' declarations with this strain
    (``team_points``)."""
    trump = None if strain == "NT" else strain
    deal = BlotPlay(masks, first, trump, Stakes(team, 8, trump is None))
    play_out(deal)
    COUNTS["rollouts"] += 1
    COUNTS["cards"] += 32
    return Outcome(deal.points[team], deal.tricks[team], decl[team], decl[1 - team])


def margin(outcome: Outcome, contract: Contract, team: int, template: Stakes) -> float:
    """``team``'s game points minus the other side's for ``contract``."""
    template.level, template.doubling, template.capot = (
        contract.level,
        contract.doubling,
        contract.capot,
    )
    template.decl = (
        [outcome.decl_declarers, outcome.decl_defenders]
        if template.side == 0
        else [outcome.decl_defenders, outcome.decl_declarers]
    )
    a, d = template.score(outcome.points, outcome.tricks)
    return float(a - d) if contract.declarer % 2 == team else float(d - a)


class Prices:
    """Each action's margin in each simulated deal so far, for one decision."""

    def __init__(self, view: Observation, chosen: Plan) -> None:
        assert view.seat is not None
        self.team = view.seat % 2
        self.actions = chosen.actions
        self.values: Priced = {a: [] for a in chosen.actions}
        # priced as a suit contract whatever the strain (as before issue 25;
        # docs/benchmarks.md "One rules implementation")
        self.templates = {t: Stakes(t, 8, False) for t in (0, 1)}

    def add(self, row: dict[tuple[str, int], Outcome]) -> None:
        for action, contract in self.actions.items():
            if contract is None:
                value = 0.0
            else:
                side = contract.declarer % 2
                outcome = row[(contract.strain, side)]
                value = margin(outcome, contract, self.team, self.templates[side])
            self.values[action].append(value)

    def decided(self, z: float = 2.5, resolution: float = 1.0) -> bool:
        """Enough simulated deals (the play search's rules, ``engine.ai.
        evidence``): every other action is significantly worse than the
        best or known to within ``resolution`` of it; or, from
        ``MIN_SAFE_WORLDS`` deals on, the expected loss of taking the best
        now is below ``resolution``."""
        n = len(next(iter(self.values.values())))
        means = {a: sum(v) / n for a, v in self.values.items()}
        best = max(means, key=lambda a: means[a])
        top = self.values[best]
        open_ = False
        regret = 0.0
        for action, values in self.values.items():
            if action == best:
                continue
            diffs = [x - y for x, y in zip(top, values, strict=True)]
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            se = math.sqrt(var / n)
            regret += expected_excess(-mean, se)
            if mean - z * se <= 0 and z * se >= resolution:
                open_ = True
        return not open_ or (n >= MIN_SAFE_WORLDS and regret < resolution)


def blot_bid(
    view: Observation,
    legal: Sequence[Action],
    rng: random.Random,
    deadline: float,
    max_worlds: int = 48,
) -> Priced | None:
    """Each action worth considering -> its margin in each simulated deal;
    a single action when nothing else is worth a simulation; None when too
    few deals were played in time."""
    assert view.seat is not None
    seat = view.seat
    chosen = plan(view, legal)
    if chosen.instant:
        action = next(iter(chosen.actions), PASS if PASS in legal else legal[0])
        return {action: [0.0]}
    mine = set(view.hand)
    unseen = [c for c in DECK if c not in mine]
    others = [s for s in range(4) if s != seat]
    dealer = view.dealer if view.dealer is not None else 3
    first = (dealer + 1) % 4
    evidence = auction_evidence(view)
    telling = {e.seat for e in evidence} - {seat}

    # only opponents' hands are dealt around an explanation of their bids:
    # a partner's bids are read at face value (``auction_evidence``)
    bidders = {e.seat: e.bid for e in evidence if e.bid is not None and e.seat % 2 != seat % 2}

    def deal(explain: set[int]) -> dict[int, list[Card]]:
        """The unseen cards dealt at random, the hands of the bidders in
        ``explain`` around an explanation of their bid (``blot_hands``)."""
        cards = unseen[:]
        rng.shuffle(cards)
        hands: dict[int, list[Card]] = {seat: list(view.hand)}
        for s in explain:
            core = explanation(bidders[s][1], cards, rng)
            taken = set(core)
            rest = [c for c in cards if c not in taken]
            hands[s], cards = core + rest[: 8 - len(core)], rest[8 - len(core) :]
        for s in others:
            if s not in hands:
                hands[s], cards = cards[:8], cards[8:]
        return hands

    def misfit(hands: dict[int, list[Card]]) -> float:
        return sum(evidence_misfit(s, hands[s], evidence) for s in telling)

    def sample() -> dict[int, list[Card]]:
        """Of ``TRIES`` random deals, the one that best explains the bazar;
        when even that one leaves a bid far from explained (a bid above
        what chance deals support), ``TRIES`` more with that bidder's hand
        dealt around an explanation compete too."""
        best: dict[int, list[Card]] = {}
        best_fit = math.inf
        for _ in range(TRIES):
            hands = deal(set())
            fit = misfit(hands)
            if fit < best_fit:
                best, best_fit = hands, fit
        unexplained = {s for s in bidders if evidence_misfit(s, best[s], evidence) > UNEXPLAINED}
        if unexplained:
            for _ in range(TRIES):
                hands = deal(unexplained)
                fit = misfit(hands)
                if fit < best_fit:
                    best, best_fit = hands, fit
        return best

    playouts = sorted(chosen.playouts())
    prices = Prices(view, chosen)
    n = 0
    while n < max_worlds and time.perf_counter() < deadline:
        hands = sample() if telling else deal(set())
        ordered = [hands[s] for s in range(4)]
        masks = [mask_of(h) for h in ordered]
        # the declarations depend on the strain, not on who declares
        decls = {
            strain: team_points(ordered, None if strain == "NT" else strain, first)
            for strain in {key[0] for key in playouts}
        }
        prices.add({key: play(masks, key[0], key[1], first, decls[key[0]]) for key in playouts})
        n += 1
        if n >= MIN_WORLDS and n % 4 == 0 and prices.decided():
            break
    if n < MIN_WORLDS:
        return None
    return prices.values
