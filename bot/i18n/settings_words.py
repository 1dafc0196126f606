"""Settings in words: every game's variant settings, the turn timer and the
server's switches, as players and moderators read them -- in one place for
every front end (Discord's lobby and /settings, refusals, the terminal).

A setting has a *key* (``max_bid``), which is what a moderator types and
what the store keeps, and a *name* ("highest bid") that people read; a
value has its stored form (``any_trump``, ``True``, ``[3, 5]``) and its
words ("any trump played", "yes", "3 and 5").  Texts show names and
words; where a moderator must type something, the key or token follows in
code font (``typed_name``, ``typed_value``), never alone.

``SETTING_NAMES`` must hold every field of every game's ``Variant`` and
every server setting (``bot.services.settings.GUILD_DEFAULTS``), and
``value_word`` every choice: ``tests/bot/test_settings_words.py`` walks
them all in every language.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.i18n import N_, NATIVE_NAMES, t, tn, tp
from bot.i18n.terms import and_list, or_list

#: key -> the setting's name (a short noun phrase, as in "highest bid: 8")
SETTING_NAMES: dict[str, str] = {
    # games (engine ``Variant`` fields)
    "target_score": N_("target score"),
    "min_bid": N_("lowest bid"),
    "trump_unlock": N_("what breaks trump"),
    "defender_min_tricks": N_("tricks the defenders need"),
    "rounds": N_("number of deals"),
    "max_bid": N_("highest bid"),
    "partner_exemption": N_("no trumping while the partner wins"),
    "must_undertrump": N_("must trump even lower"),
    "declarations_count_for_contract": N_("declarations count for the contract"),
    "nt_doubling_multipliers": N_("no-trump contra and recontra multipliers"),
    "players": N_("number of players"),
    "max_cards": N_("largest hand"),
    "trump_lead": N_("leading trump"),
    "joker_turned": N_("a turned joker"),
    "hook_rule": N_("hook rule"),
    "first_player": N_("first player"),
    "action_last_card": N_("action card as the last card"),
    "burn_on_2_3": N_("a 2 or 3 clears the pile"),
    "target_wins": N_("games to win the match"),
    "max_turns": N_("turns before a draw"),
    "max_deals": N_("deals before the match ends"),
    # every game
    "turn_seconds": N_("turn timer"),
    # the server's switches
    "rated_with_ai": N_("rated with AI players"),
    "use_threads": N_("a thread for each table"),
    "turn_pings": N_("turn pings"),
    "ping_after": N_("wait before a turn ping"),
    "language": N_("server language"),
    "hints": N_("hints at unrated tables"),
    "moderator_role_id": N_("moderator role"),
}
#: what the settings that are not a game's own do (a game's: the engine's
#: ``SettingSpec.help``, translated by ``bot.i18n.terms.setting_help``)
HELP: dict[str, str] = {
    "turn_seconds": N_("seconds per turn; 0 = no timer"),
    "rated_with_ai": N_("tables with AI players count for ratings"),
    "use_threads": N_("each table gets a thread for its deal summaries"),
    "turn_pings": N_("tell players when it is their turn"),
    "ping_after": N_("seconds a player may take before being pinged (0: ping as the turn starts)"),
    "language": N_("the language of the server's tables (auto: the server's Discord language)"),
    "hints": N_("players may ask for hints (/table hint) at unrated tables"),
    "moderator_role_id": N_("members with this role may change settings and end tables"),
}
#: settings counted in seconds (0 = off / at once)
SECONDS = ("turn_seconds", "ping_after")


def setting_name(key: str) -> str:
    """``max_bid`` -> "highest bid" in the current language (an unknown key
    is shown as it is)."""
    msgid = SETTING_NAMES.get(key)
    return t(msgid) if msgid else key


def setting_help_text(key: str) -> str:
    """What a turn timer or server setting does (``HELP``), translated."""
    msgid = HELP.get(key)
    return t(msgid) if msgid else ""


def typed_name(key: str) -> str:
    """The name with the key a moderator types: "highest bid (`max_bid`)"."""
    if key not in SETTING_NAMES:
        return f"`{key}`"
    return t("{name} (`{key}`)", name=setting_name(key), key=key)


def value_word(key: str, value: Any) -> str:
    """A stored value in words: yes/no, a choice's words, seconds, a list."""
    if isinstance(value, bool):
        # i18n: the value of a yes/no setting
        return tp("setting value", "yes") if value else tp("setting value", "no")
    if value is None:
        # i18n: a setting with no value (no moderator role)
        return tp("setting value", "none")
    if isinstance(value, list | tuple):
        return and_list(value_word(key, v) for v in value)
    if key in SECONDS and isinstance(value, int):
        if value == 0:
            # i18n: turn_seconds 0 = no turn timer; ping_after 0 = ping as the turn starts
            return tp("setting value", "off") if key == "turn_seconds" else t("at once")
        return tn("{n} second", "{n} seconds", value)
    if key == "language" and isinstance(value, str):
        # i18n: the server's language follows its Discord language
        return NATIVE_NAMES.get(value) or tp("setting value", "as the server's Discord")
    if isinstance(value, str):
        return choice_word(value)
    return str(value)


def choice_word(token: str) -> str:
    """A choice of a setting (``any_trump``) in words."""
    words = {
        # i18n: Batak's trump_unlock: trump is broken by any trump played, or only by a ruff
        # (a trump played on another suit's lead)
        "any_trump": tp("setting value", "any trump played"),
        "ruff_only": tp("setting value", "only a ruff"),
        # i18n: Backalley's trump_lead: trump may be led only with a hand of trumps, or once
        # trump has been played
        "only_trumps": tp("setting value", "only with a hand of trumps"),
        "broken": tp("setting value", "once trump is broken"),
        # i18n: Backalley's joker_turned: a joker turned as trump: turn the next card, or play
        # the deal with the jokers as the only trumps
        "turn_again": tp("setting value", "turn the next card"),
        "no_trump": tp("setting value", "jokers are the only trumps"),
        # i18n: Ladder's action_last_card: an action card may not empty the hand, or may only
        # not be the very last card
        "forbid_empty_hand": tp("setting value", "may not empty the hand"),
        "forbid_final_only": tp("setting value", "may not be the very last card"),
        # i18n: Ladder's first_player: a seat drawn at random
        "random": tp("setting value", "random"),
        "auto": tp("setting value", "as the server's Discord"),
    }
    return words.get(token, token)


def typed_value(key: str, token: str) -> str:
    """A value a moderator may type, with its words where they differ:
    "yes (`true`)", "any trump played (`any_trump`)", "8..13"."""
    low = token.lower()
    if low in ("true", "false"):
        word = value_word(key, low == "true")
    elif key == "language" and low in NATIVE_NAMES:
        word = NATIVE_NAMES[low]
    elif ".." in token or token.lstrip("-").isdigit():
        return token
    else:
        word = choice_word(token)
    return t("{word} (`{token}`)", word=word, token=token)


def typed_range(key: str, parts: Iterable[str]) -> str:
    """What a setting accepts: "8..13", "yes (`true`) or no (`false`)"."""
    return or_list(typed_value(key, p) for p in parts)


def setting_pair(key: str, value: Any) -> str:
    """ "highest bid: 8"."""
    return t("{name}: {value}", name=setting_name(key), value=value_word(key, value))


def settings_line(values: Mapping[str, Any]) -> str:
    """A table's settings on one line: "deals: 1 · highest bid: 8"."""
    return " · ".join(setting_pair(k, v) for k, v in values.items())
