"""Fixtures of the aidre suite's server role: the discovery document, the endpoints it names,
and one shared :class:`Server` that sends each distinct request once per run.

A search is real work for the target: every POST goes through the run's :class:`Invoker`
(``--request-budget``), and identical requests are sent once and shared by the clauses that
judge them. Each test gets a :class:`Probe` that remembers which exchanges it looked at, so
a failure shows its own evidence, not the whole run's.
"""

from __future__ import annotations

import codecs
import json
import random
import re
import threading
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from conformance import answers
from conformance.document import Document, loads
from conformance.fetch import Exchange, Fetch, Fetcher
from conformance.invoke import Invoker, refused
from conformance.outcomes import not_applicable, untestable
from conformance.targets import Target

#: Where an AIDRE origin serves its discovery document (3.1).
WELL_KNOWN_PATH = "/.well-known/ai-discovery"
#: The AIDRE media type (14.1): the Accept of every request but the discovery one, which
#: lists application/json beside it, as the draft's 24.1 does (AMB-02).
MEDIA = "application/aidre+json"
ACCEPT = "application/aidre+json, application/json"
#: Method statuses that say the resource does not take the method (15.1).
METHOD_REFUSED = (405, 501)
#: The most dimensions of a space the kit sends vectors for (the largest models have a few
#: thousand; 11.5's oversized vector is 100,000 numbers).
MAX_DIMENSIONS = 65536
#: Members in which a result may carry a vector (AMB-16).
VECTOR_MEMBERS = ("vector", "vectors", "embedding")


class Answer(answers.Answer):
    """One answer of the AIDRE server: a successful search, a rejection, a chunk."""

    @property
    def successful_search(self) -> bool:
        """A 2xx whose body is a JSON object with a results array (16.1)."""
        value = self.value
        return self.ok and isinstance(value, dict) and isinstance(value.get("results"), list)

    @property
    def results(self) -> list:
        value = self.value
        return list(value["results"]) if isinstance(value, dict) and isinstance(value.get("results"), list) else []

    @property
    def rejected(self) -> bool:
        """Refused with an error object: 4xx and a JSON object body (AMB-03)."""
        return self.status is not None and 400 <= self.status < 500 and isinstance(self.value, dict)

    @property
    def refused(self) -> bool:
        """Refused, whatever the body: a 4xx (the error body is AIDRE-10-01's to judge, AMB-28)."""
        return self.status is not None and 400 <= self.status < 500

    @property
    def foreign_encoding(self) -> str | None:
        """Why the body, JSON in another encoding than UTF-8, cannot be read (14.2, AMB-63), or
        None: no body, a UTF-8 one, or one that is no JSON in any encoding the kit tries (the
        charset its Content-Type names, UTF-16, UTF-32, ISO-8859-1 for any 8-bit one): a body that
        is no JSON at all is judged as such by the clauses that read it."""
        final = self.final
        if final is None or not final.body:
            return None
        raw = final.body
        try:
            codecs.getincrementaldecoder("utf-8")("strict").decode(raw, final=not final.body_truncated)
            return None
        except UnicodeDecodeError as exc:
            why = f"byte 0x{raw[exc.start]:02x} at offset {exc.start} is no UTF-8"
        if final.body_truncated:
            return None  # the kit cannot parse a cut body in any encoding
        labelled = _CHARSET.search(final.header("content-type") or "")
        # any 8-bit encoding keeps JSON's ASCII structure: ISO-8859-1 stands for them all
        tried = ([labelled.group(1)] if labelled else []) + ["utf-16", "utf-32", "iso-8859-1"]
        for codec in dict.fromkeys(c.lower() for c in tried):
            try:
                loads(raw.decode(codec))
            except (ValueError, UnicodeDecodeError, LookupError):
                continue
            return f"a JSON body in {codec}, not UTF-8 ({why})"
        return None

    @property
    def charset(self) -> str | None:
        """The charset parameter of the Content-Type, or None."""
        final = self.final
        match = _CHARSET.search((final.header("content-type") or "") if final else "")
        return match.group(1) if match else None

    def describe(self) -> str:
        foreign = self.foreign_encoding if self.status is not None else None
        if foreign and self.value is NOT_JSON:
            return f"{self.status} ({self.media_type or 'no Content-Type'}) with {foreign}"
        return super().describe()

    def body_summary(self, value: Any) -> str:
        body = "a JSON object" + (f" with error {value['error']!r}" if "error" in value else "")
        if isinstance(value.get("results"), list):
            body += f" with {len(value['results'])} results"
        return body


