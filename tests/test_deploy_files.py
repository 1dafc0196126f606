"""The deployment files say what they should (Docker is not needed): the
Dockerfile's instructions, compose.yaml's variables against .env.example,
the systemd unit's sections and keys, the settings all documented, and the
invite link's permissions integer equal to what ``/table new`` checks."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import discord

from bot.discord.cogs.tables import NEEDED, NEEDED_FOR_THREADS
from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    joined = re.sub(r"\\\n", " ", text)
    out = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def env_example() -> set[str]:
    """Every variable .env.example names, set or commented out."""
    names = set()
    for line in (ROOT / ".env.example").read_text(encoding="utf-8").splitlines():
        found = re.match(r"#?\s*([A-Z][A-Z0-9_]*)=", line.strip())
        if found:
            names.add(found.group(1))
    return names


def test_dockerfile():
    steps = dockerfile()
    words = [w for w, _ in steps]
    assert words[0] == "FROM"
    final = max(i for i, w in enumerate(words) if w == "FROM")
    assert steps[final][1].startswith("python:3.11-slim")
    assert all(arg.startswith("python:3.11-slim") for w, arg in steps if w == "FROM")
    tail = steps[final:]
    users = [arg for w, arg in tail if w == "USER"]
    assert users and users[-1] not in ("root", "0") and not users[-1].startswith("0:")
    assert any(w == "VOLUME" and "/data" in arg for w, arg in tail)
    env = " ".join(arg for w, arg in tail if w == "ENV")
    assert "DATABASE_URL=sqlite+aiosqlite:////data/cardtable.db" in env
    assert any(
        w == "RUN" and "pip install" in arg and arg.rstrip().endswith(".") for w, arg in steps
    )
    cmd = [arg for w, arg in tail if w == "CMD"]
    assert cmd[-1] == '["python", "-m", "bot", "run"]'
    health = [arg for w, arg in tail if w == "HEALTHCHECK"]
    assert health and health[0].endswith('CMD ["python", "-m", "bot", "health"]')
    # the image turns /healthz on, inside the container only
    assert "HEALTH_PORT=8080" in env and "HEALTH_HOST=127.0.0.1" in env
    # the user is made before it is used, and owns the volume
    made = next(i for i, (w, a) in enumerate(tail) if w == "RUN" and "useradd" in a)
    assert made < words[final:].index("USER")
    assert f"chown {users[-1]}" in tail[made][1] and "/data" in tail[made][1]


def test_health_commands_exist():
    """The image's and compose's health checks run a command the CLI knows."""
    from bot.__main__ import build_parser

    compose = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    assert 'test: ["CMD", "python", "-m", "bot", "health"]' in compose
    parser, _ = build_parser()
    assert parser.parse_args(["health"]).command == "health"


def test_dockerignore_keeps_secrets_and_databases_out():
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    for entry in (".env", ".git", "*.db", "tests"):
        assert entry in ignored
    for needed in ("bot", "engine", "migrations", "pyproject.toml", "README.md"):
        assert needed not in ignored


def compose_lines() -> list[tuple[int, str]]:
    out = []
    for raw in (ROOT / "compose.yaml").read_text(encoding="utf-8").splitlines():
        if raw.strip() and not raw.lstrip().startswith("#"):
            assert "\t" not in raw
            out.append((len(raw) - len(raw.lstrip(" ")), raw.strip()))
    return out


def compose_block(path: list[str]) -> list[tuple[int, str]]:
    """The lines under a nested key (a tiny YAML subset: block mappings)."""
    block = compose_lines()
    for key in path:
        if not block:
            raise AssertionError(f"compose.yaml has no {'.'.join(path)}")
        child = min(depth for depth, _ in block)
        starts = [i for i, (d, t) in enumerate(block) if d == child and t.split(":", 1)[0] == key]
        if not starts:
            raise AssertionError(f"compose.yaml has no {'.'.join(path)}")
        inner = []
        for depth, text in block[starts[0] + 1 :]:
            if depth <= child:
                break
            inner.append((depth, text))
        block = inner
    return block


def test_compose_uses_exactly_the_variables_of_env_example():
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    known = env_example()
    used = set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)", text))
    assert used and used <= known, used - known
    bot_keys = {t.split(":", 1)[0] for d, t in compose_block(["services", "bot", "environment"])}
    assert bot_keys <= known, bot_keys - known
    bot = compose_block(["services", "bot"])
    # every other variable of .env.example reaches the bot through its env_file
    assert ("env_file: .env") in [t for _, t in bot]
    db_keys = {t.split(":", 1)[0] for d, t in compose_block(["services", "db", "environment"])}
    assert {"POSTGRES_PASSWORD", "POSTGRES_USER", "POSTGRES_DB"} <= db_keys
    assert compose_block(["services", "db", "image"]) == [] and "image: postgres:" in text
    url = next(
        t for _, t in compose_block(["services", "bot", "environment"]) if "DATABASE_URL" in t
    )
    assert "postgresql+asyncpg://" in url and "@db:5432/" in url


def test_every_setting_is_in_env_example_and_nothing_else():
    fields = {name.upper() for name in Settings.model_fields}
    names = env_example()
    assert fields <= names, fields - names
    assert names - fields == {"POSTGRES_PASSWORD"}  # compose.yaml's database


def test_hosting_doc_lists_every_setting():
    doc = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    for name in env_example():
        assert f"`{name}`" in doc, name


def systemd_unit() -> dict[str, dict[str, list[str]]]:
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    for raw in (ROOT / "deploy" / "cardtable.service").read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            assert line.endswith("]")
            current = line[1:-1]
            sections[current] = {}
            continue
        assert current is not None and "=" in line, line
        key, _, value = line.partition("=")
        sections[current].setdefault(key.strip(), []).append(value.strip())
    return sections


def test_systemd_unit():
    unit = systemd_unit()
    assert set(unit) == {"Unit", "Service", "Install"}
    service = unit["Service"]
    assert service["User"][0] not in ("root", "0")
    assert service["Restart"] == ["on-failure"]
    assert service["EnvironmentFile"][0].startswith("/")
    start = shlex.split(service["ExecStart"][0])
    assert start[0].startswith("/") and start[1:] == ["-m", "bot", "run"]
    assert "network-online.target" in unit["Unit"]["After"][0]
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]
    assert "StartLimitBurst" in unit["Unit"]  # belongs to [Unit], not [Service]


def test_invite_link_has_the_permissions_table_new_checks():
    flags = dict(NEEDED + NEEDED_FOR_THREADS)
    expected = discord.Permissions(**dict.fromkeys(flags, True)).value
    doc = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    links = re.findall(
        r"https://discord\.com/oauth2/authorize\?client_id=<APP_ID>"
        r"&scope=bot\+applications\.commands&permissions=(\d+)",
        doc,
    )
    assert links and {int(n) for n in links} == {expected}
    assert f"**{expected}**" in doc
    for label in flags.values():
        assert f"| {label} |" in doc


# -- where the data lives, and stopping (issue 24) ------------------------------------------
def env_file_lines(path: Path) -> dict[str, str]:
    """What ``docker run --env-file`` passes into the container: every
    non-blank line that does not start with ``#``, as KEY=VALUE."""
    passed = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            passed[key.strip()] = value
    return passed


