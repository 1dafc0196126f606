"""The browser client against the real web table in local mode (``python -m
bot web``): a whole Callbreak match by clicking cards, Blot's auction through
its panel, the start screen, and a reconnect after the server restarts."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bot.services.actor import Actor
from tests.browser.hidden import check_frames
from tests.browser.play import hand_cards, my_turn, shown_state, take_turn

YOU = Actor.local()


def _open(b: Any, url: str) -> None:
    b.open(url)
    b.wait(lambda: b.body("screen") == "table" and b.body("seq"), what="the table to show")


def test_a_whole_callbreak_match_by_clicking_cards(server, browser, shots: Path):
    srv = server()
    table = srv.table(YOU, "callbreak", options={"rounds": 1}, seed=11)
    b = browser()
    _open(b, f"{srv.url}?table={table}")
    rng = random.Random(1)
    moves, keyboard, pictures = [], False, False
    while b.body("status") != "finished":
        b.wait(lambda: my_turn(b) or b.body("status") == "finished", 30, "my turn")
        if b.body("status") == "finished":
            break
        if not b.css("#controls button.act") and not keyboard:
            # keyboard play once: the fan's tab stop, an arrow, Enter
            frame = shown_state(b)
            stop = b.css("#hand .card[tabindex='0']")[0]
            b.js("arguments[0].focus()", stop)
            order = hand_cards(b)
            start = order.index(stop.get_attribute("data-card"))
            playable = set(frame["view"]["playable"])
            step = next(
                (
                    k
                    for k in range(1, len(order))
                    if order[(start + k) % len(order)] in playable and start + k < len(order)
                ),
                0,
            )
            b.keys(*(["\ue014"] * step), "\ue007")  # ArrowRight x step, Enter
            seq = str(frame["seq"])
            b.wait(lambda s=seq: b.body("seq") != s, what="the keyboard move")
            moves.append(f"play {order[start + step]}")
            keyboard = True
            continue
        if (
            not pictures
            and len(b.css("#middle .trick:not(.done) .play")) >= 2
            and not b.css("#controls button.act")
        ):
            b.screenshot(shots / "web-table.png")
            b.resize(390, 844)
            b.wait(lambda: b.js("return innerWidth") <= 390, what="phone width")
            b.screenshot(shots / "web-table-phone.png")
            b.resize(1280, 800)
            pictures = True
        if not moves:
            # every card of the hand is named for a screen reader
            labels = [c.get_attribute("aria-label") for c in b.css("#hand .card")]
            assert len(labels) == 13 and all(" of " in x for x in labels), labels
        moves.append(take_turn(b, rng, prefer="bid 3"))
    assert keyboard and pictures
    log = srv.log(table)
    assert len(log) == 4 + 52
    # the moves the person made are exactly the ones the match recorded for seat 0
    assert srv.moves_of(table, 0) == moves
    result = b.css("#result")[0]
    assert result.is_displayed() and "The match is over." in result.text
    assert b.css("#side .scores li")
    assert check_frames(b.drain(), table, srv.replayer(table), 0) >= 14
    # the replay: every hand face up, stepped with the arrow keys
    [replay] = [x for x in b.css("#result button") if x.text == "Replay"]
    replay.click()
    b.wait(
        lambda: b.body("status") == "replay" and b.css("#replay-bar:not([hidden])"), what="replay"
    )
    assert b.css("#replay-pos")[0].text == "Move 0 of 56"
    assert len(b.css("#felt .seat .cards.mini .card")) == 52  # all four hands, as dealt
    b.keys("\ue014", "\ue014")  # ArrowRight twice
    b.wait(lambda: b.css("#replay-pos")[0].text == "Move 2 of 56", what="two steps")
    assert b.css("#replay-move")[0].text == log[1]
    b.css("#replay-last")[0].click()
    b.wait(lambda: b.css("#replay-pos")[0].text == "Move 56 of 56", what="the end")
    assert not b.console_errors()


def test_blot_auction_through_the_panel(server, browser, shots: Path):
    srv = server()
    table = srv.table(YOU, "blot", seed=5)
    b = browser()
    _open(b, f"{srv.url}?table={table}")
    b.wait(lambda: b.css(".auction-panel") and my_turn(b), 30, "the auction panel")
    b.screenshot(shots / "web-blot-auction.png")
    frame = shown_state(b)
    level = int(b.css(".auction-panel .level-value")[0].text)
    up = b.css(".auction-panel .step")[1]
    up.click()
    up.click()
    assert int(b.css(".auction-panel .level-value")[0].text) == level + 2
    strains = b.css(".auction-panel .strain")
    assert strains and all(
        s.get_attribute("data-action") in frame["view"]["legal"] for s in strains
    )
    action = strains[-1].get_attribute("data-action")
    assert action.startswith(f"bid {level + 2} ")
    strains[-1].click()
    b.wait(lambda: b.body("seq") != str(frame["seq"]), what="the bid to land")
    assert action in srv.log(table)

    # from then on: pass through the panel until the bazar closes
    def bazar_open() -> bool:
        return shown_state(b)["view"]["phase"] == "auction"

    while True:
        b.wait(lambda: my_turn(b) or not bazar_open(), 30, "the auction to go on")
        if not bazar_open():
            break
        assert b.css(".auction-panel")
        take_turn(b, random.Random(2), prefer="pass")
    view = shown_state(b)["view"]
    assert view["contract"] and b.css("#facts .contract")
    assert check_frames(b.drain(), table, srv.replayer(table), 0) >= 2
    assert not b.console_errors()


def test_the_start_screen_opens_a_game_against_the_ai(server, browser):
    srv = server()
    b = browser()
    b.open(srv.url)
    b.wait(lambda: b.body("screen") == "start" and b.css("button.start"), what="the start screen")
    games = [x.get_attribute("data-game") for x in b.css("button.start")]
    from engine import GAMES

    assert sorted(games) == sorted(GAMES) and len(games) == 5
    b.css("button.start[data-game='ladder']")[0].click()
    b.wait(lambda: b.body("screen") == "table" and b.body("game") == "ladder", what="the new table")
    assert "table=" in b.driver.current_url
    assert len(b.css("#felt .seat")) == 4
    b.css("#home")[0].click()
    b.wait(lambda: b.css(".table-list li"), what="the table in the list")
    # another language from the picker: the server's words for it, at once
    from selenium.webdriver.support.select import Select

    from bot.web.words import words_in

    Select(b.css("#lang")[0]).select_by_value("tr")
    turkish = words_in("tr")
    b.wait(lambda: b.css(".games h2")[0].text == turkish["choose_game"], what="Turkish")
    assert b.css("button.start")[0].text == turkish["play_vs_ai"]
    assert "lang=tr" in b.driver.current_url
    assert not b.console_errors()


def test_a_reconnect_after_the_server_restarts_shows_the_same_view(server, browser, tmp_path):
    srv = server()
    table = srv.table(YOU, "callbreak", options={"rounds": 1}, seed=21)
    b = browser()
    _open(b, f"{srv.url}?table={table}")
    rng = random.Random(3)
    for _ in range(3):
        b.wait(lambda: my_turn(b), 30, "my turn")
        take_turn(b, rng, prefer="bid 2")
    b.wait(lambda: my_turn(b), 30, "my turn")
    before = shown_state(b)
    hand = hand_cards(b)
    port = srv.port
    srv.stop()
    b.wait(lambda: b.body("conn") == "reconnecting", what="the page to notice")
    again = server(port=port, db=str(tmp_path / "web.db"))
    b.wait(lambda: b.body("conn") == "open" and my_turn(b), 30, "the page to come back")
    after = shown_state(b)
    assert after["seq"] == before["seq"]
    assert {k: v for k, v in after["view"].items()} == before["view"]
    assert hand_cards(b) == hand
    # the same move as before the restart can be made, and lands
    action = take_turn(b, rng)
    assert again.log(table)[before["seq"]] == action
    assert check_frames(b.drain(), table, again.replayer(table), 0) >= 3


def test_ladder_shows_the_pile_and_the_shown_and_hidden_cards(server, browser):
    srv = server()
    table = srv.table(YOU, "ladder", seed=8)
    b = browser()
    _open(b, f"{srv.url}?table={table}")
    rng = random.Random(4)
    mine = 0
    while mine < 6 and b.body("status") != "finished":
        b.wait(lambda: my_turn(b) or b.body("status") == "finished", 30, "my turn")
        if b.body("status") == "finished":
            break
        view = shown_state(b)["view"]
        # every other seat's shown cards face up and its hidden ones face down
        for seat in (1, 2, 3):
            box = b.css(f"#felt .seat[data-seat='{seat}']")[0]
            faces = [
                c.get_attribute("data-card")
                for c in box.find_elements("css selector", ".card:not(.back)")
            ]
            backs = box.find_elements("css selector", ".card.back")
            assert faces == view["shown"][seat] and len(backs) == view["hidden"][seat]
        # the pile's top cards, and my own table cards under the bar
        top = [c.get_attribute("data-card") for c in b.css("#middle .pile .card")]
        assert top == view["pile"][-5:]
        assert len(b.css("#mine .hidden-row .card.back")) == view["hidden"][0]
        take_turn(b, rng, prefer="pickup" if rng.random() < 0.2 else None)
        mine += 1
    assert mine == 6 or b.body("status") == "finished"
    assert check_frames(b.drain(), table, srv.replayer(table), 0) >= 6
    assert not b.console_errors()
