"""Every command README.md, CONTRIBUTING.md and docs/hosting.md show is
run or checked here, so the next stale command fails the suite.

The fenced blocks without a language (or ``sh``/``shell``/``bash``/
``console``) are commands; blocks tagged ``text`` (sample output, a URL),
``yaml``, ``python`` or ``json`` are not (a ``python`` block must compile).
Inline code spans that start with ``python -m bot`` are commands too.

Each command is classified:

* **run**: offline and quick -- run as written, in order, in a temporary
  folder per document (stdin empty, a timeout, the worktree's code on
  ``PYTHONPATH``, no settings from the environment) and must exit 0;
* **form**: needs the network, Docker, systemd, a PostgreSQL server, a
  token, or is long (the suite, the benchmarks) -- its form is checked
  instead: the program is one we know, ``python -m bot``'s subcommand and
  every flag parse with the real argparse, a bench script's ``--help``
  lists every flag given, the files and names it refers to exist;
* anything else fails: add it to ``plan`` with what to check.

``test_what_is_not_run_and_why`` prints what is only checked, and why.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.__main__ import build_parser
from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("README.md", "CONTRIBUTING.md", "docs/hosting.md")
SHELL_BLOCKS = {"", "sh", "shell", "bash", "console"}
OTHER_BLOCKS = {"text", "yaml", "python", "json"}
RUN_TIMEOUT = 180
#: a bot token shaped like a real one (doctor checks the shape; never sent anywhere)
FAKE_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OTA.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
#: variables a command may set that are not settings of the bot
OTHER_VARIABLES = {"CARDTABLE_TEST_POSTGRES_URL", "CARDTABLE_SCREENSHOTS"}
PLACEHOLDER = re.compile(r"<[^>]+>|\[[^\]]*\]|\.\.\.|\bPASSWORD\b")


@dataclass
class Command:
    doc: str
    line: int
    text: str
    env: dict[str, str] = field(default_factory=dict)
    argv: list[str] = field(default_factory=list)
    #: named in the text (an inline code span), not shown to be typed as is
    inline: bool = False
    #: the line as written, for the shell (``$(date +%F)``)
    raw: str = ""

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}: {self.text}"


@dataclass
class Plan:
    """``run``: run as written; else ``check`` is the form check and
    ``why`` says why the command is not run."""

    run: bool
    check: Callable[[], None] = lambda: None
    why: str = ""
    #: before a run: prepare the folder (the state the document assumes)
    prepare: Callable[[Path], None] | None = None


# -- reading the documents ---------------------------------------------------------------------
def blocks(doc: str) -> list[tuple[str, int, str]]:
    """(language, first line number, body) of every fenced block."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    out = []
    for found in re.finditer(r"^```([\w-]*)[ \t]*\n(.*?)^```", text, re.S | re.M):
        out.append((found.group(1), text[: found.start()].count("\n") + 2, found.group(2)))
    return out


def split_command(doc: str, line: int, text: str, inline: bool = False) -> list[Command]:
    """One shell line (continuations joined) as commands: ``a && b`` is two;
    a leading ``VAR=value`` is the command's environment; ``$(...)`` is run
    by the shell, and stands for a word when the form is checked."""
    words = shlex.split(re.sub(r"\$\([^)]*\)", "SUBSTITUTED", text), comments=True)
    commands, current = [], []
    for word in [*words, "&&"]:
        if word in ("&&", ";", "|", "||"):
            if current:
                commands.append(current)
            current = []
        else:
            current.append(word)
    out = []
    for argv in commands:
        env = {}
        while argv and re.fullmatch(r"[A-Z][A-Z0-9_]*=.*", argv[0]):
            name, _, value = argv.pop(0).partition("=")
            env[name] = value
        words = [f"{k}={v}" for k, v in env.items()] + argv
        shown = " ".join(shlex.quote(w) if " " in w else w for w in words)
        raw = text if len(commands) == 1 and not env else shlex.join(argv)
        out.append(Command(doc, line, shown, env, argv, inline, raw))
    return out


