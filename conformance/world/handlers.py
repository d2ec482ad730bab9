"""Dynamic routes of the mock world: endpoints whose answer depends on the request.

A static route (``conformance.world.site.Route``) answers the same bytes to everyone; an
invocation endpoint (WoA's REST transport, a search API) must read the request body and
compute its reply. Such a route names a handler here. The names are a closed list: a site
file (or anything a target serves) can only pick one of these, never name code to run.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Callable

from werkzeug import Request, Response

if TYPE_CHECKING:
    from conformance.world.site import Route, Site

#: Handler name -> "module:function"; the function takes (site, route, request) and returns
#: a Werkzeug response.
HANDLERS: dict[str, str] = {
    "woa.invoke": "conformance.woa.reference:invoke",
    "woa.client-mcp": "conformance.woa._client_fixtures:mcp_answer",
    "aidre.collections": "conformance.aidre.reference:collections",
    "aidre.search": "conformance.aidre.reference:search",
    "aidre.chunk": "conformance.aidre.reference:chunk",
    "aidre.scenario_search": "conformance.aidre.scenario_server:search",
    "adp.discover": "conformance.adp.reference:discover",
    "adp.agent": "conformance.adp.reference:agent",
    "adp.client-scenario": "conformance.adp._client_fixtures:answer",
}

#: Bytes of request body a handler reads at most (a larger body is answered 413).
MAX_REQUEST_BODY = 1024 * 1024


def request_body(request: Request) -> bytes | None:
    """The request's body, or None when it is larger than :data:`MAX_REQUEST_BODY`.

    pytest-httpserver reads the whole body before a handler runs (to match and log the
    request), so the body is taken from Werkzeug's cache; the cap is the handler's view."""
    try:
        data = request.get_data(cache=True)
    except Exception:  # noqa: BLE001 - a cut body
        return None
    return data if len(data) <= MAX_REQUEST_BODY else None


def answer(site: "Site", route: "Route", request: Request) -> Response:
    """What the route's handler answers to ``request``."""
    target = HANDLERS.get(route.handler or "")
    if target is None:
        raise ValueError(f"unknown route handler {route.handler!r}; known: {sorted(HANDLERS)}")
    module, _, name = target.partition(":")
    function: Callable[["Site", "Route", Request], Response] = getattr(importlib.import_module(module), name)
    return function(site, route, request)
