"""Pure rendering for Discord: service objects -> the texts of its messages.

Public messages are rendered only from the spectator view
(``state.view(None)``); a hand only from that player's own view, so nothing
here can show a card its reader may not see.  Names are shown as plain,
escaped text (no mentions: an edit must never ping).  Every text goes
through ``clip`` and every embed through ``fit_embed`` (``bot.discord.embeds``):
Discord refuses a
message over its limits, and a refused edit leaves a table frozen.  Every
word is in the current language (``bot.i18n``): the caller decides whose
(the server's for a public message, the reader's for a hand).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby
from typing import Any

from bot.i18n import t, tn, tp
from bot.i18n.settings_words import (
    setting_help_text,
    typed_name,
    typed_range,
    value_word,
)
from bot.i18n.terms import (
    bid_word,
    card_text,
    game_title,
    or_list,
    requirement_text,
    seat_display_name,
    setting_help,
)
from bot.render.markdown import escape_markdown, escape_mentions
from bot.render.text import cards_text, fmt_score, label_for, notation_text, trump_text
from bot.render.unrated import unrated_sentence
from bot.services.models import ResultInfo, TableInfo
from bot.services.results import MatchOutcome, places
from engine import Action, Observation, get_game
from engine.core.cards import SUIT_SYMBOLS, Card, sort_hand

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


def plain_name(name: str) -> str:
    """A seat name safe inside markdown: no mention, no formatting."""
    text = escape_mentions(" ".join((name or "").split()))
    return escape_markdown(clip(text, NAME_MAX))


def seat_names(info: TableInfo) -> list[str]:
    """Plain seat names (the table picture draws them; not escaped)."""
    return [seat_display_name(s.name, s.ai) if s.name else t("(empty)") for s in info.seats]


def display_names(info: TableInfo, you: int | None = None) -> list[str]:
    """Escaped seat names for messages; ``you`` reads "You"."""
    return [
        t("You")
        if s.seat == you
        else plain_name(seat_display_name(s.name, s.ai))
        if s.name
        else t("Seat {seat}", seat=s.seat + 1)
        for s in info.seats
    ]


def _name(names: Sequence[str], seat: int | None) -> str:
    if seat is None:
        return t("nobody")
    return names[seat] if 0 <= seat < len(names) else t("Seat {seat}", seat=seat + 1)


def _deadline(info: TableInfo) -> str:
    return f"<t:{int(info.deadline)}:R>" if info.deadline else ""


def table_title(info: TableInfo) -> str:
    """``Callbreak — table #12``."""
    return t(
        "{game} — table #{table}",
        game=game_title(info.game, get_game(info.game).title),
        table=info.id,
    )


# -- the public table ---------------------------------------------------------------------------
def seat_bid(view: Observation, seat: int) -> str | None:
    """What a seat bid, as a player reads it: ``9 ♥``, ``pass``,
    ``contra``, ``Backalley``, ``3``."""
    if seat in (view.extra.get("backalley") or ()):
        return t("Backalley")
    said = [text for s, text in view.auction if s == seat]
    if said:
        return notation_text(said[-1])
    if seat < len(view.bids) and view.bids[seat] is not None:
        return str(view.bids[seat])
    return None


def contract_line(view: Observation, names: Sequence[str]) -> str:
    if not view.contract:
        return ""
    return t(
        "Contract: **{contract}** by {name}",
        contract=notation_text(view.contract),
        name=_name(names, view.declarer),
    )


def trump_line(view: Observation) -> str:
    """``Trump: ♥ hearts`` (or no trump), for the games that have one."""
    if view.requirement is not None:  # Ladder: no trump at all
        return ""
    if view.trump is None and view.phase in ("auction", "bidding", "trump"):
        return ""
    return t("Trump: {trump}", trump=trump_text(view))


def led_suit(view: Observation) -> str | None:
    if not view.trick:
        return None
    card = view.trick[0][1]
    if card.is_joker:
        return view.trump
    return card.suit


def trick_line(view: Observation, names: Sequence[str]) -> str:
    """``Trick (led ♠): Ada A♠ · Bram 7♠`` or the last trick once it is complete."""
    head, plays = trick_head(view)
    if not plays:
        return ""
    return f"{head}: " + trick_plays(view, names)


