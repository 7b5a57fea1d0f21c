"""Web Push end to end, on SQLite and PostgreSQL, against a push service on loopback
(tests/web/push_service.py) that checks each request's VAPID signature and decrypts
its payload with the keys of the subscription the test made: your turn when a friend
moves on another device (not back from a computer, not to a player watching the
game), a friend request, a game's end, the settings, a device the service says is
gone, unsubscribing (one's own device only), CSRF, and the service worker's answer."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any, cast

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.e2e.support import next_action
from tests.helpers import eventually
from tests.web.helpers import Browser, conforms
from tests.web.push_service import Device, PushService, decrypt, verify
from tests.web.test_web_accounts import CHEAP, CSRF, fresh_name
from tests.web.test_web_api import view, wait_for_person
from yatzy.web.app import create_app
from yatzy.web.models import AccountExport
from yatzy.web.notifications import Notifier
from yatzy.web.routes.push import PushKeyView, PushView


@pytest.fixture(scope="module")
def push() -> Iterator[PushService]:
    """The push service of the module's tests."""
    with PushService() as service:
        yield service


@pytest.fixture(scope="module")
def app_client(db_url: str) -> Iterator[TestClient]:
    """One app per backend that takes loopback push endpoints."""
    app = create_app(db_url, win_chances=False, hasher=CHEAP, bot_delay=0.0, push_loopback=True)
    with TestClient(app) as c:
        yield c


def notifier(client: TestClient) -> Notifier:
    found: Notifier = client.app.state.notifier  # type: ignore[attr-defined]
    return found


def settled(client: TestClient) -> None:
    """Every event queued so far has been sent (or found nothing to send)."""
    assert notifier(client).idle(10.0), "the push queue did not drain"


def signed_up(client: TestClient, base: str) -> tuple[Browser, str]:
    browser = Browser(client)
    name = fresh_name(base)
    with browser as c:
        r = c.post(
            "/api/account/signup", json={"name": name, "password": "pw pw pw pw"}, headers=CSRF
        )
        assert r.status_code == 201, r.text
    return browser, name


def subscribed(browser: Browser, device: Device, lang: str = "en") -> dict[str, Any]:
    with browser as c:
        r = c.post("/api/push/subscribe", json=device.subscription(lang), headers=CSRF)
    assert r.status_code == 200, r.text
    conforms(PushView, r.json())
    data: dict[str, Any] = r.json()
    assert data["this_device"] is True
    return data


def server_key(client: TestClient) -> str:
    r = client.get("/api/push/key")
    assert r.status_code == 200
    conforms(PushKeyView, r.json())
    key: str = r.json()["key"]
    return key


def messages(client: TestClient, push: PushService, device: Device) -> list[dict[str, Any]]:
    """What came for the device, each checked (VAPID) and decrypted."""
    key = server_key(client)
    out = []
    for received in push.to(device):
        verify(received, key, push.origin)
        out.append(decrypt(received, device))
    return out


def arrived(
    client: TestClient, push: PushService, device: Device, kind: str, count: int = 1
) -> list[dict[str, Any]]:
    """Wait until ``count`` messages of ``kind`` came for the device; all of that kind."""
    return eventually(
        lambda: [m for m in messages(client, push, device) if m["kind"] == kind],
        lambda found: len(found) >= count,
        what=f"{count} {kind} push(es)",
    )


def duel(anna: Browser, anna_name: str, bo: Browser, bo_name: str) -> dict[str, Any]:
    """A game of Anna and Bo, each on their own device."""
    with anna as c:
        game: dict[str, Any] = c.post(
            "/api/games", json={"seats": [{"name": anna_name, "here": True}, {"name": bo_name}]}
        ).json()
    with bo as c:
        joined = c.post(f"/api/games/{game['id']}/join", json={"invite": game["invite"], "seat": 1})
        assert joined.status_code == 200, joined.text
    return game


