"""Duplicate tournaments: the same deals at every table, scored against
each other (issue 16).  Pure: no Discord, no store; the state is a JSON-able
dict (``to_dict`` / ``from_dict``) so a tournament survives a restart.

Boards.  A board is the first deal of a match started from the board's
seed: every game deals its first deal from the match RNG before any action
is taken, so the same seed gives the same hands, dealer and (Backalley)
turn-up at every table whatever is played.  ``deals_per_board`` > 1 makes a
board the first k deals; that is only allowed where the k-th deal depends
on the seed alone (one shuffle per deal and no other draw: Callbreak, Eşli
Batak, Backalley).  In Bazar Blot a passed-out deal is redealt from the RNG
and in Ladder a T reshuffles hands with it, so later deals there differ
from table to table; their boards are one deal.  A board passed out at one
Blot table scores 0 to 0 there (bot/rulebook/blot.md "Rulings": a redeal
after four passes scores nothing).

Movement.  Partnership games (pairs): table t's home pair is ``t``; the
visiting pairs ``tables..2*tables-1`` move one table on each board
(a Mitchell movement), and the home pair sits North-South (seats 0 and 2)
on alternate boards, the pattern shifting each round, so every pair holds
both directions and meets each visiting pair from both.  Individual games
(Callbreak, Backalley): table t seats players ``t*n..t*n+n-1`` and turns
them one seat on each board, so over n boards each player holds every
seat's cards once.  Cards never move: players do.

Scoring, per board, among the results of the tables that held the same
cards (the same direction, or the same seat):

* matchpoints: 2 for every other table's result beaten, 1 for each equal
  one (top = 2 x (tables - 1));
* IMPs (partnership games): the difference with each other table's result,
  in bridge points (``IMP_SCALE`` per unit of the game's deal score),
  through the standard IMP table, averaged over the other tables
  (cross-IMPs; with two tables, plain IMPs);
* per seat (Callbreak, Backalley): matchpoints, and the difference with
  the mean of the others who held the seat.

A partnership result is North-South's deal score minus East-West's (the
East-West pair gets its negative).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.services.errors import ServiceError
from bot.services.replays import deal_summaries
from engine import EngineError, MatchState, get_game

MATCHPOINTS, IMPS = "matchpoints", "imps"
#: bridge points for one unit of a partnership game's net deal score: one
#: trick or one game point is about an overtrick (1 IMP); making instead
#: of failing a contract (a swing of 20 to 36) is about a game swing (9 to
#: 12 IMPs); a Ladder game (net +1 / -1) is a game swing
IMP_SCALE: dict[str, int] = {"batak": 20, "blot": 20, "ladder": 360}
#: the standard IMP table: the smallest difference worth 1, 2, ... 24 IMPs
IMP_STEPS = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
    750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
)  # fmt: skip
#: games whose k-th deal depends on the seed alone
SEED_ONLY_DEALS = frozenset({"callbreak", "batak", "backalley"})
#: the events that end a deal (a Ladder game is a deal)
DEAL_ENDS = frozenset({"deal_scored", "redeal", "game_over"})
MAX_TABLES, MAX_BOARDS = 16, 36
VERSION = 1


class TournamentError(ServiceError):
    default_reason = "tournament"


def imps(difference: float) -> int:
    """International Match Points for a difference in bridge points."""
    size = sum(1 for step in IMP_STEPS if abs(difference) >= step)
    return size if difference >= 0 else -size


@dataclass(frozen=True, slots=True)
class Seat:
    """Who sits in a seat for a board: an entrant (a pair or a player) and,
    for a pair, which of its two members (0 sits first in seat order)."""

    entrant: int
    member: int = 0


@dataclass(frozen=True, slots=True)
class BoardScore:
    """One entrant's result on one board, and how it compares."""

    board: int
    table: int
    entrant: int
    #: the cards held: a side (0 = North-South) or a seat
    direction: int
    result: int
    matchpoints: int
    top: int
    imps: float | None
    difference: float


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    entrant: int
    name: str
    boards: int
    matchpoints: int
    top: int
    imps: float | None
    difference: float

    @property
    def percentage(self) -> float:
        return 100.0 * self.matchpoints / self.top if self.top else 0.0


