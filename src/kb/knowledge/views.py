"""Machine-readable views of the knowledge base, for automated brief writers and
other tools: what ``kb status`` prints with ``--json`` and what the build writes
as ``api/papers.json``, ``api/briefs.json`` and ``api/backlog.json``.

The views are pydantic models, so their JSON Schemas (``api/schema/*.json``)
come from the same definitions as the data and cannot drift from it.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from kb.data import arxiv_id
from kb.knowledge.backlog import as_of, duplicate_cards, pending_items
from kb.knowledge.claims import ClaimState
from kb.knowledge.figures import paper_status
from kb.knowledge.index import KnowledgeBase, brief_page, paper_page

VERSION = 1


class View(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Sighting(View):
    date: dt.date
    brief: str = Field(description="Brief key, e.g. `inference/2026-09-03-e1`.")
    kind: str = Field(description="increment, adjacent, candidate, claim, carried or citable.")


class AnchorView(View):
    topic: str
    section: str | None = Field(
        description="Section id (the anchor `#sec-<id>` of the living document); a paper anchored in several "
        "sections of a topic has one record for each."
    )
    section_title: str | None
    since: dt.date | None = Field(
        description="Anchoring date: the one a brief states, else the recording brief's date when that brief "
        "anchors it (an increment or a candidate), else null (a carried-over entry restating an older anchoring)."
    )
    recorded_by: str = Field(description="The brief that records the anchoring.")
    recorded_on: dt.date = Field(description="That brief's date: anchored at the latest then.")


class ClaimRef(View):
    topic: str
    id: str
    title: str
    priority: str | None
    raised_by: str
    raised_on: dt.date


class PaperView(View):
    query: str | None = Field(None, description="What was asked for (kb status), when it differs from the id.")
    known: bool = Field(description="Does the knowledge base have a paper file for it?")
    id: str | None
    arxiv: str | None = Field(description="Base arXiv id.")
    short: str | None
    title: str | None
    page: str | None = Field(description="Site path of its page, e.g. `papers/ssr/`.")
    status: Literal["net-new", "pending", "anchored", "unseen", "mentioned", "unknown"] = Field(
        description="Per topic it was seen in, the furthest status as of the topic's latest brief; "
        "`unseen`: a paper file no brief names; `mentioned`: an id written in text without a paper "
        "file; `unknown`: not in the knowledge base at all."
    )
    first_seen: Sighting | None = Field(
        description="Its first sighting in any brief (the one definition of first seen)."
    )
    seen: list[Sighting] = Field(default_factory=list, description="Every brief that names it, oldest first.")
    anchors: list[AnchorView] = Field(default_factory=list)
    open_claims: list[ClaimRef] = Field(default_factory=list)
    mentions: int = Field(
        0,
        description="Places on the site that mention it (a brief part, a section, a page): "
        "the rows of its page's backlinks.",
    )


class BriefView(View):
    key: str
    topic: str
    date: dt.date
    round: str
    title: str | None
    headline: str | None = Field(description="The round's character (本棒性质), as written.")
    instance: str
    page: str
    reconstructed: bool
    increments: list[dict[str, object]] = Field(description="label, title, papers, status (stated), computed_status.")
    stated: dict[str, object] = Field(description="The figures the brief states (`stated:`).")
    computed: dict[str, object] = Field(description="The figures the knowledge base computes.")
    net_new_ids: list[str]
    carried: list[str] = Field(description="Paper ids carried over (computed).")
    claims: list[str] = Field(description="Ids of the claims it raises.")
    findings: list[dict[str, object]] = Field(description="code, message, acknowledged (reason or null).")


class PendingView(View):
    topic: str
    paper: str
    arxiv: str | None
    status: str
    first_seen: dt.date
    first_brief: str
    age_days: int
    value: int | None
    sections: list[str]


class BacklogView(View):
    as_of: dict[str, dt.date | None] = Field(description="Per topic, the date of its latest brief.")
    pending: list[PendingView]
    open_claims: list[ClaimRef]
    cards_to_write: list[dict[str, object]] = Field(
        description="arXiv ids mentioned without a paper file: id, mentions."
    )
    duplicate_cards: list[dict[str, object]]


class PapersFile(View):
    version: int = VERSION
    papers: list[PaperView]


class BriefsFile(View):
    version: int = VERSION
    briefs: list[BriefView]


class BacklogFile(View):
    version: int = VERSION
    backlog: BacklogView


def site_path(src: str) -> str:
    """The site path MkDocs gives a page (directory URLs): ``x.md`` → ``x/``, ``x/index.md`` → ``x/``."""
    stem = src[: -len(".md")]
    if stem == "index" or stem.endswith("/index"):
        return stem[: -len("index")]
    return stem + "/"


def claim_ref(kb: KnowledgeBase, state: ClaimState) -> ClaimRef:
    return ClaimRef(
        topic=state.topic,
        id=state.claim.id,
        title=state.claim.title,
        priority=state.priority,
        raised_by=state.brief,
        raised_on=state.date,
    )


def claims_by_paper(open_claims: list[ClaimState]) -> dict[str, list[ClaimState]]:
    """The open claims that name each paper (by paper id), in the claims' order."""
    by_paper: dict[str, list[ClaimState]] = {}
    for state in open_claims:
        for paper_id in dict.fromkeys(state.claim.papers):
            by_paper.setdefault(paper_id, []).append(state)
    return by_paper