def play_turn(browser: Browser, gid: str) -> dict[str, Any]:
    """The browser's player plays one whole turn (rolls, then writes a box)."""
    with browser as c:
        turn = view(c, gid)["turn"]
        while True:
            v = view(c, gid)
            now = v["turn"]
            if v["finished"] or (now["seat"], now["number"]) != (turn["seat"], turn["number"]):
                return v
            r = c.post(f"/api/games/{gid}/actions", json={"action": next_action(v)})
            assert r.status_code == 200, r.text


def test_your_turn_when_a_friend_moves_on_another_device(
    client: TestClient, push: PushService
) -> None:
    anna, anna_name = signed_up(client, "Anna")
    bo, bo_name = signed_up(client, "Bo")
    anna_phone, bo_phone = push.device(fresh_name("anna")), push.device(fresh_name("bo"))
    subscribed(anna, anna_phone, "en")
    subscribed(bo, bo_phone, "sv")
    game = duel(anna, anna_name, bo, bo_name)
    players = {0: (anna, anna_name), 1: (bo, bo_name)}
    first = game["game"]["starter"]
    mover, mover_name = players[first]
    waiting_phone = bo_phone if first == 0 else anna_phone
    mover_phone = anna_phone if first == 0 else bo_phone
    play_turn(mover, game["id"])
    (turn,) = arrived(client, push, waiting_phone, "turn")
    assert turn["game"] == game["id"]
    if waiting_phone is bo_phone:
        assert turn["title"] == "Din tur"
        assert turn["body"] == f"{mover_name} har spelat i Yatzy. Ditt drag!"
    else:
        assert turn["title"] == "Your turn"
        assert turn["body"] == f"{mover_name} has played in Yatzy. Your move!"
    settled(client)
    assert push.to(mover_phone) == []  # the mover is told nothing of their own move


def test_no_push_when_the_turn_comes_back_from_the_computer(
    client: TestClient, push: PushService
) -> None:
    anna, anna_name = signed_up(client, "Anna")
    phone = push.device(fresh_name("anna"))
    subscribed(anna, phone)
    with anna as c:
        game = c.post(
            "/api/games",
            json={"seats": [{"name": anna_name, "here": True}, {"name": "B", "bot": "random"}]},
        ).json()
    for _ in range(2):
        with anna as c:
            wait_for_person(c, game["id"])
        play_turn(anna, game["id"])
    with anna as c:
        assert wait_for_person(c, game["id"])["turn"]["number"] >= 2
    settled(client)
    assert push.to(phone) == []


def test_no_push_to_a_player_who_watches_the_game(client: TestClient, push: PushService) -> None:
    anna, anna_name = signed_up(client, "Anna")
    bo, bo_name = signed_up(client, "Bo")
    anna_phone, bo_phone = push.device(fresh_name("anna")), push.device(fresh_name("bo"))
    subscribed(anna, anna_phone)
    subscribed(bo, bo_phone)
    game = duel(anna, anna_name, bo, bo_name)
    first = game["game"]["starter"]
    mover, watcher = (anna, bo) if first == 0 else (bo, anna)
    with watcher as c, c.websocket_connect(f"/api/games/{game['id']}/ws") as ws:
        assert ws.receive_json()["type"] == "state"
        jar = dict(c.cookies.items())
        c.cookies.clear()
        play_turn(mover, game["id"])
        settled(client)
        for name, value in jar.items():
            c.cookies.set(name, value)
    assert push.to(anna_phone) == [] and push.to(bo_phone) == []


def test_friend_request_push(client: TestClient, push: PushService) -> None:
    anna, anna_name = signed_up(client, "Anna")
    bo, _ = signed_up(client, "Bo")
    phone = push.device(fresh_name("bo"))
    subscribed(bo, phone, "fi")
    with bo as c:
        bo_name = c.get("/api/account").json()["name"]
    with anna as c:
        r = c.post("/api/friends/request", json={"name": bo_name}, headers=CSRF)
        assert r.status_code == 200, r.text
        c.post("/api/friends/request", json={"name": bo_name}, headers=CSRF)  # again: no news
    (note,) = arrived(client, push, phone, "friend")
    assert note["title"] == "Kaveripyyntö"
    assert anna_name in note["body"]
    assert "game" not in note
    settled(client)
    assert len(push.to(phone)) == 1


