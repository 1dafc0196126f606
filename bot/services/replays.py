"""Replays and deal summaries of a match, rebuilt from its action log.

A match is fully defined by (game, variant, seed, actions) (DESIGN.md,
"Persistence"), so everything a replay shows is recomputed here by playing
the stored log through the engine again, one action at a time, and noting
what each action caused (the events ``state.apply`` returns).  Nothing is
stored twice and nothing here imports discord or the store: the Discord
layer (``/replay``, ``/table history``) and the terminal render these
frozen objects.

Two entry points with different promises about hidden information:

* ``build_replay`` reveals every dealt hand, so it refuses (``ReplayNotReady``)
  until the match is over: a replay never opens on a live table (issue 16).
* ``deal_summaries`` works on live matches too and only reports finished
  deals' public facts (bids, contract, tricks won, scores) -- never a card.

A "deal" is what the engine deals at once: a deal of a trick game (a Bazar
Blot deal passed out by four passes is a deal of its own, scored nothing,
bot/rulebook/blot.md "Rulings"), or one game of Ladder (bot/rulebook/ladder.md
"Winning").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.services.errors import ServiceError
from engine import EngineError, Event, MatchState, get_game

#: how a deal ended
SCORED, PASSED_OUT, GAME_WON, GAME_DRAWN, UNFINISHED = (
    "scored",
    "passed_out",
    "won",
    "drawn",
    "unfinished",
)


class ReplayNotReady(ServiceError):
    """The match is still being played: its hands stay hidden."""

    default_reason = "match_not_over"


class DamagedLog(ServiceError):
    """The stored log does not replay (or disagrees with its own seats)."""

    default_reason = "corrupt_log"


@dataclass(frozen=True, slots=True)
class Move:
    """One logged action: ``seat`` is the seat it was for (Batak's dummy
    included, as the store records it), ``decider`` who chose it."""

    index: int
    seat: int
    decider: int
    action: str
    #: what it caused, as the engine narrates it ("trick_won seat 2 ...")
    events: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TrickReplay:
    number: int
    leader: int
    plays: tuple[tuple[int, str], ...]
    winner: int


@dataclass(frozen=True, slots=True)
class DealSummary:
    """The public facts of one deal (``/table history``): no cards."""

    number: int
    round_number: int
    dealer: int | None
    outcome: str
    #: every call of the deal in order: bids, passes, contra, trump naming
    calls: tuple[tuple[int, str], ...]
    bids: tuple[Any, ...]
    contract: str | None
    declarer: int | None
    trump: str | None
    tricks_won: tuple[int, ...]
    #: this deal's scores (per seat, or per team) and the totals after it
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    #: Ladder: the team that won the game (None: drawn or not a Ladder game)
    winner_team: int | None = None


@dataclass(frozen=True, slots=True)
class DealReplay:
    """One finished deal with every card revealed."""

    summary: DealSummary
    #: what each seat was dealt (Ladder: the hand; ``table_cards`` has the rest)
    hands: tuple[tuple[str, ...], ...]
    tricks: tuple[TrickReplay, ...]
    moves: tuple[Move, ...]
    #: Batak: the dummy's seat
    dummy: int | None = None
    #: Backalley: the card turned for trump
    turned: str | None = None
    #: Ladder: "shown" and "hidden" table cards per seat, as dealt
    table_cards: Mapping[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    #: the engine's own record details (card points, declarations, ...)
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def number(self) -> int:
        return self.summary.number

    def hands_before(self, trick: int) -> tuple[tuple[str, ...], ...]:
        """Every seat's cards before trick ``trick`` (1-based) is led: the
        table picture for stepping through a deal."""
        gone = {c for t in self.tricks[: max(0, trick - 1)] for _, c in t.plays}
        return tuple(tuple(c for c in hand if c not in gone) for hand in self.hands)


@dataclass(frozen=True, slots=True)
class MatchReplay:
    game: str
    variant: Mapping[str, Any]
    seed: int
    num_seats: int
    #: seat lists per team for partnership games, else ()
    teams: tuple[tuple[int, ...], ...]
    score_unit: str
    deals: tuple[DealReplay, ...]
    totals: tuple[int, ...]
    #: rank per seat, or per team (1 = first, shared on ties)
    ranking: tuple[int, ...]

    def deal(self, number: int) -> DealReplay:
        """Deal ``number`` (1-based); a clear ServiceError for any other."""
        if type(number) is not int or not 1 <= number <= len(self.deals):
            raise ServiceError(
                f"this match has deals 1 to {len(self.deals)} (got {number!r})", "no_such_deal"
            )
        return self.deals[number - 1]

    def summaries(self) -> tuple[DealSummary, ...]:
        return tuple(d.summary for d in self.deals)


# -- walking the log --------------------------------------------------------------------
@dataclass
class _Deal:
    """A deal being collected while the log is replayed."""

    number: int
    round_number: int
    dealer: int | None
    hands: tuple[tuple[str, ...], ...]
    turned: str | None
    table_cards: dict[str, tuple[tuple[str, ...], ...]]
    totals_before: tuple[int, ...]
    moves: list[Move] = field(default_factory=list)
    calls: list[tuple[int, str]] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    dummy: int | None = None
    outcome: str = UNFINISHED
    record: Any = None
    totals: tuple[int, ...] = ()
    winner_team: int | None = None


def _open_deal(state: MatchState, number: int) -> _Deal:
    """Snapshot a deal just dealt: each seat's own view holds its hand."""
    public = state.view(None)
    hands = tuple(tuple(str(c) for c in state.view(s).hand) for s in range(state.num_seats))
    table: dict[str, tuple[tuple[str, ...], ...]] = {}
    if public.shown:
        table["shown"] = tuple(tuple(str(c) for c in row) for row in public.shown)
        hidden = getattr(state, "hidden", ())  # Ladder: unknown to all, revealed afterwards
        table["hidden"] = tuple(tuple(str(c) for c in row if c is not None) for row in hidden)
    return _Deal(
        number=number,
        round_number=public.round_number,
        dealer=public.dealer,
        hands=hands,
        turned=str(public.turned) if public.turned is not None else None,
        table_cards=table,
        totals_before=tuple(state.scores),
    )


