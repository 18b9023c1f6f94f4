"""The knowledge base built: records loaded (:mod:`kb.data.loader`), joined into one
:class:`~kb.knowledge.index.KnowledgeBase`, with the history, the claims, each brief's figures,
every mention and every finding derived and every cross-record rule run."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from kb.data.diagnostics import DataError, Diagnostic, KeyPath, Severity, format_keypath
from kb.data.loader import FileMemo, Loaded, Source
from kb.data.models import Acknowledgement, Section, round_key
from kb.data.recordstore import RecordStore
from kb.gcpause import gc_paused
from kb.knowledge.backlinks import MentionMemo, collect
from kb.knowledge.claims import build_claims
from kb.knowledge.counting import compute_all
from kb.knowledge.findings import Finding, brief_findings, paper_findings, topic_findings
from kb.knowledge.history import build_history
from kb.knowledge.index import KnowledgeBase, Noted, SectionInfo
from kb.knowledge.mentionstore import MentionStore, tokens
from kb.knowledge.related import Carried, carry


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
    (reused while its bytes are the same), each record's mentions and each paper's related papers
    (:func:`kb.knowledge.related.carry`).  Only a caller that passes one to :func:`load_kb` keeps
    anything; nothing is kept at module level."""

    files: FileMemo = field(default_factory=FileMemo)
    mentions: MentionMemo = field(default_factory=MentionMemo)
    related: Carried = field(default_factory=dict)


def build(
    loaded: Loaded, mentions: bool = True, memo: MentionMemo | None = None, tokens: dict[str, str] | None = None
) -> KnowledgeBase:
    """Join loaded records.  Diagnostics from loading and from every rule are kept on the result.

    ``mentions=False`` skips collecting mentions (backlinks): no rule reads them, so
    ``kb validate`` does not need them.  ``memo`` reuses the mentions of unchanged records (known
    by ``tokens``, see :func:`kb.knowledge.backlinks.collect`).
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
            carry(kb, memo.related)
    if kb.errors or (strict and kb.warnings):
        raise DataError(kb.diagnostics)
    return kb
