"""The backlog's "经手简报" cell stays one line however long an item is carried: the first and the
last brief that raised or carried it, linked by their dates, how many, and a link to the paper's
page, which lists them all.  A synthetic knowledge base: items stay pending for weeks there."""

from __future__ import annotations

from bs4 import BeautifulSoup

import kbsynth as synth
from kb.knowledge.backlog import pending_items
from kb.knowledge.load import load_kb
from kb.render import backlog


def test_a_row_names_the_first_and_last_brief_and_how_many(tmp_path):
    files, _ = synth.generate(briefs=80, papers=300, seed=3)
    synth.write(files, tmp_path)
    kb = load_kb(tmp_path)
    topic = next(iter(kb.topics))
    items = {kb.papers[it.paper].short: it for it in pending_items(kb, topic)}
    soup = BeautifulSoup(backlog.page(kb), "html.parser")
    rows = soup.find(id=f"pending-{topic}").find_next("table").select("tbody tr")
    assert len(rows) == len(items)
    long = 0
    for row in rows:
        it = items[row.find("td").get_text(strip=True)]
        cell = row.find_all("td")[8]
        links = [a.get_text() for a in cell.find_all("a")]
        first, last = (kb.briefs[k].date.strftime("%m-%d") for k in (it.briefs[0], it.briefs[-1]))
        if len(it.briefs) == 1:
            assert links == [first]
        else:
            long += len(it.briefs) > 6
            assert links == [first, last, "全部"] and f"共 {len(it.briefs)} 期" in cell.get_text()
            assert cell.find_all("a")[-1]["href"].endswith(f"papers/{it.paper}.md#backlinks")
    assert long  # items carried for weeks are on the page, each in one line