@dataclass
class Tournament:
    game: str
    variant: dict[str, Any]
    tables: int
    board_seeds: list[int]
    entrants: list[str]
    scoring: str = MATCHPOINTS
    deals_per_board: int = 1
    #: (table, board) -> the actions played there so far
    plays: dict[tuple[int, int], list[str]] = field(default_factory=dict)
    _states: dict[tuple[int, int], MatchState] = field(default_factory=dict, repr=False)
    _ended: dict[tuple[int, int], int] = field(default_factory=dict, repr=False)

    # -- creation and shape ----------------------------------------------------------
    @classmethod
    def new(
        cls,
        game: str,
        *,
        tables: int,
        boards: int,
        seed: int,
        entrants: Sequence[str] | None = None,
        variant: Mapping[str, Any] | None = None,
        scoring: str | None = None,
        deals_per_board: int = 1,
    ) -> Tournament:
        """A tournament with ``boards`` boards drawn from ``seed``; every
        setting is checked here, with a clear TournamentError."""
        try:
            g = get_game(game)
            settings = g.check_variant(dict(variant or {})).to_dict()
        except EngineError as exc:
            raise TournamentError(str(exc), exc.reason) from exc
        if type(tables) is not int or not 2 <= tables <= MAX_TABLES:
            raise TournamentError(f"a duplicate needs 2 to {MAX_TABLES} tables (got {tables!r})")
        if type(boards) is not int or not 1 <= boards <= MAX_BOARDS:
            raise TournamentError(f"play 1 to {MAX_BOARDS} boards (got {boards!r})")
        if deals_per_board != 1 and (g.name not in SEED_ONLY_DEALS or deals_per_board < 1):
            raise TournamentError(
                f"a {g.title} board is one deal: later deals there differ from table to table"
                if g.name not in SEED_ONLY_DEALS
                else f"a board has one deal or more (got {deals_per_board!r})"
            )
        wanted = scoring or (IMPS if g.partnership else MATCHPOINTS)
        if wanted not in (MATCHPOINTS, IMPS) or (wanted == IMPS and not g.partnership):
            raise TournamentError(
                "score pairs by 'matchpoints' or 'imps'; players by 'matchpoints'"
                if g.partnership
                else f"{g.title} is scored by matchpoints seat by seat (got {wanted!r})"
            )
        draw = random.Random(seed)
        t = cls(g.name, settings, tables, [draw.randrange(2**62) for _ in range(boards)], [])
        t.scoring = wanted
        t.deals_per_board = deals_per_board
        count = t.entrant_count
        names = (
            list(entrants)
            if entrants is not None
            else [f"{'Pair' if g.partnership else 'Player'} {i + 1}" for i in range(count)]
        )
        if len(names) != count:
            raise TournamentError(f"{tables} tables of {g.title} seat {count} entrants")
        t.entrants = [str(n) for n in names]
        return t

    @property
    def partnership(self) -> bool:
        return get_game(self.game).partnership

    @property
    def seats(self) -> int:
        return get_game(self.game).num_seats(get_game(self.game).check_variant(self.variant))

    @property
    def boards(self) -> int:
        return len(self.board_seeds)

    @property
    def entrant_count(self) -> int:
        return 2 * self.tables if self.partnership else self.seats * self.tables

    def lineup(self, table: int, board: int) -> tuple[Seat, ...]:
        """Who sits where at ``table`` for ``board`` (see the module docstring)."""
        self._check(table, board)
        if self.partnership:
            visitor = self.tables + (table + board) % self.tables
            flip = (board // self.tables + table + board) % 2
            north_south, east_west = (table, visitor) if flip == 0 else (visitor, table)
            return tuple(Seat(north_south if s % 2 == 0 else east_west, s // 2) for s in range(4))
        n = self.seats
        order = {(k + board + table) % n: table * n + k for k in range(n)}
        return tuple(Seat(order[s]) for s in range(n))

    # -- play ------------------------------------------------------------------------------
    def state(self, table: int, board: int) -> MatchState:
        """The board's match at ``table`` (rebuilt by replay after a restart)."""
        self._check(table, board)
        key = (table, board)
        if key not in self._states:
            g = get_game(self.game)
            state = g.new_match(seed=self.board_seeds[board], variant=g.check_variant(self.variant))
            ended = 0
            for text in self.plays.get(key, []):
                ended += _ends(state.apply(text))
            self._states[key], self._ended[key] = state, ended
        return self._states[key]

    def board_over(self, table: int, board: int) -> bool:
        state = self.state(table, board)
        return state.is_over or self._ended[(table, board)] >= self.deals_per_board

    def record(self, table: int, board: int, action: str) -> None:
        """Play ``action`` on the board at ``table``: checked by the engine
        (its refusal is raised and nothing changes), then kept."""
        if self.board_over(table, board):
            raise TournamentError(f"board {board + 1} is over at table {table + 1}", "board_over")
        state = self.state(table, board)
        ended = _ends(state.apply(action))
        self.plays.setdefault((table, board), []).append(str(state.log[-1]))
        self._ended[(table, board)] += ended

    def restart(self, table: int, board: int) -> None:
        """Forget what was played of ``board`` at ``table``: it is dealt
        again from its first card (the table that played it ended early)."""
        key = (table, board)
        self.plays.pop(key, None)
        self._states.pop(key, None)
        self._ended.pop(key, None)

    def next_board(self, table: int) -> int | None:
        """The board ``table`` plays now (boards go in order), or None."""
        return next((b for b in range(self.boards) if not self.board_over(table, b)), None)

    @property
    def is_over(self) -> bool:
        return all(self.next_board(t) is None for t in range(self.tables))

    def board_complete(self, board: int) -> bool:
        """Played at every table: its results count and its deals may be shown."""
        return all(self.board_over(t, board) for t in range(self.tables))

    # -- scoring ---------------------------------------------------------------------------
    def result(self, table: int, board: int) -> tuple[int, ...]:
        """The board's deal scores at ``table``, summed over its deals: per
        team (partnership games) or per seat; zeros for a passed-out deal."""
        actions = self.plays.get((table, board), [])
        summaries = deal_summaries(
            self.game, seed=self.board_seeds[board], variant=self.variant, actions=actions
        )
        width = 2 if self.partnership else self.seats
        total = [0] * width
        for summary in summaries[: self.deals_per_board]:
            for i, score in enumerate(summary.scores):
                total[i] += score
        return tuple(total)

    def board_scores(self, board: int) -> list[BoardScore]:
        """Every entrant's score on a board played at every table."""
        if not self.board_complete(board):
            raise TournamentError(f"board {board + 1} is still being played", "board_not_done")
        groups: dict[int, list[tuple[int, int, int]]] = {}
        for table in range(self.tables):
            result, lineup = self.result(table, board), self.lineup(table, board)
            if self.partnership:
                net = result[0] - result[1]
                groups.setdefault(0, []).append((table, lineup[0].entrant, net))
                groups.setdefault(1, []).append((table, lineup[1].entrant, -net))
            else:
                for seat, held in enumerate(lineup):
                    groups.setdefault(seat, []).append((table, held.entrant, result[seat]))
        scale = IMP_SCALE.get(self.game)
        out: list[BoardScore] = []
        for direction, rows in sorted(groups.items()):
            for table, entrant, mine in rows:
                others = [r for t, _, r in rows if t != table]
                mp = sum(2 if mine > o else 1 if mine == o else 0 for o in others)
                cross = (
                    sum(imps((mine - o) * scale) for o in others) / len(others)
                    if scale is not None and self.partnership
                    else None
                )
                out.append(
                    BoardScore(
                        board=board,
                        table=table,
                        entrant=entrant,
                        direction=direction,
                        result=mine,
                        matchpoints=mp,
                        top=2 * len(others),
                        imps=cross,
                        difference=mine - sum(others) / len(others),
                    )
                )
        return out

    def standings(self) -> list[Standing]:
        """Every entrant over the boards played at every table, best first:
        by IMPs then matchpoints (IMP scoring), else by matchpoints, then
        IMPs or the difference; equal entrants share a rank."""
        totals: dict[int, list[BoardScore]] = {e: [] for e in range(self.entrant_count)}
        for board in range(self.boards):
            if self.board_complete(board):
                for score in self.board_scores(board):
                    totals[score.entrant].append(score)
        rows = []
        for entrant, scores in totals.items():
            mp, top = sum(s.matchpoints for s in scores), sum(s.top for s in scores)
            imp = sum(s.imps or 0.0 for s in scores) if self.partnership else None
            diff = sum(s.difference for s in scores)
            rows.append((entrant, len(scores), mp, top, imp, diff))

        def key(row: tuple[int, int, int, int, float | None, float]) -> tuple[float, float]:
            _, _, mp, top, imp, diff = row
            share = mp / top if top else 0.0
            if self.scoring == IMPS:
                return (round(imp or 0.0, 6), share)
            return (share, round(imp if imp is not None else diff, 6))

        ordered = sorted(rows, key=key, reverse=True)
        return [
            Standing(
                rank=1 + sum(1 for other in rows if key(other) > key(row)),
                entrant=row[0],
                name=self.entrants[row[0]],
                boards=row[1],
                matchpoints=row[2],
                top=row[3],
                imps=row[4],
                difference=row[5],
            )
            for row in ordered
        ]

    # -- persistence ---------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Everything needed to carry on after a restart, as JSON types."""
        return {
            "version": VERSION,
            "game": self.game,
            "variant": dict(self.variant),
            "tables": self.tables,
            "board_seeds": list(self.board_seeds),
            "entrants": list(self.entrants),
            "scoring": self.scoring,
            "deals_per_board": self.deals_per_board,
            "plays": [[t, b, list(actions)] for (t, b), actions in sorted(self.plays.items())],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tournament:
        """A tournament back from ``to_dict``; every board's log is replayed
        (TournamentError when one does not)."""
        if not isinstance(data, Mapping) or data.get("version") != VERSION:
            raise TournamentError("not a saved tournament of this version", "bad_tournament")
        try:
            t = cls(
                game=str(data["game"]),
                variant=dict(data["variant"]),
                tables=int(data["tables"]),
                board_seeds=[int(s) for s in data["board_seeds"]],
                entrants=[str(e) for e in data["entrants"]],
                scoring=str(data["scoring"]),
                deals_per_board=int(data["deals_per_board"]),
                plays={(int(t), int(b)): [str(a) for a in acts] for t, b, acts in data["plays"]},
            )
            for table, board in t.plays:
                t.state(table, board)
        except (KeyError, TypeError, ValueError) as exc:
            raise TournamentError(
                f"the saved tournament is damaged: {exc}", "bad_tournament"
            ) from exc
        return t

    def _check(self, table: int, board: int) -> None:
        if not (0 <= table < self.tables and 0 <= board < self.boards):
            raise TournamentError(
                f"there is no board {board + 1} at table {table + 1}", "no_such_board"
            )


def _ends(events: Sequence[Any]) -> int:
    return sum(1 for e in events if e.kind in DEAL_ENDS)


#: (tournament, table, board, seat) -> the action an AI takes for that seat now
Chooser = Callable[[Tournament, int, int, int], str]


def ai_chooser(name: str = "heuristic", budget_ms: int = 200) -> Chooser:
    """AI fill-ins: a fresh agent for every decision, seeded by the board,
    the table and the action's place in the log, so a board interrupted by
    a restart is finished exactly as it would have been."""
    from engine.ai import get_agent

    def choose(t: Tournament, table: int, board: int, seat: int) -> str:
        state = t.state(table, board)
        agent = get_agent(
            name,
            game=t.game,
            seed=t.board_seeds[board] % 1_000_003 * 131 + table * 17 + len(state.log),
            budget_ms=budget_ms,
        )
        return str(agent.act(state.view(seat), state.legal_actions()))

    return choose


def play_board(
    t: Tournament, table: int, board: int, choose: Chooser, *, max_actions: int | None = None
) -> int:
    """Let ``choose`` decide every turn of a board (all-AI tables, tests):
    stops when the board is over or after ``max_actions``; returns how many
    actions were played."""
    played = 0
    while not t.board_over(table, board) and (max_actions is None or played < max_actions):
        state = t.state(table, board)
        assert state.decider is not None
        t.record(table, board, choose(t, table, board, state.decider))
        played += 1
    return played
