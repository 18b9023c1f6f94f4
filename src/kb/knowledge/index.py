"""The knowledge index: records joined into one read-only graph.

Built once per run from :class:`kb.data.loader.Loaded` by :mod:`kb.knowledge.load`: it resolves
references, orders briefs per topic, derives the history (sightings, first seen, anchors), the
claims' lifecycle, each brief's figures and every finding, and records every mention of every
paper.  This module holds the index and its lookups, and imports none of what derives its parts
(each of those reads the index).  Renderers read it; they never load files and never write into
it (hand-written pages' mentions are added once, before rendering).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field

from kb.data import arxiv_id
from kb.data.diagnostics import Diagnostic, Severity
from kb.data.loader import Source
from kb.data.models import Acknowledgement, Brief, Demo, Paper, Section, Topic
from kb.knowledge.claims import Claims
from kb.knowledge.figures import BriefFigures
from kb.knowledge.finding import Finding
from kb.knowledge.history import AnchorRecord, History
from kb.knowledge.mentions import Mention


@dataclass(frozen=True)
class SectionInfo:
    topic: str
    section: Section
    parents: tuple[Section, ...]
    depth: int

    @property
    def id(self) -> str:
        return self.section.id


@dataclass(frozen=True)
class Noted:
    """A finding with the acknowledgement its file gives it (``None``: not acknowledged)."""

    finding: Finding
    acknowledged: Acknowledgement | None


@dataclass
class KnowledgeBase:
    topics: dict[str, Topic]
    papers: dict[str, Paper]
    briefs: dict[str, Brief]  # key "topic/stem", in (topic, date, round) order
    demos: dict[str, Demo]
    sources: dict[tuple[str, str], Source]  # (kind, key) -> source
    sections: dict[str, dict[str, SectionInfo]]  # topic -> section id -> info
    by_arxiv: dict[str, str]  # base arXiv id -> paper id
    by_topic: dict[str, list[str]]  # topic -> brief keys by date
    history: History = field(default_factory=History)
    claims: Claims = field(default_factory=Claims)
    figures: dict[str, BriefFigures] = field(default_factory=dict)  # brief key -> figures
    noted: dict[tuple[str, str], list[Noted]] = field(default_factory=dict)  # (owner, key) -> findings
    mentions: list[Mention] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    page_mentions: dict[str, list[Mention]] = field(default_factory=dict)
    failed: dict[str, set[str]] = field(default_factory=dict)  # kind -> stems that failed to load
    unchecked: dict[str, Source] = field(default_factory=dict)  # briefs that are no valid record, by key
    _positions: dict[str, int] = field(default_factory=dict)
    _by_paper: dict[str, list[Mention]] = field(default_factory=dict)
    _unknown: dict[str, list[Mention]] = field(default_factory=dict)
    _indexed: bool = False  # _by_paper and _unknown are made on first use (after the pages' mentions)
    derived: dict[Hashable, object] = field(default_factory=dict, repr=False, compare=False)  # kb.knowledge.derived

    @property
    def findings_held(self) -> bool:
        """Whether a topic, paper or brief file failed to load: the findings (stated figures checked
        against computed ones) wait until it loads, for figures computed without it would be wrong."""
        return any(self.failed.get(kind) for kind in ("topics", "papers", "briefs"))

    @property
    def claims_held(self) -> bool:
        """Whether a brief file failed to load: a claim id a brief names is not called unknown until
        then, for the brief that failed may be the one that raises it."""
        return bool(self.failed.get("briefs"))

    # ------------------------------------------------------------------ lookups
    def paper_for(self, ref: str) -> Paper | None:
        """A paper by id or by arXiv id (any version)."""
        if ref in self.papers:
            return self.papers[ref]
        base = arxiv_id.normalize(ref)
        if base and base in self.by_arxiv:
            return self.papers[self.by_arxiv[base]]
        return None

    def topic_title(self, topic: str) -> str:
        """The topic's title, or its id when the knowledge base has no such topic."""
        found = self.topics.get(topic)
        return found.title if found is not None else topic

    def section(self, topic: str, section_id: str) -> SectionInfo | None:
        return self.sections.get(topic, {}).get(section_id)

    def find_section(self, section_id: str) -> SectionInfo | None:
        for secs in self.sections.values():
            if section_id in secs:
                return secs[section_id]
        return None

    def anchored_in(self, topic: str) -> Iterator[AnchorRecord]:
        """The current anchor of every paper anchored in ``topic``, in paper order."""
        for pid in self.papers:
            rec = self.history.anchor(pid, topic)
            if rec is not None:
                yield rec

    def previous(self, key: str) -> str | None:
        seq = self.by_topic[self.briefs[key].topic]
        i = self._positions[key]
        return seq[i - 1] if i > 0 else None

    def next(self, key: str) -> str | None:
        seq = self.by_topic[self.briefs[key].topic]
        i = self._positions[key]
        return seq[i + 1] if i + 1 < len(seq) else None

    def findings(self, owner: str, key: str) -> list[Noted]:
        return self.noted.get((owner, key), [])

    def mentions_of(self, paper_id: str) -> list[Mention]:
        if not self._indexed:
            self._reindex()
        return self._by_paper.get(paper_id, [])

    def unknown_ids(self) -> dict[str, list[Mention]]:
        """arXiv ids written somewhere with no paper file: cards still to write."""
        if not self._indexed:
            self._reindex()
        return self._unknown

    def add_pages_mentions(self, pages: dict[str, list[Mention]]) -> None:
        """Mentions of hand-written pages (page -> mentions), collected by the site before rendering."""
        self.page_mentions.update(pages)
        if pages:
            self._indexed = False

    def _reindex(self) -> None:
        by_paper: dict[str, list[Mention]] = defaultdict(list)
        unknown: dict[str, list[Mention]] = defaultdict(list)
        # one mention per place and sentence; where a reference by name and an id in its text give the
        # same one (an increment's title holding the arXiv id of a paper it lists), it is by name
        seen: dict[tuple[object, ...], tuple[list[Mention], int]] = {}
        everything = list(self.mentions)
        for page in sorted(self.page_mentions):
            everything.extend(self.page_mentions[page])
        for m in everything:
            pl = m.place  # its fields, not the Place: hashing a tuple of strings is several times faster
            ident = (pl.kind, pl.page, pl.anchor, pl.label, pl.date, pl.brief, m.paper, m.arxiv, m.context)
            kept = seen.get(ident)
            if kept is not None:
                if m.explicit and not kept[0][kept[1]].explicit:
                    kept[0][kept[1]] = m
                continue
            into = by_paper[m.paper] if m.paper else unknown[m.arxiv] if m.arxiv else None
            if into is not None:
                seen[ident] = (into, len(into))
                into.append(m)
        self._by_paper = dict(by_paper)
        self._unknown = dict(sorted(unknown.items()))
        self._indexed = True

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]


def brief_page(key: str) -> str:
    return f"briefs/{key}.md"


def paper_page(paper_id: str) -> str:
    return f"papers/{paper_id}.md"


def section_anchor(section_id: str | None) -> str:
    return f"sec-{section_id}" if section_id else ""
