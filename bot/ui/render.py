"""Pure rendering for Discord: service objects -> embeds and texts.

Public messages are rendered only from the spectator view
(``state.view(None)``); a hand only from that player's own view, so nothing
here can show a card its reader may not see.  Names are shown as plain,
escaped text (no mentions: an edit must never ping).  Every text goes
through ``clip`` and every embed through ``fit_embed``: Discord refuses a
message over its limits, and a refused edit leaves a table frozen.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby
from typing import Any

import discord

from bot.services.models import ResultInfo, TableInfo
from bot.services.policy import AWAY_TURN_SECONDS
from bot.ui.text import cards_text, fmt_score, label_for, notation_text, trump_text
from engine import Action, Observation, get_game
from engine.core.cards import SUIT_SYMBOLS, Card, pretty, sort_hand

COLOUR = discord.Colour.dark_green()
CONTENT_MAX = 2000
FIELD_MAX = 1024
FIELD_NAME_MAX = 256
TITLE_MAX = 256
DESCRIPTION_MAX = 4096
EMBED_TOTAL_MAX = 6000
NAME_MAX = 40


def clip(text: str, limit: int = CONTENT_MAX) -> str:
    """The one helper that keeps any text within a Discord limit (2000 for
    message content, 1024 for an embed field, 4096 for a description...)."""
    text = text or ""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


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


def plain_name(name: str) -> str:
    """A seat name safe inside markdown: no mention, no formatting."""
    text = discord.utils.escape_mentions(" ".join((name or "").split()))
    return discord.utils.escape_markdown(clip(text, NAME_MAX))


def seat_names(info: TableInfo) -> list[str]:
    """Plain seat names (the table picture draws them; not escaped)."""
    return [s.name or "(empty)" for s in info.seats]


def display_names(info: TableInfo, you: int | None = None) -> list[str]:
    """Escaped seat names for messages; ``you`` reads "You"."""
    return [
        "You" if s.seat == you else plain_name(s.name) if s.name else f"Seat {s.seat + 1}"
        for s in info.seats
    ]


def _name(names: Sequence[str], seat: int | None) -> str:
    if seat is None:
        return "nobody"
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _deadline(info: TableInfo) -> str:
    return f"<t:{int(info.deadline)}:R>" if info.deadline else ""


# -- lobby ------------------------------------------------------------------------------------
def lobby_embed(info: TableInfo) -> discord.Embed:
    game = get_game(info.game)
    seated = sum(not s.empty for s in info.seats)
    host = next((s for s in info.seats if s.user_id == info.host_id), None)
    lines = [game.summary]
    if host is not None:
        lines.append(f"Host: **{plain_name(host.name)}**")
    if info.status == "lobby":
        lines.append(f"{seated}/{info.num_seats} seated. Press **Join** to take a seat.")
        if info.deadline:
            lines.append(f"An idle lobby closes {_deadline(info)}.")
    elif info.status == "abandoned":
        lines.append("This table was closed.")
    embed = discord.Embed(
        title=f"{game.title} — table #{info.id}", description="\n".join(lines), colour=COLOUR
    )
    settings = ", ".join(f"{k}={_value(v)}" for k, v in info.variant.items())
    timer = f"{info.turn_seconds} s" if info.turn_seconds else "off"
    embed.add_field(name="Settings", value=f"{settings or 'defaults'}\nturn timer: {timer}")
    seats = "\n".join(
        f"Seat {s.seat + 1}: "
        + (plain_name(s.name) if not s.empty else "— open —")
        + (" (host)" if s.user_id == info.host_id and s.user_id is not None else "")
        for s in info.seats
    )
    embed.add_field(name="Seats", value=seats, inline=False)
    embed.set_footer(text=f"status: {info.status} · {seated}/{info.num_seats} seated")
    return fit_embed(embed)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


# -- the public table ---------------------------------------------------------------------------
def seat_bid(view: Observation, seat: int) -> str | None:
    """What a seat bid, as a player reads it: ``9 ♥``, ``pass``,
    ``contra``, ``Backalley``, ``3``."""
    if seat in (view.extra.get("backalley") or ()):
        return "Backalley"
    said = [text for s, text in view.auction if s == seat]
    if said:
        return notation_text(said[-1])
    if seat < len(view.bids) and view.bids[seat] is not None:
        return str(view.bids[seat])
    return None


def contract_line(view: Observation, names: Sequence[str]) -> str:
    if not view.contract:
        return ""
    return f"Contract: **{notation_text(view.contract)}** by {_name(names, view.declarer)}"


def trump_line(view: Observation) -> str:
    """``Trump: ♥ hearts`` (or no trump), for the games that have one."""
    if view.requirement is not None:  # Ladder: no trump at all
        return ""
    if view.trump is None and view.phase in ("auction", "bidding", "trump"):
        return ""
    return f"Trump: {trump_text(view)}"


def led_suit(view: Observation) -> str | None:
    if not view.trick:
        return None
    card = view.trick[0][1]
    if card.is_joker:
        return view.trump
    return card.suit


def trick_line(view: Observation, names: Sequence[str]) -> str:
    """``Trick (led ♠): Ada A♠ · Bram 7♠`` or the last trick once it is complete."""
    if view.trick:
        led = led_suit(view)
        head = f"Trick (led {SUIT_SYMBOLS.get(led, led)})" if led else "Trick"
        plays = view.trick
    elif view.last_trick:
        head, plays = "Last trick", view.last_trick
    else:
        return ""
    return f"{head}: " + " · ".join(f"{_name(names, s)} {pretty(c)}" for s, c in plays)


def auction_line(view: Observation, names: Sequence[str], last: int = 8) -> str:
    if not view.auction or (view.contract and view.phase == "play"):
        return ""
    said = view.auction[-last:]
    return "Auction: " + " · ".join(f"{_name(names, s)} {notation_text(t)}" for s, t in said)


def scores_line(view: Observation, names: Sequence[str]) -> str:
    if view.teams:
        return " · ".join(
            f"{' & '.join(_name(names, s) for s in team)}: "
            f"{fmt_score(view.scores[i], view.score_unit)}"
            for i, team in enumerate(view.teams)
            if i < len(view.scores)
        )
    return " · ".join(
        f"{_name(names, s)}: {fmt_score(v, view.score_unit)}" for s, v in enumerate(view.scores)
    )


def turn_line(info: TableInfo, view: Observation, names: Sequence[str]) -> str:
    if view.is_over or view.to_act is None:
        return ""
    decider = view.decider if view.decider is not None else view.to_act
    text = f"➡️ Waiting for **{_name(names, decider)}**"
    if decider != view.to_act:
        text += f" (playing the dummy, {_name(names, view.to_act)})"
    if 0 <= decider < len(info.seats) and info.seats[decider].away:
        text += " 💤 away"
    if info.deadline:
        text += f" — {_deadline(info)}"
    return text


def table_embed(info: TableInfo, view: Observation, note: str = "") -> discord.Embed:
    """The one table message, edited as play goes on (spectator view only).
    FLOW sets its image to ``attachment://table.png``."""
    assert view.seat is None, "public messages render the spectator view"
    game = get_game(info.game)
    names = display_names(info)
    unit = "game" if view.score_unit == "wins" else "deal"
    embed = discord.Embed(
        title=f"{game.title} — table #{info.id} — {unit} {view.round_number}", colour=COLOUR
    )
    lines = []
    for seat in range(view.num_seats):
        marks = []
        bid = seat_bid(view, seat)
        if bid is not None:
            marks.append(_bid_mark(bid))
        if view.phase == "play" and view.tricks_won and seat < len(view.tricks_won):
            marks.append(f"tricks {view.tricks_won[seat]}")
        if seat < len(view.hand_counts):
            marks.append(f"{view.hand_counts[seat]} cards")
        if view.shown and seat < len(view.shown):
            hidden = view.hidden[seat] if seat < len(view.hidden) else 0
            marks.append(f"shown {cards_text(view.shown[seat])}, hidden {hidden}")
        deciding = view.decider if view.decider is not None else view.to_act
        turn = "➡️ " if seat == deciding and not view.is_over else ""
        status = _seat_status(info, seat)
        lines.append(f"{turn}**{names[seat]}**{status}: " + ", ".join(marks))
    embed.add_field(name="Seats", value="\n".join(lines), inline=False)
    facts = [
        contract_line(view, names),
        trump_line(view),
        auction_line(view, names),
    ]
    if view.turned is not None:
        facts.append(f"Turned: {pretty(view.turned)} (hand size {view.hand_size})")
    if view.requirement is not None:
        top = cards_text(view.pile[-5:]) if view.pile else "empty"
        facts.append(f"Pile ({view.pile_size}): {top} — next: {view.requirement}")
    facts = [f for f in facts if f]
    if facts:
        embed.add_field(name="Table", value="\n".join(facts), inline=False)
    if view.dummy is not None and view.dummy_seat is not None:
        embed.add_field(
            name=f"Dummy — {names[view.dummy_seat]}",
            value=cards_text(sort_hand(view.dummy)) or "-",
            inline=False,
        )
    if view.declarations:
        decl = "\n".join(
            f"{_name(names, s)}: {t} {cards_text(c)}".rstrip() for s, t, c in view.declarations
        )
        embed.add_field(name="Declarations", value=decl, inline=False)
    trick = trick_line(view, names)
    if trick:
        head, _, plays = trick.partition(": ")
        embed.add_field(name=head, value=plays, inline=False)
    embed.add_field(name="Scores", value=scores_line(view, names) or "-", inline=False)
    status = "\n".join(t for t in (note, turn_line(info, view, names)) if t)
    if info.status == "abandoned" and not note:
        status = "This table was abandoned."
    elif view.is_over and not note:
        status = "The game is over."
    if status:
        embed.description = status
    if info.turn_seconds:
        embed.set_footer(
            text=f"turn timer {info.turn_seconds} s · away players get {AWAY_TURN_SECONDS} s"
        )
    return fit_embed(embed)


