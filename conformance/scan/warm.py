"""Processes that judge start warm: the suites are loaded once a scan, and every judging process is
forked from the one that loaded them.

The first document of a draft a process judges costs up to 1.7 s of CPU beyond the 0.13 s of
the next ones: Python imports pytest, hypothesis and the kit, pytest imports the suite's modules
and rewrites their asserts, the catalogs are read. A scan judging in several processes (its
judging workers, a LocalCluster's partitions) would pay that in each. They are forked instead
from multiprocessing's *forkserver*, which imports :mod:`conformance.scan.preload` when it starts:
that judges, offline, a recording that holds nothing, once for each draft a scan judges, the
roles a scan checks. Every suite module those runs collect is then imported, rewritten and known
to the plugin's collection (:data:`conformance.plugin._MODULE_CLAUSES`), in every process forked
from it.

Where there is no forkserver (Windows) the processes are spawned, each loading what it needs.
"""

from __future__ import annotations

import multiprocessing
from multiprocessing.context import BaseContext

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
