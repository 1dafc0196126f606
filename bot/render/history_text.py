"""Text for ``/history``, ``/table history`` and ``/replay`` (and the
terminal replay): every word through ``bot.i18n``, cards and bids through
``bot.i18n.terms``.  Only what the history service returns is shown: deal
summaries carry no card, and the replay is of a finished match."""

from __future__ import annotations

from collections.abc import Sequence

from bot.db.history_queries import PlayedMatch
from bot.i18n import t
from bot.i18n.terms import card_text, game_title, notation_text, seat_display_name
from bot.render.text import describe_action, fmt_score, points_text
from bot.render.unrated import unrated_note
from bot.services.actor import LOCAL_USER_ID
from bot.services.history import Position, StoredMatch
from bot.services.replays import (
    GAME_DRAWN,
    GAME_WON,
    PASSED_OUT,
    DealReplay,
    DealSummary,
    MatchReplay,
)
from engine import Card, get_game
from engine.core.cards import sort_hand

#: how many ratings the text trend shows
TREND_POINTS = 10


def _unit(game: str) -> str:
    return "tenths" if game == "callbreak" else "points"


def _title(game: str) -> str:
    return game_title(game, get_game(game).title)


def _name(names: Sequence[str], seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(names):
        return "—"
    return names[seat]


def reader_names(match: StoredMatch) -> tuple[str, ...]:
    """The seats' names for the reader: the program's words in the reader's
    language ("You" for the terminal's player, an AI's "(AI, normal)"), a
    name a person typed as stored."""
    names = []
    for seat, name in enumerate(match.names):
        user = match.users[seat] if seat < len(match.users) else None
        ai = match.ai[seat] if seat < len(match.ai) else None
        if user == LOCAL_USER_ID and not ai:
            names.append(t("You"))
        else:
            names.append(seat_display_name(name, ai))
    return tuple(names)


def _change(match: PlayedMatch) -> str:
    before, after = match.rating_before, match.rating_after
    if match.unrated is not None or before is None or after is None or not _rated(match):
        return unrated_note(match.unrated)
    return t(
        "rating {before} → {after} ({change})",
        before=f"{before:.1f}",
        after=f"{after:.1f}",
        change=f"{after - before:+.1f}",
    )


def history_lines(who: str, matches: Sequence[PlayedMatch]) -> list[str]:
    """One line per match, newest first, then the rating trend (oldest first)."""
    lines = ["**" + t("{name}'s recent matches", name=who) + "**"]
    for m in matches:
        result = t("won") if m.won else t("place {rank}", rank=m.rank)
        lines.append(
            t(
                "{date} · {game} #{table} · seat {seat} · {players} · {result} · "
                "{points} · {rating}",
                date=m.finished_at.strftime("%Y-%m-%d"),
                game=_title(m.game),
                table=m.table_id,
                seat=m.seat + 1,
                players=", ".join(m.names),
                result=result,
                points=points_text(m.points, _unit(m.game)),
                rating=_change(m),
            )
        )
    points = trend_points(matches)
    if points:
        ratings = " → ".join(f"{r:.1f}" for _, r in points[-TREND_POINTS:])
        lines.append(t("Rating trend: {ratings}", ratings=ratings))
    return lines


def _rated(m: PlayedMatch) -> bool:
    return (
        m.unrated is None
        and m.rating_before is not None
        and m.rating_after is not None
        and abs(m.rating_after - m.rating_before) >= 0.05
    )


def trend_points(matches: Sequence[PlayedMatch]) -> list[tuple[str, float]]:
    """(label, rating) oldest first: the rating before the oldest rated
    match (no label), then after each rated match ("#12").  Empty unless
    the matches are of one game (ratings are per game) and one was rated."""
    rated = [m for m in reversed(matches) if _rated(m)]
    if not rated or len({m.game for m in matches}) != 1:
        return []
    first = rated[0].rating_before
    assert first is not None
    return [("", first)] + [(f"#{m.table_id}", float(m.rating_after or 0.0)) for m in rated]


def _calls(summary: DealSummary, names: Sequence[str]) -> str:
    return ", ".join(f"{_name(names, seat)} {notation_text(call)}" for seat, call in summary.calls)


def _per_side(values: Sequence[int], names: Sequence[str], unit: str) -> str:
    """Scores per seat (names) or per team (team 1, team 2)."""
    if len(values) == len(names):
        return ", ".join(f"{n} {fmt_score(v, unit)}" for n, v in zip(names, values, strict=True))
    return ", ".join(
        t("team {team} {score}", team=i + 1, score=fmt_score(v, unit)) for i, v in enumerate(values)
    )


def deal_lines(match: StoredMatch, deals: Sequence[DealSummary]) -> list[str]:
    """``/table history``: each finished deal's calls, contract, tricks and
    scores -- public facts only."""
    head = t("{game} — table #{table}: deals", game=_title(match.game), table=match.table_id)
    lines = ["**" + head + "**"]
    if not deals:
        lines.append(t("No deal has finished yet."))
    unit = _unit(match.game)
    names = reader_names(match)
    for d in deals:
        parts = [t("Deal {number}", number=d.number)]
        if d.outcome == PASSED_OUT:
            parts.append(t("passed out"))
        if d.contract:
            parts.append(
                t(
                    "contract {contract} by {name}",
                    contract=notation_text(d.contract),
                    name=_name(names, d.declarer),
                )
            )
        if d.calls:
            parts.append(t("calls: {calls}", calls=_calls(d, names)))
        if d.tricks_won:
            parts.append(t("tricks: {tricks}", tricks=_per_side(d.tricks_won, names, "points")))
        if d.outcome in (GAME_WON, GAME_DRAWN):
            parts.append(
                t("drawn")
                if d.winner_team is None
                else t("won by team {team}", team=d.winner_team + 1)
            )
        if d.scores:
            parts.append(t("scores: {scores}", scores=_per_side(d.scores, names, unit)))
        if d.totals:
            parts.append(t("totals: {totals}", totals=_per_side(d.totals, names, unit)))
        lines.append(" · ".join(parts))
    return lines


def _cards(cards: Sequence[str]) -> str:
    """A hand grouped by suit (cards stay as dealt otherwise)."""
    return " ".join(card_text(c) for c in sort_hand([Card.parse(c) for c in cards])) or "—"


def replay_lines(match: StoredMatch, replay: MatchReplay, pos: Position) -> list[str]:
    """One step of a replay: where it is, the trick just played, and every
    hand (the match is over: all hands are shown)."""
    names, deal = reader_names(match), pos.deal
    head = t("{game} — table #{table}: replay", game=_title(match.game), table=match.table_id)
    where = t("Deal {deal} of {deals}", deal=deal.number, deals=len(replay.deals))
    if pos.last and pos.trick:
        where += " · " + t("trick {trick} of {tricks}", trick=pos.trick, tricks=pos.last)
    lines = ["**" + head + "**", where]
    summary = deal.summary
    if summary.contract:
        lines.append(
            t(
                "contract {contract} by {name}",
                contract=notation_text(summary.contract),
                name=_name(names, summary.declarer),
            )
        )
    elif summary.calls and pos.trick == 0:
        lines.append(t("calls: {calls}", calls=_calls(summary, names)))
    if pos.trick:
        lines.append(_trick_line(names, deal, pos.trick))
        hands = deal.hands_before(pos.trick + 1)
        lines.append(t("Hands after trick {trick}:", trick=pos.trick))
    else:
        hands = deal.hands
        lines.append(t("Hands as dealt:"))
    for seat, hand in enumerate(hands):
        lines.append(f"{_name(names, seat)}: {_cards(hand)}")
    shown, hidden = deal.table_cards.get("shown", ()), deal.table_cards.get("hidden", ())
    for seat, (up, down) in enumerate(zip(shown, hidden, strict=False)):
        lines.append(
            t(
                "{name}, on the table: face up {shown}; face down {hidden}",
                name=_name(names, seat),
                shown=_cards(up),
                hidden=_cards(down),
            )
        )
    if not deal.tricks and deal.moves:  # Ladder: a game of moves, no tricks
        lines.extend(move_lines(names, deal))
    if pos.trick == pos.last:
        lines.extend(_score_lines(match, summary))
    return lines


#: events after which the next play starts a new pile (Ladder)
_PILE_ENDS = ("pickup", "burned", "redistributed", "game_over")


def move_lines(names: Sequence[str], deal: DealReplay) -> list[str]:
    """A game of moves (Ladder), one turn per line, grouped by pile: a pile
    ends when it is picked up, burned or pooled by a T."""
    game = get_game("ladder")
    lines, pile, started = [], 1, False
    for move in deal.moves:
        if not started:
            lines.append(t("Pile {number}:", number=pile))
            started = True
        text = describe_action(move.seat, game.parse_action(move.action), names)
        for event in move.events:
            kind, _, rest = event.partition(" ")
            if kind == "hidden_revealed":
                card = dict(w.split("=", 1) for w in rest.split() if "=" in w).get("card", "")
                text += " (" + card_text(Card.parse(card)) + ")" if card else ""
        lines.append("  " + text)
        if any(e.split(" ", 1)[0] in _PILE_ENDS for e in move.events):
            pile += 1
            started = False
    return lines


def _trick_line(names: Sequence[str], deal: DealReplay, number: int) -> str:
    trick = deal.tricks[number - 1]
    plays = ", ".join(f"{_name(names, s)} {card_text(Card.parse(c))}" for s, c in trick.plays)
    return t(
        "Trick {trick}: {plays} — won by {name}",
        trick=number,
        plays=plays,
        name=_name(names, trick.winner),
    )


def _score_lines(match: StoredMatch, summary: DealSummary) -> list[str]:
    if not summary.scores:
        return []
    unit, names = _unit(match.game), reader_names(match)
    return [
        t("scores: {scores}", scores=_per_side(summary.scores, names, unit)),
        t("totals: {totals}", totals=_per_side(summary.totals, names, unit)),
    ]


def match_lines(match: StoredMatch, replay: MatchReplay) -> list[str]:
    """The whole finished match for the terminal: each deal as dealt, then
    trick by trick, then its scores (plain text)."""
    lines: list[str] = []
    for deal in replay.deals:
        first = replay_lines(match, replay, Position(deal, 0))
        lines.extend(line.replace("**", "") for line in first)
        names = reader_names(match)
        lines.extend(_trick_line(names, deal, k) for k in range(1, len(deal.tricks) + 1))
        if deal.tricks:
            lines.extend(_score_lines(match, deal.summary))
        lines.append("")
    return lines
