"""Broken ADP clients: the Discovery Requests they send (5.1). Each sends the request it is
given with one thing changed: its serialization (5.1-23), its query (5.1-24), or the type of
one member, or detail's value (5.1-25 to 5.1-33); nothing else of the client changes."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from conformance.adp.reference_client import ReferenceAdpClient
from conformance.fetch import Fetch

JSON = {"Content-Type": "application/json", "Accept": "application/json"}


class _Rewrites(ReferenceAdpClient):
    """Sends ``rewrite(body)`` as JSON in place of the Discovery Request it was given."""

    def rewrite(self, body: dict) -> Any:
        raise NotImplementedError

    def post(self, url: str, body: dict) -> Fetch:
        return self.fetcher.fetch(url, method="POST", content=json.dumps(self.rewrite(dict(body))).encode("utf-8"),
                                  headers=JSON)


def _member(name: str, change):
    """A rewrite of the member ``name`` alone, where the request holds it."""
    def rewrite(self, body: dict) -> Any:
        if name in body:
            body[name] = change(body[name])
        return body
    return rewrite


def _flat(body: dict) -> list[tuple[str, str]]:
    """The request as form fields: lists repeated, objects as JSON, booleans lower case."""
    out = []
    for k, v in body.items():
        for item in v if isinstance(v, list) else [v]:
            out.append((k, json.dumps(item) if isinstance(item, dict) else str(item).lower()
                        if isinstance(item, bool) else str(item)))
    return out


# ------------------------------------------------------------------ 5.1-23: one JSON object

class SendsFormEncodedRequest(ReferenceAdpClient):
    """5.1: POSTs the Discovery Request as an HTML form (application/x-www-form-urlencoded)."""

    def post(self, url: str, body: dict) -> Fetch:
        return self.fetcher.fetch(url, method="POST", content=urlencode(_flat(body)).encode("ascii"),
                                  headers={"Content-Type": "application/x-www-form-urlencoded",
                                           "Accept": "application/json"})


class WrapsRequestInArray(_Rewrites):
    """5.1: sends a batch of one: a JSON array holding the Discovery Request."""

    def rewrite(self, body: dict) -> Any:
        return [body]


class SendsRequestInQueryString(ReferenceAdpClient):
    """5.1: asks GET {base}/discover?query=...&limit=... with no body."""

    def post(self, url: str, body: dict) -> Fetch:
        return self.fetcher.fetch(f"{url}?{urlencode(_flat(body))}", headers={"Accept": "application/json"})


class SendsJsonLines(ReferenceAdpClient):
    """5.1: sends each member as a JSON text of its own, one per line (JSON Lines)."""

    def post(self, url: str, body: dict) -> Fetch:
        lines = "\n".join(json.dumps({k: v}) for k, v in body.items()) + "\n"
        return self.fetcher.fetch(url, method="POST", content=lines.encode("utf-8"), headers=JSON)


# ------------------------------------------------------------------ 5.1-24: query, a string

class OmitsQuery(_Rewrites):
    """5.1: leaves query out when the request has tags to go by."""

    def rewrite(self, body: dict) -> Any:
        body.pop("query", None)
        return body


class SendsQueryAsList(_Rewrites):
    """5.1: sends the query as a list of one sentence."""

    rewrite = _member("query", lambda v: [v])


class CapitalisesQueryName(_Rewrites):
    """5.1: names the member Query (field names are case-sensitive)."""

    def rewrite(self, body: dict) -> Any:
        if "query" in body:
            body["Query"] = body.pop("query")
        return body


# ------------------------------------------------------------------ 5.1-25 to 5.1-33: types

class JoinsRequiredTags(_Rewrites):
    """5.1: sends required_tags as one comma-separated string ("hr,validation")."""

    rewrite = _member("required_tags", lambda v: ",".join(map(str, v)))


class SendsRequiredTagObjects(_Rewrites):
    """5.1: sends each required tag as an object ({"tag": "hr"})."""

    rewrite = _member("required_tags", lambda v: [{"tag": t} for t in v])


class WeighsPreferredTags(_Rewrites):
    """5.1: sends preferred_tags as an object of weights ({"onboarding": 1.0})."""

    rewrite = _member("preferred_tags", lambda v: {t: 1.0 for t in v})


class PairsPreferredTagsWithWeights(_Rewrites):
    """5.1: sends preferred_tags as [tag, weight] pairs."""

    rewrite = _member("preferred_tags", lambda v: [[t, 1.0] for t in v])


class UnwrapsSingleExcludedTag(_Rewrites):
    """5.1: sends a lone excluded tag as a string ("deprecated"), not in an array."""

    rewrite = _member("excluded_tags", lambda v: v[0] if isinstance(v, list) and len(v) == 1 else v)


class SendsExcludedTagsAsObject(_Rewrites):
    """5.1: wraps excluded_tags in an object ({"any": [...]})."""

    rewrite = _member("excluded_tags", lambda v: {"any": v})


class JoinsProtocols(_Rewrites):
    """5.1: sends protocols as one comma-separated string ("https,a2a")."""

    rewrite = _member("protocols", lambda v: ",".join(map(str, v)))


class SendsProtocolObjects(_Rewrites):
    """5.1: sends each protocol as an object ({"protocol": "https"})."""

    rewrite = _member("protocols", lambda v: [{"protocol": p} for p in v])


class SendsConstraintPairs(_Rewrites):
    """5.1: sends constraints as a list of {"name", "value"} pairs."""

    rewrite = _member("constraints", lambda v: [{"name": k, "value": x} for k, x in v.items()])


class SerialisesConstraints(_Rewrites):
    """5.1: sends constraints serialised into a JSON string."""

    rewrite = _member("constraints", lambda v: json.dumps(v))


class SendsLimitAsString(_Rewrites):
    """5.1: sends limit as a string ("10")."""

    rewrite = _member("limit", lambda v: str(v))


class SendsFractionalLimit(_Rewrites):
    """5.1: asks for half as many candidates again, unrounded (limit 1 becomes 1.5)."""

    rewrite = _member("limit", lambda v: v * 1.5 if isinstance(v, int) else v)


class SendsIncludeEvidenceAsString(_Rewrites):
    """5.1: sends include_evidence as a string ("true", "false")."""

    rewrite = _member("include_evidence", lambda v: str(v).lower())


class SendsIncludeEvidenceAsNumber(_Rewrites):
    """5.1: sends include_evidence as 1 or 0."""

    rewrite = _member("include_evidence", lambda v: int(bool(v)))


class UpperCasesDetail(_Rewrites):
    """5.1: sends detail in capitals (SUMMARY)."""

    rewrite = _member("detail", lambda v: v.upper() if isinstance(v, str) else v)


class SendsVerboseForFullDetail(_Rewrites):
    """5.1: sends detail verbose where it was asked for full."""

    rewrite = _member("detail", lambda v: "verbose" if v == "full" else v)


class SendsDetailAsLevelNumber(_Rewrites):
    """5.1: sends detail as its rank (0 minimal, 1 summary, 2 full)."""

    rewrite = _member("detail", lambda v: {"minimal": 0, "summary": 1, "full": 2}.get(v, v))


class SendsClientContextAsString(_Rewrites):
    """5.1: sends client_context as a string of hints ("locale=en-AU; domain=hr")."""

    rewrite = _member("client_context", lambda v: "; ".join(f"{k}={x}" for k, x in v.items()))


class SendsClientContextPairs(_Rewrites):
    """5.1: sends client_context as a list of [name, value] pairs."""

    rewrite = _member("client_context", lambda v: [[k, x] for k, x in v.items()])


VARIANTS = {
    "sends-form-encoded-request": SendsFormEncodedRequest,
    "wraps-request-in-array": WrapsRequestInArray,
    "sends-request-in-query-string": SendsRequestInQueryString,
    "sends-json-lines": SendsJsonLines,
    "omits-query": OmitsQuery,
    "sends-query-as-list": SendsQueryAsList,
    "capitalises-query-name": CapitalisesQueryName,
    "joins-required-tags": JoinsRequiredTags,
    "sends-required-tag-objects": SendsRequiredTagObjects,
    "weighs-preferred-tags": WeighsPreferredTags,
    "pairs-preferred-tags-with-weights": PairsPreferredTagsWithWeights,
    "unwraps-single-excluded-tag": UnwrapsSingleExcludedTag,
    "sends-excluded-tags-as-object": SendsExcludedTagsAsObject,
    "joins-protocols": JoinsProtocols,
    "sends-protocol-objects": SendsProtocolObjects,
    "sends-constraint-pairs": SendsConstraintPairs,
    "serialises-constraints": SerialisesConstraints,
    "sends-limit-as-string": SendsLimitAsString,
    "sends-fractional-limit": SendsFractionalLimit,
    "sends-include-evidence-as-string": SendsIncludeEvidenceAsString,
    "sends-include-evidence-as-number": SendsIncludeEvidenceAsNumber,
    "upper-cases-detail": UpperCasesDetail,
    "sends-verbose-for-full-detail": SendsVerboseForFullDetail,
    "sends-detail-as-level-number": SendsDetailAsLevelNumber,
    "sends-client-context-as-string": SendsClientContextAsString,
    "sends-client-context-pairs": SendsClientContextPairs,
}