def test_a_blocked_askers_request_is_not_told(client: TestClient, push: PushService) -> None:
    anna, anna_name = signed_up(client, "Anna")
    bo, bo_name = signed_up(client, "Bo")
    phone = push.device(fresh_name("bo"))
    subscribed(bo, phone)
    with bo as c:
        assert c.post("/api/friends/block", json={"name": anna_name}, headers=CSRF).is_success
    with anna as c:
        assert c.post("/api/friends/request", json={"name": bo_name}, headers=CSRF).is_success
    settled(client)
    assert push.to(phone) == []


@pytest.mark.slow  # whole games played to their end (about 8 CPU-s)
def test_game_over_push(client: TestClient, push: PushService) -> None:
    anna, anna_name = signed_up(client, "Anna")
    bo, bo_name = signed_up(client, "Bo")
    anna_phone, bo_phone = push.device(fresh_name("anna")), push.device(fresh_name("bo"))
    subscribed(anna, anna_phone)
    subscribed(bo, bo_phone)
    game = duel(anna, anna_name, bo, bo_name)
    players = {0: anna, 1: bo}
    with anna as c:
        v = view(c, game["id"])
    turns = 0
    while not v["finished"]:
        v = play_turn(players[v["turn"]["seat"]], game["id"])
        turns += 1
    last = (game["game"]["starter"] + turns - 1) % 2  # who wrote the last box
    told, mover = (bo_phone, anna_phone) if last == 0 else (anna_phone, bo_phone)
    (ended,) = arrived(client, push, told, "ended")
    assert ended == {
        "kind": "ended",
        "game": game["id"],
        "title": "Game over",
        "body": "Yatzy is over. See how it went.",
    }
    settled(client)
    assert not [m for m in messages(client, push, mover) if m["kind"] == "ended"]
    # every turn handed over was told to the one whose turn it became
    total = len(arrived(client, push, anna_phone, "turn")) + len(
        arrived(client, push, bo_phone, "turn")
    )
    assert total == turns - 1


def test_settings_off_no_push_and_on_again(client: TestClient, push: PushService) -> None:
    anna, anna_name = signed_up(client, "Anna")
    bo, _ = signed_up(client, "Bo")
    phone = push.device(fresh_name("bo"))
    subscribed(bo, phone)
    with bo as c:
        bo_name = c.get("/api/account").json()["name"]
        r = c.post("/api/push/settings", json={"kinds": {"friend": False}}, headers=CSRF)
        assert r.status_code == 200, r.text
        conforms(PushView, r.json())
        assert r.json()["kinds"] == {"turn": True, "friend": False, "ended": True, "invite": True}
        assert c.get("/api/push").json()["kinds"]["friend"] is False
    with anna as c:
        assert c.post("/api/friends/request", json={"name": bo_name}, headers=CSRF).is_success
    settled(client)
    assert push.to(phone) == []
    with bo as c:
        r = c.post("/api/push/settings", json={"kinds": {"friend": True}}, headers=CSRF)
        assert r.json()["kinds"]["friend"] is True
        # another kind is no setting
        bad = c.post("/api/push/settings", json={"kinds": {"spam": True}}, headers=CSRF)
        assert bad.status_code == 422
        c.post("/api/friends/request", json={"name": anna_name}, headers=CSRF)  # friends now
    carl, _ = signed_up(client, "Carl")
    with carl as c:
        assert c.post("/api/friends/request", json={"name": bo_name}, headers=CSRF).is_success
    arrived(client, push, phone, "friend")


