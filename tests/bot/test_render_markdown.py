"""bot/render/markdown.py escapes exactly as discord.py's helpers do (the
pure rendering layer imports no discord.py, and seat names must read the
same as before)."""

from __future__ import annotations

import discord
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.render.markdown import escape_markdown, escape_mentions

SAMPLES = [
    "",
    "plain name",
    "**bold** _it_ ~~gone~~ `code` ||spoiler||",
    "> quote\n>>> block\n# head\n## two\n - item",
    "[link](https://example.com/a_b*c) and https://x.io/some_path_*",
    "<https://example.com/_x_> steam://run/123_4",
    "@everyone @here <@123456789012345678> @!123456789012345678 @&98765432109876543",
    "back\\slash \\* already",
]
MARKS = st.text(alphabet="ab _*~`|>#-[]()@!&<>:/.\\\n 0123456789htps", max_size=60)


def test_fixed_samples_match_discord_py():
    for text in SAMPLES:
        assert escape_mentions(text) == discord.utils.escape_mentions(text), text
        assert escape_markdown(text) == discord.utils.escape_markdown(text), text


@settings(max_examples=300, deadline=None)
@given(MARKS)
def test_random_texts_match_discord_py(text):
    assert escape_mentions(text) == discord.utils.escape_mentions(text)
    assert escape_markdown(text) == discord.utils.escape_markdown(text)
