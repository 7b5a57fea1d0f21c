"""The printable protocol: pages, fonts, text and a rendered look (poppler-utils)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from tests.protocols.helpers import random_game
from yatzy.protocols import Protocol
from yatzy.protocols.layout import protocol_rows, row_label
from yatzy.protocols.pdf import write_pdf
from yatzy.protocols.texts import option_phrases
from yatzy.rules import LANGUAGES, RuleSet, label

pytestmark = pytest.mark.skipif(
    shutil.which("pdftotext") is None or shutil.which("pdftoppm") is None,
    reason="needs poppler-utils (pdftotext, pdftoppm, pdffonts)",
)


def tool(*args: str) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def text_of(pdf: Path) -> str:
    return tool("pdftotext", "-layout", str(pdf), "-")


def pages_of(pdf: Path) -> int:
    info = tool("pdfinfo", str(pdf))
    return int(next(ln.split()[-1] for ln in info.splitlines() if ln.startswith("Pages:")))


def flat(text: str) -> str:
    """Text with line breaks and runs of spaces as single spaces."""
    return " ".join(text.split())


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    "spec",
    [
        "yatzy+forced",
        "yahtzee",
        "maxi+saved_rolls",
        "dubbel+extra=minus",
        "dubbel+scoring=international",
    ],
)
def test_blank_protocol_names_every_row_in_its_language(
    spec: str, lang: str, tmp_path: Path
) -> None:
    rules = RuleSet.parse(spec)
    pdf = tmp_path / "p.pdf"
    write_pdf(Protocol.blank(rules, ["Åsa", "Bo"], 3, lang), pdf)  # type: ignore[arg-type]
    assert pages_of(pdf) == 1
    text = flat(text_of(pdf))
    for row in protocol_rows(rules):
        assert row_label(row, lang, rules) in text, row.key  # type: ignore[arg-type]
    for box in rules.boxes:
        assert rules.box_name(box, lang) in text  # type: ignore[arg-type]
    assert f"{rules.threshold}+" in text and str(rules.bonus) in text
    assert rules.info.title[lang] in text and rules.spec in text
    for phrase in option_phrases(rules, lang):  # type: ignore[arg-type]
        assert phrase in text
    assert "Åsa" in text


def test_fonts_are_embedded_and_nordic_letters_render(tmp_path: Path) -> None:
    pdf = tmp_path / "sv.pdf"
    write_pdf(Protocol.blank(RuleSet.parse("yatzy"), ["Örjan", "Åsa", "Ärla"], lang="sv"), pdf)
    fonts = tool("pdffonts", str(pdf)).splitlines()[2:]
    assert fonts, "no fonts"
    assert all(line.split()[-5] == "yes" for line in fonts), fonts  # the "emb" column
    text = text_of(pdf)
    for word in ("Tvåor", "Kåk", "Två par", "Örjan", "Åsa", "Ärla", "Spelare"):
        assert word in text
    fi = tmp_path / "fi.pdf"
    write_pdf(Protocol.blank(RuleSet.parse("maxi"), lang="fi"), fi)
    for word in ("Ykköset", "Täyskäsi", "Täysi suora", "Pöytäkirja".lower()):
        assert word in text_of(fi)


@pytest.mark.parametrize(("players", "pages"), [(1, 1), (6, 1), (7, 2), (12, 2), (13, 3)])
def test_one_page_per_six_players(players: int, pages: int, tmp_path: Path) -> None:
    pdf = tmp_path / "p.pdf"
    write_pdf(Protocol.blank(RuleSet.parse("maxi"), columns=players), pdf)
    assert pages_of(pdf) == pages


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["yatzy", "yahtzee", "maxi", "dubbel"])
def test_filled_game_shows_every_box_total_and_the_winner(spec: str, tmp_path: Path) -> None:
    state = random_game(spec, 5, 7)  # two pages
    pdf = tmp_path / "g.pdf"
    write_pdf(Protocol.from_state(state, "en"), pdf)
    assert pages_of(pdf) == 2
    text = text_of(pdf)
    page_texts = text.split("\f")
    for seat, sheet in enumerate(state.sheets):
        page = page_texts[seat // 6]
        assert state.players[seat].name in page
        final = str(sheet.final).replace("-", "−")
        assert final in page
        assert str(sheet.upper_sum) in page
    names = ", ".join(state.players[s].name for s in state.winners())
    assert f"Winner{'s' if len(state.winners()) > 1 else ''}: {names}" in text
    scratches = sum(e is not None and e.scratched for s in state.sheets for e in s.entries.values())
    assert scratches == 0 or " x " in text
    assert label("total") in text


def test_ongoing_game_says_so(tmp_path: Path) -> None:
    state = random_game("yatzy", 2, 2, turns=5)
    pdf = tmp_path / "g.pdf"
    write_pdf(Protocol.from_state(state, "sv"), pdf)
    assert "Pågående spel: 2 av 15 omgångar spelade" in text_of(pdf)


def test_pages_render_as_clean_a4(tmp_path: Path) -> None:
    state = random_game("maxi", 1, 4)
    pdf = tmp_path / "g.pdf"
    write_pdf(Protocol.from_state(state, "fi"), pdf)
    subprocess.run(["pdftoppm", "-r", "40", "-png", str(pdf), str(tmp_path / "page")], check=True)
    (png,) = sorted(tmp_path.glob("page*.png"))
    image = Image.open(png).convert("L")
    width, height = image.size
    assert abs(height / width - 297 / 210) < 0.01  # A4 portrait
    dark = sum(image.histogram()[:128])
    assert 0.02 < dark / (width * height) < 0.3  # a table with text, not blank nor black

    def inked(box: tuple[int, int, int, int]) -> bool:
        return sum(image.crop(box).histogram()[:128]) > 0

    margin = int(width * 0.05)
    assert not inked((0, 0, width, margin))  # margins stay clean
    assert not inked((0, height - margin, width, height))
    assert not inked((0, 0, margin, height))
    assert not inked((width - margin, 0, width, height))
    assert inked((margin, margin, width // 2, int(height * 0.08)))  # the title
