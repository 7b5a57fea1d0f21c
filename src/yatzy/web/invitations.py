"""Invitations (issue 26): a signed-in player invites friends straight into a new
game or a rematch, with no link to copy.  Each invited friend finds the invitation
in their header and on their account page; one tap seats them on their account
(every device of theirs then holds the seat), or they decline.

Only friends are invited (a friendship both ways, which a block ends); an invitation
stands until its seat is taken, it is declined, its game is over, or a day has
passed.  A rematch is a new game of the same rules and settings with the same
players: the inviter's friends are invited again, computers play again, and any
other person's seat waits for the game's invite link as before.

:meth:`Invitations.create` is the one place an invitation is made: a notification
layer (Web Push) hooks "invitation created" there, through :attr:`Invitations.listeners`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import timedelta
from typing import Any

from yatzy.errors import YatzyError
from yatzy.store.accounts import Account, AccountStore, owner_hash
from yatzy.store.lobby import Invitation, InvitationStore
from yatzy.web.accounts import NoSuchAccountError, name_key
from yatzy.web.clocks import ClockSetting
from yatzy.web.lobby import Lobby, check_game, check_time_control
from yatzy.web.service import MAX_SEATS, SeatRequest
from yatzy.web.views import bot_to_act

INVITATION_LIFETIME = timedelta(days=1)
"""How long an unanswered invitation stands (unless its game ends first)."""

log = logging.getLogger(__name__)


class NotFriendsError(YatzyError):
    """An invitation of an account that is not the inviter's friend (or blocked)."""

    http_status = 403


class InvitationGoneError(YatzyError):
    """An invitation answered, expired, or whose game is over or seat taken."""

    http_status = 409


class NotYourGameError(YatzyError):
    """A rematch of a game the asker did not play."""

    http_status = 403


