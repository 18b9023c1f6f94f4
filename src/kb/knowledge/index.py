"""The knowledge index: records joined into one read-only graph.

Built once per run from :class:`kb.loader.Loaded`.  It resolves references,
orders briefs per topic, records every mention of every paper, and computes
each brief's figures (:mod:`kb.knowledge.figures`) and the backlog (:mod:`kb.knowledge.backlog`).
Renderers read it; they never load files.
"""

from __future__ import annotations

import datetime as dt
import gc
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field

from kb.data import arxiv_id
from kb.data.diagnostics import DataError, Diagnostic, Severity
from kb.data.loader import Loaded, Source
from kb.knowledge.mentions import Mention, Place, iter_strings, sentence_around, text_mentions
from kb.data.models import Brief, Demo, Paper, Section, Topic, round_key


@dataclass(frozen=True)
class SectionInfo:
    topic: str
    section: Section
    parents: tuple[Section, ...]
    depth: int

    @property
    def id(self) -> str:
        return self.section.id


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
    mentions: list[Mention] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    figures: dict[str, "object"] = field(default_factory=dict)  # brief key -> BriefFigures
    page_mentions: dict[str, list[Mention]] = field(default_factory=dict)
    failed: dict[str, set[str]] = field(default_factory=dict)  # kind -> stems that failed to load
    cache: dict = field(default_factory=dict)  # memoised derived views (backlog, ...)

    # ------------------------------------------------------------------ lookups
    def paper_for(self, ref: str) -> Paper | None:
        """A paper by id or by arXiv id (any version)."""
        if ref in self.papers:
            return self.papers[ref]
        base = arxiv_id.normalize(ref)
        if base and base in self.by_arxiv:
            return self.papers[self.by_arxiv[base]]
        return None

    def section(self, topic: str, section_id: str) -> SectionInfo | None:
        return self.sections.get(topic, {}).get(section_id)

    def find_section(self, section_id: str) -> SectionInfo | None:
        for secs in self.sections.values():
            if section_id in secs:
                return secs[section_id]
        return None

    def anchor_of(self, paper: Paper, topic: str, on: dt.date | None = None):
        """The paper's anchor in ``topic`` that holds on date ``on`` (or at all)."""
        for anchor in paper.anchors:
            if anchor.topic == topic and (on is None or anchor.since <= on):
                return anchor
        return None

    def _position(self, key: str) -> int:
        pos = self.cache.get("positions")
        if pos is None:
            pos = self.cache["positions"] = {k: i for seq in self.by_topic.values() for i, k in enumerate(seq)}
        return pos[key]

    def previous(self, key: str) -> str | None:
        seq = self.by_topic[self.briefs[key].topic]
        i = self._position(key)
        return seq[i - 1] if i > 0 else None

    def next(self, key: str) -> str | None:
        seq = self.by_topic[self.briefs[key].topic]
        i = self._position(key)
        return seq[i + 1] if i + 1 < len(seq) else None

    def mentions_of(self, paper_id: str) -> list[Mention]:
        return self._by_paper.get(paper_id, [])

    def unknown_ids(self) -> dict[str, list[Mention]]:
        """arXiv ids written somewhere with no paper file: cards still to write."""
        return self._unknown

    def add_page_mentions(self, page: str, mentions: list[Mention]) -> None:
        """Mentions found in hand-written pages (collected by the site adapter before rendering)."""
        self.add_pages_mentions({page: mentions})

    def add_pages_mentions(self, pages: dict[str, list[Mention]]) -> None:
        """Mentions of several hand-written pages (page -> mentions), with one re-index."""
        self.page_mentions.update(pages)
        if pages:
            self._reindex()

    def _reindex(self) -> None:
        by_paper: dict[str, list[Mention]] = defaultdict(list)
        unknown: dict[str, list[Mention]] = defaultdict(list)
        seen: set[tuple] = set()
        everything = list(self.mentions)
        for page in sorted(self.page_mentions):
            everything.extend(self.page_mentions[page])
        for m in everything:
            key = (m.place, m.paper, m.arxiv, m.context)
            if key in seen:
                continue
            seen.add(key)
            if m.paper:
                by_paper[m.paper].append(m)
            elif m.arxiv:
                unknown[m.arxiv].append(m)
        self._by_paper = dict(by_paper)
        self._unknown = dict(sorted(unknown.items()))

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


