"""Hints, post-game analysis, history and statistics through the web API.

Hints and analyses must read as plain words in the game's language (dice by face,
boxes by the core's names, never ids or JSON), rank the options by points lost,
label approximate strategies, number each player's own turns, and say plainly
what a score pad game can be analysed for.  The statistics are checked against
games played through the API; the history page against leftovers of English in
Swedish and Finnish.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.e2e.support import next_action
from tests.helpers import eventually
from tests.web.helpers import conforms
from yatzy.game import Game
from yatzy.rules import CATEGORIES
from yatzy.strategy.advice_words import _DICE, _DIE
from yatzy.strategy.advisor import advise
from yatzy.web.app import create_app
from yatzy.web.models import AnalysisView, HintView, PendingView

# Words that must not show in Swedish or Finnish text (whole words, any case).
ENGLISH = re.compile(
    r"\b(keep|score|scratch|turn|roll|rolls|inner|outer|best|better|decisions?|open|"
    r"players?|winner|rules|started|finished|points|pad|approximate|expected|history|"
    r"games?|average|record|view|in progress|forced)\b",
    re.IGNORECASE,
)
BOX_ID = re.compile(r"\b[a-z]+_[a-z_]+\b")


@pytest.fixture(scope="module")
def app_client(sqlite_url: str) -> Iterator[TestClient]:
    """One app on SQLite for the hint and analysis tests (bots act without delay)."""
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        yield client


@pytest.fixture(scope="module")
def any_db_client(db_url: str) -> Iterator[TestClient]:
    """An app per database, for the store's statistics queries."""
    with TestClient(create_app(db_url, bot_delay=0.0)) as client:
        yield client


def create(client: TestClient, seats: list[dict[str, Any]] | None = None, **kw: Any) -> str:
    body = {"rules": "yatzy", "seats": seats or [{"name": "Ann", "here": True}], **kw}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def view(client: TestClient, gid: str) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def act(client: TestClient, gid: str, action: dict[str, Any]) -> dict[str, Any]:
    r = client.post(f"/api/games/{gid}/actions", json={"action": action})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def wait_for_person(client: TestClient, gid: str) -> dict[str, Any]:
    return eventually(
        lambda: view(client, gid),
        lambda v: v["finished"] or not v["players"][v["turn"]["seat"]]["bot"],
        interval=0.005,
        what="the bots' moves",
    )


def play_out(client: TestClient, gid: str) -> dict[str, Any]:
    for _ in range(2000):
        v = wait_for_person(client, gid)
        if v["finished"]:
            return v
        act(client, gid, next_action(v))
    raise AssertionError("the game did not end")


def ready_hint(client: TestClient, gid: str) -> dict[str, Any]:
    """The hint of the turn once the strategy is prepared."""

    def hint() -> dict[str, Any]:
        h: dict[str, Any] = view(client, gid)["turn"]["hint"]
        conforms(HintView, h)
        if h["pending"]:
            # while its table is prepared the hint says so (issue 24)
            assert h["options"] == [] and h["note"] and "yatzy solve" not in h["note"]
        return h

    return eventually(
        hint, lambda h: not h["pending"], timeout=300, interval=0.2, what="the strategy's hint"
    )


def ready_analysis(client: TestClient, gid: str, **params: str) -> dict[str, Any]:

    def answer() -> dict[str, Any]:
        r = client.get(f"/api/games/{gid}/analysis", params=params)
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        conforms(AnalysisView | PendingView, data)  # what the OpenAPI document says
        return data

    return eventually(
        answer,
        lambda d: not d.get("pending"),
        timeout=300,
        interval=0.2,
        what="the post-game analysis",
    )


def face_words(lang: str, face: int) -> tuple[str, ...]:
    # One die ("femman", "viitonen") and the word of several ("femmorna", "viitosta").
    if lang == "en":
        return (str(face),)
    return (_DIE[face][lang], _DICE[face][lang].format(count="").split()[-1])


# -- hints -----------------------------------------------------------------------------------


