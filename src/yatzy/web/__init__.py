"""The web app: FastAPI routes, a WebSocket hub and the browser front end.

Routes are thin adapters over :class:`yatzy.web.service.GameService`, which drives
the core engine; the core decides every rule.  Build the app with
:func:`yatzy.web.app.create_app` (settings, lifespan, middleware); its routes are
the routers of :mod:`yatzy.web.routes`, which take what they need through
:mod:`yatzy.web.deps` and answer the views of :mod:`yatzy.web.models`.
``yatzy serve`` runs it.
"""

from __future__ import annotations