def _bid_mark(bid: str) -> str:
    """``bid 9 ♥``, ``bid Backalley``, ``passed``, ``contra``."""
    if bid == "pass":
        return "passed"
    return bid if bid in ("contra", "recontra") else f"bid {bid}"


def _seat_status(info: TableInfo, seat: int) -> str:
    if seat >= len(info.seats):
        return ""
    s = info.seats[seat]
    if s.resigned:
        return " 🏳️ resigned (AI plays)"
    if s.away:
        return " 💤 away"
    return ""


# -- the private hand ---------------------------------------------------------------------------
def hand_groups(cards: Sequence[Card]) -> str:
    """A hand by suit: ``A♠ K♠ 9♠ · Q♥ 10♥ · …``."""
    if not cards:
        return "(no cards in hand)"
    return "  ·  ".join(
        " ".join(pretty(c) for c in group)
        for _, group in groupby(sort_hand(cards), key=lambda c: c.suit)
    )


def choices_summary(legal: Sequence[Action]) -> str:
    """What the buttons offer, in words: ``play a card``, ``bid or pass``."""
    words = {
        "play": "play a card",
        "bid": "bid",
        "trump": "name trump",
        "pass": "pass",
        "contra": "contra",
        "recontra": "recontra",
        "pickup": "pick up the pile",
        "hidden": "play a hidden card",
    }
    order = list(words)
    verbs = sorted({a.verb for a in legal}, key=lambda v: order.index(v) if v in order else 99)
    kinds = [words.get(v, v) for v in verbs]
    if len(kinds) <= 1:
        return kinds[0] if kinds else ""
    return ", ".join(kinds[:-1]) + " or " + kinds[-1]


