"""The play phase every trick-taking game shares.

``TrickGameState`` holds hands, the trick in progress, the tricks of this deal,
tricks won and the deal history, and plays one card: remove it from the hand,
add it to the trick, and when the trick is full give it to its winner, who
leads next.  A game supplies ``_allowed_cards()`` (its follow rules, built
from ``engine.core.follow``) and ``_end_deal()`` (its scoring).

In the play phase a trick game's legal actions are exactly the plays of
``_allowed_cards()``, so ``apply`` checks a card against that list alone.
Completed tricks are kept as tuples (they never change), which lets a clone
share them.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, cast

from engine.core.actions import PLAY_OF, Action
from engine.core.bits import SUIT_OF_SLOT
from engine.core.cards import CARD_TEXT, Card, parse_cards
from engine.core.events import Event
from engine.core.follow import ANY_CARD, Allowed, refusal_for
from engine.core.game import (
    PHASE_PLAY,
    ClonePlan,
    MatchState,
    copy_rows,
    share,
)
from engine.core.playmask import PlayMask, TrickRules, trick_masks
from engine.core.trick import STANDARD, Ranking, Trick
from engine.core.view import DealRecord, Plays
from engine.errors import IllegalAction, InvalidPosition


def shared_ranks(totals: Sequence[int]) -> tuple[int, ...]:
    """Rank per entry, 1 = best; equal totals share a rank (1, 1, 3, 4)."""
    return tuple(1 + sum(1 for other in totals if other > mine) for mine in totals)


class TrickGameState(MatchState):
    ranking: Ranking = STANDARD
    clone_plan: ClassVar[ClonePlan] = {
        **MatchState.clone_plan,
        "hands": copy_rows,
        "dealt_hands": copy_rows,
        "trick": Trick.copy,
        "tricks": list,  # of tuples
        "tricks_won": list,
        "trump": share,
        "dealer": share,
        "history": list,  # of frozen DealRecords
        "deal_scores": list,  # of tuples
    }

    hands: list[list[Card]]
    dealt_hands: list[list[Card]]
    trick: Trick
    tricks: list[tuple[tuple[int, Card], ...]]
    tricks_won: list[int]
    trump: str | None
    dealer: int
    history: list[DealRecord]
    deal_scores: list[tuple[int, ...]]

    def _init_play_state(self, hands: list[list[Card]], leader: int) -> None:
        self.hands = [list(h) for h in hands]
        self.dealt_hands = [list(h) for h in hands]
        self.trick = Trick(leader)
        self.tricks = []
        self.tricks_won = [0] * self.num_seats

    # -- hooks ---------------------------------------------------------------
    @abstractmethod
    def _allowed_cards(self) -> Allowed:
        """Which cards the seat to act may play now, and the rule that says so."""

    @abstractmethod
    def _end_deal(self) -> list[Event]:
        """Score the finished deal, then start the next one or end the match."""

    @property
    def playing_seat(self) -> int:
        """The seat whose cards are played now (Batak's dummy included)."""
        assert self.to_act is not None
        return self.to_act

    # -- play ---------------------------------------------------------------
    def _legal_plays(self) -> list[Action]:
        return [PLAY_OF[c] for c in self._allowed_cards().cards]

    def _legal_action(self, action: Action) -> Action | None:
        if self.phase is not PHASE_PLAY:
            return super()._legal_action(action)
        cards = action.cards
        if action.verb == "play" and len(cards) == 1 and cards[0] in self._allowed_cards().cards:
            return PLAY_OF[cards[0]]
        return None

    def _legal_key(self) -> tuple[Any, ...] | None:
        """In the play phase the legal actions are the plays of
        ``_allowed_cards()``: a function of the seat playing, its hand, the
        trick and the trump (trump broken changes only with a card played),
        here by value, so that no change to a hand or trick goes unseen."""
        if self.phase is not PHASE_PLAY:
            return None
        seat = self.playing_seat
        # one flat tuple (None between the hand's cards and the trick's plays)
        return (seat, self.trump, *self.hands[seat], None, *self.trick.plays)

    def _explain_play(self, action: Action) -> IllegalAction:
        if action.verb != "play":
            return self._wrong_phase(action)
        if len(action.cards) != 1:
            return IllegalAction(
                "play exactly one card, e.g. 'play AS'", "one_card", {"count": len(action.cards)}
            )
        owner = "your hand" if self.playing_seat == self.decider else "the dummy's hand"
        refusal = refusal_for(
            action.card, self.hands[self.playing_seat], self._allowed_cards(), owner
        )
        if refusal is None:  # pragma: no cover - legal actions are not explained
            return IllegalAction(f"{action} is not legal now")
        return IllegalAction(refusal[1], refusal[0], refusal[2])

    def _play_card(self, card: Card) -> list[Event]:
        seat = self.playing_seat
        self.hands[seat].remove(card)
        plays = self.trick.plays
        plays.append((seat, card))
        events = [Event("card_played", seat, {"card": CARD_TEXT[card]})]
        winner = self._trick_taken()
        if winner is None:
            self.to_act = (seat + 1) % self.num_seats
            return events
        self.tricks_won[winner] += 1
        self.tricks.append(tuple(plays))
        events.append(Event("trick_won", winner, {"cards": [CARD_TEXT[c] for _, c in plays]}))
        self.trick = self._next_trick(winner)
        self.to_act = winner
        if not any(self.hands):
            events.extend(self._end_deal())
        return events

    def _next_trick(self, winner: int) -> Trick:
        """The trick ``winner`` leads after taking the one just full."""
        return Trick(winner)

    def _trick_taken(self) -> int | None:
        """A card has just been added to the trick: the seat that takes the
        trick if it is full, else None (and whatever else a card changes:
        ``MaskTrickState``)."""
        if len(self.trick.plays) < self.num_seats:
            return None
        return self.trick.winner(self.ranking, self.trump)

    # -- card accounting (conformance and information hiding) ---------------
    def card_inventory(self) -> list[Card]:
        cards = [c for h in self.hands for c in h]
        cards.extend(c for _, c in self.trick.plays)
        cards.extend(c for t in self.tricks for _, c in t)
        cards.extend(self._unplayed_extra_cards())
        return cards

    def _unplayed_extra_cards(self) -> list[Card]:
        """Cards outside hands and tricks (Backalley's stock); override."""
        return []

    def _seats_visible_to(self, seat: int) -> set[int]:
        """Seats whose hands ``seat`` sees: its own (plus Batak's dummy)."""
        return {seat}

    def shuffled_unseen(self, seat: int, rng: random.Random) -> TrickGameState:
        state = cast(TrickGameState, self.clone())
        visible = self._seats_visible_to(seat)
        others = [s for s in range(self.num_seats) if s not in visible]
        pool = [c for s in others for c in state.hands[s]]
        rng.shuffle(pool)
        for s in others:
            n = len(state.hands[s])
            state.hands[s], pool = pool[:n], pool[n:]
        return state

    # -- records and views --------------------------------------------------
    def _record_deal(
        self,
        scores: Sequence[int],
        *,
        bids: Sequence[Any] = (),
        contract: str | None = None,
        declarer: int | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> DealRecord:
        record = DealRecord(
            number=self.round_number,
            dealer=self.dealer,
            hands=tuple(tuple(h) for h in self.dealt_hands),
            tricks=tuple(tuple(t) for t in self.tricks),
            tricks_won=tuple(self.tricks_won),
            bids=tuple(bids),
            contract=contract,
            declarer=declarer,
            trump=self.trump,
            scores=tuple(scores),
            details=dict(details or {}),
        )
        self.history.append(record)
        self.deal_scores.append(tuple(scores))
        return record

    def _set_position_turn(
        self, plays: list[tuple[int, Card]], leader: int, to_act: int | None
    ) -> None:
        """Positions: the trick so far fixes whose turn it is; a ``to_act``
        that disagrees is an inconsistent position."""
        expected = (leader + len(plays)) % self.num_seats
        if to_act is not None and to_act != expected:
            raise InvalidPosition([f"seat {expected} is next in this trick, not {to_act}"])
        self.to_act = expected

    def _played(self) -> Plays:
        flat = [p for t in self.tricks for p in t]
        flat.extend(self.trick.plays)
        return tuple(flat)

    def _common_view(self, seat: int | None) -> dict[str, Any]:
        """Fields every trick game's Observation shares."""
        decider = self.decider
        mine = seat is not None and seat == decider
        return {
            "game": self.game.name,
            "seat": seat,
            "num_seats": self.num_seats,
            "phase": self.phase.value,
            "round_number": self.round_number,
            "is_over": self.is_over,
            "dealer": self.dealer,
            "to_act": self.to_act,
            "decider": decider,
            "hand": tuple(self.hands[seat]) if seat is not None else (),
            "legal_actions": tuple(self.legal_actions()) if mine else (),
            "trick": tuple(self.trick.plays),
            "trick_leader": self.trick.leader,
            "last_trick": tuple(self.tricks[-1]) if self.tricks else (),
            "played": self._played(),
            "trump": self.trump,
            "tricks_won": tuple(self.tricks_won),
            "scores": tuple(self.scores),
            "deal_scores": tuple(self.deal_scores),
            "hand_counts": tuple(map(len, self.hands)),
            "last_deal": self.history[-1] if self.history else None,
        }


def position_hands(
    given: Mapping[int, Iterable[Any]],
    trick: Sequence[tuple[int, Any]],
    num_seats: int,
    deck: Sequence[Card],
) -> tuple[list[list[Card]], list[tuple[int, Card]]]:
    """Complete a position's hands: seats left out get cards nobody else holds.

    Every seat that has not played to the current trick holds the same number
    of cards; one that has holds one fewer.  Raises InvalidPosition listing
    every inconsistency (a card twice, unequal counts, a bad seat).
    """
    problems: list[str] = []
    hands: dict[int, list[Card]] = {}
    for seat, cards in given.items():
        if not 0 <= int(seat) < num_seats:
            problems.append(f"no seat {seat}")
            continue
        try:
            hands[int(seat)] = parse_cards(
                cards if isinstance(cards, str) else [str(c) for c in cards]
            )
        except ValueError as exc:
            problems.append(f"seat {seat}: {exc}")
    plays: list[tuple[int, Card]] = []
    for seat, card in trick:
        try:
            plays.append((int(seat), card if isinstance(card, Card) else Card.parse(str(card))))
        except ValueError as exc:
            problems.append(f"trick: {exc}")
    played_seats = {s for s, _ in plays}
    if len(played_seats) != len(plays):
        problems.append("a seat plays twice to the trick")
    sizes = {len(h) + (1 if s in played_seats else 0) for s, h in hands.items()}
    if len(sizes) > 1:
        problems.append(f"hand sizes do not agree with the trick: {sorted(sizes)}")
    seen: dict[Card, str] = {}
    for seat, cards in hands.items():
        for card in cards:
            if card in seen:
                problems.append(f"{card} appears twice ({seen[card]} and seat {seat})")
            seen[card] = f"seat {seat}"
    for _seat, card in plays:
        if card in seen:
            problems.append(f"{card} appears twice ({seen[card]} and the trick)")
        seen[card] = "the trick"
        if card not in deck:
            problems.append(f"{card} is not in this game's deck")
    for card in seen:
        if card not in deck:
            problems.append(f"{card} is not in this game's deck")
    if problems:
        raise InvalidPosition(sorted(set(problems)))
    size = sizes.pop() if sizes else 0
    spare = [c for c in deck if c not in seen]
    full: list[list[Card]] = []
    for seat in range(num_seats):
        if seat in hands:
            full.append(hands[seat])
            continue
        need = size - (1 if seat in played_seats else 0)
        if need > len(spare):
            raise InvalidPosition([f"not enough cards left to fill seat {seat}"])
        full.append(spare[:need])
        spare = spare[need:]
    return full, plays


class MaskTrickState(TrickGameState):
    """A trick game whose play rules are a ``TrickRules`` (Callbreak, Eşli
    Batak, Backalley): its legal cards, refusal reasons, trick winner and
    trump breaking all come from the rule functions on masks
    (``engine.core.follow``, ``engine.core.playmask``), the same ones every
    search plays by (``play_masks``)."""

    #: trump broken this deal (a game without the rule never breaks it)
    trump_broken: bool = False

    @abstractmethod
    def play_rules(self) -> TrickRules:
        """The rules of the deal in play (trump named), from the game's
        rules module."""

    def _legal_mask(self) -> tuple[TrickRules, int, str, int]:
        """The rules, the legal-card mask of the seat to play, the rule's
        reason code and the led slot (-1 on the lead)."""
        pm = self._trick_masks(len(self.trick.plays))
        rules = pm.rules
        hand = sum(map(rules.codec.flag_of.__getitem__, self.hands[self.playing_seat]))
        led = pm.led
        mask, reason = rules.legal(hand, led, pm.led_top, pm.trump_top, self.trump_broken)
        return rules, mask, reason, led

    def _allowed_cards(self) -> Allowed:
        rules, mask, reason, led = self._legal_mask()
        hand = self.hands[self.playing_seat]
        if reason == ANY_CARD:
            return Allowed(list(hand))
        flag = rules.codec.flag_of
        suit = SUIT_OF_SLOT[led] if led >= 0 else None
        trump = self.trump
        return Allowed(
            [c for c in hand if flag[c] & mask],
            reason,
            rules.message(reason, suit, trump),
            suit,
            trump,
        )

    def _legal_plays(self) -> list[Action]:
        rules, mask, _, _ = self._legal_mask()
        flag = rules.codec.flag_of
        return [PLAY_OF[c] for c in self.hands[self.playing_seat] if flag[c] & mask]

    def _legal_action(self, action: Action) -> Action | None:
        if self.phase is not PHASE_PLAY:
            return super()._legal_action(action)
        cards = action.cards
        if action.verb != "play" or len(cards) != 1:
            return None
        rules, mask, _, _ = self._legal_mask()
        flag = rules.codec.flag_of.get(cards[0])
        if flag is None or not flag & mask:  # the mask holds only cards of the hand
            return None
        return PLAY_OF[cards[0]]

    def _trick_masks(self, count: int) -> PlayMask:
        """The trick's first ``count`` cards on masks: a mirror kept on the
        ``Trick`` and extended card by card, rebuilt when the trick or its
        list of plays is not the one it was made for.  (Trump is fixed while
        a trick lasts: a game names or turns trump before a new ``Trick``.)"""
        trick = self.trick
        plays = trick.plays
        cached = trick.masks
        if cached is not None and cached[0] is plays and cached[1] == count:
            found: PlayMask = cached[2]
            return found
        rules = self.play_rules()
        bit_of = rules.codec.bit_of
        bits = [bit_of[c] for _, c in plays[:count]]
        pm = trick_masks(rules, trick.leader, bits, self.trump_broken)
        trick.masks = (plays, count, pm)
        return pm

    def _trick_taken(self) -> int | None:
        trick = self.trick
        plays = trick.plays
        count = len(plays)
        pm = self._trick_masks(count - 1)
        rules = pm.rules
        pm.broken = self.trump_broken
        rules.play(pm, rules.codec.bit_of[plays[-1][1]])
        trick.masks = (plays, count, pm)
        if pm.broken != self.trump_broken:
            self.trump_broken = pm.broken
        return None if pm.plays else pm.leader

    def _next_trick(self, winner: int) -> Trick:
        """The next trick starts with the full one's mirror, reset by the
        play of its last card (its winner leads)."""
        trick = Trick(winner)
        cached = self.trick.masks
        if cached is not None and cached[0] is self.trick.plays and not cached[2].plays:
            trick.masks = (trick.plays, 0, cached[2])
        return trick

    def play_masks(self) -> PlayMask:
        """The deal in play as a ``PlayMask``: the search API (its docstring).
        Only in the play phase, with trump named."""
        rules = self.play_rules()
        mask = rules.codec.mask
        pm = trick_masks(rules, self.trick.leader, [], self.trump_broken)
        pm.won = list(self.tricks_won)
        bit_of = rules.codec.bit_of
        for _, card in self.trick.plays:
            pm.play(bit_of[card])
        pm.hands = [mask(h) for h in self.hands]
        pm.broken = self.trump_broken
        return pm
