"""The table picture (bot/render/picture/table.py): every game renders a PNG of the
documented size from the spectator view only; names in every supported
script are drawn with real glyphs from the shipped fonts; names are never
clipped, for 2..8 seats and 40-character names."""

from __future__ import annotations

import io
import random
import tomllib
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFont, ImageStat, features

from bot.render.picture import typefaces as picture_fonts
from bot.render.picture.facts import bid_text, contract_text, deal_text, score_text
from bot.render.picture.layout import CANVAS, CHIP, PAD, name_slots, seat_boxes
from bot.render.picture.png import encode_png
from bot.render.picture.table import HEIGHT, WIDTH, render_table_image, render_table_png
from bot.render.picture.typefaces import (
    ARMENIAN,
    DEVANAGARI,
    EMOJI,
    FONT_DIR,
    LATIN,
    SYMBOLS,
    fit_text,
    font_for,
    get_font,
    label,
    split_runs,
    text_width,
)
from engine import GAMES, Observation, get_game

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Şükrü Ağaoğlu", "Արամ Խաչատրյան", "सुनिता", "🃏 Ada"]
#: 40-character names in each script (and a wide Latin one)
LONG_NAMES = [
    ("Şükrü Ağaoğlu " * 3)[:40],
    ("Արամ Խաչատրյան " * 3)[:40],
    ("सुनिता क्षत्रिय " * 3)[:40],
    ("🃏 Ada " * 7)[:40],
    "W" * 40,
    ("Bartholomew Featherstonehaugh-Cholmondeley " * 2)[:40],
    ("Zeynep Çağlayan-Öztürk " * 2)[:40],
    ("Գայանե Մկրտչյան " * 3)[:40],
]
SMALL_VARIANTS = {
    "batak": {"target_score": 10},
    "callbreak": {"rounds": 1},
    "blot": {"target_score": 101},
}


def play(name: str, moves: int | None, seed: int = 1, **settings: int) -> Observation:
    """The spectator view after ``moves`` random legal moves (None: to the end)."""
    game = get_game(name)
    state = game.new_match(seed=seed, variant=game.variant(**settings) if settings else None)
    rng = random.Random(seed)
    done = 0
    while not state.is_over and (moves is None or done < moves):
        state.apply(rng.choice(state.legal_actions()))
        done += 1
    return state.view(None)


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("moves", [0, 7, 25, 60])
def test_every_game_renders_a_picture_mid_game(game, moves):
    view = play(game, moves)
    names = (NAMES * 2)[: view.num_seats]
    image = decode(render_table_png(view, names, title=f"{game} — table #12"))
    assert image.format == "PNG"
    assert image.size == (WIDTH, HEIGHT) == (960, 640)
    assert image.mode == "P"  # a palette PNG: small to upload (picture_png)


#: what one table picture may weigh (issue 22: <= 30 KB uploaded per card played)
MAX_PICTURE_BYTES = 30_000


@pytest.mark.parametrize("game", GAMES)
def test_the_picture_is_small(game):
    """Today's pictures weighed 97-112 KiB (truecolour PNG); a channel
    uploads one per edit, so every game's stays under 30 KB."""
    for moves in (0, 9, 30, 55):
        view = play(game, moves, **SMALL_VARIANTS.get(game, {}) if moves == 0 else {})
        names = (LONG_NAMES * 2)[: view.num_seats]
        png = render_table_png(view, names, title=f"{game} — table #12")
        assert len(png) <= MAX_PICTURE_BYTES, (game, moves, len(png))


@pytest.mark.parametrize("game", ["callbreak", "backalley", "ladder"])
def test_the_small_picture_is_as_clear_as_the_full_colour_one(game):
    """256 colours, the background's own among them: every pixel stays
    within a shade of the full-colour picture (on average about one level
    of 255 per channel; anti-aliased edges at most a little more)."""
    view = play(game, 30)
    names = (LONG_NAMES * 2)[: view.num_seats]
    full = render_table_image(view, names, title="Table #12")
    small = decode(render_table_png(view, names, title="Table #12")).convert("RGB")
    diff = ImageChops.difference(full, small)
    assert max(ImageStat.Stat(diff).mean) <= 3.0
    assert sum(diff.convert("L").histogram()[41:]) == 0, "a pixel changed by more than a shade"


@pytest.mark.parametrize("game", GAMES)
def test_every_game_renders_its_finished_match(game):
    view = play(game, None, **SMALL_VARIANTS.get(game, {}))
    assert view.is_over
    image = decode(render_table_png(view, NAMES[: view.num_seats]))
    assert image.size == (WIDTH, HEIGHT)


