"""§2.1 and §2.2, provider role: the record and the manifest it points to, together."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from conformance.aid.conftest import Manifest, RecordUnderTest, NO_ANSWER
from conformance.document import Document
from conformance.fetch import Fetch
from conformance.invoke import refused
from conformance.outcomes import clause, not_applicable, untestable, violation

DEFAULT_PORTS = {"http": 80, "https": 443}


def _types(manifest: Document) -> list[str | None]:
    """The type of every implementation object (None where it has no string type);
    *untestable* when implementations holds none."""
    __tracebackhide__ = True
    types = [impl.get("type") if isinstance(impl.get("type"), str) else None
             for _i, impl in manifest.objects("implementations")]
    if not types:
        untestable("implementations holds no implementation object (see AID-2.2.1-10)")
    return types


def _has_remote(manifest: Document) -> bool:
    __tracebackhide__ = True
    types = _types(manifest)
    if "remote" not in types and None in types:
        untestable("an implementation has no type string (see AID-2.2.2-02): whether one is remote is unknown")
    return "remote" in types


def _all_local(manifest: Document) -> bool:
    __tracebackhide__ = True
    types = _types(manifest)
    if any(t is not None and t != "local" for t in types):
        return False
    if None in types:
        untestable("an implementation has no type string (see AID-2.2.2-02): whether all are local is unknown")
    return True


@clause("AID-2.2-01")
def test_2_2_manifest_accessible_via_https(manifest_fetch: Fetch) -> None:
    """The manifest **MUST** be accessible via HTTPS."""
    final = manifest_fetch.final
    # config names a loopback or private address the user did not name: the kit did not send it
    # (the private-address guard), which says nothing of the provider
    refused(manifest_fetch)
    if manifest_fetch.error_kind in NO_ANSWER:
        # No answer at all: the kit cannot tell the provider's outage from its own network
        # (AMB-11 judges the final answer; a run with --connect-to to a closed port lands here).
        untestable(f"GET {manifest_fetch.url}: {manifest_fetch.describe_error()}")
    if manifest_fetch.error and manifest_fetch.error_kind != "too-large":
        violation(f"GET {manifest_fetch.url}: {manifest_fetch.describe_error()}")
    if final is None:
        untestable(f"GET {manifest_fetch.url}: no answer")
    hops = f" (after {len(manifest_fetch.redirects)} redirect(s), at {final.url})" if manifest_fetch.redirects else ""
    if final.status != 200:
        violation(f"GET {manifest_fetch.url} answered {final.status} {final.reason}{hops}")
    if not final.body:
        violation(f"GET {manifest_fetch.url} answered 200 with an empty body{hops}")
    if why := Manifest.from_fetch(manifest_fetch).not_json():
        # §2.2: the manifest is "a JSON document"; an HTML page or other text at config is not it (AMB-30)
        media = final.header("content-type") or "no Content-Type"
        violation(f"GET {manifest_fetch.url} answered 200 ({media}){hops}, but the body is not a JSON document: {why}")


@clause("AID-2.1-11")
def test_2_1_record_holds_uri_when_remote(record: RecordUnderTest, manifest: Document) -> None:
    """| **uri** | Required **iff** at least one *remote* implementation exists"""
    if not _has_remote(manifest):
        not_applicable("the manifest lists no remote implementation")
    if record.parsed.get("uri") is None:
        violation("the manifest lists a remote implementation (implementations[].type \"remote\") but the record has no uri")


@clause("AID-2.1-12")
def test_2_1_record_has_no_uri_when_all_local(record: RecordUnderTest, manifest: Document) -> None:
    """| **uri** | ... (MUST be absent if all implementations are local). |"""
    if not _all_local(manifest):
        not_applicable("the manifest lists an implementation that is not local")
    if record.parsed.get("uri") is not None:
        violation(f"every implementation of the manifest is local, but the record holds uri={record.parsed.get('uri')!r}")


@clause("AID-2.1-14")
def test_2_1_record_holds_proto_when_remote(record: RecordUnderTest, manifest: Document) -> None:
    """| **proto** | Required **iff** at least one *remote* implementation exists"""
    if not _has_remote(manifest):
        not_applicable("the manifest lists no remote implementation")
    if record.parsed.get("proto") is None:
        violation("the manifest lists a remote implementation (implementations[].type \"remote\") but the record has no proto")


@clause("AID-2.1-15")
def test_2_1_record_has_no_proto_when_all_local(record: RecordUnderTest, manifest: Document) -> None:
    """| **proto** | ... (MUST be absent if all implementations are local). |"""
    if not _all_local(manifest):
        not_applicable("the manifest lists an implementation that is not local")
    if record.parsed.get("proto") is not None:
        violation(f"every implementation of the manifest is local, but the record holds proto={record.parsed.get('proto')!r}")


def _normalised(url: str) -> str | None:
    """RFC 3986 syntax-based normalisation (AMB-04): case of scheme and host, default port,
    empty path as "/"; None when the URL is not absolute."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if not parts.scheme or not parts.hostname:
        return None
    scheme = parts.scheme.lower()
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    netloc = host if port is None or port == DEFAULT_PORTS.get(scheme) else f"{host}:{port}"
    return urlunsplit((scheme, netloc, parts.path or "/", parts.query, parts.fragment))


@clause("AID-2.1-18")
def test_2_1_record_uri_matches_a_remote_implementation(record: RecordUnderTest, manifest: Document) -> None:
    """In an Extended Profile, this serves as a fallback for simple clients and should correspond to
    the primary `remote` implementation in the manifest."""
    uri = record.parsed.get("uri")
    if uri is None:
        not_applicable("the record has no uri")
    wanted = _normalised(uri)
    if wanted is None or not uri.lower().startswith("https://"):
        untestable(f"the record's uri={uri!r} is not an absolute https URL (see AID-4-03)")
    remotes = [(i, impl.get("uri")) for i, impl in manifest.objects("implementations") if impl.get("type") == "remote"]
    if not remotes:
        not_applicable("the manifest lists no remote implementation (see AID-2.1-12)")
    uris = [(i, u) for i, u in remotes if isinstance(u, str)]
    if not uris:
        untestable("no remote implementation has a uri string (see AID-2.2.2-06)")
    if not any(_normalised(u) == wanted for _i, u in uris):
        shown = ", ".join(f"implementations[{i}].uri={u!r}" for i, u in uris)
        violation(f"the record's uri={uri!r} equals no remote implementation's uri ({shown})")
