"""Plain-text table rendering for the terminal (and text fallbacks elsewhere).

Pure functions of an ``Observation`` (one seat's view, or the spectator's) and
the seat names: nothing here can show a card the view does not hold.  One
renderer serves every game; each block appears only when the view has it
(the Batak dummy, Blot declarations, Ladder's table cards, Backalley's
turned card...).  Every word goes through ``bot.i18n`` (the current
language); cards, bids and suits through ``bot.i18n.terms``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from bot.i18n import t, tn
from bot.i18n.terms import (
    and_list,
    bid_word,
    card_text,
    declaration_text,
    game_title,
    requirement_text,
    suit_name,
)
from bot.i18n.terms import notation_text as _notation
from bot.render.columns import ljust, rjust, width
from engine import Action, Card, Event, Observation
from engine.core.cards import SUIT_SYMBOLS, sort_hand

#: display columns of a seat's name in the table, the summary and the result
NAME_COLUMNS = 20

RULE = "-" * 60


def fmt_score(value: int, unit: str) -> str:
    if unit == "tenths":
        sign = "-" if value < 0 else ""
        whole, frac = divmod(abs(value), 10)
        return f"{sign}{whole}.{frac}"
    return str(value)


def points_text(value: int, unit: str) -> str:
    """ "1 point", "12 points", "2.5 points" (a decimal reads as many)."""
    n = abs(value) if unit != "tenths" else 10
    return tn("{points} point", "{points} points", n, points=fmt_score(value, unit))


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(card_text(c) for c in cards) if cards else "-"


def trump_text(view: Observation) -> str:
    if view.trump is None:
        return suit_name("NT") if view.phase == "play" else t("not named yet")
    symbol = SUIT_SYMBOLS.get(view.trump, "")
    return f"{symbol} {suit_name(view.trump)}".strip()


def legal_cards(view: Observation) -> set[Card]:
    return {c for a in view.legal_actions if a.verb == "play" for c in a.cards}


def hand_lines(cards: Sequence[Card], legal: set[Card], by_rank: bool = False) -> list[str]:
    """The hand sorted by suit (or by rank for Ladder, where suits never
    matter), legal cards marked with brackets.  Long hands stay one line per
    group, so 30+ cards remain readable."""

    def mark(card: Card) -> str:
        return f"[{card_text(card)}]" if card in legal else f" {card_text(card)} "

    if not cards:
        return ["  " + t("(no cards)")]
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
    return names[seat] if seat < len(names) else t("Seat {seat}", seat=seat)


def render_table(view: Observation, names: Sequence[str], *, title: str = "") -> str:
    """The whole table as the given view sees it."""
    out: list[str] = []
    head = title or game_title(view.game, view.game.title())
    if view.score_unit == "wins":
        out.append(t("=== {title} - game {number} ===", title=head, number=view.round_number))
    else:
        out.append(t("=== {title} - deal {number} ===", title=head, number=view.round_number))
    if view.dealer is not None:
        out.append(t("Dealer: {name}", name=seat_label(view.dealer, names)))
    if view.contract is not None or view.declarer is not None:
        who = seat_label(view.declarer, names) if view.declarer is not None else "?"
        contract = _notation(view.contract) if view.contract else "-"
        out.append(t("Contract: {contract} by {name}", contract=contract, name=who))
    climbing = view.requirement is not None
    if not climbing and (view.phase in ("play", "trump") or view.trump is not None):
        out.append(t("Trump: {trump}", trump=trump_text(view)))
    if view.turned is not None:
        out.append(
            t(
                "Turned card: {card}   hand size: {size}",
                card=card_text(view.turned),
                size=view.hand_size,
            )
        )
    if view.requirement is not None:
        out.append(
            t(
                "Requirement: {requirement}",
                requirement=requirement_text(view.requirement),
            )
        )
    out.extend(_climbing_rows(view, names) if climbing else _seat_rows(view, names))
    if view.auction:
        tail = ", ".join(f"{seat_label(s, names)}: {_notation(w)}" for s, w in view.auction[-8:])
        out.append(t("Auction: {calls}", calls=tail))
    if view.declarations:
        out.append(t("Declarations:"))
        for seat, text, cards in view.declarations:
            out.append(
                f"  {seat_label(seat, names)}: {declaration_text(text)} ({cards_text(cards)})"
            )
    if view.dummy is not None and view.dummy_seat is not None:
        out.append(t("Dummy ({name}), face up:", name=seat_label(view.dummy_seat, names)))
        out.extend(hand_lines(view.dummy, legal_cards(view)))
    if view.pile_size or view.pile:
        top = cards_text(view.pile[-5:])
        out.append(
            tn(
                "Pile ({n} card), top last: {cards}",
                "Pile ({n} cards), top last: {cards}",
                view.pile_size,
                cards=top,
            )
        )
    if view.trick:
        plays = ", ".join(f"{seat_label(s, names)} {card_text(c)}" for s, c in view.trick)
        out.append(t("Trick: {plays}", plays=plays))
    elif view.last_trick:
        plays = ", ".join(f"{seat_label(s, names)} {card_text(c)}" for s, c in view.last_trick)
        out.append(t("Last trick: {plays}", plays=plays))
    if view.seat is not None and not view.is_over:
        out.append(t("Your hand:"))
        out.extend(hand_lines(view.hand, legal_cards(view), by_rank=bool(view.shown)))
    return "\n".join(out)


def _column(text: str, columns: int) -> str:
    """A heading cell: padded to ``columns`` display columns, or followed by
    one space when longer (a heading is never cut)."""
    return ljust(text, columns) if width(text) < columns else text + " "


def _seat_rows(view: Observation, names: Sequence[str]) -> list[str]:
    # i18n: column headings of the terminal's table (padded to their widths)
    head = (
        _column(t("Seat"), NAME_COLUMNS + 1)
        + rjust(t("Bid"), 3)
        + "  "
        + rjust(t("Tricks"), 6)
        + "  "
        + rjust(t("Cards"), 5)
    )
    rows = ["  " + head]
    for seat in range(view.num_seats):
        bid = view.bids[seat] if seat < len(view.bids) else None
        tricks = view.tricks_won[seat] if seat < len(view.tricks_won) else None
        count = view.hand_counts[seat] if seat < len(view.hand_counts) else None
        turn = "->" if seat == view.to_act else "  "
        rows.append(
            f"{turn}{ljust(seat_label(seat, names), NAME_COLUMNS)} "
            f"{'-' if bid is None else bid:>3}"
            f"  {'' if tricks is None else tricks:>6}  {'' if count is None else count:>5}"
        )
    rows.append(t("Scores: {scores}", scores=scores_text(view, names)))
    return rows


def _climbing_rows(view: Observation, names: Sequence[str]) -> list[str]:
    """Ladder: hand counts, the shown table cards and how many hidden remain."""
    head = (
        _column(t("Seat"), NAME_COLUMNS + 1)
        + rjust(t("Hand"), 4)
        + "  "
        + _column(t("Shown"), 17)
        + rjust(t("Hidden"), 6)
    )
    rows = ["  " + head]
    for seat in range(view.num_seats):
        turn = "->" if seat == view.to_act else "  "
        shown = cards_text(view.shown[seat]) if seat < len(view.shown) else "-"
        hidden = view.hidden[seat] if seat < len(view.hidden) else 0
        who, count = seat_label(seat, names), view.hand_counts[seat]
        rows.append(f"{turn}{ljust(who, NAME_COLUMNS)} {count:>4}  {ljust(shown, 16)} {hidden:>6}")
    rows.append(t("Games won: {scores}", scores=scores_text(view, names)))
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


def _sides(
    view: Observation, ranks: Sequence[int] | None = None
) -> list[tuple[int, list[int], int]]:
    """(rank, seats, score) of each side (a team, or a seat), best first.
    ``ranks``: the service's place of each seat (``ResultInfo.ranks``: a
    resigned seat ranks last whatever its score); else the view's ranking."""
    if view.teams:
        sides = [
            (ranks[team[0]] if ranks else view.ranking[i], list(team), view.scores[i])
            for i, team in enumerate(view.teams)
        ]
    else:
        sides = [
            (ranks[s] if ranks else view.ranking[s], [s], view.scores[s])
            for s in range(view.num_seats)
        ]
    return sorted(sides, key=lambda side: (side[0], side[1]))


