"""Bazar Blot (bot/rulebook/blot.md): the Armenian partnership game of 32 cards,
with the bazar auction, declarations, belote, contra and capot.

Rulings where the rule book is silent (see also ``declarations.py`` and
``scoring.py``): declarations are announced and shown automatically as soon
as the auction ends -- only the winning team's combinations are shown, with
their cards, and they are public in every view from then on; belote is
announced when the first of the trump K and Q is played by a player who was
dealt both.  A redeal after four passes counts as a deal (the dealer moves)
but scores nothing.

Position facts (``BLOT.position``): ``hands``, ``trick``, ``to_act``,
``trump`` (None for NT; taken from the contract when omitted),
``contract="10 H"`` (or "10 H contra", "25 S capot", "9 NT"), ``declarer``
(default 0), ``tricks_won``, ``points_won=[team0, team1]`` (raw card points
so far), ``scores``, ``dealer``, ``variant``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from engine.core.actions import Action
from engine.core.cards import Card
from engine.core.deal_cap import cap_reached, higher_total, max_deals_setting, team_ranking
from engine.core.events import Event
from engine.core.follow import Allowed
from engine.core.game import Game, Phase, deal_seat, hands_to_text, normalize_hands, split_deal
from engine.core.registry import GAMES
from engine.core.spec import Variant as VariantBase
from engine.core.spec import setting
from engine.core.trick import Trick
from engine.core.trickgame import TrickGameState, position_hands
from engine.core.view import Observation
from engine.errors import IllegalAction, InvalidPosition, InvalidVariant
from engine.games.blot.auction import Auction
from engine.games.blot.cards import BLOT_RANKING, blot_deck
from engine.games.blot.declarations import Declaration, award, belote_points, has_belote
from engine.games.blot.masks import (
    ANY_CARD,
    INDEX,
    RULES,
    BlotPlay,
    Position,
    Tables,
    allowed,
    hands_of,
    mask_of,
    position,
    step,
    tables,
    totals_of,
)
from engine.games.blot.scoring import Stakes, is_made, match_winner, score_deal

TEAMS = ((0, 2), (1, 3))


@dataclass(frozen=True)
class BlotVariant(VariantBase):
    game_name = "blot"
    target_score: int = setting(301, bounds=(51, 1001), help="points a team needs to win")
    min_bid: int = setting(8, bounds=(8, 16), help="lowest first bid")
    partner_exemption: bool = setting(True, help="no need to trump while your partner wins")
    must_undertrump: bool = setting(False, help="void and unable to over-trump: still trump")
    declarations_count_for_contract: bool = setting(
        True, help="declarations count toward making the contract"
    )
    nt_doubling_multipliers: tuple[int, int] = setting(
        (3, 5), help="NT multipliers for contra and recontra"
    )
    max_deals: int = max_deals_setting()

    @classmethod
    def check_free_value(cls, spec: Any, value: Any) -> None:
        ok = (
            isinstance(value, tuple)
            and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 20 for v in value)
        )
        if not ok:
            raise InvalidVariant(
                f"{spec.name} must be two whole numbers from 1 to 20, like '3,5' (got {value!r})",
                "out_of_range",
            )


def deal_from_deck(deck: list[Card], dealer: int) -> list[list[Card]]:
    """4 then 4 from dealer + 1: seat ``(dealer+1+i) % 4`` gets
    ``d[4i:4i+4] + d[16+4i:16+4i+4]`` (rules "Table and deal")."""
    hands: list[list[Card]] = [[] for _ in range(4)]
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        hands[seat] = deck[4 * i : 4 * i + 4] + deck[16 + 4 * i : 16 + 4 * i + 4]
    return hands


class BlotState(TrickGameState):
    variant: BlotVariant
    ranking = BLOT_RANKING

    def __init__(self, game: Game, variant: BlotVariant, seed: int | None) -> None:
        super().__init__(game, variant, seed)
        self.scores = [0, 0]
        self.history = []
        self.deal_scores = []
        self.auction = Auction(0)
        self.points_won = [0, 0]
        self.declared: list[Declaration] = []
        self.declaring_team: int | None = None
        self.belote: list[int] = []  # seats that announced belote
        self.trump = None

    # -- dealing ---------------------------------------------------------------
    def _deal(self, hands: list[list[Card]] | None = None) -> None:
        if hands is None:
            deck = blot_deck()
            self.rng.shuffle(deck)
            hands = deal_from_deck(deck, self.dealer)
        first = (self.dealer + 1) % 4
        self._init_play_state(hands, first)
        self.auction = Auction(first, self.variant.min_bid)
        self.points_won = [0, 0]
        self.declared = []
        self.declaring_team = None
        self.belote = []
        self.trump = None
        self.phase = Phase.AUCTION
        self.to_act = first

    @property
    def declarer(self) -> int | None:
        return self.auction.bidder if self.phase is not Phase.AUCTION else None

    @property
    def nt(self) -> bool:
        return self.auction.strain == "NT"

    # -- legality ----------------------------------------------------------------
    def _legal(self) -> list[Action]:
        if self.phase is Phase.AUCTION:
            return self.auction.legal()
        return self._legal_plays()

    def _allowed_cards(self) -> Allowed:
        """rules "Play", on masks (``masks.allowed``): follow suit; on a trump
        lead beat the highest trump if you can; void: trump (over-trumping if
        you can) unless your partner is winning; no forced under-trump unless
        ``must_undertrump``.  The cards keep the hand's order."""
        seat = self.playing_seat
        hand = self.hands[seat]
        plays = self.trick.plays
        if not plays:
            return Allowed(list(hand))
        tab = self._tables()
        mask, rule = allowed(self._position(tab, only=seat), tab)
        if rule == ANY_CARD:
            return Allowed(list(hand))
        reason, message = RULES[rule]
        cards = [c for c in hand if mask >> INDEX[c] & 1]
        return Allowed(cards, reason, message, plays[0][1].suit, self.trump)

    def _tables(self) -> Tables:
        variant = self.variant
        return tables(self.trump, variant.partner_exemption, variant.must_undertrump)

    def _position(self, tab: Tables, only: int | None = None) -> Position:
        """The card play as it stands, on masks (``masks.Position``); with
        ``only``, the other hands are left out (the seat to act's legal
        cards need its hand alone)."""
        won = self.tricks_won
        return position(
            [mask_of(h) if only is None or s == only else 0 for s, h in enumerate(self.hands)],
            self.trick.leader,
            [INDEX[c] for _, c in self.trick.plays],
            tab,
            self.points_won,
            (won[0] + won[2], won[1] + won[3]),
        )

    def _explain(self, action: Action) -> IllegalAction:
        if self.phase is Phase.AUCTION:
            a = self.auction
            if action.verb == "contra":
                return IllegalAction(
                    "only an opponent of the standing bid may double it, once", "bad_contra"
                )
            if action.verb == "recontra":
                return IllegalAction(
                    "recontra is for the doubled team, after a contra", "bad_recontra"
                )
            if action.verb != "bid" and action.verb != "pass":
                return self._wrong_phase(action)
            if a.contra_by is not None:
                return IllegalAction("after a contra no new bid is allowed", "doubled")
            if action.word is None:
                return IllegalAction(
                    "a bid names a level and a strain, e.g. 'bid 9 H' or 'bid 10 NT'", "bad_bid"
                )
            if a.capot and not action.capot:
                return IllegalAction(
                    "a capot bid stands: every later bid must be capot", "capot_sticky"
                )
            if action.capot and (action.number or 0) < 25:
                return IllegalAction("capot bids start at 25", "capot_too_low", {"min": 25})
            low = a.min_bid if a.level is None else a.level + 1
            return IllegalAction(
                f"bid at least {low} (and at most 80)",
                "bid_too_low",
                {"low": low, "min": low, "max": 80, "bid": action.number},
            )
        return self._explain_play(action)

    # -- applying -------------------------------------------------------------------
    def _apply(self, action: Action) -> list[Event]:
        seat = cast(int, self.to_act)
        if self.phase is Phase.AUCTION:
            self.auction.apply(action)
            events = [Event(action.verb, seat, {"text": str(action)})]
            if not self.auction.done:
                self.to_act = self.auction.to_act
                return events
            if self.auction.redeal:
                events.append(Event("redeal", self.dealer))
                if cap_reached(self.round_number, self.variant.max_deals):
                    return events + self._end_match()  # the last deal passed out
                self.round_number += 1
                self.dealer = (self.dealer + 1) % 4
                self._deal()
                return events
            return events + self._start_play()
        return self._play(seat, action.card)

    def _start_play(self) -> list[Event]:
        a = self.auction
        self.trump = None if a.strain == "NT" else a.strain
        self.phase = Phase.PLAY
        first = (self.dealer + 1) % 4
        self.trick = Trick(first)
        self.to_act = first
        team, declared = award(self.dealt_hands, self.trump, first)
        self.declaring_team, self.declared = team, declared
        events = [Event("contract", a.bidder, {"contract": a.contract_text()})]
        for d in declared:
            events.append(
                Event(
                    "declaration",
                    d.seat,
                    {"text": d.describe(), "cards": [str(c) for c in d.cards]},
                )
            )
        return events

    def _play(self, seat: int, card: Card) -> list[Event]:
        events: list[Event] = []
        if (
            self.trump is not None
            and card.suit == self.trump
            and card.rank in (12, 13)
            and seat not in self.belote
            and has_belote(self.dealt_hands[seat], self.trump)
        ):
            self.belote.append(seat)
            events.append(Event("belote", seat, {"text": "belote (20)"}))
        if len(self.trick.plays) == 3:
            # the trick's points (and the last trick's bonus) to its winner
            tab = self._tables()
            after = step(self._position(tab), INDEX[card], tab)
            self.points_won = list(totals_of(after)[:2])
        return events + self._play_card(card)

    def _stakes(self, belote: list[int]) -> Stakes:
        """The contract and the declarations (shown ones, and ``belote`` per
        team): what the deal's score depends on besides the card play."""
        a = self.auction
        decl = list(belote)
        for d in self.declared:
            decl[d.seat % 2] += d.value
        return Stakes(
            declarer=cast(int, a.bidder),
            level=cast(int, a.level),
            nt=a.strain == "NT",
            doubling=a.doubling,
            capot=a.capot,
            decl=decl,
            declarations_count=self.variant.declarations_count_for_contract,
            nt_multipliers=self.variant.nt_doubling_multipliers,
        )

    def play_state(self) -> BlotPlay:
        """The card play of this deal from where it stands, on masks, for
        search (``masks.BlotPlay``).  Belote counts for a seat that announced
        it and for one that still holds the trump K and Q: it will announce
        it when it plays the first (rules "Declarations")."""
        tab = self._tables()
        pos = self._position(tab)
        return BlotPlay.at(
            pos,
            self.trump,
            tab,
            self._stakes(belote_points(hands_of(pos), self.trump, self.belote)),
        )

    def _end_deal(self) -> list[Event]:
        a = self.auction
        declarer = cast(int, a.bidder)
        team = declarer % 2
        tricks = sum(self.tricks_won[s] for s in TEAMS[team])
        belote = [0, 0]
        for s in self.belote:
            belote[s % 2] += 20
        outcome = self._stakes(belote).outcome(self.points_won[team], tricks)
        ours, theirs = score_deal(outcome)
        deal = (ours, theirs) if team == 0 else (theirs, ours)
        self.scores = [t + d for t, d in zip(self.scores, deal, strict=True)]
        self._record_deal(
            deal,
            bids=tuple(self._bids()),
            contract=a.contract_text(),
            declarer=declarer,
            details={
                "card_points": tuple(self.points_won),
                "made": is_made(outcome),
                "declarations": tuple((d.seat, d.describe()) for d in self.declared),
                "belote": tuple(self.belote),
            },
        )
        events = [Event("deal_scored", None, {"scores": list(deal), "round": self.round_number})]
        winner = match_winner(self.scores, self.variant.target_score)
        if winner is not None or cap_reached(self.round_number, self.variant.max_deals):
            return events + self._end_match()
        self.round_number += 1
        self.dealer = (self.dealer + 1) % 4
        self._deal()
        events.append(Event("deal_started", self.dealer, {"round": self.round_number}))
        return events

    def _end_match(self) -> list[Event]:
        self.phase = Phase.OVER
        self.to_act = None
        return [Event("match_over", None, {"winner_team": self._winner()})]

    def _winner(self) -> int | None:
        """The winning team of a match that is over: the first to the target
        (rules "End of the game"), else, at the deal cap, the higher total;
        None for a drawn match (equal totals at the cap)."""
        winner = match_winner(self.scores, self.variant.target_score)
        return winner if winner is not None else higher_total(self.scores)

    # -- views -------------------------------------------------------------------------
    def _bids(self) -> list[int | None]:
        latest: list[int | None] = [None] * 4
        for seat, text in self.auction.history:
            if text.startswith("bid"):
                latest[seat] = int(text.split()[1])
        return latest

    def full_deck(self) -> list[Card]:
        return blot_deck()

    def view(self, seat: int | None) -> Observation:
        self.check_seat(seat)
        shown = tuple((d.seat, d.describe(), d.cards) for d in self.declared)
        belotes = tuple((s, "belote (20)", ()) for s in self.belote)
        return Observation(
            **self._common_view(seat),
            bids=tuple(self._bids()),
            auction=tuple(self.auction.history),
            contract=self.auction.contract_text() if self.phase is not Phase.AUCTION else None,
            declarer=self.declarer,
            teams=TEAMS,
            declarations=shown + belotes,
            ranking=team_ranking(self._winner()) if self.is_over else (),
            extra={
                "standing_bid": self.auction.contract_text(),
                "card_points": tuple(self.points_won),
            },
        )


