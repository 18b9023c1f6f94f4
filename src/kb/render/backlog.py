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
from kb.knowledge.index import KnowledgeBase, brief_page, paper_page
from kb.messages import t
from kb.render.brief_items import editor_note
from kb.render.html import BR, Html, blocks, details, esc, heading, p, ranked, t_html, table
from kb.render.links import SIGHTING_LABELS, Linker, arxiv_out, brief_link, paper_link, section_link, text

PAGE = "backlog.md"
TITLE_ANCHOR = "backlog"  # what the toc extension made of the title "待办（Backlog）"


def stars(value: int | None) -> str:
    return "⭐" * value if value else "—"


def _table(keys: tuple[str, ...], rows: list[list[Html]], name: str) -> Html:
    """A sortable table (``assets/kb-tables.js``) with the heads ``backlog.th_<key>``."""
    return table([esc(t(f"backlog.th_{k}")) for k in keys], rows, cls="kb-table", data_kb_table=name)


def _or(text_key: str, block: Html, rows: list[list[Html]]) -> Html:
    """``block`` when there are rows, else the message ``text_key`` as a paragraph."""
    return block if rows else p(esc(t(text_key)))


def _short_date(kb: KnowledgeBase, key: str) -> str:
    return kb.briefs[key].date.strftime("%m-%d")


def claim_history(kb: KnowledgeBase, linker: Linker, state: ClaimState) -> Html:
    """Raised by, then every update (date, action, note, brief), for a table cell: a ``<details>``
    when there are updates."""
    raised = t_html(
        "backlog.raised",
        date=state.date.isoformat(),
        brief=brief_link(kb, linker, state.brief, t("backlog.brief_of", date=_short_date(kb, state.brief))),
    )
    if not state.events:
        return raised
    steps = [raised]
    for e in state.events:
        pri = t_html("backlog.new_priority", priority=esc(e.update.priority)) if e.update.priority else ""
        steps.append(
            t_html(
                "backlog.update",
                date=e.date.isoformat(),
                action=esc(CLAIM_ACTION_LABELS[e.update.action]),
                priority=pri,
                note=text(kb, linker, e.update.note),
                brief=brief_link(kb, linker, e.brief, t("backlog.brief_of", date=_short_date(kb, e.brief))),
            )
        )
    return details(esc(t("backlog.updates", n=len(state.events))), BR.join(steps))


def page(kb: KnowledgeBase) -> Html:
    """The backlog page (HTML; the statistics add the age charts under it)."""
    linker = Linker(PAGE)
    out = [heading(1, esc(t("backlog.title")), TITLE_ANCHOR), p(esc(t("backlog.intro")))]
    if len(kb.topics) > 1:  # a reader of one topic goes straight to its items
        jumps = [
            linker.link(t("backlog.jump", topic=topic.title, n=len(pending_items(kb, tid))), PAGE, f"pending-{tid}")
            for tid, topic in kb.topics.items()
        ]
        out.append(p(t_html("backlog.jumps", topics=" · ".join(jumps)), "kb-topic-jump"))
    for topic in kb.topics:
        out.extend(_pending_section(kb, linker, topic))
    out.extend(_cards_to_write(kb, linker))
    out.extend(_claims_section(kb, linker))
    out.extend(_duplicates_section(kb, linker))
    return blocks(*out) + "\n"


def _pending_section(kb: KnowledgeBase, linker: Linker, topic: str) -> list[Html]:
    """Items of ``topic`` still NET-new or pending: first seen, age, value, credibility, sections."""
    items = pending_items(kb, topic)
    day = as_of(kb, topic)
    title = t_html("backlog.pending", topic=esc(kb.topics[topic].title))
    out = [heading(2, title, f"pending-{topic}")]
    if day:
        out.append(p(esc(t("backlog.pending_intro", date=day.isoformat(), n=len(items)))))
    rows = []
    for it in items:
        paper = kb.papers[it.paper]
        ident = arxiv_out(paper.arxiv_base) if paper.arxiv_base else "—"
        cred = ranked(esc(paper.credibility.label), paper.credibility.rank) if paper.credibility else "—"
        secs = " + ".join(section_link(kb, linker, topic, s) for s in dict.fromkeys(it.sections)) or "—"
        first = (
            brief_link(kb, linker, it.first_brief, it.first_seen.isoformat())
            + f" · {esc(SIGHTING_LABELS.get(it.first_kind, it.first_kind))}"
        )
        carried = _handled(kb, linker, it.paper, it.briefs)
        rows.append(
            [paper_link(kb, linker, it.paper), ident, esc(STATUS_LABELS[it.status]), first]
            + [str(it.age_days), esc(stars(it.value)), cred, secs, carried]
        )
    keys = ("paper", "arxiv", "status", "first_seen", "days", "value", "credibility", "sections", "briefs")
    out.append(_or("backlog.no_pending", _table(keys, rows, f"pending-{topic}"), rows))
    return out


