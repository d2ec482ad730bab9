"""``adck scan --dask local``: the same scan as Dask tasks on a two-worker LocalCluster gives the
same result lines and the same WARC contents as the single-process scan."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.scan import warc
from conformance.scan.domain import ScanOptions
from conformance.scan.run import Outputs, scan
from conformance.world.internet import simulated_internet

pytest.importorskip("distributed", reason="the cluster extra (pip install 'adck[cluster]'), in the test extras")


def test_a_local_cluster_scan_equals_the_single_process_one(tmp_path: Path) -> None:
    from conformance.scan import cluster

    with simulated_internet(40, seed=3, publishing=0.3, slow_delay=2.0) as net:
        options = ScanOptions(drafts=("aiendpoint", "woa", "aidre", "aid"), ca_bundle=str(net.ca_bundle),
                              connect_to=tuple(net.connect_to), nameservers=(net.nameserver,), timeout=1.0, seed=4)
        alone = Outputs(tmp_path / "one")
        scan(net.domains(), options, alone, concurrency=8, rate=100)
        spread = Outputs(tmp_path / "dask")
        stats = cluster.scan(net.domains(), options, spread, address="local", partitions=3, concurrency=8,
                             rate=100, deadline=None)
    def keyed(path: Path) -> dict:  # each line's replay names its own scan's WARC file
        return {(i["domain"], i["draft"]): {**i, "replay": i["replay"].replace(f"warc:{path.stem}.warc.gz#", "warc:#")}
                for i in map(json.loads, path.read_text().splitlines())}

    assert stats.scanned == len(net.hosts)
    assert keyed(spread.results) == keyed(alone.results)
    assert sorted(s.domain for s in warc.spans(spread.warc)) == sorted(net.domains())
    merged, single = warc.read_all(spread.warc), warc.read_all(alone.warc)
    assert {d: len(r.items()) for d, r in merged.items()} == {d: len(r.items()) for d, r in single.items()}
    assert json.loads(spread.summary_json.read_text()) == json.loads(alone.summary_json.read_text())
    assert [p.name for p in tmp_path.glob("dask.part-*.jsonl")] and warc.scanned_drafts(spread.warc)
