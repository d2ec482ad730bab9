"""A scan's exchanges as WARC records (ISO 28500, written and read by warcio), one domain at a time.

Every request the scan sent is a ``request`` record; its answer a ``response`` record
(``WARC-Concurrent-To`` the request), or, when no answer came, a ``metadata`` record holding the
error. A TXT lookup is a ``resource`` record at ``dns:NAME?type=TXT`` holding the answer as JSON
(status, TTL, each record's character-strings in base64, the DNSSEC state); the lookup made to
pace a host per address, one at ``dns:HOST?type=A`` (or ``?type=A+AAAA`` when the host had no A
record and AAAA was asked too), holding the addresses found. The kit's own facts
ride in ``WARC-Adck-*`` headers: the domain scanned, the timings, the TLS version, an error that
cut a body. A response's payload is the body **as the kit decoded it** (``WARC-Adck-Body:
decoded``), beside the headers as received (a ``Content-Encoding`` among them): the bytes the
clauses judged. ``WARC-Truncated: length`` marks a body cut at the kit's size cap.

Each domain's records are written together, and the byte range they take is kept in an index
beside the file (``SCAN.warc.gz.idx``, JSON lines ``{"domain", "offset", "length"}``), so that
one domain is read back without reading the others (``warc:SCAN.warc.gz#DOMAIN``).
"""

from __future__ import annotations

import base64
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Iterator

from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from conformance import __version__
from conformance.dns import TxtAnswer
from conformance.fetch import Exchange
from conformance.recording import Addresses, Recording

INDEX_SUFFIX = ".idx"
DNS_TYPE = "application/vnd.adck.dns-answer+json"
#: The ``type`` of a DNS resource record holding a host's address lookup (not a TXT answer): the
#: record types asked, "A" or "A AAAA".
ADDRESSES = ("A", "A AAAA")
ERROR_TYPE = "application/vnd.adck.exchange-error+json"


def index_path(path: Path) -> Path:
    return path.with_name(path.name + INDEX_SUFFIX)


@dataclass(frozen=True)
class Span:
    """Where one domain's records are in a WARC file."""

    domain: str
    offset: int
    length: int


class DomainWriter:
    """Appends domains' records to one WARC file and its index; the file opens with a
    ``warcinfo`` record saying what wrote it."""

    def __init__(self, path: Path, info: dict[str, str] | None = None) -> None:
        self.path = Path(path)
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        self._file: IO[bytes] = open(self.path, "ab")
        self._index = open(index_path(self.path), "a", encoding="utf-8")
        self._writer = WARCWriter(self._file, gzip=True)
        if fresh:
            fields = {"software": f"adck/{__version__}", "format": "WARC File Format 1.1", **(info or {})}
            self._writer.write_record(self._writer.create_warcinfo_record(self.path.name, fields))
            self._file.flush()

    def write(self, domain: str, recording: Recording) -> Span:
        """The domain's exchanges and answers, in the order they were made; flushed."""
        buffer = io.BytesIO()
        writer = WARCWriter(buffer, gzip=True)
        for kind, item in recording.items():
            records = (_http_records(writer, domain, item) if kind == "http" else
                       [_addresses_record(writer, domain, item)] if kind == "addresses" else [_dns_record(writer, domain, item)])
            for record in records:
                writer.write_record(record)
        data = buffer.getvalue()
        offset = self._file.tell()
        self._file.write(data)
        self._file.flush()
        span = Span(domain, offset, len(data))
        self._index.write(json.dumps({"domain": domain, "offset": offset, "length": len(data)}) + "\n")
        self._index.flush()
        return span

    def tell(self) -> int:
        return self._file.tell()

    def close(self) -> None:
        self._file.close()
        self._index.close()

    def __enter__(self) -> "DomainWriter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _common(domain: str, **more: str) -> dict[str, str]:
    return {"WARC-Adck-Domain": domain, **{k: v for k, v in more.items() if v}}