class Invitations:
    """The invitations of one server process (the store is shared by every one)."""

    def __init__(self, lobby: Lobby, accounts: AccountStore) -> None:
        self.lobby = lobby
        self.store = InvitationStore(lobby.games.service.repo)
        self.accounts = accounts
        self.listeners: list[Callable[[Invitation], None]] = []
        """Called with each invitation as it is made (see :meth:`create`)."""

    def create(self, game_id: str, seat: int, inviter: Account, friend: Account) -> Invitation:
        """Make one invitation of ``friend`` to ``seat`` of ``game_id`` and tell the
        :attr:`listeners`: **the one function where an invitation is created** (a
        notification layer hooks here; a listener that fails is logged, never the
        invitation's undoing).  Runs in a worker thread."""
        now = self.lobby.clock()
        invitation_id = self.store.add(
            game_id, seat, inviter.id, friend.id, now, INVITATION_LIFETIME
        )
        self.lobby.games.service.invited.invited(game_id)  # the game waits for them
        invitation = replace(self.store.get(invitation_id, friend.id), to_name=friend.name)
        for listener in self.listeners:
            try:
                listener(invitation)
            except Exception:  # a notifier's failure must not undo the invitation
                log.exception("an invitation listener failed")
        return invitation

    def _friends(self, inviter: Account, names: Sequence[str]) -> list[Account]:
        """The accounts named, each the inviter's friend; else the refusal (an unknown
        name 404, one who is not a friend, or blocked, 403)."""
        out: list[Account] = []
        for name in names:
            friend = self.accounts.by_name(name_key(name)) if len(name) <= 200 else None
            if friend is None or friend.id == inviter.id:
                raise NoSuchAccountError(f"no other account is named {name!r}")
            if not self.store.are_friends(inviter.id, friend.id):
                raise NotFriendsError(f"{friend.name!r} is not your friend")
            if friend.id not in {f.id for f in out}:
                out.append(friend)
        return out

    async def new_game(
        self,
        inviter: Account,
        rules: str,
        lang: str,
        friends: Sequence[str],
        *,
        hints: bool = False,
        bots: Sequence[str] = (),
        time_control: Any = None,
    ) -> tuple[str, list[Invitation]]:
        """A new game of the inviter (seated on the account), its friends ``friends``
        (each invited to a seat) and computers of ``bots``; its id and invitations.
        ``time_control`` is the game's clock, as a seek's (checked by
        :func:`yatzy.web.lobby.check_time_control`; it starts once everyone joined).
        The game starts once every friend has joined or their invitation stopped
        standing (:mod:`yatzy.web.awaiting`): its computers wait until then."""
        if not friends:
            raise YatzyError("invite at least one friend")
        clock = check_time_control(time_control)
        people = await asyncio.to_thread(self._friends, inviter, friends)
        if 1 + len(people) + len(bots) > MAX_SEATS:
            raise YatzyError(f"at most {MAX_SEATS} seats")
        spec = check_game(rules, lang, 2, hints)
        game_id = await self.lobby.games.start(
            spec,
            lang,
            [(inviter.id, inviter.name)],
            hints=hints,
            bots=bots,
            time_control=clock,
            open_seats=[f.name for f in people],
            kick=False,  # not before the invitations: the computers wait for them
        )
        made = await asyncio.to_thread(
            lambda: [self.create(game_id, 1 + i, inviter, f) for i, f in enumerate(people)]
        )
        await self.go_on(game_id)
        return game_id, made

    async def rematch(self, inviter: Account, game_id: str) -> tuple[str, list[Invitation]]:
        """A new game like the finished ``game_id`` (rules, language, hints, the
        players in their seats), the inviter seated, its friends invited again; its id
        and invitations."""
        stored = await self.lobby.games.service.stored(game_id)
        mine = owner_hash(inviter.owner)
        if not any(s.owner_hash == mine for s in stored.seats):
            raise NotYourGameError("only a player of the game may ask for a rematch")
        if not stored.finished:
            raise InvitationGoneError("the game is not over yet")
        if stored.pad:
            raise YatzyError("a score pad game is played on one device: start it anew")

        def plan() -> tuple[list[tuple[int, Account]], dict[int, str]]:
            invited: list[tuple[int, Account]] = []
            seated: dict[int, str] = {}
            for seat in stored.seats:
                if seat.bot is not None or seat.owner_hash is None:
                    continue
                if seat.owner_hash == mine:
                    seated[seat.seat] = inviter.id
                    continue
                friend = self.accounts.by_name(name_key(seat.name))
                if (
                    friend is not None
                    and owner_hash(friend.owner) == seat.owner_hash
                    and self.store.are_friends(inviter.id, friend.id)
                ):
                    invited.append((seat.seat, friend))
            return invited, seated

        invited, seated = await asyncio.to_thread(plan)
        service = self.lobby.games.service
        created = await service.create(
            stored.rules,
            stored.lang,
            [SeatRequest(s.name, s.bot) for s in stored.seats],
            hints=stored.hints,
            clock=await self._clock_of(game_id),  # the same time per turn again
        )
        new_id = created.game_id
        await self.lobby.games.seat(new_id, seated)
        made = await asyncio.to_thread(
            lambda: [self.create(new_id, seat, inviter, f) for seat, f in invited]
        )
        await self.go_on(new_id)
        return new_id, made

    async def go_on(self, game_id: str) -> None:
        """Start the game's computers if one is to move (they move only once no
        invited friend is awaited: :meth:`yatzy.web.service.GameService.bot_step`)."""
        view = await self.lobby.games.service.public_view(game_id)
        if self.lobby.games.bots is not None and bot_to_act(view):
            self.lobby.games.bots.kick(game_id)

    async def _clock_of(self, game_id: str) -> ClockSetting | None:
        """The clock of a game (None: untimed), for its rematch."""
        row = await self.lobby.games.service.clocks.row(game_id)
        if row is None:
            return None
        return ClockSetting("live" if row.mode == "live" else "daily", row.seconds)

    async def pending(self, account: Account) -> list[Invitation]:
        """The account's invitations that stand, the newest first."""
        return await asyncio.to_thread(self.store.pending, account.id, self.lobby.clock())

    async def accept(self, account: Account, invitation_id: str) -> tuple[str, int]:
        """Take the invitation's seat on the account; the game's id and new version."""
        now = self.lobby.clock()
        invitation = await asyncio.to_thread(self.store.get, invitation_id, account.id)
        standing = await asyncio.to_thread(self.store.pending, account.id, now)
        if invitation.id not in {i.id for i in standing}:
            raise InvitationGoneError("the invitation no longer stands")
        version = await self.lobby.games.seat(invitation.game_id, {invitation.seat: account.id})
        if version is None:
            raise InvitationGoneError("the seat is taken")
        await asyncio.to_thread(self.store.answer, invitation.id, account.id, "accepted")
        await self.go_on(invitation.game_id)  # the last friend seated: the game starts
        return invitation.game_id, version

    async def decline(self, account: Account, invitation_id: str) -> str:
        """Say no to the invitation (its seat stays open for the game's invite link,
        and the game no longer waits for this friend); the game's id."""
        invitation = await asyncio.to_thread(self.store.get, invitation_id, account.id)  # 404
        if not await asyncio.to_thread(self.store.answer, invitation_id, account.id, "declined"):
            raise InvitationGoneError("the invitation was answered already")
        await self.go_on(invitation.game_id)
        return invitation.game_id


__all__ = [
    "INVITATION_LIFETIME",
    "InvitationGoneError",
    "Invitations",
    "NotFriendsError",
    "NotYourGameError",
]
