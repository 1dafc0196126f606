"""A database from a newer Card Table, on SQLite and PostgreSQL: the start
raises ``StoreTooNew`` (not Alembic's "No such revision") and changes
nothing; doctor's database check fails with the same sentence."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from bot.cli.ops import revisions
from bot.cli.ops_doctor_db import database_contents
from bot.db.errors import StoreTooNew
from bot.db.repositories import Store

NEWER = "0099_newer"


async def test_a_newer_schema_is_refused_in_one_line_on_every_backend(store_url):
    store = Store(store_url)
    await store.migrate()
    async with store.engine.begin() as conn:
        await conn.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": NEWER})
    await store.close()

    again = Store(store_url)
    try:
        with pytest.raises(StoreTooNew) as caught:
            await again.migrate()
        with pytest.raises(StoreTooNew):
            await again.check_readable()
    finally:
        await again.close()
    message = str(caught.value)
    assert repr(NEWER) in message and "upgrade Card Table" in message
    assert "\n" not in message

    shown = make_url(store_url).render_as_string(hide_password=True)
    ok, said, warn = await asyncio.to_thread(database_contents, store_url, shown, revisions())
    assert not ok and not warn and said == message

    check = Store(store_url)
    try:
        async with check.engine.connect() as conn:
            version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar()
    finally:
        await check.close()
    assert version == NEWER  # untouched
