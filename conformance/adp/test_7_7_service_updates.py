"""§7.7 Incremental updates and registrations (PUT {base}/agents/{id}, AMB-01, AMB-20)."""

from __future__ import annotations

from conformance.adp._service_fixtures import Probe, reached, response_or_untestable
from conformance.outcomes import clause, untestable, violation


def stale_case(service: Probe) -> None:
    """Register an agent with updated_at 2026-06-01, then a stale update of it (2026-01-01, other
    content): GET must still serve the newer record, member for member (AMB-13, AMB-48)."""
    __tracebackhide__ = True
    service.require_registration()
    newer = service.kit_metadata("stale", description="The newer record.", updated_at="2026-06-01T00:00:00Z",
                                 version="2.0.0")
    older = service.kit_metadata("stale", description="A stale update.", updated_at="2026-01-01T00:00:00Z",
                                 version="1.0.0", tags=["adck-stale-update"])
    service.register(newer, what="registering the newer record")
    stale = service.put_agent(older["id"], older)
    reached(stale, "the stale update")
    got = service.get_agent(newer["id"], fresh="after-stale")
    value = got.value
    if not got.ok or not isinstance(value, dict):
        untestable(f"GET of the registered agent was answered {got.describe()}")
    changed = {k: value.get(k) for k in newer if value.get(k) != newer[k]}
    if changed:
        violation(f"after a stale update (updated_at 2026-01-01, answered {stale.describe()}) the record serves "
                  f"{changed} instead of the newer record's values")


@clause("ADP-7.7-03")
def test_7_7_stale_update_never_replaces_newer(service: Probe) -> None:
    """A stale update MUST NOT replace a newer record: an agent registered with updated_at
    2026-06-01, then the same id with updated_at 2026-01-01 and other content (refusing it is
    allowed): GET still serves the 2026-06-01 record, member for member (AMB-13, AMB-48)."""
    stale_case(service)


@clause("ADP-7.7-04")
def test_7_7_registration_idempotent(service: Probe) -> None:
    """Registrations SHOULD be idempotent on (id, binding endpoint): the same registration sent
    twice succeeds both times and leaves one record (GET serves it; one candidate, not two)."""
    service.require_registration()
    metadata = service.kit_metadata("idempotent")
    service.register(metadata, what="the first registration")
    again = service.put_agent(metadata["id"], metadata, fresh="again")
    reached(again, "the same registration again")
    if not again.ok:
        violation(f"the same registration sent again was answered {again.describe()}")
    got = service.get_agent(metadata["id"], fresh="after-repeat")
    if not got.ok or not isinstance(got.value, dict) or got.value.get("id") != metadata["id"]:
        violation(f"after the same registration twice, GET of it was answered {got.describe()}")
    if service.discovers():  # a D0 service answers no Discovery Request (AMB-01)
        answer = service.discover({"query": "adck probe idempotent", "required_tags": [metadata["tags"][0]],
                                   "limit": 10})
        response_or_untestable(answer, "a request for the registered agent")
        count = answer.ids.count(metadata["id"])
        if count != 1:
            violation(f"after the same registration twice, {count} candidates have its id: {answer.ids}")


@clause("ADP-7.7-05")
def test_7_7_newer_registration_is_a_refresh(service: Probe) -> None:
    """Re-sending the same key with newer freshness data SHOULD be treated as a refresh: the same
    id and endpoint re-registered with a later updated_at succeeds, and GET serves the new one."""
    service.require_registration()
    first = service.kit_metadata("refresh", updated_at="2026-03-01T00:00:00Z")
    later = service.kit_metadata("refresh", updated_at="2026-07-01T00:00:00Z", version="1.1.0")
    service.register(first, what="the first registration")
    refresh = service.put_agent(later["id"], later)
    reached(refresh, "the refresh")
    if not refresh.ok:
        violation(f"re-registering with updated_at 2026-07-01 was answered {refresh.describe()}")
    got = service.get_agent(later["id"], fresh="after-refresh")
    value = got.value
    if not got.ok or not isinstance(value, dict):
        untestable(f"GET of the refreshed agent was answered {got.describe()}")
    if value.get("updated_at") != later["updated_at"] or value.get("version") != later["version"]:
        violation(f"after a refresh answered {refresh.status}, GET serves updated_at {value.get('updated_at')!r} "
                  f"and version {value.get('version')!r}")