def _side_name(seats: Sequence[int], names: Sequence[str]) -> str:
    return " & ".join(seat_label(s, names) for s in seats)


def winner_line(
    view: Observation,
    names: Sequence[str],
    you: int | None = None,
    ranks: Sequence[int] | None = None,
) -> str:
    """Who won, in a sentence: "You win!", "Ada & Cem win!", "Tie for first
    place: You and Bram." (the ranking is the view's: equal ranks share a place)."""
    sides = _sides(view, ranks)
    first = [seats for rank, seats, _ in sides if rank == sides[0][0]]
    if len(first) > 1:
        return t(
            "Tie for first place: {names}.",
            names=and_list(_side_name(seats, names) for seats in first),
        )
    seats = first[0]
    has_you = you in seats or any(seat_label(s, names) == t("You") for s in seats)
    if len(seats) > 1:
        partners = [seat_label(s, names) for s in seats if s != you]
        if has_you:
            return t("You and {partners} win!", partners=and_list(partners))
        return t("{names} win!", names=_side_name(seats, names))
    if has_you:
        return t("You win!")
    return t("{name} wins!", name=seat_label(seats[0], names))


def render_ranking(
    view: Observation,
    names: Sequence[str],
    you: int | None = None,
    ranks: Sequence[int] | None = None,
) -> str:
    """Final standings: who won, then each side in place order, the names
    and scores in aligned columns; equal totals share a place, marked as a
    tie.  ``ranks``: the service's places (``ResultInfo.ranks``), when known."""
    sides = _sides(view, ranks)
    places = [rank for rank, _, _ in sides]
    labels = [_side_name(seats, names) for _, seats, _ in sides]
    scores = [fmt_score(score, view.score_unit) for _, _, score in sides]
    name_columns = min(max(width(label) for label in labels), 2 * NAME_COLUMNS + 3)
    score_columns = max(width(score) for score in scores)
    lines = [t("=== Final result ==="), winner_line(view, names, you, ranks)]
    for rank, label, score in zip(places, labels, scores, strict=True):
        tied = places.count(rank) > 1
        row = f"  {rank:>2}. {ljust(label, name_columns)}  {rjust(score, score_columns)}"
        # i18n: after a score in the final result, when two sides share a place
        lines.append(row + ("  " + t("(tie)") if tied else ""))
    return "\n".join(lines)