def commands_of(doc: str) -> list[Command]:
    out: list[Command] = []
    for language, first, body in blocks(doc):
        if language in OTHER_BLOCKS:
            continue
        assert language in SHELL_BLOCKS, f"{doc}:{first}: a ```{language} block: tag it"
        joined = re.sub(r"\\\n\s*", " ", body)
        for offset, raw in enumerate(joined.splitlines()):
            line = raw.strip()
            if line and not line.startswith("#"):
                out.extend(split_command(doc, first + offset, line))
    text = (ROOT / doc).read_text(encoding="utf-8")
    fenced = {m.span() for m in re.finditer(r"^```.*?^```", text, re.S | re.M)}
    for found in re.finditer(r"`(python -m bot(?: [^`]*)?)`", text):
        if any(a <= found.start() < b for a, b in fenced):
            continue
        line = text[: found.start()].count("\n") + 1
        out.extend(split_command(doc, line, found.group(1), inline=True))
    return out


ALL = [c for doc in DOCS for c in commands_of(doc)]


# -- form checks ----------------------------------------------------------------------------------
def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def dev_tool(name: str) -> Callable[[], None]:
    def check() -> None:
        pinned = [d.split("==")[0] for d in pyproject()["project"]["optional-dependencies"]["dev"]]
        assert name in pinned, f"{name} is not in the dev extra of pyproject.toml"

    return check


def concrete(words: list[str]) -> list[str]:
    """A synopsis made concrete: optional parts kept, placeholders filled."""
    text = " ".join(words).replace("[", " ").replace("]", " ")
    fill = {"<game>": "callbreak", "N": "1", "K": "0", "TABLE": "1", "FILE": "x.db"}
    return [fill.get(w, w) for w in text.split()]


def bot_form(command: Command) -> Callable[[], None]:
    """The real argparse of ``python -m bot`` accepts the arguments."""

    def check() -> None:
        parser, _ = build_parser()
        argv = concrete(command.argv[3:])
        if command.inline:  # a name in the text: the subcommand and its flags exist
            sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
            if argv:
                assert argv[0] in sub.choices, f"python -m bot has no {argv[0]}"
                options = sub.choices[argv[0]]._option_string_actions
                flags = [a.split("=")[0] for a in argv[1:] if a.startswith("--")]
                assert set(flags) <= set(options), f"python -m bot {argv[0]}: no {flags}"
            check_env(command)
            return
        try:
            parser.parse_args(argv)
        except SystemExit as exc:
            raise AssertionError(f"python -m bot refuses {argv}") from exc
        check_env(command)

    return check


def check_env(command: Command) -> None:
    fields = {name.upper() for name in Settings.model_fields}
    for name in command.env:
        assert name in fields | OTHER_VARIABLES, f"{name} is not a setting"
    settings = {k.lower(): v for k, v in command.env.items() if k in fields and "..." not in v}
    if settings:
        Settings(_env_file=None, **settings)  # the values are valid


def pip_form(command: Command) -> Callable[[], None]:
    def check() -> None:
        args = [a for a in command.argv if not a.startswith("-")]
        assert "install" in args, command.text
        target = args[-1]
        path, _, extras = target.partition("[")
        assert path == "." and (ROOT / "pyproject.toml").exists(), target
        for extra in filter(None, extras.rstrip("]").split(",")):
            assert extra in pyproject()["project"]["optional-dependencies"], extra

    return check


def files_exist(*names: str) -> Callable[[], None]:
    def check() -> None:
        for name in names:
            assert (ROOT / name).exists(), f"{name} does not exist"

    return check