def test_a_device_the_push_service_calls_gone_is_forgotten(
    client: TestClient, push: PushService
) -> None:
    anna, _ = signed_up(client, "Anna")
    bo, _ = signed_up(client, "Bo")
    phone = push.device(fresh_name("bo"))
    assert subscribed(bo, phone)["devices"] == 1
    push.gone.add(phone.endpoint.removeprefix(push.origin))
    with bo as c:
        bo_name = c.get("/api/account").json()["name"]
    with anna as c:
        assert c.post("/api/friends/request", json={"name": bo_name}, headers=CSRF).is_success
    eventually(lambda: push.to(phone), what="the push to a gone device")
    settled(client)
    with bo as c:
        assert c.get("/api/push").json()["devices"] == 0
        r = c.post("/api/push/device", json={"endpoint": phone.endpoint}, headers=CSRF)
        assert r.json()["this_device"] is False


def test_unsubscribe_only_ones_own_device(client: TestClient, push: PushService) -> None:
    anna, anna_name = signed_up(client, "Anna")
    bo, bo_name = signed_up(client, "Bo")
    phone = push.device(fresh_name("bo"))
    subscribed(bo, phone)
    with anna as c:  # another account cannot take Bo's device off
        r = c.post("/api/push/unsubscribe", json={"endpoint": phone.endpoint}, headers=CSRF)
        assert r.status_code == 200 and r.json()["devices"] == 0
    with bo as c:
        assert c.get("/api/push").json()["devices"] == 1
        r = c.post("/api/push/unsubscribe", json={"endpoint": phone.endpoint}, headers=CSRF)
        assert r.status_code == 200, r.text
        assert r.json() == {
            "kinds": {"turn": True, "friend": True, "ended": True, "invite": True},
            "devices": 0,
            "most": 10,
            "this_device": False,
        }
    with anna as c:
        assert c.post("/api/friends/request", json={"name": bo_name}, headers=CSRF).is_success
    settled(client)
    assert push.to(phone) == []
    del anna_name


def test_csrf_and_sign_in_are_required(client: TestClient, push: PushService) -> None:
    bo, _ = signed_up(client, "Bo")
    phone = push.device(fresh_name("bo"))
    with bo as c:
        for path, body in (
            ("/api/push/subscribe", phone.subscription()),
            ("/api/push/unsubscribe", {"endpoint": phone.endpoint}),
            ("/api/push/settings", {"kinds": {"turn": False}}),
        ):
            assert c.post(path, json=body).status_code == 403  # no CSRF header
            foreign = {**CSRF, "Origin": "https://evil.example"}
            assert c.post(path, json=body, headers=foreign).status_code == 403
        assert c.get("/api/push").json()["devices"] == 0
        assert c.get("/api/push").json()["kinds"]["turn"] is True
    guest = Browser(client)
    with guest as c:
        r = c.post("/api/push/subscribe", json=phone.subscription(), headers=CSRF)
        assert r.status_code == 401
        assert c.get("/api/push").status_code == 401
        assert c.get("/api/push/key").status_code == 200  # the key is public


def test_endpoints_the_server_will_not_post_to(client: TestClient) -> None:
    bo, _ = signed_up(client, "Bo")
    good = Device("https://push.example.org/x").subscription()
    with bo as c:
        for endpoint in (
            "http://push.example.org/x",  # not https
            "https://10.0.0.1/x",  # an address
            "https://localhost/x",
            "https://user:pw@push.example.org/x",
            "http://127.0.0.2/x",  # loopback, but not the tests'
        ):
            r = c.post("/api/push/subscribe", json={**good, "endpoint": endpoint}, headers=CSRF)
            assert r.status_code == 422, endpoint
        assert c.post("/api/push/subscribe", json=good, headers=CSRF).status_code == 200


def test_devices_per_account_are_bounded(client: TestClient, push: PushService) -> None:
    bo, _ = signed_up(client, "Bo")
    devices = [push.device(fresh_name("bo")) for _ in range(12)]
    for d in devices:
        data = subscribed(bo, d)
    assert data["devices"] == data["most"] == 10
    with bo as c:  # the oldest went
        r = c.post("/api/push/device", json={"endpoint": devices[0].endpoint}, headers=CSRF)
        assert r.json()["this_device"] is False


