"""Every label the web client shows, in the reader's language (the
``welcome`` frame's ``words``; docs/web.md, "Words").

The client holds no text of its own: it looks each label up by key.  The
words of the games (titles, suits, ranks, bids, statuses, difficulties)
are the ones the bot already says in Discord and the terminal
(``bot.i18n.terms``); the table's own labels are catalogue messages (shared
with the bot's other texts where the English is the same).  Placeholders
(``{name}``) are filled by the client.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache, partial

from bot.i18n import N_, t, using
from bot.i18n.terms import (
    bid_word,
    cards_text,
    difficulty_word,
    game_title,
    notation_text,
    rank_text,
    status_word,
    suit_name,
)
from engine import GAMES, Action
from engine.core.cards import SUIT_SYMBOLS

#: the table's labels: key -> English message (docs/web.md, "Words"; the
#: client keeps the same English texts as its fallback)
LABELS: Mapping[str, str] = {
    # i18n: the web table (browser and Discord Activity): short labels on the screen
    "your_turn": N_("Your turn"),
    "waiting_for": N_("Waiting for {name}"),
    "watching": N_("You are watching this table"),
    "connecting": N_("Connecting…"),
    "reconnecting": N_("Connection lost: reconnecting…"),
    "your_hand": N_("Your hand"),
    "trick": N_("Trick"),
    "last_trick": N_("Last trick"),
    "trump": N_("Trump"),
    "contract": N_("Contract"),
    "declarer": N_("Declarer"),
    "dealer": N_("Dealer"),
    "bid": N_("Bid"),
    "bids": N_("Bids"),
    "standing_bid": N_("Standing bid"),
    "auction": N_("Auction"),
    "tricks": N_("Tricks"),
    "scores": N_("Scores"),
    "card_points": N_("Card points"),
    "declarations": N_("Declarations"),
    "dummy": N_("Dummy"),
    "pile": N_("Pile"),
    "shown": N_("Shown cards"),
    "hidden": N_("Hidden cards"),
    "turned": N_("Turned card"),
    "hand_size": N_("Hand size"),
    # i18n: Ladder: what the next play must be, e.g. "Next: 9 or lower"
    "next_play": N_("Next: {requirement}"),
    "level": N_("Level"),
    "cards_left": N_("{number} cards"),
    "play": N_("Play"),
    "deal": N_("Deal {number}"),
    "ladder_game": N_("Game {number}"),
    # i18n: the turn timer
    "seconds_left": N_("{seconds} s left"),
    "team": N_("Team {number}"),
    "seat": N_("Seat {seat}"),
    "you": N_("You"),
    "ai": N_("AI"),
    "away": N_("away"),
    "result": N_("Result"),
    "winners": N_("Winners"),
    "match_over": N_("The match is over."),
    "new_game": N_("New game"),
    "play_vs_ai": N_("Play against the AI"),
    "choose_game": N_("Choose a game"),
    "tables": N_("Tables"),
    "back_to_tables": N_("All tables"),
    "no_tables": N_("No open tables here."),
    "open": N_("Open"),
    "watch": N_("Watch"),
    "replay": N_("Replay"),
    "move_of": N_("Move {at} of {total}"),
    "first": N_("To the start"),
    "previous": N_("Back"),
    "next": N_("Forward"),
    "last": N_("To the end"),
    "language": N_("Language"),
    # i18n: card names read aloud by screen readers, e.g. "Play Q♥", "A of spades"
    "play_card": N_("Play {card}"),
    "not_playable": N_("{card}: cannot be played now"),
    "card_of": N_("{rank} of {suit}"),
    "red_joker": N_("Red joker"),
    "black_joker": N_("Black joker"),
    "open_table": N_("Open the table"),
}
#: the texts of Ladder's buttons (``action_label``)
PICK_UP = N_("Pick up the pile")
HIDDEN_CARD = N_("Hidden card {n}")


#: the games' own words, from ``bot.i18n.terms`` (the same as in Discord):
#: key -> how to say it now
GAME_WORDS: Mapping[str, Callable[[], str]] = {
    **{f"game.{name}": partial(game_title, name) for name in GAMES},
    **{f"suit.{s}": partial(suit_name, s) for s in ("S", "H", "D", "C", "J", "NT")},
    **{f"rank.{r}": partial(rank_text, v) for r, v in (("A", 14), ("K", 13), ("Q", 12), ("J", 11))},
    **{
        f"bid.{w}": partial(bid_word, w)
        for w in ("pass", "contra", "recontra", "capot", "backalley", "NT")
    },
    **{
        f"status.{s}": partial(status_word, s)
        for s in ("lobby", "playing", "finished", "abandoned")
    },
    **{f"difficulty.{d}": partial(difficulty_word, d) for d in ("easy", "normal", "hard")},
}


def words() -> dict[str, str]:
    """Every label in the current language."""
    out = {key: t(msgid) for key, msgid in LABELS.items()}
    out.update({key: say() for key, say in GAME_WORDS.items()})
    return out


@cache
def words_in(lang: str) -> dict[str, str]:
    """``words()`` in ``lang`` (built once per language: the catalogues do
    not change while the bot runs).  Callers must not mutate it."""
    with using(lang):
        return words()


def action_label(action: Action) -> str:
    """A legal action as its button says it, in the current language: a bid
    as players say it (``3``, ``9 ♥``, ``pass``), trump as its suit, several
    cards as their faces, Ladder's blind play and pick-up in words."""
    text = str(action)
    if action.verb == "play":
        return cards_text(action.cards)
    if action.verb == "trump" and action.word:
        return f"{SUIT_SYMBOLS.get(action.word, action.word)} {suit_name(action.word)}"
    if action.verb == "pickup":
        return t(PICK_UP)
    if action.verb == "hidden":
        return t(HIDDEN_CARD, n=action.number)
    return notation_text(text)