def trick_head(view: Observation) -> tuple[str, Sequence[tuple[int, Card]]]:
    """``Trick (led ♠)`` and its plays, or ``Last trick`` (no plays: neither)."""
    if view.trick:
        led = led_suit(view)
        if led:
            return t("Trick (led {suit})", suit=SUIT_SYMBOLS.get(led, led)), view.trick
        return t("Trick"), view.trick
    if view.last_trick:
        return t("Last trick"), view.last_trick
    return "", ()


def trick_plays(view: Observation, names: Sequence[str]) -> str:
    _, plays = trick_head(view)
    return " · ".join(f"{_name(names, s)} {card_text(c)}" for s, c in plays)


def auction_line(view: Observation, names: Sequence[str], last: int = 8) -> str:
    if not view.auction or (view.contract and view.phase == "play"):
        return ""
    said = view.auction[-last:]
    calls = " · ".join(f"{_name(names, s)} {notation_text(w)}" for s, w in said)
    return t("Auction: {calls}", calls=calls)


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
    text = "➡️ " + t("Waiting for **{name}**", name=_name(names, decider))
    if decider != view.to_act:
        text += " " + t("(playing the dummy, {name})", name=_name(names, view.to_act))
    if 0 <= decider < len(info.seats) and info.seats[decider].away:
        text += " 💤 " + t("away")
    if info.deadline:
        text += f" — {_deadline(info)}"
    return text


def pile_line(view: Observation) -> str:
    """Ladder: ``Pile (12): 7♠ 7♥ 8♣ — next: MIN 8``."""
    top = cards_text(view.pile[-5:]) if view.pile else t("empty")
    return t(
        "Pile ({size}): {cards} — next: {requirement}",
        size=view.pile_size,
        cards=top,
        requirement=requirement_text(view.requirement),
    )


def _bid_mark(bid: str) -> str:
    """``bid 9 ♥``, ``bid Backalley``, ``passed``, ``contra``."""
    if bid == bid_word("pass"):
        return t("passed")
    if bid in (bid_word("contra"), bid_word("recontra")):
        return bid
    return t("bid {bid}", bid=bid)


def _seat_status(info: TableInfo, seat: int) -> str:
    if seat >= len(info.seats):
        return ""
    s = info.seats[seat]
    if s.resigned:
        return " 🏳️ " + t("resigned (AI plays)")
    if s.away:
        return " 💤 " + t("away")
    return ""


# -- the private hand ---------------------------------------------------------------------------
def hand_groups(cards: Sequence[Card]) -> str:
    """A hand by suit: ``A♠ K♠ 9♠ · Q♥ 10♥ · …``."""
    if not cards:
        return t("(no cards in hand)")
    return "  ·  ".join(
        " ".join(card_text(c) for c in group)
        for _, group in groupby(sort_hand(cards), key=lambda c: c.suit)
    )


def choices_summary(legal: Sequence[Action]) -> str:
    """What the buttons offer, in words: ``play a card``, ``bid or pass``."""
    words = {
        # i18n: what the hand's buttons offer, joined as "play a card, bid or pass"
        "play": t("play a card"),
        "bid": tp("choice", "bid"),
        "trump": t("name trump"),
        "pass": tp("choice", "pass"),
        "contra": tp("choice", "contra"),
        "recontra": tp("choice", "recontra"),
        "pickup": t("pick up the pile"),
        "hidden": t("play a hidden card"),
    }
    order = list(words)
    verbs = sorted({a.verb for a in legal}, key=lambda v: order.index(v) if v in order else 99)
    return or_list(words.get(v, v) for v in verbs)


