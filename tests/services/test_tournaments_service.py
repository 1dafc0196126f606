"""The tournament service on real tables and a real SQLite store (issue 16):
a 2 tables x 4 boards tournament of AI seats runs to its standings, and
survives a restart in the middle; authority and garbage input are refused."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator

import pytest

from bot.db.repositories import Store
from bot.db.tournaments import TournamentStore
from bot.services.actor import Actor
from bot.services.errors import NotModerator
from bot.services.tables import TableService
from bot.services.tournaments import FINISHED, PLAYING, TournamentService
from engine import EngineError

GUILD, CHANNEL = 500, 600
MOD = Actor(10, GUILD, CHANNEL, "Mod", can_manage_server=True)
ALICE = Actor(11, GUILD, CHANNEL, "Alice")


class Clock:
    now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    counter = itertools.count(1)
    monkeypatch.setattr("bot.services.tables.new_seed", lambda: next(counter))


@pytest.fixture
def url(tmp_path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'tour.db'}"


class Bot:
    """A store, a table service and a tournament service on one database."""

    def __init__(self, url: str) -> None:
        self.store = Store(url, synchronous="NORMAL")
        self.clock = Clock()
        self.tables = TableService(self.store, clock=self.clock, ai_budget_ms=20)
        self.tours = TournamentService(self.tables, seed=lambda: 1234)

    async def open(self) -> Bot:
        await self.store.migrate()
        self.tours.subscribe()
        await self.tables.start(dispatch_deadlines=False)
        await self.tours.resume()
        return self

    async def settle(self, tournament_id: int) -> None:
        """Until every board table has stopped and every harvest is done; a
        person's turn runs out on the fake clock (the AI plays it)."""
        for _ in range(400):
            for info in await self.tables.active_tables(GUILD):
                await self.tables.wait_idle(info.id)
            await self.tours.idle()
            self.clock.now += 1000
            await self.tables.expire_due()
            if not self.tours._tasks and not [
                t for t in await self.tables.active_tables(GUILD) if t.status == "playing"
            ]:
                return

    async def close(self) -> None:
        await self.tours.close()
        await self.tables.close()
        await self.store.close()


@pytest.fixture
async def bot(url: str) -> AsyncIterator[Bot]:
    b = await Bot(url).open()
    yield b
    await b.close()


async def _standings(store_url: str, tournament_id: int) -> list[tuple[int, str, int, int]]:
    store = Store(store_url)
    try:
        record = await TournamentStore(store).get(tournament_id)
    finally:
        await store.close()
    assert record is not None and record.status == FINISHED
    return [
        (r["rank"], r["entrant"], r["percentage"], len(r["people"])) for r in record.state["final"]
    ]


async def _board_tables(bot: Bot, tournament_id: int) -> list[int]:
    links = await TournamentStore(bot.store).links([tournament_id])
    assert sorted((k.board, k.table_no) for k in links) == [
        (b, t) for b in range(4) for t in range(2)
    ]
    return [k.table_id for k in sorted(links, key=lambda k: (k.board, k.table_no))]


async def test_two_tables_four_boards_of_ai_run_to_standings(bot: Bot) -> None:
    info = await bot.tours.new(MOD, game="callbreak", boards="4", tables=2)
    await bot.tours.join(ALICE)
    info = await bot.tours.start(MOD)
    assert info.status == PLAYING and info.round == 0 and len(info.table_ids) == 2
    await bot.settle(info.id)
    assert info.id not in bot.tours.live  # finished
    final = await bot.tours.get(MOD, info.id)
    assert final.status == FINISHED and final.round is None
    assert [s.boards for s in final.standings] == [4] * 8
    # 8 players, each board scored among the 2 tables: 2 matchpoints a board at stake per seat
    assert sum(s.matchpoints for s in final.standings) == 4 * 4 * 2
    assert final.entrants[0] == "Alice"
    # Alice's tables: she sat at table 1 of every board, in the movement's seat
    seats = []
    for table_id in await _board_tables(bot, final.id):
        t = await bot.tables.get_table(table_id)
        assert t.status == "abandoned"  # ended with its board: never rated, no replay
        seats.append(t.seat_of(ALICE.user_id))
    assert [s for s in seats if s is not None] == [0, 1, 2, 3]  # one seat turn a board
    rows = await bot.tours.leaderboard(GUILD)
    assert [(r.user_id, r.played) for r in rows] == [(ALICE.user_id, 1)]