def docker_form(command: Command) -> Callable[[], None]:
    argv = command.argv

    def check() -> None:
        compose = (ROOT / "compose.yaml").read_text(encoding="utf-8")
        dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
        if argv[1] == "compose":
            assert argv[2] in {"up", "down", "logs", "ps", "pull", "build", "restart", "exec"}
            services = set(re.findall(r"^  ([a-z][\w-]*):\s*$", compose, re.M))
            named = [a for a in argv[3:] if not a.startswith("-")]
            assert set(named) <= services, f"{named} not among compose.yaml's {services}"
        elif argv[1] == "build":
            assert argv[-1] == "." and "-t" in argv
        elif argv[1] == "ps":
            pass
        elif argv[1] == "run":
            for i, word in enumerate(argv):
                if word == "-p":  # the container's side is the port the image listens on
                    assert f"HEALTH_PORT={argv[i + 1].rsplit(':', 1)[1]}" in dockerfile
                if word == "-e":
                    check_env(
                        Command(command.doc, command.line, "", dict([argv[i + 1].split("=", 1)]))
                    )
            if "--env-file" in argv:
                assert argv[argv.index("--env-file") + 1] == ".env"
                assert (ROOT / ".env.example").exists()
            for i, word in enumerate(argv):
                if word == "-v":
                    mount = argv[i + 1].split(":")[1]
                    assert f'VOLUME ["{mount}"]' in dockerfile, mount
        else:
            raise AssertionError(f"docker {argv[1]}: not a form we check")

    return check


def curl_form(command: Command) -> Callable[[], None]:
    """``curl http://127.0.0.1:PORT/PATH``: a page the health server serves,
    on the port the image listens on."""

    def check() -> None:
        from bot.discord.health import HealthServer

        url = next(a for a in command.argv[1:] if a.startswith("http"))
        found = re.fullmatch(r"http://127\.0\.0\.1:(\d+)(/\w+)", url)
        assert found, url
        assert f"HEALTH_PORT={found.group(1)}" in (ROOT / "Dockerfile").read_text(encoding="utf-8")
        source = (ROOT / "bot" / "discord" / "health.py").read_text(encoding="utf-8")
        assert f'add_get("{found.group(2)}"' in source, f"{HealthServer.__name__}: no {url}"

    return check


def metric_named(name: str) -> Callable[[], None]:
    def check() -> None:
        assert f'"{name}"' in (ROOT / "bot" / "discord" / "metrics.py").read_text(
            encoding="utf-8"
        ), name

    return check


def owner_form(command: Command) -> Callable[[], None]:
    """``chown UID:GID folder``: the image's user and group ids."""

    def check() -> None:
        dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
        uid = re.search(r"useradd [^\n]*--uid (\d+)", dockerfile)
        assert uid, "the Dockerfile makes no user with a fixed uid"
        owner = next(a for a in command.argv[1:] if not a.startswith("-"))
        assert owner.split(":") == [uid.group(1)] * 2 and "--user-group" in dockerfile, owner

    return check


def unit_form(command: Command) -> Callable[[], None]:
    def check() -> None:
        unit = command.argv[-1] if command.argv[0] == "systemctl" else None
        if command.argv[0] == "journalctl":
            unit = command.argv[command.argv.index("-u") + 1]
        assert unit and (ROOT / "deploy" / f"{unit}.service").exists(), unit

    return check


def program_flags(command: Command) -> Callable[[], None]:
    """An external program: every long flag given is in its ``--help``."""

    def check() -> None:
        program = shutil.which(command.argv[0])
        if program is None:
            pytest.skip(f"{command.argv[0]} is not installed here")
        shown = subprocess.run(
            [program, "--help"], capture_output=True, text=True, timeout=30
        ).stdout
        for flag in (a.split("=")[0] for a in command.argv if a.startswith("--")):
            assert flag in shown, f"{command.argv[0]} has no {flag}"

    return check


_BENCH_HELP: dict[str, str] = {}


