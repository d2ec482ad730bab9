"""A server's answer to one of the kit's requests, read once: the unit the server-role suites
(AIDRE's searches, ADP's Discovery Requests) judge, and the evidence they show.

Each suite subclasses :class:`Answer` with what its draft calls the answer's parts (search
results, candidates); :class:`EvidenceLog` remembers which answers one test looked at, so a
failure shows its own exchanges, not the whole run's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from conformance.document import loads
from conformance.fetch import Exchange, Fetch


class _NotJson:
    def __repr__(self) -> str:
        return "NOT_JSON"


#: The value of an answer whose body is not JSON (None, false and 0 are JSON values).
NOT_JSON: Any = _NotJson()


@dataclass
class Answer:
    """One response: its status (None when no whole response came), media type and JSON value."""

    fetch: Fetch
    #: What the kit sent, when a test needs it back (a request body, a metadata object).
    body: Any = None

    @property
    def final(self) -> Exchange | None:
        return self.fetch.final

    @property
    def status(self) -> int | None:
        """The final status; None when the fetch failed before a whole response came (a body
        over the kit's cap still has its status)."""
        final = self.final
        return final.status if final is not None and not (self.fetch.error and self.fetch.error_kind != "too-large") else None

    @property
    def media_type(self) -> str:
        final = self.final
        return ((final.header("content-type") or "").split(";")[0].strip().lower()) if final else ""

    @property
    def value(self) -> Any:
        """The body as JSON, or :data:`NOT_JSON`."""
        final = self.final
        if final is None:
            return NOT_JSON
        try:
            return loads(final.body.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            return NOT_JSON

    @property
    def text(self) -> str:
        final = self.final
        return final.body.decode("utf-8", "replace") if final is not None else ""

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    @property
    def is_error(self) -> bool:
        return self.status is not None and self.status >= 400

    def member(self, name: str) -> Any:
        value = self.value
        return value.get(name) if isinstance(value, dict) else None

    def body_summary(self, value: Any) -> str:
        """What the JSON object holds, for :meth:`describe` (a subclass names its draft's parts)."""
        return "a JSON object"

    def describe(self) -> str:
        """A short account for a failure message: ``422 (application/json) with a JSON object …``."""
        if self.status is None:
            return f"no response ({self.fetch.describe_error()})"
        value = self.value
        if value is NOT_JSON:
            body = "a body that is not JSON"
        elif isinstance(value, dict):
            body = self.body_summary(value)
        else:
            body = f"a JSON {type(value).__name__}"
        return f"{self.status} ({self.media_type or 'no Content-Type'}) with {body}"


@dataclass
class EvidenceLog:
    """The answers one test used: its evidence (the last ``keep`` exchanges, each once)."""

    used: list[Answer] = field(default_factory=list)
    keep: int = 8

    def add(self, answer: Answer) -> Answer:
        self.used.append(answer)
        return answer

    def evidence(self) -> list[Exchange]:
        seen, out = set(), []
        for answer in self.used:
            for ex in answer.fetch.evidence():
                if id(ex) not in seen:
                    seen.add(id(ex))
                    out.append(ex)
        return out[-self.keep:]
