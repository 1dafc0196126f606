"""What a click does: acknowledge at once, make the service call with the
clicker's ``Actor``, then answer the clicker (``replies.py``).

The service decides everything (who may start, whose turn it is, whether a
button is stale); this module only turns a component id into a call and
the result -- or the refusal, always a clear message to the clicker alone,
with nothing changed -- into an answer.  It never touches the channel:
the presenter's per-table task delivers what everyone sees.  Answers are
in the clicker's language (``Languages.for_person``), set for the whole
click before anything is rendered.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.discord import items
from bot.discord.actors import actor_of
from bot.discord.custom_ids import ComponentId
from bot.discord.replies import acknowledge, answer, whisper
from bot.i18n import N_, set_current, t
from bot.i18n.errors import error_text
from bot.i18n.terms import difficulty_word
from bot.services.errors import NotSeated, ServiceError, StaleAction, WrongStatus
from engine import EngineError

if TYPE_CHECKING:
    from bot.discord.host import ClickHost
    from bot.discord.live_hands import LiveHands
    from bot.services.tables import TableService

log = logging.getLogger(__name__)
HAND_VERBS = frozenset({"hand", "act", "pick", "page", "lvl"})
LEVELS = ("easy", "normal", "hard")
RESIGN_QUESTION = N_("Leave the game? An AI takes your seat and it counts as a loss.")
FAILED = N_("Something went wrong; the table is unchanged. Please try again.")
#: what a malformed component carried, for its refusal
WHAT = {
    "seat": N_("that seat cannot be used now"),
    "page": N_("that page cannot be used now"),
    "level": N_("that bid level cannot be used now"),
    "choice": N_("that choice cannot be used now"),
}


def _index(text: str | None, what: str) -> int:
    """A small non-negative number from a custom_id or a select value."""
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 4:
        raise ServiceError(WHAT[what], "bad_component")
    return int(text)


def joined_text(table: int, seat: int | None) -> str:
    """``You joined table #12 (seat 2).``"""
    if seat is None:
        return t("You joined table #{table}.", table=table)
    return t("You joined table #{table} (seat {seat}).", table=table, seat=seat + 1)


