"""The knowledge index: records joined into one read-only graph.

Built once per run from :class:`kb.data.loader.Loaded`: it resolves references,
orders briefs per topic, derives the history (sightings, first seen, anchors),
the claims' lifecycle, each brief's figures and every finding, and records every
mention of every paper.  Renderers read it; they never load files and never
write into it (hand-written pages' mentions are added once, before rendering).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from kb.data import arxiv_id
from kb.data.diagnostics import DataError, Diagnostic, KeyPath, Severity, format_keypath
from kb.data.loader import FileMemo, Loaded, Source
from kb.data.models import Acknowledgement, Brief, Demo, Paper, Section, Topic, round_key
from kb.data.recordstore import RecordStore
from kb.gcpause import gc_paused
from kb.knowledge.claims import Claims, build_claims
from kb.knowledge.findings import Finding, brief_findings, paper_findings, topic_findings
from kb.knowledge.history import AnchorRecord, History, build_history
from kb.knowledge.mentions import Mention, MentionMemo, collect
from kb.knowledge.mentionstore import MentionStore, tokens


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

    def anchor_of(self, paper: Paper, topic: str, as_of: str | None = None) -> AnchorRecord | None:
        """The paper's anchor in ``topic``, as recorded by brief ``as_of`` or earlier (``None``: by any brief)."""
        return self.history.anchor(paper.id, topic, as_of)

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


from kb.knowledge.figures import BriefFigures, compute_all  # noqa: E402  (figures read the index's lookups)


def brief_page(key: str) -> str:
    return f"briefs/{key}.md"


def paper_page(paper_id: str) -> str:
    return f"papers/{paper_id}.md"


def section_anchor(section_id: str | None) -> str:
    return f"sec-{section_id}" if section_id else ""


def _walk_sections(
    topic: str,
    sections: list[Section],
    parents: tuple[Section, ...],
    out: dict[str, SectionInfo],
    dups: list[tuple[Section, tuple[str | int, ...]]],
    path: tuple[str | int, ...] = ("sections",),
) -> None:
    for i, s in enumerate(sections):
        if s.id in out:
            dups.append((s, path + (i, "id")))
        out[s.id] = SectionInfo(topic, s, parents, len(parents))
        _walk_sections(topic, s.children, parents + (s,), out, dups, path + (i, "children"))


@dataclass
class Memo:
    """What a long-running process (``kb preview``) keeps across loads: each data file's record
    (reused while its bytes are the same) and each record's mentions.  Only a caller that
    passes one to :func:`load_kb` keeps anything; nothing is kept at module level."""

    files: FileMemo = field(default_factory=FileMemo)
    mentions: MentionMemo = field(default_factory=MentionMemo)


def build(
    loaded: Loaded, mentions: bool = True, memo: MentionMemo | None = None, tokens: dict[str, str] | None = None
) -> KnowledgeBase:
    """Join loaded records.  Diagnostics from loading and from every rule are kept on the result.

    ``mentions=False`` skips collecting mentions (backlinks): no rule reads them, so
    ``kb validate`` does not need them.  ``memo`` reuses the mentions of unchanged records (known
    by ``tokens``, see :func:`kb.knowledge.mentions.collect`).
    """
    from kb.knowledge import rules

    kb = _join(loaded)
    kb.history = build_history(kb.briefs)
    kb.claims = build_claims(kb.briefs, kb.by_topic)
    kb.figures = compute_all(kb)
    kb.mentions = collect(kb, memo, tokens) if mentions else []
    kb.diagnostics.extend(rules.check(kb, _duplicate_sections(kb, loaded)))
    if not kb.findings_held:
        kb.diagnostics.extend(_note_findings(kb))
    return kb


def _join(loaded: Loaded) -> KnowledgeBase:
    sources: dict[tuple[str, str], Source] = {}
    for kind, table in (
        ("topic", loaded.topics),
        ("paper", loaded.papers),
        ("brief", loaded.briefs),
        ("demo", loaded.demos),
    ):
        for key, (_, src) in table.items():
            sources[(kind, key)] = src
    sections: dict[str, dict[str, SectionInfo]] = {}
    for tid, (topic, _) in sorted(loaded.topics.items()):
        out: dict[str, SectionInfo] = {}
        _walk_sections(tid, topic.sections, (), out, [])
        sections[tid] = out
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
        unchecked=loaded.unchecked,
    )
    kb._positions = {k: i for seq in kb.by_topic.values() for i, k in enumerate(seq)}
    return kb