OPTION_KEYS = {"text", "loss", "value", "keep", "box", "inner", "outer"}


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_hints_name_dice_by_face_in_the_games_language(client: TestClient, lang: str) -> None:
    gid = create(client, lang=lang, hints=True)
    first = ready_hint(client, gid)
    assert set(first) == {"pending", "approximate", "note", "options"}
    assert not first["approximate"] and first["note"] is None
    assert first["options"][0]["keep"] == [] and first["options"][0]["text"]
    v = act(client, gid, {"roll": []})
    hint = v["turn"]["hint"]
    dice = v["turn"]["dice"]
    options = hint["options"]
    assert 3 <= len(options) <= 5
    assert all(set(o) == OPTION_KEYS for o in options)
    losses = [o["loss"] for o in options]
    assert losses[0] == 0 and losses == sorted(losses), "ranked by points lost"
    assert [o["value"] for o in options] == sorted((o["value"] for o in options), reverse=True)
    for o in options:
        text = o["text"]
        assert "{" not in text and not BOX_ID.search(text), text
        if lang != "en":
            assert not ENGLISH.search(text), text
        if o["keep"] is not None:
            assert o["box"] is None
            for face in {dice[i] for i in o["keep"]}:
                assert any(w in text for w in face_words(lang, face)), (text, dice, o["keep"])
            # positions are never spoken: "keep 1 3" would be a position list
            assert not re.search(r"\d \d", text)
        else:
            assert o["box"] in CATEGORIES and CATEGORIES[o["box"]].name(lang) in text
    verbs = {"sv": ("Behåll", "Slå", "Skriv", "Stryk"), "fi": ("Pidä", "Heitä", "Kirjaa")}
    for o in options:
        assert o["text"].startswith(verbs.get(lang, ("Keep", "Roll", "Score", "Scratch")))


def test_hint_options_are_legal_actions(client: TestClient) -> None:
    gid = create(client, rules="yatzy+forced", hints=True)
    ready_hint(client, gid)
    for _ in range(4):  # the first roll, at most two keeps, then the box
        v = view(client, gid)
        best = v["turn"]["hint"]["options"][0]
        if best["keep"] is not None:
            act(client, gid, {"roll": best["keep"]})
        else:
            act(client, gid, {"score": best["box"]})
            break
    assert view(client, gid)["sheets"][0]["entries"]["ones"] is not None


def test_dubbel_hints_are_words_and_labelled_approximate(client: TestClient) -> None:
    gid = create(client, rules="dubbel", lang="sv", hints=True)
    hint = ready_hint(client, gid)
    assert hint["approximate"] and "DubbelYatzy" in hint["note"]
    for _ in range(3):
        v = act(client, gid, {"roll": []})
    hint = v["turn"]["hint"]
    assert hint["approximate"] and hint["note"]
    names = {CATEGORIES[b].name("sv") for b in v["turn"]["allowed"]}
    for o in hint["options"]:
        text = o["text"]
        assert text.startswith("Inre: ") and ", yttre: " in text, text
        assert "{" not in text and '"' not in text and not BOX_ID.search(text)
        assert o["inner"] in v["turn"]["allowed"] and o["outer"] in v["turn"]["allowed"]
        assert o["keep"] is None and o["box"] is None
        assert sum(name in text for name in names) >= 2
    best = hint["options"][0]
    after = act(client, gid, {"inner": {"score": best["inner"]}, "outer": {"score": best["outer"]}})
    assert after["sheets"][0]["entries"][best["inner"]] is not None


def test_saved_rolls_hints_are_labelled_approximate(monkeypatch: pytest.MonkeyPatch) -> None:
    """Maxi with saved rolls, late in a game (a small sub-game: quick to prepare)."""
    from yatzy.game import Game, Roll, Score
    from yatzy.web import hints, prepare

    state = Game("maxi+saved_rolls", ["Ann"]).new_initial_state(starter=0)
    boxes = list(state.rules.boxes)
    for box in boxes[:-3]:
        state.apply(Roll())
        state.apply_roll([1, 2, 3, 4, 5, 6])
        state.apply(Score(box))
    state.apply(Roll())
    state.apply_roll([6, 6, 6, 2, 3, 1])
    monkeypatch.setattr(prepare, "_ready", {prepare.strategy_job(state.rules).key})
    for lang, word in (("sv", "sparade slag"), ("fi", "säästettyjen"), ("en", "saved rolls")):
        hint = hints.hint(state, lang)  # type: ignore[arg-type]
        assert hint is not None and hint["approximate"] and word in hint["note"]
        assert "yatzy solve" not in hint["note"]  # what is happening, not a command
        assert hint["options"] and hint["options"][0]["loss"] == 0


