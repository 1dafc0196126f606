"""The client inside Discord (the Activity), against the real web table in
Discord mode: the SDK's authorize -> code -> POST /api/token (the server asks
a fake of Discord's API) -> authenticate; two people at two seats of one
table, a spectator, and a person from another server refused."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from bot.services.actor import Actor
from tests.browser.hidden import check_frames
from tests.browser.play import my_turn, shown_state, take_turn
from tests.web.fake_discord import FakeDiscordApi

GUILD, CHANNEL = 1000, 2000
OTHER_GUILD, OTHER_CHANNEL = 3000, 4000
ANA, BEN, CEM, DAN = 101, 102, 103, 201


def fake_sdk(user: int, instance: str, guild: int, channel: int) -> str:
    """Stands in for Discord's client around the iframe: the Embedded App
    SDK's shape, a code for ``user``; records what the client asked."""
    sdk = {"instanceId": instance, "guildId": str(guild), "channelId": str(channel)}
    return f"""
window.__CT_FAKE_SDK__ = Object.assign({json.dumps(sdk)}, {{
  ready: async () => {{}},
  commands: {{
    authorize: async (args) => {{ window.__ctAuthorized = args; return {{ code: "code-{user}" }}; }},
    authenticate: async (args) => {{ window.__ctAuthenticated = args.access_token; return {{}}; }},
  }},
}});
"""


def discord() -> FakeDiscordApi:
    """Ana, Ben and Cem in an Activity in the table's server; Dan in one elsewhere.
    An OAuth2 code is ``code-<user id>``, good once (each browser logs in once)."""
    users = (ANA, BEN, CEM, DAN)
    return FakeDiscordApi(
        codes={f"code-{u}": u for u in users} | {f"code-{DAN}-again": DAN},
        instances={
            "here": (GUILD, CHANNEL, {ANA, BEN, CEM}),
            "elsewhere": (OTHER_GUILD, OTHER_CHANNEL, {DAN}),
        },
        members={(GUILD, u): [] for u in (ANA, BEN, CEM)} | {(OTHER_GUILD, DAN): []},
    )


def person(user: int, name: str) -> Actor:
    return Actor(user, GUILD, CHANNEL, name)


def _open(b: Any, url: str) -> None:
    b.open(url)
    b.wait(lambda: b.body("screen") == "table" and b.body("seq"), what="the table to show")


def test_two_people_at_two_seats_and_a_spectator(server, browser):
    # a turn timer, as on Discord (its deadline is shown, never fired here)
    srv = server("discord", discord=discord(), turn_seconds=90)
    table = srv.table(
        person(ANA, "Ana"), "callbreak", options={"rounds": 1}, seed=4, join=(person(BEN, "Ben"),)
    )
    ana = browser(script=fake_sdk(ANA, "here", GUILD, CHANNEL))
    ben = browser(width=390, height=844, script=fake_sdk(BEN, "here", GUILD, CHANNEL))
    cem = browser(script=fake_sdk(CEM, "here", GUILD, CHANNEL))
    for b in (ana, ben, cem):
        _open(b, f"{srv.url}?table={table}")
    # the SDK login went all the way: authorize with identify, the server's token back to Discord
    assert ana.js("return window.__ctAuthorized.scope") == ["identify"]
    assert ana.js("return window.__ctAuthenticated") == f"access-code-{ANA}"
    assert shown_state(ana)["seat"] == 0 and shown_state(ben)["seat"] == 1
    assert shown_state(cem)["seat"] is None
    assert ana.css("#felt .seat.me[data-seat='0']") and ben.css("#felt .seat.me[data-seat='1']")
    # the spectator has no hand and no controls, and says so
    assert not cem.css("#hand .card") and not cem.css("#controls button")
    assert "watching" in cem.css("#facts")[0].text

    # the seat to act glows, with the seconds left of the server's deadline (each page
    # is looked at on its own: the AI seats may move between two pages' updates)
    def glowing_is_to_act(b: Any) -> bool:
        glowing = b.css("#felt .seat.turn")
        to_act = shown_state(b)["view"]["to_act"]
        return len(glowing) == 1 and glowing[0].get_attribute("data-seat") == str(to_act)

    for b in (ana, ben, cem):
        b.wait(lambda b=b: glowing_is_to_act(b), what="the seat to act to glow")
        b.wait(lambda b=b: re.fullmatch(r"\d+ s left", b.css("#timer")[0].text), what="timer")
        left = int(b.css("#timer")[0].text.split()[0])
        assert 60 < left <= 90
    rng = random.Random(5)
    seen_in_other = False
    while len(srv.log(table)) < 4 + 8:  # the bids and two tricks
        for me, other in ((ana, ben), (ben, ana)):
            if not my_turn(me):
                continue
            action = take_turn(me, rng, prefer="bid 2")
            if action.startswith("play "):
                card = action.split()[1]
                # the other person sees the card land on the table
                other.wait(
                    lambda c=card, o=other: (
                        o.css(f"#middle .card[data-card='{c}']")
                        or c in json.dumps(shown_state(o)["view"]["played"])
                    ),
                    what=f"{card} at the other seat",
                )
                seen_in_other = True
        ana.wait(lambda: my_turn(ana) or my_turn(ben) or len(srv.log(table)) >= 12, 30, "a turn")
    assert seen_in_other
    # all three pages end on the same move
    final = str(len(srv.log(table)))
    for b in (ana, ben, cem):
        b.wait(lambda b=b: b.body("seq") == final, what="the last move everywhere")
    state_at = srv.replayer(table)
    assert check_frames(ana.drain(), table, state_at, 0) >= 5
    assert check_frames(ben.drain(), table, state_at, 1) >= 5
    assert check_frames(cem.drain(), table, state_at, None) >= 5
    for b in (ana, ben, cem):
        assert not b.console_errors()


def test_a_person_from_another_server_is_refused(server, browser):
    srv = server("discord", discord=discord())
    table = srv.table(person(ANA, "Ana"), "callbreak", options={"rounds": 1}, seed=4)
    dan = browser(script=fake_sdk(DAN, "elsewhere", OTHER_GUILD, OTHER_CHANNEL))
    dan.open(f"{srv.url}?table={table}")
    dan.wait(
        lambda: (
            dan.body("screen") == "message"
            and dan.css("#message-text")[0].text not in ("…", "Connecting…")
        ),
        what="the refusal",
    )
    frames = dan.drain()
    assert [f["code"] for f in frames if f["type"] == "error"] == ["not_found"]
    assert not [f for f in frames if f["type"] == "state"]
    assert not dan.css("#hand .card") and not dan.css("#felt .seat")
    assert not dan.console_errors()
    # claiming Ana's server in the login does not help: the server asks Discord where the
    # Activity runs, and refuses the mismatch
    status = dan.driver.execute_async_script(
        """const done = arguments[arguments.length - 1];
        fetch("api/token", {method: "POST", headers: {"Content-Type": "application/json"},
          body: JSON.stringify({code: "code-201-again", instance_id: "elsewhere",
                                guild_id: "1000", channel_id: "2000"})})
          .then((r) => done(r.status));"""
    )
    assert status == 403
