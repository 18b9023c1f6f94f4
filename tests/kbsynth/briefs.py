"""One brief, with a history the knowledge base can check.

Papers move from NET-new to pending to anchored and never back.  A paper's
anchoring is planned when it is first raised as an item; the first brief of its
topic on or after that date records it (``status: anchored`` with
``anchored_in`` and ``anchored_since``) in an increment, a candidate or the
author's carried-over list.  The generator mirrors :mod:`kb.knowledge.figures`
(carried-over items, net-new ids), so every ``stated:`` figure agrees with the
computed one except the deliberate disagreements.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from kbsynth import vocab as v
from kbsynth.items import Items
from kbsynth.papers import Papers
from kbsynth.plan import Paper, TopicState
from kbsynth.sources import Sources
from kbsynth.yamlout import Doc, FlowMap


@dataclass
class Round:
    """What one brief raises, as the generator builds it."""

    st: TopicState
    key: str
    date: dt.date
    rnd: str
    secs: list[str]
    new: list[Paper]
    groups: list[tuple[list[Paper], str]] = field(default_factory=list)  # increments: (papers, status)
    cands: list[Doc] = field(default_factory=list)
    carried: list[Doc] = field(default_factory=list)  # the author's carried-over list (empty: not written)
    n_carried: int = 0  # computed carried-over items

    @property
    def raised(self) -> list[str]:
        return [p.id for ps, _ in self.groups for p in ps] + [c["paper"] for c in self.cands]


class Briefs(Items, Sources, Papers):  # Papers: new_paper() for the papers a brief brings
    papers: dict[str, Paper]
    brief_dates: dict[str, dt.date]
    disagree_rate: float
    disagreements: list[str]
    files: dict[str, str]
    topics: list[str]

    def plan_anchor(self, p: Paper, date: dt.date, section: str | None, last: dt.date) -> None:
        """Decide once when (and whether) the living document anchors a paper raised as an item."""
        if p.planned:
            return
        p.planned = True
        if self.r.random() < 0.99:
            since = date + dt.timedelta(days=min(self.r.randint(1, 8), self.r.randint(1, 30)))
            if since <= last:
                p.plan = (since, section if self.r.random() < 0.9 else None)

    def anchored_entry(self, p: Paper, note: str) -> Doc:
        return {
            "paper": p.id,
            "status": "anchored",
            "anchored_in": p.anchor_section,
            "anchored_since": p.anchor_since,
            "note": note,
        }

    # ---------------------------------------------------------------- what the brief raises
    def _new(self, st: TopicState, key: str, date: dt.date, k: int) -> tuple[list[Paper], list[str]]:
        new = [self.new_paper(st.id, date) for _ in range(k)]
        roles = [self.r.choices(["inc", "cand", "adj"], [0.66, 0.12, 0.22])[0] for _ in new]
        roles = [
            ("cand" if role == "adj" and roles[:i].count("adj") >= 16 else role) for i, role in enumerate(roles)
        ]  # ≤ 26 adjacent
        for p in new:
            p.first = key
            if self.r.random() < 0.2 and p.arxiv:  # ingested as a paper card under another primary category
                p.primary, p.adjacent = self.r.choice(v.OTHER_CATS), [st.id]
        return new, roles

    def _increments(self, b: Round, inc_new: list[Paper], due: list[str], pend: list[str], recent: list[str]) -> None:
        r, st = self.r, b.st
        i = 0
        while i < len(inc_new):  # new papers, one or two per increment
            n = 2 if r.random() < 0.25 and i + 1 < len(inc_new) else 1
            b.groups.append((inc_new[i : i + n], "net-new"))
            i += n
        if st.adjacent_only and r.random() < 0.15:  # an adjacent item of an earlier brief promoted: seen before
            b.groups.append(([self.papers[st.adjacent_only.pop(0)]], "pending"))
        if pend and r.random() < 0.2:
            b.groups.append(([self.papers[self.pick(pend)]], "pending"))
        if due and r.random() < 0.2:  # the anchoring recorded by a main increment
            b.groups.append(([self.papers[self.pick(due)]], "anchored"))
        elif recent and r.random() < 0.15:  # new material on a paper anchored a few days ago
            b.groups.append(([self.papers[self.pick(recent)]], "anchored"))
        for _ in range(int(not b.groups) + (r.random() < 0.35) + (r.random() < 0.1)):
            b.groups.append(([], "net-new"))  # an item without a paper (an engine release, an event)

    def _candidates(
        self, b: Round, cand_new: list[Paper], due: list[str], pend: list[str], recent: list[str], write_carried: bool
    ) -> None:
        r = self.r
        b.cands = [{"paper": p.id, "status": "net-new", "note": "NET-new 待锚入"} for p in cand_new]
        raised = set(b.raised)
        if r.random() < 0.4:
            for pid in self.pick([p for p in pend if p not in raised], r.randint(1, 4)):
                b.cands.append({"paper": pid, "status": "pending", "note": "候选 · 仍未锚入"})
            for pid in self.pick([p for p in recent if p not in raised], r.randint(0, 2)):
                p = self.papers[pid]
                b.cands.append(
                    self.anchored_entry(p, f"已锚入（{p.anchor_since.isoformat()}）" if p.anchor_since else "已锚入")
                )
        if not write_carried:  # due anchorings not recorded elsewhere: as candidates
            raised = set(b.raised)
            b.cands += [self.anchored_entry(self.papers[pid], "已锚入") for pid in due if pid not in raised]

    def _background(self, b: Round) -> None:
        """The first brief of a topic records the papers its living document anchored before it."""
        if b.st.prev is None:
            b.cands += [self.anchored_entry(self.papers[pid], "年初基线 · 已锚入") for pid in b.st.background]

    def _carried(self, b: Round, write_carried: bool) -> list[tuple[str, str]]:
        """Mirror of figures' carried-over items: pending after the previous brief and not raised again;
        one anchored by now (a due anchoring, recorded here in the author's list) is carried once more."""
        raised = b.raised
        carried = [(pid, origin) for pid, origin in b.st.pending.items() if pid not in raised]
        b.n_carried = len(carried)
        for pid, origin in carried if write_carried else []:
            p = self.papers[pid]
            od = self.brief_dates[origin]
            if p.plan and p.plan[0] <= b.date:
                b.carried.append(
                    FlowMap({**self.anchored_entry(p, f"{od.month}-{od.day} 候选 · 已锚入"), "origin": od})
                )
            else:
                b.carried.append(
                    FlowMap(
                        {"paper": pid, "note": f"{od.month}-{od.day} 候选 · 待锚入", "status": "pending", "origin": od}
                    )
                )
        return carried

    def _advance(self, b: Round, carried: list[tuple[str, str]]) -> None:
        """The items still pending after this brief (after :meth:`_record`)."""
        st = b.st
        nxt = {pid: origin for pid, origin in carried if self.papers[pid].recorded is None}
        for pid in b.raised:
            if self.papers[pid].recorded is not None:
                nxt.pop(pid, None)
            elif pid not in nxt:
                nxt[pid] = st.pending.get(pid, b.key)
        st.pending = nxt

    def _record(self, b: Round) -> None:
        """Papers this brief records as anchored for the first time."""
        entries = [ps[0].id for ps, s in b.groups if s == "anchored"] + [
            c["paper"] for c in b.cands if c["status"] == "anchored"
        ]
        entries += [c["paper"] for c in b.carried if c["status"] == "anchored"]
        for pid in entries:
            if self.papers[pid].recorded is None:
                self.papers[pid].recorded = b.key
                b.st.recorded_on.setdefault(b.date, []).append(pid)
