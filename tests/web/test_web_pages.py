"""The pages a player meets (without a browser): language choice, the start page's
words, the rules pages with the sheets' examples, the manifest and icons, the QR code,
the game view's additions for the page, and the app under a path prefix."""

from __future__ import annotations

import re
import struct
import warnings
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from yatzy.rules import OPTIONS, VARIANTS, parse_spec
from yatzy.web import catalog
from yatzy.web.app import create_app
from yatzy.web.i18n import ui_strings
from yatzy.web.routes.pages import accepted_language

STATIC = Path(__file__).resolve().parents[2] / "src" / "yatzy" / "web" / "static"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return create_app(f"sqlite:///{tmp_path_factory.mktemp('pages') / 'y.db'}", bot_delay=0.0)


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


class _Text(HTMLParser):
    """The visible text of a page (no scripts, no attributes)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.codes = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "code":
            self.codes += 1

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _text(html: str) -> _Text:
    parser = _Text()
    parser.feed(html)
    return parser


# -- language ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("sv-SE,sv;q=0.9,en;q=0.8", "sv"),
        ("de-DE,fi;q=0.7,en;q=0.5", "fi"),
        ("en;q=0.3,fi;q=0.9", "fi"),
        ("de-DE", None),
        ("", None),
    ],
)
def test_the_browser_language_is_read_from_accept_language(header: str, lang: str | None) -> None:
    assert accepted_language(header) == lang


def test_language_is_taken_from_the_browser_switched_and_remembered(client: TestClient) -> None:
    client.cookies.clear()
    page = client.get("/", headers={"Accept-Language": "fi-FI,fi;q=0.9"})
    assert '<html lang="fi">' in page.text
    assert ui_strings("fi")["play_bot"] in page.text
    switched = client.get("/?lang=sv", headers={"Accept-Language": "fi"})
    assert '<html lang="sv">' in switched.text
    assert "yz_lang=sv" in switched.headers["set-cookie"]
    again = client.get("/rules/maxi", headers={"Accept-Language": "fi"})
    assert '<html lang="sv">' in again.text  # remembered over the browser's language
    assert client.get("/?lang=xx").status_code == 200  # an unknown language is ignored


# -- the start page ----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_start_page_speaks_plain_words(client: TestClient, lang: str) -> None:
    client.cookies.clear()
    html = client.get(f"/?lang={lang}").text
    parsed = _text(html)
    text = " ".join(parsed.parts)
    assert parsed.codes == 0  # no option ids in code font
    assert "Spec:" not in text and "Player 1" not in text
    for name in (o for o in OPTIONS if "_" in o):  # ids that are no words
        assert name not in text
    for preset in catalog.PRESETS:
        assert catalog.pick(preset.name, lang) in text
        assert catalog.pick(preset.summary, lang) in text
    # bot levels in words with their measured strength; perfect and optimal shown once
    levels = re.findall(r'<option value="([a-z]+)" data-strength=', html)
    assert "perfect" not in levels and levels.count("optimal") <= 1
    assert {"strong", "casual", "beginner", "greedy", "random"} <= set(levels)
    assert catalog.pick(catalog.LOSS_WORDS, lang).format(n="4.4" if lang == "en" else "4,4") in html
    casual = catalog.pick(catalog.LOSS_WORDS, lang).format(n="15.5" if lang == "en" else "15,5")
    assert casual in text  # the chosen level's strength is shown
    assert catalog.DEFAULT_NAMES[lang][0] in html


@pytest.mark.parametrize("lang", ["sv", "fi"])
def test_no_english_on_swedish_and_finnish_pages(client: TestClient, lang: str) -> None:
    """No English sentence of the catalogs appears on a page in another language."""
    english = {v for k, v in ui_strings("en").items() if v != ui_strings(lang)[k]}
    english |= {catalog.pick(p.summary, "en") for p in catalog.PRESETS}
    english |= {catalog.pick(w, "en") for w in catalog.OPTION_WORDS.values()}
    english = {e for e in english if len(e.split()) >= 2}
    game = client.post(
        "/api/games",
        json={"rules": "yatzy", "lang": lang, "seats": [{"name": "Ann", "here": True}]},
    ).json()["id"]
    for path in ["/", "/rules/yatzy", "/rules/dubbel", "/rules/yahtzee", f"/g/{game}"]:
        html = client.get(f"{path}?lang={lang}").text
        text = " ".join(_text(html).parts)
        leaked = [e for e in english if e in text]
        assert leaked == [], (path, leaked)


def test_every_option_and_box_has_words_in_every_language() -> None:
    for variant in VARIANTS.values():
        for option in variant.options:
            assert option in catalog.OPTION_WORDS, option
            for choice in OPTIONS[option].choices:
                assert (option, choice) in catalog.CHOICE_WORDS
    for spec in ["yatzy", "yatzy+lenient+yatzy_pip_bonus", "yahtzee", "maxi", "dubbel"]:
        rules = parse_spec(spec)
        for box in rules.boxes:
            texts = {lang: catalog.box_help(rules, box, lang) for lang in ("sv", "fi", "en")}
            assert all(texts.values()) and len(set(texts.values())) == 3, (spec, box)
    yahtzee = parse_spec("yahtzee")
    assert "25" in catalog.box_help(yahtzee, "full_house", "en")
    assert "sum" in catalog.box_help(parse_spec("yatzy"), "full_house", "en")


def test_presets_are_valid_rules_and_named_rules_read_back() -> None:
    for preset in catalog.PRESETS:
        assert catalog.preset_of(preset.spec) == preset
    assert catalog.rules_name("yatzy+forced", "sv") == "Tvång"
    assert catalog.rules_name("maxi+saved_rolls", "fi") == "Maxi säästetyillä heitoilla"
    named = catalog.rules_name("yatzy+lenient", "en")
    assert named.startswith("Scandinavian Yatzy (") and "lenient" not in named


# -- the rules pages -----------------------------------------------------------------------------

# RULES.md "Examples from the sheets", as the rules page shows them
SHEET_EXAMPLES = {
    "yatzy": [
        ("3-3-3-3-1", "Threes", 12),
        ("3-3-3-3-1", "Four of a Kind", 12),
        ("3-3-3-3-1", "Chance", 13),
        ("3-3-4-4-1", "Two Pairs", 14),
        ("5-5-5-2-1", "Three of a Kind", 15),
        ("2-2-2-4-4", "Full House", 14),
        ("5-5-6-6-2", "One Pair", 12),
        ("6-6-6-2-2", "Full House", 22),
        ("6-6-6-2-4", "Sixes", 18),
        ("6-6-6-2-4", "Three of a Kind", 18),
        ("1-5-4-3-3", "Chance", 16),
    ],
    "yahtzee": [
        ("5-5-5-2-4", "Three of a Kind", 21),
        ("1-1-1-1-3", "Four of a Kind", 7),
        ("2-2-2-3-3", "Full House", 25),
        ("2-3-4-5-5", "Small Straight", 30),
        ("2-3-4-5-6", "Large Straight", 40),
        ("2-3-5-6-6", "Chance", 22),
    ],
    "dubbel": [("6-6-4-3-3-3, 4 dropped", "Full House", 21)],
}


@pytest.mark.parametrize("variant", sorted(SHEET_EXAMPLES))
def test_rules_page_shows_the_sheets_examples(client: TestClient, variant: str) -> None:
    html = client.get(f"/rules/{variant}?lang=en").text
    text = re.sub(r"<[^>]+>", "", html)
    for dice, box, points in SHEET_EXAMPLES[variant]:
        assert f"{dice} → {box}: {points}" in text


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_rules_page_per_variant_and_language(client: TestClient, variant: str, lang: str) -> None:
    page = client.get(f"/rules/{variant}?lang={lang}")
    assert page.status_code == 200
    rules = parse_spec(variant)
    for box in rules.boxes:
        assert catalog.box_help(rules, box, lang, dubbel_note=False) in page.text


def test_unknown_rules_page_is_a_404_with_a_reason(client: TestClient) -> None:
    page = client.get("/rules/poker")
    assert page.status_code == 404 and "'poker'" in page.json()["detail"]


# -- installable ----------------------------------------------------------------------------------


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_manifest_and_icons(client: TestClient) -> None:
    manifest = client.get("/manifest.webmanifest")
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    body = manifest.json()
    assert body["display"] == "standalone" and body["start_url"] == "./"
    sizes = {i["sizes"] for i in body["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in body["icons"]:
        assert client.get("/" + icon["src"]).status_code == 200
        if icon["type"] == "image/png":
            size = int(icon["sizes"].split("x")[0])
            assert _png_size(STATIC / Path(icon["src"]).name) == (size, size)
    page = client.get("/").text
    assert '<link rel="manifest" href="manifest.webmanifest">' in page
    assert '<meta name="theme-color"' in page


def test_qr_code_of_an_invite_link(client: TestClient) -> None:
    qr = client.get("/qr.svg", params={"text": "http://192.168.1.5:8000/g/ab?invite=cd"})
    assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg+xml")
    assert b'xmlns="http://www.w3.org/2000/svg"' in qr.content
    assert client.get("/qr.svg", params={"text": "x" * 401}).status_code == 422
    assert client.get("/qr.svg").status_code == 422


# -- the pages' markup stays within a strict CSP ---------------------------------------------------


def test_pages_have_no_inline_script_style_or_handler(client: TestClient) -> None:
    game = client.post(
        "/api/games", json={"rules": "maxi", "lang": "en", "seats": [{"name": "A", "here": True}]}
    ).json()["id"]
    for path in ["/", "/rules/yatzy", f"/g/{game}", "/history"]:
        html = client.get(path).text
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), path
        assert not re.search(r"\sstyle=", html), path
        assert not re.search(r"\son[a-z]+=", html), path
        assert "http://" not in html.replace('xmlns="http://www.w3.org', ""), path
    for script in STATIC.glob("*.js"):
        source = script.read_text()
        assert "innerHTML" not in source, script  # text only: no markup from data
        assert not re.search(r"""fetch\(\s*["'`]/""", source), script  # relative to <base>


# -- the game view's additions ---------------------------------------------------------------------


def test_view_explains_boxes_and_shows_which_dice_were_kept(client: TestClient) -> None:
    client.cookies.clear()
    created = client.post(
        "/api/games", json={"rules": "yatzy", "lang": "sv", "seats": [{"name": "A", "here": True}]}
    ).json()
    gid = created["id"]
    view = created["game"]
    assert view["boxes"][0]["help"] == catalog.box_help(parse_spec("yatzy"), "ones", "sv")
    first = client.post(f"/api/games/{gid}/actions", json={"action": {"roll": []}}).json()
    assert first["turn"]["kept"] == [] and first["turn"]["joker"] is False
    second = client.post(f"/api/games/{gid}/actions", json={"action": {"roll": [0, 3]}}).json()
    assert second["turn"]["kept"] == [0, 3]
    assert second["turn"]["dice"][0] == first["turn"]["dice"][0]


@pytest.mark.parametrize(
    ("rules", "lang", "name", "not_name"),
    [("maxi", "sv", "Liten straight", "Liten stege"), ("yahtzee", "en", "Yahtzee", None)],
)
def test_pages_name_boxes_as_the_variants_sheet(
    client: TestClient, rules: str, lang: str, name: str, not_name: str | None
) -> None:
    client.cookies.clear()
    seats = [{"name": "A", "here": True}]
    gid = client.post("/api/games", json={"rules": rules, "lang": lang, "seats": seats}).json()[
        "id"
    ]
    for page in (client.get(f"/g/{gid}").text, client.get(f"/rules/{rules}?lang={lang}").text):
        assert name in page
        assert not_name is None or not_name not in page


def test_view_says_when_the_joker_applies() -> None:
    from yatzy.game import Game, Roll, Score

    state = Game("yahtzee", ["A"]).new_initial_state()

    def roll(dice: list[int]) -> None:
        state.apply(Roll(()))
        state.apply_roll(dice)

    roll([6, 6, 6, 6, 6])
    assert not state.joker_on_table()  # the Yahtzee box is still open
    state.apply(Score("yatzy"))
    roll([6, 6, 6, 6, 6])
    assert state.joker_on_table()
    state.apply(Score("sixes"))
    roll([6, 6, 6, 6, 5])
    assert not state.joker_on_table()
    assert not Game("yatzy", ["A"]).new_initial_state().joker_on_table()


# -- under a path prefix ---------------------------------------------------------------------------


def test_the_app_under_a_path_prefix(app: Any) -> None:
    with TestClient(app, root_path="/yatzy") as c:
        page = c.get("/yatzy/")
        assert page.status_code == 200 and '<base href="/yatzy/">' in page.text
        assert 'href="/' not in page.text.replace('href="/yatzy/"', "")  # every link relative
        created = c.post(
            "/yatzy/api/games",
            json={"rules": "yatzy", "lang": "en", "seats": [{"name": "A", "here": True}]},
        )
        body = created.json()
        assert body["url"].endswith(f"/yatzy/g/{body['id']}")
        cookies = created.headers.get_list("set-cookie")
        assert any(f"Path=/yatzy/api/games/{body['id']}" in c for c in cookies)
        assert any(c.startswith("yz_owner=") and "Path=/yatzy/" in c for c in cookies)
        rolled = c.post(f"/yatzy/api/games/{body['id']}/actions", json={"action": {"roll": []}})
        assert rolled.status_code == 200 and rolled.json()["version"] == 1
        assert c.get(f"/yatzy/g/{body['id']}").status_code == 200
        assert c.get("/yatzy/static/game.js").status_code == 200


def test_serve_refuses_a_bad_root_path(capsys: pytest.CaptureFixture[str]) -> None:
    from yatzy.cli.main import main

    assert main(["serve", "--root-path", "yatzy", "--database-url", "sqlite:///x.db"]) == 2
    assert "'yatzy'" in capsys.readouterr().err


def test_a_game_page_speaks_the_viewers_language(client: TestClient) -> None:
    client.cookies.clear()
    game = client.post(
        "/api/games",
        json={
            "rules": "yatzy",
            "lang": "sv",
            "seats": [{"name": "A", "here": True}, {"name": "B"}],
        },
    ).json()
    own = client.get(f"/g/{game['id']}").text
    assert '<html lang="sv">' in own and "Ettor" in own  # the game's language by default
    other = client.get(f"/g/{game['id']}?lang=fi&invite={game['invite']}").text
    assert '<html lang="fi">' in other and "Kakkoset" in other and "Ettor" not in other
    # the language switch keeps the invite
    assert f"invite={game['invite']}&amp;lang=en" in other
