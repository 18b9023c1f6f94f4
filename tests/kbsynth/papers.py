"""Paper records and paper files.  Paper files never say where a paper is anchored:
briefs record that (see :mod:`kbsynth.briefs`)."""

from __future__ import annotations

import datetime as dt
import re

from kbsynth import vocab as v
from kbsynth.plan import Paper
from kbsynth.words import Words
from kbsynth.yamlout import Doc, Flow, FlowMap


class Papers(Words):
    papers: dict[str, Paper]

    def _new_id(self) -> tuple[str, str]:
        r = self.r
        short = self.pick(v.PRE) + self.pick(v.SUF) + r.choice(["", "", "", "-2", "++", " v2"])
        pid = re.sub(r"[^a-z0-9]+", "-", short.lower()).strip("-")
        while pid in self.papers:
            short = f"{short.rsplit(' ', 1)[0] if short[-1].isdigit() and ' ' in short else short} {r.randint(3, 99)}"
            pid = re.sub(r"[^a-z0-9]+", "-", short.lower()).strip("-")
        return pid, short

    def new_paper(self, topic: str, when: dt.date, background: bool = False) -> Paper:
        r = self.r
        pid, short = self._new_id()
        month = dt.date(when.year, when.month, 1)
        for _ in range(r.randint(0, 30 if background else 2)):
            month = (month - dt.timedelta(days=1)).replace(day=1)
        kind, arxiv = "paper", None
        if background and r.random() < 0.08 and any(a not in self.used_arxiv for a in v.OLD_IDS):
            arxiv = r.choice([a for a in v.OLD_IDS if a not in self.used_arxiv])
            self.used_arxiv.add(arxiv)
            yymm = re.search(r"(\d{2})(\d{2})[.\d]", arxiv.split("/")[-1])
            assert yymm is not None
            yy = int(yymm.group(1))
            month = dt.date(2000 + yy if yy < 90 else 1900 + yy, int(yymm.group(2)), 1)
        elif r.random() < 0.08:
            kind = r.choice(["system", "report", "benchmark"])
        else:
            arxiv = self.arxiv_for(month)
        p = Paper(pid, short, topic, arxiv, month, kind, primary=topic if r.random() < 0.9 else None)
        self.papers[pid] = p
        return p

    def paper_doc(self, p: Paper) -> Doc:
        r = self.r
        title = f"{p.short}: {self.pick(v.EN_ADJ)} {self.pick(v.EN_NOUN)} for {self.pick(v.EN_GOAL)}"
        authors = [f"{self.pick(v.FIRST)} {self.pick(v.LAST)}" for _ in range(r.randint(0, 5))]
        new_style = bool(p.arxiv and "/" not in p.arxiv and len(p.arxiv.split(".")[1]) == 5)
        doc = {
            "id": p.id,
            "arxiv": (p.arxiv + ("v2" if r.random() < 0.05 else "")) if p.arxiv else None,
            "kind": p.kind if p.kind != "paper" else None,
            "short": p.short,
            "title": title,
            "authors": Flow(authors) if authors else None,
            "affiliations": Flow(self.pick(v.AFFIL, r.randint(1, 4))) if r.random() < 0.7 else None,
            "authors_note": "单作，无机构标注" if len(authors) == 1 else None,
            "venue": self._venue() if r.random() < 0.35 else None,
            "published": f"{p.month.year}-{p.month.month:02d}",
            # a v1 date inside the month the id encodes (outside it would be a finding)
            "submitted": p.month + dt.timedelta(days=r.randint(0, 27)) if new_style and r.random() < 0.2 else None,
            "subjects": Flow(self.pick(["cs.CL", "cs.DC", "cs.LG", "cs.AR", "cs.IR"], r.randint(1, 2)))
            if p.arxiv
            else None,
            "links": {"code": f"https://github.com/{self.pick(v.WHO)}-lab/{p.id}"}
            if r.random() < 0.4
            else ({"other": f"https://example.org/{p.id}"} if not p.arxiv else None),
            "credibility": {"level": self.pick(v.LEVELS), "reason": f"{self.pick(v.TAIL)}；{self.pick(v.AFFIL)}署名"},
            "cards": Flow(p.cards) if p.cards else None,
            "category": {"primary": p.primary, "adjacent": Flow(p.adjacent) if p.adjacent else None}
            if p.primary
            else None,
            "key_numbers": [
                FlowMap({"value": self.pct(), "what": f"{self.pick(v.MODEL)} · {self.pick(v.METRIC)}"})
                for _ in range(r.randint(0, 4))
            ],
            "notes": [self.sentence() for _ in range(r.randint(1, 3))],
        }
        if p.arxiv and r.random() < 0.25:
            doc["arxiv_meta"] = self._arxiv_meta(p, title, authors)
        return doc

    def _venue(self) -> Doc:
        r = self.r
        return {
            "name": self.pick(v.VENUES),
            "detail": f"Pages {r.randint(100, 900)}-{r.randint(901, 1800)}" if r.random() < 0.3 else None,
        }

    def _arxiv_meta(self, p: Paper, title: str, authors: list[str]) -> Doc:
        r = self.r
        return {
            "title": title,
            "authors": Flow(authors) if authors else None,
            "abstract": " ".join(
                f"We present {p.short}, a {self.pick(v.EN_ADJ).lower()} approach to "
                f"{self.pick(v.EN_NOUN).lower()} for {self.pick(v.EN_GOAL).lower()}."
                for _ in range(r.randint(2, 5))
            ),
            "published": p.month + dt.timedelta(days=r.randint(0, 27)),
            "categories": Flow(["cs.CL", "cs.DC"]),
            "primary_category": "cs.CL",
            "version": r.randint(1, 3),
        }