NOT_JSON = answers.NOT_JSON
#: The charset parameter of a Content-Type (14.2).
_CHARSET = re.compile(r";\s*charset\s*=\s*\"?([^\";\s]+)", re.I)


@dataclass(frozen=True)
class Endpoints:
    """The resources the discovery document names (AMB-09), resolved against its URL.

    ``chunk`` is the document's endpoints.chunk, or /chunks/{id} on its origin when it names
    none (``chunk_named`` False): a path the kit only guesses, so whether the server offers
    chunk retrieval there is seen from a real result's id (AMB-31)."""

    discovery: str
    search: str | None
    collections: str | None
    chunk: str | None
    chunk_named: bool = True

    def chunk_url(self, chunk_id: str) -> str | None:
        """The chunk resource of ``chunk_id``: {id} expanded as an RFC 6570 simple expansion (AMB-12)."""
        if self.chunk is None:
            return None
        return self.chunk.replace("{id}", quote(chunk_id, safe=""))


class Server:
    """The AIDRE server under test: every request the suite sends, each distinct one once."""

    def __init__(self, fetcher: Fetcher, invoker: Invoker, endpoints: Endpoints, spaces: list[dict],
                 collections: list[dict], capabilities: dict | None = None) -> None:
        self.fetcher = fetcher
        self.invoker = invoker
        self.endpoints = endpoints
        self.spaces = spaces
        self.collections = collections
        #: The discovery document's capabilities object (AMB-09), {} without one.
        self.capabilities = capabilities or {}
        self._cache: dict[tuple, Answer] = {}
        self._lock = threading.Lock()

    def search(self, body: Any, *, content_type: str | None = MEDIA, raw: bytes | None = None,
               accept: str = MEDIA, fresh: str = "", credentials: bool = True) -> Answer:
        """POST a search (``raw`` bytes as they are, else ``body`` as JSON); identical requests
        share one answer unless ``fresh`` names a separate sending (the same request twice).
        ``credentials=False`` sends it without the user's credentials (a clause that judges
        what the server answers to a request without any)."""
        __tracebackhide__ = True
        if self.endpoints.search is None:
            untestable("the discovery document names no search endpoint (endpoints.search), so no search "
                       "can be sent (AMB-09)")
        content = raw if raw is not None else json.dumps(body, ensure_ascii=False).encode("utf-8")
        key = ("POST", self.endpoints.search, content, content_type, accept, fresh, credentials)
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        headers = {"Accept": accept}
        fetch = self.invoker.post(self.endpoints.search, content, content_type=content_type, headers=headers,
                                  opt_in=False, credentials=credentials)
        answer = Answer(fetch)
        with self._lock:
            self._cache[key] = answer
        return answer

    def searches_seen(self) -> list[Answer]:
        """Every search answer of the run so far (the clauses about rate limiting look for its
        signs in all of them: the kit sends no burst, AMB-07)."""
        with self._lock:
            return list(self._cache.values())

    def get(self, url: str, accept: str = MEDIA, credentials: bool = True) -> Answer:
        """GET ``url`` once per run (``credentials=False``: without the user's credentials);
        *untestable* when the URL, the document's, names a private address the user did not name."""
        __tracebackhide__ = True
        fetch = self.fetcher.get(url, headers={"Accept": accept}, credentials=credentials)
        refused(fetch)
        return Answer(fetch)

    def text_body(self, query: str = "single sign-on certificate", **extra: Any) -> dict:
        """A text search of the first public collection the server lists (or none), with top_k 5
        unless ``top_k`` says otherwise (``top_k=None``: without one, AIDRE-18.1-02's case)."""
        body: dict[str, Any] = {"query": query, "top_k": 5}
        public = self.public_collection()
        if public is not None:
            body["collection"] = public
        return {k: v for k, v in (body | extra).items() if v is not None}

    def public_collection(self) -> str | None:
        for c in self.collections:
            if isinstance(c, dict) and c.get("visibility", "public") == "public":
                name = c.get("id", c.get("name"))
                if isinstance(name, str) and name:
                    return name
        return None

    def protected_collections(self) -> list[str]:
        """Collections listed with a visibility other than public (AMB-22)."""
        out = []
        for c in self.collections:
            if isinstance(c, dict) and "visibility" in c and c["visibility"] != "public":
                name = c.get("id", c.get("name"))
                if isinstance(name, str) and name:
                    out.append(name)
        return out

    def usable_spaces(self) -> list[dict]:
        """Advertised embedding spaces with an id and a positive integer dimensions (AMB-10), up
        to :data:`MAX_DIMENSIONS` (a hostile document may declare 10**12: the kit builds no
        vector that long)."""
        return [s for s in self.spaces if isinstance(s, dict) and isinstance(s.get("id"), str)
                and isinstance(s.get("dimensions"), int) and not isinstance(s.get("dimensions"), bool)
                and 0 < s["dimensions"] <= MAX_DIMENSIONS]

    def vector_body(self, space: dict, vector: list[float] | None = None, seed: int = 0, **extra: Any) -> dict:
        dims = space["dimensions"]
        if vector is None:
            rng = random.Random(seed)
            vector = [round(rng.uniform(-1, 1), 6) for _ in range(dims)]
        body: dict[str, Any] = {"query_vector": vector, "embedding_space": space["id"], "top_k": 5}
        public = self.public_collection()
        if public is not None:
            body["collection"] = public
        return {k: v for k, v in (body | extra).items() if v is not None}


