"""The ephemeral hand's components and text, game by game: a whole Blot
auction within one message, labels a player reads (suit symbols, never the
engine's notation), and a text that shows the table but never a card the
seat may not see."""

from __future__ import annotations

import random
import re

import pytest

from bot.discord import custom_ids
from bot.discord.items import hand_view, level_window
from bot.i18n.terms import card_text
from bot.render import messages
from bot.services.models import SeatInfo, TableInfo
from engine import GAMES, Action, Card, Observation, get_game

NAMES = ("Ada", "Bram", "Cleo", "Dov", "Esme", "Finn", "Gus", "Hana")
NOTATION = re.compile(r"\b([2-9TJQKA][SHDC]|NT)\b|\b[SHDC]\b")
PRETTY = re.compile(r"(10|[2-9JQKA])([♠♥♦♣])")
SUIT_OF = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
SUITS = ("S", "H", "D", "C")
SMALL = {"backalley": {"players": 4, "max_cards": 3}, "callbreak": {"rounds": 1}}


def table(game: str, seats: int, seq: int) -> TableInfo:
    return TableInfo(
        12,
        1,
        2,
        3,
        None,
        900,
        game,
        {},
        "playing",
        tuple(SeatInfo(s, 900 + s, NAMES[s], None) for s in range(seats)),
        seats,
        seq,
        1_900_000_000.0,
        90,
    )


def components(ui) -> list[list[dict]]:
    rows = [row["components"] for row in ui.to_components()]
    assert len(rows) <= 5, "at most 5 rows"
    for row in rows:
        assert 1 <= len(row) <= 5
        for comp in row:
            assert len(comp["custom_id"]) <= 100
            assert custom_ids.parse(comp["custom_id"]) is not None
            if comp["type"] == 3:
                assert len(row) == 1 and 1 <= len(comp["options"]) <= 25
                assert all(len(o["label"]) <= 100 for o in comp["options"])
            else:
                assert 1 <= len(comp["label"]) <= 80
    return rows


def acts(rows: list[list[dict]]) -> dict[int, dict]:
    """Enabled act buttons by legal-action index."""
    out = {}
    for row in rows:
        for comp in row:
            cid = custom_ids.parse(comp["custom_id"])
            if cid and cid.verb == "act" and not comp.get("disabled") and cid.arg.isdigit():
                out[int(cid.arg)] = comp
    return out


def level_menu(rows: list[list[dict]]) -> dict | None:
    return next((c for row in rows for c in row if ":lvl:" in c["custom_id"]), None)


def choose(info: TableInfo, view: Observation, target: Action) -> tuple[int, int]:
    """Reach ``target`` the way a player would, within the one message:
    pick levels in the menu until the target's level is offered, then
    press its button.  Returns (index, number of menu picks)."""
    legal = list(view.legal_actions)
    want = legal.index(target)
    level, picks = None, 0
    while True:
        ui, pages = hand_view(info, view, level=level)
        assert pages == 1, "a Blot auction fits one page"
        rows = components(ui)
        buttons = acts(rows)
        if want in buttons:
            assert legal[want] == target
            return want, picks
        menu = level_menu(rows)
        assert menu is not None and target.number is not None, f"{target} is not offered"
        offered = [int(o["value"]) for o in menu["options"]]
        level = min(offered, key=lambda n: (abs(n - target.number), n))
        picks += 1
        assert picks <= 3, f"{target} needs more than 3 picks ({offered})"


