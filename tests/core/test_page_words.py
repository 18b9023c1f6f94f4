"""Pages say what happened: the day's anchorings under their own word in the headline (each
paper once), parent sections show their sub-sections' papers (marked as such), and the parts of a
brief are numbered as the author numbers them: the parts written, without gaps."""

from __future__ import annotations

import re
import shutil

from kb.knowledge.load import load_kb
from kb.render import living
from kb.render.brief import page
from sitebuild import FIXTURE_DATA


def side_lines(html: str) -> dict[str, str]:
    side = html.split('<ul class="kb-glance-side">', 1)[1].split("</ul>", 1)[0]
    return {m[0]: m[1] for m in re.findall(r"<li><strong>([^<]+)</strong>：(.*?)</li>", side)}


def test_the_days_anchorings_have_their_own_word_and_each_paper_is_named_once(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    day = data / "briefs" / "inference" / "2026-09-04-e1.yaml"
    twice = "  - {paper: meta-llama-inference, status: anchored, anchored_in: s1-2-scheduling}\n"
    day.write_text(day.read_text("utf-8").replace("claims:\n", twice + "claims:\n", 1), "utf-8")
    kb = load_kb(data)
    lines = side_lines(page(kb, "inference/2026-09-04-e1"))
    assert "候选" not in lines  # nothing of the day is a mere candidate
    assert re.findall(r">([^<]+)</a>", lines["本棒锚入"]) == ["RetroInfer", "Meta Llama Inference"]


def test_a_parent_section_shows_its_sub_sections_papers_marked(sample_kb):
    top = living.papers_in(sample_kb, "inference", "s1", "inference.md")
    assert "已锚入本节的子节" in top and "已锚入本节：" not in top
    for paper, sub in (("cascade", "s1-2-scheduling"), ("retroinfer", "s1-3-vector-storage")):
        row = next(line for line in top.splitlines() if f"papers/{paper}.md" in line)
        assert f"#sec-{sub}" in row
    kv = living.papers_in(sample_kb, "inference", "s1-3-kv-cache", "inference.md")
    assert "papers/retroinfer.md" in kv and "papers/cascade.md" not in kv


def parts(kb, key: str) -> list[str]:
    return re.findall(r"<h2[^>]*>([一二三四五六七八九十])、", page(kb, key))


def test_parts_are_numbered_without_gaps(sample_kb):
    assert parts(sample_kb, "inference/2026-09-03-e1") == list("一二三四五六七")  # every part, as the author
    assert parts(sample_kb, "inference/2026-09-05-e1") == list("一二")  # no sources, adjacent items or claims
    # a reconstructed brief's computed list of ids is no part its author numbered
    assert parts(sample_kb, "inference/2026-09-01-e1") == ["一"]