def test_the_service_worker_is_served_from_the_root(client: TestClient) -> None:
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/javascript")
    assert r.headers["service-worker-allowed"] == "/"
    assert r.headers["cache-control"] == "no-cache"
    assert "showNotification" in r.text and "notificationclick" in r.text


def test_the_key_is_kept_across_restarts(db_url: str, client: TestClient) -> None:
    """A second process on the same database signs with the same key."""
    key = server_key(client)
    with TestClient(create_app(db_url, win_chances=False, hasher=CHEAP)) as other:
        assert server_key(other) == key


def test_a_move_through_another_process_notifies(
    db_url: str, client: TestClient, push: PushService
) -> None:
    """Devices and keys are in the database: Bo subscribes through one server process,
    Anna moves through another, which finds Bo's device and signs with the same key."""
    anna, anna_name = signed_up(client, "Anna")
    bo, bo_name = signed_up(client, "Bo")
    bo_phone, anna_phone = push.device(fresh_name("bo")), push.device(fresh_name("anna"))
    subscribed(bo, bo_phone)
    subscribed(anna, anna_phone)
    game = duel(anna, anna_name, bo, bo_name)
    app = create_app(db_url, win_chances=False, hasher=CHEAP, bot_delay=0.0, push_loopback=True)
    with TestClient(app) as other:
        players = {0: Browser(other), 1: Browser(other)}
        players[0].jar, players[1].jar = dict(anna.jar), dict(bo.jar)
        first = game["game"]["starter"]
        play_turn(players[first], game["id"])
        waiting = bo_phone if first == 0 else anna_phone
        (turn,) = arrived(other, push, waiting, "turn")
        assert turn["game"] == game["id"]
        settled(other)
    settled(client)
    assert push.to(anna_phone if first == 0 else bo_phone) == []


def test_an_invitation_through_notify(client: TestClient, push: PushService) -> None:
    """The invitations' entry point: ``notify(account_id, "invite", payload)``."""
    from yatzy.web.accounts import name_key
    from yatzy.web.notifications import notify

    bo, bo_name = signed_up(client, "Bo")
    phone = push.device(fresh_name("bo"))
    subscribed(bo, phone, "sv")
    account = client.app.state.accounts.store.by_name(name_key(bo_name))  # type: ignore[attr-defined]
    assert notify(account.id, "invite", {"game": "a" * 32, "name": "Anna", "rules": "maxi"})
    (invite,) = arrived(client, push, phone, "invite")
    assert invite == {
        "kind": "invite",
        "game": "a" * 32,
        "title": "Inbjudan",
        "body": "Anna bjuder in dig att spela Maxi Yatzy.",
    }
    with pytest.raises(ValueError, match="no such notification kind"):
        notify(account.id, "spam", {})


def test_inviting_a_friend_pushes_the_invitation(client: TestClient, push: PushService) -> None:
    """A friend invited straight into a game (the lobby's invitations) is told on their
    devices, in their language, with the game to open."""
    anna, anna_name = signed_up(client, "Anna")
    bo, bo_name = signed_up(client, "Bo")
    phone = push.device(fresh_name("bo"))
    subscribed(bo, phone, "sv")
    with anna as c:
        assert c.post("/api/friends/request", json={"name": bo_name}, headers=CSRF).is_success
    with bo as c:
        assert c.post("/api/friends/accept", json={"name": anna_name}, headers=CSRF).is_success
    with anna as c:
        r = c.post("/api/invitations", json={"rules": "maxi", "friends": [bo_name]}, headers=CSRF)
        assert r.status_code in (200, 201), r.text
        game = r.json()["game"]
    (invite,) = arrived(client, push, phone, "invite")
    assert invite["game"] == game and invite["title"] == "Inbjudan"
    assert anna_name in invite["body"] and "Maxi" in invite["body"]


