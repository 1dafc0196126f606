"""Eşli Batak (bot/rulebook/batak.md): partnership Batak with a forced opening, a
declarer who names trump, and the declarer's partner laid face up as the
dummy.  Only what is special to Batak lives here; the trick machinery and
the follow filters are shared (``engine.core``).

Position facts (``BATAK.position``): ``hands``, ``trick``, ``to_act``,
``trump`` (the named trump suit, required), ``declarer`` (default 0),
``contract`` (the bid, int or text, default 8), ``trump_broken`` (default
False), ``tricks_won={seat: n}``, ``scores=[team0, team1]``,
``first_bidder``, ``variant``.  A position is always in the play phase
with the dummy revealed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, cast

from engine.core.actions import PASS, Action, bid, trump
from engine.core.cards import SUITS, Card, standard_deck
from engine.core.deal_cap import cap_reached, higher_total, max_deals_setting, team_ranking
from engine.core.events import Event
from engine.core.follow import LegalMask, compulsory_heading, heading_message
from engine.core.game import (
    PHASE_AUCTION,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_TRUMP,
    ClonePlan,
    Game,
    deal_seat,
    hands_to_text,
    normalize_hands,
    share,
    split_deal,
)
from engine.core.playmask import TrickRules, trick_rules
from engine.core.registry import GAMES
from engine.core.shuffle import shuffle
from engine.core.spec import Variant as VariantBase
from engine.core.spec import setting
from engine.core.trick import Trick
from engine.core.trickgame import MaskTrickState, position_hands
from engine.core.view import Observation
from engine.errors import IllegalAction, InvalidPosition
from engine.games.batak.scoring import TRICKS_PER_DEAL, match_winner, score_deal

TEAMS = ((0, 2), (1, 3))
FORCED_OPENING = 7


@dataclass(frozen=True)
class BatakVariant(VariantBase):
    game_name = "batak"
    target_score: int = setting(50, bounds=(10, 500), help="points a team needs to win")
    min_bid: int = setting(8, bounds=(7, 13), help="lowest bid after the forced opening")
    trump_unlock: str = setting(
        "any_trump",
        choices=("any_trump", "ruff_only"),
        help="what breaks trump: any trump played, or only a ruff",
    )
    defender_min_tricks: int = setting(
        2, bounds=(0, 4), help="tricks the defenders need to score them"
    )
    max_deals: int = max_deals_setting()

    @property
    def opening_min(self) -> int:
        """The forced opening may be 7, or min_bid if that is lower."""
        return min(FORCED_OPENING, self.min_bid)


@cache
def bids_from(low: int) -> tuple[Action, ...]:
    """``bid low`` .. ``bid 13``."""
    return tuple(bid(n) for n in range(low, 14))


TRUMPS = tuple(trump(s) for s in SUITS)


def _heading(trump: int) -> LegalMask:
    return compulsory_heading(trump, void_cannot_overtrump="any_trump", lead="unbroken")


@cache
def play_rules(trump: str, unlock: str = "any_trump") -> TrickRules:
    """Eşli Batak's play (rules "Leading", "Play"), once: no trump lead
    until trump is broken unless the hand holds only trumps; follow with a
    higher card when able, void: trump (over-trump a ruffed trick), a void
    player who cannot over-trump still plays a trump; trump is broken by a
    trick with a trump in it (``unlock="any_trump"``) or only by a ruffed
    one (``"ruff_only"``)."""
    breaks = "trump_trick" if unlock == "any_trump" else "ruff"
    return trick_rules(4, trump, _heading, heading_message, breaks=breaks, trump_duty="always")


_DEFAULT = BatakVariant()


class BatakState(MaskTrickState):
    variant: BatakVariant
    clone_plan: ClassVar[ClonePlan] = {
        **MaskTrickState.clone_plan,
        "first_bidder": share,
        "trump_broken": share,
        "auction": list,  # of tuples
        "bids": list,
        "passed": set,
        "high_bid": share,
        "declarer": share,
    }

    def __init__(self, game: Game, variant: BatakVariant, seed: int | None) -> None:
        super().__init__(game, variant, seed)
        self.scores = [0, 0]
        self.history = []
        self.deal_scores = []
        self.first_bidder = 0
        self.trump = None
        self.trump_broken = False
        self.auction: list[tuple[int, str]] = []
        self.bids: list[int | None] = [None] * 4
        self.passed: set[int] = set()
        self.high_bid: int | None = None
        self.declarer: int | None = None

    # -- seats -------------------------------------------------------------
    @property
    def dummy(self) -> int | None:
        return None if self.declarer is None else (self.declarer + 2) % 4

    @property
    def dummy_revealed(self) -> bool:
        return self.phase in (PHASE_PLAY, PHASE_OVER) and self.trump is not None

    @property
    def decider(self) -> int | None:
        """On the dummy's turn the declarer decides (rules "Dummy")."""
        if self.to_act is not None and self.phase is PHASE_PLAY and self.to_act == self.dummy:
            return self.declarer
        return self.to_act

    def _seats_visible_to(self, seat: int) -> set[int]:
        if self.dummy_revealed and self.dummy is not None:
            return {seat, self.dummy}
        return {seat}

    # -- dealing -----------------------------------------------------------
    def _deal(self, hands: list[list[Card]] | None = None) -> None:
        if hands is None:
            deck = standard_deck()
            shuffle(deck, self.rng)
            hands = [deck[13 * s : 13 * (s + 1)] for s in range(4)]
        self.dealer = (self.first_bidder - 1) % 4
        self._init_play_state(hands, self.first_bidder)
        self.trump = None
        self.trump_broken = False
        self.auction = []
        self.bids = [None] * 4
        self.passed = set()
        self.high_bid = None
        self.declarer = None
        self.phase = PHASE_AUCTION
        self.to_act = self.first_bidder

    # -- legality ------------------------------------------------------------
    def _bid_range(self) -> range:
        if self.high_bid is None:
            return range(self.variant.opening_min, 14)
        return range(max(self.variant.min_bid, self.high_bid + 1), 14)

    def _legal(self) -> list[Action]:
        if self.phase is PHASE_AUCTION:
            bids = bids_from(self._bid_range().start)
            return list(bids) if self.high_bid is None else [PASS, *bids]
        if self.phase is PHASE_TRUMP:
            return list(TRUMPS)
        return self._legal_plays()

    def play_rules(self) -> TrickRules:
        assert self.trump is not None, "trump is named before the play"
        return play_rules(self.trump, self.variant.trump_unlock)

    def _explain(self, action: Action) -> IllegalAction:
        if self.phase is PHASE_AUCTION:
            if action.verb == "pass":
                return IllegalAction(
                    "the first bidder may not pass before anyone has bid: open at "
                    f"{self.variant.opening_min} or more",
                    "forced_opening",
                    {"min": self.variant.opening_min},
                )
            if action.verb != "bid":
                return self._wrong_phase(action)
            low = self._bid_range().start
            if action.word is not None or action.capot:
                return IllegalAction("a Batak bid is a number of tricks, e.g. 'bid 8'", "bad_bid")
            return IllegalAction(
                f"bid from {low} to 13 (got {action.number}); a bid must beat the current "
                f"bid ({self.high_bid})"
                if self.high_bid
                else f"open from {low} to 13",
                "bid_out_of_range",
                {"min": low, "max": 13, "bid": action.number},
            )
        if self.phase is PHASE_TRUMP:
            return (
                self._wrong_phase(action)
                if action.verb != "trump"
                else IllegalAction("name trump as S, H, D or C", "bad_trump")
            )
        return self._explain_play(action)

    # -- applying ------------------------------------------------------------
    def _apply(self, action: Action) -> list[Event]:
        seat = cast(int, self.to_act)
        if self.phase is PHASE_AUCTION:
            return self._apply_auction(seat, action)
        if self.phase is PHASE_TRUMP:
            self.trump = action.word
            self.phase = PHASE_PLAY
            self.to_act = seat  # the declarer leads trick 1
            self.trick = Trick(seat)
            return [
                Event("trump_named", seat, {"trump": action.word}),
                Event(
                    "dummy_revealed",
                    self.dummy,
                    {"cards": [str(c) for c in self.hands[cast(int, self.dummy)]]},
                ),
            ]
        return self._play_card(action.card)

    def _apply_auction(self, seat: int, action: Action) -> list[Event]:
        self.auction.append((seat, str(action)))
        if action.verb == "pass":
            self.passed.add(seat)
            events = [Event("pass", seat)]
        else:
            self.high_bid = action.number
            self.bids[seat] = action.number
            events = [Event("bid", seat, {"bid": action.number})]
        if len(self.passed) == 3:
            declarer = next(s for s in range(4) if s not in self.passed)
            self.declarer = declarer
            self.phase = PHASE_TRUMP
            self.to_act = declarer
            events.append(Event("contract", declarer, {"bid": self.high_bid}))
            return events
        nxt = (seat + 1) % 4
        while nxt in self.passed:
            nxt = (nxt + 1) % 4
        self.to_act = nxt
        return events

    def _end_deal(self) -> list[Event]:
        declarer = cast(int, self.declarer)
        team = declarer % 2
        taken = sum(self.tricks_won[s] for s in TEAMS[team])
        bid_level = cast(int, self.high_bid)
        deal = score_deal(bid_level, team, taken, self.variant.defender_min_tricks)
        self.scores = [t + d for t, d in zip(self.scores, deal, strict=True)]
        self._record_deal(
            deal,
            bids=tuple(self.bids),
            contract=self._contract_text(),
            declarer=declarer,
            details={"declarer_tricks": taken, "defender_tricks": TRICKS_PER_DEAL - taken},
        )
        events = [Event("deal_scored", None, {"scores": list(deal), "round": self.round_number})]
        winner = match_winner(self.scores, self.variant.target_score)
        if winner is not None or cap_reached(self.round_number, self.variant.max_deals):
            self.phase = PHASE_OVER
            self.to_act = None
            events.append(Event("match_over", None, {"winner_team": self._winner()}))
            return events
        self.round_number += 1
        self.first_bidder = (self.first_bidder + 1) % 4
        self._deal()
        events.append(Event("deal_started", self.first_bidder, {"round": self.round_number}))
        return events

    def _contract_text(self) -> str | None:
        if self.high_bid is None or self.declarer is None:
            return None
        return f"{self.high_bid} {self.trump}" if self.trump else str(self.high_bid)

    # -- cards and views -----------------------------------------------------
    def full_deck(self) -> list[Card]:
        return standard_deck()

    def view(self, seat: int | None) -> Observation:
        self.check_seat(seat)
        common = self._common_view(seat)
        revealed = self.dummy_revealed and self.dummy is not None
        return Observation(
            **common,
            bids=tuple(self.bids),
            auction=tuple(self.auction),
            contract=self._contract_text(),
            declarer=self.declarer,
            teams=TEAMS,
            dummy=tuple(self.hands[cast(int, self.dummy)]) if revealed else None,
            dummy_seat=self.dummy if revealed else None,
            ranking=self._ranking(),
            extra={"trump_broken": self.trump_broken, "first_bidder": self.first_bidder},
        )

    def _winner(self) -> int | None:
        """The winning team of a match that is over: the one at the target
        (rules "End of the game"), else, at the deal cap, the higher total;
        None for a drawn match (equal totals at the cap)."""
        winner = match_winner(self.scores, self.variant.target_score)
        return winner if winner is not None else higher_total(self.scores)

    def _ranking(self) -> tuple[int, ...]:
        if not self.is_over:
            return ()
        return team_ranking(self._winner())


