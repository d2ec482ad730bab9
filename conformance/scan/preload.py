"""The warm-up a scan's forkserver runs when it starts (:mod:`conformance.scan.warm`): importing
this module judges, offline, a recording that holds nothing, once for each draft with a ``[scan]``
entry point, in the roles a scan checks. Nothing is sent (the recording answers every request
"not recorded") and nothing is written; the verdicts are thrown away. What stays is what every
judging process forked from here would otherwise load on its own: the suites' modules, imported
and their asserts rewritten, the catalogs read, and which module holds which clause tests.

A warm-up that fails costs only speed: each forked process then loads what it needs itself.
"""

from __future__ import annotations

import gc


def warm_up() -> list[str]:
    """Judge the empty recording under every scanned draft; the drafts whose run went through."""
    from conformance import api, catalog
    from conformance.recording import Recording

    warmed = []
    for short in catalog.available():
        try:
            profile = catalog.load(short)
            if profile.scan is None:
                continue
            domain = "warm-up.invalid"
            target = domain if profile.bare_target == "domain" else f"https://{domain}"
            run = api.run(short, target, roles=profile.scan.roles, report_dir=None, seed=0,
                          recording=Recording(live=False))
            if run.report is not None:
                warmed.append(short)
        except Exception:  # noqa: BLE001 - a warm-up never stops the judging it would speed up
            continue
    return warmed


WARMED = warm_up()
# What the warm-up left is shared with every process forked from here until one writes to it; a
# collector pass in each would touch (and so copy) every object's page. Frozen, it is not
# traversed (as pre-fork servers do: https://docs.python.org/3/library/gc.html#gc.freeze).
gc.freeze()
