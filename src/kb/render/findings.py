"""Findings in the reader's words: the catalogue's template for a finding's ``kind``, filled from its
``params`` with the names readers know (the English message of :mod:`kb.knowledge.findings` is for
contributors)."""

from __future__ import annotations

from kb.knowledge.findings import Finding
from kb.messages import FINDINGS, STATUS_WORDS, UI, brief_words


def finding_text(finding: Finding, names: dict[str, str] | None = None) -> str:
    """A finding in the reader's language.  ``names`` maps paper ids to the names readers know
    (short names); statuses are shown with the site's words."""
    params = dict(finding.params)
    for k in ("paper",):
        if k in params and names:
            params[k] = names.get(params[k], params[k])
    if isinstance(params.get("papers"), str) and names:  # a "、"-joined list of paper ids
        params["papers"] = "、".join(names.get(pid, pid) for pid in params["papers"].split("、"))
    for k in ("first", "anchor_brief"):  # a brief's key: the brief in words (a date after Chinese: a space)
        if params.get(k):
            named = brief_words(params[k], finding.key if finding.owner == "brief" else None)
            params[k] = named if named == UI["brief.this"] else f" {named}"
    for k in ("stated", "computed"):
        if params.get(k) in STATUS_WORDS:
            params[k] = STATUS_WORDS[params[k]]
    kind = finding.kind
    if kind == "origin" and params.get("partial"):
        kind = "origin/partial"
    template = FINDINGS.get(kind)
    if template is None:
        return finding.message
    try:
        return template.format(**params)
    except (KeyError, IndexError):
        return finding.message
