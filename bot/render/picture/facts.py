"""What the table picture says, as plain strings from the spectator view.

Kept apart from the drawing so that the wording (suit symbols in contracts,
Callbreak's tenths as decimals, the auction's last word per seat) is easy to
read and to test without looking at pixels.  The words are in the current
language (``bot.i18n``: the server's, set by the presenter); suits stay
symbols.
"""

from __future__ import annotations

from bot.i18n import t, tn, tp
from bot.i18n.terms import bid_word
from engine import Observation
from engine.core.cards import SUIT_SYMBOLS

SUIT_WORDS = {**SUIT_SYMBOLS, "NT": "NT"}
#: team colours: the stripe on a seat box matches its team's score chip
TEAM_COLOURS = ((92, 160, 255), (255, 138, 76))


def suit_text(token: str) -> str:
    """``H`` -> ``♥``; ``NT`` and the auction's words in the language."""
    if token == "NT":
        # i18n: no trump, abbreviated (the picture's trump chip and contracts)
        return tp("picture", "NT")
    if token in SUIT_WORDS:
        return SUIT_WORDS[token]
    return bid_word(token) if token in ("contra", "recontra", "capot", "pass") else token


def contract_text(contract: str) -> str:
    """``"13 C"`` -> ``"13 ♣"``, ``"80 S capot recontra"`` -> ``"80 ♠ capot recontra"``."""
    return " ".join(suit_text(word) for word in contract.split())


def score_text(value: int, unit: str) -> str:
    """Callbreak keeps tenths of a point; others count whole points or wins."""
    if unit == "tenths":
        return f"{value / 10:.1f}"
    if unit == "wins":
        return tn("{n} win", "{n} wins", value)
    return str(value)


def ordinal(rank: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(rank if rank < 20 else rank % 10, "th")
    return f"{rank}{suffix}"


def place_text(rank: int) -> str:
    """``2nd place`` (English picks the suffix; other languages their own form)."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(rank if rank < 20 else rank % 10, "th")
    # i18n: a final place on the picture; the four forms differ only in English
    # (1st, 2nd, 3rd, 4th): translate all four the same way, e.g. "{n}. sıra"
    forms = {
        "st": tp("place", "{n}st place", n=rank),
        "nd": tp("place", "{n}nd place", n=rank),
        "rd": tp("place", "{n}rd place", n=rank),
        "th": tp("place", "{n}th place", n=rank),
    }
    return forms[suffix]


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
            # i18n: Backalley's bid of every trick, as the picture shouts it
            return t("Backalley!")
        return t("Bid {bid}", bid=" ".join(suit_text(w) for w in rest))
    word = bid_word(text) if text in ("pass", "contra", "recontra") else text
    return word[:1].upper() + word[1:]


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
        return t("Bid {bid}", bid=view.bids[seat])
    return ""


def seat_stats(view: Observation, seat: int) -> str:
    """Second line of a seat box: bid and tricks won, or Ladder's hand."""
    parts = []
    bid = bid_text(view, seat)
    if bid:
        parts.append(bid)
    if view.tricks_won and view.phase in ("play", "over") and view.requirement is None:
        parts.append(t("Won {n}", n=view.tricks_won[seat]))
    if view.requirement is not None and seat < len(view.hidden):
        parts.append(tn("{n} face down", "{n} face down", view.hidden[seat]))
    return " · ".join(parts)


def seat_role(view: Observation, seat: int) -> str:
    if view.declarer == seat and view.contract is not None:
        return t("Declarer")
    if view.dummy_seat == seat and view.dummy is not None:
        return t("Dummy")
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
        text = t("Game {number}", number=view.round_number)
        return text + (" · " + t("turn {n}", n=turns) if turns else "")
    deals = view.extra.get("deals")
    if deals:
        text = t("Deal {number} of {deals}", number=view.round_number, deals=deals)
    else:
        text = t("Deal {number}", number=view.round_number)
    if view.phase == "play" and view.tricks_won:
        text += " · " + t("trick {n}", n=sum(view.tricks_won) + 1)
    return text


def phase_text(view: Observation) -> str:
    if view.is_over:
        return t("Match over")
    if view.phase in ("auction", "bidding"):
        return t("Bidding")
    if view.phase == "trump":
        return t("Naming trump")
    return ""