def _http_records(writer: WARCWriter, domain: str, ex: Exchange) -> list:
    path = ex.url.split("://", 1)[-1].partition("/")[2]
    request_line = f"{ex.method} /{path} {ex.http_version or 'HTTP/1.1'}"
    request = writer.create_warc_record(
        ex.url, "request", payload=io.BytesIO(ex.request_body),
        http_headers=StatusAndHeaders(request_line, list(ex.request_headers.items()), is_http_request=True),
        warc_headers_dict=_common(domain, **{"WARC-Adck-Credentials": ex.credentials}))
    request_id = request.rec_headers.get_header("WARC-Record-ID")
    timings = json.dumps({"headers": ex.elapsed_headers, "total": ex.elapsed_total})
    if ex.status is None:
        error = json.dumps({"error": list(ex.error) if ex.error else None, "elapsed": timings}).encode()
        meta = writer.create_warc_record(ex.url, "metadata", payload=io.BytesIO(error), warc_content_type=ERROR_TYPE,
                                         warc_headers_dict=_common(domain, **{"WARC-Concurrent-To": request_id}))
        return [request, meta]
    status_line = f"{ex.status} {ex.reason}".strip()
    extra = {"WARC-Concurrent-To": request_id, "WARC-Adck-Body": "decoded", "WARC-Adck-Elapsed": timings,
             "WARC-Adck-Protocol": ex.http_version, "WARC-Adck-TLS": ex.tls_version or "",
             "WARC-Truncated": "length" if ex.body_truncated else "",
             "WARC-Adck-Error": json.dumps(list(ex.error)) if ex.error else ""}
    response = writer.create_warc_record(
        ex.url, "response", payload=io.BytesIO(ex.body), length=len(ex.body),
        http_headers=StatusAndHeaders(status_line, list(ex.response_headers), protocol=ex.http_version or "HTTP/1.1"),
        warc_headers_dict=_common(domain, **extra))
    return [request, response]


def _dns_record(writer: WARCWriter, domain: str, answer: TxtAnswer):
    data = {"name": answer.name, "type": "TXT", "status": answer.status, "ttl": answer.ttl, "dnssec": answer.dnssec,
            "detail": answer.detail,
            "records": [[base64.b64encode(s).decode("ascii") for s in strings] for strings in answer.records]}
    return writer.create_warc_record(f"dns:{answer.name}?type=TXT", "resource",
                                     payload=io.BytesIO(json.dumps(data).encode()), warc_content_type=DNS_TYPE,
                                     warc_headers_dict=_common(domain))


def _addresses_record(writer: WARCWriter, domain: str, found: Addresses):
    # status and records as a TXT answer's, so a kit that knows no address records reads it as an
    # empty answer for a name no judged run asks (the host itself, never _agent.HOST)
    data = {"name": found.name, "type": " ".join(found.asked), "status": "ok", "addresses": list(found.found),
            "records": [], "detail": "looked up to pace the scan's requests per address"}
    return writer.create_warc_record(f"dns:{found.name}?type={'+'.join(found.asked)}", "resource",
                                     payload=io.BytesIO(json.dumps(data).encode()), warc_content_type=DNS_TYPE,
                                     warc_headers_dict=_common(domain))


# ---------------------------------------------------------------------- reading


def spans(path: Path) -> list[Span]:
    """The domains a scan's WARC holds and where (its index; the last span of a domain written
    twice wins)."""
    found: dict[str, Span] = {}
    index = index_path(Path(path))
    if index.exists():
        for line in index.read_text("utf-8").splitlines():
            try:
                item = json.loads(line)
                found[item["domain"]] = Span(item["domain"], int(item["offset"]), int(item["length"]))
            except (ValueError, KeyError, TypeError):
                continue  # a line cut by a crash: its domain is scanned again
    return list(found.values())


def read_domain(path: Path, domain: str) -> Recording:
    """One domain's recording, offline (answers what the scan sent; refuses anything else)."""
    span = next((s for s in spans(path) if s.domain == domain), None)
    with open(path, "rb") as handle:
        if span is not None:
            handle.seek(span.offset)
            data = io.BytesIO(handle.read(span.length))
            recordings = _read(data)
        else:  # no index: read the whole file
            recordings = _read(handle)
    return recordings.get(domain, Recording()).offline()