def render_deal_summary(view: Observation, names: Sequence[str]) -> str:
    """The finished deal: each seat's bid and tricks taken, the hand it was
    dealt (now public, said as such), then the deal's scores and the totals."""
    record = view.last_deal
    if record is None:
        return ""
    lines = [RULE, t("Deal {number} is over.", number=record.number)]
    if record.contract:
        who = seat_label(record.declarer, names) if record.declarer is not None else "?"
        lines.append(
            t("Contract: {contract} by {name}", contract=_notation(record.contract), name=who)
        )
    if record.hands:
        lines.append(t("Bids, tricks taken and the hands as dealt:"))
    for seat, hand in enumerate(record.hands):
        bid = record.bids[seat] if seat < len(record.bids) else None
        bid = "-" if bid is None else bid
        won = record.tricks_won[seat] if seat < len(record.tricks_won) else ""
        who = ljust(seat_label(seat, names), NAME_COLUMNS)
        took = t("bid {bid} took {won}", bid=f"{bid!s:>3}", won=f"{won!s:>2}")
        dealt = t("dealt {cards}", cards=cards_text(sort_hand(hand)))
        lines.append(f"  {who} {took} · {dealt}")
    deal = ", ".join(fmt_score(v, view.score_unit) for v in record.scores)
    lines.append(t("Deal scores: {scores}", scores=deal))
    lines.append(t("Totals: {scores}", scores=scores_text(view, names)))
    lines.append(RULE)
    return "\n".join(lines)


def moves_text(legal: Sequence[Action], hand: Sequence[Card] = ()) -> str:
    """The legal moves as the hand shows them: cards as ``10♥`` (never the
    notation ``TH``), in the hand's order; other moves in the notation the
    player types (``bid 3``, ``pass``)."""
    order = {card: i for i, card in enumerate(sort_hand(list(hand)))}
    plays = [a for a in legal if a.verb == "play"]
    plays.sort(key=lambda a: tuple(order.get(c, len(order)) for c in a.cards))
    if not order:
        plays.sort(key=lambda a: tuple((c.suit, -c.rank) for c in a.cards))
    others = [str(a) for a in legal if a.verb != "play"]
    return ", ".join([cards_text(a.cards) for a in plays] + others)