def hand_text(info: TableInfo, view: Observation, page: int = 0, pages: int = 1) -> str:
    """The ephemeral hand: this seat's cards and what it may see of the
    table (trick, led suit, trump, contract or bids, whose turn, the dummy),
    from this seat's own view only."""
    you = view.seat
    names = display_names(info, you)
    seat = you + 1 if you is not None else "?"
    title = game_title(info.game, get_game(info.game).title)
    if view.score_unit == "wins":
        head = t(
            "**Your hand** — {game}, table #{table} (seat {seat}, game {number})",
            game=title,
            table=info.id,
            seat=seat,
            number=view.round_number,
        )
    else:
        head = t(
            "**Your hand** — {game}, table #{table} (seat {seat}, deal {number})",
            game=title,
            table=info.id,
            seat=seat,
            number=view.round_number,
        )
    lines = [head, hand_groups(view.hand)]
    if view.shown and you is not None and you < len(view.shown):
        hidden = view.hidden[you] if you < len(view.hidden) else 0
        lines.append(
            t(
                "Your table cards: shown {cards}, hidden {hidden}",
                cards=cards_text(view.shown[you]),
                hidden=hidden,
            )
        )
    if view.dummy is not None and view.dummy_seat is not None:
        lines.append(
            t(
                "Dummy ({name}): {cards}",
                name=_name(names, view.dummy_seat),
                cards=hand_groups(view.dummy),
            )
        )
    facts = [trump_line(view), contract_line(view, names)]
    if view.turned is not None:
        facts.append(t("Turned: {card}", card=card_text(view.turned)))
    lines.append(" · ".join(f for f in facts if f))
    if view.phase != "play" or not view.contract:
        bids = [(s, seat_bid(view, s)) for s in range(view.num_seats)]
        if any(b is not None for _, b in bids):
            said = " · ".join(f"{_name(names, s)} {b or '–'}" for s, b in bids)
            lines.append(t("Bids: {bids}", bids=said))
    standing = view.extra.get("standing_bid") if view.phase == "auction" else None
    if standing:
        lines.append(t("Standing bid: **{bid}**", bid=notation_text(str(standing))))
    if view.requirement is not None:
        lines.append(pile_line(view))
    trick = trick_line(view, names)
    if trick:
        lines.append(trick)
    lines.append(_your_turn(info, view, names))
    if pages > 1:
        lines.append(t("Page {page} of {pages}", page=page + 1, pages=pages))
    return clip("\n".join(line for line in lines if line))


def _your_turn(info: TableInfo, view: Observation, names: Sequence[str]) -> str:
    when = f" {_deadline(info)}" if info.deadline else ""
    if view.is_over:
        return t("The game is over.")
    if view.legal_actions:
        text = "➡️ " + t("**Your turn**: {choices}.", choices=choices_summary(view.legal_actions))
        if view.to_act is not None and view.to_act != view.seat:
            text += " " + t("You play for the dummy ({name}).", name=_name(names, view.to_act))
        return text + when
    decider = view.decider if view.decider is not None else view.to_act
    if decider is None:
        return ""
    return t("Waiting for **{name}**{when}.", name=_name(names, decider), when=when)


# -- deals and results ----------------------------------------------------------------------------
def deal_summary(info: TableInfo, view: Observation) -> str:
    """The finished deal with all its hands (public once the deal is over)."""
    record = view.last_deal
    if record is None:
        return ""
    names = display_names(info)
    lines = [t("**Deal {number} is over** — table #{table}", number=record.number, table=info.id)]
    if record.contract:
        lines.append(
            t(
                "Contract: {contract} by {name}",
                contract=notation_text(record.contract),
                name=_name(names, record.declarer),
            )
        )
    for seat, hand in enumerate(record.hands):
        bid = record.bids[seat] if seat < len(record.bids) else None
        won = record.tricks_won[seat] if seat < len(record.tricks_won) else None
        extra = []
        if bid is not None:
            extra.append(t("bid {bid}", bid=bid))
        if won is not None:
            extra.append(t("took {n}", n=won))
        head = f"{_name(names, seat)} ({', '.join(extra)})" if extra else _name(names, seat)
        lines.append(f"{head}: {hand_groups(hand)}")
    who = [" & ".join(_name(names, s) for s in team) for team in view.teams] or names
    deal = " · ".join(
        f"{w} {fmt_score(v, view.score_unit)}" for w, v in zip(who, record.scores, strict=False)
    )
    lines.append(t("Deal scores: {scores}", scores=deal))
    lines.append(t("Totals: {scores}", scores=scores_line(view, names)))
    return clip("\n".join(lines))


def winners_line(
    view: Observation, names: Sequence[str], ranks: Sequence[int], resigned: Sequence[int] = ()
) -> str:
    """``🏆 Ada & Cleo win`` (a team, or players sharing first place) or
    ``🏆 Ada wins``; a player who resigned never wins."""
    firsts = [s for s, r in enumerate(ranks) if r == 1 and s not in resigned]
    if not firsts:
        return ""
    who = " & ".join(_name(names, s) for s in firsts)
    # i18n: {n} is how many players share first place (a team: 2)
    return "🏆 " + tn("{name} wins", "{name} win", len(firsts), name=who)


