"""Hidden information through the WebSocket: whole games of every game,
two people and a spectator connected (AI players in the other seats), and
every frame each of them received is checked against the true state at
that move: no card that reader may not see (the engine's own
``view(seat)`` is the truth), the hand and the legal moves exactly the
engine's."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot.services.history import stored_match
from bot.services.tables import TableService
from engine import GAMES, Action, Card, get_game
from tests.web.harness import Peer, Web, person, serving

ANA, BOB, CAT = 101, 102, 103
SHORT = {
    "callbreak": {"rounds": "1"},
    "batak": {"target_score": "10"},
    "blot": {"target_score": "51"},
    "backalley": {"max_cards": "2"},
    "ladder": {},
}


def engine_cards(value: Any) -> Iterator[str]:
    """Every card anywhere in an engine value (a view, its extras, its last
    deal; a record's details may name a card in its notation)."""
    if isinstance(value, str):
        yield from frame_cards(value)
    elif isinstance(value, Card):
        yield str(value)
    elif isinstance(value, Action):
        yield from (str(c) for c in value.cards)
    elif isinstance(value, dict):
        for item in value.values():
            yield from engine_cards(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from engine_cards(getattr(value, f.name))
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from engine_cards(item)


def frame_cards(value: Any) -> Iterator[str]:
    """Every card a frame names, in any string (keys too: action texts)."""
    if isinstance(value, str):
        for token in value.split():
            try:
                yield str(Card.parse(token))
            except ValueError:
                continue
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from frame_cards(key)
            yield from frame_cards(item)
    elif isinstance(value, list):
        for item in value:
            yield from frame_cards(item)


async def play(peer: Peer, table: int, rng: random.Random, done: Any) -> None:
    """Answer every state that offers moves with a random legal one."""
    seen = 0
    while not done():
        frame = await peer.wait_for(lambda f: f["type"] in ("state", "error"), after=seen)
        seen = peer.frames.index(frame, seen) + 1
        offers = (
            frame["type"] == "state" and frame["status"] == "playing" and frame["view"]["legal"]
        )
        newest = all(f["type"] != "state" for f in peer.frames[seen:])
        if offers and newest:  # only the newest state is answered
            action = rng.choice(frame["view"]["legal"])
            await peer.send({"type": "act", "table": table, "seq": frame["seq"], "action": action})


@pytest.mark.parametrize("game", GAMES)
async def test_no_frame_names_a_card_its_reader_may_not_see(
    service: TableService, game: str
) -> None:
    async with serving(service, frames_per_second=10_000) as web:
        await one_game(service, web, game)


async def one_game(service: TableService, web: Web, game: str) -> None:
    info = await service.create_table(person(ANA), game=game, options=SHORT[game])
    await service.join(info.id, person(BOB))
    table = info.id
    ana = await web.hello(person(ANA), table=table)
    bob = await web.hello(person(BOB), table=table)
    cat = await web.hello(person(CAT), table=table)
    await service.start_table(table, person(ANA), fill_ai="easy")
    rng = random.Random(7)

    finished = asyncio.Event()

    def done() -> bool:
        return finished.is_set()

    async def watch() -> None:
        await cat.wait_for(
            lambda f: f["type"] == "state" and f["status"] != "playing" and f["seq"] > 0,
            timeout=240,
        )
        finished.set()

    players = [asyncio.create_task(play(p, table, rng, done)) for p in (ana, bob)]
    await asyncio.wait_for(watch(), 240)
    for task in players:
        task.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    await service.wait_idle(table)
    for peer in (ana, bob, cat):
        await peer.close()

    match = await stored_match(service.store, None, table)
    assert (await service.get_table(table)).status == "finished"
    spec = get_game(match.game)
    state = spec.new_match(seed=match.seed, variant=spec.check_variant(match.variant))
    frames = sorted(
        (f["seq"], i, f)
        for i, peer in enumerate((ana, bob, cat))
        for f in peer.frames
        if f["type"] == "state" and f.get("view") is not None
    )
    assert {i for _, i, _ in frames} == {0, 1, 2}
    at = 0
    checked = 0
    for seq, who, frame in frames:
        while at < seq:
            state.apply(match.actions[at])
            at += 1
        seat = frame["seat"]
        assert seat == (None if who == 2 else who)
        truth = state.view(seat)
        allowed = set(engine_cards(truth))
        named = set(frame_cards(frame))
        assert named <= allowed, (game, seq, seat, sorted(named - allowed))
        assert frame["view"]["hand"] == [str(c) for c in truth.hand]
        assert frame["view"]["legal"] == [str(a) for a in truth.legal_actions]
        checked += 1
    assert checked > 10
