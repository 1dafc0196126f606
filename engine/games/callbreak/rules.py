"""Callbreak (bot/rulebook/callbreak.md): four players, spades always trump, bid
then play with compulsory heading and trumping.

Position facts (``CALLBREAK.position``): ``hands``, ``trick``, ``to_act``,
``bids={seat: n}`` (default 1 each), ``tricks_won={seat: n}``, ``dealer``,
``round_number``, ``scores=[tenths per seat]``, ``variant``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, cast

from engine.core.actions import Action, bid
from engine.core.cards import Card, standard_deck
from engine.core.events import Event
from engine.core.follow import LegalMask, compulsory_heading, heading_message
from engine.core.game import (
    PHASE_BIDDING,
    PHASE_OVER,
    PHASE_PLAY,
    ClonePlan,
    Game,
    deal_seat,
    hands_to_text,
    normalize_hands,
    split_deal,
)
from engine.core.playmask import TrickRules, trick_rules
from engine.core.registry import GAMES
from engine.core.shuffle import shuffle
from engine.core.spec import Variant as VariantBase
from engine.core.spec import setting
from engine.core.trick import Trick
from engine.core.trickgame import MaskTrickState, position_hands, shared_ranks
from engine.core.view import Observation
from engine.errors import IllegalAction, InvalidPosition
from engine.games.callbreak.scoring import score_deal

TRUMP = "S"
HAND_SIZE = 13


@dataclass(frozen=True)
class CallbreakVariant(VariantBase):
    game_name = "callbreak"
    rounds: int = setting(5, bounds=(1, 13), help="deals in a game")
    max_bid: int = setting(8, bounds=(8, 13), help="highest bid allowed")


def _heading(trump: int) -> LegalMask:
    return compulsory_heading(trump, void_cannot_overtrump="any_card")


@cache
def play_rules(trump: str = TRUMP) -> TrickRules:
    """Callbreak's play (rules "Play"), once: lead anything; follow with a
    higher card when able, void: trump (over-trump a ruffed trick), a void
    player who cannot over-trump plays any card; nothing breaks trump."""
    return trick_rules(4, trump, _heading, heading_message, trump_duty="unruffed")


@cache
def bid_actions(max_bid: int) -> tuple[Action, ...]:
    """``bid 1`` .. ``bid max_bid``: every bid is legal (rules "Bidding")."""
    return tuple(bid(n) for n in range(1, max_bid + 1))


class CallbreakState(MaskTrickState):
    variant: CallbreakVariant
    bids: list[int | None]
    clone_plan: ClassVar[ClonePlan] = {**MaskTrickState.clone_plan, "bids": list}

    def __init__(self, game: Game, variant: CallbreakVariant, seed: int | None) -> None:
        super().__init__(game, variant, seed)
        self.trump = TRUMP
        self.scores = [0, 0, 0, 0]
        self.history = []
        self.deal_scores = []
        self.bids = [None] * 4

    # -- dealing -------------------------------------------------------------
    def _deal(self, hands: list[list[Card]] | None = None) -> None:
        """Deal 13 each (from the match RNG unless given) and open the bidding
        at dealer + 1 (rules "Setup")."""
        if hands is None:
            deck = standard_deck()
            shuffle(deck, self.rng)
            hands = [deck[HAND_SIZE * s : HAND_SIZE * (s + 1)] for s in range(4)]
        first = (self.dealer + 1) % 4
        self._init_play_state(hands, first)
        self.bids = [None] * 4
        self.phase = PHASE_BIDDING
        self.to_act = first

    # -- legality ------------------------------------------------------------
    def play_rules(self) -> TrickRules:
        return play_rules(TRUMP)

    def _legal(self) -> list[Action]:
        if self.phase is PHASE_BIDDING:
            return list(bid_actions(self.variant.max_bid))
        return self._legal_plays()

    def _explain(self, action: Action) -> IllegalAction:
        if self.phase is PHASE_BIDDING:
            if action.verb != "bid":
                return self._wrong_phase(action)
            return IllegalAction(
                f"bid a whole number from 1 to {self.variant.max_bid} (got {action})",
                "bid_out_of_range",
                {"min": 1, "max": self.variant.max_bid, "bid": action.number},
            )
        return self._explain_play(action)

    # -- applying ------------------------------------------------------------
    def _apply(self, action: Action) -> list[Event]:
        if self.phase is PHASE_BIDDING:
            seat = self.to_act
            assert seat is not None
            self.bids[seat] = action.number
            self.to_act = (seat + 1) % 4
            events = [Event("bid", seat, {"bid": action.number})]
            if None not in self.bids:
                self.phase = PHASE_PLAY
                self.trick = Trick(self.to_act)
                events.append(Event("play_started", self.to_act))
            return events
        return self._play_card(action.card)

    def _end_deal(self) -> list[Event]:
        bids = [cast(int, b) for b in self.bids]
        deal = score_deal(bids, self.tricks_won)
        self.scores = [t + d for t, d in zip(self.scores, deal, strict=True)]
        record = self._record_deal(deal, bids=bids)
        events = [Event("deal_scored", None, {"scores": list(deal), "round": record.number})]
        if self.round_number >= self.variant.rounds:
            self.phase = PHASE_OVER
            self.to_act = None
            events.append(Event("match_over", None, {"ranking": list(shared_ranks(self.scores))}))
            return events
        self.round_number += 1
        self.dealer = (self.dealer + 1) % 4
        self._deal()
        events.append(Event("deal_started", self.dealer, {"round": self.round_number}))
        return events

    def full_deck(self) -> list[Card]:
        return standard_deck()

    # -- views ---------------------------------------------------------------
    def view(self, seat: int | None) -> Observation:
        self.check_seat(seat)
        return Observation(
            **self._common_view(seat),
            bids=tuple(self.bids),
            score_unit="tenths",
            ranking=shared_ranks(self.scores) if self.is_over else (),
        )


class Callbreak(Game):
    name = "callbreak"
    title = "Callbreak"
    summary = (
        "Four players, each for themselves. Spades are always trump. Bid the "
        "tricks you will take (1 up to the highest bid allowed), then make it: head "
        "the trick when you can, trump when void. Made: bid + 0.1 per extra trick; "
        "failed: -bid."
    )
    Variant = CallbreakVariant
    verbs = frozenset({"bid", "play"})
    bid_forms = frozenset({"number"})
    rules_lines = (
        "Each player bids once, 1..max_bid, from the dealer's left.",
        "Follow suit with a higher card if you can; void: trump if you can.",
        "A ruffed trick: over-trump if you can, else any card.",
        "Made: bid + 0.1 per overtrick; failed: -bid.",
    )

    def play_rules(
        self, trump: str = TRUMP, num_seats: int = 4, variant: VariantBase | None = None
    ) -> TrickRules:
        """The play rules of a deal (the search API: ``engine.core.playmask``)."""
        return play_rules(trump)

    def conformance_variants(self) -> list[VariantBase]:
        return [CallbreakVariant(rounds=2), CallbreakVariant(rounds=1, max_bid=13)]

    def new_match(
        self, seed: int | None = None, variant: VariantBase | None = None, deal: Any = None
    ) -> CallbreakState:
        state = CallbreakState(self, cast(CallbreakVariant, self.check_variant(variant)), seed)
        state.dealer = state.rng.randrange(4)
        hands = None
        if deal is not None:
            raw, extras = split_deal(deal, ("dealer",))
            hands = normalize_hands(raw, 4, HAND_SIZE, standard_deck())
            state.dealer = deal_seat(extras, "dealer", 4, state.dealer)
            state.initial_deal = {
                "hands": hands_to_text(hands),
                "dealer": state.dealer,
            }
        state._deal(hands)
        return state

    def position(
        self,
        hands: dict[int, Any] | None = None,
        trick: list[tuple[int, Any]] | None = None,
        to_act: int | None = None,
        trump: str | None = TRUMP,
        variant: VariantBase | None = None,
        **facts: Any,
    ) -> CallbreakState:
        if trump not in (TRUMP, None):
            raise InvalidPosition([f"Callbreak trump is always spades (got {trump!r})"])
        full, plays = position_hands(hands or {}, trick or [], 4, standard_deck())
        state = CallbreakState(self, cast(CallbreakVariant, self.check_variant(variant)), 0)
        state.dealer = int(facts.pop("dealer", 3))
        state.round_number = int(facts.pop("round_number", 1))
        state.scores = list(facts.pop("scores", [0, 0, 0, 0]))
        bids = facts.pop("bids", {s: 1 for s in range(4)})
        won = facts.pop("tricks_won", {})
        if facts:
            raise InvalidPosition([f"unknown position fact {k!r}" for k in facts])
        leader = plays[0][0] if plays else (to_act if to_act is not None else 0)
        state._init_play_state(full, leader)
        state.trick.plays = list(plays)
        state.bids = [bids.get(s) for s in range(4)]
        state.tricks_won = [int(won.get(s, 0)) for s in range(4)]
        state._set_position_turn(plays, leader, to_act)
        state.phase = PHASE_PLAY if all(b is not None for b in state.bids) else PHASE_BIDDING
        return state


CALLBREAK = Callbreak()
GAMES.register(CALLBREAK, aliases=("call break", "call-break"))
