"""Plain-text table rendering for the terminal (and text fallbacks elsewhere).

Pure functions of an ``Observation`` (one seat's view, or the spectator's) and
the seat names: nothing here can show a card the view does not hold.  One
renderer serves every game; each block appears only when the view has it
(the Batak dummy, Blot declarations, Ladder's table cards, Backalley's
turned card...).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from engine import Action, Card, Event, Observation
from engine.core.cards import SUIT_NAMES, SUIT_SYMBOLS, pretty, sort_hand

RULE = "-" * 60


def fmt_score(value: int, unit: str) -> str:
    if unit == "tenths":
        sign = "-" if value < 0 else ""
        whole, frac = divmod(abs(value), 10)
        return f"{sign}{whole}.{frac}"
    return str(value)


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(pretty(c) for c in cards) if cards else "-"


def trump_text(view: Observation) -> str:
    if view.trump is None:
        return "no trump" if view.phase == "play" else "not named yet"
    symbol = SUIT_SYMBOLS.get(view.trump, "")
    return f"{symbol} {SUIT_NAMES.get(view.trump, view.trump)}".strip()


def legal_cards(view: Observation) -> set[Card]:
    return {c for a in view.legal_actions if a.verb == "play" for c in a.cards}


def hand_lines(cards: Sequence[Card], legal: set[Card], by_rank: bool = False) -> list[str]:
    """The hand sorted by suit (or by rank for Ladder, where suits never
    matter), legal cards marked with brackets.  Long hands stay one line per
    group, so 30+ cards remain readable."""

    def mark(card: Card) -> str:
        return f"[{pretty(card)}]" if card in legal else f" {pretty(card)} "

    if not cards:
        return ["  (no cards)"]
    if by_rank:
        ordered = sorted(cards, key=lambda c: (c.rank, c.suit))
        groups = [list(g) for _, g in groupby(ordered, key=lambda c: c.rank)]
        line, lines = "", []
        for group in groups:
            chunk = "".join(mark(c) for c in group) + " "
            if len(line) + len(chunk) > 64:
                lines.append("  " + line.rstrip())
                line = ""
            line += chunk
        lines.append("  " + line.rstrip())
        return lines
    lines = []
    for suit, group in groupby(sort_hand(cards), key=lambda c: c.suit):
        lines.append(f"  {SUIT_SYMBOLS.get(suit, suit)}  " + "".join(mark(c) for c in group))
    return lines


def seat_label(seat: int, names: Sequence[str]) -> str:
    return names[seat] if seat < len(names) else f"Seat {seat}"


def render_table(view: Observation, names: Sequence[str], *, title: str = "") -> str:
    """The whole table as the given view sees it."""
    out: list[str] = []
    head = title or view.game.title()
    unit = "game" if view.score_unit == "wins" else "deal"
    out.append(f"=== {head} - {unit} {view.round_number} ===")
    if view.dealer is not None:
        out.append(f"Dealer: {seat_label(view.dealer, names)}")
    if view.contract is not None or view.declarer is not None:
        who = seat_label(view.declarer, names) if view.declarer is not None else "?"
        out.append(f"Contract: {view.contract or '-'} by {who}")
    climbing = view.requirement is not None
    if not climbing and (view.phase in ("play", "trump") or view.trump is not None):
        out.append(f"Trump: {trump_text(view)}")
    if view.turned is not None:
        out.append(f"Turned card: {pretty(view.turned)}   hand size: {view.hand_size}")
    if view.requirement is not None:
        out.append(f"Requirement: {view.requirement}")
    out.extend(_climbing_rows(view, names) if climbing else _seat_rows(view, names))
    if view.auction:
        tail = ", ".join(f"{seat_label(s, names)}: {t}" for s, t in view.auction[-8:])
        out.append(f"Auction: {tail}")
    if view.declarations:
        out.append("Declarations:")
        for seat, text, cards in view.declarations:
            out.append(f"  {seat_label(seat, names)}: {text} ({cards_text(cards)})")
    if view.dummy is not None and view.dummy_seat is not None:
        out.append(f"Dummy ({seat_label(view.dummy_seat, names)}), face up:")
        out.extend(hand_lines(view.dummy, legal_cards(view)))
    if view.pile_size or view.pile:
        top = cards_text(view.pile[-5:])
        out.append(f"Pile ({view.pile_size} cards), top last: {top}")
    if view.trick:
        plays = ", ".join(f"{seat_label(s, names)} {pretty(c)}" for s, c in view.trick)
        out.append(f"Trick: {plays}")
    elif view.last_trick:
        plays = ", ".join(f"{seat_label(s, names)} {pretty(c)}" for s, c in view.last_trick)
        out.append(f"Last trick: {plays}")
    if view.seat is not None and not view.is_over:
        out.append("Your hand:")
        out.extend(hand_lines(view.hand, legal_cards(view), by_rank=bool(view.shown)))
    return "\n".join(out)


def _seat_rows(view: Observation, names: Sequence[str]) -> list[str]:
    rows = ["  Seat                 Bid  Tricks  Cards"]
    for seat in range(view.num_seats):
        bid = view.bids[seat] if seat < len(view.bids) else None
        tricks = view.tricks_won[seat] if seat < len(view.tricks_won) else None
        count = view.hand_counts[seat] if seat < len(view.hand_counts) else None
        turn = "->" if seat == view.to_act else "  "
        rows.append(
            f"{turn}{seat_label(seat, names):<20} {'-' if bid is None else bid:>3}"
            f"  {'' if tricks is None else tricks:>6}  {'' if count is None else count:>5}"
        )
    rows.append("Scores: " + scores_text(view, names))
    return rows


def _climbing_rows(view: Observation, names: Sequence[str]) -> list[str]:
    """Ladder: hand counts, the shown table cards and how many hidden remain."""
    rows = ["  Seat                 Hand  Shown            Hidden"]
    for seat in range(view.num_seats):
        turn = "->" if seat == view.to_act else "  "
        shown = cards_text(view.shown[seat]) if seat < len(view.shown) else "-"
        hidden = view.hidden[seat] if seat < len(view.hidden) else 0
        who, count = seat_label(seat, names), view.hand_counts[seat]
        rows.append(f"{turn}{who:<20} {count:>4}  {shown:<16} {hidden:>6}")
    rows.append("Games won: " + scores_text(view, names))
    return rows


def scores_text(view: Observation, names: Sequence[str]) -> str:
    if view.teams:
        return ", ".join(
            f"{' & '.join(seat_label(s, names) for s in team)}: "
            f"{fmt_score(view.scores[i], view.score_unit)}"
            for i, team in enumerate(view.teams)
            if i < len(view.scores)
        )
    return ", ".join(
        f"{seat_label(s, names)}: {fmt_score(v, view.score_unit)}"
        for s, v in enumerate(view.scores)
    )


def render_ranking(view: Observation, names: Sequence[str]) -> str:
    """Final standings: shared ranks for equal totals."""
    lines = ["=== Final result ==="]
    if view.teams:
        entries = [
            (view.ranking[i], " & ".join(seat_label(s, names) for s in team), view.scores[i])
            for i, team in enumerate(view.teams)
        ]
    else:
        entries = [
            (view.ranking[s], seat_label(s, names), view.scores[s]) for s in range(view.num_seats)
        ]
    for rank, who, score in sorted(entries):
        lines.append(f"  {rank}. {who:<24} {fmt_score(score, view.score_unit)}")
    return "\n".join(lines)


def render_deal_summary(view: Observation, names: Sequence[str]) -> str:
    """The finished deal: every hand (now public), tricks and scores."""
    record = view.last_deal
    if record is None:
        return ""
    lines = [RULE, f"Deal {record.number} is over."]
    if record.contract:
        who = seat_label(record.declarer, names) if record.declarer is not None else "?"
        lines.append(f"Contract: {record.contract} by {who}")
    for seat, hand in enumerate(record.hands):
        bid = record.bids[seat] if seat < len(record.bids) else None
        bid = "-" if bid is None else bid
        won = record.tricks_won[seat] if seat < len(record.tricks_won) else ""
        who = seat_label(seat, names)
        lines.append(f"  {who:<20} bid {bid!s:>3} took {won!s:>2}: {cards_text(sort_hand(hand))}")
    deal = ", ".join(fmt_score(v, view.score_unit) for v in record.scores)
    lines.append(f"Deal scores: {deal}")
    lines.append("Totals: " + scores_text(view, names))
    lines.append(RULE)
    return "\n".join(lines)


def options_text(legal: Sequence[Action]) -> str:
    """The non-card choices in a compact line: 'bid 1-8', 'pass, bid 8 H ...'."""
    choices = [a for a in legal if a.verb != "play"]
    if not choices:
        return ""
    numbers = [
        a.number for a in choices if a.verb == "bid" and a.word is None and a.number is not None
    ]
    if len(numbers) == len(choices) and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"bid {numbers[0]}-{numbers[-1]}" if len(numbers) > 1 else f"bid {numbers[0]}"
    texts = [str(a) for a in choices]
    more = f" ... ({len(texts)} choices, '?' lists all)" if len(texts) > 14 else ""
    return ", ".join(texts[:14]) + more


#: how a strain (bid or trump) reads on a label
STRAIN_WORDS = {"NT": "No trump"}


def strain_text(word: str | None) -> str:
    """``H`` -> ``♥``, ``NT`` -> ``No trump`` (jokers are never a strain)."""
    if word is None:
        return ""
    return STRAIN_WORDS.get(word) or SUIT_SYMBOLS.get(word, word)


def label_for(action: Action) -> str:
    """A label a player understands, with suit symbols, for every choice of
    every game: ``A♠``, ``Bid 5``, ``Bid 9 ♥``, ``Bid 25 ♠ capot``,
    ``Pass``, ``Contra``, ``Trump ♥``, ``Backalley``, ``Pick up the pile``,
    ``Play hidden card 2``.  Never the engine's notation (``AS``), which a
    reader cannot tell from a word."""
    verb = action.verb
    if verb == "play":
        return " ".join(pretty(c) for c in action.cards)
    if verb == "bid":
        if action.word == "backalley":
            return "Backalley"
        parts = ["Bid"]
        if action.number is not None:
            parts.append(str(action.number))
        if action.word is not None:
            parts.append(strain_text(action.word))
        if action.capot:
            parts.append("capot")
        return " ".join(parts)
    if verb == "trump":
        return f"Trump {strain_text(action.word)}"
    if verb == "pickup":
        return "Pick up the pile"
    if verb == "hidden":
        return f"Play hidden card {action.number}"
    return verb.capitalize()


def notation_text(text: str | None) -> str:
    """A contract or auction text with suit symbols: ``10 H contra`` ->
    ``10 ♥ contra``, ``bid 9 NT`` -> ``bid 9 no trump``, ``bid backalley``
    -> ``backalley``.  Only bids, contracts and passes go through here
    (never a card notation)."""
    if not text:
        return ""
    words = text.split()
    if words[0] == "bid" and len(words) > 1:
        words = words[1:]
    out = []
    for word in words:
        if word in ("S", "H", "D", "C"):
            out.append(SUIT_SYMBOLS[word])
        elif word == "NT":
            out.append("no trump")
        else:
            out.append(word)
    return " ".join(out)


def describe_action(seat: int, action: Action, names: Sequence[str]) -> str:
    who = seat_label(seat, names)
    you = who == "You"
    if action.verb == "play":
        return f"{who} {'play' if you else 'plays'} {cards_text(action.cards)}"
    if action.verb == "bid":
        return f"{who} {'bid' if you else 'bids'} {str(action)[4:]}"
    if action.verb == "trump":
        suit = SUIT_NAMES.get(action.word or "", action.word)
        return f"{who} {'name' if you else 'names'} trump: {suit}"
    if action.verb == "pass":
        return f"{who} {'pass' if you else 'passes'}"
    return f"{who}: {action}"


def describe_event(event: Event, names: Sequence[str]) -> str | None:
    """One line for the events worth narrating (cards played are narrated
    from the action itself)."""
    who = seat_label(event.seat, names) if event.seat is not None else ""
    data = event.data
    if event.kind == "trick_won":
        return f"  -> {who} wins the trick"
    if event.kind in ("declaration", "belote", "declarations_shown"):
        detail = data.get("text") or data.get("description") or ""
        return f"  * {who} announces {detail}".rstrip()
    if event.kind == "redeal":
        return "  Everyone passed: the cards are dealt again."
    if event.kind == "dummy_revealed":
        return f"  The dummy ({who}) is laid face up."
    if event.kind in ("pickup", "picked_up"):
        return f"  {who} picks up the pile"
    if event.kind in ("redistribute", "redistributed"):
        return "  The T pools and redeals every hand!"
    if event.kind == "hidden_revealed":
        return f"  {who} turns over a hidden card: {data.get('card')}"
    if event.kind == "skip":
        return f"  {who} is skipped"
    if event.kind == "game_over":
        return f"  {who} has no cards left: game over!" if event.seat is not None else "  Draw."
    return None