@pytest.mark.parametrize("seed", range(6))
def test_a_whole_blot_auction_is_played_within_one_message(seed):
    game = get_game("blot")
    state = game.new_match(seed=seed)
    rng = random.Random(seed)
    moves = 0
    while state.phase == "auction" and moves < 60:
        seat = state.decider
        view = state.view(seat)
        legal = list(view.legal_actions)
        bids = [a for a in legal if a.verb == "bid"]
        # exercise plain bids, capot bids, high levels, contra and recontra
        pick = rng.random()
        if "contra" in map(str, legal) and pick < 0.3:
            target = Action("contra")
        elif "recontra" in map(str, legal) and pick < 0.6:
            target = Action("recontra")
        elif bids and pick < 0.55:
            target = rng.choice(bids[:15] if rng.random() < 0.7 else bids)
        else:
            target = Action("pass")
        index, _ = choose(table("blot", 4, len(state.log)), view, target)
        state.apply(str(legal[index]))
        moves += 1
    assert state.phase != "auction" or moves == 60


def test_every_blot_bid_level_is_reachable_from_the_menu():
    for low in range(8, 81):
        levels = list(range(low, 81))
        seen, todo = {levels[0]}, [levels[0]]
        while todo:
            current = todo.pop()
            window = level_window(levels, current)
            assert len(window) <= 25 and current in window
            for n in window:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        assert seen == set(levels)


def test_blot_buttons_pass_contra_recontra_only_legal_enabled():
    game = get_game("blot")
    state = game.new_match(seed=3)
    state.apply("bid 9 H")
    view = state.view(state.decider)
    rows = components(hand_view(table("blot", 4, 1), view)[0])
    last = {c["label"]: c.get("disabled", False) for c in rows[-1]}
    assert last == {"Pass": False, "Contra": False, "Recontra": True}
    strains = [c["label"] for c in rows[1]]
    assert strains == ["Bid 10 ♠", "Bid 10 ♥", "Bid 10 ♦", "Bid 10 ♣", "Bid 10 No trump"]
    styles = {c["label"]: c["style"] for c in rows[1]}
    assert styles["Bid 10 ♥"] == styles["Bid 10 ♦"] == 4  # red (danger)
    capots = [c["label"] for c in components(hand_view(table("blot", 4, 1), view, level=30)[0])[2]]
    assert capots == [f"Bid 30 {s} capot" for s in ("♠", "♥", "♦", "♣", "No trump")]


def playthrough(name: str, seed: int, limit: int = 400):
    """Yield (info, state) along a random game, with small settings."""
    game = get_game(name)
    variant = game.variant(**SMALL.get(name, {}))
    state = game.new_match(seed=seed, variant=variant)
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_over:
            return
        yield table(name, state.num_seats, len(state.log)), state
        state.apply(rng.choice(state.legal_actions()))


def labels_of(rows: list[list[dict]]) -> list[str]:
    out = []
    for row in rows:
        for comp in row:
            if comp["type"] == 3:
                out.extend(o["label"] for o in comp["options"])
            else:
                out.append(comp["label"])
    return out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_labels_carry_suit_symbols_and_never_notation(name):
    kinds = set()
    for info, state in playthrough(name, seed=5):
        view = state.view(state.decider)
        legal = list(view.legal_actions)
        _, pages = hand_view(info, view)
        for page in range(pages):
            ui, _ = hand_view(info, view, page=page)
            for label in labels_of(components(ui)):
                assert not NOTATION.search(label.replace("Bid level", "")), label
                assert "?" not in label
        for action in legal:
            suited = action.cards or action.word in SUITS
            if suited:
                kinds.add(action.verb)
        rows = components(hand_view(info, view)[0])
        for comp in acts(rows).values():
            index = int(custom_ids.parse(comp["custom_id"]).arg)
            action = legal[index]
            if (action.cards and not action.cards[0].is_joker) or action.word in SUITS:
                assert re.search("[♠♥♦♣]", comp["label"]), comp["label"]
    assert "play" in kinds


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_legal_choice_is_offered(name):
    for info, state in playthrough(name, seed=8, limit=250):
        view = state.view(state.decider)
        legal = list(view.legal_actions)
        if any(a.word in ("S", "H", "D", "C", "NT") for a in legal if a.verb == "bid"):
            continue  # the Blot auction has its own test above
        reached: set[int] = set()
        _, pages = hand_view(info, view)
        for page in range(pages):
            rows = components(hand_view(info, view, page=page)[0])
            reached |= set(acts(rows))
            for row in rows:
                for comp in row:
                    if ":pick:" in comp["custom_id"]:
                        reached |= {int(o["value"]) for o in comp["options"]}
        assert reached == set(range(len(legal))), [str(a) for a in legal]