def _walk_sections(topic: str, sections: list[Section], parents: tuple[Section, ...], out: dict, dups: list,
                   path: tuple = ("sections",)):
    for i, s in enumerate(sections):
        if s.id in out:
            dups.append((s, path + (i, "id")))
        out[s.id] = SectionInfo(topic, s, parents, len(parents))
        _walk_sections(topic, s.children, parents + (s,), out, dups, path + (i, "children"))


def build(loaded: Loaded, mentions: bool = True) -> KnowledgeBase:
    """Join loaded records.  Diagnostics from loading and from every rule are kept on the result.

    ``mentions=False`` skips collecting mentions (backlinks): no rule reads them, so
    ``kb validate`` does not need them.
    """
    from kb.knowledge import figures, rules  # late import: both read the index

    sources: dict[tuple[str, str], Source] = {}
    for kind, table in (("topic", loaded.topics), ("paper", loaded.papers), ("brief", loaded.briefs), ("demo", loaded.demos)):
        for key, (_, src) in table.items():
            sources[(kind, key)] = src

    sections: dict[str, dict[str, SectionInfo]] = {}
    dup_sections: list[tuple[str, Section, tuple]] = []  # (topic, section, key path of the repeat)
    for tid, (topic, _) in sorted(loaded.topics.items()):
        out: dict[str, SectionInfo] = {}
        dups: list[tuple[Section, tuple]] = []
        _walk_sections(tid, topic.sections, (), out, dups)
        sections[tid] = out
        dup_sections.extend((tid, s, kp) for s, kp in dups)

    by_arxiv: dict[str, str] = {}
    for pid, (paper, _) in sorted(loaded.papers.items()):
        base = paper.arxiv_base
        if base and base not in by_arxiv:
            by_arxiv[base] = pid

    ordered = sorted(loaded.briefs.items(), key=lambda kv: (kv[1][0].topic, kv[1][0].date, round_key(kv[1][0].round)))
    by_topic: dict[str, list[str]] = defaultdict(list)
    for key, (brief, _) in ordered:
        by_topic[brief.topic].append(key)

    kb = KnowledgeBase(
        topics={k: v[0] for k, v in sorted(loaded.topics.items())},
        papers={k: v[0] for k, v in sorted(loaded.papers.items())},
        briefs={k: v[0] for k, v in ordered},
        demos={k: v[0] for k, v in sorted(loaded.demos.items())},
        sources=sources,
        sections=sections,
        by_arxiv=by_arxiv,
        by_topic=dict(by_topic),
        diagnostics=list(loaded.diagnostics),
        failed=loaded.failed,
    )
    kb.mentions = _collect_mentions(kb) if mentions else []
    kb._reindex()
    kb.diagnostics.extend(rules.check(kb, dup_sections))
    for key in kb.briefs:
        kb.figures[key] = figures.compute(kb, key)
    kb.diagnostics.extend(figures.disagreement_diagnostics(kb))
    return kb