def read_all(path: Path) -> dict[str, Recording]:
    """Every domain's recording in a WARC file, offline."""
    with open(path, "rb") as handle:
        return {domain: rec.offline() for domain, rec in _read(handle).items()}


def _read(stream: IO[bytes]) -> dict[str, Recording]:
    out: dict[str, Recording] = {}
    requests: dict[str, tuple[str, Exchange]] = {}
    for record in ArchiveIterator(stream, no_record_parse=False):
        headers = record.rec_headers
        domain = headers.get_header("WARC-Adck-Domain")
        if not domain:
            continue
        recording = out.setdefault(domain, Recording(live=True, read_only=False))
        kind, uri = record.rec_type, headers.get_header("WARC-Target-URI")
        if kind == "request":
            http = record.http_headers
            method = http.protocol.split(" ", 1)[0] if http.protocol else "GET"
            exchange = Exchange(method=method, url=uri, request_headers=dict(http.headers),
                                request_body=record.raw_stream.read(),
                                credentials=headers.get_header("WARC-Adck-Credentials") or "")
            requests[headers.get_header("WARC-Record-ID")] = (domain, exchange)
        elif kind in ("response", "metadata"):
            pair = requests.pop(headers.get_header("WARC-Concurrent-To") or "", None)
            if pair is None:
                continue
            exchange = pair[1]
            if kind == "metadata":
                data = json.loads(record.raw_stream.read() or b"{}")
                exchange.error = tuple(data["error"]) if data.get("error") else None
                timings = json.loads(data.get("elapsed") or "{}")
            else:
                _response(exchange, record)
                timings = json.loads(headers.get_header("WARC-Adck-Elapsed") or "{}")
            exchange.elapsed_headers, exchange.elapsed_total = timings.get("headers"), timings.get("total")
            recording.keep(exchange)
        elif kind == "resource" and uri and uri.startswith("dns:"):
            data = json.loads(record.raw_stream.read())
            if data.get("type") in ADDRESSES:
                recording.keep_addresses(Addresses(data["name"], tuple(data.get("addresses", ())),
                                                   tuple(data["type"].split())))
                continue
            answer = TxtAnswer(name=data["name"], status=data["status"], ttl=data.get("ttl"),
                               dnssec=data.get("dnssec", "unchecked"), detail=data.get("detail", ""),
                               records=[[base64.b64decode(s) for s in strings] for strings in data.get("records", [])])
            recording.keep_txt(answer)
    return out


def _response(exchange: Exchange, record) -> None:  # noqa: ANN001 - a warcio record
    headers = record.rec_headers
    http = record.http_headers
    code, _, reason = http.statusline.partition(" ")
    exchange.status = int(code)
    exchange.reason = reason
    exchange.http_version = headers.get_header("WARC-Adck-Protocol") or http.protocol or "HTTP/1.1"
    exchange.response_headers = list(http.headers)
    exchange.body = record.raw_stream.read()
    exchange.body_truncated = headers.get_header("WARC-Truncated") == "length"
    exchange.tls_version = headers.get_header("WARC-Adck-TLS") or None
    error = headers.get_header("WARC-Adck-Error")
    exchange.error = tuple(json.loads(error)) if error else None


def domains(path: Path) -> Iterator[str]:
    """The domains a scan's WARC holds, in the order written."""
    yield from (span.domain for span in sorted(spans(path), key=lambda s: s.offset))


def scanned_drafts(path: Path) -> tuple[str, ...]:
    """The drafts (with the revision judged) a scan's WARC says it scanned (its warcinfo record)."""
    with open(path, "rb") as handle:
        for record in ArchiveIterator(handle):
            if record.rec_type == "warcinfo":
                for line in record.raw_stream.read().decode("utf-8", "replace").splitlines():
                    name, _, value = line.partition(":")
                    if name.strip() == "adck-scan-drafts":
                        return tuple(d.strip() for d in value.split(",") if d.strip())
            break
    return ()
