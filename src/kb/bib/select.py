"""Which papers a topic, a section or a brief is about (``kb bib export --topic/--section/--brief``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.data.models import Paper

if TYPE_CHECKING:
    from kb.knowledge.index import KnowledgeBase


def papers_for_topic(kb: KnowledgeBase, topic: str) -> list[Paper]:
    """Papers anchored in ``topic``, filed under it (category), or mentioned in its briefs."""
    ids = {
        p.id
        for p in kb.papers.values()
        if kb.history.anchor(p.id, topic) is not None
        or (p.category and (p.category.primary == topic or topic in p.category.adjacent))
    }
    briefs = set(kb.by_topic.get(topic, []))
    ids |= {m.paper for m in kb.mentions if m.paper and m.place.brief in briefs}
    return [kb.papers[i] for i in sorted(ids)]


def papers_for_section(kb: KnowledgeBase, section: str) -> list[Paper]:
    """Papers anchored in ``section`` or below it, or named by brief items about those sections."""
    info = kb.find_section(section)
    if info is None:
        return []
    topic = info.topic
    under = {sid for sid, i in kb.sections[topic].items() if sid == section or any(p.id == section for p in i.parents)}
    ids = {r.paper for r in kb.anchored_in(topic) if under & set(r.sections)}
    for key in kb.by_topic.get(topic, []):
        brief = kb.briefs[key]
        for inc in brief.increments:
            if under & set(inc.sections):
                ids.update(inc.papers)
            for rel in inc.relations:
                if rel.section in under:
                    ids.update(rel.papers)
        for adj in brief.adjacent:
            if under & set(adj.sections):
                ids.update(adj.papers)
    return [kb.papers[i] for i in sorted(ids) if i in kb.papers]


def papers_for_brief(kb: KnowledgeBase, brief_key: str) -> list[Paper]:
    """Papers a brief mentions (explicit references and arXiv ids in its text)."""
    ids = {m.paper for m in kb.mentions if m.paper and m.place.brief == brief_key}
    return [kb.papers[i] for i in sorted(ids)]
