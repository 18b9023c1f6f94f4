"""The living document's update log is derived from the briefs' anchorings: a paper a brief
anchors gets a label on that day without being typed again in the topic file; the author's own
label text stands where it names the paper; the citation count is typed once."""

from __future__ import annotations

import datetime as dt

from kb.knowledge.updatelog import update_log
from kb.render import living


def test_anchorings_make_the_log_and_typed_labels_stand_for_their_papers(sample_kb):
    log = {u.date: u for u in update_log(sample_kb, "inference")}
    assert list(log) == [dt.date(2026, 9, 3), dt.date(2026, 9, 4), dt.date(2026, 9, 5)]
    d4, d5 = log[dt.date(2026, 9, 4)], log[dt.date(2026, 9, 5)]
    # 9-4: the author's words name RetroInfer and Meta: no label is made for them again
    assert [(lb.text, lb.derived) for lb in d4.labels] == [
        ("RetroInfer（§1.(3) 第六路线）", False),
        ("Meta MLSys 生产数据", False),
    ]
    assert (d4.citations, d4.approx) == (432, True)
    # 9-5: the brief anchors Cascade; nobody typed an update entry for it
    assert [(lb.text, lb.papers, lb.derived) for lb in d5.labels] == [("Cascade", ("cascade",), True)]
    assert d5.citations is None and d5.briefs == ("inference/2026-09-05-e1",)


def test_the_living_document_marks_derived_labels_as_computed(sample_kb):
    shown = living.update_labels(sample_kb, "inference", "inference.md")
    row = shown.split("2026-09-05", 1)[1].split("</tr>", 1)[0]
    assert "kb-computed" in row and "Cascade" in row and "briefs/inference/2026-09-05-e1" in row
    row4 = shown.split("2026-09-04", 1)[1].split("</tr>", 1)[0]
    assert "kb-computed" not in row4 and "432" in row4
