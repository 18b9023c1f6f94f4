"""The generator: a schedule of briefs over the topics, papers anchored before the first
brief, then every brief in date order, the paper files, the topic files with their
update logs, and two demos."""

from __future__ import annotations

import datetime as dt
import random

from kbsynth.briefdoc import BriefDocs
from kbsynth.papers import Papers
from kbsynth.plan import Paper, TopicState
from kbsynth.topics import Topics
from kbsynth.yamlout import Doc, Flow, dump


class Gen(BriefDocs, Papers, Topics):
    def __init__(self, briefs: int, papers: int, seed: int, topics: list[str], start: dt.date, disagree_rate: float):
        self.r = random.Random(seed)
        self.n_briefs, self.n_papers, self.topics, self.start = briefs, papers, topics, start
        self.disagree_rate = disagree_rate
        self.papers: dict[str, Paper] = {}
        self.used_arxiv: set[str] = set()
        self.card_no = 100
        self.claim_no = 0
        self.files: dict[str, str] = {}
        self.brief_dates: dict[str, dt.date] = {}
        self.disagreements: list[str] = []

    def schedule(self) -> list[tuple[str, dt.date, str]]:
        out: list[tuple[str, dt.date, str]] = []
        day = self.start
        while len(out) < self.n_briefs:
            if self.r.random() < 0.04 and out:  # a skipped day: next window is ~48h
                day += dt.timedelta(days=1)
            for t in self.topics:
                if len(out) < self.n_briefs:
                    out.append((t, day, "E1"))
                if len(out) < self.n_briefs and self.r.random() < 0.03:
                    out.append((t, day, "E2"))
            day += dt.timedelta(days=1)
        return out

    def base_sections(self, st: TopicState) -> list[str]:
        return [s for s in st.sections if s not in st.late]

    def background(self, states: dict[str, TopicState], n_bg: int) -> None:
        """Papers the living documents anchored before the first brief (its first brief records them)."""
        for i in range(n_bg):
            t = self.topics[i % len(self.topics)]
            p = self.new_paper(t, self.start, background=True)
            p.plan = (self.start - dt.timedelta(days=self.r.randint(1, 400)), self.pick(self.base_sections(states[t])))
            p.planned = True
            states[t].background.append(p.id)

    def counts(self, n_slots: int, n_new: int) -> list[int]:
        """New papers per brief: even, then shuffled a little (some briefs bring more, some fewer)."""
        counts = [n_new // max(1, n_slots)] * n_slots
        for i in self.r.sample(range(n_slots), n_new % n_slots) if n_slots else []:
            counts[i] += 1
        for _ in range(n_slots * 2):
            i, j = self.r.randrange(n_slots), self.r.randrange(n_slots)
            if counts[i] > 1:
                counts[i] -= 1
                counts[j] += 1
        return counts

    def run(self) -> dict[str, str]:
        slots = self.schedule()
        last = max(d for _, d, _ in slots) if slots else self.start
        keys: dict[str, list[tuple[str, dt.date]]] = {t: [] for t in self.topics}
        for t, d, rnd in slots:
            keys[t].append((f"{d.isoformat()}-{rnd.lower()}", d))
        states: dict[str, TopicState] = {}
        docs: dict[str, Doc] = {}
        for t in self.topics:
            docs[t], states[t] = self.topic_plan(t, keys[t])
        n_bg = min(self.n_papers, max(len(self.topics), self.n_papers // 10)) if slots else self.n_papers
        self.background(states, n_bg)
        for (t, d, rnd), k in zip(slots, self.counts(len(slots), self.n_papers - n_bg), strict=True):
            self.brief(states[t], d, rnd, k, last)
        for t in self.topics:
            docs[t]["updates"] = self.updates(states[t])
            self.files[f"topics/{t}.yaml"] = dump(
                docs[t], f"Synthetic topic {t}: the section tree of its living document and its update log."
            )
        for p in self.papers.values():
            self.files[f"papers/{p.id}.yaml"] = dump(self.paper_doc(p))
        self.demos(states)
        return dict(sorted(self.files.items()))

    def demos(self, states: dict[str, TopicState]) -> None:
        for i, p in enumerate(sorted(self.papers.values(), key=lambda p: p.id)[:2]):
            kernel = ["attention-decode", "softmax"][i]
            self.files[f"demos/{kernel}-demo.yaml"] = dump(
                {
                    "id": f"{kernel}-demo",
                    "kernel": kernel,
                    "title": f"{kernel} WebGPU kernel（{p.short}）",
                    "description": f"浏览器内运行的 {kernel} kernel，对照 {p.short} 的实现。",
                    "papers": Flow([p.id]),
                    "sections": Flow([self.base_sections(states[p.topic])[0]]),
                }
            )
