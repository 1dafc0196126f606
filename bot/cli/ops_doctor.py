"""``python -m bot doctor``: is this installation ready to run?

One line per check, ``OK`` or ``FAIL`` and what to do; exit code 0 only when
every check passes.  Nothing here touches the network: the token's *format*
is checked (Discord alone can say whether it is valid, at start), never
printed.  ``--quick`` (the container health check) checks the settings, the
token and the database only.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.cli.ops import Revisions, one_line, revisions
from bot.discord.token import token_shape


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    text: str
    #: passes (exit code 0) but needs a look: printed as WARN
    warn: bool = False

    def line(self) -> str:
        mark = "FAIL" if not self.ok else "WARN" if self.warn else "OK  "
        return one_line(f"{mark} {self.name}: {self.text}", 1000)


def doctor(db_url: str | None = None, *, quick: bool = False) -> int:
    checks = run_checks(db_url, quick=quick)
    for check in checks:
        print(check.line(), flush=True)
    return 0 if all(c.ok for c in checks) else 1


def run_checks(db_url: str | None = None, *, quick: bool = False) -> list[Check]:
    from pydantic import ValidationError

    from bot.settings import Settings

    try:
        settings = Settings()
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']).upper()}: {e['msg']}" for e in exc.errors()
        )
        return [Check("settings", False, f"{problems} (fix it in .env or the environment)")]
    token = settings.discord_token.get_secret_value() if settings.discord_token else ""
    url = db_url or settings.database_url
    checks = [check_token(token), check_database(url)]
    place = check_data_place(url)
    if place is not None:
        checks.append(place)
    if not quick:
        checks += [
            check_fonts(),
            check_ai_workers(settings.ai_workers),
            check_log_format(getattr(settings, "log_format", "text")),
        ]
    return checks


# -- the token -------------------------------------------------------------------------
def check_token(token: str) -> Check:
    """The token's shape, never the token itself (``bot.discord.token``)."""
    ok, text = token_shape(token)
    return Check("token", ok, text)


# -- the database ----------------------------------------------------------------------
def check_database(url: str) -> Check:
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except Exception:
        return Check("database", False, "DATABASE_URL is not a database URL: see .env.example")
    shown = parsed.render_as_string(hide_password=True)
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        return Check("database", False, f"{shown}: use sqlite+aiosqlite or postgresql+asyncpg")
    known = revisions()
    if backend == "sqlite":
        path = parsed.database
        if path and path != ":memory:" and not path.startswith("file:"):
            file = Path(path)
            folder = file.resolve().parent
            if not file.exists():
                if not folder.is_dir() or not os.access(folder, os.W_OK):
                    return Check(
                        "database",
                        False,
                        f"{shown}: the folder {folder} is missing or not writable: create it "
                        "or give the bot's user write access",
                    )
                return Check("database", True, f"{shown}: not created yet (made at first start)")
            if not os.access(file, os.R_OK | os.W_OK) or not os.access(folder, os.W_OK):
                return Check(
                    "database",
                    False,
                    f"{shown}: the bot's user cannot write {file} or its folder "
                    "(SQLite writes -wal and -shm files next to it): fix the owner",
                )
    return check_database_contents(url, shown, known)


def check_database_contents(url: str, shown: str, known: Revisions) -> Check:
    """The start's own checks, changing nothing (``bot.cli.ops_doctor_db``)."""
    from bot.cli.ops_doctor_db import database_contents

    ok, said, warn = database_contents(url, shown, known)
    return Check("database", ok, said, warn=warn)


# -- where the data lives (containers) ----------------------------------------------------
#: files a container runtime leaves in every container (Docker, Podman)
CONTAINER_MARKERS = ("/.dockerenv", "/run/.containerenv")
#: the image's volume (Dockerfile: VOLUME /data)
IMAGE_VOLUME = "/data"
#: the mounts this process sees
MOUNTINFO = Path("/proc/self/mountinfo")


def in_container() -> bool:
    return any(os.path.exists(m) for m in CONTAINER_MARKERS) or "container" in os.environ


def mount_points(mountinfo: str) -> list[str]:
    """The mount points of ``/proc/self/mountinfo`` (its fifth field, with
    the kernel's octal escapes such as ``\\040`` for a space undone)."""
    points = []
    for line in mountinfo.splitlines():
        fields = line.split()
        if len(fields) >= 5:
            points.append(re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4]))
    return points


def mount_of(path: str, points: list[str]) -> str:
    """The mount point ``path`` lives on: the longest one containing it."""
    best = "/"
    for point in points:
        inside = path == point or path.startswith(point.rstrip("/") + "/")
        if inside and len(point) > len(best):
            best = point
    return best