class Probe:
    """A test's view of the :class:`Server`: the answers it used are its evidence."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.used: list[Answer] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.server, name)

    def search(self, body: Any = None, *, method_refusal: bool = False, **kwargs: Any) -> Answer:
        """A search; a 405 or 501 (the resource refusing POST) makes the test *untestable*,
        naming AIDRE-15.1-02, unless ``method_refusal`` says the test judges that itself. A 501
        to a body holding query_vector is no method refusal: it says vector queries are not
        implemented (5.3's SHOULD, AMB-32), and is returned as the answer."""
        __tracebackhide__ = True
        answer = self.server.search(body, **kwargs)
        self.used.append(answer)
        vector = isinstance(body, dict) and "query_vector" in body
        if answer.status in METHOD_REFUSED and not method_refusal and not (answer.status == 501 and vector):
            untestable(f"the search resource answered {answer.status} (see AIDRE-15.1-02)")
        return answer

    def get(self, url: str, accept: str = MEDIA, method_refusal: bool = False, credentials: bool = True) -> Answer:
        """A GET (of a chunk, mostly); 405 or 501 make the test *untestable* (AIDRE-15.1-03)."""
        __tracebackhide__ = True
        answer = self.server.get(url, accept, credentials)
        self.used.append(answer)
        if answer.status in METHOD_REFUSED and not method_refusal:
            untestable(f"GET {url} was answered {answer.status} (see AIDRE-15.1-01, AIDRE-15.1-03)")
        return answer

    def evidence(self) -> list[Exchange]:
        return answers.EvidenceLog(self.used).evidence()


@pytest.fixture(scope="session")
def discovery_fetch(adck_target: Target, adck_fetcher: Fetcher) -> Fetch:
    """GET /.well-known/ai-discovery, once per run."""
    if adck_target.kind != "origin" or not adck_target.origin:
        not_applicable("the server role is checked on an origin (https://HOST or builtin)")
    return adck_fetcher.get(adck_target.origin + WELL_KNOWN_PATH, headers={"Accept": ACCEPT})


@pytest.fixture(scope="session")
def discovery(discovery_fetch: Fetch) -> Document:
    """The discovery document the server serves, or *untestable* naming AIDRE-3.1-01."""
    final = discovery_fetch.final
    if final is None or (discovery_fetch.error and discovery_fetch.error_kind != "too-large"):
        untestable(f"no discovery document at {discovery_fetch.url}: {discovery_fetch.describe_error()} "
                   "(see AIDRE-3.1-01)")
    if not 200 <= final.status < 300:
        untestable(f"{discovery_fetch.url} answered {final.status} {final.reason}, not the discovery document "
                   "(see AIDRE-3.1-01)")
    document = Document.from_fetch(discovery_fetch)
    if document.parse_error or not isinstance(document.value(), dict):
        untestable("the discovery document is not a JSON object, so it names no endpoint (see AIDRE-3.1-01)")
    return document


def _resolve(base: str, value: Any) -> str | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        # keep {id} as it is: httpx would percent-encode the braces
        joined = str(httpx.URL(base).join(value.replace("{id}", "ADCKIDPLACEHOLDER")))
    except Exception:  # noqa: BLE001 - a hostile URL is no endpoint
        return None
    return joined.replace("ADCKIDPLACEHOLDER", "{id}")


@pytest.fixture(scope="session")
def endpoints(discovery: Document, discovery_fetch: Fetch) -> Endpoints:
    value = discovery.value()
    named = value.get("endpoints") if isinstance(value.get("endpoints"), dict) else {}
    base = discovery_fetch.final_url
    chunk = _resolve(base, named.get("chunk"))
    if chunk is not None and "{id}" not in chunk:
        chunk = None
    chunk_named = bool(named.get("chunk"))
    if chunk is None and not chunk_named:
        # AMB-12: the path 8 names, on the document's origin; offered only if it serves a
        # real result's chunk (AMB-31)
        chunk = _resolve(base, "/chunks/{id}")
    return Endpoints(discovery=base, search=_resolve(base, named.get("search")),
                     collections=_resolve(base, named.get("collections")), chunk=chunk, chunk_named=chunk_named)


@pytest.fixture(scope="session")
def collections_answer(endpoints: Endpoints, adck_fetcher: Fetcher) -> Answer | None:
    """GET of endpoints.collections, once per run (None when the document names none)."""
    if endpoints.collections is None:
        return None
    return Answer(adck_fetcher.get(endpoints.collections, headers={"Accept": MEDIA}))


def collection_list(answer: Answer | None) -> list:
    """The collection objects of the collections resource (AMB-11)."""
    if answer is None or not answer.ok:
        return []
    value = answer.value
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        for key in ("collections", "data", "items"):
            if isinstance(value.get(key), list):
                return value[key]
    return []


@pytest.fixture(scope="session")
def aidre_server(adck_fetcher: Fetcher, adck_invoker: Invoker, endpoints: Endpoints, discovery: Document,
                 collections_answer: Answer | None) -> Server:
    value = discovery.value()
    spaces = value.get("embedding_spaces") if isinstance(value.get("embedding_spaces"), list) else []
    capabilities = value.get("capabilities") if isinstance(value.get("capabilities"), dict) else {}
    return Server(adck_fetcher, adck_invoker, endpoints, spaces, collection_list(collections_answer), capabilities)


@pytest.fixture
def server(aidre_server: Server) -> Probe:
    """The server under test, as one test sees it (its answers are the test's evidence)."""
    return Probe(aidre_server)
