"""``badge.svg``: the verdict as a badge."""

from __future__ import annotations

from conformance.reports.model import Report


def to_badge(report: Report) -> str:
    import anybadge

    s = report.summary
    level = s.level
    if s.partial and level not in ("non-conformant", "not-judged"):
        level = "partial"
    label = level.replace("-", " ") if level in ("partial", "not-judged") else level
    color = {"full": "green", "conformant": "yellowgreen", "non-conformant": "red",
             "partial": "lightgrey", "not-judged": "lightgrey"}[level]
    if s.partial and level == "non-conformant":
        label = "non-conformant (partial run)"
    if s.draft_level and not s.partial:
        label = f"{s.draft_level} {label}"  # "adck adp | D1 full"
    return anybadge.Badge(f"adck {report.draft['short']}", label, default_color=color).badge_svg_text