def _close_deal(deal: _Deal, state: MatchState, events: Sequence[Event]) -> bool:
    """Note how ``deal`` ended if ``events`` end it; True when they do."""
    for event in events:
        if event.kind == "deal_scored":
            deal.outcome = SCORED
            deal.record = state.history[-1]  # type: ignore[attr-defined]
        elif event.kind == "redeal":
            deal.outcome = PASSED_OUT
        elif event.kind == "game_over":
            team = event.data.get("team")
            deal.outcome = GAME_DRAWN if team is None else GAME_WON
            deal.winner_team = team
        else:
            continue
        deal.totals = tuple(state.scores)
        return True
    return False


def _walk(
    game_name: str,
    seed: int,
    variant: Mapping[str, Any] | None,
    actions: Sequence[str],
    seats: Sequence[int] | None,
    deal: Any = None,
) -> tuple[MatchState, list[_Deal]]:
    """Replay the log action by action, collecting every deal."""
    try:
        game = get_game(game_name)
        state = game.new_match(seed=seed, variant=game.check_variant(variant), deal=deal)
    except EngineError as exc:
        raise DamagedLog(f"the match cannot be set up again: {exc}") from exc
    if seats is not None and len(seats) != len(actions):
        raise DamagedLog(f"the log has {len(actions)} actions but {len(seats)} seats")
    deals = [_open_deal(state, 1)]
    for index, text in enumerate(actions):
        current = deals[-1]
        seat, decider = state.to_act, state.decider
        if seat is None or decider is None:
            raise DamagedLog(f"action {index} ({text!r}) comes after the end of the match")
        if seats is not None and seats[index] != seat:
            raise DamagedLog(
                f"action {index} ({text!r}) is logged for seat {seats[index]}, "
                f"but it was seat {seat}'s turn"
            )
        try:
            events = state.apply(text)
        except EngineError as exc:
            raise DamagedLog(f"action {index} ({text!r}) does not replay: {exc}") from exc
        action = str(state.log[-1])
        current.moves.append(Move(index, seat, decider, action, tuple(str(e) for e in events)))
        current.winners.extend(
            e.seat for e in events if e.kind == "trick_won" and e.seat is not None
        )
        if not action.startswith(("play ", "pickup", "hidden ")):
            current.calls.append((seat, action))
            dummy = state.view(None).dummy_seat
            current.dummy = dummy if dummy is not None else current.dummy
        if _close_deal(current, state, events) and not state.is_over:
            deals.append(_open_deal(state, current.number + 1))
    return state, deals


