"""/rules through the offline harness: the rule book (bot/rulebook) as
ephemeral embeds within Discord's limits, the settings in force on this
server as the message text, a section chosen by name (autocompleted from the
book's headings), and friendly refusals for an unknown game or section."""

from __future__ import annotations

from typing import Any

import pytest

from bot import rulebook
from engine import GAMES
from tests.bot.discord.harness import GUILD, FakeDiscord, snowflake
from tests.bot.discord.test_commands_tables import is_ephemeral, payload, run, text_of

MOD, MEMBER = 31, 32
MANAGE_GUILD = str(1 << 5)


def embeds_of(sent) -> list[dict[str, Any]]:
    return FakeDiscord.body_of(sent).get("embeds") or []


def section_autocomplete(game: str, current: str) -> dict[str, Any]:
    return {
        "id": snowflake(),
        "name": "rules",
        "type": 1,
        "options": [
            {"name": "game", "type": 3, "value": game},
            {"name": "section", "type": 3, "value": current, "focused": True},
        ],
        "guild_id": str(GUILD),
    }


def choices(sent) -> list[str]:
    assert sent.json["type"] == 8, "an autocomplete answer"
    return [c["value"] for c in sent.json["data"]["choices"]]


async def rules(bot, fake, game: str, section: str | None = None, user: int = MEMBER):
    (reply,) = await run(
        bot, fake, payload(fake, 2, fake.slash("rules", game=game, section=section), user)
    )
    return reply


async def test_the_command_offers_a_game_and_an_optional_section(fake, bot):
    (sync,) = [s for s in fake.sent if s.method == "PUT" and s.path.endswith("/commands")]
    (command,) = [c for c in sync.json if c["name"] == "rules"]
    options = {o["name"]: o for o in command["options"]}
    assert options["game"]["required"] and options["game"]["autocomplete"]
    assert not options["section"].get("required") and options["section"]["autocomplete"]


async def test_rules_blot_is_private_with_the_book_and_the_settings_in_force(fake, bot):
    reply = await rules(bot, fake, "blot")
    assert is_ephemeral(reply)
    assert "**Bazar Blot settings**" in text_of(
        reply
    ) and "target score (`target_score`): **301**" in text_of(reply)
    embeds = embeds_of(reply)
    titles = [e["title"] for e in embeds]
    assert titles[:3] == [
        "Bazar Blot — Overview",
        "Bazar Blot — How a deal goes",
        "Bazar Blot — The bazar (auction)",
    ]
    # within Discord's limits (run() checks them too): 10 embeds, 6000 characters
    assert 1 <= len(embeds) <= 10
    total = sum(len(e["title"]) + len(e["description"]) for e in embeds)
    total += len(embeds[-1]["footer"]["text"])
    assert total <= 6000 and all(len(e["description"]) <= 4096 for e in embeds)
    footer = embeds[-1]["footer"]["text"]
    assert "/rules game:blot section:" in footer
    shown = {t.split(" — ", 1)[1] for t in titles}
    for sec in rulebook.sections("blot"):  # every section is shown or named as not shown
        assert sec.title in shown or ("Not shown here: " in footer and sec.title in footer)


async def test_the_settings_shown_are_this_servers(fake, bot):
    body = payload(
        fake,
        2,
        fake.slash("settings", "set", game="blot", key="target_score", value="151"),
        MOD,
        permissions=MANAGE_GUILD,
    )
    (saved,) = await run(bot, fake, body)
    assert text_of(saved).startswith("Saved."), text_of(saved)
    reply = await rules(bot, fake, "blot")
    assert "target score (`target_score`): **151**" in text_of(reply)
    # the book still states the default
    assert any(
        "| `target_score` | 301 |" in e["description"]
        for e in embeds_of(await rules(bot, fake, "blot", "Settings"))
    )


async def test_a_section_is_chosen_by_name(fake, bot):
    reply = await rules(bot, fake, "blot", "scoring")
    assert is_ephemeral(reply)
    (embed,) = embeds_of(reply)
    assert embed["title"] == "Bazar Blot — Scoring"
    assert "round6" in embed["description"] and "Worked examples" in embed["description"]
    reply = await rules(bot, fake, "blot", "Card order and points")
    (embed,) = embeds_of(reply)
    assert embed["description"].startswith("```\n| | J | 9 |"), "tables are set in code blocks"


async def test_section_names_complete_from_the_books_headings(fake, bot):
    (answer,) = await run(bot, fake, payload(fake, 4, section_autocomplete("blot", ""), MEMBER))
    assert choices(answer) == [s.title for s in rulebook.sections("blot")] + ["Tournaments"]
    (answer,) = await run(bot, fake, payload(fake, 4, section_autocomplete("blot", "sco"), MEMBER))
    assert choices(answer) == ["Scoring"]
    (answer,) = await run(bot, fake, payload(fake, 4, section_autocomplete("chess", ""), MEMBER))
    assert choices(answer) == []


@pytest.mark.parametrize("game", list(GAMES))
async def test_every_game_explains_duplicate_tournaments(fake, bot, game):
    """Issue 16: /rules explains tournaments in a paragraph a moderator understands."""
    (answer,) = await run(bot, fake, payload(fake, 4, section_autocomplete(game, "tour"), MEMBER))
    assert choices(answer) == ["Tournaments"]
    reply = await rules(bot, fake, game, "Tournaments")
    (embed,) = embeds_of(reply)
    assert embed["title"].endswith("— Tournaments")
    assert "/tournament new" in embed["description"] and "boards" in embed["description"]
    assert "Tournaments" in embed["footer"]["text"]


@pytest.mark.parametrize("game", list(GAMES))
async def test_every_section_of_every_game_fits(fake, bot, game):
    reply = await rules(bot, fake, game)
    assert embeds_of(reply) and len(text_of(reply)) <= 2000
    for sec in rulebook.sections(game):
        reply = await rules(bot, fake, game, sec.title)
        (embed,) = embeds_of(reply)
        assert embed["title"].endswith(sec.title)


async def test_an_unknown_game_gets_a_friendly_error(fake, bot):
    reply = await rules(bot, fake, "chess")
    assert is_ephemeral(reply) and not embeds_of(reply)
    assert text_of(reply).startswith("⚠️ unknown game 'chess'; choose one of: batak, callbreak")


async def test_an_unknown_section_names_the_sections(fake, bot):
    reply = await rules(bot, fake, "ladder", "Strategy")
    assert is_ephemeral(reply) and not embeds_of(reply)
    text = text_of(reply)
    assert text.startswith("⚠️ The Ladder rule book has no section 'Strategy'; try: Overview")
    assert "Settings" in text


async def test_a_seated_player_gets_the_section_for_the_phase_first(fake, bot):
    from tests.bot.discord.harness import start_game

    await start_game(bot, fake, (MEMBER,), game="callbreak")  # bidding comes first
    reply = await rules(bot, fake, "callbreak")
    assert embeds_of(reply)[0]["title"].endswith("Bidding")
    outsider = await rules(bot, fake, "callbreak", user=MOD)  # not seated: from the top
    assert not embeds_of(outsider)[0]["title"].endswith("Bidding")