def test_env_example_does_not_override_the_images_database():
    passed = env_file_lines(ROOT / ".env.example")
    assert "DATABASE_URL" not in passed, "the image's /data database would be overridden"
    assert "DATABASE_URL" in env_example()  # still documented, commented out


def test_compose_keeps_the_data_on_a_named_volume_and_its_url_wins():
    bot_env = compose_block(["services", "bot", "environment"])
    assert any(t.startswith("DATABASE_URL:") for _, t in bot_env)  # wins over env_file
    volumes = [t for _, t in compose_block(["services", "db", "volumes"])]
    assert volumes == ["- db-data:/var/lib/postgresql/data"]
    assert [t for _, t in compose_block(["volumes"])] == ["db-data:"]
    grace = [t for _, t in compose_block(["services", "bot"]) if t.startswith("stop_grace_period")]
    assert grace, "docker compose stop must give the bot time to store the last moves"


def test_dockerfile_stops_with_sigterm_and_documents_the_bind_mount_owner():
    steps = dockerfile()
    assert ("STOPSIGNAL", "SIGTERM") in steps
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    made = next(a for w, a in steps if w == "RUN" and "useradd" in a)
    uid = re.search(r"--uid (\d+)", made)
    assert uid is not None
    assert f"chown {uid.group(1)}:{uid.group(1)}" in text
    hosting = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    assert f"sudo chown {uid.group(1)}:{uid.group(1)} data" in hosting
    assert "keep `DATABASE_URL` out of `.env`" in hosting


def test_systemd_documentation_is_a_file_its_own_steps_create():
    unit = systemd_unit()
    (doc,) = unit["Unit"]["Documentation"]
    assert doc.startswith("file:///")
    path = doc.removeprefix("file://")
    text = (ROOT / "deploy" / "cardtable.service").read_text(encoding="utf-8")
    steps = [line.removeprefix("#").strip() for line in text.splitlines() if line.startswith("#")]
    copied_to = [
        shlex.split(step.split("#")[0])[-1]
        for step in steps
        if "tar -x -C" in step or "git clone" in step
    ]
    homes = [folder for folder in copied_to if path.startswith(folder.rstrip("/") + "/")]
    assert homes, f"no step puts anything at {path}"
    assert (ROOT / path.removeprefix(homes[0].rstrip("/") + "/")).is_file()
    installs = [s for s in steps if "pip install" in s]
    assert installs and all(homes[0] in s for s in installs)  # the code installed is that copy
    assert unit["Service"]["KillMode"] == ["mixed"]  # SIGTERM to the bot, not its AI workers
