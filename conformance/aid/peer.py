"""The AID authors' own conformance fixtures, judged by the kit: a peer suite.

``../shared/corpora/aid-conformance`` holds the three files of the authors' package
``aid-conformance`` (read at run time, never copied): ``golden.json`` (records, invalid records,
record sets), ``enterprise.json`` (security policies) and ``pka_vectors.json`` (endpoint-proof
vectors). Each case is run through the kit for the revision it targets (aid1 material by
v1.2's rules, aid2 by v2.1's, the presets ``strict``/``balanced`` by v1.2, which alone names
them), and the kit's verdict is set beside the authors' expectation. Where the two differ, the
case is listed in ``profiles/aid/authors-fixtures.toml`` with the sentence that makes the kit's
reading right; ``tests/test_aid_authors_fixtures.py`` keeps that list exact, and
``python -m conformance.aid.peer`` writes docs/aid-conformance-fixtures.md.
"""

from __future__ import annotations

import json
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from conformance import resources
from conformance.aid import versioned

FOLDER = "aid-conformance"
READINGS = "authors-fixtures.toml"


@dataclass(frozen=True)
class Case:
    """One fixture case and the kit's verdict on it."""

    file: str
    group: str
    name: str
    revision: str
    expected: str
    kit: str
    agrees: bool

    @property
    def key(self) -> str:
        return f"{self.file}#{self.group}/{self.name}"


def folder() -> Path | None:
    root = resources.corpora_dir()
    return root / FOLDER if root is not None and (root / FOLDER).is_dir() else None


def readings() -> dict[str, dict[str, str]]:
    """The listed disagreements: case key -> {clause, reading}."""
    with open(resources.profile_dir("aid") / READINGS, "rb") as f:
        return tomllib.load(f).get("case", {})


def _revision_of(text: str) -> str:
    return versioned.VERSIONS.get(versioned.read(text).version or "", "v2.1")


def _codes(codes: frozenset[str]) -> str:
    return " or ".join(sorted(codes))


def golden(data: dict[str, Any]) -> Iterator[Case]:
    """golden.json: each valid record parses to its expected fields and breaks no rule; each
    invalid one is refused with its code; each record set selects as expected."""
    for case in data.get("records", []):
        reading = versioned.read(case["raw"])
        parsed = reading.as_fixture() == case["expected"]
        broken = "; ".join(f"{p.clause}: {p.message}" for p in reading.problems)
        kit = ("valid, parsed as expected" if parsed and reading.valid else
               f"parsed as expected, but {broken}" if parsed else f"parsed as {reading.as_fixture()}")
        yield Case("golden.json", "records", case["name"], _revision_of(case["raw"]),
                   "valid: " + json.dumps(case["expected"]), kit, parsed and reading.valid)
    for case in data.get("invalid", []):
        revision = _revision_of(case["raw"])
        selection = versioned.select([case["raw"]], revision)
        code = case.get("errorCode")
        kit = ("valid" if selection.record else f"invalid, {_codes(selection.codes)}: {selection.reason}")
        yield Case("golden.json", "invalid", case["name"], revision, f"invalid, {code or 'any code'}",
                   kit, selection.record is None and (code is None or code in selection.codes))
    for case in data.get("recordSets", []):
        selection = versioned.select(case["records"], "v2.1")
        if "expectedSelected" in case:
            expected = "selects " + json.dumps(case["expectedSelected"])
            agrees = selection.record is not None and selection.record.as_fixture() == case["expectedSelected"]
        else:
            expected = f"fails, {case['expectedErrorCode']}"
            agrees = selection.record is None and case["expectedErrorCode"] in selection.codes
        kit = ("selects " + json.dumps(selection.record.as_fixture()) if selection.record
               else f"fails, {_codes(selection.codes)}: {selection.reason}")
        yield Case("golden.json", "recordSets", case["name"], "v2.1", expected, kit, agrees)


#: v1.2 3.2's presets (v2.1 names none): knob -> value.
PRESETS = {"balanced": {"pka": "if-present", "dnssec": "prefer", "well-known": "auto", "downgrade": "warn"},
           "strict": {"pka": "require", "dnssec": "require", "well-known": "disable", "downgrade": "fail"}}


@dataclass(frozen=True)
class PolicyOutcome:
    """What a conforming client does under a policy: the error codes it may end with (empty:
    it succeeds), and whether it must (True), may (None) or need not surface a warning."""

    codes: frozenset[str]
    warns: bool | None
    why: str


