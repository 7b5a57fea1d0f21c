"""The HTML pages, the web app manifest and the invite QR code: a router of thin adapters.

Every page is rendered in the player's language: ``?lang=`` (remembered in the
``yz_lang`` cookie), else the cookie, else the browser's ``Accept-Language``.  A game
page speaks the game's language only where the browser asks for none of ours (see
:func:`game_page`).  Pages put ``<base href>`` at
the app's root (``root_path`` behind a reverse proxy), and every URL in the
templates and scripts is relative to it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates

from yatzy.errors import YatzyError
from yatzy.rules import CATEGORIES, LANGUAGES, VARIANTS, Language, label, parse_spec
from yatzy.web import catalog
from yatzy.web.assets import static_prefix
from yatzy.web.deps import Daily, GameId, Owner, Service, note_account
from yatzy.web.hints import advisor_available
from yatzy.web.i18n import LANGUAGE_NAMES, ui_strings
from yatzy.web.models import HistoryEntry
from yatzy.web.service import bot_levels
from yatzy.web.views import ROW_KEYS

HERE = Path(__file__).parent.parent  # yatzy/web: its templates/
LANG_COOKIE = "yz_lang"
LANG_AGE = 400 * 24 * 3600
THEME = "#14532d"

templates = Jinja2Templates(directory=str(HERE / "templates"))
templates.env.globals["static"] = static_prefix()  # the static files' versioned path
# every page's header names the signed-in account (request.state.account)
router = APIRouter(include_in_schema=False, dependencies=[Depends(note_account)])


def root_of(request: Request) -> str:
    """The app's path prefix (``""`` unless served under one)."""
    return str(request.scope.get("root_path", "")).rstrip("/")


def accepted_language(header: str) -> Language | None:
    """The first of the page languages an ``Accept-Language`` header asks for."""
    ranked = []
    for i, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            key, _, value = p.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        ranked.append((-q, i, tag.strip().lower()[:2]))
    for _, _, tag in sorted(ranked):
        if tag in LANGUAGES:
            return tag
    return None


def lang_of(request: Request) -> Language:
    """The player's language: ``?lang=``, the remembered choice, or the browser's."""
    for candidate in (request.query_params.get("lang"), request.cookies.get(LANG_COOKIE)):
        if candidate in LANGUAGES:
            return candidate
    return accepted_language(request.headers.get("accept-language", "")) or "en"


def _page(request: Request, template: str, lang: Language, **context: Any) -> HTMLResponse:
    """Render ``template`` with the words and links every page has; remember a
    language chosen by ``?lang=``."""
    root = root_of(request)
    path = request.url.path[len(root) :].lstrip("/")
    query = {k: v for k, v in request.query_params.items() if k != "lang"}
    lang_links = {other: f"{path}?{urlencode({**query, 'lang': other})}" for other in LANGUAGES}
    response = templates.TemplateResponse(
        request,
        template,
        {
            "lang": lang,
            "t": ui_strings(lang),
            "root": root,
            "languages": LANGUAGES,
            "language_names": LANGUAGE_NAMES,
            "theme": THEME,
            "page_path": path,
            "lang_links": lang_links,
            **context,
        },
    )
    # Pages are asked for anew every time (they name the static files' version).
    response.headers["Cache-Control"] = "no-cache"
    chosen = request.query_params.get("lang")
    if chosen in LANGUAGES and request.cookies.get(LANG_COOKIE) != chosen:
        response.set_cookie(
            LANG_COOKIE, chosen, max_age=LANG_AGE, samesite="lax", path=(root or "") + "/"
        )
    return response


def render(request: Request, template: str, lang: Language, **context: Any) -> HTMLResponse:
    """A page of another router, rendered as these are (see :func:`_page`)."""
    return _page(request, template, lang, **context)


