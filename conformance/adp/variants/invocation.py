"""Broken ADP clients: checks before invocation (4.5, 10)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from conformance.adp.reference_client import Policy, ReferenceAdpClient


class IgnoresProtocolPolicy(ReferenceAdpClient):
    """4.5: checks the endpoint's scheme against local policy, never the binding's protocol."""

    def binding_allowed(self, binding: dict, policy: Policy) -> bool:
        return urlsplit(str(binding.get("endpoint"))).scheme.lower() in policy.schemes


class IgnoresSchemePolicy(ReferenceAdpClient):
    """4.5: checks the binding's protocol against local policy, never the endpoint's scheme."""

    def binding_allowed(self, binding: dict, policy: Policy) -> bool:
        protocol = binding.get("protocol")
        return isinstance(protocol, str) and protocol.lower() in policy.protocols


class InvokesPreferredIfAnyAllowed(ReferenceAdpClient):
    """4.5: accepts a candidate when any of its bindings is allowed, then invokes its preferred
    binding, allowed or not."""

    def check(self, candidate: dict, policy: Policy) -> tuple[str, dict | None]:
        reason, chosen = super().check(candidate, policy)
        if chosen is None:
            return reason, None
        return "", next(b for b in self.bindings(candidate) if self.endpoint_valid(b.get("endpoint")))


class SkipsRevocationCheck(ReferenceAdpClient):
    """10: never looks at credential_refs."""

    def revoked(self, candidate: dict, policy: Policy) -> bool:
        return False


class ChecksFirstCredentialOnly(ReferenceAdpClient):
    """10: looks only at a candidate's first credential reference."""

    def revoked(self, candidate: dict, policy: Policy) -> bool:
        refs = candidate.get("credential_refs")
        return isinstance(refs, list) and bool(refs) and refs[0] in policy.revoked


class ValidatesSchemeOnly(ReferenceAdpClient):
    """10: an endpoint is valid when it has a scheme (no host, white space or port checked)."""

    def endpoint_valid(self, endpoint: Any) -> bool:
        return isinstance(endpoint, str) and bool(urlsplit(endpoint).scheme)


class MatchesProtocolByPrefix(ReferenceAdpClient):
    """4.5: a binding's protocol is allowed when an allowed protocol starts with it (http passes
    for https, a2 for a2a)."""

    def binding_allowed(self, binding: dict, policy: Policy) -> bool:
        protocol = binding.get("protocol")
        scheme = urlsplit(str(binding.get("endpoint"))).scheme.lower()
        return (isinstance(protocol, str) and bool(protocol)
                and any(p.startswith(protocol.lower()) for p in policy.protocols) and scheme in policy.schemes)


class AcceptsAnyNumericPort(ReferenceAdpClient):
    """10: an endpoint's port is valid when it is made of digits, whatever its value."""

    def endpoint_valid(self, endpoint: Any) -> bool:
        if isinstance(endpoint, str):
            m = re.match(r"^([a-zA-Z][\w+.-]*://[^/:\s]+):(\d+)(/.*)?$", endpoint)
            if m:
                endpoint = m.group(1) + (m.group(3) or "")
        return super().endpoint_valid(endpoint)


class ResolvesRelativeEndpoints(ReferenceAdpClient):
    """10: a relative, empty or scheme-relative endpoint is taken against the agents' host, as a
    browser would resolve it."""

    def bindings(self, candidate: dict) -> list[dict]:
        from urllib.parse import urljoin

        out = []
        for b in super().bindings(candidate):
            e = b.get("endpoint")
            if isinstance(e, str) and not urlsplit(e).scheme:
                b = {**b, "endpoint": urljoin("https://agents.adck.test/", e) if e else "https://agents.adck.test/"}
            out.append(b)
        return out


VARIANTS = {
    "ignores-protocol-policy": IgnoresProtocolPolicy,
    "ignores-scheme-policy": IgnoresSchemePolicy,
    "invokes-preferred-if-any-allowed": InvokesPreferredIfAnyAllowed,
    "skips-revocation-check": SkipsRevocationCheck,
    "checks-first-credential-only": ChecksFirstCredentialOnly,
    "validates-scheme-only": ValidatesSchemeOnly,
    "resolves-relative-endpoints": ResolvesRelativeEndpoints,
    "matches-protocol-by-prefix": MatchesProtocolByPrefix,
    "accepts-any-numeric-port": AcceptsAnyNumericPort,
}
