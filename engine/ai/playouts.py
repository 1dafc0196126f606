"""The search agent's worlds and play-outs for Callbreak, Eşli Batak and
Backalley on the engine's masks (``engine.core.playmask``: the search API)
with the heuristic's play-outs (``engine.ai.bitplay``).

Everything that depends only on the decision is worked out once, when the
search starts (FINDINGS, "Cost of one move": unseen cards and voids were
recomputed for every world): the cards to deal and the constraints on who
may hold them, the public knowledge every rollout starts from, the trick
so far, what the deal is scored against.  A world is then a ``Deal`` (a
few ints: a ``PlayMask``), a candidate's play-out a copy of it played to
the end by the heuristic, and its value the game's own scoring of the
tricks (``side_value``); with ``endgame_cards`` or fewer left (Batak), the
rest of the deal is solved exactly instead (``solve``: ``push``/``pop``).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import cast

from engine.ai.bitplay import Knowledge, note, rollout
from engine.ai.heuristics.trickplay import CONTEXTS
from engine.ai.knowledge import inferred_voids
from engine.ai.rollout import COUNTS, public_cards, suits_led
from engine.core.actions import Action
from engine.core.bits import SLOT, bits_of
from engine.core.cards import Card
from engine.core.playmask import MaskGame, PlayMask, TrickRules
from engine.core.registry import get_game
from engine.core.view import Observation
from engine.games.backalley import scoring as backalley_scoring
from engine.games.batak import scoring as batak_scoring
from engine.games.callbreak import scoring as callbreak_scoring

#: rng -> every hidden seat's cards in one sampled world
HandSampler = Callable[[random.Random], dict[int, list[Card]]]


def slot_masks(by_seat: dict[int, set[str]], seats: int) -> list[int]:
    """Suit sets per seat -> slot bitmasks (a suit outside the deck is dropped)."""
    out = [0] * seats
    for seat, suits in by_seat.items():
        for suit in suits:
            if suit in SLOT:
                out[seat] |= 1 << SLOT[suit]
    return out


@cache
def rules_for(game: str, seats: int, trump: str) -> TrickRules:
    """The game's play rules for a deal (its default variant's options)."""
    return cast(MaskGame, get_game(game)).play_rules(trump, seats)


@dataclass(frozen=True)
class Contract:
    """What a finished deal is scored against: Callbreak and Backalley bids
    per seat (Backalley: the seats that bid backalley and the hand size),
    Batak's level, declarer and defenders' minimum."""

    bids: tuple[int, ...] = ()
    backalley: frozenset[int] = frozenset()
    hand_size: int = 0
    level: int = 0
    declarer: int = 0
    defender_min: int = 2


def contract_scores(game: str, contract: Contract, won: list[int]) -> tuple[int, ...]:
    """The deal's scores by the game's own scoring function: per seat, or
    per team in Batak."""
    if game == "callbreak":
        return callbreak_scoring.score_deal(contract.bids, won)
    if game == "batak":
        return batak_scoring.score_tricks(
            contract.level, contract.declarer, won, contract.defender_min
        )
    return backalley_scoring.score_deal(contract.hand_size, contract.bids, contract.backalley, won)


def side_value(game: str, contract: Contract, won: list[int], seat: int) -> float:
    """The seat's side's deal score minus the mean of the others (as
    ``engine.ai.search.deal_value``)."""
    scores = contract_scores(game, contract, won)
    mine = seat % 2 if game == "batak" else seat
    return float(scores[mine] - (sum(scores) - scores[mine]) / (len(scores) - 1))


def partners(game: str, seats: int) -> list[int | None]:
    return [(s + 2) % 4 if game == "batak" else None for s in range(seats)]


def contract_of(game: str, view: Observation) -> Contract:
    """What the deal in ``view`` is scored against."""
    if game == "batak":
        assert view.declarer is not None
        return Contract(level=int(str(view.contract or "8").split()[0]), declarer=view.declarer)
    backalley = frozenset(view.extra.get("backalley", ()))
    bids = tuple(int(b or 0) for b in view.bids)
    return Contract(bids=bids, backalley=backalley, hand_size=view.hand_size or 0)


class TrickPlayouts:
    """One decision's worlds and play-outs (``engine.ai.search.Playouts``)."""

    def __init__(
        self,
        game: str,
        view: Observation,
        sampler: HandSampler,
        endgame_cards: int = 0,
    ) -> None:
        assert view.trump is not None and view.decider is not None
        self.game = game
        self.seats = view.num_seats
        self.decider = view.decider
        self.rules = rules_for(game, self.seats, view.trump)
        self.codec = self.rules.codec
        self.deck = self.codec.deck
        self.partners = partners(game, self.seats)
        self.contract = contract_of(game, view)
        self.sampler = sampler
        self.endgame_cards = endgame_cards
        #: cards played in rollouts so far (``Playouts.work``)
        self.work = 0
        ctx = CONTEXTS[game](self.decider, (), view.trump, view.declarer)
        voids = inferred_voids(view, ctx.ranking, ctx.trump, ctx.trump_duty)
        self.know = Knowledge(
            self.codec.mask(public_cards(view)),
            slot_masks(voids, self.seats),
            slot_masks(suits_led(view, ctx.ranking, ctx.trump), self.seats),
        )
        leader = view.trick_leader if view.trick else view.to_act
        assert leader is not None
        broken = bool(view.extra.get("trump_broken", False))
        self.template = PlayMask(
            self.rules, [0] * self.seats, leader, list(view.tricks_won), broken
        )
        for _, card in view.trick:
            self.template.play(self.codec.bit(card))
        self.known = {view.seat: self.codec.mask(view.hand)} if view.seat is not None else {}
        if game == "batak" and view.dummy_seat is not None and view.dummy is not None:
            self.known[view.dummy_seat] = self.codec.mask(view.dummy)

    def sample(self, rng: random.Random) -> PlayMask:
        deal = self.template.copy()
        for seat, cards in self.sampler(rng).items():
            deal.hands[seat] = self.codec.mask(cards)
        for seat, mask in self.known.items():
            deal.hands[seat] = mask
        return deal

    def value(self, world: PlayMask, action: Action, deadline: float) -> float | None:
        """``action`` played in ``world`` and the deal finished; None if the
        deadline came first."""
        deal = world.copy()
        know = self.know.copy()
        bit = self.codec.bit(action.card)
        note(know, deal, bit)
        deal.play(bit)
        if self.endgame_cards and deal.cards_left <= self.endgame_cards:
            try:
                tricks = solve(deal, self.decider % 2, deadline)
            except TimeoutError:
                return None
            COUNTS["solved"] += 1
            self.work += deal.cards_left
            return float(tricks)
        cards = rollout(deal, know, self.deck, self.partners, deadline)
        if cards < 0:
            return None
        COUNTS["rollouts"] += 1
        COUNTS["cards"] += cards
        self.work += cards
        return side_value(self.game, self.contract, deal.won, self.decider)