def test_a_hint_waiting_for_its_table_says_so_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24: while Maxi's table (319 MB, minutes on a fresh install) was built the
    hint said only "Working out the hints …"; it now says what is prepared, once, and
    that the hints follow, in the game's language."""
    from yatzy.game import Roll
    from yatzy.web import hints

    state = Game("maxi", ["Ann"]).new_initial_state(starter=0)
    state.apply(Roll())
    state.apply_roll([1, 2, 3, 4, 5, 6])
    monkeypatch.setattr(hints, "_status", lambda rules: {"pending": True})
    for lang, word in (("sv", "förbereds"), ("fi", "valmistellaan"), ("en", "being prepared")):
        hint = hints.hint(state, lang)  # type: ignore[arg-type]
        assert hint is not None and hint["pending"] and not hint["options"]
        assert hint["note"] is not None and word in hint["note"], hint
        assert "yatzy solve" not in hint["note"]


# -- analysis --------------------------------------------------------------------------------


def test_analysis_per_person_with_own_turns_in_the_games_language(client: TestClient) -> None:
    gid = create(
        client,
        [{"name": "Ann", "here": True}, {"name": "Bot", "bot": "greedy"}],
        rules="yatzy+forced",
        lang="sv",
    )
    done = play_out(client, gid)
    report = ready_analysis(client, gid)
    assert report["lang"] == "sv" and report["scope"] == "full" and not report["approximate"]
    (ann,) = report["players"]  # people only
    assert ann["name"] == "Ann" and ann["final"] == done["totals"][0] and not ann["bot"]
    # own turns: 15 for a 15-box sheet, although the game had 30 turns
    assert ann["turns"] == 15
    assert [p["turn"] for p in ann["trajectory"]] == list(range(1, 16))
    # before the first turn: the optimal expected score of the rules (empty sheet)
    optimal = advise(Game("yatzy+forced", ["x"]).new_initial_state(starter=0)).value
    assert ann["trajectory"][0]["expected"] == pytest.approx(optimal, abs=0.05)
    assert all(1 <= c["turn"] <= 15 for c in ann["costliest"])
    assert ann["decisions"] == 30 and 0 <= ann["best_decisions"] <= 30
    assert f"{ann['best_decisions']} av 30 beslut var de bästa" in ann["summary"]
    assert ann["chart_label"].startswith("Förväntat slutresultat för Ann")
    assert ann["costliest"], "writing the best-looking box after two rolls costs points"
    losses = [c["loss"] for c in ann["costliest"]]
    assert losses == sorted(losses, reverse=True) and len(losses) <= 5
    for c in ann["costliest"]:
        assert c["text"].startswith(f"Tur {c['turn']}") and "Bättre:" in c["text"]
        words = " ".join((c["text"], c["chosen"], c["better"]))
        assert not ENGLISH.search(words) and not BOX_ID.search(words), words
    english = ready_analysis(client, gid, lang="en")
    assert english["lang"] == "en"
    assert "of 30 decisions were the best" in english["players"][0]["summary"]
    assert english["players"][0]["costliest"][0]["text"].startswith("Turn ")
    finnish = ready_analysis(client, gid, lang="fi")
    for c in finnish["players"][0]["costliest"]:
        assert c["text"].startswith("Vuoro ") and not ENGLISH.search(c["text"])
    assert client.get(f"/api/games/{gid}/analysis", params={"lang": "de"}).status_code == 422


def test_analysis_of_dubbel_is_labelled_approximate(client: TestClient) -> None:
    gid = create(client, rules="dubbel", lang="fi")
    play_out(client, gid)
    report = ready_analysis(client, gid)
    assert report["approximate"] and "Tupla-Yatzy" in report["note"]
    (ann,) = report["players"]
    assert ann["turns"] == 8 and len(ann["trajectory"]) == 8  # two boxes a turn
    for c in ann["costliest"]:
        assert "{" not in c["text"] and not BOX_ID.search(c["text"])


