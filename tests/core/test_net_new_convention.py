"""The team's NET-new on an adjacent item promoted to a main increment means "first time as a main
increment" (the 9-03 brief counts its increments' NET-new apart from what earlier briefs only
prepared as adjacent): written so, it raises no finding; NET-new on a paper that was a main
increment before is a real disagreement and still does."""

from __future__ import annotations

import shutil

from kb.data.loader import load
from kb.knowledge.load import build
from sitebuild import FIXTURE_DATA


def codes_after(tmp_path, *edits: tuple[str, str]) -> set[str]:
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    day = data / "briefs" / "inference" / "2026-09-04-e1.yaml"
    text = day.read_text("utf-8")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    day.write_text(text, "utf-8")
    kb = build(load(data))
    assert kb.errors == []
    return {n.finding.code for n in kb.findings("brief", "inference/2026-09-04-e1")}


PROMOTED = ("    status: pending\n    status_note: 9-2", "    status: net-new\n    status_note: 9-2")


def test_a_promoted_adjacent_item_written_net_new_raises_no_finding(tmp_path):
    codes = codes_after(tmp_path, PROMOTED, ("  net_new: 1\n", "  net_new: 2\n"))
    assert not {c for c in codes if c.startswith(("status/", "stated/net_new"))}, codes


def test_either_count_of_a_promoted_item_agrees(tmp_path):
    assert "stated/net_new" not in codes_after(tmp_path, PROMOTED)  # 1: the author did not count it


def test_net_new_on_a_former_main_increment_is_still_a_finding(tmp_path):
    codes = codes_after(tmp_path, ("papers: [lmcache-v2]", "papers: [ssr]"), PROMOTED)
    assert "status/ssr" in codes  # SSR was a main increment on 9-3