def _places(info: TableInfo, view: Observation, results: ResultInfo | None) -> list[int]:
    """Each seat's place: the recorded one, else worked out the same way
    (``bot.services.results.places``: a resigned seat after the others)."""
    if results is not None:
        return list(results.ranks)
    if not view.ranking:
        return [0] * len(info.seats)
    resigned = {s.seat for s in info.seats if s.resigned}
    outcome = MatchOutcome.of(view, len(info.seats), bool(view.teams))
    return list(places(outcome, resigned))


def result_text(info: TableInfo, view: Observation, results: ResultInfo | None) -> str:
    """The end of a match: the winner (player or team), the places and
    final scores, rating changes (or why the match was not rated), and who
    resigned.  A resignation counts as a loss: the resigned seat is placed
    after every seat that stayed (its partner keeps the team's result)."""
    names = display_names(info)
    seats = len(info.seats)
    ranks = _places(info, view, results)
    resigned = set(results.resigned if results else ()) | {s.seat for s in info.seats if s.resigned}
    lines = ["**" + t("{table} is over.", table=table_title(info)) + "**"]
    winner = winners_line(view, names, ranks, tuple(resigned))
    if winner:
        lines.append(winner)
    if view.teams:
        team_of = {s: i for i, team in enumerate(view.teams) for s in team}
        sides: dict[tuple[int, bool], list[int]] = {}
        for seat in range(seats):
            sides.setdefault((team_of.get(seat, 0), seat in resigned), []).append(seat)
        entries = [
            (
                ranks[members[0]],
                " & ".join(_name(names, s) for s in members),
                view.scores[team] if team < len(view.scores) else 0,
                gone,
            )
            for (team, gone), members in sides.items()
        ]
    else:
        entries = [(ranks[s], _name(names, s), v, s in resigned) for s, v in enumerate(view.scores)]
    lines.append(t("Final scores:"))
    for rank, who, score, gone in sorted(entries):
        flag = " 🏳️" if gone else ""
        lines.append(f"{rank}. {who}{flag} — {fmt_score(score, view.score_unit)}")
    if results and results.rating_changes:
        changes = []
        for seat, (before, after) in sorted(results.rating_changes.items()):
            changes.append(
                f"{_name(names, seat)} {before:.1f} → {after:.1f} ({after - before:+.1f})"
            )
        lines.append(t("Ratings: {changes}", changes=" · ".join(changes)))
    if results and results.unrated:
        lines.append(unrated_sentence(results.unrated))
    if resigned:
        who = ", ".join(_name(names, s) for s in sorted(resigned))
        lines.append("🏳️ " + t("Resigned (counts as a loss): {names}", names=who))
    return clip("\n".join(lines))


def settings_text(game: str, values: dict[str, Any]) -> str:
    spec = get_game(game)
    lines = ["**" + t("{game} settings", game=game_title(game, spec.title)) + "**"]
    for setting in spec.Variant.settings():
        lines.append(
            setting_show_line(
                setting.name,
                values.get(setting.name),
                typed_range(setting.name, setting.range_parts()) or _list_example(setting.default),
                setting_help(setting),
            )
        )
    turn = values.get("turn_seconds")
    accepts = t("0 (no timer) or 15..3600")
    lines.append(
        setting_show_line("turn_seconds", turn, accepts, setting_help_text("turn_seconds"))
    )
    return clip("\n".join(lines))


def _list_example(default: Any) -> str:
    """What a list setting accepts (``nt_doubling_multipliers``)."""
    example = ",".join(str(v) for v in default) if isinstance(default, tuple | list) else "3,5"
    return t("whole numbers like `{example}`", example=example)


def setting_show_line(key: str, value: Any, accepts: str, help_text: str) -> str:
    """One line of /settings show: the name, the key to type, the value in
    words, what it accepts and what it does."""
    return t(
        "{name}: **{value}** — {help} (accepts {accepts})",
        name=typed_name(key),
        value=value_word(key, value),
        help=help_text,
        accepts=accepts,
    )


def action_label(action: Action) -> str:
    """A button label (Discord allows 80 characters)."""
    return clip(label_for(action), 80)
