"""Dynamic routes of the mock world: endpoints whose answer depends on the request.

A static route (``conformance.world.site.Route``) answers the same bytes to everyone; an
invocation endpoint (WoA's REST transport, a search API) must read the request body and
compute its reply. Such a route names a handler, which each draft's profile lists
(``[world.handlers]`` of ``profiles/<draft>/profile.toml``: the draft's own code, named as
data, so the world names no draft). The names are a closed list: a site file (or anything a
target serves) can only pick one of these, never name code to run.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING, Callable

from werkzeug import Request, Response

if TYPE_CHECKING:
    from conformance.world.site import Route, Site

@cache
def handlers() -> dict[str, str]:
    """Handler name -> "module:function", every draft's (``[world.handlers]`` of its profile);
    the function takes (site, route, request) and returns a Werkzeug response. Read once: every
    dynamic request of the mock world looks its handler up here."""
    from conformance import catalog

    out: dict[str, str] = {}
    for draft in catalog.available():
        out.update(catalog.load(draft).world_handlers)
    return out


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
    known = handlers()
    target = known.get(route.handler or "")
    if target is None:
        raise ValueError(f"unknown route handler {route.handler!r}; known: {sorted(known)}")
    module, _, name = target.partition(":")
    function: Callable[["Site", "Route", Request], Response] = getattr(importlib.import_module(module), name)
    return function(site, route, request)
