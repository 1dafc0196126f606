"""Observation: the frozen view of a match from one seat (or a spectator).

``state.view(seat)`` is the only input to rendering a player's screen and to
every AI that does not openly cheat (DESIGN.md, "Hidden information").  It
holds the seat's own hand, what the rules make public, and nothing else.
Fields a game does not use keep their empty defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.actions import Action
from engine.core.cards import Card

Plays = tuple[tuple[int, Card], ...]


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A finished deal, public once it is over (every dealt card was played)."""

    number: int
    dealer: int | None
    hands: tuple[tuple[Card, ...], ...]
    tricks: tuple[Plays, ...]
    tricks_won: tuple[int, ...]
    bids: tuple[Any, ...]
    contract: str | None
    declarer: int | None
    trump: str | None
    scores: tuple[int, ...]
    details: Mapping[str, Any] = field(default_factory=dict)

    def __deepcopy__(self, memo: dict[int, Any]) -> DealRecord:
        """Immutable: copies of a state share it (``MatchState.clone``)."""
        return self


@dataclass(frozen=True, slots=True, kw_only=True)
class Observation:
    game: str
    seat: int | None
    num_seats: int
    phase: str
    round_number: int
    is_over: bool = False
    dealer: int | None = None
    to_act: int | None = None
    decider: int | None = None
    #: the seat's own cards (empty for a spectator)
    hand: tuple[Card, ...] = ()
    #: the seat's decisions right now (empty when it is not this seat's turn);
    #: for Batak's declarer on the dummy's turn, the dummy's legal plays
    legal_actions: tuple[Action, ...] = ()
    trick: Plays = ()
    trick_leader: int | None = None
    #: the last completed trick of this deal, shown until the next one fills
    last_trick: Plays = ()
    #: every card played this deal, in order (public)
    played: Plays = ()
    trump: str | None = None
    #: per seat: the number bid (None = not yet / passed / not used)
    bids: tuple[int | None, ...] = ()
    #: the auction so far as (seat, action text), for games with an auction
    auction: tuple[tuple[int, str], ...] = ()
    contract: str | None = None
    declarer: int | None = None
    tricks_won: tuple[int, ...] = ()
    #: running totals: per seat, or per team for partnership games
    scores: tuple[int, ...] = ()
    #: "tenths" (Callbreak), "points" or "wins" (Ladder)
    score_unit: str = "points"
    #: per team seat lists for partnership games, else ()
    teams: tuple[tuple[int, ...], ...] = ()
    #: per-deal scores so far, oldest first (same layout as ``scores``)
    deal_scores: tuple[tuple[int, ...], ...] = ()
    hand_counts: tuple[int, ...] = ()
    #: Batak: the dummy's hand once trump is named
    dummy: tuple[Card, ...] | None = None
    dummy_seat: int | None = None
    #: Blot: shown declarations as (seat, description, cards)
    declarations: tuple[tuple[int, str, tuple[Card, ...]], ...] = ()
    #: Ladder
    shown: tuple[tuple[Card, ...], ...] = ()
    hidden: tuple[int, ...] = ()
    pile: tuple[Card, ...] = ()
    pile_size: int = 0
    requirement: str | None = None
    #: Backalley: the turned card that named trump, and this deal's hand size
    turned: Card | None = None
    hand_size: int | None = None
    #: the most recent finished deal, all its cards revealed
    last_deal: DealRecord | None = None
    #: final ranking when over: rank per seat (1 = first), shared on ties;
    #: per team for partnership games
    ranking: tuple[int, ...] = ()
    #: game-specific public facts (documented in each game module)
    extra: Mapping[str, Any] = field(default_factory=dict)

    def visible_cards(self) -> set[Card]:
        """Every card this view shows; used by the information-hiding tests."""
        cards: set[Card] = set(self.hand)
        cards.update(c for _, c in self.trick)
        cards.update(c for _, c in self.last_trick)
        cards.update(c for _, c in self.played)
        if self.dummy:
            cards.update(self.dummy)
        for _, _, shown in self.declarations:
            cards.update(shown)
        for row in self.shown:
            cards.update(row)
        cards.update(self.pile)
        if self.turned is not None:
            cards.add(self.turned)
        for action in self.legal_actions:
            cards.update(action.cards)
        return cards
