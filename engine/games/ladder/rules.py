"""Ladder (bot/rulebook/ladder.md): the partnership climbing game with action cards.

Each player has a hand, three shown table cards and three hidden ones
(unknown to everyone, the owner included, until played).  A play is one or
more equal cards from the current source; the last play sets a requirement;
2, 3, 9 and T have effects; a player who cannot play picks up the pile.
The first player with no cards at all wins the game for the team.

Rulings where the rule book is silent: hidden cards keep their slots 1..3
(``hidden 2`` always means the second slot while it holds a card); a turn is
one action (a play, a blind hidden play or a pickup); a player with no
legal play and an empty pile still "picks up" (nothing) and the turn moves
on.  A match ends when a team reaches ``target_wins`` or after
``2 x target_wins + 1`` games (drawn games included): then the team with
more wins takes it, and equal wins make a drawn match.  Every game is
bounded by ``max_turns``, so every match ends.

The play rules themselves are ``table.py``'s, on rank counts: the state
keeps a ``Table`` beside its cards, lists its legal actions from
``table.plays`` and applies a turn with ``table.step``; this module moves
the cards, reports the events and runs the match (games, wins, the cap).

Position facts (``LADDER.position``): ``hands={seat: cards}`` (seats left
out hold three cards nobody else does), ``shown={seat: cards}``,
``hidden={seat: count}``, ``pile=[..., top last]``,
``requirement="ANY" | "MIN 8" | "MAX 9"``, ``to_act``, ``variant``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any, ClassVar, cast

from engine.core.actions import PICKUP, Action, hidden, play_of
from engine.core.cards import Card, parse_cards, standard_deck
from engine.core.events import Event
from engine.core.game import (
    PHASE_OVER,
    PHASE_PLAY,
    ClonePlan,
    Game,
    MatchState,
    check_rows,
    copy_rows,
    hands_to_text,
    share,
)
from engine.core.registry import GAMES
from engine.core.shuffle import shuffle
from engine.core.spec import Variant as VariantBase
from engine.core.spec import setting
from engine.core.view import Observation
from engine.errors import IllegalAction, InvalidPosition
from engine.games.ladder.requirement import ANY, OF_CODE, Requirement
from engine.games.ladder.table import (
    BURNED,
    HAND,
    HIDDEN,
    PICKED_UP,
    REDEALT,
    SKIPPED,
    SOURCE_NAMES,
    Table,
    deal_round,
    hidden_slots,
    plays,
    source_of,
    step,
    turn_of,
)

TEAMS = ((0, 2), (1, 3))
SLOTS = 3


@dataclass(frozen=True)
class LadderVariant(VariantBase):
    game_name = "ladder"
    first_player: int | str = setting(
        0, bounds=(0, 3), choices=("random",), help="seat that starts"
    )
    action_last_card: str = setting(
        "forbid_empty_hand",
        choices=("forbid_empty_hand", "forbid_final_only"),
        help="action cards may not empty the hand, or only not be the very last card",
    )
    burn_on_2_3: bool = setting(False, help="a 2 or 3 clears the pile")
    target_wins: int = setting(1, bounds=(1, 10), help="games a team needs to win the match")
    max_turns: int = setting(600, bounds=(100, 5000), help="turns before a game is a draw")


class LadderState(MatchState):
    variant: LadderVariant
    clone_plan: ClassVar[ClonePlan] = {
        **MatchState.clone_plan,
        "hands": copy_rows,
        "shown": copy_rows,
        "hidden": copy_rows,
        "pile": list,
        "burned": list,
        "requirement": share,  # frozen
        "table": Table.copy,
        "turns": share,
        "results": list,
        "starter": share,
    }

    def __init__(self, game: Game, variant: LadderVariant, seed: int | None) -> None:
        super().__init__(game, variant, seed)
        self.scores = [0, 0]
        self.hands: list[list[Card]] = [[] for _ in range(4)]
        self.shown: list[list[Card]] = [[] for _ in range(4)]
        self.hidden: list[list[Card | None]] = [[] for _ in range(4)]
        self.pile: list[Card] = []
        self.burned: list[Card] = []
        self.requirement = ANY
        self.turns = 0
        self.results: list[int | None] = []  # winning team per game, None = draw
        self.starter = 0
        #: the game on rank counts that the rules decide with (``table.py``);
        #: the card lists above are the truth it is made from (``resync``)
        self.table = Table()

    # -- dealing -------------------------------------------------------------------
    def _deal(self, deal: dict[str, list[list[Card]]] | None = None) -> None:
        if deal is None:
            deck = standard_deck()
            shuffle(deck, self.rng)
            deal = {
                "hidden": [deck[13 * s : 13 * s + 3] for s in range(4)],
                "shown": [deck[13 * s + 3 : 13 * s + 6] for s in range(4)],
                "hands": [deck[13 * s + 6 : 13 * s + 13] for s in range(4)],
            }
        self.hands = [list(h) for h in deal["hands"]]
        self.shown = [list(h) for h in deal["shown"]]
        self.hidden = [list[Card | None](h) for h in deal["hidden"]]
        self.pile = []
        self.burned = []
        self.requirement = ANY
        self.turns = 0
        fp = self.variant.first_player
        self.starter = self.rng.randrange(4) if fp == "random" else int(fp)
        self.phase = PHASE_PLAY
        self.to_act = self.starter
        self.resync()

    def resync(self) -> None:
        """Make the count table (``self.table``) from the cards, the
        requirement, the seat to act and the turn count: after a deal, and
        after anything that sets the card lists directly (positions, worlds)."""
        t = Table(self.variant.action_last_card == "forbid_empty_hand", self.variant.burn_on_2_3)
        t.set_hands([[c.rank for c in h] for h in self.hands])
        for seat in range(4):
            for c in self.shown[seat]:
                t.shown[seat][c.rank] += 1
            t.shown_n[seat] = len(self.shown[seat])
            t.hidden[seat] = [0 if c is None else c.rank for c in self.hidden[seat]]
            t.hidden_n[seat] = sum(c is not None for c in self.hidden[seat])
        t.pile = [c.rank for c in self.pile]
        t.req = self.requirement.code
        t.to_act = self.to_act if self.to_act is not None else 0
        t.turns = self.turns
        t.max_turns = self.variant.max_turns
        self.table = t

    # -- sources ----------------------------------------------------------------------
    def source(self, seat: int) -> str:
        """``table.source``: "hand", "shown" or "hidden"."""
        return SOURCE_NAMES[source_of(self.table, seat)]

    def cards_left(self, seat: int) -> int:
        return self.table.cards_left(seat)

    # -- legality -----------------------------------------------------------------------
    def _legal(self) -> list[Action]:
        """``table.plays`` (or ``hidden_slots``) as actions: every
        combination of the allowed number of cards of each allowed rank."""
        seat = self.to_act
        assert seat is not None
        t = self.table
        src = source_of(t, seat)
        if src == HIDDEN:
            return [hidden(i + 1) for i in hidden_slots(t, seat)]
        cards = self.hands[seat] if src == HAND else self.shown[seat]
        actions: list[Action] = []
        for rank, most in plays(t, seat).items():
            same = [c for c in cards if c.rank == rank]
            for k in range(1, most + 1):
                actions.extend(map(play_of, combinations(same, k)))
        return actions or [PICKUP]

    def _explain(self, action: Action) -> IllegalAction:
        seat = cast(int, self.to_act)
        src = self.source(seat)
        if action.verb == "pickup":
            return IllegalAction("you have a legal play, so you must make one", "must_play")
        if action.verb == "hidden":
            if src != "hidden":
                return IllegalAction(
                    f"play from your {src} cards first", "wrong_source", {"source": src}
                )
            return IllegalAction(
                f"there is no hidden card in slot {action.number}",
                "no_such_hidden",
                {"number": action.number},
            )
        if action.verb != "play":
            return self._wrong_phase(action)
        if src == "hidden":
            return IllegalAction(
                "your hidden cards are played blind: 'hidden 1'",
                "wrong_source",
                {"source": src},
            )
        if len({c.rank for c in action.cards}) > 1:
            return IllegalAction("a play is cards of one rank only", "mixed_ranks")
        own = self.hands[seat] if src == "hand" else self.shown[seat]
        other = self.shown[seat] if src == "hand" else self.hands[seat]
        if any(c in other for c in action.cards) and all(c in own + other for c in action.cards):
            return IllegalAction(
                f"play from your {src} cards; sources are never mixed",
                "mixed_sources",
                {"source": src},
            )
        if not all(c in own for c in action.cards):
            return IllegalAction(
                f"those cards are not in your {src}",
                "not_in_hand",
                {"cards": " ".join(str(c) for c in action.cards), "source": src},
            )
        rank = action.cards[0].rank
        if not self.requirement.allows(rank):
            return IllegalAction(
                f"{action} is blocked: {self.requirement} — {self.requirement.describe()}",
                "blocked_by_requirement",
                {
                    "cards": " ".join(str(c) for c in action.cards),
                    "requirement": str(self.requirement),
                },
            )
        return IllegalAction(
            "an action card (2, 3, 9, T) may not be your last card"
            + (
                " or empty your hand"
                if self.variant.action_last_card == "forbid_empty_hand"
                else ""
            ),
            "action_last_card",
            {"cards": " ".join(str(c) for c in action.cards)},
        )

    # -- applying -------------------------------------------------------------------------
    def _apply(self, action: Action) -> list[Event]:
        """``table.step`` decides the turn; the cards follow its flags."""
        seat = self.to_act
        assert seat is not None
        t = self.table
        t.turns = self.turns  # the state's own count and seat are the truth
        t.to_act = seat
        if action.verb == "pickup":
            events = [Event("pickup", seat, {"cards": len(self.pile)})]
            step(t, None)
            self.hands[seat].extend(self.pile)
            self.pile = []
        elif action.verb == "hidden":
            slot = cast(int, action.number) - 1
            card = cast(Card, self.hidden[seat][slot])
            self.hidden[seat][slot] = None
            t.hidden[seat][slot] = card.rank
            events = [Event("hidden_revealed", seat, {"card": str(card), "slot": slot + 1})]
            flags = step(t, slot, self._redistribute)
            if flags & PICKED_UP:
                self.hands[seat].extend([*self.pile, card])
                self.pile = []
                events.append(Event("pickup", seat, {"cards": len(self.hands[seat])}))
            else:
                events.append(Event("played", seat, {"cards": [str(card)], "source": "hidden"}))
                events += self._effect(seat, [card], flags)
        else:
            src = self.source(seat)
            holder = self.hands[seat] if src == "hand" else self.shown[seat]
            for card in action.cards:
                holder.remove(card)
            events = [
                Event("played", seat, {"cards": [str(c) for c in action.cards], "source": src})
            ]
            flags = step(t, turn_of(action), self._redistribute)
            events += self._effect(seat, list(action.cards), flags)
        self.turns = t.turns
        self.requirement = OF_CODE[t.req]
        self.to_act = t.to_act
        if t.result is None:
            return events
        if t.result < 0:
            return events + self._end_game(None, None)
        return events + self._end_game(t.result, t.winner)

    def _effect(self, seat: int, cards: list[Card], flags: int) -> list[Event]:
        """The cards of a play to the pile, and the events of its effect."""
        self.pile.extend(cards)
        events: list[Event] = []
        if flags & BURNED:
            self.burned.extend(self.pile)
            self.pile = []
            events.append(Event("burned", seat))
        if flags & SKIPPED:
            events.append(Event("skip", (seat + 1) % 4))
        if flags & REDEALT:
            events.append(Event("redistributed", seat, {"counts": [len(h) for h in self.hands]}))
        return events

    def _redistribute(self, seat: int) -> None:
        """``step``'s deal hook for a T: every hand pooled and shuffled with
        the match RNG, dealt by ``deal_round`` (table cards stay)."""
        pool = [c for h in self.hands for c in h]
        shuffle(pool, self.rng)
        self.hands = deal_round(pool, seat)
        self.table.set_hands([[c.rank for c in h] for h in self.hands])

    def _end_game(self, team: int | None, seat: int | None) -> list[Event]:
        self.results.append(team)
        if team is not None:
            self.scores[team] += 1
        events = [Event("game_over", seat, {"team": team, "game": self.round_number})]
        cap = 2 * self.variant.target_wins + 1
        if max(self.scores) >= self.variant.target_wins or len(self.results) >= cap:
            self.phase = PHASE_OVER
            self.to_act = None
            events.append(Event("match_over", None, {"wins": list(self.scores)}))
            return events
        self.round_number += 1
        self._deal()
        return events

    # -- cards and views ------------------------------------------------------------------
    def full_deck(self) -> list[Card]:
        return standard_deck()

    def card_inventory(self) -> list[Card]:
        cards = [c for h in self.hands for c in h] + [c for s in self.shown for c in s]
        cards += [c for h in self.hidden for c in h if c is not None]
        return cards + self.pile + self.burned

    def shuffled_unseen(self, seat: int, rng: random.Random) -> LadderState:
        """Other hands and every hidden card (the seat's own included) are unseen."""
        state = cast(LadderState, self.clone())
        others = [s for s in range(4) if s != seat]
        pool = [c for s in others for c in state.hands[s]]
        pool += [c for h in state.hidden for c in h if c is not None]
        rng.shuffle(pool)
        for s in others:
            n = len(state.hands[s])
            state.hands[s], pool = pool[:n], pool[n:]
        for s in range(4):
            for i, c in enumerate(state.hidden[s]):
                if c is not None:
                    state.hidden[s][i] = pool.pop()
        state.resync()
        return state

    def view(self, seat: int | None) -> Observation:
        self.check_seat(seat)
        mine = seat is not None and seat == self.to_act
        return Observation(
            game=self.game.name,
            seat=seat,
            num_seats=4,
            phase=self.phase.value,
            round_number=self.round_number,
            is_over=self.is_over,
            to_act=self.to_act,
            decider=self.to_act,
            hand=tuple(self.hands[seat]) if seat is not None else (),
            legal_actions=tuple(self.legal_actions()) if mine else (),
            hand_counts=tuple(len(h) for h in self.hands),
            shown=tuple(tuple(s) for s in self.shown),
            hidden=tuple(sum(c is not None for c in h) for h in self.hidden),
            pile=tuple(self.pile),
            pile_size=len(self.pile),
            requirement=str(self.requirement),
            scores=tuple(self.scores),
            score_unit="wins",
            teams=TEAMS,
            ranking=self._ranking(),
            extra={
                "hidden_slots": tuple(tuple(c is not None for c in h) for h in self.hidden),
                "turns": self.turns,
                "max_turns": self.variant.max_turns,
                "burned": len(self.burned),
                "results": tuple(self.results),
                "source": self.source(seat) if seat is not None else None,
            },
        )

    def _ranking(self) -> tuple[int, ...]:
        if not self.is_over:
            return ()
        a, b = self.scores
        return (1, 1) if a == b else ((1, 2) if a > b else (2, 1))


class Ladder(Game):
    name = "ladder"
    title = "Ladder"
    summary = (
        "A partnership climbing game: shed your hand, then your three shown table cards, then "
        "three hidden ones played blind. Play equal or higher; 2 resets, 3 skips to your "
        "partner, 9 caps the next play at 9, T reshuffles every hand. First out wins for the team."
    )
    Variant = LadderVariant
    verbs = frozenset({"play", "pickup", "hidden"})
    max_play_cards = 4
    partnership = True
    rules_lines = (
        "Play one rank (one or more copies) from your hand, then shown cards, then hidden blind.",
        "After an ordinary card or T of value v: v or higher, or an action card (2 3 9 T).",
        "After a 9: only 2..9. After a 2 or 3 or a pickup: anything.",
        "2: fresh start. 3: skip to your partner. T: all hands pooled and redealt.",
        "No legal play: pick up the pile. Your last card may not be an action card.",
    )

    def conformance_variants(self) -> list[VariantBase]:
        return [
            LadderVariant(),
            LadderVariant(
                first_player="random",
                action_last_card="forbid_final_only",
                burn_on_2_3=True,
                target_wins=2,
                max_turns=300,
            ),
        ]

    def new_match(
        self, seed: int | None = None, variant: VariantBase | None = None, deal: Any = None
    ) -> LadderState:
        state = LadderState(self, cast(LadderVariant, self.check_variant(variant)), seed)
        if deal is None:
            state._deal()
            return state
        if not isinstance(deal, Mapping) or set(deal) != {"hands", "shown", "hidden"}:
            raise InvalidPosition(["a Ladder deal is a dict of 'hands', 'shown' and 'hidden'"])
        parsed: dict[str, list[list[Card]]] = {}
        problems: list[str] = []
        for key, size in (("hands", 7), ("shown", 3), ("hidden", 3)):
            rows = check_rows(deal[key], key)
            if len(rows) != 4:
                problems.append(f"{key}: expected 4 rows")
                continue
            try:
                parsed[key] = [parse_cards(r) for r in rows]
            except ValueError as exc:
                problems.append(f"{key}: {exc}")
                continue
            problems += [
                f"{key}: {c} is not in a 52-card deck" for r in parsed[key] for c in r if c.is_joker
            ]
            problems += [
                f"{key} of seat {s}: {len(r)} cards, expected {size}"
                for s, r in enumerate(parsed[key])
                if len(r) != size
            ]
        every = [c for rows in parsed.values() for r in rows for c in r]
        if len(every) != len(set(every)):
            problems.append("a card is dealt twice")
        if problems:
            raise InvalidPosition(problems)
        state.initial_deal = {k: hands_to_text(rows) for k, rows in parsed.items()}
        state._deal(parsed)
        return state

    def position(
        self,
        hands: dict[int, Any] | None = None,
        trick: list[tuple[int, Any]] | None = None,
        to_act: int | None = None,
        trump: str | None = None,
        variant: VariantBase | None = None,
        **facts: Any,
    ) -> LadderState:
        state = LadderState(self, cast(LadderVariant, self.check_variant(variant)), 0)
        problems: list[str] = []
        if trick or trump:
            problems.append("Ladder has no tricks and no trump")
        shown = facts.pop("shown", {})
        hidden_counts = facts.pop("hidden", {})
        pile = facts.pop("pile", [])
        req = facts.pop("requirement", "ANY")
        if facts:
            problems += [f"unknown position fact {k!r}" for k in facts]
        try:
            state.requirement = Requirement.parse(str(req))
        except ValueError as exc:
            problems.append(str(exc))
        try:
            for seat, cards in (hands or {}).items():
                state.hands[int(seat)] = parse_cards(
                    cards if isinstance(cards, str) else [str(c) for c in cards]
                )
            for seat, cards in shown.items():
                state.shown[int(seat)] = parse_cards(
                    cards if isinstance(cards, str) else [str(c) for c in cards]
                )
            state.pile = parse_cards(pile if isinstance(pile, str) else [str(c) for c in pile])
        except (ValueError, IndexError) as exc:
            problems.append(str(exc))
        used = (
            [c for h in state.hands for c in h] + [c for s in state.shown for c in s] + state.pile
        )
        if len(used) != len(set(used)):
            problems.append("a card appears twice")
        if problems:
            raise InvalidPosition(problems)
        spare = [c for c in standard_deck() if c not in set(used)]
        for seat in range(4):
            if hands is None or seat not in hands:
                state.hands[seat], spare = spare[:3], spare[3:]
            count = int(hidden_counts.get(seat, 0))
            if count > SLOTS or count > len(spare):
                raise InvalidPosition([f"seat {seat}: at most {SLOTS} hidden cards"])
            state.hidden[seat] = [*spare[:count], *([None] * (SLOTS - count))]
            spare = spare[count:]
        state.burned = spare  # out of play in this position
        state.phase = PHASE_PLAY
        state.to_act = 0 if to_act is None else int(to_act)
        state.resync()
        return state


LADDER = Ladder()
GAMES.register(LADDER, aliases=("climbing",))
