"""A refusal in the reader's language.

Two kinds of error reach a person:

* the service's (``bot.services.errors``): each carries its English
  message id and the values to fill in (``exc.msgid``, ``exc.params``), so
  it reads the same in English as ever and translated elsewhere;
* the engine's: each carries a stable ``reason`` code (and, where a number
  matters, ``params``).  In English the engine's own message is shown: it
  quotes the refused input precisely.  In another language the reason's
  catalogue message is shown (``ENGINE_REASONS``), or a generic "that move
  is not allowed now" for a code this table does not know yet.

Parameters that are words of the game (a table status, a difficulty) are
put in the language here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import N_, current, placeholders, t, tp
from bot.i18n.catalog import DEFAULT_LOCALE
from bot.i18n.settings_words import SETTING_NAMES, typed_name, typed_range
from bot.i18n.terms import (
    GAME_TITLES,
    and_list,
    card_text,
    difficulty_word,
    game_title,
    or_list,
    requirement_text,
    status_word,
    suit_name,
)
from engine.core.cards import Card

GENERIC = N_("That move is not allowed now.")
SYNTAX = N_("That is not a move: for example 'play AS', 'bid 3' or 'pass'.")

#: engine reason code -> catalogue message (placeholders come from ``exc.params``)
ENGINE_REASONS: Mapping[str, str] = {
    "error": N_("That cannot be done."),
    "illegal": GENERIC,
    "not_your_turn": N_("It is not your turn: waiting for {waiting}."),
    "game_over": N_("The match is over."),
    "not_in_this_game": N_("That is not a move of this game."),
    "wrong_phase": N_("That is not possible in this phase of the game."),
    # the text of a move (the terminal)
    "invalid_syntax": SYNTAX,
    "not_text": SYNTAX,
    "not_an_action": SYNTAX,
    "unknown_verb": SYNTAX,
    "extra_words": SYNTAX,
    "bad_number": SYNTAX,
    "not_a_log": SYNTAX,
    "too_long": N_("That is too long to be a move."),
    "empty": N_("Type a move, for example 'play AS' or 'bid 3'."),
    "bad_character": N_("Use plain letters, digits and spaces, for example 'play 7H 7D'."),
    "bad_card": N_(
        "That is not a card: rank 2-9 T J Q K A, then suit S H D C (AS, TH, 10H, 7D; "
        "jokers RJ, BJ)."
    ),
    "bad_play": N_("Play a card, for example 'play AS'."),
    "one_card": N_("Play exactly one card, for example 'play AS'."),
    "bad_trump": N_("Name one suit as trump: S, H, D or C."),
    "bad_hidden": N_("Name one hidden card, for example 'hidden 2'."),
    "bad_bid": N_("That is not a bid of this game."),
    "bad_strain": N_("A bid names a suit (S, H, D, C) or NT."),
    # playing a card
    "not_in_hand": N_("That card is not in the hand you play from."),
    "must_follow_suit": N_("You must follow suit."),
    "must_beat": N_("You must follow suit with a card higher than the highest one in the trick."),
    "must_trump": N_("You have none of the led suit, so you must play a trump."),
    "must_overtrump": N_("You must play a trump higher than the highest one in the trick."),
    "trump_not_broken": N_("Trump may not be led until it is broken while you hold another suit."),
    # bidding
    "bid_out_of_range": N_("That bid is not allowed now."),
    "forced_opening": N_("The first bidder may not pass: open at {min} or more."),
    "bid_too_low": N_("Bid at least {low}."),
    "hook_rule": N_("The hook rule: the dealer may not make the bids add up to {total}."),
    "bad_contra": N_("Only an opponent of the standing bid may double it, once."),
    "bad_recontra": N_("Recontra is for the doubled team, after a contra."),
    "doubled": N_("After a contra no new bid is allowed."),
    "capot_sticky": N_("A capot bid stands: every later bid must be capot."),
    "capot_too_low": N_("Capot bids start at 25."),
    # Ladder
    "must_play": N_("You have a legal play, so you must make one."),
    "wrong_source": N_("Play from your hand first, then your shown cards, then your hidden ones."),
    "no_such_hidden": N_("There is no hidden card there."),
    "mixed_ranks": N_("A play is cards of one rank only."),
    "mixed_sources": N_("Play from one place at a time: your hand or your shown cards."),
    "blocked_by_requirement": N_("That rank is blocked by the pile's requirement."),
    "action_last_card": N_("An action card (2, 3, 9, T) may not be your last card."),
    # settings and tables
    "bad_setting": N_("That value is not allowed for this setting."),
    "bad_list": N_("{setting} must be whole numbers like 3,5 (got {value})."),
    "out_of_range": N_("{setting} must be {range} (got {value})."),
    "unknown_setting": N_("There is no setting {setting} here; known: {known}."),
    "bad_variant": N_("Those settings are not valid for this game."),
    "bad_seed": N_("The seed must be a whole number."),
    "unknown_game": N_("There is no game {game}; choose one of: {known}."),
    "invalid_position": N_("That position is not consistent."),
}
#: refusals of a setting: always from the catalogue (English too), so the
#: setting is named in words, not only by its key
SETTING_REASONS = ("out_of_range", "unknown_setting", "bad_list")
#: engine reason code -> the sentences that say it with its values (``exc.params``),
#: most precise first: the first whose placeholders the error carries is used.
#: A rule refusal keeps its number, card or suit in every language.
WITH_VALUES: Mapping[str, tuple[str, ...]] = {
    # playing a card (values: card, suit to follow, trump, where the card was looked for)
    "not_in_hand": (N_("{cards} is not in {place}."),),
    "must_follow_suit": (N_("You cannot play {card}: you must follow suit ({suit})."),),
    "must_beat": (
        N_(
            "You cannot play {card}: you must follow {suit} with a card higher than the "
            "highest one in the trick."
        ),
    ),
    "must_trump": (
        N_("You cannot play {card}: you have no {suit}, so you must play a trump ({trump})."),
    ),
    "must_overtrump": (
        N_(
            "You cannot play {card}: you must play a trump ({trump}) higher than the highest "
            "one in the trick."
        ),
    ),
    "trump_not_broken": (
        N_(
            "You cannot lead {card}: trump ({trump}) may not be led until it is broken while "
            "you hold another suit."
        ),
    ),
    # bidding (values: the lowest and highest bid allowed now)
    "bid_out_of_range": (N_("Bid from {min} to {max}."),),
    "bid_too_low": (N_("Bid at least {low} (and at most {max})."), N_("Bid at least {low}.")),
    "capot_too_low": (N_("Capot bids start at {min}."),),
    "wrong_phase": (N_("'{move}' is not possible now: this is {phase}."),),
    # Ladder (values: the cards, the place they must come from, the pile's requirement)
    "wrong_source": (N_("Play from {place} first."),),
    "no_such_hidden": (N_("There is no hidden card in slot {number}."),),
    "mixed_sources": (N_("Play from {place} only: sources are never mixed."),),
    "blocked_by_requirement": (N_("You cannot play {cards}: the pile requires {requirement}."),),
    "action_last_card": (
        N_("You cannot play {cards}: an action card (2, 3, 9, T) may not be your last card."),
    ),
    # the text of a move (values: the word that is wrong, the limits)
    "too_long": (N_("That is too long to be a move ({limit} characters at most)."),),
    "bad_number": (N_("'{word}' is not a number from 0 to {max}."),),
    "bad_card": (
        N_("{card} is named twice."),
        N_(
            "'{word}' is not a card: rank 2-9 T J Q K A, then suit S H D C (AS, TH, 10H, 7D; "
            "jokers RJ, BJ)."
        ),
    ),
    "extra_words": (N_("'{move}' takes nothing after it."),),
    "not_in_this_game": (N_("That is not a move of this game: use {verbs}."),),
}
#: reasons whose message needs a parameter the error may lack: shown without it
WITHOUT_PARAMS: Mapping[str, str] = {
    "not_your_turn": N_("It is not your turn."),
    "out_of_range": N_("That value is out of range for this setting."),
    "unknown_setting": N_("There is no such setting for this game."),
    "unknown_game": N_("There is no such game."),
    "forced_opening": N_("The first bidder may not pass before anyone has bid."),
    "bid_too_low": GENERIC,
    "hook_rule": N_("The hook rule: the dealer may not make the bids add up to the hand size."),
}


def localized_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """Values that are words of the game, in the current language; a
    setting by its name (with the key to type), what it accepts in words."""
    out = dict(params)
    setting = params.get("setting")
    setting = setting if isinstance(setting, str) and setting in SETTING_NAMES else None
    if "card" in params and "cards" not in params:
        out["cards"] = params["card"]
    if "source" in params:
        out["place"] = place_word(str(params["source"]))
    for key, value in list(out.items()):
        if key == "setting" and setting is not None:
            out[key] = typed_name(setting)
        elif key == "range" and setting is not None and isinstance(value, tuple | list):
            out[key] = typed_range(setting, (str(v) for v in value))
        elif key == "known" and _setting_keys(value):
            out[key] = and_list(typed_name(k) for k in _setting_keys(value))
        elif key == "game" and isinstance(value, str) and value in GAME_TITLES:
            out[key] = game_title(value)
        elif key in ("card", "cards") and isinstance(value, str):
            out[key] = _cards_word(value)
        elif key == "phase" and isinstance(value, str):
            out[key] = phase_word(value)
        elif key == "requirement" and isinstance(value, str):
            out[key] = requirement_text(value)
        elif key == "verbs" and isinstance(value, tuple | list):
            out[key] = or_list(f"'{v}'" for v in value)
        elif key == "status" and isinstance(value, str):
            out[key] = status_word(value)
        elif key == "difficulty" and isinstance(value, str):
            out[key] = difficulty_word(value)
        elif key in ("suit", "trump") and isinstance(value, str):
            out[key] = suit_name(value)
        elif key == "verb" and isinstance(value, str):
            out[key] = verb_word(value)
        elif isinstance(value, tuple | list):  # alternatives: "1..13 or 0"
            out[key] = or_list(str(v) for v in value)
    return out


def _setting_keys(value: Any) -> list[str]:
    """The keys of a "known: ..." list of settings ("a, b" or a tuple), or
    [] when it lists something else (games)."""
    keys = value.split(", ") if isinstance(value, str) else value
    if not isinstance(keys, tuple | list) or not keys:
        return []
    keys = [str(k) for k in keys]
    return keys if all(k in SETTING_NAMES for k in keys) else []


def _cards_word(text: str) -> str:
    """``"KS"`` -> ``K♠`` (as the hand shows cards); text that is no card stays."""
    try:
        return " ".join(card_text(Card.parse(word)) for word in text.split())
    except ValueError:
        return text


def place_word(source: str) -> str:
    """Where a card is played from (a refusal's ``source``)."""
    words = {
        # i18n: where a card is played from, in "{cards} is not in {place}" and
        # "Play from {place} first"
        "hand": tp("card place", "your hand"),
        "dummy": tp("card place", "the dummy's hand"),
        "shown": tp("card place", "your shown cards"),
        "hidden": tp("card place", "your hidden cards"),
    }
    return words.get(source, source)


def phase_word(phase: str) -> str:
    """A phase of a deal, for "'play' is not possible now: this is {phase}"."""
    words = {
        # i18n: the phase of a deal, in "'{move}' is not possible now: this is {phase}"
        "auction": tp("game phase", "the auction"),
        "bidding": tp("game phase", "the bidding"),
        "trump": tp("game phase", "the naming of trump"),
        "play": tp("game phase", "the play of the cards"),
        "over": tp("game phase", "the end of the match"),
    }
    return words.get(phase, phase)


def engine_message(exc: BaseException) -> str | None:
    """The catalogue sentence (message id) that says the engine's refusal
    ``exc`` with its values, or None when its code has none or the error
    lacks the values."""
    params: Mapping[str, Any] = getattr(exc, "params", None) or {}
    reason = str(getattr(exc, "reason", "") or "")
    available = set(localized_params(params))
    for msgid in WITH_VALUES.get(reason, ()):
        if placeholders(msgid) <= available:
            return msgid
    return None


def rule_text(exc: BaseException) -> str:
    """A refusal in one sentence, in the current language, English included:
    the sentence with its values (cards as the hand shows them) when the
    catalogue has one, else ``error_text``.  The terminal's choice: the
    engine's English message writes cards in notation (``KS``)."""
    msgid = engine_message(exc)
    if msgid is None or getattr(exc, "msgid", None):
        return sentence(error_text(exc))
    return t(msgid, **localized_params(getattr(exc, "params", None) or {}))


def sentence(text: str) -> str:
    """``text`` as one sentence: a capital first letter and a full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?…।։" else text + "."


def verb_word(verb: str) -> str:
    """What the person tried, for "you cannot {verb} now" (a refusal)."""
    words = {
        # i18n: what a person tried to do, in "you cannot {verb} now: table #{table} is
        # {status}"; phrase each so that it fits your translation of that sentence
        "join": tp("table action", "join"),
        "leave": tp("table action", "leave"),
        "add an AI player": tp("table action", "add an AI player"),
        "remove a player": tp("table action", "remove a player"),
        "start": tp("table action", "start"),
        "play": tp("table action", "play"),
        "resign": tp("table action", "resign"),
        "come back to": tp("table action", "come back to"),
    }
    return words.get(verb, verb)


def error_text(exc: BaseException) -> str:
    """What to tell a person about ``exc`` (an ``EngineError``), in the
    current language; no "⚠️" prefix (the front end adds its own)."""
    params: Mapping[str, Any] = getattr(exc, "params", None) or {}
    msgid = getattr(exc, "msgid", None)
    if isinstance(msgid, str) and msgid:
        return t(msgid, **localized_params(params))
    reason = str(getattr(exc, "reason", "") or "")
    named = reason in SETTING_REASONS and placeholders(ENGINE_REASONS[reason]) <= set(params)
    if current().code == DEFAULT_LOCALE and not named:
        return str(exc)  # the engine's own words quote the refused input
    with_values = engine_message(exc)
    if with_values is not None:
        return t(with_values, **localized_params(params))
    chosen = ENGINE_REASONS.get(reason, GENERIC)
    if not placeholders(chosen) <= set(params):
        chosen = WITHOUT_PARAMS.get(reason, GENERIC)
    return t(chosen, **localized_params(params))
