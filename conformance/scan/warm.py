"""Processes that judge start warm: the suites are loaded once a scan, and every judging process is
forked from the one that loaded them.

The first document of a draft a process judges costs up to 1.7 s of CPU beyond the 0.13 s of
the next ones: Python imports pytest, hypothesis and the kit, pytest imports the suite's modules
and rewrites their asserts, the catalogs are read. A scan judging in several processes (its
judging workers, a LocalCluster's partitions) would pay that in each. They are forked instead
from multiprocessing's *forkserver*, which imports :mod:`conformance.scan.preload` when it starts:
that runs :func:`warm_up`, which judges, offline, a recording that holds nothing, once for each
draft a scan judges, the roles a scan checks. Every suite module those runs collect is then
imported, rewritten and known to the plugin's collection
(:data:`conformance.plugin._MODULE_CLAUSES`), in every process forked from it.

Where there is no forkserver (Windows) the processes are spawned, each loading what it needs.
"""

from __future__ import annotations

import multiprocessing
from multiprocessing.context import BaseContext

#: The name a warm-up judges: a reserved one (RFC 2606), answered by nothing, since the recording
#: holds nothing and sends nothing.
WARM_UP_DOMAIN = "warm-up.invalid"

#: What the forkserver imports when it starts: the warm-up (conformance/scan/preload.py).
PRELOAD = "conformance.scan.preload"


def context() -> BaseContext:
    """The multiprocessing context judging processes start from: the forkserver, preloaded with
    the warm-up, or ``spawn`` where there is none. The forkserver is one per process, started on
    first use; the preload applies when it starts."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    forkserver = multiprocessing.get_context("forkserver")
    forkserver.set_forkserver_preload([PRELOAD])
    return forkserver


def stop() -> None:
    """End this process's forkserver, if it runs, once every process forked from it has ended:
    the next judging process starts a new one, warmed up anew here (a benchmark counts each run's
    warm-up; a self-test starts one in a folder of its choosing). ``adck scan`` never needs it:
    the forkserver ends with the scan's process. Uses multiprocessing's own ``_stop``, where the
    Python running has it."""
    from multiprocessing import forkserver

    ending = getattr(forkserver._forkserver, "_stop", None)
    if ending is not None:
        ending()


def warm_up() -> list[str]:
    """Judge, offline, a recording that holds nothing, once for each draft with a ``[scan]`` entry
    point, in the roles a scan checks; the drafts whose run went through. Nothing is sent (the
    recording refuses every request), nothing is written, the verdicts are thrown away: what stays
    is what a judging process would otherwise load itself (the suites' modules, imported and their
    asserts rewritten; the catalogs; which module holds which clause tests). A draft whose
    warm-up fails costs only speed: a forked process then loads what it needs itself."""
    from conformance import api, catalog
    from conformance.recording import Recording

    warmed = []
    for short in catalog.available():
        try:
            profile = catalog.load(short)
            if profile.scan is None:
                continue
            target = WARM_UP_DOMAIN if profile.bare_target == "domain" else f"https://{WARM_UP_DOMAIN}"
            run = api.run(short, target, roles=profile.scan.roles, report_dir=None, seed=0,
                          recording=Recording(live=False))
            if run.report is not None:
                warmed.append(short)
        except Exception:  # noqa: BLE001 - a warm-up never stops the judging it would speed up
            continue
    return warmed
