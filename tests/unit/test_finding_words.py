"""A finding on the site names the briefs it speaks of in words, never by their keys
(kb.render.findings.finding_text)."""

from __future__ import annotations

from kb.knowledge.finding import Finding
from kb.render.findings import finding_text


def brief_finding(kind: str, **params: str) -> Finding:
    return Finding("brief", "inference/2026-09-03-e1", f"{kind}/x", kind, (), "english", params)


def test_the_brief_a_finding_is_about_is_this_brief_and_another_is_its_date_and_round():
    here = brief_finding("confirmed-pending", group="8", paper="fa4", anchor_brief="inference/2026-09-03-e1")
    assert (
        finding_text(here, {"fa4": "FlashAttention-4"})
        == "来源 1.8 说 FlashAttention-4 仍未锚入，但本期简报记录它已锚入。"
    )
    earlier = brief_finding(
        "status", paper="fa4", stated="net-new", computed="pending", first="inference/2026-09-01-e2"
    )
    assert finding_text(earlier) == "原文把 fa4 标为 NET-new；按历史计算为 待锚入（最早出现在 2026-09-01 E2 简报）。"
    assert "inference/" not in finding_text(
        brief_finding("citable/not-new", paper="p", first="inference/2026-09-01-e1")
    )
