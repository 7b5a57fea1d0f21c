"""The server's logs: no secrets in them, and no flood of refusals.

uvicorn writes a line per request (its access log) and per WebSocket handshake,
each with the path and query string.  Two logging filters, on both of its handlers
(:func:`logging_config`, which ``yatzy serve`` hands to uvicorn):

* :class:`RedactSecrets`: the values of the query parameters that carry a secret
  — the owner link's ``token``, a game page's ``invite`` and the QR code's ``text``
  (an invite link) — become ``[redacted]``.  Seat tokens travel in cookies and
  headers, which are never logged.
* :class:`SampleRefusals`: refusals cost an attacker nothing — requests refused for
  a rate (429), for the host (400), a slow or large body (408, 413), a full server
  (503 and uvicorn's "Exceeded concurrency limit."), a refused WebSocket handshake
  — so of each kind one line passes per :data:`SAMPLE_INTERVAL` seconds, and the
  next line that passes after it says how many were left out.
"""

from __future__ import annotations

import copy
import logging
import re
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote_plus

SECRET_PARAMETERS = ("token", "invite", "text")
"""Query parameters whose values are secrets (or carry one)."""

_PARAMETER = re.compile(r"([?&])([^?&=\s\"]*)=([^&\s\"]*)")

SAMPLE_INTERVAL = 10.0
"""Seconds between two logged refusals of one kind."""

REFUSED_STATUSES = frozenset({400, 408, 413, 429, 503})
"""The HTTP statuses of refusals answered without work, sampled in the access log."""

_HANDSHAKE = '%s - "WebSocket %s"'


def redact(text: str) -> str:
    """``text`` with the values of :data:`SECRET_PARAMETERS` in its query strings
    replaced by ``[redacted]``.

    A parameter is known by its name as the app reads it, percent-decoded
    (``?%74oken=`` is ``token`` to the app, so it is one here too), in any case.
    """
    return _PARAMETER.sub(_redacted, text)


def _redacted(match: re.Match[str]) -> str:
    mark, name, _value = match.groups()
    if unquote_plus(name).lower() in SECRET_PARAMETERS:
        return f"{mark}{name}=[redacted]"
    return match.group(0)


class RedactSecrets(logging.Filter):
    """A logging filter: every string argument of a record (and its message) with
    :func:`redact` applied; no record is dropped."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Redact ``record`` in place."""
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


def refusal_kind(record: logging.LogRecord) -> str | None:
    """Which kind of refusal ``record`` logs (None: it logs none)."""
    args = record.args if isinstance(record.args, tuple) else ()
    if record.name == "uvicorn.access" and len(args) == 5:
        status = args[4]
        return f"HTTP {status}" if status in REFUSED_STATUSES else None
    if not isinstance(record.msg, str):
        return None
    if record.msg == "Exceeded concurrency limit.":
        return "concurrency limit"
    if record.msg.startswith(_HANDSHAKE) and not record.msg.endswith("[accepted]"):
        return "WebSocket refused"
    return None


class SampleRefusals(logging.Filter):
    """A logging filter: of each kind of refusal (:func:`refusal_kind`) one record
    passes per ``interval`` seconds; the first to pass after some were dropped says
    how many.  Other records all pass.

    The count is told with the next refusal of the kind, so a flood writes a line
    every ``interval`` seconds, and a single refusal is logged at once.
    """

    def __init__(
        self, interval: float = SAMPLE_INTERVAL, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__()
        self.interval = interval
        self.clock = clock
        self._windows: dict[str, tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether ``record`` is written (and, if some like it were not, it says so)."""
        kind = refusal_kind(record)
        if kind is None:
            return True
        now = self.clock()
        window = self._windows.get(kind)
        if window is not None and now - window[0] < self.interval:
            self._windows[kind] = (window[0], window[1] + 1)
            return False
        self._windows[kind] = (now, 0)
        if window is not None and window[1]:
            # uvicorn's access formatter takes its fields from the arguments (the
            # status as a number): the count follows the client's address there,
            # the message elsewhere
            note = f" (and {window[1]} more {kind} since the last such line)"
            args = record.args if isinstance(record.args, tuple) else ()
            if record.name == "uvicorn.access" and len(args) == 5:
                record.args = (f"{args[0]}{note}", *args[1:])
            else:
                record.msg = f"{record.msg}{note}"
        return True


def logging_config() -> dict[str, Any]:
    """uvicorn's logging configuration with :class:`RedactSecrets` and
    :class:`SampleRefusals` on both its handlers (every process applies it)."""
    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {
        "redact": {"()": "yatzy.web.logs.RedactSecrets"},
        "sample": {"()": "yatzy.web.logs.SampleRefusals"},
    }
    for handler in config["handlers"].values():
        handler["filters"] = ["sample", "redact"]
    return config
