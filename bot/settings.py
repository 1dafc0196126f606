"""Configuration from the environment or ``.env`` (pydantic-settings).

The token is a ``SecretStr`` so it never appears in a log or a repr.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.db.session import DEFAULT_SYNCHRONOUS, checked_synchronous
from bot.db.shards import Shards

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///cardtable.db"
#: the async driver of each database the store runs on
ASYNC_DRIVERS = {"sqlite": "aiosqlite", "postgresql": "asyncpg"}
#: scheme spellings that mean PostgreSQL (``postgres://`` is what many hosts hand out)
POSTGRES_SCHEMES = ("postgresql", "postgres")


def async_database_url(url: str) -> str:
    """``url`` with the driver the store needs: ``postgresql://`` and
    ``postgres://`` become ``postgresql+asyncpg://``, ``sqlite://``
    becomes ``sqlite+aiosqlite://`` (SQLAlchemy would pick a driver that is
    not installed and fail with "No module named 'psycopg'").  A URL that
    names another driver is a ``ValueError`` that says the right form."""
    scheme, sep, rest = url.strip().partition("://")
    if not sep:
        return url
    backend, _, driver = scheme.lower().partition("+")
    if backend in POSTGRES_SCHEMES:
        backend = "postgresql"
    wanted = ASYNC_DRIVERS.get(backend)
    if wanted is None:
        return url  # not ours to fix: the store refuses it with its own reason
    if driver and driver != wanted:
        raise ValueError(
            f"{scheme}:// names the driver {driver!r}; Card Table uses {backend}+{wanted}:// "
            f"(e.g. {backend}+{wanted}://{_example(backend)})"
        )
    return f"{backend}+{wanted}://{rest}"


def _example(backend: str) -> str:
    return "user:password@host:5432/db" if backend == "postgresql" else "/path/to/cardtable.db"


def parse_shard_ids(value: Any) -> list[int] | None:
    """``SHARD_IDS``: ``0,1,5``, a range ``4-7``, or both (``0,4-7``);
    empty means every shard."""
    if value is None or isinstance(value, list | tuple | set | frozenset):
        return None if value is None else sorted({int(v) for v in value})
    text = str(value).strip()
    if not text:
        return None
    ids: set[int] = set()
    for part in text.split(","):
        first, _, last = part.strip().partition("-")
        try:
            low, high = int(first), int(last or first)
        except ValueError:
            raise ValueError(f"SHARD_IDS: {part.strip()!r} is not a shard id or a range") from None
        if low > high:
            raise ValueError(f"SHARD_IDS: the range {part.strip()!r} is empty")
        ids.update(range(low, high + 1))
    return sorted(ids)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    database_url: str = DEFAULT_DATABASE_URL
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    #: "text" (default) or "json": one JSON object per log line (bot/logs.py)
    log_format: str = "text"
    #: seconds between two table-message edits in one channel (its tables take turns;
    #: at most 5 in any 5 * edit_interval s: Discord's per-channel limit at 1.0)
    edit_interval: float = 1.0
    #: AI worker processes (None: the number of cores minus one, at least 1; 0: in-process)
    ai_workers: int | None = Field(default=None, ge=0, le=64)
    #: a search decision that waits longer than this in the queue falls back to the heuristic
    ai_queue_wait_ms: int = Field(default=1500, ge=0, le=60_000)
    #: the search AI's thinking time per decision ("hard" seats)
    ai_budget_ms: int = Field(default=300, ge=10, le=10_000)
    #: SQLite only: FULL (a stored move survives a power loss) or NORMAL
    #: (it survives a crash of the process); see bot/db/session.py
    sqlite_synchronous: str = DEFAULT_SYNCHRONOUS
    #: Discord shards in all (every process of the bot says the same)
    shard_count: int = Field(default=1, ge=1, le=4096)
    #: the shards this process runs ("0,1" or "0-3"); empty: all of them
    shard_ids: Annotated[list[int] | None, NoDecode] = None

    #: the /healthz and /metrics endpoint (bot/discord/health.py): off unless a port
    #: is given (0: any free port); bound to HEALTH_HOST
    health_port: int | None = Field(default=None, ge=0, le=65535)
    health_host: str = "127.0.0.1"

    #: the web table (bot/web: the Discord Activity and the browser client): off unless a
    #: port is given (0: any free port); bound to WEB_HOST
    web_port: int | None = Field(default=None, ge=0, le=65535)
    web_host: str = "127.0.0.1"
    #: the application's OAuth2 client secret (the Activity's code exchange, /api/token)
    discord_client_secret: SecretStr | None = None
    #: where Discord's HTTP API answers (tests point it at a fake)
    discord_api_base: str = "https://discord.com/api/v10"

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, value: str) -> str:
        return async_database_url(value)

    @field_validator("health_port", "web_port", mode="before")
    @classmethod
    def _health_port(cls, value: Any) -> Any:
        if isinstance(value, str) and value.strip().lower() in ("", "off", "none"):
            return None  # HEALTH_PORT= switches it off (an image that sets it)
        return value

    @field_validator("sqlite_synchronous")
    @classmethod
    def _synchronous(cls, value: str) -> str:
        return checked_synchronous(value)

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_ids(cls, value: Any) -> list[int] | None:
        return parse_shard_ids(value)

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        self.shards  # noqa: B018 -- raises ValueError when the ids do not fit the count
        return self

    @property
    def shards(self) -> Shards:
        """The shards this process owns (``bot.db.shards``)."""
        return Shards.of_settings(self.shard_count, self.shard_ids)

    @property
    def activity_configured(self) -> bool:
        """The Discord Activity can be offered: the web table runs and the
        code exchange has its secret ("Open the table" is shown only then)."""
        secret = self.discord_client_secret
        return self.web_port is not None and secret is not None and bool(secret.get_secret_value())

    @property
    def has_token(self) -> bool:
        return self.discord_token is not None and bool(self.discord_token.get_secret_value())
