"""``state.view(seat)`` never shows a card the seat may not see (DESIGN.md,
"Hidden information"), checked card by card over random matches of every game.

Every card anywhere in a view is collected -- fields, nested tuples, legal
actions, the ``extra`` mapping, and card names inside texts -- and compared
with the cards the rules keep from that seat right now: the other players'
hands (except Batak's dummy once shown and Blot's shown declarations), the
undealt stock (Backalley), and every hidden table card (Ladder: unknown to
its owner too).  ``last_deal`` is left out of the walk: it is the finished
deal, every card of which was played in public."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any

import pytest

from engine import GAMES, Action, Card, MatchState, get_game
from engine.core.cards import CARD_TEXT

TEXT_TO_CARD = {text: card for card, text in CARD_TEXT.items()}
CASES = [
    (name, index, variant)
    for name in GAMES
    for index, variant in enumerate(get_game(name).conformance_variants())
]
IDS = [f"{name}-v{index}" for name, index, _ in CASES]


def cards_in(value: Any) -> set[Card]:
    """Every card a value shows, however deeply nested, texts included."""
    if type(value) is Card:
        return {value}
    if isinstance(value, str):
        return {TEXT_TO_CARD[w] for w in value.replace(",", " ").split() if w in TEXT_TO_CARD}
    if isinstance(value, Action):
        return set(value.cards)
    found: set[Card] = set()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            if field.name != "last_deal":
                found |= cards_in(getattr(value, field.name))
    elif isinstance(value, Mapping):
        for key, item in value.items():
            found |= cards_in(key) | cards_in(item)
    elif isinstance(value, tuple | list | set | frozenset):
        for item in value:
            found |= cards_in(item)
    return found


def hidden_from(state: Any, seat: int | None) -> set[Card]:
    """The cards the rules keep from ``seat`` (None: a spectator) now."""
    name = state.game.name
    others = [s for s in range(state.num_seats) if s != seat]
    if name == "batak" and state.dummy_revealed:
        others = [s for s in others if s != state.dummy]
    hidden = {c for s in others for c in state.hands[s]}
    if name == "blot":
        hidden -= {c for d in state.declared for c in d.cards}
    if name == "backalley":
        hidden |= set(state.stock)
    if name == "ladder":
        hidden |= {c for row in state.hidden for c in row if c is not None}
    return hidden


def random_states(name: str, variant: Any, seed: int, every: int):
    state = get_game(name).new_match(seed=seed, variant=variant)
    rng = random.Random(seed)
    step = 0
    while not state.is_over and step < 800:
        if step % every == 0:
            yield state
        state.apply(rng.choice(state.legal_actions()))
        step += 1
    yield state


@pytest.mark.parametrize(("name", "index", "variant"), CASES, ids=IDS)
def test_no_view_shows_a_card_hidden_from_its_seat(name, index, variant):
    checked = shown_own = 0
    for state in random_states(name, variant, seed=31 + index, every=3):
        seats: list[int | None] = [*range(state.num_seats), None]
        for seat in seats:
            view = state.view(seat)
            seen = cards_in(view)
            leaked = seen & hidden_from(state, seat)
            assert not leaked, f"seat {seat} sees {sorted(map(str, leaked))} in phase {view.phase}"
            checked += 1
            shown_own += seat is not None and bool(set(view.hand) & seen)
    assert checked >= 20 and shown_own, "the walk must find cards for the test to mean anything"


def test_the_walk_finds_a_card_wherever_it_is_put():
    state: MatchState = get_game("callbreak").new_match(seed=1)
    card = state.hands[2][0]  # type: ignore[attr-defined]
    view = state.view(0)
    assert card not in cards_in(view)
    for planted in (
        dataclasses.replace(view, hand=(*view.hand, card)),
        dataclasses.replace(view, extra={"note": f"seat 2 holds {card}"}),
        dataclasses.replace(view, legal_actions=(Action("play", (card,)),)),
        dataclasses.replace(view, trick=((2, card),)),
    ):
        assert card in cards_in(planted)
