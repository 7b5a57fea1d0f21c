"""The server's logs (issue 25): no owner secret or invite code in them, and a flood of
refusals writes a line per interval with a count, not a line per refusal.  The filters
through uvicorn's own formatters, and through a live ``yatzy serve``."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from uvicorn.logging import AccessFormatter, DefaultFormatter

from tests.e2e.support import Server
from tests.helpers import eventually
from yatzy.web.logs import RedactSecrets, SampleRefusals, logging_config, redact

ACCESS = '%s - "%s %s HTTP/%s" %d'


def _access(path: str, status: int = 200) -> logging.LogRecord:
    """A record as uvicorn's access log makes it."""
    return logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        ACCESS,
        ("1.2.3.4:5", "GET", path, "1.1", status),
        None,
    )


def _error(msg: str, *args: object) -> logging.LogRecord:
    """A record of uvicorn's own logger (handshakes, the concurrency limit)."""
    return logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1, msg, args, None)


def _written(record: logging.LogRecord, *filters: logging.Filter) -> str | None:
    """The line a handler with ``filters`` writes for ``record`` (None: none)."""
    for f in filters:
        if not f.filter(record):
            return None
    if record.name == "uvicorn.access":  # uvicorn's own formats
        access = AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s')
        return access.format(record)
    return DefaultFormatter("%(message)s").format(record)


def test_secrets_in_query_strings_are_redacted_from_the_access_log() -> None:
    redactor = RedactSecrets()
    for path, secret in [
        ("/owner?token=s3cret-owner", "s3cret-owner"),
        ("/g/" + "a" * 32 + "?lang=sv&invite=inv1te", "inv1te"),
        ("/qr.svg?text=http%3A%2F%2Fh%2Fg%2Fx%3Finvite%3Dinv2te", "inv2te"),
        ("/owner?TOKEN=upper&x=1", "upper"),
        # the names as the app reads them: percent-encoded, repeated, after others
        ("/owner?%74oken=encoded", "encoded"),
        ("/owner?%54%4F%4B%45%4E=encoded2", "encoded2"),
        ("/g/x?a=1&inv%69te=encoded3&b=2", "encoded3"),
        ("/owner?token=one&token=two", "two"),
    ]:
        line = _written(_access(path), redactor)
        assert line is not None and secret not in line and "[redacted]" in line, line
    assert "lang=sv" in (_written(_access("/g/x?lang=sv&invite=i"), redactor) or "")
    line = _written(_error('%s - "WebSocket %s" 403', "1.2.3.4:5", "/owner?token=t0k"), redactor)
    assert line is not None and "t0k" not in line
    assert redact("/api/games/abc?lang=fi") == "/api/games/abc?lang=fi"
    assert redact("/g/x?lang=sv&tokens=1&a==b") == "/g/x?lang=sv&tokens=1&a==b"
    assert redact("/owner?token=one&token=two") == "/owner?token=[redacted]&token=[redacted]"


def test_a_flood_of_refusals_writes_a_line_per_interval_with_a_count() -> None:
    now = [0.0]
    sampler = SampleRefusals(interval=10.0, clock=lambda: now[0])
    lines = []
    for i in range(1000):  # 100 refusals of each kind a second, for 10 s
        now[0] = i / 100
        for record in (
            _access("/api/games", 429),
            _access("/", 503),
            _error("Exceeded concurrency limit."),
            _error('%s - "WebSocket %s" %d', "1.2.3.4:5", "/api/games/x/ws", 429),
            _error('%s - "WebSocket %s" 403', "1.2.3.4:5", "/api/games/x/ws"),
        ):
            line = _written(record, sampler)
            if line is not None:
                lines.append(line)
    assert len(lines) == 4, lines  # one per kind (the two handshakes are one kind)
    now[0] = 10.5
    later = [
        _written(_access("/api/games", 429), sampler),
        _written(_error("Exceeded concurrency limit."), sampler),
        _written(_error('%s - "WebSocket %s" 403', "1.2.3.4:5", "/api/games/x/ws"), sampler),
    ]
    assert "(and 999 more HTTP 429 since the last such line)" in str(later[0]), later
    assert later[0] is not None and later[0].endswith("429 Too Many Requests")
    assert "(and 999 more concurrency limit" in str(later[1])
    assert "(and 1999 more WebSocket refused" in str(later[2])
    # everything else is written, every time
    for _ in range(3):
        assert _written(_access("/api/games", 201), sampler) is not None
        assert _written(_access("/api/games/x/actions", 403), sampler) is not None
        assert _written(_error('%s - "WebSocket %s" [accepted]', "a", "/ws"), sampler)


@pytest.mark.slow  # a live `yatzy serve`
def test_the_server_logs_through_the_filters(tmp_path: Path, serve: Callable[..., Server]) -> None:
    config = logging_config()
    assert all(h["filters"] == ["sample", "redact"] for h in config["handlers"].values())
    log = tmp_path / "s.log"
    args = ["--log-level", "info", "--limit-create", "1"]
    server = serve(f"sqlite:///{tmp_path / 'l.db'}", log=log, args=args)
    with httpx.Client(base_url=server.url, timeout=30) as client:
        assert client.get("/owner", params={"token": "0wnerS3cret"}).status_code == 403
        created = client.post("/api/games", json={"seats": [{"name": "A"}, {"name": "B"}]})
        assert created.status_code == 201, created.text
        game, invite = created.json()["id"], created.json()["invite"]
        assert client.get(f"/g/{game}", params={"invite": invite}).status_code == 200
        qr = client.get("/qr.svg", params={"text": created.json()["invite_url"]})
        assert qr.status_code == 200
        # the burst of 10, then 429s
        codes = [client.post("/api/games", json={"seats": [{"name": "A"}]}) for _ in range(40)]
        assert [r.status_code for r in codes].count(429) >= 25
        assert client.get("/api/rules?last=1").status_code == 200  # the line to wait for

    def logged() -> str:
        text = log.read_text(errors="replace")
        return text if "/api/rules?last=1" in text else ""

    text = eventually(logged, timeout=30, what="the access log")
    assert "0wnerS3cret" not in text and invite not in text, text
    assert "/owner?token=[redacted]" in text
    refused = [line for line in text.splitlines() if '" 429' in line]
    assert 1 <= len(refused) <= 4, refused  # 40 refusals within the interval: one line
