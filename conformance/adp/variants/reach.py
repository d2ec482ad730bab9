"""Broken ADP clients: checks before invocation (4.5, 10) made on only some of the candidates
(the first service's, the top one of each service, those of a Discovery Response), or given up
when every candidate fails them (a fallback to the top candidate)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from conformance.adp.reference_client import Chosen, Need, Policy, ReferenceAdpClient


class _Partial(ReferenceAdpClient):
    """Makes one of its checks only where ``checks_here`` says so: ``unchecked`` is True while
    a candidate it does not check is being judged."""

    unchecked = False

    def checks_here(self, base: str, index: int, from_metadata: bool, need: Need) -> bool:
        raise NotImplementedError

    def discover(self, need: Need) -> Chosen:
        self._from_metadata: set[int] = set()
        return super().discover(need)

    def metadata(self, base: str, need: Need) -> list[dict]:
        found = super().metadata(base, need)
        self._from_metadata.update(id(c) for c in found)
        return found

    def select(self, offered: Iterable[tuple[str, dict]], need: Need) -> Chosen:
        def marked() -> Iterator[tuple[str, dict]]:
            seen: dict[str, int] = {}
            for base, candidate in offered:
                index = seen[base] = seen.get(base, -1) + 1
                self.unchecked = not self.checks_here(base, index, id(candidate) in self._from_metadata, need)
                yield base, candidate
            self.unchecked = False

        return super().select(marked(), need)


class _FirstServiceOnly(_Partial):
    def checks_here(self, base, index, from_metadata, need):
        return base == need.services[0]


class _TopCandidateOnly(_Partial):
    def checks_here(self, base, index, from_metadata, need):
        return index == 0


class _DiscoveryResponsesOnly(_Partial):
    def checks_here(self, base, index, from_metadata, need):
        return not from_metadata


class _SkipsPolicy:
    def binding_allowed(self, binding: dict, policy: Policy) -> bool:
        return True if self.unchecked else super().binding_allowed(binding, policy)  # type: ignore[misc]


class _SkipsRevocation:
    def revoked(self, candidate: dict, policy: Policy) -> bool:
        return False if self.unchecked else super().revoked(candidate, policy)  # type: ignore[misc]


class _SkipsEndpointValidity:
    def endpoint_valid(self, endpoint: Any) -> bool:
        return True if self.unchecked else super().endpoint_valid(endpoint)  # type: ignore[misc]


class PolicyOnFirstServiceOnly(_SkipsPolicy, _FirstServiceOnly):
    """4.5: checks bindings against local policy for the first service's candidates only."""


class PolicyOnTopCandidateOnly(_SkipsPolicy, _TopCandidateOnly):
    """4.5: checks the binding of each service's top candidate only; the next is taken as it is."""


class PolicyOnDiscoveryResponsesOnly(_SkipsPolicy, _DiscoveryResponsesOnly):
    """4.5: checks the bindings of Discovery Response candidates, never those of metadata read
    from a D0 publisher."""


class RevocationOnFirstServiceOnly(_SkipsRevocation, _FirstServiceOnly):
    """10: checks revocation for the first service's candidates only."""


class RevocationOnTopCandidateOnly(_SkipsRevocation, _TopCandidateOnly):
    """10: checks revocation for each service's top candidate only."""


class EndpointsOnDiscoveryResponsesOnly(_SkipsEndpointValidity, _DiscoveryResponsesOnly):
    """10: checks endpoint validity for Discovery Response candidates, never for metadata read
    from a D0 publisher."""


class EndpointsOnFirstServiceOnly(_SkipsEndpointValidity, _FirstServiceOnly):
    """10: checks endpoint validity for the first service's candidates only."""


class _FallsBack(ReferenceAdpClient):
    """When every candidate was refused, takes the top one again with one check relaxed
    (``relaxed`` is True meanwhile)."""

    relaxed = False

    def select(self, offered: Iterable[tuple[str, dict]], need: Need) -> Chosen:
        items = list(offered)
        chosen = super().select(items, need)
        if chosen.outcome == "selected" or not items:
            return chosen
        self.relaxed = True
        try:
            again = super().select(items[:1], need)
        finally:
            self.relaxed = False
        if again.outcome != "selected":
            return chosen
        again.refused = chosen.refused
        again.messages = ["every candidate was refused: falling back to the top one"]
        return again


class FallsBackToTopCandidate(_FallsBack):
    """4.5: when no candidate has a binding the policy allows, invokes the top candidate's
    preferred binding anyway (revocation and endpoints still checked)."""

    def binding_allowed(self, binding: dict, policy: Policy) -> bool:
        return True if self.relaxed else super().binding_allowed(binding, policy)


class FallsBackPastRevocation(_FallsBack):
    """10: when every candidate is revoked or has an invalid endpoint, invokes the top one
    anyway (the policy still checked)."""

    def revoked(self, candidate: dict, policy: Policy) -> bool:
        return False if self.relaxed else super().revoked(candidate, policy)

    def endpoint_valid(self, endpoint: Any) -> bool:
        return (isinstance(endpoint, str) and bool(endpoint)) if self.relaxed else super().endpoint_valid(endpoint)


VARIANTS = {
    "policy-on-first-service-only": PolicyOnFirstServiceOnly,
    "policy-on-top-candidate-only": PolicyOnTopCandidateOnly,
    "policy-on-discovery-responses-only": PolicyOnDiscoveryResponsesOnly,
    "falls-back-to-top-candidate": FallsBackToTopCandidate,
    "revocation-on-first-service-only": RevocationOnFirstServiceOnly,
    "revocation-on-top-candidate-only": RevocationOnTopCandidateOnly,
    "endpoints-on-discovery-responses-only": EndpointsOnDiscoveryResponsesOnly,
    "endpoints-on-first-service-only": EndpointsOnFirstServiceOnly,
    "falls-back-past-revocation": FallsBackPastRevocation,
}