def policy(case: dict[str, Any]) -> tuple[str, PolicyOutcome]:
    """The revision a policy case targets, and the outcome the kit expects of a client.

    v1.2 3.2 (the presets and their MUSTs: "discovery **MUST** fail with `ERR_SECURITY` if the
    selected record does not publish `pka` and `kid`", "clients **MUST** fail with
    `ERR_SECURITY` when DNSSEC validation is unavailable or unsuccessful", "clients **MUST
    NOT** use `/.well-known/agent` fallback", "if a previously seen `pka` disappears, clients
    **MUST** fail with `ERR_SECURITY`"); v2.1 3.3 ("`downgrade=warn|fail`: applies to PKA
    removal, key replacement, and `aid2` to `aid1` downgrade when previous state exists").
    """
    options, dns = case.get("options", {}), case.get("dns", {})
    knobs = dict(PRESETS.get(options.get("securityMode", ""), {}))
    for name, knob in (("dnssecPolicy", "dnssec"), ("downgradePolicy", "downgrade"), ("pkaPolicy", "pka"),
                       ("wellKnownPolicy", "well-known")):
        if name in options:
            knobs[knob] = options[name]
    previous = options.get("previousSecurity") or {}
    revision = "v2.1" if "securityMode" not in options and previous.get("version") == "aid2" else "v1.2"
    if "answers" in dns:
        trust = "dns"
        texts = [a["data"] for a in dns["answers"]]
    elif knobs.get("well-known") == "disable":
        return revision, PolicyOutcome(frozenset({dns.get("errorCode", "ERR_NO_RECORD")}), False,
                                       "DNS found nothing and well-known=disable forbids the fallback")
    elif "wellKnown" in case:
        trust = "well-known-tls"
        texts = [";".join(f"{k}={v}" for k, v in case["wellKnown"]["body"].items())]
    else:
        return revision, PolicyOutcome(frozenset({dns.get("errorCode", "ERR_NO_RECORD")}), False, "no record")
    codes: set[str] = set()
    warns: set[bool | None] = set()
    whys: list[str] = []
    for lenient in (False, True):  # a client checking every record rule, or only the rejecting ones
        selection = versioned.select(texts, "v2.1" if revision == "v2.1" else "v1.2", lenient=lenient)
        if selection.record is None:
            codes |= selection.codes
            whys.append(selection.reason)
            continue
        fields = selection.record.fields
        if trust == "well-known-tls" and knobs.get("dnssec") == "require":
            codes.add("ERR_SECURITY"); whys.append(".well-known cannot satisfy dnssec=require")
        elif knobs.get("pka") == "require" and not fields.get("pka"):
            codes.add("ERR_SECURITY"); whys.append("pka=require and the record has no k")
        elif knobs.get("dnssec") == "require" and not case["dns"].get("ad", False):
            codes.add("ERR_SECURITY"); whys.append("dnssec=require and the answer is not validated (AD clear)")
        elif previous and _downgraded(previous, fields) and knobs.get("downgrade") == "fail":
            codes.add("ERR_SECURITY"); whys.append(f"downgrade=fail and {_downgraded(previous, fields)}")
        else:
            codes.add("")
            if knobs.get("dnssec") == "prefer" and trust == "dns" and not dns.get("ad", False):
                warns.add(True); whys.append("dnssec=prefer and the answer is not validated: a warning (SHOULD)")
            elif previous and _downgraded(previous, fields) and knobs.get("downgrade") == "warn":
                warns.add(True); whys.append(f"downgrade=warn and {_downgraded(previous, fields)}: a warning (SHOULD)")
            else:
                warns.add(None); whys.append(_quiet(previous, fields, trust))
    return revision, PolicyOutcome(frozenset(codes), True if warns == {True} else None if warns else False,
                                   "; ".join(dict.fromkeys(whys)))


def _downgraded(previous: dict[str, Any], fields: dict[str, str]) -> str:
    """Which downgrade of 3.2/3.3 the record shows against the previous state ('' for none)."""
    if (previous.get("pka") or previous.get("keyThumbprints")) and not fields.get("pka"):
        return "a previously seen key disappeared"
    if previous.get("version") == "aid2" and fields.get("version") == "aid1":
        return "an aid2 to aid1 downgrade"
    if previous.get("keyThumbprints") and fields.get("pka"):
        from conformance.aid import pka  # the JWK thumbprint of RFC 7638 (Appendix B.2)
        if pka.derived_keyid(pka.decode_key(fields["pka"], "aid2")) not in previous["keyThumbprints"]:
            return "the key was replaced"
    return ""