def play_out(
    game: str,
    hands: Sequence[Sequence[Card]],
    trump: str,
    leader: int,
    public: Sequence[Card] = (),
    deadline: float = float("inf"),
) -> list[int] | None:
    """Tricks won per seat when a fresh deal of ``hands`` is played out by
    the heuristic for every seat (bidding by simulation); None if the
    deadline came first.  ``public``: cards every seat has seen (Batak's dummy)."""
    seats = len(hands)
    rules = rules_for(game, seats, trump)
    code = rules.codec
    deal = PlayMask(rules, [code.mask(h) for h in hands], leader)
    know = Knowledge(code.mask(public), [0] * seats, [0] * seats)
    cards = rollout(deal, know, code.deck, partners(game, seats), deadline)
    if cards < 0:
        return None
    COUNTS["rollouts"] += 1
    COUNTS["cards"] += cards
    return deal.won


# -- exact end-game ----------------------------------------------------------------------------
def solve(deal: PlayMask, team: int, deadline: float = float("inf")) -> int:
    """The tricks ``team`` (seats team, team + 2) takes in this deal with
    best play by both sides and every hand open (alpha-beta over the
    engine's ``push``/``pop``; as ``engine.ai.solver`` for Batak).
    TimeoutError past ``deadline``.  ``deal`` is left as it was."""
    nodes = Counter[str]()
    trump = deal.rules.trump

    def order(bit: int) -> tuple[bool, int]:
        return (bit >> 4 == trump, bit & 15)

    def search(alpha: int, beta: int) -> int:
        nodes["n"] += 1
        if not nodes["n"] & 63 and time.perf_counter() > deadline:
            raise TimeoutError
        if not any(deal.hands):
            return deal.won[team] + deal.won[team + 2]
        cards = bits_of(deal.legal())
        maximise = deal.to_act % 2 == team
        best = -1 if maximise else 99
        # strongest first: cutoffs come sooner
        for bit in sorted(cards, key=order, reverse=True):
            deal.push(bit)
            try:
                value = search(alpha, beta)
            finally:
                deal.pop()
            if maximise:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best

    return search(-1, 99)