class ComponentHandler:
    def __init__(self, bot: ClickHost) -> None:
        self.bot = bot

    @property
    def service(self) -> TableService:
        return self.bot.service

    @property
    def hands(self) -> LiveHands:
        return self.bot.hands

    async def handle(
        self, interaction: discord.Interaction[Any], cid: ComponentId, value: str | None
    ) -> None:
        issued = self.hands.clock()
        try:
            await acknowledge(interaction)
        except discord.HTTPException as exc:  # the click expired on the way: nobody to tell
            log.warning("click on table %s not acknowledged: %s", cid.table, exc)
            return
        # after the acknowledgement: a first look-up may read the database
        set_current(await self.bot.languages.for_person(interaction))
        try:
            await self._dispatch(interaction, cid, value, issued)
        except StaleAction as exc:
            await self._refresh_hand(interaction, cid, f"⏳ {error_text(exc)}.", issued)
        except EngineError as exc:
            await self._refuse(interaction, cid, exc, issued)
        except discord.HTTPException as exc:
            log.warning("table %s: could not answer a click (%s)", cid.table, exc)
        except Exception:
            log.exception("table %s: click %s failed", cid.table, cid.verb)
            await self._quietly(answer(interaction, "⚠️ " + t(FAILED)))
        problem = self.bot.presenter.take_problem(cid.table)
        if problem:
            await self._quietly(whisper(interaction, problem))

    async def _dispatch(
        self,
        interaction: discord.Interaction[Any],
        cid: ComponentId,
        value: str | None,
        issued: float,
    ) -> None:
        actor = actor_of(interaction)
        svc, table = self.service, cid.table
        verb = cid.verb
        if verb in HAND_VERBS:
            await self._hand(interaction, cid, value, issued)
        elif verb == "join":
            info = await svc.join(table, actor)
            await answer(interaction, joined_text(table, info.seat_of(actor.user_id)))
        elif verb == "leave":
            info = await svc.leave(table, actor)
            if info.status == "playing":
                await answer(
                    interaction, t("You left table #{table}: an AI plays your seat.", table=table)
                )
            else:
                await answer(interaction, t("You left table #{table}.", table=table))
        elif verb == "ai":
            level = cid.arg if cid.arg in LEVELS else "normal"
            await svc.add_ai(table, actor, level)
            await answer(
                interaction,
                t("An AI player ({difficulty}) took a seat.", difficulty=difficulty_word(level)),
            )
        elif verb == "kick":
            seat = _index(value, "seat")
            await svc.kick(table, actor, seat)
            await answer(interaction, t("Seat {seat} is free again.", seat=seat + 1))
        elif verb in ("start", "fill"):
            await self._start(interaction, cid, actor)
        elif verb == "cancel":
            await svc.abandon(table, actor)
            await answer(interaction, t("Table #{table} was cancelled.", table=table))
        elif verb == "back":
            await svc.back(table, actor)
            await answer(
                interaction,
                t("Welcome back: you play your own turns again. Press **Show my hand** to play."),
            )
        elif verb == "resign":
            info = await svc.get_table(table, actor)
            if info.seat_of(actor.user_id) is None:
                raise NotSeated("you are not seated at table #{table}", table=table)
            await answer(interaction, t(RESIGN_QUESTION), view=items.resign_confirm_view(info))
        elif verb == "resignok":
            await svc.resign(table, actor)
            await answer(
                interaction, t("You left table #{table}: an AI plays your seat now.", table=table)
            )
        elif verb == "rematch":
            new = await svc.rematch(table, actor)
            self.bot.presenter.post_lobby(new)
            await answer(
                interaction,
                t("Rematch: table #{table} is open, its lobby is posted here.", table=new.id),
            )
        else:
            raise ServiceError("that button is not one Card Table knows", "unknown_verb")

    async def _start(
        self, interaction: discord.Interaction[Any], cid: ComponentId, actor: Any
    ) -> None:
        fill = cid.arg if cid.verb == "fill" else None
        if cid.verb == "fill" and fill not in LEVELS:
            raise ServiceError("choose easy, normal or hard for the AI players", "bad_difficulty")
        try:
            await self.service.start_table(cid.table, actor, fill_ai=fill)
        except WrongStatus as exc:
            if exc.reason != "seats_empty":
                raise
            info = await self.service.get_table(cid.table, actor)
            await answer(
                interaction,
                "⚠️ "
                + t(
                    "{problem}. Or fill them with AI players and start now:",
                    problem=error_text(exc),
                ),
                view=items.fill_view(info),
            )
            return
        await answer(
            interaction, t("The game has started: press **Show my hand** to see your cards.")
        )

    # -- the hand ---------------------------------------------------------------------------
    async def _hand(
        self,
        interaction: discord.Interaction[Any],
        cid: ComponentId,
        value: str | None,
        issued: float,
    ) -> None:
        if cid.verb == "hand":
            await self.hands.show(interaction, cid.table, issued=issued)
        elif cid.verb == "page":
            page = _index(cid.arg, "page")
            await self.hands.show(interaction, cid.table, page=page, issued=issued)
        elif cid.verb == "lvl":
            level = _index(value, "level")
            await self.hands.show(interaction, cid.table, level=level, issued=issued)
        else:
            await self._act(interaction, cid, cid.arg if cid.verb == "act" else value, issued)

    async def _act(
        self,
        interaction: discord.Interaction[Any],
        cid: ComponentId,
        index_text: str | None,
        issued: float,
    ) -> None:
        """``index_text`` indexes the clicker's own legal actions at ``cid.seq``:
        the service refuses it if that is no longer the state."""
        actor = actor_of(interaction)
        index = _index(index_text, "choice")
        private = await self.service.private_view(cid.table, actor)
        if private.table.seq != cid.seq:
            raise StaleAction("that hand is out of date", "stale")
        legal = private.view.legal_actions
        if not legal:
            raise StaleAction("it is not your turn any more", "stale")
        if index >= len(legal):
            raise StaleAction("that hand is out of date", "stale")
        self.hands.hold(cid.table, actor.user_id)
        await self.service.act(cid.table, actor, str(legal[index]), expected_seq=cid.seq)
        await self.hands.show(interaction, cid.table, issued=issued)

    async def _refresh_hand(
        self, interaction: discord.Interaction[Any], cid: ComponentId, note: str, issued: float
    ) -> None:
        """A stale or refused click on a hand: the hand as it is now, with why."""
        try:
            await self.hands.show(interaction, cid.table, note=note, issued=issued)
        except EngineError as exc:
            await self._quietly(answer(interaction, f"⚠️ {error_text(exc)}"))
        except discord.HTTPException as exc:
            log.warning("table %s: could not refresh a hand (%s)", cid.table, exc)

    async def _refuse(
        self,
        interaction: discord.Interaction[Any],
        cid: ComponentId,
        exc: EngineError,
        issued: float,
    ) -> None:
        if cid.verb in HAND_VERBS - {"hand"}:
            await self._refresh_hand(interaction, cid, f"⚠️ {error_text(exc)}", issued)
        else:
            await self._quietly(answer(interaction, f"⚠️ {error_text(exc)}"))

    @staticmethod
    async def _quietly(reply: Any) -> None:
        try:
            await reply
        except discord.HTTPException as exc:
            log.warning("could not answer a click (%s)", exc)

    # -- for slash commands -------------------------------------------------------------------
    async def send_hand(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """``/table hand``: the same live hand as the button."""
        issued = self.hands.clock()
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        await self.hands.show(interaction, table_id, issued=issued)