@pytest.mark.parametrize("players", range(2, 9))
def test_backalley_renders_for_two_to_eight_players(players):
    view = play("backalley", 3 * players, players=players)
    away = [seat % 3 == 0 for seat in range(players)]
    image = decode(render_table_png(view, LONG_NAMES[:players], away=away))
    assert image.size == (WIDTH, HEIGHT)


def test_only_the_spectator_view_may_be_drawn():
    game = get_game("callbreak")
    state = game.new_match(seed=1)
    with pytest.raises(AssertionError, match="spectator"):
        render_table_png(state.view(0), NAMES)


def test_missing_or_blank_names_fall_back_to_seat_numbers():
    view = play("callbreak", 5)
    image = decode(render_table_png(view, ["Ayşe", "  "]))
    assert image.size == (WIDTH, HEIGHT)


# Fonts -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ch", "face"),
    [("Ş", LATIN), ("ğ", LATIN), ("Ա", ARMENIAN), ("ն", ARMENIAN), ("स", DEVANAGARI),
     ("ि", DEVANAGARI), ("🃏", EMOJI), ("♠", SYMBOLS), ("♥", SYMBOLS)],
)  # fmt: skip
def test_each_script_has_a_shipped_font_with_the_glyph(ch, face):
    assert font_for(ch) is face


@pytest.mark.parametrize("ch", ["Ş", "Ա", "स", "♣"])
def test_the_chosen_font_draws_a_real_glyph_not_the_missing_box(ch):
    """The coverage table is not trusted blindly: the glyph differs from what
    the same font draws for an unassigned code point (its .notdef box)."""
    font = get_font(font_for(ch), 32)
    missing = font.getmask("\U0010fffd")  # private use: no shipped font has it
    assert missing.getbbox() is not None, "the .notdef box should be visible"
    glyph = font.getmask(ch)
    assert glyph.getbbox() is not None
    assert (glyph.size, bytes(glyph)) != (missing.size, bytes(missing))


def test_without_fallback_the_main_font_would_draw_boxes():
    """Why the fallback exists: Noto Sans draws its .notdef box for Armenian."""
    font = get_font(LATIN, 32)
    box = font.getmask("\U0010fffd")
    armenian = font.getmask("Ա")
    assert (armenian.size, bytes(armenian)) == (box.size, bytes(box))


def test_emoji_are_drawn_in_colour():
    picture = label("🃏", 24, (255, 255, 255)).image.convert("RGB")
    colours = {
        picture.getpixel((x, y)) for x in range(picture.width) for y in range(picture.height)
    }
    assert any(len({r, g, b}) > 1 for r, g, b in colours), "emoji came out grey"


@pytest.mark.parametrize("name", NAMES)
def test_every_run_of_a_name_is_drawn_by_a_font_that_has_its_glyphs(name):
    runs = split_runs(name)
    assert "".join(run for run, _ in runs) == name
    for run, face in runs:
        for ch in run:
            if ch not in "\u200d\ufe0f":
                assert picture_fonts.has_glyph(face, ch), (run, face.name, ch)


def test_an_emoji_sequence_stays_one_run():
    assert split_runs("👨\u200d👩\u200d👧 fam") == [("👨\u200d👩\u200d👧", EMOJI), (" fam", LATIN)]
    assert split_runs("🇹🇷") == [("🇹🇷", EMOJI)]


def test_devanagari_is_shaped_when_raqm_is_present():
    font = get_font(DEVANAGARI, 20)
    if features.check("raqm"):
        assert font.layout_engine == ImageFont.Layout.RAQM
    else:  # pragma: no cover - depends on the Pillow build
        assert font.layout_engine == ImageFont.Layout.BASIC


def test_fonts_load_only_from_the_shipped_folder(monkeypatch):
    loaded = []
    real = ImageFont.truetype

    def spy(font, *args, **kwargs):
        loaded.append(Path(font).resolve())
        return real(font, *args, **kwargs)

    monkeypatch.setattr(ImageFont, "truetype", spy)
    get_font.cache_clear()
    try:
        render_table_png(play("ladder", 30), NAMES)
        for face in (LATIN, ARMENIAN, DEVANAGARI, SYMBOLS, EMOJI):
            get_font(face, 17)
    finally:
        get_font.cache_clear()
    assert loaded
    assert all(path.parent == FONT_DIR.resolve() for path in loaded)


