"""``badge.svg`` and ``badge.json``: the verdict as a badge, saying what was checked.

A badge is read out of context (a README, a vendor's page), so it carries what makes its claim
checkable: the draft and its revision, the roles checked, the verdict (for a draft with levels
of its own, the level met: ``D1 full``) and the day of the run::

    adck adp-00 | D1 full · service, document · 2026-11-23

A run under declarations (``--declare``) names them, since the verdict holds under them only::

    adck adp-00 | D2 full · service, document · declared: strict-validation · 2026-11-23

``badge.json`` is the same badge as a shields.io endpoint
(https://shields.io/badges/endpoint-badge), for a badge served from where the report is
published: ``https://img.shields.io/endpoint?url=<badge.json's URL>``.

A run that checked part of the draft (partial) never shows a verdict on the whole draft: it is
grey and says ``partial``. A partial run that saw a MUST fail has proven the target
non-conformant, so it says ``non-conformant (partial run)``, still grey: a badge in the grey of
partial runs is never one to publish as a verdict (issue #13: "a partial run gets a grey badge").
"""

from __future__ import annotations

import json
import re

from conformance.reports.model import Report
from conformance.reports.verdict import declared, judged, revision_name

#: shields.io's colour names, and their values for the SVG (anybadge has no "brightgreen", and
#: its "lightgrey" is too light for white text).
_COLOR = {"full": "brightgreen", "conformant": "green", "non-conformant": "red",
          "partial": "lightgrey", "not-judged": "lightgrey"}
SVG_COLOR = {"brightgreen": "#4c1", "green": "#97ca00", "red": "#e05d44", "lightgrey": "#9f9f9f"}


def draft_tag(report: Report) -> str:
    """The draft with its revision, short: ``adp-00`` (draft-xu-...-profile-00), ``aid v1``
    (aid-v1-2025-06-19); the short name alone when the id has neither. A run of several
    revisions names the newest that passed (:func:`_shown_revision`)."""
    shown = _shown_revision(report)
    if shown is not None:
        return revision_name(report.draft["short"], shown["name"])
    if report.draft.get("revision"):
        return judged(report)
    short, draft_id = report.draft["short"], report.draft.get("id", "")
    if draft_id.startswith("draft-") and (m := re.search(r"-(\d{2})$", draft_id)):
        return f"{short}-{m.group(1)}"
    if m := re.search(r"(?:^|-)v(\d+)(?:-|$)", draft_id):
        return f"{short} v{m.group(1)}"
    return short


def _shown_revision(report: Report) -> dict | None:
    """Of a whole run of several revisions, the one the badge shows: the newest that passed (no
    MUST failed or unverified), or the newest judged when none did. None for a run of one."""
    if not report.revisions or report.summary.partial or report.summary.level == "not-judged":
        return None
    passed = [e for e in report.revisions if e["level"] in ("full", "conformant")]
    return (passed or report.revisions)[-1]


def verdict(report: Report) -> tuple[str, str]:
    """(the verdict in a few words, its colour)."""
    s = report.summary
    shown = _shown_revision(report)
    if shown is not None:
        level = shown["level"]
        return (f"{shown['draft_level']} {level}" if shown["draft_level"] and level != "non-conformant" else level,
                _COLOR.get(level, _COLOR["partial"]))
    if s.level == "not-judged":
        return "not judged", _COLOR["not-judged"]
    if s.partial and s.level == "non-conformant":
        return "non-conformant (partial run)", _COLOR["partial"]
    if s.partial or s.level == "partial":
        return "partial", _COLOR["partial"]
    if s.draft_level and s.level != "non-conformant":
        return f"{s.draft_level} {s.level}", _COLOR[s.level]  # "D1 full"
    return s.level, _COLOR[s.level]


def roles_checked(report: Report) -> list[str]:
    """The roles the badge names: for a whole run, the roles the run checked (``report.roles``);
    for a partial run (``--clause``, ``-k``), only the roles of the clauses it checked (a
    clause catalogued as not observable checks nothing), in the report's order: a ``--clause``
    run on a publisher clause never claims the document or agent role. A report whose results
    name none of its roles (made by hand) keeps its roles."""
    if not report.summary.partial:
        return list(report.roles)
    seen = {r.role for r in report.results
            if not (r.outcome == "untestable" and r.untestable_reason == "not-observable")}
    return [role for role in report.roles if role in seen] or list(report.roles)


def parts(report: Report) -> tuple[str, str, str]:
    """(label, message, colour) shared by the SVG and the endpoint JSON."""
    words, color = verdict(report)
    message = [words]
    roles = roles_checked(report)
    if roles:
        message.append(", ".join(roles))
    if declared(report):  # the verdict was reached under these choices of the implementation
        message.append(declared(report))
    day = report.started_at[:10]
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", day):
        message.append(day)
    return f"adck {draft_tag(report)}", " · ".join(message), color


def to_badge(report: Report) -> str:
    import anybadge

    label, message, color = parts(report)
    return anybadge.Badge(label, message, default_color=SVG_COLOR[color]).badge_svg_text


def to_endpoint(report: Report) -> str:
    """The shields.io endpoint JSON (schemaVersion 1)."""
    label, message, color = parts(report)
    return json.dumps({"schemaVersion": 1, "label": label, "message": message, "color": color},
                      ensure_ascii=False, indent=2) + "\n"