@router.get("/", response_class=HTMLResponse)
async def index(request: Request) -> HTMLResponse:
    """The start page: ways to play, rules presets, house rules, bot levels."""
    lang = lang_of(request)
    presets = [
        {
            "id": p.id,
            "spec": p.spec,
            "variant": parse_spec(p.spec).variant,
            "name": catalog.pick(p.name, lang),
            "summary": catalog.pick(p.summary, lang),
        }
        for p in catalog.PRESETS
    ]
    return _page(
        request,
        "index.html",
        lang,
        presets=presets,
        variants=list(VARIANTS),
        house_rules={v: catalog.house_rules(v, lang) for v in VARIANTS},
        bots=catalog.bot_choices(bot_levels(), lang),
        default_bot=catalog.DEFAULT_BOT,
        names=catalog.DEFAULT_NAMES[lang],
        computer=catalog.pick(catalog.COMPUTER, lang),
        hints=advisor_available(),
    )


@router.get("/g/{game_id}", response_class=HTMLResponse)
async def game_page(request: Request, game_id: GameId, service: Service) -> Response:
    """A game: play, watch or join (``?invite=``).

    The page speaks each viewer's language, as every page does (``?lang=``, the
    remembered choice, the browser's ``Accept-Language``), and the game's where the
    browser asks for none of ours: an invited guest and a spectator read their own,
    not the maker's.  The names of its boxes and rows come with the page in that
    language, so players of one game may each read their own.
    """
    stored = await service.stored(game_id)
    chosen = request.query_params.get("lang") or request.cookies.get(LANG_COOKIE)
    if chosen not in LANGUAGES:
        chosen = accepted_language(request.headers.get("accept-language", ""))
    lang: Language = chosen if chosen in LANGUAGES else stored.lang  # type: ignore[assignment]
    rules = parse_spec(stored.rules)
    boxes = {
        b: {"name": rules.box_name(b, lang), "help": catalog.box_help(rules, b, lang)}
        for b in rules.boxes
    }
    return _page(
        request,
        "game.html",
        lang,
        game_id=game_id,
        variant=rules.variant,
        rules_words=catalog.rules_name(stored.rules, lang),
        boxes=boxes,
        labels={k: label(k, lang) for k in ROW_KEYS},
        rated=await asyncio.to_thread(service.rated.is_rated, game_id),
    )


@router.get("/history", response_class=HTMLResponse)
async def history_page(request: Request, service: Service, owner: Owner) -> HTMLResponse:
    """The games of this browser."""
    lang = lang_of(request)
    games: list[HistoryEntry] = []
    if owner:
        games = await service.history(owner, lang)
    return _page(request, "history.html", lang, games=games)


@router.get("/daily", response_class=HTMLResponse)
async def daily_page(
    request: Request,
    daily: Daily,
    owner: Owner,
    day: str | None = Query(None, max_length=10),
    rules: str | None = Query(None, max_length=200),
) -> HTMLResponse:
    """The daily challenges: today's, to play once, the calendar of past days, and a
    challenge's leaderboard (``?day=&rules=``; today's once this browser played it)."""
    lang = lang_of(request)
    overview = await daily.overview(owner, lang)
    board, refused = None, None
    if day is not None and rules is not None:
        try:
            board = await daily.board(day, rules, owner)
        except YatzyError as exc:
            refused = type(exc).__name__
    title = catalog.rules_name(board["rules"], lang) if board else None
    return _page(
        request,
        "daily.html",
        lang,
        daily=overview,
        board=board,
        board_title=title,
        refused=refused,
    )


