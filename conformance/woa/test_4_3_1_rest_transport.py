"""§4.3.1 The REST transport configuration."""

from __future__ import annotations

from urllib.parse import urlsplit

from conformance.document import Document, kind_name
from conformance.outcomes import clause, not_applicable, untestable, violation
from conformance.uris import absolute_url_problem
from conformance.woa._checks import transport



def _string(document: Document, member: str) -> str:
    config = transport(document, "rest")
    if member not in config:
        violation(f"transports.rest has no {member}")
    value = config[member]
    if not isinstance(value, str):
        violation(f"transports.rest.{member} is a JSON {kind_name(value)}, not a string")
    return value


@clause("WOA-4.3.1-02")
def test_4_3_1_base_is_an_absolute_url(document: Document) -> None:
    """base (string, REQUIRED): An absolute HTTPS URL that identifies the base of the REST API.
    (An RFC 3986 absolute-URI with a host: no white space or raw non-ASCII, no fragment,
    AMB-54; its scheme is WOA-4.3.1-03.)"""
    base = _string(document, "base")
    # a white space character anywhere (a trailing newline too, which the URI grammar's
    # checker lets through at the very end) is no part of a URI
    why = absolute_url_problem(base) if not any(c.isspace() for c in base) else \
        "is not a URI: it holds white space (RFC 3986 allows none; percent-encode it)"
    if why:
        violation(f"transports.rest.base is {base[:120]!r}: it {why}", readings=("AMB-54",))


@clause("WOA-4.3.1-03")
def test_4_3_1_base_scheme_is_https(document: Document) -> None:
    """The URL scheme MUST be "https\""""
    base = transport(document, "rest").get("base")
    if absolute_url_problem(base) or (isinstance(base, str) and any(c.isspace() for c in base)):
        untestable("transports.rest.base is absent or not an absolute URL (see WOA-4.3.1-02)")
    scheme = urlsplit(base).scheme
    if scheme.lower() != "https":
        violation(f"transports.rest.base is {base!r}: its scheme is {scheme!r}, not https")


@clause("WOA-4.3.1-05")
def test_4_3_1_invoke_path_starts_with_slash(document: Document) -> None:
    """invoke_path (string, REQUIRED): An absolute path beginning with "/" that, when combined
    with base, yields the invocation URL template."""
    path = _string(document, "invoke_path")
    if not path.startswith("/"):
        violation(f"transports.rest.invoke_path is {path!r}: it does not begin with \"/\"")
    why = path_problem(path)
    if why:
        violation(f"transports.rest.invoke_path is {path[:120]!r}: it {why}", readings=("AMB-12", "AMB-54"))


def path_problem(path: str) -> str | None:
    """Why ``path`` (beginning with "/") is not an absolute path with an optional query, as
    RFC 3986 writes them (AMB-12): the braces of a template such as {agent_id} are taken as
    the template's, everything else as the URL grammar's; None when it is one."""
    from rfc3986_validator import validate_rfc3986

    if any(c.isspace() for c in path):  # checked first: the grammar's checker lets a final newline through
        return "is not a path: it holds white space (RFC 3986 allows none; percent-encode it)"
    if "#" in path:
        return f"holds a fragment (#{path.split('#', 1)[1][:40]}): a path with a query has none (RFC 3986 3.3, 3.4)"
    if validate_rfc3986("https://h" + path.replace("{", "%7B").replace("}", "%7D"), rule="URI"):
        return None
    if any(ord(c) > 0x7E for c in path):
        return "is not a path: it holds a character outside ASCII (RFC 3986 asks for it percent-encoded)"
    return "is not a path (RFC 3986 3.3: the grammar's characters and percent-escapes)"


def _invoke_path(document: Document) -> str:
    path = transport(document, "rest").get("invoke_path")
    if not isinstance(path, str):
        untestable("transports.rest.invoke_path is absent or not a string (see WOA-4.3.1-05)")
    return path


@clause("WOA-4.3.1-06")
def test_4_3_1_invoke_path_may_hold_a_query(document: Document) -> None:
    """The path MAY contain a query component."""
    if "?" not in _invoke_path(document):
        not_applicable("invoke_path has no query component")


@clause("WOA-4.3.1-07")
def test_4_3_1_invoke_path_may_hold_agent_id(document: Document) -> None:
    """Within the path, the case sensitive substring "{agent_id}" MAY appear as a placeholder."""
    if "{agent_id}" not in _invoke_path(document):
        not_applicable("invoke_path has no {agent_id} placeholder")
