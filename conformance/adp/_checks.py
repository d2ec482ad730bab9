"""What the ADP document tests share: the objects of each kind, the field-table checks
(presence at the Requirement column's level, type from the Type column, AMB-04) and the
documented heuristics of the SHOULDs that need judgement (AMB-14, AMB-31).
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from conformance.adp._kinds import Kind, NAMES, only
from conformance.document import Document, is_kind, kind_name
from conformance.outcomes import not_applicable, untestable, violation
from conformance.redact import ASSIGNED_SECRET, TOKEN_SHAPES, USERINFO

# ------------------------------------------------------------------ objects of a kind
Objects = list[tuple[str, dict]]


def single_json_object(document: Document, kind: Kind) -> None:
    """ADP-4.1-01, ADP-5.1-01, ADP-6.1-01: one JSON text (RFC 8259, which is UTF-8 when
    exchanged, AMB-27) whose value is an object."""
    __tracebackhide__ = True
    only(document, kind)
    if document.truncated:
        untestable(f"the document is larger than the {len(document.raw)} bytes the kit reads")
    if document.utf8_error:
        violation(f"the bytes are not UTF-8, so they are not a JSON text (RFC 8259 8.1, AMB-27): {document.utf8_error}")
    if document.too_deep:
        untestable(f"{document.parse_error}; the kit cannot tell whether it is one JSON object")
    if document.parse_error:
        violation(f"the document is not one JSON text: {document.parse_error}")
    value = document.value()
    if not isinstance(value, dict):
        what = f"an array of {len(value)} element(s)" if isinstance(value, list) else f"a JSON {kind_name(value)}"
        violation(f"the document is {what}, not a single JSON object")


def top(document: Document, kind: Kind) -> dict:
    """The top-level object of a document of ``kind`` (not-applicable for another kind)."""
    __tracebackhide__ = True
    only(document, kind)
    value = document.value()
    if not isinstance(value, dict):
        untestable(f"the document is a JSON {kind_name(value)}, not an object (see its single-JSON-object clause)")
    return value


def elements(document: Document, kind: Kind, member: str, clause_of_type: str, required: bool) -> Objects:
    """(where, object) of the array ``member`` of the top-level object: its object elements.
    Absent: untestable when ``required`` (its own clause fails), else not-applicable."""
    __tracebackhide__ = True
    value = top(document, kind)
    if member not in value:
        if required:
            untestable(f"the {NAMES[kind].split(' ', 1)[1]} has no {member} (see {clause_of_type})")
        not_applicable(f"the document has no {member} (optional)")
    array = value[member]
    if not isinstance(array, list):
        untestable(f"{member} is a JSON {kind_name(array)}, not an array (see {clause_of_type})")
    found = [(f"{member}[{i}]", e) for i, e in enumerate(array) if isinstance(e, dict)]
    if not found:
        not_applicable(f"{member} holds no object")
    return found


def metadata(document: Document) -> Objects:
    return [("the Agent Metadata object", top(document, "metadata"))]


def examples(document: Document) -> Objects:
    return elements(document, "metadata", "examples", "ADP-4.1-08", required=False)


def bindings(document: Document) -> Objects:
    return elements(document, "metadata", "bindings", "ADP-4.1-09", required=True)


def request(document: Document) -> Objects:
    return [("the Discovery Request", top(document, "request"))]


def response(document: Document) -> Objects:
    return [("the Discovery Response", top(document, "response"))]


def candidates(document: Document) -> Objects:
    return elements(document, "response", "candidates", "ADP-6.1-04", required=True)


def error(document: Document) -> Objects:
    return [("the error object", top(document, "error"))]


# ------------------------------------------------------------------ the Type column
def _array_of(kind: type) -> Any:
    return lambda v: isinstance(v, list) and all(is_kind(e, kind) for e in v)


TYPES = {
    "string": lambda v: is_kind(v, str),
    "object": lambda v: is_kind(v, dict),
    "integer": lambda v: is_kind(v, int),
    "number": lambda v: is_kind(v, float),
    "boolean": lambda v: is_kind(v, bool),
    "array of string": _array_of(str),
    "array of object": _array_of(dict),
}


def _describe(value: Any, type_: str) -> str:
    if isinstance(value, list) and type_.startswith("array of"):
        bad = next((i, e) for i, e in enumerate(value) if not TYPES[type_.removeprefix("array of ")](e))
        return f"an array whose element [{bad[0]}] is a JSON {kind_name(bad[1])}"
    shown = repr(value) if not isinstance(value, (dict, list)) else kind_name(value)
    return f"{shown[:60]}, a JSON {kind_name(value)}"


def typed(objects: Objects, member: str, type_: str) -> None:
    """When an object holds ``member``, its value is of the Type column's ``type_``."""
    __tracebackhide__ = True
    holding = [(where, obj[member]) for where, obj in objects if member in obj]
    if not holding:
        not_applicable(f"no object holds {member} (optional)")
    bad = [f"{where}.{member} is {_describe(v, type_)}" for where, v in holding if not TYPES[type_](v)]
    if bad:
        violation(f"not a JSON {type_}: " + "; ".join(bad[:5]))


