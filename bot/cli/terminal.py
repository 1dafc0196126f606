"""The offline terminal table: ``python -m bot play <game>``.

It plays through the same ``TableService`` and store code as the Discord
bot, as ``Actor.local()``, so a game can be interrupted (q, EOF, Ctrl-C,
SIGTERM, even a crash) and resumed with ``python -m bot play --resume``.
Everything printed for the human is rendered from its own seat's view (or
the spectator's when watching).

The terminal keeps its games in its own SQLite file, ``TERMINAL_DB`` in the
working directory, or the one ``--db`` names -- never the bot's
``DATABASE_URL``: an operator's ``.env`` pointing at the server's
PostgreSQL must not collect offline games.  Every hint that resumes a game
repeats ``--db`` (and ``--lang``) when they were given.  SIGTERM stops a
game as cleanly as Ctrl-C (the service and the store are closed, every
stored move kept) and prints the same hint, with exit code 0.

Nothing is lost at the edges: a bad command line is refused in one line
before any table exists; a typed line that is no move at all (too long,
control characters, bytes that are not UTF-8, nothing but blanks) is
refused in one line and asked again; an illegal move is refused with the
rule it breaks.  Typed lines are read from the file descriptor when the
event loop can watch it (``loop.add_reader``), never in a thread: a thread
blocked in ``readline`` cannot be interrupted, and ``asyncio.run`` would
wait for it on Ctrl-C until the next Enter.

Everything printed is in the player's language (``--lang``, else the
environment's ``LC_ALL``/``LC_MESSAGES``/``LANG``, else English): the whole
session runs inside ``bot.i18n.using``.  What is typed stays the engine's
notation in every language (``AS``, ``bid 3``, ``pass``).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Coroutine
from dataclasses import dataclass
from datetime import UTC
from typing import Any

from sqlalchemy.engine import make_url

from bot.cli.local_service import local_table_service
from bot.cli.terminal_console import BadInput, Console, one_line
from bot.cli.terminal_table import (
    LOCAL_USER,
    TERMINAL_DB_URL,
    Session,
    TerminalTable,
    is_terminal_table,
    result_line,
    seat_names,
)
from bot.cli.terminal_text import (
    help_text,
)
from bot.db.repositories import Store, StoreUnavailable
from bot.i18n import t, tn, using
from bot.i18n.errors import error_text
from bot.i18n.locales import from_environment
from bot.i18n.settings_words import settings_line
from bot.i18n.terms import and_list, game_summary, game_title
from bot.render.text import (
    render_ranking,
)
from bot.render.unrated import unrated_sentence
from bot.services.actor import Actor
from bot.services.errors import TableNotFound
from bot.services.models import TableInfo, TableUpdate
from bot.services.results import NO_SERVER
from bot.services.tables import TableService
from engine import GAMES, EngineError, Game, get_game

AGENT_TO_DIFFICULTY = {"random": "easy", "heuristic": "normal", "search": "hard"}
AGENTS = tuple(AGENT_TO_DIFFICULTY)
SEED_MAX = 2**63 - 1
EXIT_INTERRUPTED = 130


class CliError(Exception):
    """A refusal of the command line: printed in one line, exit code 2."""


# -- the command line, checked before anything is stored ------------------------------------
@dataclass(frozen=True)
class NewGame:
    game: Game
    options: dict[str, str]
    seats: int


def plan_new_game(
    game_name: str | None,
    options: dict[str, str],
    *,
    players: int | None = None,
    seat: int = 0,
    watch: bool = False,
) -> NewGame:
    """The game, settings and seat the command line asks for, checked by the
    engine; ``EngineError`` or ``CliError`` with a one-line reason."""
    game = get_game(game_name or "callbreak")
    options = dict(options)
    if players is not None:
        known = {s.name: s for s in game.Variant.settings()}
        if "players" not in known:
            choosers = [
                game_title(name)
                for name in GAMES
                if any(s.name == "players" for s in get_game(name).Variant.settings())
            ]
            raise CliError(
                tn(
                    "--players is only for {games}: {game} always has {n} player",
                    "--players is only for {games}: {game} always has {n} players",
                    game.num_seats(),
                    games=and_list(choosers),
                    game=game_title(game.name, game.title),
                )
            )
        bounds = known["players"].bounds
        if bounds is not None and not bounds[0] <= players <= bounds[1]:
            raise CliError(
                t(
                    "--players must be {low}..{high} for {game} (got {value})",
                    low=bounds[0],
                    high=bounds[1],
                    game=game_title(game.name, game.title),
                    value=players,
                )
            )
        options["players"] = str(players)
    variant = game.Variant.from_options(options)
    seats = game.num_seats(variant)
    if not watch and not 0 <= seat < seats:
        raise CliError(
            t(
                "--seat must be 0..{high} for {game} with {n} players (0 = the first seat; "
                "got {value})",
                high=seats - 1,
                game=game_title(game.name, game.title),
                n=seats,
                value=seat,
            )
        )
    return NewGame(game, options, seats)


def database_name(db_url: str) -> str:
    url = make_url(db_url)
    if url.get_backend_name() == "sqlite":
        return url.database or "memory"
    return url.render_as_string(hide_password=True)


# -- choosing the table: a new one, or one to resume ------------------------------------------
@dataclass(frozen=True)
class PlayRequest:
    game_name: str | None
    seed: int | None
    seat: int
    watch: bool
    options: dict[str, str]
    agent: str
    db_url: str
    resume: int | bool | None
    players: int | None = None


class Resumer:
    """``--resume [N]``: find the terminal game to go on with, or say
    precisely why there is none."""

    def __init__(
        self,
        service: TableService,
        store: Store,
        con: Console,
        db_name: str,
        finished_on_start: dict[int, TableUpdate],
    ) -> None:
        self.service = service
        self.store = store
        self.con = con
        self.db_name = db_name
        self.finished_on_start = finished_on_start
        self.actor = Actor.local()

    async def candidates(self) -> list[TableInfo]:
        """Unfinished terminal games, with those the service just finished
        (their last move was stored but not their result)."""
        tables = {
            t.id: t for t in await self.service.open_tables(self.actor) if is_terminal_table(t)
        }
        for table_id, update in self.finished_on_start.items():
            tables.setdefault(table_id, update.table)
        return [tables[k] for k in sorted(tables)]

    async def describe(self, info: TableInfo) -> str:
        title = game_title(info.game, get_game(info.game).title)
        _, view = await self.service.public_view(info.id, self.actor)
        if info.id in self.finished_on_start:
            where = t("over (result not yet shown)")
        elif view is None:
            where = t("not started")
        elif info.game == "ladder":
            where = t("game {number}", number=view.round_number)
        else:
            where = t("deal {number}", number=view.round_number)
        loaded = await self.store.table(info.id)
        when = ""
        if loaded is not None and loaded[0].updated_at is not None:
            stamp = loaded[0].updated_at
            stamp = stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)
            when = ", " + t("last played {when}", when=f"{stamp.astimezone():%Y-%m-%d %H:%M}")
        return f"  #{info.id}  {title}, {where}{when}"

    async def choose(self, wanted: int | None) -> int:
        """The table to resume; ``CliError`` when there is none to choose."""
        if wanted is not None:
            return await self._check(wanted)
        tables = await self.candidates()
        if not tables:
            raise CliError(
                t("there is no unfinished terminal game in {database}", database=self.db_name)
            )
        if len(tables) == 1:
            return tables[0].id
        self.con.say(t("Unfinished terminal games:"))
        for info in tables:
            self.con.say(await self.describe(info))
        ids = {table.id for table in tables}
        if not self.con.interactive:
            raise CliError(t("several unfinished games: choose one with --resume N"))
        while True:
            try:
                text = await self.con.ask(t("Resume which table? "))
            except BadInput as exc:
                self.con.say(t("Not understood: {problem}", problem=one_line(exc)))
                continue
            if text is None or text.lower() in ("q", "quit", "exit"):
                raise CliError(t("no table chosen: choose one with --resume N"))
            number = text.lstrip("#")
            if number.isdecimal() and int(number) in ids:
                return int(number)
            tables_text = ", ".join(str(i) for i in sorted(ids))
            self.con.say(one_line(t("Type one of: {tables}", tables=tables_text)))

    async def _check(self, table_id: int) -> int:
        if table_id in self.finished_on_start:
            return table_id
        try:
            info = await self.service.get_table(table_id, self.actor)
        except TableNotFound:
            if await self.service.store.table(table_id) is None:
                raise CliError(
                    t(
                        "there is no table {table} in {database}",
                        table=table_id,
                        database=self.db_name,
                    )
                ) from None
            raise CliError(
                t("table {table} is not a terminal game (it belongs to Discord)", table=table_id)
            ) from None
        if info.status == "finished":
            _, view = await self.service.public_view(table_id, self.actor)
            result = result_line(view, seat_names(info)) if view is not None else t("not recorded")
            raise CliError(
                t(
                    "table {table} is finished: its result was {result}",
                    table=table_id,
                    result=result,
                )
            )
        if info.status == "abandoned":
            raise CliError(
                t("table {table} was abandoned: there is nothing to resume", table=table_id)
            )
        return table_id


def _check_sqlite_path(db_url: str, db_name: str) -> None:
    """A SQLite path that cannot work is refused before the driver tries: a
    failed connect inside the migration's worker thread makes aiosqlite
    print a thread traceback of its own."""
    url = make_url(db_url)
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return
    path = os.path.abspath(url.database)
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):
        raise CliError(
            t(
                "cannot open the database {database}: there is no folder {folder}",
                database=db_name,
                folder=folder,
            )
        )
    if os.path.exists(path) and not os.path.isfile(path):
        raise CliError(t("cannot open the database {database}: it is not a file", database=db_name))
    if not os.access(path if os.path.exists(path) else folder, os.R_OK | os.W_OK):
        raise CliError(
            t("cannot open the database {database}: permission denied", database=db_name)
        )


def _require_existing(db_url: str, db_name: str) -> None:
    """``--resume`` on a SQLite file that is not there: refused, and the
    file is not created."""
    url = make_url(db_url)
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return
    if not os.path.exists(url.database):
        raise CliError(
            t("there is no database {database}: nothing to resume (check --db)", database=db_name)
        )


async def _open_store(db_url: str, db_name: str) -> Store:
    _check_sqlite_path(db_url, db_name)
    store = Store(db_url)
    try:
        await store.migrate()
    except Exception as exc:  # the store wraps driver errors: say what is wrong
        await store.close()
        if isinstance(exc, StoreUnavailable) and not exc.retryable:
            raise CliError(str(exc)) from None  # damaged: the store says what to do
        cause = exc.__cause__ or exc
        cause = getattr(cause, "orig", None) or cause
        raise CliError(
            t("cannot open the database {database}: {cause}", database=db_name, cause=cause)
        ) from None
    return store


async def _play(request: PlayRequest, con: Console, session: Session) -> int:
    plan = None
    if request.resume is None:
        plan = plan_new_game(
            request.game_name,
            request.options,
            players=request.players,
            seat=request.seat,
            watch=request.watch,
        )
    db_name = database_name(request.db_url)
    if request.resume is not None:
        _require_existing(request.db_url, db_name)  # resuming reads: never create the file
    store = await _open_store(request.db_url, db_name)
    service = local_table_service(store)
    actor = Actor.local()
    finished_on_start: dict[int, TableUpdate] = {}

    async def collect(update: TableUpdate) -> None:
        if update.kind == "finished" and is_terminal_table(update.table):
            finished_on_start[update.table.id] = update

    try:
        unsubscribe = service.subscribe(collect)
        try:
            await service.start(dispatch_deadlines=False)
        finally:
            unsubscribe()
        if plan is None:
            resumer = Resumer(service, store, con, db_name, finished_on_start)
            wanted = None if request.resume is True else int(request.resume)
            table_id = await resumer.choose(wanted)
            info = await service.get_table(table_id, actor)
            if table_id in finished_on_start:
                con.say(
                    t(
                        "Table #{table} ({game}) was over when it stopped; its result is now "
                        "recorded.",
                        table=table_id,
                        game=game_title(info.game, get_game(info.game).title),
                    )
                )
                _, view = await service.public_view(table_id, actor)
                if view is not None:
                    results = finished_on_start[table_id].results
                    con.say(
                        render_ranking(
                            view,
                            seat_names(info),
                            you=info.seat_of(LOCAL_USER),
                            ranks=results.ranks if results is not None else None,
                        )
                    )
                    con.say(unrated_sentence(NO_SERVER))
                return 0
            session.table_id = table_id
            if info.status == "lobby":  # stopped before its first deal
                difficulty = AGENT_TO_DIFFICULTY.get(request.agent, "normal")
                info = await service.start_table(table_id, actor, fill_ai=difficulty)
            human = info.seat_of(LOCAL_USER)
            title = game_title(info.game, get_game(info.game).title)
            con.say(
                t(
                    "Resuming table #{table} ({game}) at move {move}.",
                    table=table_id,
                    game=title,
                    move=info.seq,
                )
            )
        else:
            unfinished = await Resumer(service, store, con, db_name, {}).candidates()
            if unfinished:
                con.say(
                    tn(
                        "You have {n} unfinished game here: {command} goes on with it.",
                        "You have {n} unfinished games here: {command} lists them.",
                        len(unfinished),
                        command=session.hint(unfinished[0].id if len(unfinished) == 1 else None),
                    )
                )
            info = await service.create_table(
                actor,
                game=plan.game.name,
                options=plan.options,
                seed=request.seed,
                host_seat=None if request.watch else request.seat,
            )
            session.table_id = info.id
            difficulty = AGENT_TO_DIFFICULTY.get(request.agent, "normal")
            info = await service.start_table(info.id, actor, fill_ai=difficulty)
            human = None if request.watch else request.seat
            title = game_title(plan.game.name, plan.game.title)
            con.say(f"{title}: {game_summary(plan.game.name, plan.game.summary)}")
            con.say(t("Settings: {settings}", settings=settings_line(info.variant)))
            if human is not None:
                seat_line = t(
                    "You sit in seat {seat} at table #{table}.", seat=human, table=info.id
                )
                con.say(f"{seat_line}\n{help_text(plan.game, session.hint())}")
            con.say()
        return await TerminalTable(service, con, info.id, human, session).run()
    finally:
        await service.close()
        await store.close()


def play_terminal(
    game_name: str | None,
    *,
    seed: int | None = None,
    seat: int = 0,
    watch: bool = False,
    options: dict[str, str] | None = None,
    agent: str = "heuristic",
    db_url: str | None = None,
    resume: int | bool | None = None,
    players: int | None = None,
    console: Console | None = None,
    lang: str | None = None,
) -> int:
    """Play (or resume) one match in the terminal; returns the exit code.
    Refusals are one line on stderr with exit code 2; Ctrl-C ends at once
    with the command that resumes the game (exit code 130), SIGTERM the
    same way with exit code 0.  ``db_url``: default the terminal's own file
    (``TERMINAL_DB``).  ``lang``: the language of everything printed
    (default: the environment's)."""
    with using(lang or from_environment(os.environ)):
        return _play_terminal(
            game_name,
            seed=seed,
            seat=seat,
            watch=watch,
            options=options,
            agent=agent,
            db_url=db_url,
            resume=resume,
            players=players,
            console=console,
            lang=lang,
        )


def _play_terminal(
    game_name: str | None,
    *,
    seed: int | None,
    seat: int,
    watch: bool,
    options: dict[str, str] | None,
    agent: str,
    db_url: str | None,
    resume: int | bool | None,
    players: int | None,
    console: Console | None,
    lang: str | None,
) -> int:
    con = console or Console()
    request = PlayRequest(
        game_name=game_name,
        seed=seed,
        seat=seat,
        watch=watch,
        options=options or {},
        agent=agent,
        db_url=db_url or TERMINAL_DB_URL,
        resume=resume,
        players=players,
    )
    session = Session(db_url=request.db_url, lang=lang)
    try:
        return asyncio.run(_until_stopped(_play(request, con, session), session))
    except asyncio.CancelledError:
        if session.stopped_by is None:
            raise
        _say_stopped(con, session, t("Stopped ({signal}).", signal=session.stopped_by))
        return 0
    except CliError as exc:
        con.refuse(exc)
        return 2
    except EngineError as exc:
        con.refuse(error_text(exc))
        return 2
    except StoreUnavailable as exc:
        con.refuse(f"{exc} ({database_name(request.db_url)})")
        return 1
    except KeyboardInterrupt:
        _say_stopped(con, session, t("Interrupted."))
        return EXIT_INTERRUPTED


def _say_stopped(con: Console, session: Session, stopped: str) -> None:
    if session.table_id is not None:
        con.say(
            "\n" + t("Interrupted: resume with {command}", command=session.hint(session.table_id))
        )
    else:
        con.say("\n" + stopped)


async def _until_stopped(play: Coroutine[Any, Any, int], session: Session) -> int:
    """Run ``play``; SIGTERM cancels it like Ctrl-C does (its ``finally``
    closes the service and the store: every stored move is kept) and is
    noted in ``session`` so the caller exits 0."""
    import signal

    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None

    def stop() -> None:
        if session.stopped_by is None:
            session.stopped_by = "SIGTERM"
            task.cancel()

    try:
        loop.add_signal_handler(signal.SIGTERM, stop)
    except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, Windows
        return await play
    try:
        return await play
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