async def test_a_restart_in_the_middle_gives_complete_standings(url: str, tmp_path) -> None:
    first = await Bot(url).open()
    info = await first.tours.new(MOD, game="callbreak", boards=4, tables=2)
    await first.tours.start(MOD)
    # play until board 2 is under way at both tables, then stop everything
    for _ in range(500):
        tour = first.tours.live[info.id]
        if tour.round is not None and tour.round >= 1 and (0, 1) in tour.tables:
            break
        for table_id in list(tour.tables.values()):
            await first.tables.wait_idle(table_id)
        await first.tours.idle()
        first.clock.now += 1000
        await first.tables.expire_due()
    assert first.tours.live[info.id].round == 1
    before = {k: v for k, v in first.tours.live[info.id].duplicate.plays.items() if k[1] == 0}
    await first.close()

    second = await Bot(url).open()
    try:
        assert info.id in second.tours.live
        await second.settle(info.id)
        final = await second.tours.get(MOD, info.id)
        assert final.status == FINISHED
        assert [s.boards for s in final.standings] == [4] * 8
        assert sum(s.matchpoints for s in final.standings) == 4 * 4 * 2
        record = await TournamentStore(second.store).get(info.id)
        assert record is not None
        plays = {(t, b): a for t, b, a in record.state["duplicate"]["plays"]}
        assert {k: plays[k] for k in before} == before  # board 1 kept as it was played
        assert sorted(plays) == [(t, b) for t in range(2) for b in range(4)]
    finally:
        await second.close()


async def test_only_moderators_start_a_tournament(bot: Bot) -> None:
    with pytest.raises(NotModerator) as refused:
        await bot.tours.new(ALICE, game="callbreak", boards=4, tables=2)
    assert refused.value.reason == "not_moderator"
    assert await TournamentStore(bot.store).with_status(["lobby", "playing"]) == []


@pytest.mark.parametrize(
    ("game", "boards", "tables"),
    [
        ("chess", 4, 2),
        ("callbreak", "four", 2),
        ("callbreak", 0, 2),
        ("callbreak", 4, 1),
        ("callbreak", 4, 17),
        ("callbreak", "4; DROP TABLE", 2),
        ("callbreak", -3, 2),
    ],
)
async def test_garbage_is_refused_and_nothing_is_made(bot: Bot, game, boards, tables) -> None:
    with pytest.raises(EngineError):
        await bot.tours.new(MOD, game=game, boards=boards, tables=tables)
    assert bot.tours.live == {}


async def test_join_and_start_are_checked(bot: Bot) -> None:
    with pytest.raises(EngineError):
        await bot.tours.join(ALICE)  # nothing running here
    await bot.tours.new(MOD, game="callbreak", boards=1, tables=2)
    await bot.tours.join(ALICE)
    with pytest.raises(EngineError):
        await bot.tours.join(ALICE)
    with pytest.raises(NotModerator):
        await bot.tours.start(ALICE)
    with pytest.raises(EngineError):
        await bot.tours.new(MOD, game="callbreak", boards=1, tables=2)  # channel busy
    elsewhere = Actor(12, GUILD + 1, CHANNEL, "Bob", can_manage_server=True)
    with pytest.raises(EngineError):
        await bot.tours.join(elsewhere)  # another server's channel


async def test_pairs_play_their_seats_and_tables_end_with_the_board(bot: Bot) -> None:
    """Eşli Batak, 2 tables x 2 boards: a pair of people sits together in the
    movement's direction; a table whose match would go on is ended once its
    board is recorded; IMPs are scored."""
    bob = Actor(13, GUILD, CHANNEL, "Bob")
    await bot.tours.new(MOD, game="batak", boards=2, tables=2)
    await bot.tours.join(ALICE)
    await bot.tours.join(bob)
    info = await bot.tours.start(MOD)
    assert info.entrants[0] == "Alice & Bob" and info.people[0] == (11, 13)
    await bot.settle(info.id)
    final = await bot.tours.get(MOD, info.id)
    assert final.status == FINISHED and final.scoring == "imps"
    assert all(s.boards == 2 and s.imps is not None for s in final.standings)
    assert sum(s.imps or 0 for s in final.standings) == pytest.approx(0)
    links = await TournamentStore(bot.store).links([info.id])
    tour = bot.tours
    for link in links:
        t = await bot.tables.get_table(link.table_id)
        assert t.status == "abandoned"
        if link.table_no == 0:  # the home pair's table: partners face each other
            a, b = t.seat_of(ALICE.user_id), t.seat_of(bob.user_id)
            assert a is not None and b == a + 2
    assert tour.live == {}


async def test_a_board_table_ended_by_a_moderator_is_dealt_again(bot: Bot) -> None:
    """/table abandon on a board table does not stall the tournament: the
    board starts again at a new table, with the same cards."""
    await bot.tours.new(MOD, game="callbreak", boards=1, tables=2)
    await bot.tours.join(ALICE)
    info = await bot.tours.start(MOD)
    first = info.table_ids[0]  # Alice's table: waits for her turn
    await bot.tables.abandon(first, MOD)
    await bot.settle(info.id)
    final = await bot.tours.get(MOD, info.id)
    assert final.status == FINISHED and all(s.boards == 1 for s in final.standings)
    links = await TournamentStore(bot.store).links([info.id])
    again = next(k.table_id for k in links if k.table_no == 0)
    assert again != first
    replay = await bot.tables.get_table(again)
    assert replay.seat_of(ALICE.user_id) is not None
    record = await TournamentStore(bot.store).get(info.id)
    assert record is not None
    plays = {(t, b): a for t, b, a in record.state["duplicate"]["plays"]}
    log = [text for _, _, text in await bot.tables.history(again)]
    assert plays[(0, 0)] == log[: len(plays[(0, 0)])]  # the board as the new table played it
