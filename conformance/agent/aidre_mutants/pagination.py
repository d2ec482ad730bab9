"""Broken AIDRE clients: cursors (18.2)."""

from __future__ import annotations

import base64
import json
from urllib.parse import unquote_plus

from conformance.agent.aidre_client import ReferenceAidreClient


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


VARIANTS = {
    "rebuilds-base64-offset-cursor": RebuildsBase64OffsetCursor,
    "percent-decodes-cursor": PercentDecodesCursor,
    "truncates-long-cursor": TruncatesLongCursor,
}
