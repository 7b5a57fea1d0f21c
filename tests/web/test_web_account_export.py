"""The account export holds every row of the account's online life (a seek, a
quick-match wait, an invitation, a push device without its keys, a passkey, a
rating and its history, a tournament entered and made), and deleting the account
leaves none of its personal rows: the lobby, invitations, devices and ratings go,
its tournament places stay under the anonymous name (issue 26).  On SQLite and
PostgreSQL."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import pytest
from sqlalchemy import Table, func, select

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.web.helpers import befriend, conforms, get, person, post
from tests.web.test_web_accounts import CHEAP
from yatzy.store import models
from yatzy.store.repo import GameRepository
from yatzy.web.accounts import name_key
from yatzy.web.app import create_app
from yatzy.web.models import AccountExport


@pytest.fixture(scope="module")
def app_client(db_url: str) -> Iterator[TestClient]:
    """One app per backend, with cheap password hashing and bots without delay."""
    with TestClient(create_app(db_url, win_chances=False, hasher=CHEAP, bot_delay=0.0)) as c:
        yield c


def table(row: type) -> Table:
    return cast(Table, row.__table__)  # type: ignore[attr-defined]


PERSONAL = {
    models.AccountSessionRow: "account_id",
    models.RecoveryCodeRow: "account_id",
    models.FriendLinkRow: "account_id",
    models.PasskeyRow: "account_id",
    models.PushSubscriptionRow: "account_id",
    models.PushSettingRow: "account_id",
    models.InvitationRow: "from_id",
    models.SeekRow: "account_id",
    models.SeekMemberRow: "account_id",
    models.QuickWaitRow: "account_id",
    models.RatedSeatRow: "account_id",
    models.RatingRow: "account_id",
    models.RatingHistoryRow: "account_id",
    models.SkillGameRow: "account_id",
    models.FairPlayFlagRow: "account_id",
}
"""Every table that holds an account's personal rows, by the column naming it."""


def rows_of(repo: GameRepository, account_id: str) -> dict[str, int]:
    with repo.engine.connect() as conn:
        counts = {
            row.__tablename__: conn.execute(  # type: ignore[attr-defined]
                select(func.count()).where(table(row).c[column] == account_id)
            ).scalar_one()
            for row, column in PERSONAL.items()
        }
        counts["invitations to"] = conn.execute(
            select(func.count()).where(table(models.InvitationRow).c.to_id == account_id)
        ).scalar_one()
    return counts


def test_the_export_holds_every_online_row_and_deletion_leaves_none(
    client: TestClient,
) -> None:
    app: Any = client.app
    repo: GameRepository = app.state.service.repo
    ada, ada_name = person(client, "Exa")
    bo, bo_name = person(client, "Exb")
    befriend(ada, ada_name, bo, bo_name)
    store = app.state.accounts.store
    ada_id, bo_id = (store.by_name(name_key(name)).id for name in (ada_name, bo_name))
    # a seek ada made and one she sits in, a quick-match wait, an invitation each way
    mine = post(ada, "/api/lobby/seeks", {"players": 3, "rules": "yatzy"}).json()["id"]
    theirs = post(bo, "/api/lobby/seeks", {"players": 4, "rules": "yatzy"}).json()["id"]
    assert post(ada, f"/api/lobby/seeks/{theirs}/join").status_code == 200
    assert post(ada, "/api/lobby/quick", {"rules": "maxi"}).status_code == 200
    sent = post(ada, "/api/invitations", {"rules": "yatzy", "friends": [bo_name]}).json()
    got = post(bo, "/api/invitations", {"rules": "yatzy", "friends": [ada_name]}).json()
    # a push device, and notifications of one kind off
    device = {
        "endpoint": "https://push.example.com/send/ada-1",
        "keys": {"p256dh": "B" * 87, "auth": "secretauth0123"},
        "lang": "fi",
    }
    assert post(ada, "/api/push/subscribe", device).status_code == 200
    assert post(ada, "/api/push/settings", {"kinds": {"friend": False}}).status_code == 200
    # a tournament made and entered
    start = (datetime.now(UTC) + timedelta(hours=2)).isoformat()
    cup = {
        "name": "Export cup",
        "rules": "yatzy",
        "lang": "sv",
        "starts_at": start,
        "rounds": 1,
        "table_size": 2,
        "duplicate": True,
        "public": False,
        "round_minutes": 60,
    }
    made = post(ada, "/api/tournaments", cup)
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    assert post(ada, f"/api/tournaments/{tid}/join").status_code == 200
    # a rating and a point of its history (as the rating of a rated game leaves them)
    now = datetime.now(UTC)
    with repo.write_connection() as conn, conn.begin():
        rated = {"account_id": ada_id, "family": "yatzy", "mu": 27.5, "sigma": 7.9, "games": 1}
        conn.execute(table(models.RatingRow).insert().values(**rated, updated_at=now))
        conn.execute(
            table(models.RatingHistoryRow)
            .insert()
            .values(**rated, game_id="g" * 32, at=now, total=250, place=1)
        )

    exported = get(ada, "/api/account/export")
    assert exported.status_code == 200, exported.text
    data = exported.json()
    conforms(AccountExport, data)
    records = data["records"]
    assert {(s["id"], s["mine"]) for s in records["seeks"]} == {(mine, True), (theirs, False)}
    assert [(w["rules"], w["state"]) for w in records["quick_match"]] == [("maxi", "waiting")]
    assert {(i["game"], i["sent"], i["other"]) for i in records["invitations"]} == {
        (sent["game"], True, bo_name),
        (got["game"], False, bo_name),
    }
    assert [(r["family"], r["mu"], r["games"]) for r in records["ratings"]] == [("yatzy", 27.5, 1)]
    assert [(p["game"], p["total"], p["place"]) for p in records["rating_history"]] == [
        ("g" * 32, 250, 1)
    ]
    (entry,) = records["tournaments"]
    assert (entry["id"], entry["tournament"], entry["name"]) == (tid, "Export cup", ada_name)
    assert [t["id"] for t in records["tournaments_made"]] == [tid]
    assert records["passkeys"] == [] and records["skill_games"] == []
    assert [d["lang"] for d in data["notifications"]["devices"]] == ["fi"]
    assert data["notifications"]["kinds"]["friend"] is False
    assert data["friends"]["friends"] == [bo_name]
    # no secret of the device, the password or a session leaves with it
    assert "secretauth0123" not in exported.text and "B" * 87 not in exported.text
    assert "argon2" not in exported.text and "ada-1" not in exported.text

    before = rows_of(repo, ada_id)
    assert all(before[t] for t in ("seeks", "seek_members", "quick_waits", "invitations")), before
    assert post(ada, "/api/account/delete", {"confirm": ada_name}).status_code == 200
    assert rows_of(repo, ada_id) == dict.fromkeys(before, 0)
    # bo's own seek stays, without ada in it; his place in the lobby is untouched
    (left,) = [s for s in get(bo, "/api/lobby").json()["seeks"] if s["id"] == theirs]
    assert left["seated"] == [bo_name]
    assert rows_of(repo, bo_id)["seeks"] == 1
    # the tournament keeps ada's place, under the anonymous word of its language
    assert get(bo, f"/api/tournaments/{tid}").json()["players"] == ["Anonym"]
