"""Free text in a game, between friends only (issue 26).

Preset phrases (:mod:`yatzy.web.talk`) are public: any viewer of a game reads them.
Free text is not: a signed-in player of a game (a seat held by their account) writes
a line that goes only to the other players of that game whose accounts are their
friends, and nobody else ever receives it — not spectators, not guests, not other
players, not the game's view, record, moves, protocols or history.  The rules:

* **Who writes**: a signed-in account that holds a seat of the game, with at least
  one friend among the game's other players (:class:`MessageRefusedError`, 403,
  says which of these is missing; nothing is stored).
* **What**: 1 to :data:`MAX_TEXT` characters once trimmed, NFC-normalised, no
  control, format or private-use characters (:class:`BadMessageError`, 422, quotes
  the fault).  A rate limit of its own (``text`` in :class:`yatzy.web.limits.Limits`),
  and a game keeps its latest :data:`yatzy.store.messages.KEPT` lines.
* **Who reads**: the writer, and those it was delivered to as long as they have
  been the writer's friends ever since (read anew at every read: a block or an
  unfriending hides the earlier lines too, for good), and hold a seat of the game.
* **Live**: a line written nudges the sockets of the writer and of its audience only
  (``{"type": "messages", "game": id}``, no text: the page then reads its lines with
  ``GET /api/games/{id}/messages``); on PostgreSQL through every server process
  (:data:`yatzy.store.messages.MESSAGES_CHANNEL`).
"""

from __future__ import annotations

import asyncio
import unicodedata
from collections.abc import Callable

from typing_extensions import TypedDict

from yatzy.errors import YatzyError
from yatzy.game.names import character_fault
from yatzy.store import GameRepository
from yatzy.store.accounts import Account, account_owner, owner_hash
from yatzy.store.messages import KEPT, Message, MessageStore

MAX_TEXT = 200
"""The longest line, in characters after trimming (the page's ``maxlength``)."""


class MessageRefusedError(YatzyError):
    """Free text refused to this person in this game (a guest, a spectator, no friend
    among the other players): 403, with the reason."""

    http_status = 403


class BadMessageError(YatzyError):
    """A line that is empty, too long, or holds a character a line may not (quoted)."""

    http_status = 422


def check_text(text: str) -> str:
    """``text`` NFC-normalised and trimmed, if it may be a line: 1 to
    :data:`MAX_TEXT` characters without control, format (bidi overrides, invisible
    characters; the joiners emoji need are kept), private-use or unassigned
    characters, nor line breaks; else :class:`BadMessageError`."""
    normal = unicodedata.normalize("NFC", text)
    for ch in normal:
        fault = character_fault(ch)
        if fault is not None:
            raise BadMessageError(f"the text holds a {fault}")
    line = normal.strip()
    if not line:
        raise BadMessageError("the text is empty")
    if len(line) > MAX_TEXT:
        raise BadMessageError(f"the text has {len(line)} characters, more than {MAX_TEXT}")
    return line


class MessageLineView(TypedDict):
    """A line of free text as its reader gets it: its id (lines come in id order),
    the writer's seat and account name, the text (plain text: a page shows it as
    text, never as HTML), whether the reader wrote it, and when (ISO 8601, UTC)."""

    id: int
    seat: int
    name: str
    text: str
    mine: bool
    created: str


class MessagesView(TypedDict):
    """What a player of a game reads of its free text: the lines it may see (after
    the ``after`` id asked for), whether it may write (a friend plays too), the
    names of its friends among the other players (who will read a line), and the
    longest line."""

    lines: list[MessageLineView]
    can_write: bool
    friends: list[str]
    max_length: int


class MessageExport(TypedDict):
    """A line the account wrote, in its data export."""

    game: str
    seat: int
    text: str
    created: str


def _line(message: Message, viewer_id: str) -> MessageLineView:
    return {
        "id": message.id,
        "seat": message.seat,
        "name": message.sender,
        "text": message.text,
        "mine": message.sender_id == viewer_id,
        "created": message.created_at.isoformat(),
    }


