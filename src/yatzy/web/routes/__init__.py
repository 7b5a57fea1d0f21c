"""The web app's routes, one :class:`fastapi.APIRouter` per concern.

* :mod:`.pages`: the HTML pages, the manifest and the invite's QR code;
* :mod:`.rules`: what the server offers (``/api/rules``);
* :mod:`.games`: creating, reading and joining games, their record and moves;
* :mod:`.actions`: a game's actions (``POST .../actions``);
* :mod:`.messages`: a game's free text between friends (``.../messages``);
* :mod:`.clocks`: a timed game's absences (``POST .../clock``);
* :mod:`.sockets`: a game's WebSocket;
* :mod:`.downloads`: a game's protocol as PDF or Excel;
* :mod:`.analysis`: a game's analysis in points and in win chance;
* :mod:`.owner`: this browser's history and statistics, and the terminal's owner link;
* :mod:`.account`: accounts (sign up, log in, sessions, export, deletion) and their pages;
* :mod:`.push`: Web Push: the key, devices, settings and the service worker;
* :mod:`.lobby`: the lobby (seeks, play someone now) and invitations of friends;
* :mod:`.daily`: the daily challenges (today's, a browser's game, the leaderboards);
* :mod:`.ratings`: the leaderboards and the players' ratings and skill index;
* :mod:`.tournaments`: tournaments (the list, creating, joining, standings) and their pages;
* :mod:`.docs`: the API's documentation page, with Swagger UI served from a package.

Each takes what it needs through :mod:`yatzy.web.deps`; :data:`ROUTERS` is the
order :func:`yatzy.web.app.create_app` includes them in.
"""

from __future__ import annotations

from fastapi import APIRouter

from yatzy.web.routes import (
    account,
    actions,
    analysis,
    clocks,
    daily,
    docs,
    downloads,
    games,
    lobby,
    messages,
    owner,
    pages,
    push,
    ratings,
    rules,
    sockets,
    tournaments,
)

ROUTERS: tuple[APIRouter, ...] = (
    pages.router,
    owner.router,
    rules.router,
    games.router,
    actions.router,
    messages.router,
    clocks.router,
    downloads.router,
    analysis.router,
    daily.router,
    tournaments.router,
    sockets.router,
    docs.router,
    account.router,
    push.router,
    ratings.router,
    ratings.pages,
    lobby.router,
)
"""Every router of the app."""

__all__ = ["ROUTERS"]
