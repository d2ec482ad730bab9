"""Broken ADP clients: conformance levels (3.3)."""

from __future__ import annotations

import json
from urllib.parse import quote, quote_plus

from conformance.adp.reference_client import Need, ReferenceAdpClient


class RequiresFreshness(ReferenceAdpClient):
    """3.3: takes a candidate without freshness for a stale one, so a D1 answer yields nothing."""

    def usable(self, candidate) -> bool:
        return super().usable(candidate) and isinstance(candidate.get("freshness"), dict)


class GivesUpWithoutDiscover(ReferenceAdpClient):
    """3.3: a /discover that answers 404 or 501 is a failure; it never reads the metadata."""

    def candidates_of(self, base: str, need: Need) -> list[dict]:
        if not self.queries(need):
            return self.metadata(base, need)
        return self.candidates_in(self.json_of(self.post(self.discover_url(base, need), need.request), "discovery"))


class QueriesD0Publisher(ReferenceAdpClient):
    """3.3: sends the Discovery Request to every service, a D0 publisher included, before
    falling back to its metadata."""

    def queries(self, need: Need) -> bool:
        return True


class ProbesD0WithGet(ReferenceAdpClient):
    """3.3: asks a D0 publisher GET {base}/discover?q=... first, 'in case it can search'."""

    def metadata(self, base: str, need: Need) -> list[dict]:
        self.fetcher.fetch(self.discover_url(base, need) + "?q=onboarding", headers={"Accept": "application/json"})
        return super().metadata(base, need)


class QueriesD0AtSearchPath(ReferenceAdpClient):
    """3.3: asks a D0 publisher GET {base}/search?query=... (another path than /discover) first."""

    def metadata(self, base: str, need: Need) -> list[dict]:
        query = quote_plus(str(need.request.get("query", "")))
        self.fetcher.fetch(self.url(base, f"/search?query={query}"), headers={"Accept": "application/json"})
        return super().metadata(base, need)


class PostsD0ToQueryPath(ReferenceAdpClient):
    """3.3: POSTs the Discovery Request to a D0 publisher's {base}/query first."""

    def metadata(self, base: str, need: Need) -> list[dict]:
        self.fetcher.fetch(self.url(base, "/query"), method="POST", content=json.dumps(need.request).encode(),
                           headers={"Content-Type": "application/json", "Accept": "application/json"})
        return super().metadata(base, need)


class QueriesD0InPath(ReferenceAdpClient):
    """3.3: asks a D0 publisher GET {base}/agents/search/<the query's words> first."""

    def metadata(self, base: str, need: Need) -> list[dict]:
        self.fetcher.fetch(self.url(base, "/agents/search/" + quote(str(need.request.get("query", "")), safe="")),
                           headers={"Accept": "application/json"})
        return super().metadata(base, need)


class QueriesLaterD0Publishers(ReferenceAdpClient):
    """3.3: takes the level it is told for the first service's only: it sends the Discovery
    Request to every further service, D0 publishers included, before reading their metadata."""

    def candidates_of(self, base: str, need: Need) -> list[dict]:
        if base != need.services[0]:
            return super().candidates_of(base, Need(services=need.services, request=need.request, agents=need.agents,
                                                    level=None, policy=need.policy, binding=need.binding))
        return super().candidates_of(base, need)


VARIANTS = {
    "requires-freshness": RequiresFreshness,
    "gives-up-without-discover": GivesUpWithoutDiscover,
    "queries-d0-publisher": QueriesD0Publisher,
    "probes-d0-with-get": ProbesD0WithGet,
    "queries-d0-at-search-path": QueriesD0AtSearchPath,
    "posts-d0-to-query-path": PostsD0ToQueryPath,
    "queries-d0-in-path": QueriesD0InPath,
    "queries-later-d0-publishers": QueriesLaterD0Publishers,
}