def _near(obj: dict, member: str) -> str:
    near = [k for k in obj if k != member and k.casefold() == member.casefold()]
    return f" (it has {', '.join(map(repr, near))}: field names are case-sensitive)" if near else ""


def present(objects: Objects, member: str, type_: str | None = None) -> None:
    """Every object holds ``member`` (and, given ``type_``, of that type: a MUST row)."""
    __tracebackhide__ = True
    missing = [f"{where} has no {member}{_near(obj, member)}" for where, obj in objects if member not in obj]
    if missing:
        violation("; ".join(missing[:5]))
    if type_ is not None:
        typed(objects, member, type_)


# ------------------------------------------------------------------ heuristics (AMB-14, AMB-31)
_WORD = re.compile(r"[\w%]+(?:[-'’][\w%]+)*")


#: Scripts written without spaces between words (Han, kana, Thai, Lao, Khmer, Myanmar, Tibetan):
#: there every two such characters count as a word (AMB-31).
_UNSPACED = re.compile(r"[\u0e00-\u0eff\u0f00-\u0fff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf"
                       r"\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")


def words(text: str) -> list[str]:
    found = []
    for word in _WORD.findall(text):
        unspaced = len(_UNSPACED.findall(word))
        found.extend([word] * max(1, unspaced // 2) if unspaced else [word])
    return found


def normalized(text: str) -> str:
    return " ".join(w.casefold() for w in words(text))


def _phrases(terms: Iterable[str]) -> re.Pattern[str]:
    alternatives = sorted((re.escape(t).replace(r"\ ", r"\s+") for t in terms), key=len, reverse=True)
    return re.compile(r"(?<![\w-])(?:" + "|".join(alternatives) + r")(?![\w-])", re.IGNORECASE)


#: Marketing phrasing (ADP-4.3-02): claims about the product rather than what the agent does.
MARKETING = ("world-class", "revolutionary", "cutting-edge", "industry-leading", "market-leading", "seamless",
             "seamlessly", "game-changing", "game changer", "next-generation", "next-gen", "state-of-the-art",
             "state of the art", "unparalleled", "groundbreaking", "award-winning", "disruptive", "supercharge",
             "supercharges", "effortless", "effortlessly", "synergy", "synergies", "to the next level",
             "empower your business", "blazing fast", "blazing-fast", "mind-blowing")
#: Superlatives (ADP-4.3-03): the draft's three, and others of the same sort.
SUPERLATIVES = ("best", "perfect", "perfectly", "guaranteed", "best-in-class",
                "unmatched", "unbeatable", "flawless", "flawlessly", "greatest", "ultimate", "fastest", "smartest",
                "most accurate", "most advanced", "never fails", "100%")
#: Requests that name no task (ADP-4.4-13).
GENERIC = ("help", "help me", "help me out", "do anything", "do everything", "anything", "everything",
           "answer questions", "answer any question", "answer my questions", "assist me", "assist", "do my task",
           "do a task", "handle any request", "handle my request", "general help", "ask me anything", "chat",
           "chat with me", "whatever you need", "solve my problem", "test", "example", "sample request")

MARKETING_RE = _phrases(MARKETING)
_SUPERLATIVE_RE = re.compile(_phrases(t for t in SUPERLATIVES if t != "100%").pattern + r"|(?<![\w.])100\s?%",
                             re.IGNORECASE)
_GENERIC = {normalized(g) for g in GENERIC}


#: The heuristics read at most this many characters of a text (a hostile document can make a
#: pattern work in time quadratic in its length; AMB-31 says so).
MAX_CHARS = 8192


def clip(text: str) -> str:
    return text[:MAX_CHARS]


def marketing(text: str) -> list[str]:
    return [m.group(0) for m in MARKETING_RE.finditer(clip(text))][:5]


#: Uses of those words that claim nothing: technical terms, and a superlative denied.
NOT_CLAIMS = ("best practice", "best practices", "best match", "best matches", "best matching", "best fit",
              "best-effort", "best effort", "perfect tense", "perfect forward secrecy")
_NOT_CLAIM_RE = _phrases(NOT_CLAIMS)
_DENIED = re.compile(r"\b(?:not|no|never|without|cannot|can't|isn't|aren't)[^\w.!?;]+(?:[\w']+[^\w.!?;]+)?$",
                     re.IGNORECASE)


def superlatives(text: str) -> list[str]:
    masked = _NOT_CLAIM_RE.sub(lambda m: " " * len(m.group(0)), clip(text))
    found = []
    for m in _SUPERLATIVE_RE.finditer(masked):
        if not _DENIED.search(masked[max(0, m.start() - 48):m.start()]):
            found.append(m.group(0))
            if len(found) >= 5:
                break
    return found


def is_generic(text: str) -> bool:
    return len(text) < 100 and normalized(text) in _GENERIC


def is_tag_list(text: str) -> bool:
    """A bare list of labels ("hr, payroll, onboarding"), not a task."""
    parts = [p.strip() for p in re.split(r"[,;|/]", clip(text))]
    return len(parts) >= 2 and all(len(words(p)) <= 1 for p in parts)


_PRIVATE_V4 = re.compile(r"(?<![\w.])(?:10(?:\.\d{1,3}){3}|127(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}"
                         r"|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|169\.254(?:\.\d{1,3}){2})(?![\w.])")
_PRIVATE_V6 = re.compile(r"\[::1\]|(?<![\w:\[])(?:::1|f[cd][0-9a-f]{2}:[0-9a-f:]+|fe80:[0-9a-f:]+)(?![\w:])"
                         r"|\[(?:f[cd][0-9a-f]{2}|fe80):[0-9a-f:]+\]", re.I)
_INTERNAL_HOST = re.compile(r"(?<![\w.-])(?:[a-z0-9-]+\.)+(?:internal|corp|local|lan|intranet|localdomain)(?![\w-])"
                            r"|(?<![\w.-])localhost(?![\w-])", re.IGNORECASE)
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PHONE = re.compile(r"(?<![\w+])\+?\d[\d ().-]{7,30}\d(?![\w])")


def secrets(text: str) -> list[str]:
    """Secret-shaped values: credential shapes, credentials in URLs, assignments to secret names."""
    # each word cut to 512 characters: the credential patterns take time quadratic in a word's length
    text = " ".join(word[:512] for word in clip(text).split())
    return [m.group(0) for pattern in (TOKEN_SHAPES, USERINFO, ASSIGNED_SECRET) for m in pattern.finditer(text)]


def internal_names(text: str) -> list[str]:
    """Private or loopback addresses and internal-looking host names."""
    return [m.group(0) for pattern in (_PRIVATE_V4, _PRIVATE_V6, _INTERNAL_HOST) for m in pattern.finditer(clip(text))]


def _luhn(digits: str) -> bool:
    total = 0
    for i, d in enumerate(reversed(digits)):
        n = int(d) * (2 if i % 2 else 1)
        total += n - 9 if n > 9 else n
    return total % 10 == 0


def personal_data(text: str) -> list[str]:
    """E-mail addresses, phone numbers and payment card numbers."""
    text = clip(text)
    found = [m.group(0) for m in _EMAIL.finditer(text)]
    for m in _PHONE.finditer(text):
        digits = re.sub(r"\D", "", m.group(0))
        if 9 <= len(digits) <= 19 and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", m.group(0).strip()):
            found.append(m.group(0) if not (13 <= len(digits) <= 19 and _luhn(digits)) else "card " + m.group(0))
    return found


def example_texts(document: Document) -> list[tuple[str, str]]:
    """(where, text) of every example object's string text."""
    return [(f"{where}.text", obj["text"]) for where, obj in examples(document) if isinstance(obj.get("text"), str)]


def description_and_examples(document: Document) -> list[tuple[str, str]]:
    """(where, text) of the description (a string) and every example's text."""
    value = top(document, "metadata")
    found = [("description", value["description"])] if isinstance(value.get("description"), str) else []
    if isinstance(value.get("examples"), list):
        found += [(f"examples[{i}].text", e["text"]) for i, e in enumerate(value["examples"])
                  if isinstance(e, dict) and isinstance(e.get("text"), str)]
    if not found:
        not_applicable("the metadata has no description or example text that is a string")
    return found


def quote(text: str, limit: int = 80) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "…")
