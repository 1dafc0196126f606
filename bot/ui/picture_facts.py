"""What the table picture says, as plain strings from the spectator view.

Kept apart from the drawing so that the wording (suit symbols in contracts,
Callbreak's tenths as decimals, the auction's last word per seat) is easy to
read and to test without looking at pixels.
"""

from __future__ import annotations

from engine import Observation
from engine.core.cards import SUIT_SYMBOLS

SUIT_WORDS = {**SUIT_SYMBOLS, "NT": "NT"}
#: team colours: the stripe on a seat box matches its team's score chip
TEAM_COLOURS = ((92, 160, 255), (255, 138, 76))


def suit_text(token: str) -> str:
    """``H`` -> ``♥``; other words unchanged."""
    return SUIT_WORDS.get(token, token)


def contract_text(contract: str) -> str:
    """``"13 C"`` -> ``"13 ♣"``, ``"80 S capot recontra"`` -> ``"80 ♠ capot recontra"``."""
    return " ".join(suit_text(word) for word in contract.split())


def score_text(value: int, unit: str) -> str:
    """Callbreak keeps tenths of a point; others count whole points or wins."""
    if unit == "tenths":
        return f"{value / 10:.1f}"
    if unit == "wins":
        return f"{value} win" + ("" if value == 1 else "s")
    return str(value)


def ordinal(rank: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(rank if rank < 20 else rank % 10, "th")
    return f"{rank}{suffix}"


def team_of(view: Observation, seat: int) -> int | None:
    for index, members in enumerate(view.teams):
        if seat in members:
            return index
    return None


def _auction_word(text: str) -> str:
    words = text.split()
    if not words:
        return ""
    if words[0] == "bid":
        rest = words[1:]
        if rest == ["backalley"]:
            return "Backalley!"
        return "Bid " + " ".join(suit_text(w) for w in rest)
    return text.capitalize()


def bid_text(view: Observation, seat: int) -> str:
    """The seat's word on the auction: its last call while bidding; once a
    contract is set only the declarer's counts (shown as its role), while
    Callbreak and Backalley keep each seat's bid all deal."""
    if view.contract is not None:
        return ""
    last = [text for s, text in view.auction if s == seat]
    if last:
        return _auction_word(last[-1])
    if seat < len(view.bids) and view.bids[seat] is not None:
        return f"Bid {view.bids[seat]}"
    return ""


def seat_stats(view: Observation, seat: int) -> str:
    """Second line of a seat box: bid and tricks won, or Ladder's hand."""
    parts = []
    bid = bid_text(view, seat)
    if bid:
        parts.append(bid)
    if view.tricks_won and view.phase in ("play", "over") and view.requirement is None:
        parts.append(f"Won {view.tricks_won[seat]}")
    if view.requirement is not None and seat < len(view.hidden):
        parts.append(f"{view.hidden[seat]} face down")
    return " · ".join(parts)


def seat_role(view: Observation, seat: int) -> str:
    if view.declarer == seat and view.contract is not None:
        return "Declarer"
    if view.dummy_seat == seat and view.dummy is not None:
        return "Dummy"
    return ""


def seat_rank(view: Observation, seat: int) -> int | None:
    """Final place of the seat (its team's place in partnership games)."""
    if not view.is_over or not view.ranking:
        return None
    index = team_of(view, seat) if view.teams else seat
    if index is None or index >= len(view.ranking):
        return None
    return view.ranking[index]


def deal_text(view: Observation) -> str:
    """``Deal 3``, ``Deal 4 of 13 · trick 2``, Ladder's ``Game 1 · turn 40``."""
    if view.requirement is not None:
        turns = view.extra.get("turns")
        return f"Game {view.round_number}" + (f" · turn {turns}" if turns else "")
    deals = view.extra.get("deals")
    text = f"Deal {view.round_number}" + (f" of {deals}" if deals else "")
    if view.phase == "play" and view.tricks_won:
        text += f" · trick {sum(view.tricks_won) + 1}"
    return text


def phase_text(view: Observation) -> str:
    if view.is_over:
        return "Match over"
    if view.phase in ("auction", "bidding"):
        return "Bidding"
    if view.phase == "trump":
        return "Naming trump"
    return ""
