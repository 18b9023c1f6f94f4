"""What an import knows besides the text: the topic's sections, the papers of the knowledge
base (and the ones this import creates), the claims of earlier briefs, the brief's date."""

from __future__ import annotations

import datetime as dt
import difflib
import re
from dataclasses import dataclass, field

from kb.data import arxiv_id
from kb.data.models import Brief, Paper, Topic
from kb.data.models.topic import Section
from kb.importer.lines import key

ARXIV = re.compile(r"arXiv\s*[:：]\s*(\d{4}\.\d{4,5})(?:v\d+)?", re.IGNORECASE)
SAME_CLAIM = 0.6  # how alike two claim titles are (difflib's ratio, compared as keys) to be one claim


@dataclass
class NewPaper:
    id: str
    arxiv: str | None
    short: str
    title: str | None = None


@dataclass
class Context:
    topic: Topic
    papers: dict[str, Paper]
    claims: dict[str, str] = field(default_factory=dict)  # claim id -> title, from earlier briefs
    new: dict[str, NewPaper] = field(default_factory=dict)
    date: dt.date = dt.date(2000, 1, 1)

    @classmethod
    def of(cls, topic: Topic, papers: dict[str, Paper], briefs: list[Brief]) -> Context:
        claims = {c.id: c.title for b in briefs if b.topic == topic.id for c in b.claims}
        return cls(topic, dict(papers), claims)

    # papers ----------------------------------------------------------------------------------
    def names(self) -> list[tuple[str, str]]:
        """(name, paper id), longest name first."""
        pairs = [(p.short, p.id) for p in self.papers.values()] + [(n.short, n.id) for n in self.new.values()]
        return sorted(pairs, key=lambda x: -len(x[0]))

    def by_arxiv(self, ident: str) -> str | None:
        base = str(arxiv_id.parse(ident) or ident).split("v")[0]
        for p in self.papers.values():
            if p.arxiv and str(p.arxiv).split("v")[0] == base:
                return p.id
        return next((n.id for n in self.new.values() if n.arxiv == base), None)

    def short_of(self, paper: str) -> tuple[str, str | None]:
        """(short name, arXiv id) of a known or new paper."""
        if paper in self.papers:
            p = self.papers[paper]
            return p.short, str(p.arxiv).split("v")[0] if p.arxiv else None
        n = self.new[paper]
        return n.short, n.arxiv

    def named(self, text: str, skip: tuple[str, ...] = ()) -> list[str]:
        """Papers ``text`` names (by arXiv id or short name), in the order they appear."""
        found: dict[str, int] = {}
        for m in ARXIV.finditer(text):
            pid = self.by_arxiv(m.group(1))
            if pid:
                found.setdefault(pid, m.start())
        for name, pid in self.names():
            n = re.search(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", text)
            if n:
                found[pid] = min(found.get(pid, n.start()), n.start())
        return [p for p, _ in sorted(found.items(), key=lambda x: x[1]) if p not in skip]

    def paper_for(self, ident: str | None, name: str, title: str | None = None) -> str | None:
        """The paper ``ident`` (an arXiv id) or ``name`` is; a new one when the id is unknown."""
        if ident:
            known = self.by_arxiv(ident)
            if known:
                return known
        for short, pid in self.names():
            if name.lower().startswith(short.lower()):
                return pid
        if not ident:
            return None
        slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:60]
        if not slug or name == ident:
            slug = "arxiv-" + ident.replace(".", "-")
        if slug in self.papers or slug in self.new:
            slug = "arxiv-" + ident.replace(".", "-")
        self.new[slug] = NewPaper(slug, ident, name or ident, title)
        return slug

    # dates -----------------------------------------------------------------------------------
    def day(self, month: int, day: int) -> dt.date | None:
        """``9-2`` as a date: the brief's year, or the year before when that would be later."""
        try:
            d = dt.date(self.date.year, month, day)
        except ValueError:
            return None
        return d.replace(year=d.year - 1) if d > self.date else d

    def origin(self, text: str) -> str | None:
        m = re.search(r"(?<![\d-])(\d{1,2})-(\d{1,2})\s*(?:e1prep|候选|NET-new|邻接预备|evening|简报)", text)
        d = self.day(int(m.group(1)), int(m.group(2))) if m else None
        return d.isoformat() if d else None

    # claims ----------------------------------------------------------------------------------
    def earlier_claim(self, ref: str) -> str | None:
        """The earlier claim ``ref`` (its id, or its title as written or nearly) names; None when
        no title is near: a guess would close another claim."""
        if ref in self.claims:
            return ref
        return self._nearest_claim(ref)

    def _nearest_claim(self, title: str) -> str | None:
        """The earlier claim whose title is nearest ``title``, when it is near enough to be the same."""
        score = {c: difflib.SequenceMatcher(None, key(t), key(title)).ratio() for c, t in self.claims.items()}
        best = max(score, key=score.__getitem__, default=None)
        return best if best is not None and score[best] >= SAME_CLAIM else None

    def claim_id(self, title: str, papers: list[str], taken: set[str]) -> str:
        """The id of the earlier claim ``title`` repeats, else a new stable one."""
        best = self._nearest_claim(title)
        if best is not None and best not in taken:
            return best
        stem = f"{papers[0] if papers else self.topic.id}-{self.date:%m%d}"
        n = 1
        while f"{stem}-{n}" in taken or f"{stem}-{n}" in self.claims:
            n += 1
        return f"{stem}-{n}"


def walk(sections: list[Section]) -> list[Section]:
    return [x for s in sections for x in (s, *walk(s.children))]
