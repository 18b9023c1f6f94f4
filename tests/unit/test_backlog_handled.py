"""The backlog's "经手简报" cell: every brief that raised or carried a pending item, linked by its
date, oldest first; an item carried by more than a few briefs has them folded under how many and
the first and last date, in full (the years can differ).  A synthetic knowledge base: items stay
pending for weeks there."""

from __future__ import annotations

from bs4 import BeautifulSoup

from kb import synth
from kb.knowledge.backlog import pending_items
from kb.knowledge.index import load_kb
from kb.render import backlog


def test_every_brief_is_linked_and_long_lists_are_folded(tmp_path):
    files, _ = synth.generate(briefs=80, papers=300, seed=3)
    synth.write(files, tmp_path)
    kb = load_kb(tmp_path)
    topic = next(iter(kb.topics))
    items = {kb.papers[it.paper].short: it for it in pending_items(kb, topic)}
    soup = BeautifulSoup(backlog.page(kb), "html.parser")
    rows = soup.find(id=f"pending-{topic}").find_next("table").select("tbody tr")
    assert len(rows) == len(items)
    folded = 0
    for row in rows:
        it = items[row.find("td").get_text(strip=True)]
        cell = row.find_all("td")[8]
        dates = [kb.briefs[k].date.strftime("%m-%d") for k in it.briefs]
        assert [a.get_text() for a in cell.find_all("a")] == dates
        box = cell.find("details")
        if len(it.briefs) > backlog.HANDLED_SHOWN:
            folded += 1
            first, last = (kb.briefs[k].date.isoformat() for k in (it.briefs[0], it.briefs[-1]))
            assert box is not None and box.summary.get_text() == f"共 {len(dates)} 期（{first} 至 {last}）"
        else:
            assert box is None
    assert 0 < folded < len(rows)  # both kinds are on the page