Nudge = Callable[[str | None, set[str]], None]
"""Tells this process's sockets of these owner hashes (in this game; None: in any)
that their lines changed (:meth:`yatzy.web.hub.Hub.nudge_messages`)."""


class Messages:
    """The games' free text for one server process, over the game repository."""

    def __init__(self, repo: GameRepository) -> None:
        self.store = MessageStore(repo)
        self.nudge: Nudge | None = None
        """Nudges this process's sockets (the app sets it to the hub's)."""

    def _company(self, game_id: str, account: Account | None) -> tuple[Account, int, set[str]]:
        """The account (signed in), its first seat of the game and its friends among
        the game's other players; :class:`MessageRefusedError` for a guest or a
        viewer who holds no seat by their account (``NotFoundError``: no game)."""
        held = self.store.seats_held(game_id)
        if account is None:
            raise MessageRefusedError(
                "free text is for signed-in players: sign in to an account that holds a seat"
            )
        seats = held.get(owner_hash(account.owner))
        if not seats:
            raise MessageRefusedError(
                "only a player of this game, in a seat of their account, has its free text"
            )
        friends = {
            f
            for f in self.store.friends(account.id)
            if owner_hash(account_owner(f)) in held and f != account.id
        }
        return account, seats[0], friends

    def _read(self, game_id: str, account: Account | None, after: int) -> MessagesView:
        me, _seat, friends = self._company(game_id, account)
        names = self.store.names(friends)
        return {
            "lines": [_line(m, me.id) for m in self.store.visible(game_id, me.id, after)],
            "can_write": bool(friends),
            "friends": sorted(names.values(), key=str.casefold),
            "max_length": MAX_TEXT,
        }

    async def read(self, game_id: str, account: Account | None, after: int = 0) -> MessagesView:
        """The game's lines after the id ``after`` that ``account`` may read (see
        the module's text); :class:`MessageRefusedError` for anyone but a signed-in
        player of the game."""
        return await asyncio.to_thread(self._read, game_id, account, after)

    def _write(self, game_id: str, account: Account | None, text: str) -> tuple[int, set[str]]:
        me, seat, friends = self._company(game_id, account)
        if not friends:
            raise MessageRefusedError(
                "none of the other players of this game is your friend: "
                "free text goes to friends only"
            )
        line = check_text(text)
        new_id = self.store.add(game_id, me.id, seat, friends, line)
        return new_id, {me.id, *friends}

    async def write(self, game_id: str, account: Account | None, text: str) -> int:
        """Write ``text`` in the game as ``account`` to its friends among the other
        players (see the module's text); the new line's id.  The sockets of the
        writer and of its audience in this process are nudged (the other processes'
        by the store's notification)."""
        new_id, told = await asyncio.to_thread(self._write, game_id, account, text)
        self._nudge(game_id, told)
        return new_id

    async def ties_changed(self, *account_ids: str) -> None:
        """The ties between these accounts changed (a removal, a block): their pages
        in any game read their lines again, here and in every server process."""
        self._nudge(None, set(account_ids))
        await asyncio.to_thread(self.store.announce_ties, account_ids)

    def _nudge(self, game_id: str | None, account_ids: set[str]) -> None:
        if self.nudge is not None:
            self.nudge(game_id, {owner_hash(account_owner(a)) for a in account_ids})

    async def written_by(self, account: Account) -> list[MessageExport]:
        """Every line the account wrote (its data export), oldest first."""
        lines = await asyncio.to_thread(self.store.written_by, account.id)
        return [
            {"game": m.game_id, "seat": m.seat, "text": m.text, "created": m.created_at.isoformat()}
            for m in lines
        ]


__all__ = [
    "KEPT",
    "MAX_TEXT",
    "BadMessageError",
    "MessageExport",
    "MessageLineView",
    "MessageRefusedError",
    "Messages",
    "MessagesView",
    "check_text",
]