def test_a_slow_push_service_holds_no_action_up(client: TestClient, push: PushService) -> None:
    """The push service does not answer until the test lets it: the moves are answered
    meanwhile, and the notifications go out once it does."""
    anna, anna_name = signed_up(client, "Anna")
    bo, bo_name = signed_up(client, "Bo")
    anna_phone, bo_phone = push.device(fresh_name("anna")), push.device(fresh_name("bo"))
    subscribed(anna, anna_phone)
    subscribed(bo, bo_phone)
    push.held |= {push.path(anna_phone), push.path(bo_phone)}
    try:
        game = duel(anna, anna_name, bo, bo_name)
        players = {0: anna, 1: bo}
        with anna as c:
            seat = view(c, game["id"])["turn"]["seat"]
        for _ in range(3):  # three turns handed over while the first push hangs
            seat = play_turn(players[seat], game["id"])["turn"]["seat"]
        eventually(lambda: push.to(anna_phone) + push.to(bo_phone), what="the first push")
        assert not notifier(client).idle(0.0)  # still sending
    finally:
        push.release.set()
    settled(client)
    assert len(push.to(anna_phone)) + len(push.to(bo_phone)) == 3
    push.release.clear()


def test_failures_are_logged_and_the_device_kept(
    client: TestClient, push: PushService, caplog: pytest.LogCaptureFixture
) -> None:
    anna, _ = signed_up(client, "Anna")
    bo, bo_name = signed_up(client, "Bo")
    phone = push.device(fresh_name("bo"))
    subscribed(bo, phone)
    push.status[push.path(phone)] = 500
    sender = notifier(client)
    sender.failures.last = -1e9  # this test's failure is logged whatever came before
    with caplog.at_level("WARNING", logger="yatzy.web"), anna as c:
        assert c.post("/api/friends/request", json={"name": bo_name}, headers=CSRF).is_success
        eventually(lambda: push.to(phone), what="the refused push")
        settled(client)
    assert any("refused by the push service: 500" in r.getMessage() for r in caplog.records)
    with bo as c:
        assert c.get("/api/push").json()["devices"] == 1  # a 500 is no reason to forget it


def test_the_export_lists_the_notifications(client: TestClient, push: PushService) -> None:
    bo, _ = signed_up(client, "Bo")
    subscribed(bo, push.device(fresh_name("bo")), "fi")
    with bo as c:
        c.post("/api/push/settings", json={"kinds": {"ended": False}}, headers=CSRF)
        data = c.get("/api/account/export").json()
    conforms(AccountExport, data)
    notes = data["notifications"]
    assert notes["kinds"] == {"turn": True, "friend": True, "ended": False, "invite": True}
    (device,) = notes["devices"]
    assert device["lang"] == "fi" and device["created"].endswith("+00:00")
    assert "endpoint" not in device  # a capability URL: never shown back


def test_the_device_follows_the_pages_language(client: TestClient, push: PushService) -> None:
    anna, _ = signed_up(client, "Anna")
    bo, bo_name = signed_up(client, "Bo")
    phone = push.device(fresh_name("bo"))
    subscribed(bo, phone, "en")
    with anna as c:  # another account's device keeps its language
        c.post("/api/push/device", json={"endpoint": phone.endpoint, "lang": "sv"}, headers=CSRF)
    with bo as c:
        r = c.post(
            "/api/push/device", json={"endpoint": phone.endpoint, "lang": "fi"}, headers=CSRF
        )
        assert r.json()["this_device"] is True
    with anna as c:
        assert c.post("/api/friends/request", json={"name": bo_name}, headers=CSRF).is_success
    (note,) = arrived(client, push, phone, "friend")
    assert note["title"] == "Kaveripyyntö"