def hand_text(info: TableInfo, view: Observation, page: int = 0, pages: int = 1) -> str:
    """The ephemeral hand: this seat's cards and what it may see of the
    table (trick, led suit, trump, contract or bids, whose turn, the dummy),
    from this seat's own view only."""
    game = get_game(info.game)
    you = view.seat
    names = display_names(info, you)
    seat = you + 1 if you is not None else "?"
    unit = "game" if view.score_unit == "wins" else "deal"
    lines = [
        f"**Your hand** — {game.title}, table #{info.id} (seat {seat}, {unit} {view.round_number})",
        hand_groups(view.hand),
    ]
    if view.shown and you is not None and you < len(view.shown):
        hidden = view.hidden[you] if you < len(view.hidden) else 0
        lines.append(f"Your table cards: shown {cards_text(view.shown[you])}, hidden {hidden}")
    if view.dummy is not None and view.dummy_seat is not None:
        lines.append(f"Dummy ({_name(names, view.dummy_seat)}): {hand_groups(view.dummy)}")
    facts = [trump_line(view), contract_line(view, names)]
    if view.turned is not None:
        facts.append(f"Turned: {pretty(view.turned)}")
    lines.append(" · ".join(f for f in facts if f))
    if view.phase != "play" or not view.contract:
        bids = [(s, seat_bid(view, s)) for s in range(view.num_seats)]
        if any(b is not None for _, b in bids):
            lines.append("Bids: " + " · ".join(f"{_name(names, s)} {b or '–'}" for s, b in bids))
    standing = view.extra.get("standing_bid") if view.phase == "auction" else None
    if standing:
        lines.append(f"Standing bid: **{notation_text(str(standing))}**")
    if view.requirement is not None:
        top = cards_text(view.pile[-5:]) if view.pile else "empty"
        lines.append(f"Pile ({view.pile_size}): {top} — next: {view.requirement}")
    trick = trick_line(view, names)
    if trick:
        lines.append(trick)
    lines.append(_your_turn(info, view, names))
    if pages > 1:
        lines.append(f"Page {page + 1} of {pages}")
    return clip("\n".join(line for line in lines if line))


