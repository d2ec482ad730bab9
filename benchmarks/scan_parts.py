"""Where a scan's CPU goes for a domain that publishes nothing (issue 25: "say what bounds it").

    python benchmarks/scan_parts.py [--domains 400]

Runs each part of asking one quiet domain on its own, one domain after another on one thread
(no thread pool, no event loop), against the simulated internet in a child process, and prints
the CPU and wall time per domain of each: the three HTTPS GETs, the TXT lookup, the A (and AAAA)
lookups that pace a host, the whole probe as a scan makes it (recorded, paced), writing its WARC
records, and its four result lines. Then the three GETs against two minimal servers that answer
404 to everything: Werkzeug's as it comes (it closes every connection, so each GET pays a TLS
handshake; the simulated internet keeps its connections open) and uvicorn's (it keeps the
connection open: the three share one). The
difference between the probe here and a scan's CPU per domain in ``benchmarks/scan.py`` is what
running many domains at once costs (threads under one interpreter lock, the event loop).
Speed is measured here, never asserted in a test.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PATHS = ("/.well-known/ai", "/.well-known/woa.json", "/.well-known/ai-discovery")


def _per_domain(label: str, step, domains: list[str]) -> None:  # noqa: ANN001 - a callable of one domain
    cpu, wall = time.process_time(), time.monotonic()
    for domain in domains:
        step(domain)
    cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    print(f"| {label} | {cpu / len(domains) * 1000:.2f} ms | {wall / len(domains) * 1000:.2f} ms |")


def parts(n: int) -> None:
    from scan import _Internet

    from conformance import catalog
    from conformance.dns import Resolver
    from conformance.fetch import Fetcher
    from conformance.scan import warc
    from conformance.scan.domain import DraftResult, Pacer, ScanOptions, live_recording, scan_domain

    net = _Internet(n + 100, 0.0)
    try:
        options = ScanOptions(drafts=("aiendpoint", "woa", "aidre", "aid"), ca_bundle=str(net.ca_bundle),
                              connect_to=tuple(net.connect_to), nameservers=(net.nameserver,), timeout=2.0, seed=1)
        profiles = [catalog.load(s.partition("@")[0]) for s in options.draft_specs()]
        quiet = [h.domain for h in net.hosts if h.expected["aiendpoint"] == "not-found" and not h.publishes]
        warm, domains = quiet[:30], quiet[30:30 + n]
        resolver = Resolver(options.dns())
        pacer = Pacer(1000.0, Resolver(options.dns()))
        recordings = {}

        def gets(domain: str) -> None:
            with Fetcher(options.http()) as fetcher:
                for path in PATHS:
                    fetcher.get(f"https://{domain}{path}")

        def probe(domain: str) -> None:
            recordings[domain] = live_recording(domain, options, profiles, pacer)
            scan_domain(domain, options, recordings[domain], judge=False)

        with tempfile.TemporaryDirectory() as folder:
            writer = warc.DomainWriter(Path(folder) / "parts.warc.gz", {})
            steps = [("three HTTPS GETs (one fetcher, nothing recorded)", gets),
                     ("the TXT lookup at _agent", lambda d: resolver.txt(f"_agent.{d}")),
                     ("the address lookup that paces the host (A)", resolver.addresses),
                     ("the whole probe, as a scan makes it (recorded, paced)", probe),
                     ("its WARC records written", lambda d: writer.write(d, recordings[d])),
                     ("its four result lines", lambda d: [DraftResult(d, s, "x", "not-found", "HTTP 404").to_json()
                                                          for s in ("aiendpoint", "woa", "aidre", "aid")])]
            for _, step in steps[:4]:  # imports, caches, the first connections
                for domain in warm:
                    step(domain)
            print(f"\n{len(domains)} domains that publish nothing, one after another on one thread:\n")
            print("| part | CPU per domain | wall per domain |\n|---|---|---|")
            for label, step in steps:
                _per_domain(label, step, domains)
            writer.close()
    finally:
        net.stop()


def _serve(kind: str, folder: str, pipe) -> None:  # noqa: ANN001 - a multiprocessing Connection
    """A minimal HTTPS server answering 404 to everything, in a child process: its port, then its
    CPU and the connections it was asked on, when asked."""
    import logging
    import ssl
    import threading

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    seen = {"last": None, "connections": 0}  # the GETs come one after another: a new port, a new connection

    def asked_on(port: int) -> None:
        if port != seen["last"]:
            seen["last"], seen["connections"] = port, seen["connections"] + 1

    if kind == "werkzeug":
        from werkzeug import Response
        from werkzeug.serving import make_server

        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(f"{folder}/cert.pem", f"{folder}/key.pem")
        def wsgi(env, start):  # noqa: ANN001, ANN202
            asked_on(env["REMOTE_PORT"])
            return Response("nope", status=404)(env, start)

        server = make_server("127.0.0.1", 0, wsgi, threaded=True, ssl_context=context)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        pipe.send(server.server_port)
    else:
        import socket

        import uvicorn

        async def app(scope, receive, send) -> None:  # noqa: ANN001
            if scope["type"] == "http":
                asked_on(scope["client"][1])
                await send({"type": "http.response.start", "status": 404,
                            "headers": [(b"content-type", b"text/plain"), (b"content-length", b"4")]})
                await send({"type": "http.response.body", "body": b"nope"})

        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        config = uvicorn.Config(app, ssl_certfile=f"{folder}/cert.pem", ssl_keyfile=f"{folder}/key.pem",
                                log_level="error", lifespan="off")
        server = uvicorn.Server(config)
        threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
        while not server.started:
            time.sleep(0.05)
        pipe.send(sock.getsockname()[1])
    while pipe.recv() == "cpu":
        usage = resource.getrusage(resource.RUSAGE_SELF)
        pipe.send((usage.ru_utime + usage.ru_stime, seen["connections"]))


def keep_alive(n: int) -> None:
    import multiprocessing

    import trustme

    from conformance.fetch import ConnectTo, Fetcher, HttpConfig

    with tempfile.TemporaryDirectory() as folder:
        ca = trustme.CA()
        cert = ca.issue_cert("*.adck.test")
        cert.private_key_pem.write_to_path(f"{folder}/key.pem")
        cert.cert_chain_pems[0].write_to_path(f"{folder}/cert.pem")
        ca.cert_pem.write_to_path(f"{folder}/ca.pem")
        print(f"\nthree GETs a domain, {n} domains, one fetcher each, against a minimal server answering 404:\n")
        print("| server | client CPU per domain | server CPU per domain | connections per domain |\n|---|---|---|---|")
        context = multiprocessing.get_context("spawn")
        for kind, said in (("werkzeug", "Werkzeug (closes every connection: a TLS handshake per GET)"),
                           ("uvicorn", "uvicorn (keeps it open: one handshake per domain)")):
            ours, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(kind, folder, theirs), daemon=True)
            process.start()
            port = ours.recv()
            config = HttpConfig(ca_bundle=Path(f"{folder}/ca.pem"), connect_to=(ConnectTo.parse(f"::127.0.0.1:{port}"),))
            ours.send("cpu")
            (served, connections), cpu = ours.recv(), time.process_time()
            for i in range(n):
                with Fetcher(config) as fetcher:
                    for path in PATHS:
                        fetch = fetcher.get(f"https://d-{i}.adck.test{path}")
                        assert fetch.final is not None and fetch.final.status == 404, fetch.error
            cpu = time.process_time() - cpu
            ours.send("cpu")
            after, peers = ours.recv()
            print(f"| {said} | {cpu / n * 1000:.2f} ms | {(after - served) / n * 1000:.2f} ms | "
                  f"{(peers - connections) / n:.2f} |")
            ours.send("stop")
            process.join(5)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domains", type=int, default=400)
    args = parser.parse_args(argv)
    parts(args.domains)
    keep_alive(min(args.domains, 300))
    return 0


if __name__ == "__main__":
    sys.exit(main())