def _handled(kb: KnowledgeBase, linker: Linker, pid: str, keys: tuple[str, ...]) -> Html:
    """The briefs that raised or carried an item, compact: the first and the last, linked by their
    dates, and how many (a row no longer grows by a date each day the item is carried); the paper's
    page lists every brief that names it."""
    first = brief_link(kb, linker, keys[0], _short_date(kb, keys[0]))
    if len(keys) == 1:
        return first
    last = brief_link(kb, linker, keys[-1], _short_date(kb, keys[-1]))
    every = linker.link(t("backlog.briefs_all"), paper_page(pid), "backlinks")
    return t_html("backlog.briefs_span", first=first, last=last, n=str(len(keys)), all=every)


def _cards_to_write(kb: KnowledgeBase, linker: Linker) -> list[Html]:
    """arXiv ids mentioned without a paper file, with where they are mentioned."""
    out = [heading(2, esc(t("backlog.cards_to_write")), "cards-to-write")]
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
        when = earliest.isoformat() if earliest else "—"
        rows.append([text(kb, linker, "arXiv:" + ident), when, str(len(mentions)), "；".join(places)])
    keys = ("arxiv", "first_mentioned", "mentions", "places")
    out.append(_or("backlog.none", _table(keys, rows, "cards-to-write"), rows))
    return out


def _claims_section(kb: KnowledgeBase, linker: Linker) -> list[Html]:
    """Open claims by priority, each with its history."""
    out = [heading(2, esc(t("backlog.claims")), "claims")]
    claims = open_claims(kb)
    several = len(kb.topics) > 1
    out.append(p(esc(t("backlog.claims_intro", n=len(claims)))))
    rows = []
    for oc in claims:
        pri = esc(oc.priority) if oc.priority else "—"
        papers = "、".join(paper_link(kb, linker, pid) for pid in oc.claim.papers if pid in kb.papers) or "—"
        claim = linker.link(oc.claim.title, brief_page(oc.brief), f"claim-{oc.index}")
        # the title as written; the editors' word on it beside it, as on the brief's page
        claim += "".join(editor_note(n, text(kb, linker, n.text)) for n in oc.claim.editor_notes)
        row = [claim, pri, oc.date.isoformat(), papers, claim_history(kb, linker, oc)]
        rows.append(row + [esc(kb.topic_title(kb.briefs[oc.brief].topic))] if several else row)
    keys: tuple[str, ...] = ("claim", "priority", "raised", "papers", "history")  # the claim first: heads a card
    keys += ("topic",) if several else ()  # which topic's briefs raised it: the filter box finds a topic's
    out.append(_or("backlog.no_claims", _table(keys, rows, "claims"), rows))
    return out


def _duplicates_section(kb: KnowledgeBase, linker: Linker) -> list[Html]:
    """Paper cards that repeat an arXiv id: a row per id (or paper), with every place that records
    the repeat (the paper file, a brief's card list)."""
    out = [heading(2, esc(t("backlog.duplicates")), "duplicate-cards")]
    found: dict[tuple[str | None, str | None], tuple[dict[str, None], list[Html]]] = {}
    for d in duplicate_cards(kb):
        where = (
            esc(t("backlog.paper_file"))
            if d.where == "paper"
            else brief_link(kb, linker, d.where, t("backlog.card_list", date=kb.briefs[d.where].date.isoformat()))
        )
        cards, places = found.setdefault((d.arxiv, d.paper), ({}, []))
        cards.update(dict.fromkeys(str(c) for c in d.cards))
        places.append(where)
    rows = []
    for (arxiv, paper), (cards, places) in found.items():
        who = paper_link(kb, linker, paper) if paper else "—"
        ident = (arxiv_out(arxiv) if paper else text(kb, linker, "arXiv:" + arxiv)) if arxiv else "—"
        rows.append([ident, who, "、".join(esc(c) for c in cards), "、".join(places)])
    keys = ("arxiv", "paper", "cards", "found_in")
    out.append(_or("backlog.no_duplicates", _table(keys, rows, "duplicate-cards"), rows))
    return out
