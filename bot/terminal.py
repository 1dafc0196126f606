"""The offline terminal table: ``python -m bot play <game>``.

It plays through the same ``TableService`` and SQLite store as the Discord
bot, so a game can be interrupted (q, EOF, Ctrl-C, even a crash) and
resumed with ``python -m bot play --resume``.  Everything printed for the
human is rendered from its own seat's view (or the spectator's when
watching).  Bad input never crashes the loop: it is refused with the rule
it breaks and asked again.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TextIO

from bot.db.repositories import Store
from bot.services.models import TableInfo, TableUpdate
from bot.services.tables import TableService
from bot.ui.text import (
    describe_action,
    describe_event,
    options_text,
    render_deal_summary,
    render_ranking,
    render_table,
)
from engine import Action, EngineError, MatchState, get_game

LOCAL_USER = 1  # the terminal's player (Discord ids are far larger)
AGENT_TO_DIFFICULTY = {"random": "easy", "heuristic": "normal", "search": "hard"}
HELP = (
    "Type a card to play it (AS, as, 10h, 7d), a number to bid (3), or an action\n"
    "as listed ('bid 9 H', 'trump S', 'pass', 'pickup', 'hidden 2', 'play 7H 7D').\n"
    "'?' lists your legal moves, 't' shows the table again, 'q' quits (resume later\n"
    "with 'python -m bot play --resume')."
)


@dataclass
class Console:
    """Input and output streams; ``ask`` returns None on EOF or Ctrl-C."""

    stdin: TextIO = field(default_factory=lambda: sys.stdin)
    stdout: TextIO = field(default_factory=lambda: sys.stdout)

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def ask(self, prompt: str) -> str | None:
        self.stdout.write(prompt)
        self.stdout.flush()
        try:
            line = self.stdin.readline()
        except (KeyboardInterrupt, UnicodeDecodeError):
            return None
        if not line:
            return None
        return line.strip()


def resolve_input(text: str, legal: Sequence[Action], state_game: str) -> Action:
    """Read what the human typed: full notation, a bare card, a bare number,
    or a unique shorthand of a legal action ('h' for 'trump H')."""
    game = get_game(state_game)
    try:
        return game.parse_action(text)
    except EngineError as first_error:
        low = text.strip().lower()
        matches = [a for a in legal if str(a).lower().endswith(" " + low) or str(a).lower() == low]
        if len(matches) == 1:
            return matches[0]
        raise first_error


class TerminalTable:
    def __init__(
        self, service: TableService, console: Console, table_id: int, human: int | None
    ) -> None:
        self.service = service
        self.con = console
        self.table_id = table_id
        self.human = human
        self.printed = 0
        self.names: list[str] = []
        self.round_shown = 0
        self.updates: list[TableUpdate] = []

    async def on_update(self, update: TableUpdate) -> None:
        if update.table.id == self.table_id:
            self.updates.append(update)

    def _viewer_state(self) -> MatchState | None:
        return self.service.tables[self.table_id].state

    async def narrate(self) -> None:
        """Print the moves made since the last call, with what they caused."""
        history = await self.service.history(self.table_id, self.printed)
        updates, self.updates = self.updates, []
        events_by_seq = {u.table.seq - 1: u.events for u in updates if u.kind != "lobby"}
        state = self._viewer_state()
        for seq, seat, text in history:
            game = get_game(self.service.tables[self.table_id].game)
            self.con.say(describe_action(seat, game.parse_action(text), self.names))
            for event in events_by_seq.get(seq, ()):
                line = describe_event(event, self.names)
                if line:
                    self.con.say(line)
                if event.kind == "deal_scored" and state is not None:
                    self.con.say(render_deal_summary(state.view(self.human), self.names))
            self.printed = seq + 1

    async def run(self) -> int:
        info = await self.service.get_table(self.table_id)
        self.names = ["You" if s.user_id == LOCAL_USER else s.name for s in info.seats]
        self.printed = info.seq
        unsubscribe = self.service.subscribe(self.on_update)
        try:
            return await self._loop()
        finally:
            unsubscribe()

    async def _loop(self) -> int:
        while True:
            await self.service.wait_idle(self.table_id)
            await self.narrate()
            info = await self.service.get_table(self.table_id)
            state = self._viewer_state()
            if info.status != "playing" or state is None:
                break
            if state.round_number != self.round_shown:
                self.round_shown = state.round_number
                unit = "Game" if info.game == "ladder" else "Deal"
                self.con.say(f"--- {unit} {self.round_shown} ---")
            if self.human is None or state.decider != self.human:
                await asyncio.sleep(0.01)
                continue
            if not await self._human_turn(info):
                resume = f"python -m bot play --resume {self.table_id}"
                self.con.say(f"\nGame left unfinished. Resume with: {resume}")
                return 0
        state = self._viewer_state()
        if state is not None and state.is_over:
            self.con.say(render_ranking(state.view(self.human), self.names))
        return 0

    async def _human_turn(self, info: TableInfo) -> bool:
        """Ask until the service accepts a move; False when the human quits."""
        assert self.human is not None
        private = await self.service.private_view(self.table_id, LOCAL_USER)
        view = private.view
        title = get_game(info.game).title
        self.con.say()
        self.con.say(render_table(view, self.names, title=title))
        if view.to_act is not None and view.to_act != self.human:
            self.con.say(f"You choose the card for the dummy ({self.names[view.to_act]}).")
        legal = list(view.legal_actions)
        choices = options_text(legal)
        if choices:
            self.con.say(f"Choose: {choices}")
        while True:
            text = await asyncio.to_thread(self.con.ask, "Your move: ")
            if text is None or text.lower() in ("q", "quit", "exit"):
                return False
            if text in ("?", "help"):
                self.con.say(HELP)
                self.con.say("Legal now: " + ", ".join(str(a) for a in legal))
                continue
            if text.lower() in ("t", "table"):
                self.con.say(render_table(view, self.names, title=title))
                continue
            if not text:
                continue
            try:
                action = resolve_input(text, legal, info.game)
                await self.service.act(
                    self.table_id, LOCAL_USER, str(action), expected_seq=info.seq
                )
                return True
            except EngineError as exc:
                self.con.say(f"Not allowed: {exc}")
                if len(legal) <= 16:
                    self.con.say("Legal now: " + ", ".join(str(a) for a in legal))


async def _play(
    game_name: str | None,
    *,
    seed: int | None,
    seat: int,
    watch: bool,
    options: dict[str, str],
    agent: str,
    db_url: str,
    resume: int | bool | None,
    con: Console,
) -> int:
    store = Store(db_url)
    await store.migrate()
    service = TableService(store, turn_seconds_default=0, ai_budget_ms=200)
    await service.start(dispatch_deadlines=False)
    try:
        if resume:
            table_id = await _find_resumable(service, resume if resume is not True else None)
            if table_id is None:
                con.say("There is no unfinished terminal game to resume.")
                return 2
            info = await service.get_table(table_id)
            human = info.seat_of(LOCAL_USER)
            con.say(f"Resuming table #{table_id} ({get_game(info.game).title}) at move {info.seq}.")
        else:
            try:
                game = get_game(game_name or "callbreak")
                info = await service.create_table(
                    guild_id=None,
                    channel_id=None,
                    host_id=LOCAL_USER,
                    host_name="You",
                    game=game.name,
                    options=options,
                    seed=seed,
                    host_seat=None if watch else seat,
                )
            except EngineError as exc:
                con.say(f"Error: {exc}")
                return 2
            difficulty = AGENT_TO_DIFFICULTY.get(agent, "normal")
            for _ in range(sum(1 for s in info.seats if s.empty)):
                info = await service.add_ai(info.id, LOCAL_USER, difficulty)
            info = await service.start_table(info.id, LOCAL_USER)
            human = None if watch else seat
            con.say(f"{game.title}: {game.summary}")
            con.say(f"Settings: {', '.join(f'{k}={v}' for k, v in info.variant.items())}")
            if human is not None:
                con.say(f"You sit in seat {human} at table #{info.id}. {HELP}")
            con.say()
        return await TerminalTable(service, con, info.id, human).run()
    finally:
        await service.close()
        await store.close()


async def _find_resumable(service: TableService, table_id: int | None) -> int | None:
    tables = [
        t
        for t in await service.active_tables()
        if t.host_id == LOCAL_USER and t.guild_id is None and t.status == "playing"
    ]
    if table_id is not None:
        return table_id if any(t.id == table_id for t in tables) else None
    return max((t.id for t in tables), default=None)


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
    console: Console | None = None,
) -> int:
    """Play (or resume) one match in the terminal; returns the exit code."""
    from bot.settings import Settings

    url = db_url or Settings().database_url
    return asyncio.run(
        _play(
            game_name,
            seed=seed,
            seat=seat,
            watch=watch,
            options=options or {},
            agent=agent,
            db_url=url,
            resume=resume,
            con=console or Console(),
        )
    )
