"""A whole game's terminal transcript, per game and per language (issue 27).

Each game is played once, short and seeded, in each language: the human
(seat 0) answers every prompt from one script -- garbage, '?', a short bid
("8h"), then every bid and every card in turn, so refusals of every kind
are printed -- and the AI plays the other seats.  The transcript is then
read for each defect of the issue: "You wins", two "1." rows without a
tie, a deal summary that does not say its list is the dealt hand, other
games' verbs, "Not allowed: ...: ..." in two sentences, notation (``TH``)
in the legal list, Python values in the settings line, a generic refusal
where the rule has a number or a card, and columns pushed out of line.
"""

from __future__ import annotations

import io
import re
from functools import cache
from pathlib import Path

import pytest

from bot.cli.terminal import play_terminal
from bot.cli.terminal_console import Console, resolve_input
from bot.i18n import LOCALES, fill, get_lang, t, using
from bot.i18n.errors import GENERIC
from bot.render.columns import width
from engine import GAMES, get_game

SHORT = {
    "callbreak": {"rounds": "1"},
    "batak": {"target_score": "10"},
    "blot": {"target_score": "51"},
    "backalley": {"max_cards": "2"},
    "ladder": {"max_turns": "100"},
}
SEEDS = {"callbreak": 3, "batak": 2, "blot": 4, "backalley": 1, "ladder": 1}
CARDS = [f"{r}{s}" for s in "shdc" for r in ["a", "k", "q", "j", "10", "9", "8", "7", "6"]]
CARDS += [f"{r}{s}" for s in "shdc" for r in "5432"]
SCRIPT = ["zz", "?", "8h", "play XX", "pass", "1", "2", "8", "bid 9 H", "trump S", "pickup"]
SCRIPT += [*CARDS, "hidden 1", "hidden 2", "hidden 3"]


@cache
def transcript(game: str, lang: str, tmp: str) -> str:
    out = io.StringIO()
    stdin = io.StringIO("\n".join(SCRIPT * 60) + "\n")
    console = Console(stdin=stdin, stdout=out, stderr=io.StringIO())
    code = play_terminal(
        game,
        seed=SEEDS[game],
        options=SHORT[game],
        db_url=f"sqlite+aiosqlite:///{tmp}/{game}-{lang}.db",
        console=console,
        lang=lang,
        agent="random",
    )
    assert code == 0
    return out.getvalue()


@pytest.fixture(scope="module")
def tmp(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("transcripts"))


CASES = [(g, code) for g in sorted(GAMES) for code in LOCALES]


def _you_pairs() -> list[tuple[str, str]]:
    """(the sentence for a named seat, the one for "You") of every narration."""
    return [
        ("{name} wins the trick", "You win the trick"),
        ("{name} plays {cards}", "You play {cards}"),
        ("{name} bids {bid}", "You bid {bid}"),
        ("{name} passes", "You pass"),
        ("{name} announces {what}", "You announce {what}"),
        ("{name} picks up the pile", "You pick up the pile"),
        ("{name} is skipped", "You are skipped"),
        ("{name} has no cards left: game over!", "You have no cards left: game over!"),
        ("{name} turns over a hidden card: {card}", "You turn over a hidden card: {card}"),
        ("{name} wins!", "You win!"),
    ]


@pytest.mark.parametrize(("game", "code"), CASES)
def test_transcript_reads_like_a_card_game(game, code, tmp):
    text = transcript(game, code, tmp)
    g = get_game(game)
    with using(code):
        lang = get_lang(code)
        you = t("You")
        problems: list[str] = []
        # "You wins the trick": every narration naming a seat has its "You" form
        for named, _ in _you_pairs():
            start = fill(lang.t(named), {"name": you}).split("{")[0].strip()
            if start.strip(" :՝") == you:
                continue  # the sentence starts with the bare name: not told apart
            if re.search(rf"(^|\s){re.escape(start)}(\s|$)", text, re.M):
                problems.append(f"'{start}' printed for the reader")
        # the end: who won, ties as ties, aligned columns
        final = t("=== Final result ===")
        assert final in text, "no final result"
        result = text[text.index(final) :].splitlines()[1:]
        winner = result[0]
        if (
            not any(
                fill(lang.t(m), {}).split("{")[0] in winner
                for m in ("You win!", "{name} wins!", "{names} win!", "You and {partners} win!")
            )
            and t("Tie for first place: {names}.").split("{")[0] not in winner
        ):
            problems.append(f"no winner line: {winner!r}")
        rows = [r for r in result[1:] if re.match(r"^\s+\d+\. ", r)]
        firsts = [r for r in rows if re.match(r"^\s+1\. ", r)]
        if len(firsts) > 1 and not all(t("(tie)") in r for r in firsts):
            problems.append("two first places without a tie")
        ends = {width(r.replace(t("(tie)"), "").rstrip()) for r in rows}
        if len(ends) > 1:
            problems.append(f"final result columns not aligned: {rows}")
        # the deal summary says its list is the hand as dealt
        if game != "ladder" and t("Bids, tricks taken and the hands as dealt:") not in text:
            problems.append("deal summary does not say what its list is")
        # only this game's verbs and examples
        for verb in ("pickup", "hidden", "contra", "recontra", "trump", "pass", "bid"):
            if verb not in g.verbs and re.search(rf"'{verb}[ ']", text):
                problems.append(f"'{verb}' offered in {game}")
        if g.max_play_cards == 1 and "'play 7H 7D'" in text:
            problems.append("several cards offered in a one-card game")
        # refusals: one sentence, never generic, never "Not allowed: x: y"
        prefix = t("Not allowed: {problem}", problem="").strip()
        if prefix and prefix in text:
            problems.append("'Not allowed:' prefix")
        if t(GENERIC) in text:
            problems.append("a generic refusal")
        # the legal list as the hand shows cards
        for line in text.splitlines():
            if line.startswith(t("Legal now: {moves}", moves="")) and re.search(
                r"\bplay [2-9TJQKA][SHDC]\b", line
            ):
                problems.append(f"notation in the legal list: {line}")
        # the settings line: words, no Python values
        settings = next(
            ln for ln in text.splitlines() if ln.startswith(t("Settings: {settings}", settings=""))
        )
        if re.search(r"=|True|False|\[", settings):
            problems.append(f"Python values in {settings!r}")
        # the table's columns line up whatever the names
        problems += _misaligned_seat_rows(text)
    assert not problems, f"{game} [{code}]:\n" + "\n".join(problems)


