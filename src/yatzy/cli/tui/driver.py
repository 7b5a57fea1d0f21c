"""The full-screen game's terminal driver: Textual's own, made safe for a terminal
that closes under it (the window closed, an ssh connection dropped).

After a hang-up the terminal answers every write with ``EIO``.  Textual's output
thread dies at the first one, and its queue (30 writes) then blocks the app's own
thread for good once it is full: the app never gets to save and leave, and the
process stays, its game lost.  Under load, where the hang-up signal is handled late
and the screen goes on drawing meanwhile, that happened.

:class:`SafeLinuxDriver` writes through :class:`ClosedTerminalTolerant`, which drops
what can no longer be written, so the output thread lives on and the queue keeps
moving; and a failed write tells the app that the terminal has hung up (the path of
``SIGHUP`` itself: save and leave), in case the signal never comes.  So does a
watcher thread that polls the terminal for its hang-up (``POLLHUP``, which reads
no input): a game that draws nothing while it waits for a key writes nothing to
fail, and Textual's input thread would spin on the endless end-of-file meanwhile.
"""

from __future__ import annotations

import contextlib
import select
import signal
import sys
import threading
from collections.abc import Callable
from typing import IO, Any

from textual.drivers.linux_driver import LinuxDriver

__all__ = ["ClosedTerminalTolerant", "SafeLinuxDriver", "driver_class"]


class ClosedTerminalTolerant:
    """A text file whose writes and flushes never raise: after the first ``OSError``
    (or ``ValueError``, a closed file) everything written is dropped, and
    ``on_closed`` is called once (on the writing thread; it must not block).  What
    Textual's output thread writes through, so that it lives on to empty its queue."""

    def __init__(self, file: IO[str], on_closed: Callable[[], None] | None = None) -> None:
        self._file = file
        self._on_closed = on_closed
        self.closed_terminal = False
        """Whether a write or a flush has failed (nothing is written after that)."""

    def _failed(self) -> None:
        self.closed_terminal = True
        if self._on_closed is not None:
            self._on_closed()

    def write(self, text: str) -> int:
        """Write ``text``, or drop it once the terminal is gone; its length."""
        if not self.closed_terminal:
            try:
                self._file.write(text)
            except (OSError, ValueError):
                self._failed()
        return len(text)

    def flush(self) -> None:
        """Flush, or nothing once the terminal is gone."""
        if not self.closed_terminal:
            try:
                self._file.flush()
            except (OSError, ValueError):
                self._failed()

    def fileno(self) -> int:
        """The underlying file's descriptor."""
        return self._file.fileno()

    def isatty(self) -> bool:
        """Whether the underlying file is a terminal."""
        return self._file.isatty()


class SafeLinuxDriver(LinuxDriver):
    """Textual's Linux driver, safe when its terminal hangs up (module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # made on the app's loop: self._loop is it
        if self._file is not None:
            tolerant = ClosedTerminalTolerant(self._file, self._terminal_closed)
            self._file = tolerant  # type: ignore[assignment]  # Textual only writes to it

    def start_application_mode(self) -> None:
        """Textual's start, then the hang-up watcher (module docstring)."""
        super().start_application_mode()  # type: ignore[no-untyped-call]
        self._stop_watching = threading.Event()
        threading.Thread(
            target=self._watch_for_hang_up, daemon=True, name="yatzy-hangup-watch"
        ).start()

    def stop_application_mode(self) -> None:
        """The watcher stops, then Textual's stop."""
        stop = getattr(self, "_stop_watching", None)
        if stop is not None:
            stop.set()
        super().stop_application_mode()

    def _watch_for_hang_up(self) -> None:
        """Poll the terminal (no events asked: only a hang-up or an error is reported,
        and no input is read) until it hangs up or the app leaves application mode."""
        poller = select.poll()
        poller.register(self.fileno, 0)
        while not self._stop_watching.is_set():
            reported = 0
            for _, events in poller.poll(500):
                reported |= events
            if reported & select.POLLNVAL:  # not an open file (any more): nothing to watch
                return
            if reported & (select.POLLHUP | select.POLLERR):
                self._terminal_closed()
                return

    def _terminal_closed(self) -> None:
        """The terminal hung up (a write failed, or the watcher saw it): the app is
        told so, as ``SIGHUP`` would tell it; without waiting (this may be the output
        thread, which must go on emptying its queue)."""
        hang_up = getattr(self._app, "hang_up", None)
        if hang_up is None:
            return
        with contextlib.suppress(RuntimeError):  # the loop has ended: nothing to do
            self._loop.call_soon_threadsafe(hang_up, signal.SIGHUP)


def driver_class() -> type[LinuxDriver] | None:
    """The driver for the full-screen game on this platform: :class:`SafeLinuxDriver`
    where Textual would use its Linux driver, else ``None`` (Textual's choice)."""
    if sys.platform == "win32":
        return None
    return SafeLinuxDriver
