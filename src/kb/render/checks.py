"""Stated figures with their computed check beside them, and a brief's findings.

What the author states is shown as stated; the knowledge base's figure appears
next to it only when the two differ (a small "核对：计算得 N" mark that links to
the finding, explained in the 核对 section).  A figure the author did not state
is shown and marked as computed; one computed from a reconstructed brief is a
lower bound and says so.
"""

from __future__ import annotations

from kb.knowledge.figures import agrees
from kb.knowledge.index import KnowledgeBase, Noted
from kb.messages import t
from kb.render.findings import finding_text
from kb.render.html import Html, a, blocks, esc, ol, p, span
from kb.render.html import code as code_el

CHECKS_ANCHOR = "checks"


def finding_anchor(index: int) -> str:
    return f"check-{index}"


def figure(
    stated: int | None,
    computed: int,
    code: str | None = None,
    findings: dict[str, int] | None = None,
    partial: bool = False,
    unit: str = "",
    told: tuple[int, str] | None = None,
) -> Html:
    """``stated`` (and its ``unit``, e.g. " 条主增量") as written, with the computed check after it
    when the two differ; the computed figure, marked, when nothing is stated.  ``told``: what a later
    brief (named) states of this one, shown for a reconstructed brief that states nothing itself."""
    if stated is None and partial and told is not None:
        value, by = told
        known = t("check.told_known", n=computed) if computed != value else ""
        return f"{value}{esc(unit, strip=False)} " + mark(
            "kb-told", t("check.told", brief=by, known=known), t("check.told_title")
        )
    if stated is None:
        if partial:  # a reconstructed brief: a lower bound, or unknown when nothing of it is known
            shown = t("check.lower_bound", n=f"{computed}{unit}") if computed else t("check.unknown", unit=unit.strip())
            return mark("kb-computed", shown, t("brief.reconstructed_figures"))
        return mark("kb-computed", t("check.computed_only", n=f"{computed}{unit}"), t("check.computed_title"))
    if agrees(stated, computed, partial):
        return f"{stated}{esc(unit, strip=False)}"
    return f"{stated}{esc(unit, strip=False)}{check_mark(computed, code, findings)}"


def at_least(n: int, partial: bool) -> str:
    """A computed count, written as a lower bound (≥n) where a reconstructed brief may hold more
    than it lists, and as unknown where that bound would be 0 ("≥0" says nothing)."""
    if not partial:
        return str(n)
    return f"≥{n}" if n else t("check.unknown", unit="")


def check_mark(computed: object, code: str | None, findings: dict[str, int] | None) -> Html:
    """The small mark beside a stated figure; links to its finding in the 核对 section."""
    return _to_finding(t("check.computed", n=computed), code, findings)


def finding_link(code: str | None, findings: dict[str, int] | None) -> Html:
    """A link to the finding that explains a line of 核对 (which already says the computed figure)."""
    index = (findings or {}).get(code or "")
    return _to_finding(t("check.see", n=index) if index else t("check.see_all"), code, findings)


def _to_finding(said: str, code: str | None, findings: dict[str, int] | None) -> Html:
    """``said`` linking to the finding of ``code`` (the 核对 section when it has no number)."""
    index = (findings or {}).get(code or "")
    return " " + a(esc(said), f"#{finding_anchor(index) if index else CHECKS_ANCHOR}", "kb-check")


def mark(cls: str, text: str, title: str) -> Html:
    return span(esc(text), cls, title=title)


def numbered(noted: list[Noted]) -> dict[str, int]:
    """Finding code -> its 1-based number in the 核对 section."""
    return {n.finding.code: i for i, n in enumerate(noted, 1)}


def section(kb: KnowledgeBase, noted: list[Noted], heading: Html, reconstructed: bool = False) -> Html:
    """The 核对 section: every finding in Chinese, acknowledged ones with the authors' reason
    (``reconstructed``: of a brief pieced together without its original)."""
    intro = p(esc(t("check.intro_reconstructed" if reconstructed else "check.intro")))
    if not noted:
        return blocks(heading, intro, p(esc(t("check.none"))))
    names = {pid: paper.short for pid, paper in kb.papers.items()}
    items = []
    for i, n in enumerate(noted, 1):
        state = t("check.acknowledged") if n.acknowledged else t("check.open")
        reason = f"——{esc(n.acknowledged.reason)}" if n.acknowledged else ""
        cls = "kb-finding-ack" if n.acknowledged else "kb-finding-open"
        items.append(
            span(esc(state), f"kb-finding {cls}", id=finding_anchor(i))
            + f" {esc(finding_text(n.finding, names))}{reason} {code_el(n.finding.code)}"
        )
    return blocks(heading, intro, ol(items))
