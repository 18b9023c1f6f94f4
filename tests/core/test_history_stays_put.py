"""A brief page says what it said on its own date: after later briefs resolve, update or
re-prioritise its claims and anchor its papers, everything it showed is still on it, unchanged;
only dated notes (后来：…, marked kb-later) and the link to the next brief are added."""

from __future__ import annotations

import re
import shutil

import pytest

from kb.knowledge.load import load_kb
from kb.render.brief import page
from sitebuild import FIXTURE_DATA

DAYS = ["2026-09-01", "2026-09-02", "2026-09-03", "2026-09-04", "2026-09-05"]
LATER = re.compile(r'<span class="kb-later">.*?（<a [^>]*>[^<]*</a>）</span>')


def as_written(html: str) -> list[str]:
    """The page without its dated notes and without the navigation to later briefs."""
    lines = []
    for line in html.splitlines():
        if line.startswith("<p>← ") or "下一期 →" in line:
            continue  # the links to the previous and next briefs: navigation, not a statement
        stripped = LATER.sub("", line)
        if stripped == "<li></li>":
            continue
        lines.append(stripped)
    return lines


@pytest.fixture(scope="module")
def kbs(tmp_path_factory):
    """day -> the knowledge base as it stood after that day's brief (from 9-3 on: the topic file
    names a section that brief opened)."""
    out = {}
    for i, day in enumerate(DAYS):
        if day < "2026-09-03":
            continue
        data = tmp_path_factory.mktemp(day) / "data"
        shutil.copytree(FIXTURE_DATA, data)
        for later in DAYS[i + 1 :]:
            (data / "briefs" / "inference" / f"{later}-e1.yaml").unlink()
        out[day] = load_kb(data)
    return out


@pytest.mark.parametrize("day", DAYS[:-1])
def test_later_briefs_add_only_dated_notes(kbs, day):
    key = f"inference/{day}-e1"
    then, now = page(kbs[max(day, "2026-09-03")], key), page(kbs[DAYS[-1]], key)
    assert as_written(now) == as_written(then)
    assert LATER.search(then) is None or day < "2026-09-03"  # nothing later on the page back then


def test_a_reprioritised_claim_keeps_its_priority_and_gets_a_dated_note(kbs):
    now = page(kbs[DAYS[-1]], "inference/2026-09-03-e1")
    glance = next(line for line in now.splitlines() if "#claim-1" in line and "待核实" in line)
    assert "<strong>P1</strong>" not in glance  # 9-4 raised it to P1: the 9-3 page's headline stays
    notes = LATER.findall(now)
    assert len(notes) == 3 and all("后来：" in n for n in notes)
    assert any("2026-09-04 有更新（— → P1）" in n for n in notes)
    assert any("2026-09-04 已核实" in n for n in notes)