def _quiet(previous: dict[str, Any], fields: dict[str, str], trust: str) -> str:
    if previous.get("trustSource") == "dns" and trust != "dns":
        return ("the same key, found through the .well-known fallback after DNS: a change of trust source, "
                "which 3.3's downgrade (PKA removal, key replacement, aid2 to aid1) does not name")
    return "nothing to report"


def enterprise(data: dict[str, Any]) -> Iterator[Case]:
    for case in data.get("securityPolicies", []):
        revision, outcome = policy(case)
        expect = case.get("expect", {})
        if "errorCode" in expect:
            expected = f"fails, {expect['errorCode']}"
            agrees = expect["errorCode"] in outcome.codes and "" not in outcome.codes
        else:
            expected = "succeeds with warning " + ", ".join(expect.get("warningCodes", []))
            agrees = outcome.codes == {""} and outcome.warns is True
        ends = sorted("succeeds" if c == "" else c for c in outcome.codes)
        kit = " or ".join(ends) + (", with a warning" if outcome.warns else "") + f": {outcome.why}"
        yield Case("enterprise.json", "securityPolicies", case["name"], revision, expected, kit, agrees)


def pka_vectors(data: dict[str, Any]) -> Iterator[Case]:
    from conformance.aid import pka
    for vector in data.get("vectors", []):
        accepted, why = pka.judge_vector(vector)
        revision = versioned.VERSIONS.get(vector.get("record", {}).get("v", ""), "v2.1")
        yield Case("pka_vectors.json", "vectors", vector["id"], revision, vector["expect"],
                   ("pass" if accepted else "fail") + f": {why}", accepted == (vector["expect"] == "pass"))


def cases(root: Path | None = None) -> list[Case]:
    """Every case of the three files, judged (``root``: the aid-conformance folder)."""
    root = root or folder()
    if root is None:
        raise FileNotFoundError(f"../shared/corpora/{FOLDER} is not here (or set $ADCK_CORPORA)")
    out: list[Case] = []
    for name, judge in (("golden.json", golden), ("enterprise.json", enterprise), ("pka_vectors.json", pka_vectors)):
        out += judge(json.loads((root / name).read_text(encoding="utf-8")))
    return out


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def to_markdown(judged: list[Case], listed: dict[str, dict[str, str]]) -> str:
    """docs/aid-conformance-fixtures.md: every case, its expectation, the kit's verdict, and the
    reading of each case where they differ."""
    agree = sum(c.agrees for c in judged)
    lines = [
        "# The AID authors' conformance fixtures, judged by adck",
        "",
        "<!-- written by `python -m conformance.aid.peer`; tests/test_aid_authors_fixtures.py keeps it current -->",
        "",
        f"The three files of `../shared/corpora/{FOLDER}` (the authors' `aid-conformance` package, read at",
        "test time, never copied) hold "
        f"{len(judged)} cases. Each is run through the kit for the revision it targets: aid1 material by",
        "v1.2's rules, aid2 material and record sets by v2.1's, the `strict`/`balanced` presets by v1.2 (v2.1",
        "names no preset). "
        f"**{agree} agree; {len(judged) - agree} differ**, each listed below with the sentence that makes",
        "the kit's reading right (profiles/aid/authors-fixtures.toml).",
        "",
        "Warning names (`DNSSEC_PREFERRED`, `DOWNGRADE_DETECTED`) are the SDK's: the texts ask for \"a warning\",",
        "so the kit judges that one is surfaced, not its name.",
        "",
    ]
    for file in dict.fromkeys(c.file for c in judged):
        lines += [f"## {file}", "", "| case | revision | the authors expect | adck | |", "|---|---|---|---|---|"]
        for c in (c for c in judged if c.file == file):
            mark = "agrees" if c.agrees else f"differs: [{listed.get(c.key, {}).get('clause', '?')}](#{_anchor(c)})"
            lines.append(f"| `{c.group}/{c.name}` | {c.revision} | {_cell(c.expected)} | {_cell(c.kit)} | {mark} |")
        lines.append("")
    differ = [c for c in judged if not c.agrees]
    if differ:
        lines += ["## Where the kit differs, and why", ""]
        for c in differ:
            entry = listed.get(c.key, {})
            lines += [f"### {c.key}", f"<a id=\"{_anchor(c)}\"></a>", "",
                      f"- the authors expect: {c.expected}", f"- adck: {c.kit}",
                      f"- clause: {entry.get('clause', '(not listed)')} (aid@{c.revision})",
                      f"- why: {entry.get('reading', '(not listed)')}", ""]
    return "\n".join(lines)


def _anchor(case: Case) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in case.key.lower())


def main() -> int:
    sys.stdout.write(to_markdown(cases(), readings()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
