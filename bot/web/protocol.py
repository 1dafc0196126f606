"""The web table's wire format (docs/web.md): client frames read and checked,
views and table facts turned into JSON.  Pure functions, no I/O.

What a frame may carry is decided here once, for every connection:

* a client frame is one JSON object of at most ``MAX_FRAME`` bytes, with a
  known ``type`` and exactly the fields of that type, each of its kind;
  anything else is a ``BadFrame`` with the error code the client is told
  (docs/web.md, "Errors") -- and nothing is done;
* a view is converted field by field from the ``Observation`` the service
  handed out (``state.view(seat)`` or ``view(None)``): only what that view
  holds goes on the wire (DESIGN.md, "Hidden information"), plus what is
  derived from the view's own legal actions (``legal``, ``playable``,
  ``labels``).
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import Action, Card, DealRecord, Observation

#: the largest client frame read (bytes of its UTF-8 text); bigger: ``too_big``
MAX_FRAME = 4096
#: the longest session token (signed: bot/web/auth.py), language code and action text
MAX_TOKEN = 3000
MAX_LANG = 16
MAX_ACTION = 100
#: the largest table id and move index a frame may name
MAX_ID = 10**12 - 1

JsonDict = dict[str, Any]


class BadFrame(Exception):
    """A client frame that cannot be served; ``code`` is the error frame's code."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(detail or code)
        self.code = code


@dataclass(frozen=True, slots=True)
class Hello:
    session: str
    table: int | None = None
    replay: int | None = None
    lang: str | None = None


@dataclass(frozen=True, slots=True)
class Act:
    table: int
    seq: int
    action: str


@dataclass(frozen=True, slots=True)
class ReplayStep:
    to: int


@dataclass(frozen=True, slots=True)
class Ping:
    pass


Frame = Hello | Act | ReplayStep | Ping

#: per frame type: field -> (kind, required)
_FIELDS: Mapping[str, Mapping[str, tuple[str, bool]]] = {
    "hello": {
        "session": ("token", True),
        "table": ("id", False),
        "replay": ("id", False),
        "lang": ("lang", False),
    },
    "act": {"table": ("id", True), "seq": ("index", True), "action": ("action", True)},
    "replay_step": {"to": ("index", True)},
    "ping": {},
}


def _field(kind: str, value: Any) -> Any:
    """``value`` checked as a field of ``kind``; ``BadFrame`` otherwise."""
    if kind in ("id", "index"):
        low = 1 if kind == "id" else 0
        if type(value) is not int or not low <= value <= MAX_ID:
            raise BadFrame("bad_frame", f"expected a whole number, got {value!r:.40}")
        return value
    limit = {"token": MAX_TOKEN, "lang": MAX_LANG, "action": MAX_ACTION}[kind]
    if not isinstance(value, str) or not value or len(value) > limit:
        raise BadFrame("bad_frame", f"expected a text of 1..{limit} characters")
    return value


def parse_frame(data: str | bytes) -> Frame:
    """One client frame, checked; ``BadFrame("too_big")`` above ``MAX_FRAME``
    bytes, ``BadFrame("bad_frame")`` for anything that is not exactly a
    frame of docs/web.md."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if len(raw) > MAX_FRAME:
        raise BadFrame("too_big")
    try:
        obj = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise BadFrame("bad_frame", "not JSON") from None
    if not isinstance(obj, dict):
        raise BadFrame("bad_frame", "not a JSON object")
    kind = obj.get("type")
    fields = _FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise BadFrame("bad_frame", f"unknown frame type {kind!r:.40}")
    unknown = set(obj) - set(fields) - {"type"}
    if unknown:
        raise BadFrame("bad_frame", f"unknown fields {sorted(unknown)!r:.80}")
    values: dict[str, Any] = {}
    for name, (field_kind, required) in fields.items():
        if name in obj and obj[name] is not None:
            values[name] = _field(field_kind, obj[name])
        elif required:
            raise BadFrame("bad_frame", f"{name} is missing")
    if kind == "hello":
        if "table" in values and "replay" in values:
            raise BadFrame("bad_frame", "a hello opens a table or a replay, not both")
        return Hello(**values)
    if kind == "act":
        return Act(**values)
    if kind == "replay_step":
        return ReplayStep(**values)
    return Ping()


# -- server -> client -----------------------------------------------------------------------
_PLAIN = (type(None), bool, int, float, str)


def to_json(value: Any) -> Any:
    """An engine value as JSON: cards and actions as their notation, enums
    as their value, tuples as lists, dataclasses (``DealRecord``) as dicts
    of their fields.  (The common kinds are tested first: this runs for
    every field of every frame.)"""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is Card or kind is Action:
        return str(value)
    if kind is tuple or kind is list:
        return [to_json(v) for v in value]
    if isinstance(value, Card | Action):
        return str(value)
    if isinstance(value, enum.Enum):
        return to_json(value.value)
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((to_json(v) for v in value), key=str)
    return str(value)


_FIELDS_OF_VIEW = dataclasses.fields(Observation)
#: converted deal records by identity (a record is immutable and shared by
#: every copy of the state and every seat's view: converted once, not per frame)
_RECORDS: OrderedDict[int, tuple[DealRecord, JsonDict]] = OrderedDict()
RECORDS_KEPT = 1024


def _record_json(record: DealRecord) -> JsonDict:
    """``to_json(record)``, converted once per record (callers must not change it)."""
    found = _RECORDS.get(id(record))
    if found is not None and found[0] is record:
        return found[1]
    converted: JsonDict = to_json(record)
    _RECORDS[id(record)] = (record, converted)
    while len(_RECORDS) > RECORDS_KEPT:
        _RECORDS.popitem(last=False)
    return converted


def view_json(view: Observation, label: Callable[[Action], str] | None = None) -> JsonDict:
    """Every field of ``view`` (and nothing else), converted; plus ``legal``
    (the action texts), ``playable`` (the cards of single-card plays) and
    ``labels`` (reader's words for every other legal action, from ``label``)."""
    out: JsonDict = {
        f.name: to_json(getattr(view, f.name)) for f in _FIELDS_OF_VIEW if f.name != "last_deal"
    }
    out["last_deal"] = None if view.last_deal is None else _record_json(view.last_deal)
    actions = view.legal_actions
    out["legal"] = [str(a) for a in actions]
    playable: list[str] = []
    for action in actions:
        if action.verb == "play" and len(action.cards) == 1:
            card = str(action.cards[0])
            if card not in playable:
                playable.append(card)
    out["playable"] = playable
    out["labels"] = {
        str(a): label(a) if label else str(a)
        for a in actions
        if not (a.verb == "play" and len(a.cards) == 1)
    }
    return out


def players_json(seats: Sequence[Any], names: Sequence[str], you: int | None) -> list[JsonDict]:
    """The seats as the client shows them (``names`` in the reader's words)."""
    return [
        {
            "seat": s.seat,
            "name": names[s.seat],
            "ai": s.ai is not None,
            "away": bool(s.away),
            "you": s.seat == you,
        }
        for s in seats
    ]


def error_frame(code: str, message: str) -> JsonDict:
    return {"type": "error", "code": code, "message": message}


def dumps(frame: JsonDict) -> str:
    """A frame's text: compact, and non-ASCII kept (smaller for Devanagari)."""
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
