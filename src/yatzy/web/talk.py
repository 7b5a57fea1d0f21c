"""What players may say to each other during a game: preset phrases, each shown to
every viewer in the viewer's own language (a Swede writes "Lycka till!", a Finn reads
"Onnea!").  Free text, which needs friends and moderation, is not here.

A phrase is stored as a move of its own (``{"say": "good_luck"}``, the seat that said
it), so it reaches the game's other server processes the way moves do; each process
keeps the last :data:`KEPT` phrases of a game in memory for the game's view.
"""

from __future__ import annotations

from collections import deque
from threading import Lock

from yatzy.errors import YatzyError
from yatzy.web.models import TalkLine

PHRASES: tuple[str, ...] = (
    "hello",
    "good_luck",
    "nice_roll",
    "so_close",
    "well_played",
    "thanks",
    "oops",
    "bye",
)
"""The phrases, by key; their words are the catalog's ``web.talk_<key>``."""
KEPT = 6
"""How many of a game's latest phrases its view shows."""


class UnknownPhraseError(YatzyError):
    """A phrase that is not one of :data:`PHRASES` (quoted)."""


def check_phrase(phrase: str) -> str:
    """``phrase`` if it is one of :data:`PHRASES`, else :class:`UnknownPhraseError`."""
    if phrase not in PHRASES:
        raise UnknownPhraseError(f"phrase {phrase!r} is not one of {', '.join(PHRASES)}")
    return phrase


class Talk:
    """The latest phrases of each game this process has seen said."""

    def __init__(self, games: int = 2000) -> None:
        self._lines: dict[str, deque[TalkLine]] = {}
        self._games = games
        self._lock = Lock()

    def heard(self, game_id: str, seat: int, phrase: str, version: int) -> None:
        """Keep a phrase said at ``version`` (a known phrase only; others are ignored,
        as a newer server may know more)."""
        if phrase not in PHRASES:
            return
        with self._lock:
            lines = self._lines.pop(game_id, None) or deque(maxlen=KEPT)
            if not any(line["version"] == version for line in lines):
                lines.append({"seat": seat, "phrase": phrase, "version": version})
            self._lines[game_id] = lines  # the most recently talked-in game last
            while len(self._lines) > self._games:
                del self._lines[next(iter(self._lines))]

    def lines(self, game_id: str) -> list[TalkLine]:
        """The game's latest phrases, oldest first."""
        with self._lock:
            return list(self._lines.get(game_id, ()))
