"""The paragraph that explains duplicate tournaments to a moderator: shown by
``/tournament help`` and as the "Tournaments" section of every game's
``/rules`` (issue 16: "README and /rules explain tournaments")."""

from __future__ import annotations

from bot.i18n import t


def help_text() -> str:
    """How a duplicate tournament works, in the reader's language."""
    return t(
        "A duplicate tournament takes the luck out of the cards: every table plays the same "
        "deals (boards), and your score on a board is compared only with the others who held "
        "the same cards at the other tables. A moderator opens one with /tournament new "
        "(game, number of boards, number of tables); players join with /tournament join "
        "(partners join one after the other) and empty places are played by AI. After "
        "/tournament start, each round is one board at every table; players move between "
        "seats and tables so that everyone meets each hand. Pairs are scored in IMPs or "
        "matchpoints, Callbreak and Backalley players seat by seat in matchpoints. The "
        "standings message is updated after every board and the tournament goes on after a "
        "restart of the bot. /tournament leaderboard ranks the server's players by "
        "tournaments won."
    )


def section_title() -> str:
    """The title of the tournaments section in ``/rules``."""
    # i18n: a section of /rules (after the rule book's own sections)
    return t("Tournaments")
