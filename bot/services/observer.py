"""What the service tells an observer as it works (act latency, moves, AI
decisions), so that ``bot.discord.metrics`` can count them without the service
importing Prometheus.

The default observer does nothing: the terminal and most tests never set
one.  Every hook is a plain synchronous call made on the event loop, after
the thing it reports has happened; an observer must be cheap and must not
raise.
"""

from __future__ import annotations


class ServiceObserver:
    """The hooks, each a no-op here (``bot.discord.metrics.Metrics`` overrides them)."""

    def act_done(self, game: str, seconds: float) -> None:
        """A person's move was stored and applied, ``seconds`` after the
        click reached the service (lock wait and commit included)."""

    def move_stored(self, game: str, by_ai: bool) -> None:
        """A move was committed (a person's, or an AI's / a timeout's)."""

    def decision_done(self, agent: str, seconds: float) -> None:
        """An AI decision was answered ``seconds`` after it was asked for
        (queue wait included; fallbacks too)."""


NO_OBSERVER = ServiceObserver()