def test_the_end_reaches_an_absent_player_whose_seat_the_computer_finished() -> None:
    """The last move of a game made by the computer standing in for an absent person
    tells that person the game is over (a person's own last move does not tell
    them); the computer's rolls for them are no "your turn" of theirs."""
    sent: list[tuple[list[str], str]] = []
    notifier = Notifier(cast(Any, SimpleNamespace(engine=None)))  # never started: no store
    notifier.owners = frozenset({"anna", "bo"})
    notifier.watching = lambda game, owner: False
    notifier.notify_owners = lambda owners, kind, payload, turn_of=None, **_: bool(  # type: ignore[method-assign]
        sent.append((sorted(owners), kind)) or True
    )
    people = [SimpleNamespace(bot=None, owner_hash=o, name=o.title()) for o in ("anna", "bo")]
    stored = cast(Any, SimpleNamespace(id="g1", rules="yatzy", seats=people))
    over = cast(Any, SimpleNamespace(is_terminal=lambda: True))
    rolled = cast(Any, SimpleNamespace(is_terminal=lambda: False, current_player=lambda: 1))
    notifier.after_move(stored, over, 1)
    notifier.after_move(stored, over, 1, True)
    notifier.after_move(stored, rolled, 1, True)
    assert sent == [(["anna"], "ended"), (["anna", "bo"], "ended")]


def test_no_turn_is_told_while_the_computer_plays_for_the_absent_person() -> None:
    """A "your turn" queued for a seat the computer now plays for its absent person is
    dropped in the sending thread (the clocks say so); other turns go out."""
    sent: list[tuple[str, str]] = []
    notifier = Notifier(cast(Any, SimpleNamespace(engine=None)))  # never started
    device = SimpleNamespace(lang="en")
    notifier.store = cast(
        Any, SimpleNamespace(owners=lambda: ["bo"], devices=lambda *a, **k: [device])
    )
    notifier._send = lambda dev, body: sent.append((body["kind"], body.get("game", "")))  # type: ignore[method-assign]
    notifier.stood_in = lambda game, seat: (game, seat) == ("g1", 1)
    notifier._thread = cast(Any, object())  # as if started: _put queues
    payload = {"rules": "yatzy", "name": "Anna"}
    assert notifier.notify_owners(["bo"], "turn", {**payload, "game": "g1"}, ("g1", 1))
    assert notifier.notify_owners(["bo"], "turn", {**payload, "game": "g2"}, ("g2", 1))
    notifier.queue.put(None)
    notifier._run()  # returns at the None
    assert sent == [("turn", "g2")]


def test_push_floods_hit_the_rate_limit(sqlite_url: str, push: PushService) -> None:
    """A client that subscribes, unsubscribes, asks about devices and changes settings
    over and over is refused with 429 and a Retry-After past its ``push`` rate, and a
    refused request changes nothing."""
    from dataclasses import replace

    from yatzy.web.limits import Limits, Rate

    limits = replace(Limits.off(), push=Rate(1, 4))
    app = create_app(
        sqlite_url,
        win_chances=False,
        hasher=CHEAP,
        bot_delay=0.0,
        push_loopback=True,
        limits=limits,
    )
    with TestClient(app) as client:
        browser, _ = signed_up(client, "Flood")
        first, second = push.device("flood-1"), push.device("flood-2")
        with browser as c:
            answers = [
                c.post("/api/push/subscribe", json=first.subscription("en"), headers=CSRF),
                c.post("/api/push/device", json={"endpoint": first.endpoint}, headers=CSRF),
                c.post("/api/push/settings", json={"kinds": {"turn": False}}, headers=CSRF),
                c.post("/api/push/unsubscribe", json={"endpoint": first.endpoint}, headers=CSRF),
                c.post("/api/push/subscribe", json=second.subscription("en"), headers=CSRF),
                c.post("/api/push/settings", json={"kinds": {"friend": False}}, headers=CSRF),
                c.post(
                    "/api/push/unsubscribe", json={"endpoint": "https://x.example/a"}, headers=CSRF
                ),
            ]
            assert [r.status_code for r in answers] == [200] * 4 + [429] * 3
            for refused in answers[4:]:
                assert int(refused.headers["retry-after"]) >= 1
                assert "push" in refused.json()["detail"]
            after = c.get("/api/push").json()  # reading the settings is not counted
        assert after["devices"] == 0  # the refused subscription was not stored
        assert after["kinds"]["turn"] is False and after["kinds"]["friend"] is True
