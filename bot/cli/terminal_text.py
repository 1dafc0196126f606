"""The terminal's own sentences: the help of each game, a line that is no
move, the refusal of a move, the legal moves.

Split from ``bot.cli.terminal`` (which reads input, drives the table service
and prints) so that the words can be tested without a table.  What a game
accepts is read from the engine's ``Game`` -- its verbs, its bid forms and
how many cards one play may hold -- so each game offers only its own moves
(Callbreak never suggests 'pickup').  Every word goes through ``bot.i18n``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.i18n import t
from bot.i18n.errors import rule_text
from bot.i18n.terms import game_title, or_list
from bot.render.text import moves_text, options_text
from engine import Action, Card, Game, InvalidAction

#: how each verb is typed, the first example of each; a game's bid forms pick
#: the bid examples (``bid 3``; ``bid 9 H``; ``bid backalley``)
_VERB_EXAMPLES: Mapping[str, tuple[str, ...]] = {
    "pass": ("pass",),
    "contra": ("contra",),
    "recontra": ("recontra",),
    "trump": ("trump S",),
    "pickup": ("pickup",),
    "hidden": ("hidden 2",),
}
_BID_EXAMPLES: Mapping[str, str] = {
    "number": "bid 3",
    "strain": "bid 9 H",
    "capot": "bid 25 S capot",
    "backalley": "bid backalley",
}


def typed_examples(game: Game) -> list[str]:
    """Examples of what may be typed in ``game``, in its own verbs only."""
    examples = ["play AS"]
    if game.max_play_cards > 1:
        examples.append("play 7H 7D")
    for verb in sorted(game.verbs):
        if verb == "bid":
            examples += [_BID_EXAMPLES[f] for f in sorted(game.bid_forms) if f in _BID_EXAMPLES]
        else:
            examples += _VERB_EXAMPLES.get(verb, ())
    return examples


def _quoted(items: Sequence[str]) -> str:
    return ", ".join(f"'{item}'" for item in items)


def help_text(game: Game, command: str = "python -m bot play --resume") -> str:
    """What may be typed, for this game only; ``command`` resumes the game."""
    lines = [t("Type a card to play it (AS, as, 10h, 7d).")]
    if "bid" in game.verbs:
        if "strain" in game.bid_forms:
            lines.append(t("Type a bid as a number and a suit (9h, 10nt), or in full ('bid 9 H')."))
        else:
            lines.append(t("Type a number to bid it (3)."))
    lines.append(
        t(
            "Moves of {game}: {examples}.",
            game=game_title(game.name, game.title),
            examples=_quoted(typed_examples(game)),
        )
    )
    lines.append(
        t(
            "'?' lists your legal moves, 't' shows the table again, 'q' quits (resume later\n"
            "with '{command}').",
            command=command,
        )
    )
    return "\n".join(lines)


def refusal_text(exc: Exception, game: Game, text: str) -> str:
    """Why a typed move is refused, in one sentence.  A line that names no
    verb gets this game's verbs and examples, never another game's."""
    if isinstance(exc, InvalidAction) and exc.reason == "unknown_verb":
        return t(
            "'{text}' is not a move of {game}: type a card, or one of {verbs} (for example "
            "{examples}).",
            text=text[:24],
            game=game_title(game.name, game.title),
            verbs=or_list(f"'{v}'" for v in sorted(game.verbs)),
            examples=_quoted(typed_examples(game)[:3]),
        )
    return rule_text(exc)


def legal_line(legal: Sequence[Action], hand: Sequence[Card]) -> str:
    """'Legal now: 10♥, J♥' -- cards as the hand shows them, in its order."""
    return t("Legal now: {moves}", moves=moves_text(legal, hand))


def choices_line(legal: Sequence[Action]) -> str:
    """The compact line of non-card choices ('bid 1-8'), or ''."""
    choices = options_text(legal)
    return t("Choose: {choices}", choices=choices) if choices else ""
