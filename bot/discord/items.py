"""The table's components, and the restart-proof items behind them.

Views are built fresh from service objects every time (lobby, table, hand)
and hold no state: one DynamicItem for buttons and one for selects, both
parsed from ``ct:<table>:<seq>:<verb>:<arg>`` (``custom_ids.py``), so
buttons keep working after a restart and after the 15-minute view timeout.

Every view fits Discord's limits: at most 5 rows of 5 buttons (a select
takes a whole row), 25 options per select, 80-character labels.  Labels
read as a player would say them, with suit symbols (``text.label_for``),
in the current language (the reader's: the hand, the fill offer; the
server's: the lobby and table messages).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot.discord import custom_ids
from bot.discord.activity import ActivityButton
from bot.discord.custom_ids import ComponentId
from bot.i18n import t
from bot.i18n.terms import card_text, difficulty_word
from bot.render.text import label_for
from bot.services.models import TableInfo
from engine import Action, Observation
from engine.core.cards import Card, sort_hand

log = logging.getLogger(__name__)
ROWS, PER_ROW, OPTIONS, LABEL_MAX = 5, 5, 25, 80
#: three rows of cards leave a row for a menu and a row for other buttons
CARDS_PER_PAGE = 15
CHOICES_PER_PAGE = OPTIONS
DIFFICULTY_LEVELS = ("easy", "normal", "hard")
RED = frozenset({"H", "D"})
#: Blot strains in the order players read them
STRAIN_ORDER = ("S", "H", "D", "C", "NT")
SUIT_STYLE = {"H": discord.ButtonStyle.danger, "D": discord.ButtonStyle.danger}
Button = discord.ButtonStyle


class ClickHandler(Protocol):
    """What a clicked item hands its click to (``bot.discord.handler.ComponentHandler``)."""

    async def handle(
        self, interaction: discord.Interaction[Any], cid: ComponentId, value: str | None
    ) -> None: ...


class HasClickHandler(Protocol):
    """The bot as a clicked item sees it (``interaction.client``): its
    component handler, without importing the client class back."""

    @property
    def components(self) -> ClickHandler: ...


def _label(text: str) -> str:
    return text if len(text) <= LABEL_MAX else text[: LABEL_MAX - 1] + "…"


def _button(
    cid: ComponentId,
    label: str,
    *,
    style: discord.ButtonStyle = Button.secondary,
    disabled: bool = False,
    row: int | None = None,
) -> TableButton:
    return TableButton(cid, label=_label(label), style=style, disabled=disabled, row=row)


# -- lobby and table ------------------------------------------------------------------------------
def lobby_view(info: TableInfo) -> discord.ui.View:
    """Join, Leave, Start, Cancel; Add AI (easy, normal, hard); and the
    host's "Remove a player" menu when there is someone to remove."""
    view = discord.ui.View(timeout=None)
    closed = info.status != "lobby"
    for verb, label, style in (
        # i18n: lobby buttons (messages refer to them as **Join** ...)
        ("join", t("Join"), Button.success),
        ("leave", t("Leave"), Button.secondary),
        ("start", t("Start"), Button.primary),
        ("cancel", t("Cancel"), Button.danger),
    ):
        view.add_item(
            _button(ComponentId(info.id, 0, verb), label, style=style, disabled=closed, row=0)
        )
    for level in DIFFICULTY_LEVELS:
        view.add_item(
            _button(
                ComponentId(info.id, 0, "ai", level),
                t("Add AI ({difficulty})", difficulty=difficulty_word(level)),
                disabled=closed,
                row=1,
            )
        )
    removable = [s for s in info.seats if not s.empty and s.user_id != info.host_id]
    if removable and not closed:
        options = [
            discord.SelectOption(
                label=_label(
                    t(
                        "Seat {seat}: {name}",
                        seat=s.seat + 1,
                        name=" ".join(s.name.split()) or t("player"),
                    )
                ),
                value=str(s.seat),
                description=t("an AI player") if s.ai is not None else t("a player"),
            )
            for s in removable[:OPTIONS]
        ]
        view.add_item(
            TableSelect(
                ComponentId(info.id, 0, "kick"),
                options=options,
                placeholder=t("Remove a player (host only)"),
                row=2,
            )
        )
    return view


