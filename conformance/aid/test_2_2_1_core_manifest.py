"""§2.2.1 Core Manifest Schema (the manifest's own members).

Each test checks one member; a member missing or of the wrong JSON type is reported by the
clause that asks for it, and the clauses on its value are then *untestable* (or, for an
optional member, *not-applicable*) through the :class:`Document` accessors.
"""

from __future__ import annotations


from conformance.aid._checks import absolute_url_problem
from conformance.document import Document, kind_name
from conformance.outcomes import clause, violation


def _top(manifest: Document) -> dict:
    __tracebackhide__ = True
    return manifest.top()


@clause("AID-2.2.1-01")
def test_2_2_1_schema_version_present_string(manifest: Document) -> None:
    """**`schemaVersion`**: **Required**. String. The version of the manifest schema."""
    # The manifest is "a JSON document" (§2.2) whose schema is an object: a document that is
    # not JSON, or not an object, has no schemaVersion, and fails here (AMB-30).
    why = manifest.not_json() if hasattr(manifest, "not_json") else None
    if why:
        violation(f"the manifest is not a JSON document ({why}), so it has no schemaVersion")
    value = manifest.value()
    if not isinstance(value, dict):
        violation(f"the manifest is a JSON {kind_name(value)}, not an object, so it has no schemaVersion")
    top = _top(manifest)
    if "schemaVersion" not in top:
        violation(f"the manifest has no schemaVersion (its members: {', '.join(sorted(top)) or 'none'})")
    if not isinstance(top["schemaVersion"], str):
        violation(f"schemaVersion is a JSON {kind_name(top['schemaVersion'])} ({top['schemaVersion']!r}), not a string")


@clause("AID-2.2.1-02")
def test_2_2_1_schema_version_is_1(manifest: Document) -> None:
    """For this specification, it **MUST** be `"1"`."""
    value = manifest.member("schemaVersion", kind=str)
    if value != "1":
        violation(f"schemaVersion is {value[:40]!r}, not \"1\"")


@clause("AID-2.2.1-03")
def test_2_2_1_name_present_string(manifest: Document) -> None:
    """**`name`**: **Required**. String. Human-readable name of the agent service."""
    top = _top(manifest)
    if "name" not in top:
        violation("the manifest has no name")
    if not isinstance(top["name"], str):
        violation(f"name is a JSON {kind_name(top['name'])}, not a string")


@clause("AID-2.2.1-04")
def test_2_2_1_metadata_is_object(manifest: Document) -> None:
    """**`metadata`**: Optional. Object for non-essential metadata."""
    value = manifest.member("metadata", required=False)
    if not isinstance(value, dict):
        violation(f"metadata is a JSON {kind_name(value)}, not an object")


@clause("AID-2.2.1-05")
def test_2_2_1_content_version_recommended(manifest: Document) -> None:
    """**`contentVersion`**: Optional but **Recommended**. String."""
    top = _top(manifest)
    if "metadata" not in top:
        violation("the manifest has no metadata, so no metadata.contentVersion")
    metadata = manifest.member("metadata", kind=dict)
    if "contentVersion" not in metadata:
        violation("metadata has no contentVersion")


@clause("AID-2.2.1-06")
def test_2_2_1_content_version_is_string(manifest: Document) -> None:
    """**`contentVersion`**: Optional but **Recommended**. String."""
    value = manifest.member("metadata", "contentVersion", required=False)
    if not isinstance(value, str):
        violation(f"metadata.contentVersion is a JSON {kind_name(value)}, not a string")


@clause("AID-2.2.1-08")
def test_2_2_1_documentation_is_absolute_url(manifest: Document) -> None:
    """**`documentation`**: Optional. String. URL to human-readable documentation."""
    value = manifest.member("metadata", "documentation", required=False)
    if why := absolute_url_problem(value):
        violation(f"metadata.documentation {why}")


@clause("AID-2.2.1-09")
def test_2_2_1_revocation_url_is_absolute_https(manifest: Document) -> None:
    """**`revocationURL`**: Optional. String. An absolute HTTPS URL for a real-time status check."""
    value = manifest.member("metadata", "revocationURL", required=False)
    if why := absolute_url_problem(value, https=True):
        violation(f"metadata.revocationURL {why}")


@clause("AID-2.2.1-10")
def test_2_2_1_implementations_non_empty_array_of_objects(manifest: Document) -> None:
    """**`implementations`**: **Required**. Array of one or more **Implementation Objects**."""
    top = _top(manifest)
    if "implementations" not in top:
        violation("the manifest has no implementations")
    value = top["implementations"]
    if not isinstance(value, list):
        violation(f"implementations is a JSON {kind_name(value)}, not an array")
    if not value:
        violation("implementations is an empty array")
    wrong = [f"implementations[{i}] is a JSON {kind_name(e)}" for i, e in enumerate(value) if not isinstance(e, dict)]
    if wrong:
        violation("; ".join(wrong[:6]) + ", not an object")
