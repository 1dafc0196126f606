"""What a person does at the table, through the page only: wait for their
turn, press a bid button or click a raised card, and see the move land."""

from __future__ import annotations

import random
from typing import Any

from tests.browser.chromium import Browser


def shown_state(b: Browser) -> dict[str, Any]:
    """The state frame the page shows now (by its ``data-seq``)."""
    seq = b.body("seq")
    for frame in reversed(b.states()):
        if str(frame["seq"]) == seq:
            return frame
    raise AssertionError(f"the page shows move {seq} but no such frame arrived")


def my_turn(b: Browser) -> bool:
    return b.body("myturn") == "1" and "pending" not in (
        b.js("return document.querySelector('#table').className") or ""
    )


def hand_cards(b: Browser) -> list[str]:
    return [c.get_attribute("data-card") for c in b.css("#hand .card")]


def take_turn(b: Browser, rng: random.Random, prefer: str | None = None) -> str:
    """Make one move as a person would; the action the page sent.

    Bids and calls: the button whose action is ``prefer`` when there is one,
    else a random button. Cards: a random raised card of the fan -- and the
    page must raise exactly the server's ``playable`` cards and dim the rest.
    """
    frame = shown_state(b)
    view = frame["view"]
    seq = frame["seq"]
    buttons = b.css("#controls button.act[data-action]")
    if buttons:
        actions = [x.get_attribute("data-action") for x in buttons]
        assert set(actions) <= set(view["legal"]), actions
        pick = buttons[actions.index(prefer)] if prefer in actions else rng.choice(buttons)
        action = pick.get_attribute("data-action")
        pick.click()
    else:
        raised = b.css("#hand .card.playable")
        dimmed = b.css("#hand .card.unplayable")
        assert {c.get_attribute("data-card") for c in raised} == set(view["playable"])
        assert len(raised) + len(dimmed) == len(view["hand"])
        card = rng.choice(raised)
        name = card.get_attribute("data-card")
        action = f"play {name}"
        b.click(card)
        # Ladder: a card that starts several plays is selected first, and the
        # Play button of the selection sends the one legal play it names
        b.wait(
            lambda: b.body("seq") != str(seq) or b.css(".play-selection:not([disabled])"),
            what=f"{name} to be played or selected",
        )
        if b.body("seq") == str(seq):
            [play] = b.css(".play-selection:not([disabled])")
            action = play.get_attribute("data-action")
            assert action == f"play {name}" and action in view["legal"]
            play.click()
    b.wait(lambda: b.body("seq") != str(seq), what=f"move {seq} ({action}) to land")
    return action
