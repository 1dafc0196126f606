"""Configuration from the environment or ``.env`` (pydantic-settings).

The token is a ``SecretStr`` so it never appears in a log or a repr.
"""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///cardtable.db"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    database_url: str = DEFAULT_DATABASE_URL
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    #: "text" (default) or "json": one JSON object per log line (bot/logs.py)
    log_format: str = "text"
    #: seconds between two edits of one table message (rate limits)
    edit_interval: float = 1.0
    #: AI worker processes (None: the number of cores minus one, at least 1; 0: in-process)
    ai_workers: int | None = Field(default=None, ge=0, le=64)
    #: a search decision that waits longer than this in the queue falls back to the heuristic
    ai_queue_wait_ms: int = Field(default=1500, ge=0, le=60_000)
    #: the search AI's thinking time per decision ("hard" seats)
    ai_budget_ms: int = Field(default=300, ge=10, le=10_000)

    @property
    def has_token(self) -> bool:
        return self.discord_token is not None and bool(self.discord_token.get_secret_value())
