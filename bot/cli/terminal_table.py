"""The terminal's table: one game played through the ``TableService`` as
``Actor.local()``, shown from the player's own seat (or the spectator's
when watching), with the hint that resumes it.  ``bot.cli.terminal`` is the
command line that chooses the table and runs it."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy.engine import make_url

from bot.cli.terminal_console import BadInput, Console, one_line, resolve_input
from bot.cli.terminal_text import choices_line, help_text, legal_line, refusal_text
from bot.i18n import t
from bot.i18n.terms import game_title, seat_display_name
from bot.render.text import (
    describe_action,
    describe_event,
    fmt_score,
    render_deal_summary,
    render_ranking,
    render_table,
    seat_label,
)
from bot.render.unrated import unrated_sentence
from bot.services.actor import LOCAL_USER_ID, Actor
from bot.services.models import TableInfo, TableUpdate
from bot.services.results import NO_SERVER
from bot.services.tables import TableService
from engine import EngineError, Observation, get_game

LOCAL_USER = LOCAL_USER_ID  # the terminal's player (Discord ids are far larger)


#: the terminal's own database file (in the working directory) when --db is not given
TERMINAL_DB = "cardtable-terminal.db"


TERMINAL_DB_URL = f"sqlite+aiosqlite:///{TERMINAL_DB}"


def resume_hint(
    table_id: int | None = None, db_url: str | None = None, lang: str | None = None
) -> str:
    """The command that resumes ``table_id`` (or lists the unfinished games),
    with every option it needs: ``--db`` unless it is the terminal's own
    file, ``--lang`` when one was given."""
    import shlex

    parts = ["python", "-m", "bot", "play", "--resume"]
    if table_id is not None:
        parts.append(str(table_id))
    if db_url is not None and db_url != TERMINAL_DB_URL:
        url = make_url(db_url)
        if url.get_backend_name() == "sqlite" and url.database:
            parts += ["--db", url.database]
        else:  # only a test gives the terminal another kind of database
            parts += ["--db", url.render_as_string(hide_password=True)]
    if lang is not None:
        parts += ["--lang", lang]
    return shlex.join(parts)


# -- rendering helpers --------------------------------------------------------------------------
def seat_names(info: TableInfo) -> list[str]:
    return [
        t("You")
        if s.user_id == LOCAL_USER
        else (seat_display_name(s.name, s.ai) if s.name else t("Seat {seat}", seat=s.seat))
        for s in info.seats
    ]


def result_line(view: Observation, names: Sequence[str]) -> str:
    """The final standings in one line: '1. You 12.3, 2. Ada (AI) 9.1, ...'."""
    if view.teams:
        entries = [
            (view.ranking[i], " & ".join(seat_label(s, names) for s in team), view.scores[i])
            for i, team in enumerate(view.teams)
        ]
    else:
        entries = [
            (view.ranking[s], seat_label(s, names), view.scores[s]) for s in range(view.num_seats)
        ]
    return ", ".join(
        f"{rank}. {who} {fmt_score(score, view.score_unit)}" for rank, who, score in sorted(entries)
    )


def _dummy_declarer(
    seat: int, update: TableUpdate | None, current: Observation | None
) -> int | None:
    """The declarer when ``seat`` is the dummy (whose cards the declarer
    plays), else None.  The view published with the move knows the deal; a
    deal's last move is read from the finished deal's record."""
    view = update.view if update is not None and update.view is not None else current
    if view is None:
        return None
    if view.dummy_seat is not None and view.declarer is not None:
        return view.declarer if seat == view.dummy_seat else None
    ended = update is not None and any(e.kind == "deal_scored" for e in update.events)
    record = view.last_deal
    if ended and record is not None and record.declarer is not None and view.game == "batak":
        return record.declarer if seat == (record.declarer + 2) % view.num_seats else None
    return None


def is_terminal_table(info: TableInfo) -> bool:
    return info.guild_id is None and info.channel_id is None and info.host_id == LOCAL_USER


# -- playing -------------------------------------------------------------------------------------
@dataclass
class Session:
    """What the interrupt message needs to know: the table being played,
    and the options that find it again."""

    table_id: int | None = None
    db_url: str | None = None
    lang: str | None = None
    #: the signal that stopped the game (SIGTERM), if one did
    stopped_by: str | None = None

    def hint(self, table_id: int | None = None) -> str:
        return resume_hint(table_id, self.db_url, self.lang)


class TerminalTable:
    def __init__(
        self,
        service: TableService,
        console: Console,
        table_id: int,
        human: int | None,
        session: Session | None = None,
    ) -> None:
        self.service = service
        self.con = console
        self.table_id = table_id
        self.human = human
        self.actor = Actor.local()
        self.session = session or Session()
        self.printed = 0
        self.names: list[str] = []
        self.round_shown = 0
        self.updates: list[TableUpdate] = []
        #: set by every update of this table: the loop waits on it, never polls
        self.changed = asyncio.Event()
        self.ranks: tuple[int, ...] | None = None

    async def on_update(self, update: TableUpdate) -> None:
        if update.table.id == self.table_id:
            self.updates.append(update)
            self.changed.set()
            if update.results is not None:
                self.ranks = update.results.ranks  # the service's places

    async def narrate(self) -> None:
        """Print the moves made since the last call, with what they caused
        (each deal's summary from the view published with its last move)."""
        history = await self.service.history(self.table_id, self.printed)
        updates, self.updates = self.updates, []
        published = {u.table.seq - 1: u for u in updates if u.kind not in ("lobby", "resumed")}
        info, current = await self.service.public_view(self.table_id, self.actor)
        game = get_game(info.game)
        for seq, seat, text in history:
            update = published.get(seq)
            declarer = _dummy_declarer(seat, update, current)
            self.con.say(
                describe_action(
                    seat, game.parse_action(text), self.names, you=self.human, declarer=declarer
                )
            )
            for event in update.events if update else ():
                line = describe_event(event, self.names, you=self.human)
                if line:
                    self.con.say(line)
                if event.kind == "deal_scored" and update is not None and update.view is not None:
                    self.con.say(render_deal_summary(update.view, self.names))
                    if not update.view.is_over:
                        self._announce_round(update.view.round_number, update.table.game)
            self.printed = seq + 1

    def _announce_round(self, number: int, game: str) -> None:
        if number != self.round_shown:
            self.round_shown = number
            if game == "ladder":
                self.con.say(t("--- Game {number} ---", number=number))
            else:
                self.con.say(t("--- Deal {number} ---", number=number))

    async def run(self) -> int:
        info = await self.service.get_table(self.table_id, self.actor)
        self.names = seat_names(info)
        self.printed = info.seq
        self.session.table_id = self.table_id
        _, view = await self.service.public_view(self.table_id, self.actor)
        if view is not None and not view.is_over and view.round_number == 1 and info.seq == 0:
            self._announce_round(1, info.game)
        unsubscribe = self.service.subscribe(self.on_update)
        try:
            return await self._loop()
        finally:
            unsubscribe()

    async def _loop(self) -> int:
        while True:
            await self.service.wait_idle(self.table_id)
            self.changed.clear()  # before reading the table: no update is missed
            await self.narrate()
            info, view = await self.service.public_view(self.table_id, self.actor)
            if info.status != "playing" or view is None or view.is_over:
                break
            self._announce_round(view.round_number, info.game)
            if self.human is None or view.decider != self.human:
                await self.changed.wait()  # the next move (an AI's) is published
                continue
            if not await self._human_turn(info):
                self.con.say(
                    "\n"
                    + t(
                        "Game left unfinished. Resume with: {command}",
                        command=self.session.hint(self.table_id),
                    )
                )
                return 0
        self.session.table_id = None
        info, view = await self.service.public_view(self.table_id, self.actor)
        if view is not None and view.is_over:
            self.con.say(render_ranking(view, self.names, you=self.human, ranks=self.ranks))
            self.con.say(unrated_sentence(NO_SERVER))  # ratings are per server
        elif info.status == "abandoned":
            self.con.say(t("Table #{table} was abandoned.", table=self.table_id))
        return 0

    async def _human_turn(self, info: TableInfo) -> bool:
        """Ask until the service accepts a move; False when the human quits."""
        assert self.human is not None
        private = await self.service.private_view(self.table_id, self.actor)
        view = private.view
        title = game_title(info.game, get_game(info.game).title)
        self.con.say()
        self.con.say(render_table(view, self.names, title=title))
        if view.to_act is not None and view.to_act != self.human:
            self.con.say(
                t("You choose the card for the dummy ({name}).", name=self.names[view.to_act])
            )
        legal = list(view.legal_actions)
        game = get_game(info.game)
        from_dummy = view.to_act is not None and view.to_act == view.dummy_seat
        hand = list(view.dummy or ()) if from_dummy else list(view.hand)
        choices = choices_line(legal)
        if choices:
            self.con.say(choices)
        while True:
            try:
                text = await self.con.ask(t("Your move: "))
            except BadInput as exc:
                self.con.say(t("Not understood: {problem}", problem=one_line(exc)))
                continue
            if text is None or text.lower() in ("q", "quit", "exit"):
                return False
            if text in ("?", "help"):
                self.con.say(help_text(game, self.session.hint()))
                self.con.say(legal_line(legal, hand))
                continue
            if text.lower() in ("t", "table"):
                self.con.say(render_table(view, self.names, title=title))
                continue
            try:
                action = resolve_input(text, legal, info.game)
                await self.service.act(
                    self.table_id, self.actor, str(action), expected_seq=info.seq
                )
                return True
            except EngineError as exc:
                self.con.say(one_line(refusal_text(exc, game, text), 400))
                if any(a.verb != "play" for a in legal) and choices:
                    self.con.say(choices)  # an auction: what can be bid
                elif len(legal) <= 16:
                    self.con.say(one_line(legal_line(legal, hand), 400))