@contextmanager
def gc_paused():
    """Loading makes millions of small acyclic objects that the cyclic garbage collector
    would rescan over and over (about 1 s in 3 at a year of data): pause it meanwhile."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load_kb(data_dir, strict: bool = False) -> KnowledgeBase:
    """Load and index; raise DataError with every diagnostic if anything is wrong.

    No partial knowledge base is ever returned: with any error (or, when
    ``strict``, any warning) the caller gets the full list instead.
    """
    from kb.data.loader import load

    with gc_paused():
        kb = build(load(data_dir))
    if kb.errors or (strict and kb.warnings):
        raise DataError(kb.diagnostics)
    return kb


# ---------------------------------------------------------------------- mentions

# Where each part of a brief sits on its page.
def brief_place(kb: KnowledgeBase, key: str, path: tuple) -> Place:
    brief = kb.briefs[key]
    page = brief_page(key)
    head = path[0] if path else ""
    if head == "increments" and len(path) > 1:
        i = path[1]
        return Place("brief", page, f"inc-{i + 1}", f"增量 {i + 1} · {brief.increments[i].label}", brief.date, key)
    if head == "adjacent" and len(path) > 1:
        letter = chr(ord("A") + path[1])
        return Place("brief", page, f"adj-{letter.lower()}", f"邻接 {letter} · {brief.adjacent[path[1]].title}", brief.date, key)
    if head == "claims" and len(path) > 1:
        i = path[1]
        return Place("brief", page, f"claim-{i + 1}", f"待核实 {i + 1} · {brief.claims[i].title}", brief.date, key)
    if head == "candidates" and len(path) > 1:
        return Place("brief", page, "candidates", f"候选 · {brief.candidates[path[1]].paper}", brief.date, key)
    if head == "sources" and len(path) > 1:
        g = path[1]
        return Place("brief", page, f"src-{g + 1}", f"来源 1.{g + 1} · {brief.sources[g].title}", brief.date, key)
    if head == "comparison":
        return Place("brief", page, "summary", "小结与对照", brief.date, key)
    return Place("brief", page, "status", "状态", brief.date, key)


def _collect_mentions(kb: KnowledgeBase) -> list[Mention]:
    out: list[Mention] = []
    for key, brief in kb.briefs.items():
        for path, text in iter_strings(brief):
            if path and path[-1] in ("path", "url", "cron", "timezone", "round", "topic", "arxiv"):
                continue
            if len(path) >= 2 and path[-2] in ("papers", "confirmed_pending") or path[-1:] == ("paper",):
                paper = kb.papers.get(text)
                if paper is not None:
                    ctx = _explicit_context(brief, path, paper)
                    out.append(Mention(brief_place(kb, key, path), paper.id, paper.arxiv_base, ctx, True))
                continue
            if arxiv_id.TEXT_RE.search(text):  # most strings hold no id: skip building their place
                out.extend(text_mentions(brief_place(kb, key, path), text, kb.by_arxiv))
        for gi, card in ((gi, c) for gi, g in enumerate(brief.sources) for c in g.cards):
            if card.arxiv:
                base = arxiv_id.normalize(card.arxiv)
                place = brief_place(kb, key, ("sources", gi))
                ctx = f"paper_card {card.number}" + (f" · {card.title}" if card.title else "") + (f" · {card.note}" if card.note else "")
                out.append(Mention(place, kb.by_arxiv.get(base), base, ctx, True))
    # paper files that mention other papers in their notes
    for pid, paper in kb.papers.items():
        for name in ("authors_note", "key_numbers", "notes"):  # in field order
            for path, value in iter_strings(getattr(paper, name), (name,)):
                if not arxiv_id.TEXT_RE.search(value):
                    continue
                anchor = "notes" if name == "notes" else ("key-numbers" if name == "key_numbers" else "")
                place = Place("paper", paper_page(pid), anchor, f"论文 · {paper.short}", None)
                out.extend(m for m in text_mentions(place, value, kb.by_arxiv) if m.paper != pid)
    # sections of the living documents that anchor a paper
    for pid, paper in kb.papers.items():
        for anchor in paper.anchors:
            topic = kb.topics.get(anchor.topic)
            if topic is None:
                continue
            info = kb.section(anchor.topic, anchor.section) if anchor.section else None
            label = f"{topic.title} · {info.section.ref} {info.section.title}" if info and info.section.number else (
                f"{topic.title} · {info.section.title}" if info else f"{topic.title}（未注明节）")
            place = Place("section", topic.page, section_anchor(anchor.section) if anchor.section else "", label, anchor.since)
            out.append(Mention(place, pid, paper.arxiv_base, f"锚入于 {anchor.since.isoformat()}" + (f"：{anchor.note}" if anchor.note else ""), True))
    return out


def section_anchor(section_id: str | None) -> str:
    return f"sec-{section_id}" if section_id else ""


def _explicit_context(brief: Brief, path: tuple, paper: Paper) -> str:
    """The human text that an explicit reference sits in: the item's title or claim."""
    obj: object = brief
    for part in path[:2]:
        obj = obj[part] if isinstance(part, int) else getattr(obj, part, None)
    for attr in ("title", "text"):
        value = getattr(obj, attr, None)
        if isinstance(value, str):
            return sentence_around(value, 0, 0) if len(value) <= 220 else value[:219] + "…"
    return paper.short