def options_text(legal: Sequence[Action]) -> str:
    """The non-card choices in a compact line: 'bid 1-8', 'pass, bid 8 H ...'
    (in the notation the player types, which every language shares)."""
    choices = [a for a in legal if a.verb != "play"]
    if not choices:
        return ""
    numbers = [
        a.number for a in choices if a.verb == "bid" and a.word is None and a.number is not None
    ]
    if len(numbers) == len(choices) and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"bid {numbers[0]}-{numbers[-1]}" if len(numbers) > 1 else f"bid {numbers[0]}"
    texts = _strain_ranges(choices)
    more = ""
    if len(texts) > 14:
        more = " ... " + tn(
            "({n} choice, '?' lists all)", "({n} choices, '?' lists all)", len(texts)
        )
    return ", ".join(texts[:14]) + more


def _strain_ranges(choices: Sequence[Action]) -> list[str]:
    """The choices in notation, a run of levels bid in every strain said
    once: 'bid 9-80 S/H/D/C/NT', 'bid 25-80 S/H/D/C/NT capot' (Blot's
    auction, some 200 bids, in one short line)."""
    runs: dict[bool, dict[int, set[str]]] = {False: {}, True: {}}
    for a in choices:
        if a.verb == "bid" and a.word is not None and a.number is not None:
            runs[a.capot].setdefault(a.number, set()).add(a.word)
    strains = {w for levels in runs.values() for words in levels.values() for w in words}
    order = [w for w in ("S", "H", "D", "C", "NT") if w in strains]
    texts, summarised = [], set()
    for capot, levels in runs.items():
        full = sorted(n for n, words in levels.items() if words == set(order))
        if len(full) > 1 and full == list(range(full[0], full[-1] + 1)):
            tail = " capot" if capot else ""
            texts.append(f"bid {full[0]}-{full[-1]} {'/'.join(order)}{tail}")
            summarised |= {(n, capot) for n in full}
    rest = [
        str(a)
        for a in choices
        if not (a.verb == "bid" and a.word is not None and (a.number, a.capot) in summarised)
    ]
    passes = [r for r in rest if r == "pass"]
    return passes + texts + [r for r in rest if r != "pass"]


def strain_text(word: str | None) -> str:
    """``H`` -> ``♥``, ``NT`` -> ``No trump`` (jokers are never a strain)."""
    if word is None:
        return ""
    if word == "NT":
        # i18n: no-trump as a button label (Blot's bid "9 No trump")
        return t("No trump")
    return SUIT_SYMBOLS.get(word, word)


def label_for(action: Action) -> str:
    """A label a player understands, with suit symbols, for every choice of
    every game: ``A♠``, ``Bid 5``, ``Bid 9 ♥``, ``Bid 25 ♠ capot``,
    ``Pass``, ``Contra``, ``Trump ♥``, ``Backalley``, ``Pick up the pile``,
    ``Play hidden card 2``.  Never the engine's notation (``AS``), which a
    reader cannot tell from a word."""
    verb = action.verb
    if verb == "play":
        return " ".join(card_text(c) for c in action.cards)
    if verb == "bid":
        if action.word == "backalley":
            # i18n: button: Backalley's bid of every trick
            return t("Backalley")
        parts = []
        if action.number is not None:
            parts.append(str(action.number))
        if action.word is not None:
            parts.append(strain_text(action.word))
        if action.capot:
            parts.append(bid_word("capot"))
        # i18n: button: a bid, e.g. "Bid 5", "Bid 9 ♥", "Bid 25 ♠ capot"
        return t("Bid {bid}", bid=" ".join(parts)) if parts else t("Bid")
    if verb == "trump":
        # i18n: button: name this suit as trump
        return t("Trump {suit}", suit=strain_text(action.word))
    if verb == "pickup":
        return t("Pick up the pile")
    if verb == "hidden":
        return t("Play hidden card {number}", number=action.number)
    buttons = {
        # i18n: auction buttons
        "pass": t("Pass"),
        "contra": t("Contra"),
        "recontra": t("Recontra"),
    }
    return buttons.get(verb, verb.capitalize())


def notation_text(text: str | None) -> str:
    """A contract or auction text with suit symbols: ``10 H contra`` ->
    ``10 ♥ contra``, ``bid 9 NT`` -> ``9 no trump``, ``bid backalley``
    -> ``backalley``.  Only bids, contracts and passes go through here
    (never a card notation)."""
    return _notation(text)


