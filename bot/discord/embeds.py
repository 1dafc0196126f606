"""The table's two embeds, lobby and table (``discord.Embed``), built from the
texts of ``bot.render.messages`` and kept within Discord's limits (``fit_embed``).
The only part of the table's rendering that needs discord.py."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t, tn
from bot.i18n.settings_words import setting_pair, settings_line
from bot.i18n.terms import card_text, declaration_text, game_summary, status_word
from bot.render.messages import (
    DESCRIPTION_MAX,
    EMBED_TOTAL_MAX,
    FIELD_MAX,
    FIELD_NAME_MAX,
    TITLE_MAX,
    _bid_mark,
    _deadline,
    _name,
    _seat_status,
    auction_line,
    clip,
    contract_line,
    display_names,
    pile_line,
    plain_name,
    scores_line,
    seat_bid,
    table_title,
    trick_head,
    trick_plays,
    trump_line,
    turn_line,
)
from bot.render.text import cards_text
from bot.services.models import TableInfo
from bot.services.policy import AWAY_TURN_SECONDS
from engine import Observation, get_game
from engine.core.cards import sort_hand

COLOUR = discord.Colour.dark_green()


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """Clip every part of an embed, then shorten the longest fields until
    the whole embed is within Discord's 6000 characters."""
    if embed.title:
        embed.title = clip(embed.title, TITLE_MAX)
    if embed.description:
        embed.description = clip(embed.description, DESCRIPTION_MAX)
    for i, f in enumerate(embed.fields):
        embed.set_field_at(
            i,
            name=clip(f.name or "-", FIELD_NAME_MAX),
            value=clip(f.value or "-", FIELD_MAX),
            inline=bool(f.inline),
        )
    while len(embed) > EMBED_TOTAL_MAX and embed.fields:
        i = max(range(len(embed.fields)), key=lambda n: len(embed.fields[n].value or ""))
        field = embed.fields[i]
        value = field.value or ""
        excess = len(embed) - EMBED_TOTAL_MAX
        keep = max(1, len(value) - excess - 1)
        if keep >= len(value) - 1 and len(value) <= 2:
            embed.remove_field(i)
            continue
        embed.set_field_at(i, name=field.name, value=clip(value, keep), inline=bool(field.inline))
    return embed


# -- lobby ------------------------------------------------------------------------------------
def lobby_embed(info: TableInfo) -> discord.Embed:
    game = get_game(info.game)
    seated = sum(not s.empty for s in info.seats)
    host = next((s for s in info.seats if s.user_id == info.host_id), None)
    lines = [game_summary(info.game, game.summary)]
    if host is not None:
        lines.append(t("Host: **{name}**", name=plain_name(host.name)))
    if info.status == "lobby":
        lines.append(
            t(
                "{seated}/{seats} seated. Press **Join** to take a seat.",
                seated=seated,
                seats=info.num_seats,
            )
        )
        if info.deadline:
            lines.append(t("An idle lobby closes {when}.", when=_deadline(info)))
    elif info.status == "abandoned":
        lines.append(t("This table was closed."))
    embed = discord.Embed(title=table_title(info), description="\n".join(lines), colour=COLOUR)
    settings = settings_line(info.variant)
    embed.add_field(
        name=t("Settings"),
        value=(settings or t("defaults")) + "\n" + setting_pair("turn_seconds", info.turn_seconds),
    )
    seats = "\n".join(_lobby_seat(info, s) for s in info.seats)
    embed.add_field(name=t("Seats"), value=seats, inline=False)
    embed.set_footer(
        text=t(
            "status: {status} · {seated}/{seats} seated",
            status=status_word(info.status),
            seated=seated,
            seats=info.num_seats,
        )
    )
    return fit_embed(embed)


def _lobby_seat(info: TableInfo, s: Any) -> str:
    who = plain_name(s.name) if not s.empty else t("— open —")
    if s.user_id == info.host_id and s.user_id is not None:
        return t("Seat {seat}: {name} (host)", seat=s.seat + 1, name=who)
    return t("Seat {seat}: {name}", seat=s.seat + 1, name=who)


def table_embed(info: TableInfo, view: Observation, note: str = "") -> discord.Embed:
    """The one table message, edited as play goes on (spectator view only).
    FLOW sets its image to ``attachment://table.png``."""
    assert view.seat is None, "public messages render the spectator view"
    names = display_names(info)
    if view.score_unit == "wins":
        title = t("{table} — game {number}", table=table_title(info), number=view.round_number)
    else:
        title = t("{table} — deal {number}", table=table_title(info), number=view.round_number)
    embed = discord.Embed(title=title, colour=COLOUR)
    lines = []
    for seat in range(view.num_seats):
        marks = []
        bid = seat_bid(view, seat)
        if bid is not None:
            marks.append(_bid_mark(bid))
        if view.phase == "play" and view.tricks_won and seat < len(view.tricks_won):
            marks.append(t("tricks {n}", n=view.tricks_won[seat]))
        if seat < len(view.hand_counts):
            marks.append(tn("{n} card", "{n} cards", view.hand_counts[seat]))
        if view.shown and seat < len(view.shown):
            hidden = view.hidden[seat] if seat < len(view.hidden) else 0
            marks.append(
                t(
                    "shown {cards}, hidden {hidden}",
                    cards=cards_text(view.shown[seat]),
                    hidden=hidden,
                )
            )
        deciding = view.decider if view.decider is not None else view.to_act
        turn = "➡️ " if seat == deciding and not view.is_over else ""
        status = _seat_status(info, seat)
        lines.append(f"{turn}**{names[seat]}**{status}: " + ", ".join(marks))
    embed.add_field(name=t("Seats"), value="\n".join(lines), inline=False)
    facts = [contract_line(view, names), trump_line(view), auction_line(view, names)]
    if view.turned is not None:
        facts.append(
            t("Turned: {card} (hand size {size})", card=card_text(view.turned), size=view.hand_size)
        )
    if view.requirement is not None:
        facts.append(pile_line(view))
    facts = [f for f in facts if f]
    if facts:
        embed.add_field(name=t("Table"), value="\n".join(facts), inline=False)
    if view.dummy is not None and view.dummy_seat is not None:
        embed.add_field(
            name=t("Dummy — {name}", name=names[view.dummy_seat]),
            value=cards_text(sort_hand(view.dummy)) or "-",
            inline=False,
        )
    if view.declarations:
        decl = "\n".join(
            f"{_name(names, s)}: {declaration_text(d)} {cards_text(c)}".rstrip()
            for s, d, c in view.declarations
        )
        embed.add_field(name=t("Declarations"), value=decl, inline=False)
    head, plays = trick_head(view)
    if plays:
        embed.add_field(name=head, value=trick_plays(view, names), inline=False)
    embed.add_field(name=t("Scores"), value=scores_line(view, names) or "-", inline=False)
    status = "\n".join(x for x in (note, turn_line(info, view, names)) if x)
    if info.status == "abandoned" and not note:
        status = t("This table was abandoned.")
    elif view.is_over and not note:
        status = t("The game is over.")
    if status:
        embed.description = status
    if info.turn_seconds:
        embed.set_footer(
            text=t(
                "turn timer {seconds} s · away players get {away} s",
                seconds=info.turn_seconds,
                away=AWAY_TURN_SECONDS,
            )
        )
    return fit_embed(embed)
