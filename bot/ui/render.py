"""Pure rendering for Discord: service objects -> embeds and texts.

Public messages are rendered only from the spectator view
(``state.view(None)``); a hand only from that player's own view.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.services.models import ResultInfo, TableInfo
from bot.ui.text import cards_text, fmt_score, options_text, scores_text, trump_text
from engine import Observation, get_game
from engine.core.cards import pretty, sort_hand

COLOUR = discord.Colour.dark_green()
EMBED_FIELD_MAX = 1024


def seat_names(info: TableInfo) -> list[str]:
    return [s.name or "(empty)" for s in info.seats]


def _clip(text: str, limit: int = EMBED_FIELD_MAX) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def lobby_embed(info: TableInfo) -> discord.Embed:
    game = get_game(info.game)
    embed = discord.Embed(
        title=f"{game.title} — table #{info.id}", description=game.summary, colour=COLOUR
    )
    settings = ", ".join(f"{k}={v}" for k, v in info.variant.items())
    timer = f"{info.turn_seconds}s" if info.turn_seconds else "off"
    embed.add_field(name="Settings", value=_clip(f"{settings}\nturn timer: {timer}"), inline=False)
    seats = "\n".join(
        f"Seat {s.seat + 1}: "
        + (f"<@{s.user_id}>" if s.user_id else s.name if s.ai else "— open —")
        for s in info.seats
    )
    embed.add_field(name="Seats", value=_clip(seats), inline=False)
    embed.set_footer(text=f"status: {info.status}")
    return embed


def table_embed(info: TableInfo, view: Observation, *, note: str = "") -> discord.Embed:
    """The one table message, edited as play goes on (spectator view only)."""
    assert view.seat is None, "public messages render the spectator view"
    game = get_game(info.game)
    names = seat_names(info)
    unit = "game" if view.score_unit == "wins" else "deal"
    embed = discord.Embed(
        title=f"{game.title} — table #{info.id} — {unit} {view.round_number}", colour=COLOUR
    )
    lines = []
    for seat in range(view.num_seats):
        marks = []
        if seat < len(view.bids) and view.bids[seat] is not None:
            marks.append(f"bid {view.bids[seat]}")
        if view.tricks_won:
            marks.append(f"tricks {view.tricks_won[seat]}")
        marks.append(f"{view.hand_counts[seat]} cards")
        if view.shown:
            marks.append(f"shown {cards_text(view.shown[seat])}, hidden {view.hidden[seat]}")
        turn = "➡️ " if seat == view.to_act else ""
        away = " (away)" if info.seats[seat].away else ""
        lines.append(f"{turn}**{names[seat]}**{away}: " + ", ".join(marks))
    embed.add_field(name="Seats", value=_clip("\n".join(lines)), inline=False)
    facts = []
    if view.contract:
        who = names[view.declarer] if view.declarer is not None else "?"
        facts.append(f"Contract: {view.contract} by {who}")
    if view.requirement is None and view.phase != "auction":
        facts.append(f"Trump: {trump_text(view)}")
    if view.turned is not None:
        facts.append(f"Turned: {pretty(view.turned)} (hand size {view.hand_size})")
    if view.requirement is not None:
        top = cards_text(view.pile[-5:]) if view.pile else "empty"
        facts.append(f"Pile ({view.pile_size}): {top} — next: {view.requirement}")
    if view.auction:
        facts.append("Auction: " + ", ".join(f"{names[s]} {t}" for s, t in view.auction[-6:]))
    if facts:
        embed.add_field(name="Table", value=_clip("\n".join(facts)), inline=False)
    if view.dummy is not None and view.dummy_seat is not None:
        embed.add_field(
            name=f"Dummy — {names[view.dummy_seat]}",
            value=cards_text(sort_hand(view.dummy)) or "-",
            inline=False,
        )
    if view.declarations:
        decl = "\n".join(
            f"{names[s]}: {t} {cards_text(c)}".rstrip() for s, t, c in view.declarations
        )
        embed.add_field(name="Declarations", value=_clip(decl), inline=False)
    trick = view.trick or view.last_trick
    if trick:
        label = "Trick" if view.trick else "Last trick"
        embed.add_field(
            name=label, value=" ".join(f"{names[s]} {pretty(c)}" for s, c in trick), inline=False
        )
    embed.add_field(name="Scores", value=_clip(scores_text(view, names)), inline=False)
    status = note
    if not view.is_over and view.to_act is not None:
        decider = view.decider if view.decider is not None else view.to_act
        status = f"Waiting for **{names[decider]}**"
        if info.deadline:
            status += f" — <t:{int(info.deadline)}:R>"
        status = (note + "\n" + status).strip()
    if status:
        embed.description = status
    return embed


def deal_summary(info: TableInfo, view: Observation) -> str:
    """The finished deal with all its hands (public once the deal is over)."""
    record = view.last_deal
    if record is None:
        return ""
    names = seat_names(info)
    lines = [f"**Deal {record.number} is over.**"]
    if record.contract:
        who = names[record.declarer] if record.declarer is not None else "?"
        lines.append(f"Contract {record.contract} by {who}")
    for seat, hand in enumerate(record.hands):
        lines.append(f"{names[seat]}: {cards_text(sort_hand(hand))}")
    lines.append("Deal scores: " + ", ".join(fmt_score(v, view.score_unit) for v in record.scores))
    lines.append("Totals: " + scores_text(view, names))
    return _clip("\n".join(lines), 2000)


def result_text(info: TableInfo, view: Observation, results: ResultInfo | None) -> str:
    names = seat_names(info)
    lines = [f"**{get_game(info.game).title} — table #{info.id} is over.**"]
    order = sorted(range(len(info.seats)), key=lambda s: results.ranks[s] if results else 0)
    for seat in order:
        rank = results.ranks[seat] if results else "?"
        change = ""
        if results and seat in results.rating_changes:
            before, after = results.rating_changes[seat]
            change = f" (rating {before:.1f} → {after:.1f})"
        points = fmt_score(results.points[seat], view.score_unit) if results else ""
        lines.append(f"{rank}. {names[seat]} {points}{change}")
    return _clip("\n".join(lines), 2000)


def hand_text(info: TableInfo, view: Observation, page: int, pages: int) -> str:
    """The ephemeral hand message: only this seat's cards (and the dummy)."""
    names = seat_names(info)
    seat = view.seat + 1 if view.seat is not None else "?"
    lines = [f"**Your hand** at table #{info.id} (seat {seat})"]
    lines.append(cards_text(sort_hand(view.hand)) or "(no cards in hand)")
    if view.shown and view.seat is not None:
        shown, hidden = cards_text(view.shown[view.seat]), view.hidden[view.seat]
        lines.append(f"Your table cards: shown {shown}, hidden {hidden}")
    if view.legal_actions:
        if view.to_act is not None and view.to_act != view.seat:
            lines.append(f"You choose for the dummy ({names[view.to_act]}).")
        choices = options_text(list(view.legal_actions))
        lines.append("Your turn." + (f" Choose: {choices}" if choices else ""))
    else:
        waiting = names[view.decider] if view.decider is not None else "nobody"
        lines.append(f"Waiting for {waiting}.")
    if pages > 1:
        lines.append(f"Page {page + 1} of {pages}")
    return _clip("\n".join(lines), 2000)


def settings_text(game: str, values: dict[str, Any]) -> str:
    spec = get_game(game)
    lines = [f"**{spec.title} settings**"]
    for setting in spec.Variant.settings():
        value = values.get(setting.name)
        lines.append(f"`{setting.name}` = {value!s} ({setting.describe_range()}) — {setting.help}")
    lines.append(f"`turn_seconds` = {values.get('turn_seconds')} (0 = off, 15..3600)")
    return _clip("\n".join(lines), 2000)