def bench_help(script: str) -> str:
    """Every bench script's ``--help``, read in one subprocess."""
    if not _BENCH_HELP:
        scripts = sorted({c.argv[1] for c in ALL if c.argv[:1] == ["python"] and is_bench(c)})
        code = (
            "import contextlib, io, json, runpy, sys\n"
            "out = {}\n"
            f"for s in {scripts!r}:\n"
            "    sys.argv = [s, '--help']; buf = io.StringIO()\n"
            "    try:\n"
            "        with contextlib.redirect_stdout(buf): runpy.run_path(s, run_name='__main__')\n"
            "    except SystemExit: pass\n"
            "    out[s] = buf.getvalue()\n"
            "print(json.dumps(out))\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env=clean_env(),
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        import json

        _BENCH_HELP.update(json.loads(done.stdout.splitlines()[-1]))
    return _BENCH_HELP[script]


def is_bench(command: Command) -> bool:
    return len(command.argv) > 1 and command.argv[1].startswith("bench/")


def bench_form(command: Command) -> Callable[[], None]:
    def check() -> None:
        script = command.argv[1]
        assert (ROOT / script).exists(), script
        shown = bench_help(script)
        assert "usage:" in shown, f"{script} --help printed no usage"
        for flag in (a for a in command.argv[2:] if a.startswith("--")):
            assert flag in shown, f"{script} has no {flag}"

    return check


def module_form(command: Command) -> Callable[[], None]:
    """``python -m package.module --flag``: the module exists and names the flag."""

    def check() -> None:
        module = command.argv[2]
        path = ROOT.joinpath(*module.split(".")).with_suffix(".py")
        assert path.exists(), module
        source = path.read_text(encoding="utf-8")
        for flag in (a for a in command.argv[3:] if a.startswith("--")):
            assert f'"{flag}"' in source, f"{module} has no {flag}"

    return check


# -- running --------------------------------------------------------------------------------------
def clean_env() -> dict[str, str]:
    """No setting of the bot from this machine's environment."""
    keep = ("PATH", "HOME", "SYSTEMROOT", "TMPDIR")
    env = {k: v for k, v in os.environ.items() if k in keep}
    env.update(PYTHONPATH=str(ROOT), LANG="C.UTF-8", PYTHONDONTWRITEBYTECODE="1")
    return env


def with_token(folder: Path) -> None:
    (folder / ".env").write_text(f"DISCORD_TOKEN={FAKE_TOKEN}\n", encoding="utf-8")


def with_database(folder: Path) -> None:
    """The database a running bot would have left (made by the same migrations)."""
    if (folder / "cardtable.db").exists():
        return
    code = (
        "import asyncio\n"
        "from bot.db.repositories import Store\n"
        "async def main():\n"
        "    store = Store('sqlite+aiosqlite:///cardtable.db')\n"
        "    await store.migrate()\n"
        "    await store.close()\n"
        "asyncio.run(main())\n"
    )
    subprocess.run(
        [sys.executable, "-c", code], cwd=folder, env=clean_env(), check=True, timeout=RUN_TIMEOUT
    )


def with_backup(name: str) -> Callable[[Path], None]:
    """The backup the document restores, under the name it uses."""

    def prepare(folder: Path) -> None:
        with_database(folder)
        target = folder / name
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(folder / "cardtable.db", target)

    return prepare


def with_env_example(folder: Path) -> None:
    shutil.copy(ROOT / ".env.example", folder / ".env.example")


def run(command: Command, folder: Path, prepare: Callable[[Path], None] | None) -> None:
    if prepare is not None:
        prepare(folder)
    env = clean_env() | command.env
    line = command.raw
    done = subprocess.run(
        ["bash", "-c", line],
        cwd=folder,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )
    assert done.returncode == 0, (
        f"{command.id} exited {done.returncode}\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}"
    )


# -- what to do with each command -----------------------------------------------------------------
def plan(command: Command) -> Plan:
    argv = command.argv
    program = argv[0] if argv else ""
    if program == "sudo":
        argv = command.argv = argv[1:]
        program = argv[0]
    if argv[:3] == ["python", "-m", "bot"]:
        return bot_plan(command)
    if argv[:3] == ["python", "-m", "pip"] or program == "pip":
        return Plan(False, pip_form(command), "installs packages: needs the network")
    if argv[:3] == ["python", "-m", "venv"]:
        return Plan(False, lambda: None, "creates a virtual environment (slow; nothing to check)")
    if program in (".", "source"):
        return Plan(False, lambda: None, "activates the virtual environment made before it")
    if argv[:3] == ["python", "-m", "pytest"]:
        check_env(command)
        return Plan(False, dev_tool("pytest"), "the test suite itself")
    if argv[:3] == ["python", "-m", "bot.i18n.update"]:
        if "--check" in argv:
            return Plan(False, module_form(command), "the suite runs the same check")
        return Plan(False, module_form(command), "rewrites the translation catalogues")
    if program == "python" and is_bench(command):
        return Plan(False, bench_form(command), "a benchmark: minutes of CPU")
    if program in ("ruff", "mypy"):
        return Plan(False, dev_tool(program), "lint of the repository (the suite checks the same)")
    if program == "lint-imports":
        return Plan(False, dev_tool("import-linter"), "the layering check (the suite runs it)")
    if program == "cp":
        return Plan(True, files_exist(argv[1]), prepare=with_env_example)
    if program == "git":
        return Plan(False, lambda: None, "clones the repository: needs the network")
    if program == "cd":
        return Plan(False, lambda: None, "moves into the clone made before it")
    if program == "curl":
        return Plan(False, curl_form(command), "asks the running bot")
    if program == "grep" and command.argv[1].startswith("cardtable_"):
        return Plan(False, metric_named(command.argv[1]), "reads the running bot's /metrics")
    if program == "mkdir":
        return Plan(True)
    if program == "chown":
        return Plan(False, owner_form(command), "needs root")
    if program == "docker":
        return Plan(False, docker_form(command), "needs Docker")
    if program in ("systemctl", "journalctl"):
        return Plan(False, unit_form(command), "needs systemd and root")
    if program in ("pg_dump", "pg_restore"):
        return Plan(False, program_flags(command), "needs a PostgreSQL server")
    raise AssertionError(f"{command.id}: unknown command; say in plan() how to check it")


def bot_plan(command: Command) -> Plan:
    sub = command.argv[3] if len(command.argv) > 3 else None
    form = bot_form(command)
    if command.inline:
        return Plan(False, form, "named in the text (the subcommand and flags are checked)")
    if PLACEHOLDER.search(command.text) or any(PLACEHOLDER.search(v) for v in command.env.values()):
        return Plan(False, form, "a synopsis with placeholders")
    if sub in ("run",) or (sub is None and command.env):
        return Plan(False, form, "needs a bot token and Discord")
    if sub == "migrate-data" and "postgresql" in command.text:
        return Plan(False, form, "needs a PostgreSQL server")
    if sub is None:
        return Plan(True, form)  # an offline game; stdin is empty, so it stops at once
    if sub == "doctor":
        return Plan(True, form, prepare=with_token)
    if sub == "backup":
        return Plan(True, form, prepare=with_database)
    if sub == "restore":
        return Plan(True, form, prepare=with_backup(command.argv[4]))
    if sub in ("play", "rules"):
        return Plan(True, form)  # a game stops at once on the empty stdin
    if sub == "health":
        return Plan(False, form, "asks the running bot")
    if sub == "replay":
        return Plan(False, form, "needs a finished table in a database")
    if sub == "web":
        return Plan(False, form, "serves the browser table until stopped (tests/web drive it)")
    form()  # a subcommand or flag that does not exist says so
    raise AssertionError(f"{command.id}: say in bot_plan() whether to run it")


# -- the tests ------------------------------------------------------------------------------------
def test_every_document_has_commands():
    for doc in DOCS:
        assert [c for c in ALL if c.doc == doc], doc


def test_python_blocks_compile():
    for doc in DOCS:
        for language, first, body in blocks(doc):
            if language == "python":
                compile(body, f"{doc}:{first}", "exec")


@pytest.mark.parametrize("command", ALL, ids=[c.id for c in ALL])
def test_command_is_known_and_well_formed(command: Command):
    plan(command).check()


@pytest.mark.parametrize("doc", DOCS)
def test_offline_commands_run(doc: str, tmp_path: Path):
    """The document's quick offline commands, run in order in one folder."""
    ran = 0
    for command in (c for c in ALL if c.doc == doc):
        steps = plan(command)
        if steps.run:
            run(command, tmp_path, steps.prepare)
            ran += 1
    if doc != "CONTRIBUTING.md":
        assert ran, f"{doc}: no command was run"


def test_what_is_not_run_and_why(capsys: pytest.CaptureFixture[str]):
    rows = []
    for command in ALL:
        steps = plan(command)
        if not steps.run:
            assert steps.why, command.id
            rows.append(f"{command.id}  -- not run: {steps.why}")
    with capsys.disabled():
        print("\nDocumented commands checked for form only:\n" + "\n".join(rows))
    assert rows