def cards_shown(text: str) -> set[Card]:
    return {Card.parse(("T" if r == "10" else r) + SUIT_OF[s]) for r, s in PRETTY.findall(text)}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_hand_text_shows_the_table_and_no_card_the_seat_may_not_see(name):
    facts = dict.fromkeys(("trick", "trump", "turn", "bids", "led", "pile"), False)
    for info, state in playthrough(name, seed=11):
        for seat in range(state.num_seats):
            view = state.view(seat)
            _, pages = hand_view(info, view)
            text = messages.hand_text(info, view, 0, pages)
            assert len(text) <= 2000
            assert "'?' lists all" not in text and "<@" not in text
            leaked = cards_shown(text) - view.visible_cards()
            assert not leaked, (seat, sorted(map(str, leaked)), text)
            ui, _ = hand_view(info, view)
            labels = " ".join(labels_of(components(ui)))
            assert not cards_shown(labels) - view.visible_cards()
            if view.trick:
                plays = " · ".join(f"{NAMES[s] if s != seat else 'You'} " for s, _ in view.trick)
                assert plays.split(" · ")[0].strip() in text
                facts["trick"] = True
                facts["led"] |= "(led " in text
            if view.trump is not None:
                facts["trump"] |= "Trump:" in text
            if view.requirement is not None:
                facts["pile"] |= f"next: {view.requirement}" in text
            if view.legal_actions:
                facts["turn"] |= "**Your turn**" in text
            elif state.decider is not None:
                waiting = NAMES[state.decider]
                assert f"Waiting for **{waiting}**" in text
            if view.bids and any(b is not None for b in view.bids) and not view.contract:
                facts["bids"] |= "Bids:" in text
    expected = {"turn", "pile"} if name == "ladder" else {"trick", "turn", "led", "trump"}
    if name in ("callbreak", "backalley", "batak", "blot"):
        expected |= {"bids"}
    assert {k for k, v in facts.items() if v} >= expected


def test_batak_declarer_sees_the_dummy_and_plays_for_it():
    game = get_game("batak")
    rng = random.Random(4)
    for seed in range(20):
        state = game.new_match(seed=seed)
        while not state.is_over and not (
            state.phase == "play" and state.to_act is not None and state.decider != state.to_act
        ):
            state.apply(rng.choice(state.legal_actions()))
        if state.is_over:
            continue
        view = state.view(state.decider)
        info = table("batak", 4, len(state.log))
        text = messages.hand_text(info, view)
        assert f"Dummy ({NAMES[view.dummy_seat]})" in text
        assert f"You play for the dummy ({NAMES[state.to_act]})" in text
        rows = components(hand_view(info, view)[0])
        offered = {comp["label"] for comp in acts(rows).values()}
        dummy = {card_text(c) for c in view.dummy}
        assert offered and offered <= dummy
        return
    pytest.fail("no dummy turn reached")


def test_contract_and_trump_read_with_symbols():
    game = get_game("blot")
    state = game.position(
        hands={0: ["JH", "9H"], 1: ["7S", "8S"], 2: ["7C", "8C"], 3: ["7D", "8D"]},
        trick=[],
        to_act=0,
        trump="H",
        contract="10 H contra",
        declarer=2,
    )
    view = state.view(0)
    text = messages.hand_text(table("blot", 4, 40), view)
    assert "Contract: **10 ♥ contra** by Cleo" in text
    assert "Trump: ♥ hearts" in text
    assert "10 H" not in text
