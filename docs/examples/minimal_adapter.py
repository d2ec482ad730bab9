"""A minimal adck-harness/1 adapter around a toy aiendpoint client (standard library only).

    adck run aiendpoint --role agent --target "cmd:python docs/examples/minimal_adapter.py"

The protocol is docs/harness-protocol.md; the quoted names in the comments ("Transport",
"The network", ...) are its section titles. The toy client honours the plumbing (connect_to,
ca_file, now, sessions) and the basics of the draft. On purpose it does NOT back off after a
404 or a 429, cap the document's size or the number of capabilities, or offer
aiendpoint.invoke: the kit reports those clauses as failed or not applicable.
"""

import http.client
import json
import re
import socket
import ssl
import sys
from datetime import datetime, timedelta
from urllib.parse import urljoin, urlsplit

PROTOCOL = "adck-harness/1"
REDIRECTS = (301, 302, 303, 307, 308)
_PART = r"(\[[^\]]*\]|[^:\[\]]*)"  # a host name, or an IPv6 address in brackets


class MappedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to ``host`` over a TCP connection to ``address`` (curl's --connect-to):
    SNI, the Host header and the certificate check all keep ``host`` ("The network")."""

    def __init__(self, host, port, address, tls, timeout=10):
        super().__init__(host, port, context=tls, timeout=timeout)
        self.address, self.tls = address, tls

    def connect(self):
        sock = socket.create_connection(self.address, self.timeout)
        try:
            self.sock = self.tls.wrap_socket(sock, server_hostname=self.host)
        except BaseException:
            sock.close()
            raise


class Refused(Exception):
    """The toy client would not go on (a redirect it must not follow)."""

    def __init__(self, kind, detail):
        super().__init__(detail)
        self.kind, self.detail = kind, detail


class ToyClient:
    """One client instance; the adapter keeps one per session id ("Sessions")."""

    def __init__(self, network):
        self.connect_to = []  # HOST1:PORT1:HOST2:PORT2; an empty field matches any / keeps the original
        for spec in network["connect_to"]:
            h1, p1, h2, p2 = re.fullmatch(rf"{_PART}:(\d*):{_PART}:(\d*)", spec).groups()
            self.connect_to.append((h1.strip("[]").lower(), p1, h2.strip("[]"), p2))
        # trust exactly the CA in ca_file: with cafile=, no system certificates are loaded
        self.tls = ssl.create_default_context(cafile=network["ca_file"])
        self.cache = {}  # origin -> (fresh until, reply fields)

    def address(self, host, port):
        for h1, p1, h2, p2 in self.connect_to:  # the first matching mapping wins
            if h1 in ("", host.lower()) and p1 in ("", str(port)):
                return (h2 or host, int(p2) if p2 else port)
        return (host, port)

    def get(self, url):
        """GET over HTTPS only, following at most 5 redirects, never from https to http."""
        for hop in range(6):
            parts = urlsplit(url)
            if parts.scheme != "https":
                raise Refused("insecure-redirect", f"will not follow a redirect to {url}")
            port = parts.port or 443
            conn = MappedHTTPSConnection(parts.hostname, port, self.address(parts.hostname, port), self.tls)
            try:
                conn.request("GET", (parts.path or "/") + (f"?{parts.query}" if parts.query else ""),
                             headers={"Accept": "application/json", "User-Agent": "toy-aiendpoint/0.1"})
                resp = conn.getresponse()
                body = resp.read()
            finally:
                conn.close()
            if resp.status not in REDIRECTS or not resp.getheader("Location"):
                return resp, body
            if hop == 5:
                raise Refused("too-many-redirects", "more than 5 redirects")
            url = urljoin(url, resp.getheader("Location"))

    def discover(self, authority, now):
        """The outcome and fields of a discover reply ("The reply")."""
        if "://" not in authority:
            authority = "https://" + authority  # a bare host name: HTTPS
        origin = "https://" + urlsplit(authority).netloc  # http:// is upgraded, never fetched
        hit = self.cache.get(origin)
        if hit and now < hit[0]:  # freshness on the kit's clock ("The clock"), never time.time()
            return hit[1] | {"messages": ["from cache"]}
        try:
            resp, body = self.get(origin + "/.well-known/ai")
        except Refused as exc:
            return {"outcome": "error", "error_kind": exc.kind, "messages": [exc.detail]}
        except ssl.SSLError as exc:  # before OSError, which it is
            return {"outcome": "error", "error_kind": "tls", "messages": [str(exc)]}
        except (OSError, http.client.HTTPException) as exc:
            return {"outcome": "error", "error_kind": "network", "messages": [repr(exc)]}
        if resp.status == 404:
            return {"outcome": "none", "error_kind": "not-found"}
        if resp.status != 200:  # 5xx, 429, ...: transient, the client cannot tell now
            return {"outcome": "error", "error_kind": f"http-{resp.status}"}
        if (resp.getheader("Content-Type") or "").split(";")[0].strip().lower() != "application/json":
            return {"outcome": "none", "error_kind": "not-json"}
        try:
            doc = json.loads(body, parse_constant=_not_json)  # RFC 8259: NaN and Infinity are not JSON
        except ValueError:  # not JSON: the service does not implement the draft
            return {"outcome": "none", "error_kind": "invalid-json"}
        if not (isinstance(doc, dict) and isinstance(doc.get("aiendpoint"), str)
                and isinstance(doc.get("service"), dict) and isinstance(doc.get("capabilities"), list)):
            return {"outcome": "none", "error_kind": "invalid-document"}
        capabilities = [  # resolved to absolute URLs; only entries reply.json can carry (strings)
            {"id": c["id"], "method": c["method"],
             "url": origin + c["endpoint"] if c["endpoint"].startswith("/") else c["endpoint"]}
            for c in doc["capabilities"]
            if isinstance(c, dict) and all(isinstance(c.get(k), str) for k in ("id", "method", "endpoint"))]
        auth = doc.get("auth")
        reply = {"outcome": "document", "error_kind": None, "document": doc, "capabilities": capabilities,
                 "auth_required": auth.get("type") != "none" if isinstance(auth, dict) else None,
                 "cached": None, "messages": []}
        cache_control = resp.getheader("Cache-Control") or ""
        max_age = re.search(r"max-age=(\d+)", cache_control)
        if max_age and not re.search(r"no-store|no-cache", cache_control):
            reply["cached"] = doc  # exactly what is stored: the document, which holds no credential
            self.cache[origin] = (now + timedelta(seconds=int(max_age.group(1))), reply)
        return reply


def _not_json(word):
    raise ValueError(f"{word} is not JSON")


SESSIONS = {}  # session id -> ToyClient, kept until stop


def handle(message, sessions=SESSIONS):
    """The reply to one message, None for stop. In-process it is a python: target too:
    --target python:minimal_adapter:handle, with docs/examples on the Python path."""
    if message["type"] == "hello":  # "The hello exchange"
        return {"type": "hello", "protocol": PROTOCOL, "operations": ["aiendpoint.discover"],
                "client": {"name": "toy-aiendpoint", "version": "0.1", "language": "python"}}
    if message["type"] == "stop":
        sessions.clear()
        return None
    reply = {"type": "result", "id": message["id"]}  # "The run request"
    if message["operation"] != "aiendpoint.discover":  # not offered in the hello
        return reply | {"outcome": "refused", "error_kind": "unsupported-operation"}
    params = message["params"]
    try:
        client = sessions.get(message["session"])
        if client is None:
            client = sessions[message["session"]] = ToyClient(params["network"])
        now = datetime.fromisoformat(params["now"].replace("Z", "+00:00"))
        return reply | client.discover(params["authority"], now)
    except Exception as exc:  # the client raised: report it, never crash the adapter
        return reply | {"outcome": "error", "error_kind": "unhandled", "messages": [f"{type(exc).__name__}: {exc}"]}


def main():
    """One JSON message per line on stdin, one reply per line on stdout ("Transport")."""
    sys.stdin.reconfigure(encoding="utf-8")
    for line in sys.stdin:
        if not line.strip():
            continue
        reply = handle(json.loads(line))
        if reply is None:  # stop: no reply, exit
            break
        sys.stdout.write(json.dumps(reply) + "\n")  # ASCII-only JSON: non-ASCII is escaped
        sys.stdout.flush()  # the kit is waiting for this line
    return 0


if __name__ == "__main__":
    sys.exit(main())