def check_data_place(
    url: str,
    *,
    container: bool | None = None,
    mountinfo: str | None = None,
    writable: Callable[[str], bool] | None = None,
    uid: int | None = None,
) -> Check | None:
    """For a SQLite database: FAIL when its folder exists but the bot's user
    cannot write it (a bind mount owned by root: the one line says how to
    own it); in a container, WARN when the file is not on a mounted volume
    (it would be lost with the container).  None when there is nothing to
    say (PostgreSQL, in-memory, not a container, no folder yet: the
    database check speaks for that)."""
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except Exception:
        return None
    path = parsed.database
    if parsed.get_backend_name() != "sqlite" or not path or path == ":memory:":
        return None
    if path.startswith("file:"):
        return None
    file = os.path.abspath(path)
    folder = os.path.dirname(file)
    if not os.path.isdir(folder):
        return None
    can_write = writable or (lambda p: os.access(p, os.W_OK))
    me = os.getuid() if uid is None else uid
    if not can_write(folder):
        owner = os.stat(folder).st_uid
        return Check(
            "data",
            False,
            f"{folder} belongs to uid {owner} and the bot runs as uid {me}: permission denied; "
            f"give it to the bot's user (on the host: sudo chown -R {me}:{me} <the folder "
            f"mounted at {folder}>)",
        )
    if not (in_container() if container is None else container):
        return None
    if mountinfo is None:
        try:
            mountinfo = MOUNTINFO.read_text(encoding="utf-8")
        except OSError:
            return None
    mount = mount_of(folder, mount_points(mountinfo))
    if mount == "/":
        return Check(
            "data",
            True,
            f"{file} is inside the container, on no volume: it is lost when the container is "
            f"re-created; mount a volume at {IMAGE_VOLUME} (-v cardtable-data:{IMAGE_VOLUME}) "
            "and leave DATABASE_URL unset",
            warn=True,
        )
    return Check("data", True, f"{file} is on the volume mounted at {mount}")


# -- fonts -----------------------------------------------------------------------------
def check_fonts(loader: Callable[[str, int], Any] | None = None) -> Check:
    """Every font the table picture needs is present and loads in Pillow."""
    from PIL import ImageFont

    from bot.render.picture.typefaces import FACES, FONT_DIR

    load = loader or (lambda path, size: ImageFont.truetype(path, size))
    wanted: dict[str, int] = {}
    for face in FACES:
        for file in (face.regular, face.bold):
            wanted[file] = face.strike or 16
    for path in sorted(FONT_DIR.glob("*.ttf")):
        wanted.setdefault(path.name, 16)
    missing = [f for f in wanted if not (FONT_DIR / f).is_file()]
    if missing:
        return Check(
            "fonts",
            False,
            f"missing in {FONT_DIR}: {', '.join(missing)}: reinstall Card Table (pip install .)",
        )
    broken = []
    for file, size in wanted.items():
        try:
            load(str(FONT_DIR / file), size)
        except Exception as exc:
            broken.append(f"{file} ({one_line(exc, 60)})")
    if broken:
        return Check(
            "fonts",
            False,
            f"Pillow cannot load {', '.join(broken)}: reinstall Card Table and Pillow",
        )
    return Check("fonts", True, f"{len(wanted)} fonts load from {FONT_DIR}")


# -- AI workers and logs -----------------------------------------------------------------
def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def check_ai_workers(workers: int | None, available: int | None = None) -> Check:
    have = available or cores()
    if workers is None:
        n = max(1, have - 1)
        plural = "es" if n != 1 else ""
        return Check(
            "AI workers", True, f"AI_WORKERS not set: {n} worker process{plural} ({have} cores)"
        )
    if workers == 0:
        return Check(
            "AI workers",
            True,
            "AI_WORKERS=0: hard seats think in the bot's process (fine for small servers)",
        )
    if workers > have:
        return Check(
            "AI workers",
            False,
            f"AI_WORKERS={workers} but only {have} cores are available: set AI_WORKERS to "
            f"{max(1, have - 1)} or less (or leave it unset)",
        )
    return Check("AI workers", True, f"AI_WORKERS={workers} of {have} cores")


def check_log_format(value: str) -> Check:
    if str(value).strip().lower() in ("text", "json"):
        return Check("logs", True, f"LOG_FORMAT={str(value).strip().lower()}")
    return Check("logs", False, f"LOG_FORMAT={one_line(value, 20)!r}: use text or json")
