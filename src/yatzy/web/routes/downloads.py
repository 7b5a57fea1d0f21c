"""A game's protocol (ongoing or finished) as a printable PDF or an Excel sheet."""

from __future__ import annotations

import asyncio
import io
from typing import Any, Literal

from fastapi import APIRouter
from fastapi.responses import Response

from yatzy.rules import Language
from yatzy.web.deps import GameId, Service
from yatzy.web.inputs import StrictJSONRoute, refusals

router = APIRouter(tags=["api"], route_class=StrictJSONRoute)

PROTOCOL_TYPES = {
    "pdf": "application/pdf",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
"""The media type of each protocol format."""


@router.get(
    "/api/games/{game_id}/protocol.{fmt}",
    response_class=Response,
    responses={
        200: {
            "description": "The protocol file (an attachment)",
            "content": {media: {} for media in PROTOCOL_TYPES.values()},
        },
        **refusals(404, 503),
    },
)
async def game_protocol(
    game_id: GameId,
    fmt: Literal["pdf", "xlsx"],
    service: Service,
    lang: Language | None = None,
) -> Response:
    """The game's protocol (ongoing or finished) as a printable PDF or an Excel
    sheet with live formulas, in the game's language unless ``lang`` is given."""
    stored = await service.stored(game_id)
    words: Any = lang or stored.lang  # a stored game's language is one of the catalog's
    body = await asyncio.to_thread(protocol_file, stored.record, fmt, words)
    return Response(
        body,
        media_type=PROTOCOL_TYPES[fmt],
        headers={"Content-Disposition": f'attachment; filename="yatzy-{game_id}.{fmt}"'},
    )


def protocol_file(record: str, fmt: str, lang: Language) -> bytes:
    """Render a stored game's protocol (the protocols adapter, imported on first use)."""
    from yatzy.game import loads
    from yatzy.protocols import Protocol

    protocol = Protocol.from_state(loads(record), lang)
    out = io.BytesIO()
    if fmt == "pdf":
        from yatzy.protocols.pdf import write_pdf

        write_pdf(protocol, out)
    else:
        from yatzy.protocols.xlsx import write_xlsx

        write_xlsx(protocol, out)
    return out.getvalue()