class Blot(Game):
    name = "blot"
    title = "Bazar Blot"
    summary = (
        "Armenian partnership Belote with 32 cards: bid a level and a suit or no trump in the "
        "bazar (contra and recontra double it), then take card points. Runs and four of a kind "
        "score for the team with the best one; K+Q of trump is belote. First team to 301 wins."
    )
    Variant = BlotVariant
    verbs = frozenset({"bid", "pass", "contra", "recontra", "play"})
    bid_forms = frozenset({"strain", "capot"})
    partnership = True
    rules_lines = (
        "Bazar from the dealer's left: 'bid 8 H' upward; NT does not outrank an equal suit bid.",
        "Four passes in a row close it; capot bids (25+) are sticky; an opponent may contra once.",
        "Trump J 9 A T K Q 8 7; plain A T K Q J 9 8 7. Follow suit; beat a trump lead.",
        "Void: trump (over-trump if you can) unless your partner is winning the trick.",
        "Made: level x multiplier + your points / 10; failed: the opponents take it all.",
    )

    def conformance_variants(self) -> list[VariantBase]:
        return [
            BlotVariant(target_score=51),
            BlotVariant(
                target_score=51,
                partner_exemption=False,
                must_undertrump=True,
                declarations_count_for_contract=False,
                nt_doubling_multipliers=(4, 8),
            ),
        ]

    def new_match(
        self, seed: int | None = None, variant: VariantBase | None = None, deal: Any = None
    ) -> BlotState:
        state = BlotState(self, cast(BlotVariant, self.check_variant(variant)), seed)
        state.dealer = state.rng.randrange(4)
        hands = None
        if deal is not None:
            if isinstance(deal, Mapping) and "deck" in deal:
                # the deck top-first, dealt 4 then 4 (rules "Table and deal")
                unknown = [k for k in deal if k not in ("deck", "dealer")]
                if unknown:
                    raise InvalidPosition([f"unknown deal entry {k!r}" for k in unknown])
                state.dealer = deal_seat(deal, "dealer", 4, state.dealer)
                deck = normalize_hands([deal["deck"]], 1, 32, blot_deck())[0]
                hands = deal_from_deck(deck, state.dealer)
            else:
                raw, extras = split_deal(deal, ("dealer",))
                state.dealer = deal_seat(extras, "dealer", 4, state.dealer)
                hands = normalize_hands(raw, 4, 8, blot_deck())
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
        trump: str | None = None,
        variant: VariantBase | None = None,
        **facts: Any,
    ) -> BlotState:
        full, plays = position_hands(hands or {}, trick or [], 4, blot_deck())
        state = BlotState(self, cast(BlotVariant, self.check_variant(variant)), 0)
        contract = str(facts.pop("contract", f"8 {trump or 'NT'}")).split()
        declarer = int(facts.pop("declarer", 0))
        state.dealer = int(facts.pop("dealer", 3))
        state.scores = list(facts.pop("scores", [0, 0]))
        won = facts.pop("tricks_won", {})
        points = list(facts.pop("points_won", [0, 0]))
        if facts:
            raise InvalidPosition([f"unknown position fact {k!r}" for k in facts])
        if len(contract) < 2 or not contract[0].isdigit():
            raise InvalidPosition([f"contract must look like '10 H' (got {' '.join(contract)!r})"])
        leader = (
            plays[0][0] if plays else (to_act if to_act is not None else (state.dealer + 1) % 4)
        )
        state._init_play_state(full, leader)
        state.trick.plays = list(plays)
        a = Auction((state.dealer + 1) % 4, state.variant.min_bid)
        a.bidder, a.level, a.strain = declarer, int(contract[0]), contract[1].upper()
        a.capot = "capot" in contract
        a.doubling = 2 if "recontra" in contract else 1 if "contra" in contract else 0
        a.done = True
        state.auction = a
        state.trump = None if a.strain == "NT" else a.strain
        if trump is not None and trump != state.trump:
            raise InvalidPosition(
                [f"trump {trump!r} does not match the contract {' '.join(contract)!r}"]
            )
        state.tricks_won = [int(won.get(s, 0)) for s in range(4)]
        state.points_won = points
        state.phase = Phase.PLAY
        state._set_position_turn(plays, leader, to_act)
        return state


BLOT = Blot()
GAMES.register(BLOT, aliases=("bazar blot", "bazar-blot", "belote"))
