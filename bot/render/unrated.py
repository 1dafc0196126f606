"""Why a result was not rated, in words (``bot.services.results.UNRATED``):
a sentence under a result (Discord, the terminal) and a short note for a
line of ``/history``.  A reason this module does not know (a newer bot
wrote it) still reads "not rated", never a raw code."""

from __future__ import annotations

from bot.i18n import N_, t
from bot.services.results import AI_SEATS, NO_SERVER, TOURNAMENT_BOARD

SENTENCES = {
    NO_SERVER: N_("Not rated: ratings are kept per Discord server."),
    AI_SEATS: N_(
        "Not rated: an AI played a seat from the start, and this server rates only "
        "games between people."
    ),
    TOURNAMENT_BOARD: N_(
        "Not rated: a tournament board counts in the tournament's standings, not in ratings."
    ),
}
NOTES = {
    NO_SERVER: N_("not rated: outside a server"),
    AI_SEATS: N_("not rated: AI players"),
    TOURNAMENT_BOARD: N_("not rated: tournament board"),
}
UNKNOWN_SENTENCE = N_("Not rated.")


def unrated_sentence(reason: str) -> str:
    """``Not rated: …`` under a result."""
    return t(SENTENCES.get(reason, UNKNOWN_SENTENCE))


def unrated_note(reason: str | None) -> str:
    """``not rated: AI players`` in a ``/history`` line; ``unrated`` when the
    reason was not recorded (a match finished before reasons were kept)."""
    if reason is None or reason not in NOTES:
        return t("unrated")
    return t(NOTES[reason])