def test_font_files_are_package_data_with_their_licence():
    assert (FONT_DIR / "OFL.txt").read_text(encoding="utf-8").count("SIL OPEN FONT LICENSE") == 1
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = data["tool"]["setuptools"]["package-data"]["bot.render.picture"]
    shipped = {p.name for p in FONT_DIR.iterdir() if p.suffix in (".ttf", ".txt")}
    for name in shipped:
        assert any(Path("fonts", name).match(pattern) for pattern in patterns), name
    assert sum((FONT_DIR / n).stat().st_size for n in shipped) < 5 * 1024 * 1024


# Layout ------------------------------------------------------------------


@pytest.mark.parametrize("seats", range(2, 9))
def test_seat_boxes_stay_inside_the_canvas_and_apart(seats):
    boxes = seat_boxes(seats)
    for i, box in enumerate(boxes):
        assert box.inside(CANVAS), (seats, i, box)
        for other in boxes[i + 1 :]:
            assert not box.overlaps(other)


@pytest.mark.parametrize("seats", range(2, 9))
def test_forty_character_names_are_never_clipped(seats):
    names = [LONG_NAMES[(s + seats) % len(LONG_NAMES)] for s in range(seats)]
    assert all(len(name) == 40 for name in names)
    boxes = seat_boxes(seats)
    for seat, slot in enumerate(name_slots(names, seats)):
        assert slot.box.inside(CANVAS), (seats, seat, slot)
        assert slot.box.inside(boxes[seat]), (seats, seat, slot)
        room = boxes[seat].width - 2 * PAD - CHIP
        assert text_width(slot.text, slot.size, bold=True) <= room
        assert slot.text == names[seat] or slot.text.endswith("…")


def test_short_names_are_kept_whole_and_long_ones_shrink_before_they_shorten():
    assert fit_text("Ayşe", 200, 18, 12, bold=True) == ("Ayşe", 18)
    text, size = fit_text("Bartholomew Featherstone", 200, 18, 12, bold=True)
    assert text == "Bartholomew Featherstone" and 12 <= size < 18
    text, size = fit_text("Şükrü Ağaoğlu " * 4, 150, 18, 12, bold=True)
    assert size == 12 and text.endswith("…") and text.startswith("Şükrü")


def test_ellipsis_never_splits_an_emoji_sequence_or_a_conjunct():
    family = "👨\u200d👩\u200d👧"
    text, _ = fit_text(family * 10, 60, 18, 12)
    assert text.endswith("…")
    assert not text[:-1].endswith("\u200d")
    text, _ = fit_text("क्षत्रिय " * 10, 70, 18, 12)
    assert not text[:-1].rstrip().endswith("\u094d")


# PNG ---------------------------------------------------------------------


def test_the_png_writer_round_trips_pixels():
    rng = random.Random(3)
    image = Image.new("RGB", (37, 11))
    image.putdata(
        [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(37 * 11)]
    )
    back = decode(encode_png(image))
    assert back.size == image.size and back.mode == "RGB"
    assert back.tobytes() == image.tobytes()


# Wording -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "text"),
    [("13 C", "13 ♣"), ("9 NT", "9 NT"), ("80 S capot recontra", "80 ♠ capot recontra")],
)
def test_contracts_show_suit_symbols(contract, text):
    assert contract_text(contract) == text


@pytest.mark.parametrize(
    ("value", "unit", "text"),
    [(132, "tenths", "13.2"), (-40, "tenths", "-4.0"), (176, "points", "176"),
     (1, "wins", "1 win"), (0, "wins", "0 wins")],
)  # fmt: skip
def test_scores_read_in_the_games_unit(value, unit, text):
    assert score_text(value, unit) == text


def test_bids_read_from_the_auction_until_a_contract_is_set():
    view = Observation(
        game="blot", seat=None, num_seats=4, phase="auction", round_number=1,
        auction=((3, "bid 40 C"), (0, "pass"), (1, "bid 50 NT")), bids=(None, 50, None, 40),
    )  # fmt: skip
    assert [bid_text(view, s) for s in range(4)] == ["Pass", "Bid 50 NT", "", "Bid 40 ♣"]
    callbreak = Observation(
        game="callbreak", seat=None, num_seats=4, phase="play", round_number=2,
        bids=(3, 2, None, 5), tricks_won=(1, 0, 2, 1),
    )  # fmt: skip
    assert bid_text(callbreak, 0) == "Bid 3" and bid_text(callbreak, 2) == ""
    assert deal_text(callbreak) == "Deal 2 · trick 5"
