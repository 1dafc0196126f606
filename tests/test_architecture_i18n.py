"""Architecture: no user-facing text is built outside the translation layer.

Every text a player or moderator reads comes from ``bot.i18n`` (``t``,
``tn``, ``tp``, ``N_`` constants, discord.py's ``locale_str`` imported as
``_``, or a service error's message id).  This test reads the front ends'
source (``bot/discord`` but its runner, ``bot/render``, ``bot/cli/terminal*.py``)
and fails on

* **prose**: a string literal (or the literal part of an f-string) with two
  or more words, anywhere but in a docstring, a marked message, a log call,
  an ``assert`` or a programmer's exception (``ValueError``...);
* **a word sent as is**: a literal with letters passed straight to what
  Discord or the terminal shows (``send``, ``add_field``, a button's
  ``label``, ``draw_text``, ``say``...).

``ALLOWED`` lists the few literals that are not language (file names,
Discord markup, the notation the player types) -- each with its reason.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from bot.i18n.update import KEYWORDS

ROOT = Path(__file__).resolve().parents[1]
#: modules never checked (outside bot/ui, bot/cogs and bot/terminal.py before the
#: move): what speaks to the person running the bot, the terminal's notation helpers
UNCHECKED = {"run.py", "health.py", "metrics.py", "token.py", "terminal_text.py"}
SOURCES = sorted(
    [
        *(p for p in (ROOT / "bot" / "discord").glob("*.py") if p.name not in UNCHECKED),
        *(ROOT / "bot" / "discord" / "cogs").glob("*.py"),
        *(ROOT / "bot" / "render").glob("*.py"),
        *(ROOT / "bot" / "render" / "picture").glob("*.py"),
        *(p for p in (ROOT / "bot" / "cli").glob("terminal*.py") if p.name not in UNCHECKED),
    ]
)
#: calls whose string arguments are the translation layer's input
MARKERS = {"locale_str", "lookup"}
#: ... and every keyword the extractor reads, service errors included (one list: bot.i18n.update)
MARKERS |= {keyword.split(":")[0] for keyword in KEYWORDS}
#: calls whose string arguments are not shown to anyone
QUIET = {
    "debug",
    "info",
    "warning",
    "error",
    "exception",
    "critical",
    "ValueError",
    "TypeError",
    "RuntimeError",
    "AssertionError",
    "KeyError",
    "NotImplementedError",
    "create_task",
    "getLogger",
    "getattr",
    "hasattr",
    "setattr",
    "get",
    "startswith",
    "endswith",
    "fail",
}
#: what Discord or the terminal shows: a literal with letters may not go in directly
SINKS = {
    "send",
    "send_message",
    "edit",
    "edit_original_response",
    "answer",
    "whisper",
    "say",
    "ask",
    "refuse",
    "Embed",
    "add_field",
    "set_field_at",
    "set_footer",
    "SelectOption",
    "Choice",
    "choice",
    "_button",
    "TableSelect",
    "draw_text",
    "label",
    "CliError",
    "BadInput",
    "clip",
}
#: a choice's or an option's ``value`` is data sent back, not shown
VALUE_IS_DATA = {"Choice", "choice", "SelectOption"}
SHOWN_KEYWORDS = {
    "content",
    "label",
    "placeholder",
    "description",
    "name",
    "value",
    "text",
    "title",
}
#: literals that are not language, and why
ALLOWED = {
    "attachment://table.png": "an attachment reference",
    "table.png": "a file name",
    "python -m bot play: ": "the program's name before its refusals (as every CLI does)",
    "python -m bot play --resume ": "a command to type",
    "(empty)": "translated where it is shown",
    "https://discord.com/channels/": "a URL",
}
WORDS = re.compile(r"[^\W\d_]{2,}[,:;.!?'’]*\s+[(\"'“]*[^\W\d_]{2,}")
LETTER = re.compile(r"[^\W\d_]")


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _call_name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def _docstrings(tree: ast.AST) -> set[ast.AST]:
    out: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(body[0].value)
    return out


def _enclosing_calls(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> Iterator[ast.Call]:
    current = node
    while current in parents:
        current = parents[current]
        if isinstance(current, ast.Call):
            yield current


def _quiet(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Inside a marker, a log call, an assert or a programmer's exception."""
    current = node
    while current in parents:
        current = parents[current]
        if isinstance(current, ast.Assert):
            return True
        if isinstance(current, ast.Call) and _call_name(current) in MARKERS | QUIET:
            return True
    return False


def _literals(tree: ast.AST) -> Iterator[tuple[ast.Constant, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node, node.value


def problems(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = _parents(tree)
    docs = _docstrings(tree)
    found = []
    for node, text in _literals(tree):
        if node in docs or text in ALLOWED or _quiet(node, parents):
            continue
        where = f"{path.relative_to(ROOT)}:{node.lineno}"
        if WORDS.search(text):
            found.append(f"{where}: prose outside the translation layer: {text!r}")
            continue
        parent = parents.get(node)
        if isinstance(parent, ast.JoinedStr):
            parent = parents.get(parent)
        direct = (
            isinstance(parent, ast.Call) and _call_name(parent) in SINKS and node in parent.args
        ) or (
            isinstance(parent, ast.keyword)
            and parent.arg in SHOWN_KEYWORDS
            and isinstance(parents.get(parent), ast.Call)
            and _call_name(parents[parent]) in SINKS  # type: ignore[arg-type]
            and not (parent.arg == "value" and _call_name(parents[parent]) in VALUE_IS_DATA)  # type: ignore[arg-type]
        )
        if direct and LETTER.search(text):
            found.append(f"{where}: a word shown as is: {text!r}")
    return found


def test_no_user_facing_text_outside_the_translation_layer() -> None:
    found = [problem for path in SOURCES for problem in problems(path)]
    assert not found, "\n".join(found)


def test_the_scan_finds_what_it_should() -> None:
    """The rule itself: a sentence or a bare label is caught, a marked one is not."""
    sample = ROOT / "bot" / "render" / "text.py"
    tree = ast.parse(
        'await answer(interaction, "You joined the table.")\n'
        'view.add_item(_button(cid, "Join"))\n'
        'await answer(interaction, t("You joined the table."))\n'
        'log.warning("table %s: could not post", 1)\n'
    )
    parents = _parents(tree)
    flagged = [
        text
        for node, text in _literals(tree)
        if not _quiet(node, parents)
        and (
            WORDS.search(text)
            or (
                isinstance(parents.get(node), ast.Call) and _call_name(parents[node]) in SINKS  # type: ignore[arg-type]
            )
        )
    ]
    assert flagged == ["You joined the table.", "Join"]
    assert sample.exists()
