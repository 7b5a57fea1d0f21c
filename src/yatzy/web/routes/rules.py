"""What the server offers: rule sets, their options, languages, bot levels, hints."""

from __future__ import annotations

from fastapi import APIRouter

from yatzy.rules import LANGUAGES, OPTIONS, VARIANTS
from yatzy.web.hints import advisor_available
from yatzy.web.inputs import StrictJSONRoute
from yatzy.web.models import RulesInfo
from yatzy.web.responses import FastJSONResponse
from yatzy.web.service import bot_levels

router = APIRouter(tags=["api"], route_class=StrictJSONRoute)


@router.get("/api/rules", response_model=RulesInfo)
async def rules_info() -> FastJSONResponse:
    """Rule sets, their options, languages, bot levels and whether hints exist."""
    info: RulesInfo = {
        "variants": {
            v.name: {
                "title": dict(v.title),
                "num_dice": v.num_dice,
                "options": [
                    {
                        "name": o,
                        "kind": OPTIONS[o].kind,
                        "choices": list(OPTIONS[o].choices),
                        "help": OPTIONS[o].help,
                        "default": v.defaults.get(o),
                    }
                    for o in v.options
                ],
            }
            for v in VARIANTS.values()
        },
        "languages": list(LANGUAGES),
        "bots": bot_levels(),
        "hints": advisor_available(),
    }
    return FastJSONResponse(info)