def _summary(deal: _Deal) -> DealSummary:
    record = deal.record
    totals = deal.totals or deal.totals_before
    if record is not None:
        scores: tuple[int, ...] = tuple(record.scores)
    elif deal.outcome in (GAME_WON, GAME_DRAWN):
        scores = tuple(a - b for a, b in zip(totals, deal.totals_before, strict=True))
    else:
        scores = ()
    return DealSummary(
        number=deal.number,
        round_number=deal.round_number,
        dealer=deal.dealer,
        outcome=deal.outcome,
        calls=tuple(deal.calls),
        bids=tuple(record.bids) if record is not None else (),
        contract=record.contract if record is not None else None,
        declarer=record.declarer if record is not None else None,
        trump=record.trump if record is not None else None,
        tricks_won=tuple(record.tricks_won) if record is not None else (),
        scores=scores,
        totals=totals,
        winner_team=deal.winner_team,
    )


def _tricks(deal: _Deal) -> tuple[TrickReplay, ...]:
    if deal.record is None:
        return ()
    plays = deal.record.tricks
    if len(plays) != len(deal.winners):  # pragma: no cover - the engine reports every trick
        raise DamagedLog(f"deal {deal.number}: {len(plays)} tricks but {len(deal.winners)} won")
    return tuple(
        TrickReplay(
            number=i + 1,
            leader=trick[0][0],
            plays=tuple((s, str(c)) for s, c in trick),
            winner=winner,
        )
        for i, (trick, winner) in enumerate(zip(plays, deal.winners, strict=True))
    )


def build_replay(
    game: str,
    *,
    seed: int,
    variant: Mapping[str, Any] | None,
    actions: Sequence[str],
    seats: Sequence[int] | None = None,
    deal: Any = None,
) -> MatchReplay:
    """The whole match with every hand revealed, from its stored record:
    ``actions`` in log order and, optionally, the seat the store logged for
    each (checked against the replay).  ``ReplayNotReady`` while the match
    is not over; ``DamagedLog`` when the log does not replay."""
    state, deals = _walk(game, seed, variant, actions, seats, deal)
    if not state.is_over:
        raise ReplayNotReady(
            "the replay opens when the match is over: every hand is shown in it", "match_not_over"
        )
    public = state.view(None)
    replays = tuple(
        DealReplay(
            summary=_summary(d),
            hands=d.hands,
            tricks=_tricks(d),
            moves=tuple(d.moves),
            dummy=d.dummy,
            turned=d.turned,
            table_cards=dict(d.table_cards),
            details=dict(d.record.details) if d.record is not None else {},
        )
        for d in deals
    )
    return MatchReplay(
        game=state.game.name,
        variant=state.variant.to_dict(),
        seed=state.seed,
        num_seats=state.num_seats,
        teams=public.teams,
        score_unit=public.score_unit,
        deals=replays,
        totals=tuple(state.scores),
        ranking=public.ranking,
    )


def deal_summaries(
    game: str,
    *,
    seed: int,
    variant: Mapping[str, Any] | None,
    actions: Sequence[str],
    seats: Sequence[int] | None = None,
    deal: Any = None,
) -> tuple[DealSummary, ...]:
    """The finished deals of a match, live or over (``/table history``):
    public facts only; the deal being played is left out."""
    _, deals = _walk(game, seed, variant, actions, seats, deal)
    return tuple(_summary(d) for d in deals if d.outcome != UNFINISHED)


def log_from_rows(rows: Sequence[tuple[int, str, int]]) -> tuple[list[str], list[int]]:
    """(actions, seats) from the store's (seq, notation, seat) rows, which
    must number 0..n-1 in order (``DamagedLog`` otherwise)."""
    ordered = sorted(rows)
    if [seq for seq, _, _ in ordered] != list(range(len(ordered))):
        raise DamagedLog("the action log has gaps")
    return [n for _, n, _ in ordered], [seat for _, _, seat in ordered]


def iter_tricks(replay: MatchReplay) -> Iterator[tuple[DealReplay, TrickReplay]]:
    """Every trick of the match in order, with its deal (stepping buttons)."""
    for d in replay.deals:
        for trick in d.tricks:
            yield d, trick
