"""Events returned by ``state.apply``: what happened, for front ends to narrate.

Events are public facts (a card played, a trick won, a deal scored); they never
carry a card that a seat could not see in its own view.

An ``Event`` is an immutable named tuple (``kind``, ``seat``, ``data``): every
card played makes one, so it must be cheap to build -- a frozen dataclass
costs several times more.  Each event gets its own ``data`` dict.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class _EventFields(NamedTuple):
    kind: str
    seat: int | None
    data: dict[str, Any]


class Event(_EventFields):
    """``Event(kind, seat=None, data=None)``; ``data`` defaults to a new ``{}``."""

    __slots__ = ()

    def __new__(
        cls, kind: str, seat: int | None = None, data: dict[str, Any] | None = None
    ) -> Event:
        return tuple.__new__(cls, (kind, seat, {} if data is None else data))

    def __str__(self) -> str:
        extra = " ".join(f"{k}={v}" for k, v in self.data.items())
        who = f" seat {self.seat}" if self.seat is not None else ""
        return f"{self.kind}{who} {extra}".strip()
