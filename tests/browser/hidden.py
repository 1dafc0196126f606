"""Hidden information over the wire: every ``state`` frame a browser got is
checked against the true hands at that move (the match replayed from its
log): no frame names a card that the frame's seat may not see -- another
seat's hand, less what the rules show it (the trick, the played cards,
Batak's dummy once revealed, Blot's declarations; ``Observation.visible_cards``).

Skipped on purpose: ``view.last_deal``, the finished previous deal, public
by the rules, whose cards come from the same deck as the hands now in play
(Blot's 32 cards), so a token match there would be no leak.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

_CARD = re.compile(r"^(?:10|[2-9TJQKA])[SHDC]$|^[RB]J$")
_SYMBOL = re.compile(r"^(10|[2-9TJQKA])([♠♥♦♣])$")
_SUIT_OF_SYMBOL = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_PUBLIC_RECORDS = ("last_deal",)


def _canonical(token: str) -> str | None:
    if _CARD.match(token):
        return "T" + token[2] if token.startswith("10") else token
    m = _SYMBOL.match(token)
    if m:
        rank = "T" if m.group(1) == "10" else m.group(1)
        return rank + _SUIT_OF_SYMBOL[m.group(2)]
    return None


def card_tokens(value: Any) -> set[str]:
    """Every card named anywhere in a JSON value, as engine text ("TH", "AS")."""
    found: set[str] = set()
    if isinstance(value, str):
        for token in value.replace(",", " ").split():
            card = _canonical(token)
            if card:
                found.add(card)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in _PUBLIC_RECORDS:
                found |= card_tokens(item)
    elif isinstance(value, list):
        for item in value:
            found |= card_tokens(item)
    return found


def unseen_cards(state: Any, seat: int | None) -> set[str]:
    """The cards in other seats' hands, and Ladder's hidden cards (the seat's
    own included: they are played blind), that ``seat``'s view does not show."""
    view = state.view(seat)
    visible = {str(c) for c in view.visible_cards()}
    others: set[str] = set()
    for other in range(view.num_seats):
        if other != seat:
            others |= {str(c) for c in state.view(other).hand}
    for row in getattr(state, "hidden", None) or ():
        others |= {str(c) for c in row if c is not None}
    return others - visible


def check_frames(
    frames: Iterable[dict[str, Any]],
    table_id: int,
    state_at: Callable[[int], Any],
    seat: int | None,
) -> int:
    """Assert no state frame of ``table_id`` leaks a card; the number checked."""
    checked = 0
    for frame in frames:
        if frame.get("type") != "state" or frame.get("table") != table_id:
            continue
        assert frame["seat"] == seat, f"a frame for seat {frame['seat']} reached seat {seat}"
        if frame.get("view") is None:
            continue
        state = state_at(frame["seq"])
        leaked = card_tokens(frame) & unseen_cards(state, seat)
        assert not leaked, f"seat {seat} was sent {sorted(leaked)} at move {frame['seq']}"
        checked += 1
    return checked
