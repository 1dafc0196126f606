"""Events returned by ``state.apply``: what happened, for front ends to narrate.

Events are public facts (a card played, a trick won, a deal scored); they never
carry a card that a seat could not see in its own view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        extra = " ".join(f"{k}={v}" for k, v in self.data.items())
        who = f" seat {self.seat}" if self.seat is not None else ""
        return f"{self.kind}{who} {extra}".strip()