class Batak(Game):
    name = "batak"
    title = "Eşli Batak"
    summary = (
        "Partnership Batak: bid for the contract (the first bidder must open, at 7 or more), "
        "name trump, and your partner's hand goes face up as the dummy, played by you. "
        "Follow suit and beat the trick when you can; trump when void. First team to 50 wins."
    )
    Variant = BatakVariant
    verbs = frozenset({"bid", "pass", "trump", "play"})
    bid_forms = frozenset({"number"})
    partnership = True
    rules_lines = (
        "Auction from the first bidder: open 7+, then bids of min_bid+ must rise; a pass is final.",
        "Three passes end it: the last bidder declares and names trump; partner is the dummy.",
        "Lead no trump until it is broken (unless you hold only trumps).",
        "Follow suit with a higher card if you can; void: trump (over-trump a ruffed trick).",
        "Declarers: +tricks if made, else -bid. Defenders: +tricks if 2+, else -bid.",
    )

    def play_rules(
        self, trump: str, num_seats: int = 4, variant: VariantBase | None = None
    ) -> TrickRules:
        """The play rules of a deal (the search API: ``engine.core.playmask``)."""
        v = cast(BatakVariant, self.check_variant(variant)) if variant is not None else _DEFAULT
        return play_rules(trump, v.trump_unlock)

    def conformance_variants(self) -> list[VariantBase]:
        return [
            BatakVariant(target_score=10),
            BatakVariant(
                target_score=10, min_bid=7, trump_unlock="ruff_only", defender_min_tricks=0
            ),
        ]

    def new_match(
        self, seed: int | None = None, variant: VariantBase | None = None, deal: Any = None
    ) -> BatakState:
        state = BatakState(self, cast(BatakVariant, self.check_variant(variant)), seed)
        hands = None
        if deal is not None:
            raw, extras = split_deal(deal, ("first_bidder",))
            hands = normalize_hands(raw, 4, 13, standard_deck())
            state.first_bidder = deal_seat(extras, "first_bidder", 4, 0)
            state.initial_deal = {
                "hands": hands_to_text(hands),
                "first_bidder": state.first_bidder,
            }
        state._deal(hands)
        return state

    def position(
        self,
        hands: dict[int, Any] | None = None,
        trick: list[tuple[int, Any]] | None = None,
        to_act: int | None = None,
        trump: str | None = None,
        variant: VariantBase | None = None,
        **facts: Any,
    ) -> BatakState:
        if trump not in SUITS:
            raise InvalidPosition([f"a Batak position needs the named trump suit (got {trump!r})"])
        full, plays = position_hands(hands or {}, trick or [], 4, standard_deck())
        state = BatakState(self, cast(BatakVariant, self.check_variant(variant)), 0)
        declarer = int(facts.pop("declarer", 0))
        contract = facts.pop("contract", 8)
        level = int(str(contract).split()[0])
        state.trump_broken = bool(facts.pop("trump_broken", False))
        state.first_bidder = int(facts.pop("first_bidder", declarer))
        state.scores = list(facts.pop("scores", [0, 0]))
        won = facts.pop("tricks_won", {})
        if facts:
            raise InvalidPosition([f"unknown position fact {k!r}" for k in facts])
        leader = plays[0][0] if plays else (to_act if to_act is not None else declarer)
        state._init_play_state(full, leader)
        state.dealer = (state.first_bidder - 1) % 4
        state.trick.plays = list(plays)
        state.tricks_won = [int(won.get(s, 0)) for s in range(4)]
        state.declarer = declarer
        state.high_bid = level
        state.bids = [level if s == declarer else None for s in range(4)]
        state.passed = {s for s in range(4) if s != declarer}
        state.trump = trump
        state.phase = PHASE_PLAY
        state._set_position_turn(plays, leader, to_act)
        return state


BATAK = Batak()
GAMES.register(BATAK, aliases=("esli batak", "eşli batak", "esli-batak"))