def test_score_pad_analysis_says_what_the_data_allows(client: TestClient) -> None:
    # final dice entered every turn: the box choices are rated, not the keeps
    gid = create(client, [{"name": "Ann", "here": True}, {"name": "Bo", "here": True}], pad=True)
    play_out(client, gid)
    report = ready_analysis(client, gid)
    assert report["scope"] == "boxes"
    assert "score pad keeps only the final dice" in report["explanation"]
    for p in report["players"]:
        assert p["complete"] and p["turns"] == 15 and p["decisions"] == 15
        assert "box choices were the best" in p["summary"]
    # only points written: nothing to rate, said plainly
    points_only = create(client, pad=True, lang="sv")
    v = view(client, points_only)
    act(client, points_only, {"write": v["turn"]["allowed"][0], "points": 0})
    r = client.get(f"/api/games/{points_only}/analysis")
    assert r.status_code == 200
    report = r.json()
    assert report["scope"] == "none" and report["players"] == []
    assert "bara poäng" in report["explanation"]
    # saved rolls are not tracked by a pad
    saved = create(client, rules="maxi+saved_rolls", pad=True)
    report = client.get(f"/api/games/{saved}/analysis").json()
    conforms(AnalysisView, report)
    assert report["scope"] == "none" and "saved" in report["explanation"]