EXAMPLES: dict[str, list[tuple[str, tuple[int, ...], int | None]]] = {
    # the rule sheets' examples (RULES.md "Examples from the sheets"); the points are
    # the core's
    "yatzy": [
        ("threes", (3, 3, 3, 3, 1), None),
        ("four_of_a_kind", (3, 3, 3, 3, 1), None),
        ("chance", (3, 3, 3, 3, 1), None),
        ("two_pairs", (3, 3, 4, 4, 1), None),
        ("three_of_a_kind", (5, 5, 5, 2, 1), None),
        ("full_house", (2, 2, 2, 4, 4), None),
        ("one_pair", (5, 5, 6, 6, 2), None),
        ("full_house", (6, 6, 6, 2, 2), None),
        ("sixes", (6, 6, 6, 2, 4), None),
        ("three_of_a_kind", (6, 6, 6, 2, 4), None),
        ("chance", (1, 5, 4, 3, 3), None),
    ],
    "yahtzee": [
        ("three_of_a_kind", (5, 5, 5, 2, 4), None),
        ("four_of_a_kind", (1, 1, 1, 1, 3), None),
        ("full_house", (2, 2, 2, 3, 3), None),
        ("small_straight", (2, 3, 4, 5, 5), None),
        ("large_straight", (2, 3, 4, 5, 6), None),
        ("chance", (2, 3, 5, 6, 6), None),
    ],
    "maxi": [
        ("three_pairs", (2, 2, 4, 4, 6, 6), None),
        ("full_straight", (1, 2, 3, 4, 5, 6), None),
        ("full_house", (5, 5, 5, 3, 3, 1), None),
        ("villa", (2, 2, 2, 5, 5, 5), None),
        ("tower", (4, 4, 4, 4, 6, 6), None),
        ("maxi_yatzy", (6, 6, 6, 6, 6, 6), None),
    ],
    "dubbel": [
        ("full_house", (6, 6, 4, 3, 3, 3), 4),  # the outer dice, the 4 dropped
        ("small_straight", (5, 4, 3, 2, 2, 1), 2),  # the inner dice, a 2 dropped
    ],
}


@router.get("/rules/{variant}", response_class=HTMLResponse)
async def rules_page(request: Request, variant: str) -> Response:
    """How to play ``variant``: the turn, every box with what it scores, the sheets'
    examples and the house rules, in the player's language."""
    lang = lang_of(request)
    if variant not in VARIANTS:
        return JSONResponse(
            {"detail": f"no rules page for {variant!r}; valid: {', '.join(VARIANTS)}"}, 404
        )
    rules = parse_spec(variant)
    boxes = [
        {
            "id": b,
            "name": rules.box_name(b, lang),
            "help": catalog.box_help(rules, b, lang, dubbel_note=False),
            "section": CATEGORIES[b].section,
        }
        for b in rules.boxes
    ]
    examples = [
        {
            "box": rules.box_name(box, lang),
            "dice": "-".join(map(str, dice)),
            "drop": drop,
            "points": rules.score(box, dice)
            if drop is None
            else rules.score_dropped(box, dice, drop),
        }
        for box, dice, drop in EXAMPLES.get(variant, [])
    ]
    return _page(
        request,
        "rules.html",
        lang,
        variant=variant,
        title=VARIANTS[variant].title[lang],
        rules=rules,
        boxes=boxes,
        examples=examples,
        house_rules=catalog.house_rules(variant, lang),
        all_variants=[(v, VARIANTS[v].title[lang]) for v in VARIANTS],
    )


@router.get("/manifest.webmanifest")
async def manifest(request: Request) -> Response:
    """The web app manifest: a phone can add the app to its home screen."""
    import orjson

    lang = lang_of(request)
    body = {
        "name": "Yatzy",
        "short_name": "Yatzy",
        "description": ui_strings(lang)["tagline"],
        "lang": lang,
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": "#f7f5ef",
        "theme_color": THEME,
        "icons": [
            {"src": "static/icon.svg", "sizes": "any", "type": "image/svg+xml"},
            {"src": "static/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": "static/icon-512.png", "sizes": "512x512", "type": "image/png"},
            {
                "src": "static/icon-512.png",
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    return Response(orjson.dumps(body), media_type="application/manifest+json")


@router.get("/qr.svg")
async def qr_code(
    text: str = Query(min_length=1, max_length=400, description="what the code says"),
) -> Response:
    """``text`` (an invite link) as a QR code in SVG, drawn on the server."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=4, dark="#000", light="#fff")
    return Response(
        out.getvalue(),
        media_type="image/svg+xml",
        headers={"Cache-Control": "private, max-age=3600"},
    )
