"""Broken AIDRE clients: cursors (18.2)."""

from __future__ import annotations

import base64
import json
from urllib.parse import unquote_plus

from conformance.aidre.reference_client import ReferenceAidreClient


class RebuildsBase64OffsetCursor(ReferenceAidreClient):
    """18.2: a cursor that decodes to base64 JSON with an offset is rebuilt by the client
    (the same offset, re-encoded its own way) instead of being sent back as received."""

    def next_body(self, first: dict, cursor: str, member: str) -> dict:
        try:
            decoded = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
            cursor = base64.urlsafe_b64encode(json.dumps({"offset": decoded["offset"]}).encode()).decode()
        except (ValueError, TypeError, KeyError):
            pass
        return super().next_body(first, cursor, member)


class PercentDecodesCursor(ReferenceAidreClient):
    """18.2: percent-decodes a cursor that looks URL-encoded before sending it back."""

    def next_body(self, first: dict, cursor: str, member: str) -> dict:
        if "%" in cursor or "+" in cursor:
            cursor = unquote_plus(cursor)
        return super().next_body(first, cursor, member)


class TruncatesLongCursor(ReferenceAidreClient):
    """18.2: keeps at most 1024 characters of a cursor (a fixed-size column)."""

    def next_body(self, first: dict, cursor: str, member: str) -> dict:
        return super().next_body(first, cursor[:1024], member)


class _GuessesOnFullPage(ReferenceAidreClient):
    """A client that takes a full page without next_cursor for "maybe more" and makes a
    cursor of its own (:meth:`made`) to ask for the next page."""

    def next_cursor(self, value: dict) -> str | None:
        cursor = super().next_cursor(value)
        meta = value.get("meta") if isinstance(value.get("meta"), dict) else {}
        if cursor is not None:
            self._last = cursor
            return cursor
        results = value.get("results") or []
        if results and meta.get("returned") == meta.get("top_k") == len(results):
            return self.made(getattr(self, "_last", None), results)
        return None

    def made(self, last: str | None, results: list) -> str | None:
        raise NotImplementedError


class ContinuesBase64OffsetPastTheEnd(_GuessesOnFullPage):
    """18.2: after a full page without next_cursor, decodes the previous cursor (base64url of a
    JSON offset) and asks for the page after it, with an offset of its own making."""

    def made(self, last: str | None, results: list) -> str | None:
        try:
            decoded = json.loads(base64.urlsafe_b64decode(last + "=" * (-len(last) % 4)))
            offset = int(decoded["offset"]) + len(results)
        except (TypeError, ValueError, KeyError):
            return None
        return base64.urlsafe_b64encode(json.dumps({"offset": offset}).encode()).decode().rstrip("=")


class BuildsKeysetCursorPastTheEnd(_GuessesOnFullPage):
    """18.2: after a full page without next_cursor, asks for more with a keyset cursor of its
    own ({"after": the last result's id}), as its other backends page."""

    def made(self, last: str | None, results: list) -> str | None:
        tail = results[-1]
        return json.dumps({"after": tail.get("id")}) if isinstance(tail, dict) else None


VARIANTS = {
    "rebuilds-base64-offset-cursor": RebuildsBase64OffsetCursor,
    "percent-decodes-cursor": PercentDecodesCursor,
    "truncates-long-cursor": TruncatesLongCursor,
    "continues-base64-offset-past-the-end": ContinuesBase64OffsetPastTheEnd,
    "builds-keyset-cursor-past-the-end": BuildsKeysetCursorPastTheEnd,
}