def fill_view(info: TableInfo) -> discord.ui.View:
    """Offered to the host who pressed Start with empty seats."""
    view = discord.ui.View(timeout=None)
    for level in DIFFICULTY_LEVELS:
        view.add_item(
            _button(
                ComponentId(info.id, 0, "fill", level),
                t("Fill with AI ({difficulty}) and start", difficulty=difficulty_word(level)),
                style=Button.primary,
            )
        )
    return view


def table_view(info: TableInfo, activity: bool = False) -> discord.ui.View:
    """The table message's buttons: while playing, "Show my hand", "I'm
    back" and "Leave (AI takes my seat)", and "Open the table" (the
    Activity) when ``activity`` (it is configured); once finished,
    "Rematch"; nothing for an abandoned table."""
    view = discord.ui.View(timeout=None)
    if info.status == "playing":
        for verb, label, style in (
            # i18n: table buttons (messages refer to them as **Show my hand**, **I'm back**)
            ("hand", t("Show my hand"), Button.primary),
            ("back", t("I'm back"), Button.secondary),
            ("resign", t("Leave (AI takes my seat)"), Button.danger),
        ):
            view.add_item(_button(ComponentId(info.id, 0, verb), label, style=style))
        if activity:
            view.add_item(ActivityButton(info.id))
    elif info.status == "finished":
        view.add_item(
            _button(ComponentId(info.id, 0, "rematch"), t("Rematch"), style=Button.success)
        )
    return view


def resign_confirm_view(info: TableInfo) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        _button(
            ComponentId(info.id, 0, "resignok"),
            t("Yes, leave (AI takes my seat)"),
            style=Button.danger,
        )
    )
    return view


# -- the hand -----------------------------------------------------------------------------------
def action_style(action: Action) -> discord.ButtonStyle:
    """Red for hearts and diamonds (cards, bids and trump alike)."""
    suits = {c.suit for c in action.cards} | {action.word or ""}
    if suits & RED:
        return Button.danger
    if action.verb in ("pass", "pickup"):
        return Button.secondary
    if action.verb == "play":
        return Button.secondary
    return Button.primary


def hand_view(
    info: TableInfo, view: Observation, *, page: int = 0, level: int | None = None
) -> tuple[discord.ui.View, int]:
    """The ephemeral hand's components; returns the view and its number of
    pages.  Cards are buttons (legal ones enabled); every other choice is a
    button (or a menu when there are many) labelled as a player says it.
    A Blot auction fits one page: see ``_auction_view``."""
    legal = list(view.legal_actions)
    if is_strain_auction(legal):
        return _auction_view(info, legal, level), 1
    if legal and not any(a.verb == "play" for a in legal):
        return _choices_view(info, legal, page)
    return _play_view(info, view, legal, page)


def is_strain_auction(legal: Sequence[Action]) -> bool:
    """A Blot-style auction: bids name a level and a strain, or a double."""
    return any(
        a.verb in ("contra", "recontra") or (a.verb == "bid" and a.word in STRAIN_ORDER)
        for a in legal
    )


def level_window(levels: Sequence[int], current: int) -> list[int]:
    """At most 25 of the legal bid levels for the level menu: every level
    near the current one, each tenth level, the lowest ones, and the
    highest.  Picking a level re-centres the menu, so every legal level is
    reachable in at most two picks (each tenth level's neighbourhood covers
    the next tenth)."""
    if len(levels) <= OPTIONS:
        return list(levels)
    legal = set(levels)
    landmarks = {n for n in levels if n % 10 == 0} | {levels[0], levels[-1]}
    if 25 in legal:
        landmarks.add(25)  # capot bids start here
    near = {n for n in range(current - 4, current + 6) if n in legal}
    chosen = landmarks | near | {current}
    for n in levels:  # at most 8 + 3 landmarks and 10 near ones: fill up from the lowest
        if len(chosen) >= OPTIONS:
            break
        chosen.add(n)
    return sorted(chosen)[:OPTIONS]


