"""Backalley (bot/rulebook/backalley.md): Oh Hell with jokers for 2 to 8 players,
up and down the river, with the whole-hand "backalley" bid.

Jokers (``RJ`` > ``BJ``) belong to the trump suit for every rule; with
``joker_turned="no_trump"`` a turned joker leaves the deal without a suited
trump and the two jokers form a trump suit of their own (trump ``"J"``).
Ruling where the rule book is silent: if only jokers are left to turn under
"turn_again" (possible only when every other card is dealt), the deal is
played as under "no_trump".

Position facts (``BACKALLEY.position``): ``hands``, ``trick``, ``to_act``,
``trump`` (a suit, or ``"J"`` for the jokers-only trump), ``hand_size``,
``bids={seat: n or "backalley"}``, ``tricks_won={seat: n}``,
``trump_broken`` (default False), ``dealer``, ``scores``, ``variant``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, cast

from engine.core.actions import Action, bid
from engine.core.cards import JOKER_SUIT, Card, parse_cards, standard_deck
from engine.core.events import Event
from engine.core.follow import MUST_FOLLOW, LegalMask, follow_suit, heading_message
from engine.core.game import (
    PHASE_BIDDING,
    PHASE_OVER,
    PHASE_PLAY,
    ClonePlan,
    Game,
    check_rows,
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
from engine.core.trick import Ranking, Trick
from engine.core.trickgame import MaskTrickState, position_hands, shared_ranks
from engine.core.view import Observation
from engine.errors import IllegalAction, InvalidPosition
from engine.games.backalley.scoring import deal_sizes, score_deal

BACKALLEY_WORD = "backalley"


class JokerRanking(Ranking):
    """Jokers count as the trump suit and sit above its ace (RJ > BJ)."""

    def suit_of(self, card: Card, trump: str | None) -> str:
        if card.suit == JOKER_SUIT:
            return trump if trump is not None else JOKER_SUIT
        return card.suit


JOKER_RANKING = JokerRanking()


@dataclass(frozen=True)
class BackalleyVariant(VariantBase):
    game_name = "backalley"
    players: int = setting(4, bounds=(2, 8), help="number of players")
    max_cards: int = setting(7, bounds=(1, 13), help="largest hand (capped at 53 // players)")
    trump_lead: str = setting(
        "only_trumps",
        choices=("only_trumps", "broken"),
        help="lead trump only with a hand of trumps, or once trump has been played",
    )
    joker_turned: str = setting(
        "turn_again",
        choices=("turn_again", "no_trump"),
        help="a turned joker: turn the next card, or play the deal with jokers as trump",
    )
    hook_rule: bool = setting(
        False, help="the dealer may not make the bids add up to the hand size"
    )


@cache
def bid_actions(hand_size: int) -> tuple[Action, ...]:
    """``bid 0`` .. ``bid hand_size``, then ``bid backalley`` (rules "Bidding")."""
    return (*(bid(b) for b in range(hand_size + 1)), bid(word=BACKALLEY_WORD))


@cache
def _must_follow(led: str) -> str:
    return f"you must follow the led suit ({led})"


def _message(reason: str, led: str | None, trump: str | None) -> str:
    if reason == MUST_FOLLOW:
        return _must_follow(led or "")
    return heading_message(reason, led, trump)


def _follow_only_trumps(trump: int) -> LegalMask:
    return follow_suit(trump, lead="only_trumps")


def _follow_broken(trump: int) -> LegalMask:
    return follow_suit(trump, lead="unbroken")


@cache
def play_rules(num_seats: int, trump: str, trump_lead: str = "only_trumps") -> TrickRules:
    """Backalley's play (rules "Play"), once: lead trump only from a hand of
    trumps (``trump_lead="only_trumps"``) or once trump is broken
    (``"broken"``); follow suit if you can, else anything; any trump played
    breaks trump.  The jokers belong to trump (``"J"``: they are the trump)."""
    legal = _follow_broken if trump_lead == "broken" else _follow_only_trumps
    return trick_rules(num_seats, trump, legal, _message, breaks="trump_played", jokers=True)


_DEFAULT = BackalleyVariant()


class BackalleyState(MaskTrickState):
    variant: BackalleyVariant
    ranking = JOKER_RANKING
    clone_plan: ClassVar[ClonePlan] = {
        **MaskTrickState.clone_plan,
        "sizes": list,
        "bids": list,
        "backalley": set,
        "auction": list,  # of tuples
        "stock": list,
        "turned": share,
        "set_aside": list,
        "trump_broken": share,
    }

    def __init__(self, game: Game, variant: BackalleyVariant, seed: int | None) -> None:
        super().__init__(game, variant, seed)
        self.sizes = deal_sizes(variant.players, variant.max_cards)
        self.scores = [0] * self.num_seats
        self.history = []
        self.deal_scores = []
        self.bids: list[int | None] = [None] * self.num_seats
        self.backalley: set[int] = set()
        self.auction: list[tuple[int, str]] = []
        self.stock: list[Card] = []
        self.turned: Card | None = None
        self.set_aside: list[Card] = []
        self.trump_broken = False

    @property
    def hand_size(self) -> int:
        return self.sizes[self.round_number - 1]

    # -- dealing -------------------------------------------------------------
    def _deal(self, hands: list[list[Card]] | None = None, stock: list[Card] | None = None) -> None:
        """Deal, then turn the top of the stock for trump (rules "Setup")."""
        n, h = self.num_seats, self.hand_size
        if hands is None:
            deck = standard_deck(jokers=True)
            shuffle(deck, self.rng)
            hands = [deck[h * s : h * (s + 1)] for s in range(n)]
            stock = deck[h * n :]
        assert stock is not None
        self.stock = list(stock)
        self.set_aside = []
        self.turned = None
        self.trump = None
        while self.stock:
            card = self.stock.pop(0)
            if card.suit == JOKER_SUIT:
                if self.variant.joker_turned == "no_trump":
                    self.turned = card
                    break
                self.set_aside.append(card)
                continue
            self.turned = card
            self.trump = card.suit
            break
        if self.trump is None:
            self.trump = JOKER_SUIT  # jokers form the only trump suit this deal
        first = (self.dealer + 1) % n
        self._init_play_state(hands, first)
        self.bids = [None] * n
        self.backalley = set()
        self.auction = []
        self.trump_broken = False
        self.phase = PHASE_BIDDING
        self.to_act = first

    # -- legality --------------------------------------------------------------
    def _legal(self) -> list[Action]:
        if self.phase is PHASE_BIDDING:
            return self._legal_bids()
        return self._legal_plays()

    def _legal_bids(self) -> list[Action]:
        h = self.hand_size
        options = list(bid_actions(h))
        if self.variant.hook_rule and self.to_act == self.dealer:
            so_far = sum(b for b in self.bids if b is not None)
            options = [a for a in options if so_far + self._bid_value(a) != h]
        return options

    def _bid_value(self, action: Action) -> int:
        return self.hand_size if action.word == BACKALLEY_WORD else cast(int, action.number)

    def play_rules(self) -> TrickRules:
        assert self.trump is not None, "trump is turned before the play"
        return play_rules(self.num_seats, self.trump, self.variant.trump_lead)

    def _explain(self, action: Action) -> IllegalAction:
        if self.phase is PHASE_BIDDING:
            if action.verb != "bid":
                return self._wrong_phase(action)
            h = self.hand_size
            if action.number is not None and 0 <= action.number <= h and not action.word:
                return IllegalAction(
                    f"the hook rule: the dealer may not make the bids add up to {h}",
                    "hook_rule",
                    {"total": h, "bid": action.number},
                )
            return IllegalAction(
                f"bid from 0 to {h}, or 'bid backalley' to claim every trick",
                "bid_out_of_range",
                {"min": 0, "max": h, "bid": action.number},
            )
        return self._explain_play(action)

    # -- applying ------------------------------------------------------------------
    def _apply(self, action: Action) -> list[Event]:
        seat = self.to_act
        assert seat is not None
        if self.phase is PHASE_BIDDING:
            return self._apply_bid(seat, action)
        return self._play_card(action.cards[0])

    def _apply_bid(self, seat: int, action: Action) -> list[Event]:
        value = self._bid_value(action)
        self.bids[seat] = value
        if action.word == BACKALLEY_WORD:
            self.backalley.add(seat)
        self.auction.append((seat, str(action)))
        events = [Event("bid", seat, {"bid": str(action)[4:]})]
        if seat != self.dealer:
            self.to_act = (seat + 1) % self.num_seats
            return events
        # the highest bidder leads; ties go to the earliest bidder (rules "Play")
        order = [(self.dealer + 1 + k) % self.num_seats for k in range(self.num_seats)]
        leader = max(order, key=lambda s: (cast(int, self.bids[s]), -order.index(s)))
        self.phase = PHASE_PLAY
        self.trick = Trick(leader)
        self.to_act = leader
        events.append(Event("play_started", leader))
        return events

    def _end_deal(self) -> list[Event]:
        h = self.hand_size
        deal = score_deal(h, [cast(int, b) for b in self.bids], self.backalley, self.tricks_won)
        self.scores = [t + d for t, d in zip(self.scores, deal, strict=True)]
        self._record_deal(
            deal,
            bids=tuple(
                BACKALLEY_WORD if s in self.backalley else self.bids[s]
                for s in range(self.num_seats)
            ),
            details={"hand_size": h, "turned": str(self.turned) if self.turned else None},
        )
        events = [Event("deal_scored", None, {"scores": list(deal), "round": self.round_number})]
        if self.round_number >= len(self.sizes):
            self.phase = PHASE_OVER
            self.to_act = None
            events.append(Event("match_over", None, {"ranking": list(shared_ranks(self.scores))}))
            return events
        self.round_number += 1
        self.dealer = (self.dealer + 1) % self.num_seats
        self._deal()
        events.append(Event("deal_started", self.dealer, {"round": self.round_number}))
        return events

    # -- cards and views ---------------------------------------------------------------
    def full_deck(self) -> list[Card]:
        return standard_deck(jokers=True)

    def _unplayed_extra_cards(self) -> list[Card]:
        extra = list(self.stock) + list(self.set_aside)
        if self.turned is not None:
            extra.append(self.turned)
        return extra

    def shuffled_unseen(self, seat: int, rng: Any) -> BackalleyState:
        """Other hands and the stock are unseen; the turned card and the
        jokers set aside are public."""
        state = cast(BackalleyState, self.clone())
        others = [s for s in range(self.num_seats) if s != seat]
        pool = [c for s in others for c in state.hands[s]] + state.stock
        rng.shuffle(pool)
        for s in others:
            n = len(state.hands[s])
            state.hands[s], pool = pool[:n], pool[n:]
        state.stock = pool
        return state

    def view(self, seat: int | None) -> Observation:
        self.check_seat(seat)
        return Observation(
            **self._common_view(seat),
            bids=tuple(self.bids),
            auction=tuple(self.auction),
            turned=self.turned,
            hand_size=self.hand_size,
            ranking=shared_ranks(self.scores) if self.is_over else (),
            extra={
                "backalley": tuple(sorted(self.backalley)),
                "set_aside": tuple(self.set_aside),
                "trump_broken": self.trump_broken,
                "deals": len(self.sizes),
            },
        )


class Backalley(Game):
    name = "backalley"
    title = "Backalley"
    summary = (
        "2 to 8 players, each for themselves, up and down the river: hands of 1, 2, ... up to 7 "
        "cards and back. Bid the tricks you will take (or 'backalley' for all of them); the "
        "jokers are the highest trumps. Made, with at least the tricks bid: 3 x bid + 1 per "
        "extra trick; failed: -3 x bid."
    )
    Variant = BackalleyVariant
    verbs = frozenset({"bid", "play"})
    bid_forms = frozenset({"number", "backalley"})
    rules_lines = (
        "Hands go 1, 2, ... M ... 2, 1; the turned card names trump; RJ > BJ > trump ace.",
        "Bid once around from the dealer's left: 0..hand size, or backalley (every trick).",
        "The highest bidder leads; trump may be led only from a hand of trumps.",
        "Follow suit if you can, else play anything.",
        "Made: 3 x bid + 1 per extra trick; failed: -3 x bid; backalley: +/-10 x hand size.",
    )

    def num_seats(self, variant: VariantBase | None = None) -> int:
        return cast(BackalleyVariant, self.check_variant(variant)).players

    def play_rules(
        self, trump: str, num_seats: int = 4, variant: VariantBase | None = None
    ) -> TrickRules:
        """The play rules of a deal (the search API: ``engine.core.playmask``)."""
        v = cast(BackalleyVariant, self.check_variant(variant)) if variant is not None else _DEFAULT
        return play_rules(num_seats, trump, v.trump_lead)

    def conformance_variants(self) -> list[VariantBase]:
        quick = [BackalleyVariant(players=n, max_cards=3) for n in range(2, 9)]
        return [
            *quick,
            BackalleyVariant(),
            BackalleyVariant(
                players=3, max_cards=4, trump_lead="broken", joker_turned="no_trump", hook_rule=True
            ),
            BackalleyVariant(players=4, max_cards=13),
        ]

    def new_match(
        self, seed: int | None = None, variant: VariantBase | None = None, deal: Any = None
    ) -> BackalleyState:
        state = BackalleyState(self, cast(BackalleyVariant, self.check_variant(variant)), seed)
        n = state.num_seats
        state.dealer = state.rng.randrange(n)
        if deal is None:
            state._deal()
            return state
        raw, extras = split_deal(deal, ("dealer", "stock"))
        hands = normalize_hands(raw, n, state.hand_size)
        state.dealer = deal_seat(extras, "dealer", n, state.dealer)
        used = {c for h in hands for c in h}
        # a given stock is the top of the stock (the turn-up comes first); the
        # cards it leaves out follow it in an order drawn from the seed
        try:
            top = parse_cards(check_rows(extras.get("stock", []), "stock"))
        except ValueError as exc:
            raise InvalidPosition([f"stock: {exc}"]) from None
        problems = [f"{c} is both dealt and in the stock" for c in top if c in used]
        if len(set(top)) != len(top):
            problems.append("a card appears twice in the stock")
        if problems:
            raise InvalidPosition(problems)
        rest = [c for c in standard_deck(jokers=True) if c not in used and c not in top]
        state.rng.shuffle(rest)
        stock = top + rest
        state.initial_deal = {
            "hands": hands_to_text(hands),
            "stock": [str(c) for c in stock],
            "dealer": state.dealer,
        }
        state._deal(hands, stock)
        return state

    def position(
        self,
        hands: dict[int, Any] | None = None,
        trick: list[tuple[int, Any]] | None = None,
        to_act: int | None = None,
        trump: str | None = None,
        variant: VariantBase | None = None,
        **facts: Any,
    ) -> BackalleyState:
        v = cast(BackalleyVariant, self.check_variant(variant)) if variant is not None else _DEFAULT
        n = v.players
        if trump not in ("S", "H", "D", "C", JOKER_SUIT):
            raise InvalidPosition([f"trump must be S, H, D, C or J (got {trump!r})"])
        full, plays = position_hands(hands or {}, trick or [], n, standard_deck(jokers=True))
        state = BackalleyState(self, v, 0)
        won = facts.pop("tricks_won", {})
        played_seats = {s for s, _ in plays}
        default_size = max(len(h) + (s in played_seats) for s, h in enumerate(full)) + sum(
            int(v) for v in won.values()
        )
        size = int(facts.pop("hand_size", default_size))
        if size in state.sizes:
            state.round_number = state.sizes.index(size) + 1
        else:
            state.sizes = [size]
        state.dealer = int(facts.pop("dealer", n - 1))
        state.scores = list(facts.pop("scores", [0] * n))
        bids = facts.pop("bids", {})
        state.trump_broken = bool(facts.pop("trump_broken", False))
        if facts:
            raise InvalidPosition([f"unknown position fact {k!r}" for k in facts])
        leader = plays[0][0] if plays else (to_act if to_act is not None else 0)
        state._init_play_state(full, leader)
        state.trick.plays = list(plays)
        state.trump = trump
        used = {c for h in full for c in h} | {c for _, c in plays}
        state.stock = [c for c in standard_deck(jokers=True) if c not in used]
        for s in range(n):
            b = bids.get(s, 0)
            if b == BACKALLEY_WORD:
                state.backalley.add(s)
                b = size
            state.bids[s] = int(b)
        state.tricks_won = [int(won.get(s, 0)) for s in range(n)]
        state.phase = PHASE_PLAY
        state._set_position_turn(plays, leader, to_act)
        return state


BACKALLEY = Backalley()
GAMES.register(BACKALLEY, aliases=("back alley", "oh hell"))
