"""§2.3 Media Type."""

from __future__ import annotations

from email.message import Message

from conformance.aiendpoint.conftest import delivered
from conformance.fetch import Fetch
from conformance.outcomes import clause, untestable, violation


def _content_type(value: str) -> tuple[str, dict[str, str]]:
    msg = Message()
    msg["content-type"] = value
    params = {k.lower(): v for k, v in msg.get_params(failobj=[])[1:]}
    return msg.get_content_type(), params


@clause("AIE-2.3-01")
def test_2_3_media_type_application_json(well_known: Fetch) -> None:
    """The AI Discovery Document MUST be served with the media type "application/json"."""
    final = delivered(well_known)
    value = final.header("content-type")
    if value is None:
        violation("the response has no Content-Type header")
    media_type = value.split(";", 1)[0].strip().lower()
    if media_type != "application/json":
        violation(f"Content-Type is {value!r}")


@clause("AIE-2.3-02")
def test_2_3_charset_utf8_parameter(well_known: Fetch) -> None:
    """Servers SHOULD include the "charset=utf-8" parameter."""
    final = delivered(well_known)
    value = final.header("content-type")
    if value is None:
        untestable("the response has no Content-Type header (see AIE-2.3-01)")
    _, params = _content_type(value)
    charset = params.get("charset")
    if charset is None:
        violation(f"Content-Type {value!r} has no charset parameter")
    if charset.strip('"').lower() != "utf-8":
        violation(f"Content-Type {value!r} declares charset {charset!r}")
