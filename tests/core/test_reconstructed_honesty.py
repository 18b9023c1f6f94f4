"""A reconstructed brief shows only what it records: no time or window it does not record, no
"first brief of the topic" (only that none earlier is known), counts resting on it as lower bounds,
the next brief's figure for a part marked as the next brief's; a brief that is not reconstructed
must record its time and window (a located error otherwise)."""

from __future__ import annotations

import re
import shutil

from kb.data.loader import load
from kb.knowledge.load import build
from kb.render.brief import page
from sitebuild import FIXTURE_DATA

TIMES = re.compile(r"generated_at: .*\n|window:\n  start: .*\n  end: .*\n  note: .*\n")


def untimed(tmp_path, *days: str):
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    for day in days:
        path = data / "briefs" / "inference" / f"{day}-e1.yaml"
        path.write_text(TIMES.sub("", path.read_text("utf-8")), "utf-8")
    return build(load(data))


def test_a_reconstructed_brief_shows_no_time_or_window_it_does_not_record(tmp_path):
    kb = untimed(tmp_path, "2026-09-01", "2026-09-02")
    assert kb.errors == []
    first, second = page(kb, "inference/2026-09-01-e1"), page(kb, "inference/2026-09-02-e1")
    for shown in (first, second):
        assert "生成时间" not in shown and "窗口期" not in shown and "22:20" not in shown
    assert "第一期" not in first and "没有该主题更早的简报" in first
    # 9-3 says 9-2 had 6 adjacent items; 9-2 lists one: the heading says 6, marked as 9-3's figure
    head = re.search(r'<h2 id="adjacent">(.*?)</h2>', second).group(1)
    assert "6 条邻接预备" in head and "kb-told" in head and "数据中列出 1 条" in head
    # what 9-3 computes from the reconstructed briefs before it is a lower bound (of nothing: unknown)
    assert "截至上一期已锚入多少篇不明" in page(kb, "inference/2026-09-03-e1")


def test_a_brief_that_is_not_reconstructed_must_record_its_time_and_window(tmp_path):
    kb = untimed(tmp_path, "2026-09-04")
    missing = sorted(e.message.split(":")[0] for e in kb.errors if e.path.endswith("2026-09-04-e1.yaml"))
    assert missing == ["missing key 'generated_at'", "missing key 'window'"]


def test_a_lower_bound_of_nothing_is_said_to_be_unknown():
    """Before 9-3 only reconstructed briefs, which record no anchoring: "at least 0" would say
    nothing, so 9-3's baseline says the count is unknown; 9-4's rests on 9-3 too: at least 2."""
    kb = build(load(FIXTURE_DATA))
    third, fourth = page(kb, "inference/2026-09-03-e1"), page(kb, "inference/2026-09-04-e1")
    assert "已锚入多少篇不明" in third and "至少 0 篇" not in third
    assert "截至上一期已锚入至少 2 篇" in fourth
    assert "引用约 430 条 arXiv" in third  # the update log's figure, in words
