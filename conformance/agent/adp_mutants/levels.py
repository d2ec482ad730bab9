"""Broken ADP clients: conformance levels (3.3)."""

from __future__ import annotations

from conformance.agent.adp_client import Need, ReferenceAdpClient


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


VARIANTS = {
    "requires-freshness": RequiresFreshness,
    "gives-up-without-discover": GivesUpWithoutDiscover,
    "queries-d0-publisher": QueriesD0Publisher,
    "probes-d0-with-get": ProbesD0WithGet,
}