def paper_view(kb: KnowledgeBase, ref: str, open_claims: dict[str, list[ClaimState]] | None = None) -> PaperView:
    """What the knowledge base knows of a paper id or an arXiv id (any version); ``open_claims``:
    the knowledge base's open claims by paper (:func:`claims_by_paper`), when the caller has them
    already (one view per paper)."""
    paper = kb.paper_for(ref)
    if paper is None:
        base = arxiv_id.normalize(ref)
        mentions = kb.unknown_ids().get(base or "", [])
        return PaperView(
            query=ref,
            known=False,
            id=None,
            arxiv=base,
            short=None,
            title=None,
            page=None,
            status="mentioned" if mentions else "unknown",
            first_seen=None,
            mentions=len({(m.place.page, m.place.anchor) for m in mentions}),
        )
    seen = [Sighting(date=s.date, brief=s.brief, kind=s.kind) for s in kb.history.by_paper.get(paper.id, [])]
    anchors = []
    for topic in kb.topics:
        rec = kb.history.anchor(paper.id, topic)
        if rec is None:
            continue
        for sid in rec.sections or (None,):  # one record for each section it is anchored in
            info = kb.section(topic, sid) if sid else None
            anchors.append(
                AnchorView(
                    topic=topic,
                    section=sid,
                    section_title=info.section.title if info else None,
                    since=rec.since,
                    recorded_by=rec.brief,
                    recorded_on=rec.recorded_on,
                )
            )
    by_paper = claims_by_paper(kb.claims.open_claims()) if open_claims is None else open_claims
    claims = [claim_ref(kb, s) for s in by_paper.get(paper.id, [])]
    return PaperView(
        query=ref if ref != paper.id else None,
        known=True,
        id=paper.id,
        arxiv=paper.arxiv_base,
        short=paper.short,
        title=paper.display_title,
        page=site_path(paper_page(paper.id)),
        status=overall_status(kb, paper.id),
        first_seen=seen[0] if seen else None,
        seen=seen,
        anchors=anchors,
        open_claims=claims,
        mentions=mention_places(kb, paper.id),
    )


def mention_places(kb: KnowledgeBase, pid: str) -> int:
    """How many places on the site mention the paper (a brief part, a section, a page): the rows of
    its page's backlinks, not the raw mentions (one place may name it several times)."""
    return len({(m.place.page, m.place.anchor) for m in kb.mentions_of(pid)})


def overall_status(kb: KnowledgeBase, pid: str) -> Literal["net-new", "pending", "anchored", "unseen"]:
    """A paper's status across topics: per topic it was seen in, its status as of the topic's latest
    brief; the furthest of them (anchored, then pending, then net-new); ``unseen`` when no brief
    names it.  This is the ``status`` of ``api/papers.json`` and of the paper index."""
    topics = {kb.briefs[s.brief].topic for s in kb.history.by_paper.get(pid, [])}
    statuses = [paper_status(kb.history, pid, kb.by_topic[t][-1], t).value for t in sorted(topics) if t in kb.by_topic]
    order: tuple[Literal["anchored", "pending", "net-new"], ...] = ("anchored", "pending", "net-new")
    for value in order:
        if value in statuses:
            return value
    return "unseen"