def test_a_game_without_turns_has_no_analysis_whether_the_strategy_is_ready_or_not(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answer does not depend on what this process prepared before: it was
    ``{"pending": true}`` (200) in a fresh process and 422 once another game had
    warmed the rules' strategy, so a test passed alone and failed in a full run."""
    from yatzy.web import hints

    gid = create(client)  # yatzy, one person, no turn yet
    for waiting in (None, {"pending": True}):  # the strategy ready, or being prepared
        monkeypatch.setattr(hints, "_status", lambda rules, w=waiting: w)
        r = client.get(f"/api/games/{gid}/analysis")
        assert r.status_code == 422, (waiting, r.text)
        assert r.json()["error"] == "RecordError" and "no turns" in r.json()["detail"]
    act(client, gid, {"roll": []})  # one turn begun: an answer, pending or not
    monkeypatch.setattr(hints, "_status", lambda rules: {"pending": True})
    preparing = {"pending": True, "preparing": True}  # said in words on the page
    assert client.get(f"/api/games/{gid}/analysis").json() == preparing


# -- history and statistics ----------------------------------------------------------------


@pytest.mark.slow
def test_stats_count_this_browsers_seats_in_finished_games(any_db_client: TestClient) -> None:
    client = any_db_client
    client.cookies.clear()
    assert client.get("/api/stats").json()["variants"] == []
    solo = [play_out(client, create(client)) for _ in range(2)]
    duo = play_out(
        client,
        create(client, [{"name": "Ann", "here": True}, {"name": "Bot", "bot": "greedy"}]),
    )
    create(client)  # unfinished: not counted
    forced = play_out(client, create(client, rules="yatzy+forced"))
    data = client.get("/api/stats", params={"lang": "sv"}).json()
    rows = {r["rules"]: r for r in data["variants"]}
    assert set(rows) == {"yatzy", "yatzy+forced"} and data["games"] == 4
    yatzy = rows["yatzy"]
    mine = [g["sheets"][0] for g in solo] + [duo["sheets"][0]]  # the bot's seat is not ours
    finals = [s["final"] for s in mine]
    assert yatzy["games"] == 3 and yatzy["scores"] == 3
    assert yatzy["average"] == pytest.approx(sum(finals) / 3, abs=0.05)
    assert yatzy["best"] == max(finals)
    assert yatzy["bonus_rate"] == pytest.approx(sum(s["bonus"] > 0 for s in mine) / 3, abs=1e-3)
    yatzies = sum((s["entries"]["yatzy"]["points"] or 0) > 0 for s in mine)
    assert yatzy["yatzy_rate"] == pytest.approx(yatzies / 3, abs=1e-3)
    assert yatzy["solo_record"] == max(g["totals"][0] for g in solo)
    assert yatzy["title"] == "Yatzy" and yatzy["house_rules"] == []
    assert rows["yatzy+forced"]["solo_record"] == forced["totals"][0]
    assert rows["yatzy+forced"]["house_rules"] == ["tvång (rutorna fylls uppifrån och ned)"]
    client.cookies.clear()
    assert client.get("/api/stats").json()["variants"] == []


def _main(html: str) -> str:
    body = html.split("<main", 1)[1].split("</main>", 1)[0]
    text = re.sub(r"<script[^>]*>.*?</script>", " ", body, flags=re.S)
    return re.sub(r"<[^>]+>", " ", text)


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_history_page_in_words(client: TestClient, lang: str) -> None:
    done = play_out(client, create(client, rules="yatzy+forced", lang=lang))
    create(client, rules="maxi+saved_rolls", lang=lang)
    page = client.get("/history", params={"lang": lang})
    assert page.status_code == 200
    text = _main(page.text)
    assert "yatzy+forced" not in page.text and "maxi+saved_rolls" not in text
    assert '<th scope="col"></th>' not in page.text, "no empty header cell"
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT[\d:.]+Z">', page.text)
    assert str(done["totals"][0]) in text and "Ann" in text
    expected = {
        "sv": ("Maxi-Yatzy", "sparade slag", "tvång", "Visa spelet", "Fortsätt spelet"),
        "fi": ("Maxi-Yatzy", "säästetyt heitot", "pakko", "Näytä peli", "Jatka peliä"),
        "en": ("Maxi Yatzy", "saved rolls", "forced", "View game", "Continue the game"),
    }[lang]
    for words in expected:
        assert words in text, words
    if lang != "en":
        leftovers = ENGLISH.findall(text)
        assert not leftovers, leftovers
    history = client.get("/api/history", params={"lang": lang}).json()
    entry = next(h for h in history if h["finished"])
    assert entry["started"].endswith("Z") and entry["ended"].endswith("Z")
    assert entry["started"] <= entry["ended"]


def _owned(state: Any, seats: tuple[int, ...] = (0,)) -> Any:
    import datetime as dt

    import orjson

    from yatzy.game import to_record
    from yatzy.store.stats import OwnedGame

    now = dt.datetime.now(dt.UTC)
    record = orjson.dumps(to_record(state)).decode()
    return OwnedGame("0" * 32, state.rules.spec, False, record, now, now, seats)


def test_stats_bonus_and_yatzy_from_the_boxes_written() -> None:
    from yatzy.analysis.history import stats
    from yatzy.game import Roll, Score, Scratch

    state = Game("yatzy", ["Ann"]).new_initial_state(starter=0)
    for box in state.rules.boxes:
        state.apply(Roll())
        face = CATEGORIES[box].face or 6
        state.apply_roll([face] * 5)
        state.apply(Score(box) if box in ("yatzy", "chance") or face != 6 else Scratch(box))
    assert state.is_terminal() and state.sheets[0].bonus == 50
    (row,) = stats([_owned(state)], "en")["variants"]
    assert row["bonus_rate"] == 1 and row["yatzy_rate"] == 1
    assert row["best"] == row["solo_record"] == state.sheets[0].final


@pytest.mark.parametrize("spec", ["yatzy", "yahtzee", "maxi", "dubbel", "maxi+saved_rolls"])
def test_stats_agree_with_the_replayed_sheets(spec: str) -> None:
    import random

    from yatzy.analysis.history import _sheets, _yatzy_box
    from yatzy.bots import make_bot, play_turn

    rng = random.Random(7)
    bot = make_bot("greedy")
    state = Game(spec, ["Ann", "Bo"]).new_initial_state(starter=0)
    while not state.is_terminal():
        play_turn(state, bot, rng)
    game = _owned(state, (0, 1))
    import orjson

    sheets = _sheets(state.rules, orjson.loads(game.record))
    box = _yatzy_box(state.rules)
    for mine, replayed in zip(sheets, state.sheets, strict=True):
        assert mine.bonus == replayed.bonus and mine.points(box) == replayed.points(box)