def _your_turn(info: TableInfo, view: Observation, names: Sequence[str]) -> str:
    when = f" {_deadline(info)}" if info.deadline else ""
    if view.is_over:
        return "The game is over."
    if view.legal_actions:
        text = f"➡️ **Your turn**: {choices_summary(view.legal_actions)}."
        if view.to_act is not None and view.to_act != view.seat:
            text += f" You play for the dummy ({_name(names, view.to_act)})."
        return text + when
    decider = view.decider if view.decider is not None else view.to_act
    if decider is None:
        return ""
    return f"Waiting for **{_name(names, decider)}**{when}."


# -- deals and results ----------------------------------------------------------------------------
def deal_summary(info: TableInfo, view: Observation) -> str:
    """The finished deal with all its hands (public once the deal is over)."""
    record = view.last_deal
    if record is None:
        return ""
    names = display_names(info)
    lines = [f"**Deal {record.number} is over** — table #{info.id}"]
    if record.contract:
        lines.append(
            f"Contract: {notation_text(record.contract)} by {_name(names, record.declarer)}"
        )
    for seat, hand in enumerate(record.hands):
        bid = record.bids[seat] if seat < len(record.bids) else None
        won = record.tricks_won[seat] if seat < len(record.tricks_won) else None
        extra = []
        if bid is not None:
            extra.append(f"bid {bid}")
        if won is not None:
            extra.append(f"took {won}")
        head = f"{_name(names, seat)} ({', '.join(extra)})" if extra else _name(names, seat)
        lines.append(f"{head}: {hand_groups(hand)}")
    who = [" & ".join(_name(names, s) for s in t) for t in view.teams] or names
    deal = " · ".join(
        f"{w} {fmt_score(v, view.score_unit)}" for w, v in zip(who, record.scores, strict=False)
    )
    lines.append(f"Deal scores: {deal}")
    lines.append(f"Totals: {scores_line(view, names)}")
    return clip("\n".join(lines))


def winners_line(view: Observation, names: Sequence[str], ranks: Sequence[int]) -> str:
    """``🏆 Ada & Cleo win`` (a team, or players sharing first place) or
    ``🏆 Ada wins``."""
    firsts = [s for s, r in enumerate(ranks) if r == 1]
    if not firsts:
        return ""
    who = " & ".join(_name(names, s) for s in firsts)
    return f"🏆 {who} {'wins' if len(firsts) == 1 else 'win'}"


def result_text(info: TableInfo, view: Observation, results: ResultInfo | None) -> str:
    """The end of a match: the winner (player or team), the final scores,
    rating changes, and who resigned (a resignation counts as a loss)."""
    names = display_names(info)
    seats = len(info.seats)
    team_of = {s: i for i, team in enumerate(view.teams) for s in team}
    if results is not None:
        ranks = list(results.ranks)
    elif view.teams:
        ranks = [view.ranking[team_of[s]] if view.ranking else 0 for s in range(seats)]
    else:
        ranks = list(view.ranking) or [0] * seats
    lines = [f"**{get_game(info.game).title} — table #{info.id} is over.**"]
    winner = winners_line(view, names, ranks)
    if winner:
        lines.append(winner)
    resigned = set(results.resigned if results else ()) | {s.seat for s in info.seats if s.resigned}
    if view.teams:
        entries = [
            (ranks[team[0]] if team else 0, " & ".join(_name(names, s) for s in team), score)
            for team, score in zip(view.teams, view.scores, strict=False)
        ]
    else:
        entries = [(ranks[s], _name(names, s), v) for s, v in enumerate(view.scores)]
    lines.append("Final scores:")
    for rank, who, score in sorted(entries):
        lines.append(f"{rank}. {who} — {fmt_score(score, view.score_unit)}")
    if results and results.rating_changes:
        changes = []
        for seat, (before, after) in sorted(results.rating_changes.items()):
            changes.append(
                f"{_name(names, seat)} {before:.1f} → {after:.1f} ({after - before:+.1f})"
            )
        lines.append("Ratings: " + " · ".join(changes))
    if resigned:
        who = ", ".join(_name(names, s) for s in sorted(resigned))
        lines.append(f"🏳️ Resigned (counts as a loss): {who}")
    return clip("\n".join(lines))


def settings_text(game: str, values: dict[str, Any]) -> str:
    spec = get_game(game)
    lines = [f"**{spec.title} settings**"]
    for setting in spec.Variant.settings():
        value = values.get(setting.name)
        lines.append(
            f"`{setting.name}` = {_value(value)} ({setting.describe_range()}) — {setting.help}"
        )
    lines.append(f"`turn_seconds` = {values.get('turn_seconds')} (0 = off, 15..3600)")
    return clip("\n".join(lines))


def action_label(action: Action) -> str:
    """A button label (Discord allows 80 characters)."""
    return clip(label_for(action), 80)