def _auction_view(info: TableInfo, legal: Sequence[Action], level: int | None) -> discord.ui.View:
    """One message for a whole Blot auction: a level menu (only levels with
    at least one legal bid), the strains legal at the chosen level (♠ ♥ ♦ ♣,
    No trump), the capot bids at that level, and Pass / Contra / Recontra
    (only the legal ones enabled).  Without a chosen level, the lowest legal
    level is shown: raising by one is the commonest bid."""
    seq = info.seq
    index = {str(a): i for i, a in enumerate(legal)}
    ui = discord.ui.View(timeout=None)
    levels = sorted({a.number for a in legal if a.verb == "bid" and a.number is not None})
    if levels:
        current = level if level in levels else levels[0]
        ui.add_item(
            TableSelect(
                ComponentId(info.id, seq, "lvl"),
                options=[
                    discord.SelectOption(
                        label=t("Bid level {n}", n=n),
                        value=str(n),
                        description=_level_note(legal, n),
                        default=n == current,
                    )
                    for n in level_window(levels, current)
                ],
                placeholder=t("Choose a bid level"),
                row=0,
            )
        )
        for row, capot in ((1, False), (2, True)):
            bids = [
                a for a in legal if a.verb == "bid" and a.number == current and a.capot is capot
            ]
            bids.sort(key=lambda a: STRAIN_ORDER.index(a.word) if a.word in STRAIN_ORDER else 9)
            for action in bids:
                ui.add_item(
                    _button(
                        ComponentId(info.id, seq, "act", str(index[str(action)])),
                        label_for(action),
                        style=action_style(action),
                        row=row,
                    )
                )
    for verb in ("pass", "contra", "recontra"):
        i = index.get(verb)
        ui.add_item(
            _button(
                ComponentId(info.id, seq, "act", str(i) if i is not None else f"x{verb}"),
                label_for(Action(verb)),
                style=Button.secondary if verb == "pass" else Button.primary,
                disabled=i is None,
                row=3,
            )
        )
    return ui


def _level_note(legal: Sequence[Action], level: int) -> str:
    plain = any(a.verb == "bid" and a.number == level and not a.capot for a in legal)
    capot = any(a.verb == "bid" and a.number == level and a.capot for a in legal)
    if plain and capot:
        return t("a suit, no trump, or capot")
    return t("capot only") if capot else t("a suit or no trump")


