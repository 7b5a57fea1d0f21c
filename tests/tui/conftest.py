"""The full-screen game's tests wait for the app by its own state, not by the CPU.

Textual's Pilot waits after every key (twice) and every pause until the *process*
spends under 1 ms of CPU in a 20 ms sleep (``textual._wait.wait_for_idle``), for up to
a second.  In a test process that is never true while another thread works (a bot
deciding, a hint or a chance being worked out), so each key cost up to a second of
sleep, and at best 20 ms.  These tests instead wait for what they need through
:func:`tests.tui.helpers.settle` (the app's ``thinking``, whose turn it is, the open
dialogs), and Pilot still waits until every widget has handled its messages
(``Pilot._wait_for_screen``); here the idle wait only gives the event loop a few turns.
"""

from __future__ import annotations

import asyncio

import pytest
import textual.app
import textual.pilot

YIELDS = 3
"""Turns of the event loop in place of one wait for the CPU to go idle."""


async def _yield_to_the_loop(min_sleep: float = 0.0, max_sleep: float = 1.0) -> None:
    """What the tests use in place of ``textual._wait.wait_for_idle``."""
    del min_sleep, max_sleep
    for _ in range(YIELDS):
        await asyncio.sleep(0)


@pytest.fixture(autouse=True)
def _no_wait_for_an_idle_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual's wait for an idle CPU replaced in this area's tests (see above)."""
    monkeypatch.setattr(textual.pilot, "wait_for_idle", _yield_to_the_loop)
    monkeypatch.setattr(textual.app, "wait_for_idle", _yield_to_the_loop)
