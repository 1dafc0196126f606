"""The games' own words, in the current language: suits, card ranks, bids,
contracts, declarations, Ladder's requirement, game titles and summaries,
and the settings' help texts.

The engine speaks a notation (``AS``, ``bid 9 H``, ``10 H contra``, ``MIN
8``) and a few English descriptions (a setting's help, a game's summary, a
Blot declaration such as ``tierce (20)``).  This module turns each into
what players of the current language say at the table; the catalogues'
comments record the words chosen where usage varies.  Suit *symbols* stay
symbols everywhere (buttons, the picture); suit *names* and rank letters
are translated.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from bot.i18n import N_, t, tp
from engine.core.cards import SUIT_SYMBOLS, Card
from engine.core.spec import SettingSpec


# -- suits and cards -------------------------------------------------------------------------
def suit_name(suit: str | None) -> str:
    """``H`` -> ``hearts`` (as one says the suit in a sentence)."""
    names = {
        # i18n: suit names as used in a sentence ("trump: hearts")
        "S": tp("suit", "spades"),
        "H": tp("suit", "hearts"),
        "D": tp("suit", "diamonds"),
        "C": tp("suit", "clubs"),
        "J": tp("suit", "jokers"),
        "NT": tp("suit", "no trump"),
    }
    return names.get(suit or "", str(suit))


def rank_text(rank: int) -> str:
    """A rank as players write it on a card: ``A``, ``K``, ``10``, ``7``."""
    letters = {
        # i18n: card rank letters shown on buttons and in text, with the suit symbol
        # after them (A♠, K♥). Use the letters players of your language write;
        # keep them short (one or two characters).
        14: tp("card rank", "A"),
        13: tp("card rank", "K"),
        12: tp("card rank", "Q"),
        11: tp("card rank", "J"),
    }
    return letters.get(rank, str(rank))


def card_text(card: Card) -> str:
    """``A♠``, ``10♥`` (rank letters localised, symbols kept); jokers ``RJ``/``BJ``."""
    if card.is_joker:
        # i18n: the two jokers: RJ = the red (coloured) joker, BJ = the black one
        return tp("joker", "RJ") if str(card) == "RJ" else tp("joker", "BJ")
    return rank_text(card.rank) + SUIT_SYMBOLS[card.suit]


def cards_text(cards: Sequence[Card], empty: str = "-") -> str:
    return " ".join(card_text(c) for c in cards) if cards else empty


# -- bids, contracts, declarations -------------------------------------------------------------
def bid_word(word: str) -> str:
    """A word of a bid or contract: ``pass``, ``contra``, ``recontra``,
    ``capot``, ``backalley``, ``no trump``; suit letters become symbols."""
    if word in SUIT_SYMBOLS and word != "J":
        return SUIT_SYMBOLS[word]
    words = {
        # i18n: words of the auction. contra/recontra: Blot's double and redouble;
        # capot: a bid to take every trick (Blot); backalley: Backalley's bid of all tricks
        "NT": tp("bid", "no trump"),
        "pass": tp("bid", "pass"),
        "contra": tp("bid", "contra"),
        "recontra": tp("bid", "recontra"),
        "capot": tp("bid", "capot"),
        "backalley": tp("bid", "backalley"),
    }
    return words.get(word.lower() if word.lower() in words else word, word)


def notation_text(text: str | None) -> str:
    """A contract or auction entry as players read it: ``10 H contra`` ->
    ``10 ♥ contra``, ``bid 9 NT`` -> ``9 no trump``, ``bid backalley`` ->
    ``backalley``.  Only bids, contracts and passes (never a card)."""
    if not text:
        return ""
    words = text.split()
    if words[0] == "bid" and len(words) > 1:
        words = words[1:]
    return " ".join(bid_word(w) for w in words)


_RUN = re.compile(r"^(tierce|fifty|hundred) \((\d+)\)$")
_FOUR = re.compile(r"^four (\w+) \((\d+)\)$")
_BELOTE = re.compile(r"^belote \((\d+)\)$")


def declaration_text(text: str) -> str:
    """A Blot declaration as the engine describes it (``tierce (20)``,
    ``four jacks (200)``, ``belote (20)``) in the current language."""
    run = _RUN.match(text)
    if run:
        names = {
            # i18n: Blot declarations: a run of 3 (tierce), 4 (fifty), 5+ (hundred)
            # cards of one suit; use the names Blot players use at the table
            "tierce": tp("declaration", "tierce"),
            "fifty": tp("declaration", "fifty"),
            "hundred": tp("declaration", "hundred"),
        }
        return t("{name} ({points})", name=names[run[1]], points=run[2])
    four = _FOUR.match(text)
    if four:
        ranks = {
            "aces": tp("declaration", "four aces"),
            "kings": tp("declaration", "four kings"),
            "queens": tp("declaration", "four queens"),
            "jacks": tp("declaration", "four jacks"),
            "tens": tp("declaration", "four tens"),
            "nines": tp("declaration", "four nines"),
        }
        name = ranks.get(four[1], text)
        return t("{name} ({points})", name=name, points=four[2])
    belote = _BELOTE.match(text)
    if belote:
        # i18n: Blot's belote: king and queen of trump
        return t("{name} ({points})", name=tp("declaration", "belote"), points=belote[1])
    return text


def requirement_text(requirement: str | None) -> str:
    """Ladder's requirement on the next play (``ANY``, ``MIN 8``, ``MAX 9``),
    as players of the language write it."""
    if not requirement:
        return ""
    kind, _, value = requirement.partition(" ")
    # i18n: Ladder's requirement on the next play, shown on the pile: ANY = any rank,
    # MIN 8 = 8 or higher, MAX 9 = 9 or lower; keep it short (a few characters)
    if kind == "MIN":
        return tp("ladder requirement", "MIN {rank}", rank=_rank_word(value))
    if kind == "MAX":
        return tp("ladder requirement", "MAX {rank}", rank=_rank_word(value))
    return tp("ladder requirement", "ANY")


def _rank_word(value: str) -> str:
    chars = {"T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
    if value.isdigit():
        return rank_text(int(value))
    return rank_text(chars[value]) if value in chars else value


def or_list(items: Iterable[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    parts = list(items)
    if len(parts) <= 1:
        return parts[0] if parts else ""
    return t("{items} or {last}", items=", ".join(parts[:-1]), last=parts[-1])


def and_list(items: Iterable[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    parts = list(items)
    if len(parts) <= 1:
        return parts[0] if parts else ""
    return t("{items} and {last}", items=", ".join(parts[:-1]), last=parts[-1])


# -- games and their settings ---------------------------------------------------------------
#: the games' names as players know them (proper names: translate only where a
#: script needs it)
GAME_TITLES = {
    "batak": N_("Eşli Batak"),
    "callbreak": N_("Callbreak"),
    "blot": N_("Bazar Blot"),
    "backalley": N_("Backalley"),
    "ladder": N_("Ladder"),
}
#: the lobby's one-paragraph summaries (the engine's ``Game.summary``; a test
#: keeps them equal)
GAME_SUMMARIES = {
    "batak": N_(
        "Partnership Batak: bid for the contract (the first bidder must open, at 7 or "
        "more), name trump, and your partner's hand goes face up as the dummy, played by "
        "you. Follow suit and beat the trick when you can; trump when void. First team to "
        "50 wins."
    ),
    "callbreak": N_(
        "Four players, each for themselves. Spades are always trump. Bid the tricks you "
        "will take (1 up to the highest bid allowed), then make it: head the trick when "
        "you can, trump when void. Made: bid + 0.1 per extra trick; failed: -bid."
    ),
    "blot": N_(
        "Armenian partnership Belote with 32 cards: bid a level and a suit or no trump in "
        "the bazar (contra and recontra double it), then take card points. Runs and four "
        "of a kind score for the team with the best one; K+Q of trump is belote. First "
        "team to 301 wins."
    ),
    "backalley": N_(
        "2 to 8 players, each for themselves, up and down the river: hands of 1, 2, ... up "
        "to 7 cards and back. Bid the tricks you will take (or 'backalley' for all of "
        "them); the jokers are the highest trumps. Made, with at least the tricks bid: 3 x "
        "bid + 1 per extra trick; failed: -3 x bid."
    ),
    "ladder": N_(
        "A partnership climbing game: shed your hand, then your three shown table cards, "
        "then three hidden ones played blind. Play equal or higher; 2 resets, 3 skips to "
        "your partner, 9 caps the next play at 9, T reshuffles every hand. First out wins "
        "for the team."
    ),
}
#: every variant setting's help text (the engine's ``SettingSpec.help``; a test
#: checks that each one is here)
SETTING_HELP = (
    N_("points a team needs to win"),
    N_("lowest bid after the forced opening"),
    N_("what breaks trump: any trump played, or only a ruff"),
    N_("tricks the defenders need to score them"),
    N_("deals in a game"),
    N_("highest bid allowed"),
    N_("lowest first bid"),
    N_("no need to trump while your partner wins"),
    N_("void and unable to over-trump: still trump"),
    N_("declarations count toward making the contract"),
    N_("NT multipliers for contra and recontra"),
    N_("number of players"),
    N_("largest hand (capped at 53 // players)"),
    N_("lead trump only with a hand of trumps, or once trump has been played"),
    N_("a turned joker: turn the next card, or play the deal with jokers as trump"),
    N_("the dealer may not make the bids add up to the hand size"),
    N_("seat that starts"),
    N_("action cards may not empty the hand, or only not be the very last card"),
    N_("a 2 or 3 clears the pile"),
    N_("games a team needs to win the match"),
    N_("turns before a game is a draw"),
    N_("deals before the match ends at the higher total"),
)


def game_title(game: str, fallback: str = "") -> str:
    msgid = GAME_TITLES.get(game)
    return t(msgid) if msgid else fallback or game


def game_summary(game: str, fallback: str = "") -> str:
    msgid = GAME_SUMMARIES.get(game)
    return t(msgid) if msgid else fallback


def setting_help(spec: SettingSpec) -> str:
    return t(spec.help) if spec.help in SETTING_HELP else spec.help


def setting_range(spec: SettingSpec) -> str:
    """What a setting accepts, as ``SettingSpec.describe_range`` spells it
    (values stay as typed: ``true``, ``any_trump``), joined in the language."""
    parts = spec.range_parts()
    # i18n: a setting that accepts any value
    return or_list(parts) if parts else t("any")


def status_word(status: str) -> str:
    """A table's status in words."""
    words = {
        # i18n: a table's status
        "lobby": tp("table status", "lobby"),
        "playing": tp("table status", "playing"),
        "finished": tp("table status", "finished"),
        "abandoned": tp("table status", "abandoned"),
    }
    return words.get(status, status)


def seat_display_name(name: str, ai: str | None) -> str:
    """A seat's name in the reader's language.

    The lobby stores an AI seat as "Ada (AI, normal)" (the log and the
    leaderboard keep that English form); the reader sees the suffix in their
    own words.  A person's name, and a resigned person's seat that an AI
    plays, are shown as they are."""
    suffix = f" (AI, {ai})" if ai else ""
    if not suffix or not name.endswith(suffix):
        return name
    # i18n: an AI seat's name, e.g. "Ada (AI, hard)"; {level} is a difficulty word
    return t("{name} (AI, {level})", name=name[: -len(suffix)], level=difficulty_word(ai or ""))


def difficulty_word(level: str) -> str:
    words = {
        # i18n: AI difficulty levels
        "easy": tp("difficulty", "easy"),
        "normal": tp("difficulty", "normal"),
        "hard": tp("difficulty", "hard"),
    }
    return words.get(level, level)