def _duplicate_sections(kb: KnowledgeBase, loaded: Loaded) -> list[tuple[str, Section, KeyPath]]:
    dups_all: list[tuple[str, Section, KeyPath]] = []
    for tid, (topic, _) in sorted(loaded.topics.items()):
        dups: list[tuple[Section, tuple[str | int, ...]]] = []
        _walk_sections(tid, topic.sections, (), {}, dups)
        dups_all.extend((tid, s, kp) for s, kp in dups)
    return dups_all


def _note_findings(kb: KnowledgeBase) -> list[Diagnostic]:
    """Every finding, matched with its file's acknowledgements: a warning, or a note when
    acknowledged; an acknowledgement that matches no finding is a warning of its own."""
    owners: list[tuple[str, str, list[Finding], list[Acknowledgement]]] = []
    for tid, topic in kb.topics.items():
        owners.append(("topic", tid, topic_findings(kb, tid), topic.acknowledged))
    for pid, paper in kb.papers.items():
        owners.append(("paper", pid, paper_findings(kb, pid), paper.acknowledged))
    for key, brief in kb.briefs.items():
        if brief.topic in kb.topics:
            owners.append(("brief", key, brief_findings(kb, key), brief.acknowledged))
    out = []
    for owner, key, found, acks in owners:
        by_code = {a.finding: a for a in acks}
        noted = [Noted(f, by_code.get(f.code)) for f in found]
        if noted:
            kb.noted[(owner, key)] = noted
        src = kb.sources[(owner, key)]
        for n in noted:
            line, col = src.located.value_where(n.finding.keypath)
            ack = n.acknowledged
            message = n.finding.message + (
                f" (acknowledged: {ack.reason})"
                if ack
                else f"; if it stays as written, "
                f"acknowledge it: acknowledged: [{{finding: {n.finding.code}, reason: …}}]"
            )
            out.append(
                Diagnostic(
                    src.path,
                    line,
                    col,
                    message,
                    key=format_keypath(n.finding.keypath),
                    severity=Severity.NOTE if ack else Severity.WARNING,
                    code=n.finding.code,
                )
            )
        codes = {f.code for f in found}
        for i, ack in enumerate(acks):
            if ack.finding not in codes:
                line, col = src.located.value_where(("acknowledged", i, "finding"))
                out.append(
                    Diagnostic(
                        src.path,
                        line,
                        col,
                        f"the acknowledged finding '{ack.finding}' does not occur "
                        f"(any more){_close(ack.finding, codes)}: remove the acknowledgement",
                        key=f"acknowledged[{i}].finding",
                        severity=Severity.WARNING,
                        code="stale-acknowledgement",
                    )
                )
    return out


def _close(code: str, codes: set[str]) -> str:
    from kb.data.hints import did_you_mean

    return did_you_mean(code, codes)


def load_kb(
    data_dir: Path | str,
    strict: bool = False,
    memo: Memo | None = None,
    freeze: bool = False,
    records: RecordStore | None = None,
    mentions: MentionStore | None = None,
) -> KnowledgeBase:
    """Load and index; raise DataError with every diagnostic if anything is wrong.

    No partial knowledge base is ever returned: with any error (or, when
    ``strict``, any warning) the caller gets the full list instead.  With a ``memo``,
    unchanged files are not parsed again and their mentions not collected again.
    ``records`` (without a memo): unchanged files are read back from the build's cache instead of
    parsed; with ``mentions`` too, the mentions of unchanged records are read back from there.
    ``freeze``: see :func:`gc_paused`.
    """
    from kb.data.loader import load

    with gc_paused(freeze):
        if memo is None and records is not None and mentions is not None:
            loaded = load(data_dir, memo=records)
            kept = mentions.load()
            kb = build(loaded, memo=kept, tokens=tokens(loaded, records))
            mentions.save(kept, kept.changed)
        elif memo is None:
            kb = build(load(data_dir, memo=records))
        else:
            kb = build(load(data_dir, memo=memo.files), memo=memo.mentions)
    if kb.errors or (strict and kb.warnings):
        raise DataError(kb.diagnostics)
    return kb
