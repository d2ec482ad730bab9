"""``report.sarif``: SARIF 2.1.0 for document checks, so that code scanning points at the line.

One result per failed clause: its ``ruleId`` is the clause id, its rule carries the draft's
sentence and a link to its section, MUST failures are ``error`` and SHOULD failures
``warning``. A document target's results point at its file and at the line of the member the
failure names. The document suites record no JSON pointer (their evidence is empty: there was
no exchange); their messages name the member first (``agents[0].name is absent``,
``service lacks name``), so the line is that of the first member path in the message that the
document has (for a missing member, its parent object), and line 1 when the message names none.
Only line numbers are taken from the file, never its text.

Targets that are not documents (a live server, a domain, a built-in variant, a client) have no
file, yet GitHub code scanning rejects a result without a location ("expected at least one
location") and a location whose URI is not a path of the repository (an ``https:`` URI). So
each of their results points at a stand-in path, ``adck/DRAFT/TARGET`` (the target made a
path: ``adck/aiendpoint/api.example.com``, ``adck/aid/builtin/uri-http``), line 1, which names
the target but is no file of the repository; a ``logicalLocations`` entry carries the target
itself (its URL, domain or adapter), and a partial fingerprint keeps the alert the same
across runs.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import re
from functools import lru_cache
from json.decoder import scanstring
from pathlib import Path
from typing import Any

from conformance.reports.model import ClauseResult, Report

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_LEVEL = {"MUST": "error", "SHOULD": "warning"}
#: Files larger than this are not scanned for lines (the result then points at line 1).
_MAX_SCAN = 8 * 1024 * 1024

_WS = re.compile(r"[ \t\n\r]*")
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")
_TOKEN = re.compile(r"(?<![\w/:.$@-])[A-Za-z_$@][\w$@:-]*(?:\[\d+\])*(?:\.[A-Za-z_$@][\w$@:-]*(?:\[\d+\])*)*")
_POINTER = re.compile(r"(?:^|(?<=\s))/[^\s'\",;()]*")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|\([^)]*\)")
_SEGMENT = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def member_lines(text: str) -> dict[tuple, int]:
    """Each member and array item of a JSON text -> the line it starts on (a member: its key's
    line). Empty when the text is not JSON (or nests too deep to walk)."""
    newlines = [i for i, ch in enumerate(text) if ch == "\n"]
    lines: dict[tuple, int] = {}

    def line(i: int) -> int:
        return bisect.bisect_left(newlines, i) + 1

    def value(i: int, path: tuple) -> int:
        i = _WS.match(text, i).end()
        lines.setdefault(path, line(i))
        ch = text[i]
        if ch == "{":
            i = _WS.match(text, i + 1).end()
            if text[i] == "}":
                return i + 1
            while True:
                i = _WS.match(text, i).end()
                if text[i] != '"':
                    raise ValueError("key expected")
                key, end = scanstring(text, i + 1)
                lines[path + (key,)] = line(i)
                i = _WS.match(text, end).end()
                if text[i] != ":":
                    raise ValueError(": expected")
                i = _WS.match(text, value(i + 1, path + (key,))).end()
                if text[i] == ",":
                    i += 1
                elif text[i] == "}":
                    return i + 1
                else:
                    raise ValueError(", or } expected")
        if ch == "[":
            i = _WS.match(text, i + 1).end()
            if text[i] == "]":
                return i + 1
            n = 0
            while True:
                i = _WS.match(text, value(i, path + (n,))).end()
                n += 1
                if text[i] == ",":
                    i += 1
                elif text[i] == "]":
                    return i + 1
                else:
                    raise ValueError(", or ] expected")
        if ch == '"':
            return scanstring(text, i + 1)[1]
        m = _SCALAR.match(text, i)
        if not m:
            raise ValueError("value expected")
        return m.end()

    try:
        value(0, ())
    except (ValueError, IndexError, RecursionError):
        return {}
    return lines


@lru_cache(maxsize=64)
def _lines_of(path: str, mtime: float, size: int) -> dict[tuple, int]:
    if size > _MAX_SCAN:
        return {}
    try:
        text = Path(path).read_text("utf-8-sig", errors="replace")
    except OSError:
        return {}
    return member_lines(text)


def _segments(token: str) -> list[str | int]:
    if token.startswith("/"):  # a JSON pointer
        parts = [p.replace("~1", "/").replace("~0", "~") for p in token[1:].split("/")] if token != "/" else []
        return [int(p) if p.isdigit() else p for p in parts]
    return [m.group(1) if m.group(1) is not None else int(m.group(2)) for m in _SEGMENT.finditer(token)]


def line_for(message: str, lines: dict[tuple, int]) -> int:
    """The line of the first member path the message names that the document has (the deepest
    part of it that exists: a missing member points at its parent); 1 when it names none."""
    if not lines:
        return 1
    shown = _QUOTED.sub(" ", message)  # values and parenthesised asides are not the member at fault
    tokens = [(m.start(), m.group()) for m in _POINTER.finditer(message)]
    tokens += [(m.start(), m.group()) for m in _TOKEN.finditer(shown)]
    for _, token in sorted(tokens):
        segs = _segments(token)
        for start in range(len(segs)):  # "the Agent Metadata object.tags" names tags
            found = None
            for end in range(start + 1, len(segs) + 1):
                if tuple(segs[start:end]) in lines:
                    found = lines[tuple(segs[start:end])]
                else:
                    break
            if found is not None:
                return found
    return 1


def document_file(report: Report) -> Path | None:
    """The file a document target was read from (None for servers, domains and clients)."""
    if report.target.get("kind") != "document" or not report.target.get("spec"):
        return None
    path = Path(report.target["spec"])
    return path if path.is_file() else None


def locate(report: Report, result: ClauseResult) -> int:
    """The line of the document that a failed clause points at (1 when unknown)."""
    path = document_file(report)
    if path is None:
        return 1
    st = path.stat()
    return line_for(result.message, _lines_of(str(path.resolve()), st.st_mtime, st.st_size))


def _uri(path: Path) -> tuple[str, str | None]:
    """The artifact URI: relative to the working directory (the repository root in CI) when
    the file is under it, else an absolute file URI."""
    try:
        rel = path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return path.resolve().as_uri(), None
    from urllib.parse import quote

    return quote(rel.as_posix()), "%SRCROOT%"


#: Where every result of a target that is not a file points (see the module's docstring).
STAND_IN_ROOT = "adck"


def stand_in(report: Report) -> str:
    """The repository-relative stand-in path of a target that is not a file: ``adck/DRAFT/``
    and the target as path segments of safe characters (a URL's host, port and path; a
    ``builtin:NAME`` as ``builtin/NAME``; an adapter's spec), never an absolute or ``..`` path."""
    spec = str(report.target.get("spec") or report.target.get("kind") or "target")
    m = re.fullmatch(r"(?i)(https?)://([^/?#]+)([^?#]*).*", spec)
    if m:
        host = m.group(2).rsplit("@", 1)[-1].replace(":", "_")
        parts = [host, *m.group(3).split("/")]
    else:
        parts = re.split(r"[:/\\\s]+", spec)
    safe = [re.sub(r"[^A-Za-z0-9._-]+", "_", p).strip("._") for p in parts]
    safe = [p[:64] for p in safe if p][:8] or ["target"]
    return "/".join([STAND_IN_ROOT, re.sub(r"[^A-Za-z0-9._-]+", "_", report.draft["short"]), *safe])


def _logical(report: Report) -> dict[str, Any]:
    """The target itself, as a logical location (it is no file)."""
    kind = report.target.get("kind", "")
    return {"name": str(report.target.get("spec", "")), "kind": "resource",
            "fullyQualifiedName": f"{report.draft['short']}:{kind}:{report.target.get('spec', '')}",
            "properties": {"description": str(report.target.get("description", "")), "target_kind": kind}}


def plain(text: str) -> str:
    """Target text as a SARIF plain-text message: braces doubled (no placeholder) and brackets
    escaped (no embedded link a viewer would follow)."""
    text = text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    return text.replace("{", "{{").replace("}", "}}")


def help_uri(draft_id: str, section: str) -> str | None:
    """The clause's section of the draft: an Internet-Draft's on the IETF datatracker; None for
    a draft that is not an Internet-Draft (AID), whose text has no stable section anchors."""
    if not draft_id.startswith("draft-"):
        return None
    return f"https://datatracker.ietf.org/doc/html/{draft_id}#section-{section}"


def _rule(report: Report, r: ClauseResult) -> dict[str, Any]:
    rule: dict[str, Any] = {
        "id": r.clause,
        "shortDescription": {"text": plain(f"{report.draft['short']} §{r.section} {r.keyword} ({r.role})")},
        "fullDescription": {"text": plain(r.text)},
        "help": {"text": plain(f"{report.draft['id']} §{r.section}: {r.text}")},
        "defaultConfiguration": {"level": _LEVEL.get(r.level, "note")},
        "properties": {"tags": [report.draft["short"], r.level, r.role], "draft": report.draft["id"],
                       "section": r.section},
    }
    uri = help_uri(report.draft["id"], r.section)
    if uri:
        rule["helpUri"] = uri
    return rule


def _result(report: Report, r: ClauseResult, rule_index: int) -> dict[str, Any]:
    out: dict[str, Any] = {
        "ruleId": r.clause,
        "ruleIndex": rule_index,
        "level": _LEVEL.get(r.level, "note"),
        "message": {"text": plain(f"{r.clause} ({r.keyword}) failed: {r.message}")},
        "properties": {"draft": report.draft["short"], "target": report.target.get("spec", ""),
                       "ambiguities": list(r.ambiguities),
                       "applied_ambiguities": list(getattr(r, "applied_ambiguities", []))},
    }
    if r.replay:
        out["properties"]["replay"] = r.replay
    path = document_file(report)
    if path is not None:
        uri, base = _uri(path)
        artifact: dict[str, Any] = {"uri": uri}
        if base:
            artifact["uriBaseId"] = base
        out["locations"] = [{"physicalLocation": {"artifactLocation": artifact,
                                                   "region": {"startLine": locate(report, r)}}}]
    else:
        # no file: a stand-in path code scanning accepts, and the target as a logical location
        stand = stand_in(report)
        out["locations"] = [{"physicalLocation": {"artifactLocation": {"uri": stand, "uriBaseId": "%SRCROOT%"},
                                                   "region": {"startLine": 1}},
                             "logicalLocations": [_logical(report)],
                             "message": {"text": plain(f"not a file of the repository: the {report.target.get('kind', '')} "
                                                       f"target {report.target.get('spec', '')}")}}]
        key = f"{report.draft['short']}\n{r.clause}\n{report.target.get('spec', '')}".encode("utf-8")
        out["partialFingerprints"] = {"adckClauseTarget/v1": hashlib.sha256(key).hexdigest()}
    return out


def to_sarif_many(reports: list[Report]) -> str:
    """One SARIF log with one run for all the reports (one upload, one category: code scanning
    no longer merges several runs of one tool)."""
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    results: list[dict[str, Any]] = []
    notes: list[dict[str, Any]] = []
    for report in reports:
        for r in report.results:
            if r.outcome == "error":  # the kit could not evaluate: not a finding on the document
                notes.append({"level": "error", "message": {"text": plain(f"{r.clause}: {r.message}")}})
            if r.outcome != "fail":
                continue
            if r.clause not in index:
                index[r.clause] = len(rules)
                rules.append(_rule(report, r))
            results.append(_result(report, r, index[r.clause]))
    first = reports[0] if reports else None
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "adck", "version": first.kit["version"] if first else "",
                            "rules": rules}},
        "invocations": [{
            "executionSuccessful": all(rep.summary.level != "not-judged" for rep in reports),
            "toolExecutionNotifications": notes,
        }],
        "results": results,
        "properties": {"verdicts": [{"draft": rep.draft["short"], "revision": rep.draft.get("label", rep.draft["short"]),
                                     "target": rep.target.get("description", ""),
                                     "level": rep.summary.level, "partial": rep.summary.partial,
                                     # the choices the verdict was reached under (--declare)
                                     "declared": [str(d.get("shown") or d.get("name", ""))
                                                  for d in rep.target.get("declarations") or ()]}
                                    for rep in reports]},
    }
    drafts = sorted({rep.draft["short"] for rep in reports})
    run["automationDetails"] = {"id": f"adck/{drafts[0]}/" if len(drafts) == 1 else "adck/"}
    log = {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}
    return json.dumps(log, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def to_sarif(report: Report) -> str:
    return to_sarif_many([report])