def _choices_view(
    info: TableInfo, legal: Sequence[Action], page: int
) -> tuple[discord.ui.View, int]:
    """A decision that is not a card (bids, trump, ...): buttons when they
    fit, else a paged menu.  The hand is in the message text."""
    seq = info.seq
    ui = discord.ui.View(timeout=None)
    if len(legal) <= ROWS * PER_ROW:
        for i, action in enumerate(legal):
            ui.add_item(
                _button(
                    ComponentId(info.id, seq, "act", str(i)),
                    label_for(action),
                    style=action_style(action),
                    row=i // PER_ROW,
                )
            )
        return ui, 1
    choices = list(enumerate(legal))
    pages = -(-len(choices) // CHOICES_PER_PAGE)
    page = max(0, min(page, pages - 1))
    _add_menu(ui, info, choices[page * CHOICES_PER_PAGE : (page + 1) * CHOICES_PER_PAGE], page, 0)
    _add_pager(ui, info, page, pages, row=1)
    return ui, pages


def _play_view(
    info: TableInfo, view: Observation, legal: Sequence[Action], page: int
) -> tuple[discord.ui.View, int]:
    """Cards as buttons, three rows a page (legal ones enabled); plays of
    several cards in a menu; other choices (pick up, hidden cards) as
    buttons on the last row with the page buttons."""
    seq = info.seq
    index = {str(a): i for i, a in enumerate(legal)}
    dummy_turn = (
        bool(legal)
        and view.dummy is not None
        and view.to_act is not None
        and view.to_act != view.seat
    )
    base: Sequence[Card] = view.dummy if dummy_turn and view.dummy is not None else view.hand
    singles = {a.cards[0] for a in legal if a.verb == "play" and len(a.cards) == 1}
    cards = sort_hand(set(base) | singles)
    menu = [(i, a) for i, a in enumerate(legal) if a.verb == "play" and len(a.cards) > 1]
    specials = [(i, a) for i, a in enumerate(legal) if a.verb != "play"]

    def count(items: int, per: int) -> int:
        return -(-items // per) if items else 0

    pages = max(1, count(len(cards), CARDS_PER_PAGE), count(len(menu), CHOICES_PER_PAGE))
    if len(specials) + (2 if pages > 1 else 0) > PER_ROW:
        menu, specials = menu + specials, []
        pages = max(pages, count(len(menu), CHOICES_PER_PAGE))
    page = max(0, min(page, pages - 1))
    ui = discord.ui.View(timeout=None)
    start = page * CARDS_PER_PAGE
    for n, card in enumerate(cards[start : start + CARDS_PER_PAGE]):
        i = index.get(f"play {card}")
        arg = str(i) if i is not None else f"x{start + n}"
        ui.add_item(
            _button(
                ComponentId(info.id, seq, "act", arg),
                card_text(card),
                style=SUIT_STYLE.get(card.suit, Button.secondary),
                disabled=i is None,
                row=n // PER_ROW,
            )
        )
    if menu:
        menu_page = min(page, count(len(menu), CHOICES_PER_PAGE) - 1)
        chunk = menu[menu_page * CHOICES_PER_PAGE : (menu_page + 1) * CHOICES_PER_PAGE]
        _add_menu(ui, info, chunk, page, 3)
    for i, action in specials:
        ui.add_item(
            _button(
                ComponentId(info.id, seq, "act", str(i)),
                label_for(action),
                style=action_style(action),
                row=4,
            )
        )
    _add_pager(ui, info, page, pages, row=4)
    return ui, pages


def _add_menu(
    ui: discord.ui.View,
    info: TableInfo,
    choices: Sequence[tuple[int, Action]],
    page: int,
    row: int,
) -> None:
    ui.add_item(
        TableSelect(
            ComponentId(info.id, info.seq, "pick", str(page)),
            options=[
                discord.SelectOption(label=_label(label_for(a)), value=str(i)) for i, a in choices
            ],
            placeholder=t("More choices…"),
            row=row,
        )
    )


def _add_pager(ui: discord.ui.View, info: TableInfo, page: int, pages: int, *, row: int) -> None:
    if pages <= 1:
        return
    for target, label in ((page - 1, "◀ " + t("Previous")), (page + 1, t("Next") + " ▶")):
        ui.add_item(
            _button(
                ComponentId(info.id, info.seq, "page", str(max(0, min(target, pages - 1)))),
                label,
                disabled=not 0 <= target < pages,
                row=row,
            )
        )


# -- the dynamic items ----------------------------------------------------------------------------
def _parsed(match: re.Match[str]) -> ComponentId:
    parsed = custom_ids.parse(match.string)
    if parsed is None:
        raise ValueError("not a Card Table id")
    return parsed


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=custom_ids.BUTTON_PATTERN
):
    def __init__(self, cid: ComponentId, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=str(cid), **button))
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: re.Match[str],
        /,
    ) -> TableButton:
        return cls(_parsed(match))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: HasClickHandler = interaction.client  # type: ignore[assignment]
        await bot.components.handle(interaction, self.cid, None)


class TableSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=custom_ids.SELECT_PATTERN
):
    def __init__(self, cid: ComponentId, **select: Any) -> None:
        super().__init__(discord.ui.Select(custom_id=str(cid), **select))
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Select[Any],
        match: re.Match[str],
        /,
    ) -> TableSelect:
        return cls(_parsed(match))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: HasClickHandler = interaction.client  # type: ignore[assignment]
        values = (interaction.data or {}).get("values") or []  # type: ignore[union-attr]
        await bot.components.handle(interaction, self.cid, values[0] if values else None)