def _misaligned_seat_rows(text: str) -> list[str]:
    """Seat rows of a table (the lines under the "Seat" heading) that do not
    end in the same display column: a name measured by ``len`` pushes them."""
    heading = "  " + t("Seat")
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith(heading):
            continue
        rows = []
        for row in lines[i + 1 :]:
            if row[:2] not in ("->", "  ") or row.startswith("   "):
                break
            rows.append(row)
        if len({width(r) for r in rows}) > 1:
            return ["seat rows not aligned:\n" + "\n".join(rows)]
    return []


def test_blot_short_bid_is_a_bid_in_the_auction():
    game = get_game("blot")
    state = game.new_match(seed=4)
    legal = state.legal_actions()
    assert str(resolve_input("8h", legal, "blot")) == "bid 8 H"
    assert str(resolve_input("10 nt", legal, "blot")) == "bid 10 NT"
    assert str(resolve_input("as", legal, "blot")) == "play AS"  # refused by the rules later


def test_a_refusal_in_the_auction_shows_what_can_be_bid(tmp):
    text = transcript("blot", "en", tmp)
    lines = text.splitlines()
    refused = [i for i, ln in enumerate(lines) if "is not possible now: this is the auction" in ln]
    assert refused
    assert all(lines[i + 1].startswith("Choose: ") for i in refused)


def test_batak_dummy_cards_are_played_by_the_declarer(tmp):
    text = transcript("batak", "en", tmp)
    assert "from the dummy" in text


def test_backalley_intro_says_what_the_rule_book_says(tmp):
    text = transcript("backalley", "en", tmp)
    assert "Bid the exact tricks" not in text
    rules = (Path(__file__).resolve().parents[2] / "bot/rulebook/backalley.md").read_text()
    assert "`t >= b`: `3b + (t - b)`" in rules  # extra tricks score: the intro must not deny it
    assert "at least the tricks bid" in text.splitlines()[0]


def _replay(db: str, lang: str) -> str:
    from bot.cli.replay import cli_replay

    out, err = io.StringIO(), io.StringIO()
    args = type("Args", (), {"table": 1, "db": db, "lang": lang})()
    assert cli_replay(args, out=out, err=err) == 0, err.getvalue()
    return out.getvalue()


def test_ladder_replay_prints_one_turn_per_line_grouped_by_pile(tmp):
    transcript("ladder", "en", tmp)
    text = _replay(f"{tmp}/ladder-en.db", "en")
    assert "Moves: " not in text
    assert "Pile 1:" in text and "Pile 2:" in text
    turns = [ln for ln in text.splitlines() if re.match(r"^  \S.* (plays?|picks? up) ", ln)]
    assert len(turns) > 20
    assert max(width(ln) for ln in text.splitlines()) < 200


@pytest.mark.parametrize("code", ["tr", "hi"])
def test_a_replay_speaks_the_readers_language_for_the_programs_words(code, tmp):
    transcript("callbreak", "en", tmp)  # created in English: stored "You", "(AI, easy)"
    text = _replay(f"{tmp}/callbreak-en.db", code)
    assert not re.search(r"\bYou\b", text)
    assert "(AI, easy)" not in text
    with using(code):
        assert t("You") in text
        assert t("{name} (AI, {level})", name="Bram", level=t("easy")).split("(")[0] in text