def _is_you(seat: int | None, names: Sequence[str], you: int | None) -> bool:
    if seat is None:
        return False
    return seat == you if you is not None else seat_label(seat, names) == t("You")


def describe_action(
    seat: int,
    action: Action,
    names: Sequence[str],
    *,
    you: int | None = None,
    declarer: int | None = None,
) -> str:
    """One line for a move.  ``you``: the reader's seat (said "You play",
    never "You plays"); ``declarer``: set when ``seat`` is the dummy, whose
    cards the declarer plays ("Ada plays K♥ from the dummy")."""
    if declarer is not None and action.verb == "play":
        cards = cards_text(action.cards)
        if _is_you(declarer, names, you):
            return t("You play {cards} from the dummy", cards=cards)
        return t(
            "{name} plays {cards} from the dummy", name=seat_label(declarer, names), cards=cards
        )
    who = seat_label(seat, names)
    mine = _is_you(seat, names, you)
    if action.verb == "play":
        cards = cards_text(action.cards)
        return (
            t("You play {cards}", cards=cards)
            if mine
            else t("{name} plays {cards}", name=who, cards=cards)
        )
    if action.verb == "bid":
        bid = _notation(str(action))
        return t("You bid {bid}", bid=bid) if mine else t("{name} bids {bid}", name=who, bid=bid)
    if action.verb == "trump":
        suit = suit_name(action.word)
        return (
            t("You name trump: {suit}", suit=suit)
            if mine
            else t("{name} names trump: {suit}", name=who, suit=suit)
        )
    if action.verb == "pass":
        return t("You pass") if mine else t("{name} passes", name=who)
    if action.verb in ("contra", "recontra"):
        word = bid_word(action.verb)
        return (
            t("You say {word}", word=word) if mine else t("{name} says {word}", name=who, word=word)
        )
    if action.verb == "pickup":
        return t("You pick up the pile") if mine else t("{name} picks up the pile", name=who)
    if action.verb == "hidden":
        return (
            t("You play hidden card {number}", number=action.number)
            if mine
            else t("{name} plays hidden card {number}", name=who, number=action.number)
        )
    return f"{who}: {label_for(action)}"


def describe_event(event: Event, names: Sequence[str], you: int | None = None) -> str | None:
    """One line for the events worth narrating (cards played are narrated
    from the action itself); the reader's own seat is "You", with its verb."""
    who = seat_label(event.seat, names) if event.seat is not None else ""
    mine = _is_you(event.seat, names, you)
    data = event.data
    if event.kind == "trick_won":
        if mine:
            return "  -> " + t("You win the trick")
        return "  -> " + t("{name} wins the trick", name=who)
    if event.kind in ("declaration", "belote", "declarations_shown"):
        what = declaration_text(str(data.get("text") or data.get("description") or ""))
        if mine:
            return "  * " + t("You announce {what}", what=what)
        return "  * " + t("{name} announces {what}", name=who, what=what)
    if event.kind == "redeal":
        return "  " + t("Everyone passed: the cards are dealt again.")
    if event.kind == "dummy_revealed":
        if mine:
            return "  " + t("Your hand is laid face up: you are the dummy.")
        return "  " + t("The dummy ({name}) is laid face up.", name=who)
    if event.kind in ("pickup", "picked_up"):
        return None  # the move itself says it ("Ada picks up the pile")
    if event.kind in ("redistribute", "redistributed"):
        return "  " + t("The T pools and redeals every hand!")
    if event.kind == "hidden_revealed":
        shown = _card_or_text(data.get("card"))
        if mine:
            return "  " + t("You turn over a hidden card: {card}", card=shown)
        return "  " + t("{name} turns over a hidden card: {card}", name=who, card=shown)
    if event.kind == "skip":
        return "  " + (t("You are skipped") if mine else t("{name} is skipped", name=who))
    if event.kind == "game_over":
        if event.seat is None:
            return "  " + t("Draw.")
        if mine:
            return "  " + t("You have no cards left: game over!")
        return "  " + t("{name} has no cards left: game over!", name=who)
    return None


def _card_or_text(value: object) -> str:
    try:
        return card_text(Card.parse(str(value)))
    except ValueError:
        return str(value)
