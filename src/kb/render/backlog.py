"""The backlog page: sortable, filterable tables (a small local script adds sorting).

Everything here comes from the history (:mod:`kb.knowledge.backlog`): pending
items with their first sighting (any brief, any kind of item) and age; open
claims once each, with the brief that raised them and every later update; ids
mentioned without a paper file; duplicate cards.
"""

from __future__ import annotations

from kb.data.models import CLAIM_ACTION_LABELS, STATUS_LABELS
from kb.knowledge.backlog import as_of, duplicate_cards, open_claims, pending_items
from kb.knowledge.claims import ClaimState
from kb.knowledge.index import KnowledgeBase, brief_page
from kb.render.escape import md
from kb.render.links import SIGHTING_LABELS, Linker, brief_link, paper_link, section_link, text
from kb.render.messages import t

PAGE = "backlog.md"


def stars(value: int | None) -> str:
    return "⭐" * value if value else "—"


def _table(headers: list[str], rows: list[str], name: str) -> str:
    head = "| " + " | ".join(headers) + " |\n|" + "---|" * len(headers)
    return f'<div class="kb-table" data-kb-table="{name}" markdown>\n\n' + head + "\n" + "\n".join(rows) + "\n\n</div>"


def _short_date(kb: KnowledgeBase, key: str) -> str:
    return kb.briefs[key].date.strftime("%m-%d")


def claim_history(kb: KnowledgeBase, linker: Linker, state: ClaimState) -> str:
    """Raised by, then every update (date, action, note, brief), for a table cell: a ``<details>``
    when there are updates."""
    raised = t(
        "backlog.raised",
        date=state.date.isoformat(),
        brief=brief_link(kb, linker, state.brief, t("backlog.brief_of", date=_short_date(kb, state.brief))),
    )
    if not state.events:
        return raised
    steps = [raised]
    for e in state.events:
        pri = t("backlog.new_priority", priority=md(e.update.priority)) if e.update.priority else ""
        steps.append(
            t(
                "backlog.update",
                date=e.date.isoformat(),
                action=CLAIM_ACTION_LABELS[e.update.action],
                priority=pri,
                note=text(kb, linker, e.update.note),
                brief=brief_link(kb, linker, e.brief, t("backlog.brief_of", date=_short_date(kb, e.brief))),
            )
        )
    return f"<details><summary>{t('backlog.updates', n=len(state.events))}</summary>{'<br>'.join(steps)}</details>"


def markdown(kb: KnowledgeBase) -> str:
    linker = Linker(PAGE)
    out = [f"# {t('backlog.title')}", t("backlog.intro")]
    for topic in kb.topics:
        out.extend(_pending_section(kb, linker, topic))
    out.extend(_cards_to_write(kb, linker))
    out.extend(_claims_section(kb, linker))
    out.extend(_duplicates_section(kb, linker))
    return "\n\n".join(out) + "\n"


def _pending_section(kb: KnowledgeBase, linker: Linker, topic: str) -> list[str]:
    """Items of ``topic`` still NET-new or pending: first seen, age, value, credibility, sections."""
    items = pending_items(kb, topic)
    day = as_of(kb, topic)
    out = [f"## {t('backlog.pending', topic=md(kb.topics[topic].title))} {{ #pending-{topic} }}"]
    if day:
        out.append(t("backlog.pending_intro", date=day.isoformat(), n=len(items)))
    rows = []
    for it in items:
        p = kb.papers[it.paper]
        ident = text(kb, linker, "arXiv:" + p.arxiv_base) if p.arxiv_base else "—"
        cred = p.credibility.label if p.credibility else "—"
        secs = " + ".join(section_link(kb, linker, topic, s) for s in dict.fromkeys(it.sections)) or "—"
        first = (
            brief_link(kb, linker, it.first_brief, it.first_seen.isoformat())
            + f" · {SIGHTING_LABELS.get(it.first_kind, it.first_kind)}"
        )
        carried = "、".join(brief_link(kb, linker, k, _short_date(kb, k)) for k in it.briefs)
        rows.append(
            f"| {paper_link(kb, linker, it.paper)} | {ident} | {STATUS_LABELS[it.status]} | {first} "
            f"| {it.age_days} | {stars(it.value)} | {cred} | {secs} | {carried} |"
        )
    heads = [
        t(f"backlog.th_{k}")
        for k in ("paper", "arxiv", "status", "first_seen", "days", "value", "credibility", "sections", "briefs")
    ]
    out.append(_table(heads, rows, f"pending-{topic}") if rows else t("backlog.no_pending"))
    return out


def _cards_to_write(kb: KnowledgeBase, linker: Linker) -> list[str]:
    """arXiv ids mentioned without a paper file, with where they are mentioned."""
    out = [f"## {t('backlog.cards_to_write')} {{ #cards-to-write }}"]
    rows = []
    for ident, mentions in kb.unknown_ids().items():
        places = []
        seen = set()
        for m in mentions:
            if (m.place.page, m.place.anchor) in seen:
                continue
            seen.add((m.place.page, m.place.anchor))
            label = (_short_date(kb, m.place.brief) + " " if m.place.brief else "") + m.place.label
            places.append(linker.link(label, m.place.page, m.place.anchor))
        earliest = min((m.place.date for m in mentions if m.place.date), default=None)
        rows.append(
            f"| {text(kb, linker, 'arXiv:' + ident)} | {earliest.isoformat() if earliest else '—'} "
            f"| {len(mentions)} | {'；'.join(places)} |"
        )
    heads = [t(f"backlog.th_{k}") for k in ("arxiv", "first_mentioned", "mentions", "places")]
    out.append(_table(heads, rows, "cards-to-write") if rows else t("backlog.none"))
    return out


def _claims_section(kb: KnowledgeBase, linker: Linker) -> list[str]:
    """Open claims by priority, each with its history."""
    out = [f"## {t('backlog.claims')} {{ #claims }}"]
    claims = open_claims(kb)
    out.append(t("backlog.claims_intro", n=len(claims)))
    rows = []
    for oc in claims:
        pri = md(oc.priority) if oc.priority else "—"
        papers = "、".join(paper_link(kb, linker, p) for p in oc.claim.papers if p in kb.papers) or "—"
        rows.append(
            f"| {pri} | {linker.link(oc.claim.title, brief_page(oc.brief), f'claim-{oc.index}')} "
            f"| {oc.date.isoformat()} "
            f"| {papers} | {claim_history(kb, linker, oc)} |"
        )
    heads = [t(f"backlog.th_{k}") for k in ("priority", "claim", "raised", "papers", "history")]
    out.append(_table(heads, rows, "claims") if rows else t("backlog.no_claims"))
    return out


def _duplicates_section(kb: KnowledgeBase, linker: Linker) -> list[str]:
    """Paper cards that repeat an arXiv id."""
    out = [f"## {t('backlog.duplicates')} {{ #duplicate-cards }}"]
    rows = []
    for d in duplicate_cards(kb):
        where = (
            t("backlog.paper_file")
            if d.where == "paper"
            else brief_link(kb, linker, d.where, t("backlog.card_list", date=kb.briefs[d.where].date.isoformat()))
        )
        who = paper_link(kb, linker, d.paper) if d.paper else "—"
        ident = text(kb, linker, "arXiv:" + d.arxiv) if d.arxiv else "—"
        rows.append(f"| {ident} | {who} | {'、'.join(str(c) for c in d.cards)} | {where} |")
    heads = [t(f"backlog.th_{k}") for k in ("arxiv", "paper", "cards", "found_in")]
    out.append(_table(heads, rows, "duplicate-cards") if rows else t("backlog.no_duplicates"))
    return out
