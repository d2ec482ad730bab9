"""§7.2 Protocol Tokens (AID v2.1), document role: the schemes of the openapi and local rows
(the rows v1.2 and v2.1 share, B-06 and the others, are tested once for both)."""

from __future__ import annotations

from conformance.aid.conftest import PublishedRecord
from conformance.aid.v2_1._rules import aid2, judge, value, written
from conformance.outcomes import clause, not_applicable


def _with(aid_records: list[PublishedRecord], proto: str) -> list[PublishedRecord]:
    __tracebackhide__ = True
    records = [r for r in aid2(aid_records) if value(r, "proto") == proto and value(r, "uri")]
    if not records:
        not_applicable(f"no aid2 record has p={proto} and a u")
    return records


@clause("AID-7.2-01")
def test_7_2_openapi_uri_is_https(aid_records: list[PublishedRecord]) -> None:
    """| `openapi` | OpenAPI document | `https://` |

    A record with p=openapi has an absolute https:// u (the scheme in any case): not http://,
    wss://, a local locator, or https without '//'."""
    def check(r: PublishedRecord) -> list[str]:
        uri = value(r, "uri")
        scheme, sep, rest = uri.partition(":")
        if not sep or scheme.lower() != "https" or not rest.startswith("//"):
            return [f"{written(r, 'uri')}={uri[:80]!r} with p=openapi; expected an https:// URL of the OpenAPI document"]
        return []
    judge(_with(aid_records, "openapi"), check)


#: The local row's schemes: docker:, npx:, pip:.
LOCAL = ("docker", "npx", "pip")


@clause("AID-7.2-02")
def test_7_2_local_uri_scheme(aid_records: list[PublishedRecord]) -> None:
    """| `local` | Local client-run agent | `docker:`, `npx:`, `pip:` |

    A record with p=local has a u whose scheme is docker:, npx: or pip: (in any case) followed
    by what to run: not https://, another runner (uvx:, oci:), a bare image name, or a scheme
    with nothing after it."""
    def check(r: PublishedRecord) -> list[str]:
        uri = value(r, "uri")
        scheme, sep, rest = uri.partition(":")
        if not sep or scheme.lower() not in LOCAL or not rest.strip("/"):
            return [f"{written(r, 'uri')}={uri[:80]!r} with p=local; expected a docker:, npx: or pip: locator"]
        return []
    judge(_with(aid_records, "local"), check)