def brief_view(kb: KnowledgeBase, key: str) -> BriefView:
    b, f = kb.briefs[key], kb.figures[key]
    increments: list[dict[str, object]] = [
        {
            "label": inc.label,
            "title": inc.title,
            "papers": list(inc.papers),
            "status": inc.status.value,
            "computed_status": st.value if st else None,
        }
        for inc, st in zip(b.increments, f.statuses, strict=True)
    ]
    computed = {
        "increments": f.increments,
        "net_new": f.net_new,
        "adjacent": f.adjacent,
        "adjacent_ingested": f.adjacent_ingested,
        "arxiv_net_new": len(f.net_new_ids),
        "carried_over": len(f.carried),
        "sources_listed": f.sources_listed,
    }
    findings: list[dict[str, object]] = [
        {
            "code": n.finding.code,
            "message": n.finding.message,
            "acknowledged": n.acknowledged.reason if n.acknowledged else None,
        }
        for n in kb.findings("brief", key)
    ]
    return BriefView(
        key=key,
        topic=b.topic,
        date=b.date,
        round=b.round,
        title=b.title,
        headline=b.character.title if b.character else None,
        instance=b.instance,
        page=site_path(brief_page(key)),
        reconstructed=b.reconstructed is not None,
        increments=increments,
        stated=b.stated.model_dump(mode="json", exclude_defaults=True),
        computed=computed,
        net_new_ids=list(f.net_new_ids),
        carried=[c.paper for c in f.carried],
        claims=[c.id for c in b.claims],
        findings=findings,
    )


def backlog_view(kb: KnowledgeBase) -> BacklogView:
    pending = [
        PendingView(
            topic=it.topic,
            paper=it.paper,
            arxiv=kb.papers[it.paper].arxiv_base,
            status=it.status.value,
            first_seen=it.first_seen,
            first_brief=it.first_brief,
            age_days=it.age_days,
            value=it.value,
            sections=list(it.sections),
        )
        for topic in kb.topics
        for it in pending_items(kb, topic)
    ]
    cards: list[dict[str, object]] = [{"arxiv": ident, "mentions": len(ms)} for ident, ms in kb.unknown_ids().items()]
    dups: list[dict[str, object]] = [
        {"arxiv": d.arxiv, "paper": d.paper, "cards": list(d.cards), "where": d.where} for d in duplicate_cards(kb)
    ]
    return BacklogView(
        as_of={t: as_of(kb, t) for t in kb.topics},
        pending=pending,
        open_claims=[claim_ref(kb, s) for s in kb.claims.open_claims()],
        cards_to_write=cards,
        duplicate_cards=dups,
    )


def api_files(kb: KnowledgeBase) -> dict[str, str]:
    """The build's machine-readable files by site path, with their JSON Schemas."""
    open_now = claims_by_paper(kb.claims.open_claims())
    files: dict[str, View] = {
        "api/papers.json": PapersFile(papers=[paper_view(kb, pid, open_now) for pid in kb.papers]),
        "api/briefs.json": BriefsFile(briefs=[brief_view(kb, k) for k in kb.briefs]),
        "api/backlog.json": BacklogFile(backlog=backlog_view(kb)),
    }
    # without indentation: at a team's size the files are megabytes, a quarter of them blanks
    out = {path: view.model_dump_json() + "\n" for path, view in files.items()}
    for path, model in (
        ("api/schema/papers.schema.json", PapersFile),
        ("api/schema/briefs.schema.json", BriefsFile),
        ("api/schema/backlog.schema.json", BacklogFile),
    ):
        import json

        out[path] = json.dumps(model.model_json_schema(), ensure_ascii=False, indent=1) + "\n"
    return out


def page_dates(kb: KnowledgeBase) -> dict[str, str]:
    """When each page of the knowledge base last changed, by its source path, from the data's own
    dates (the sitemap's ``lastmod``; never the build's date): a brief's day; a paper's latest brief
    that names it; a living document's latest update or brief; any other page the newest brief."""
    dates = {brief_page(key): b.date.isoformat() for key, b in kb.briefs.items()}
    for pid in kb.papers:
        named = [kb.briefs[m.place.brief].date for m in kb.mentions_of(pid) if m.place.brief in kb.briefs]
        if named:
            dates[paper_page(pid)] = max(named).isoformat()
    for topic in kb.topics.values():
        days = [u.date for u in topic.updates] + [kb.briefs[k].date for k in kb.by_topic.get(topic.id, [])]
        if days:
            dates[topic.page] = max(days).isoformat()
    if kb.briefs:
        dates[""] = max(b.date for b in kb.briefs.values()).isoformat()  # every other generated page
    return dates
