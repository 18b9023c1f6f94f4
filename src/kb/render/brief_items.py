"""The items of a brief's page: main increments, adjacent prep items, claims to
verify (the citable ids, carried-over list and summary table: :mod:`kb.render.brief_lists`).

Everything here is the author's (or the paper files', for paper facts entered
once there); computed lists appear only as checks beside the author's.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from kb.data.models import (
    ADJACENT_LABELS,
    CLAIM_ACTION_LABELS,
    LIGHTS,
    STATUS_LABELS,
    EditorNote,
    Increment,
    Relation,
    Status,
)
from kb.render import checks
from kb.render.escape import md, md_link
from kb.render.links import brief_link, paper_link, section_label, section_link
from kb.render.messages import t

if TYPE_CHECKING:
    from kb.render.brief import Ctx


def status_word(status: Status) -> str:
    return f'<span class="kb-status kb-status-{status.value}">{STATUS_LABELS[status]}</span>'


def _stars(value: int | None) -> str:
    return "⭐" * value if value else "—"


def _h(level: int, title: str, anchor: str) -> str:
    return f"{'#' * level} {title} {{ #{anchor} }}"


def editor_notes(c: Ctx, notes: list[EditorNote], indent: str = "") -> str:
    """编者注: never the author's words, set apart in their own style."""
    out = []
    for n in notes:
        by = f"（{md(n.by)}）" if n.by else ""
        out.append(
            f'{indent}<p class="kb-editor-note" markdown>**{md(t("label.editor_note"))}**{by}：{c.text(n.text)}</p>'
        )
    return "\n\n".join(out)


def net_new_list(c: Ctx) -> str:
    """The ids of the 状态 line: the author's citable list when there is one, else the computed
    net-new ids, marked as computed."""
    kb = c.kb
    listed = [x.paper for x in c.brief.citable if x.paper in kb.papers and kb.papers[x.paper].arxiv_base]
    chosen = listed or c.figures.net_new_papers
    ids = " + ".join(
        f"{paper_link(kb, c.linker, p, f'arXiv:{kb.papers[p].arxiv_base}')} {md(kb.papers[p].short)}" for p in chosen
    )
    if ids and not listed:
        ids += checks.mark("kb-computed", "（计算）", t("computed.net_new_ids"))
    return ids


# --------------------------------------------------------------------------- 二、主增量


def increments(c: Ctx) -> str:
    b = c.brief
    if not b.increments:
        return ""
    n = b.stated.increments if b.stated.increments is not None else len(b.increments)
    out = [_h(2, md(t("brief.increments", n=n)), "increments")]
    for i, inc in enumerate(b.increments, 1):
        out.append(_increment(c, i, inc))
    return "\n\n".join(out)


def _increment(c: Ctx, i: int, inc: Increment) -> str:
    kb, b = c.kb, c.brief
    where = md(inc.where) if inc.where else " + ".join(md(section_label(kb, b.topic, s)) for s in inc.sections)
    light = f" {LIGHTS[inc.light]}" if inc.light else ""
    out = [_h(3, f"增量 {i}【{where} · {b.date.isoformat()}】{light} {c.text(inc.title)}", f"inc-{i}")]
    lines = []
    for s in inc.sources:
        sec = f" {md(s.section)}" if s.section else ""
        note = f"（{md(s.note)}）" if s.note else ""
        lines.append(f"- **{md(t('label.source'))}**：{md(s.path)}{note}{sec}")
    for ln in inc.links:
        note = f"（{c.text(ln.note)}）" if ln.note else ""
        lines.append(f"- **{md(ln.label)}**：{md_link(ln.url, ln.url)}{note}")
    lines.extend(_paper_facts(c, inc))
    out.append("\n".join(lines))
    for g in inc.points:
        out.append(
            f"**{md(g.title) if g.title else md(t('label.points'))}**：\n\n"
            + "\n".join(f"- {c.text(x)}" for x in g.items)
        )
    if inc.defects:
        src = f"（{md(inc.defects_source)}）" if inc.defects_source else ""
        out.append(
            f"**{md(t('label.defects'))}**{src}：\n\n"
            + "\n".join(f"{j}. {c.text(d)}" for j, d in enumerate(inc.defects, 1))
        )
    if inc.relations:
        out.append(f"**{md(t('label.relations'))}**：\n\n" + "\n".join(_relation(c, r) for r in inc.relations))
    out.append(_increment_tail(c, i, inc))
    notes = editor_notes(c, inc.editor_notes)
    if notes:
        out.append(notes)
    return "\n\n".join(out)


def _relation(c: Ctx, r: Relation) -> str:
    where = ""
    if r.section:
        where = section_link(c.kb, c.linker, c.brief.topic, r.section, r.label) + "："
    elif r.label:
        where = md(r.label) + "："
    return f"- {where}{c.text(r.text)}"


def _increment_tail(c: Ctx, i: int, inc: Increment) -> str:
    kb, b = c.kb, c.brief
    tail = []
    if inc.suggested:
        tail.append(
            f"- **{md(t('label.suggested'))}**："
            + " + ".join(
                section_link(kb, c.linker, b.topic, s.section, s.label) + (f"（{c.text(s.note)}）" if s.note else "")
                for s in inc.suggested
            )
        )
    note = f"（{c.text(inc.status_note)}）" if inc.status_note else ""
    computed = c.figures.statuses[i - 1] if i - 1 < len(c.figures.statuses) else None
    check = ""
    if computed is not None and computed is not inc.status:
        code = next((x for x in c.codes("status/") if x.split("/", 1)[1] in inc.papers), None)
        check = checks.check_mark(STATUS_LABELS[computed], code, c.numbers)
    anchored = ""
    if inc.status is Status.anchored:
        anchored = " · " + _anchor_text(c, inc.anchored_in, inc.anchored_since)
    tail.append(f"- **{md(t('label.status'))}**：{status_word(inc.status)}{check}{anchored}{note}")
    tail.append(f"- **{md(t('label.value'))}**：{_stars(inc.value)}")
    return "\n".join(tail)


def _anchor_text(c: Ctx, section: str | None, since: dt.date | None) -> str:
    where = (
        section_link(c.kb, c.linker, c.brief.topic, section)
        if section and c.kb.section(c.brief.topic, section)
        else md(section or t("status.unsectioned"))
    )
    if since is not None:
        return t("status.anchored_at", section=where, date=since.isoformat())
    return t("status.anchored_undated", section=where, date=c.brief.date.isoformat())


def _paper_facts(c: Ctx, inc: Increment) -> list[str]:
    """会议 / 作者 / 可信度 of the increment's papers, from the paper files (entered once there)."""
    kb = c.kb
    papers = [kb.papers[p] for p in inc.papers if p in kb.papers]
    multi = len(papers) > 1
    lines = []
    for p in papers:
        who = f"{paper_link(kb, c.linker, p.id)}：" if multi else ""
        ident = f"（{c.text('arXiv:' + p.arxiv)}）" if p.arxiv else ""
        lines.append(f"- **{md(t('label.paper'))}**：{paper_link(kb, c.linker, p.id, p.display_title)}{ident}")
        if p.venue:
            detail = f"（{md(p.venue.detail)}）" if p.venue.detail else ""
            note = f" · {md(p.venue.note)}" if p.venue.note else ""
            lines.append(f"- **{md(t('label.venue'))}**：{who}{md(p.venue.name)}{detail}{note}")
        authors = "、".join(md(a) for a in p.authors)
        affs = " + ".join(md(a) for a in p.affiliations)
        if authors or affs:
            note = f"（{c.text(p.authors_note)}）" if p.authors_note else ""
            lines.append(
                f"- **{md(t('label.authors'))}**：{who}{authors}{' · ' if authors and affs else ''}{affs}{note}"
            )
    creds = [p for p in papers if p.credibility]
    if creds:
        levels = {p.credibility.level for p in creds if p.credibility}
        if len(levels) == 1 and len(creds) == len(papers):
            cred = creds[0].credibility
            light = f"{LIGHTS[cred.light]} " if cred and cred.light else ""  # type: ignore[index]  # a Light is its text
            reasons = "；".join(
                (f"{md(p.short)} = " if multi else "") + c.text(p.credibility.reason)
                for p in creds
                if p.credibility and p.credibility.reason
            )
            head = f"{light}{cred.label}" if cred else ""
            lines.append(f"- **{md(t('label.credibility'))}**：{head}" + (f"（{reasons}）" if reasons else ""))
        else:
            lines.append(
                f"- **{md(t('label.credibility'))}**："
                + "；".join(
                    f"{md(p.short)} {p.credibility.label}"
                    + (f"（{c.text(p.credibility.reason)}）" if p.credibility.reason else "")
                    for p in creds
                    if p.credibility
                )
            )
    if inc.credibility_note:
        lines.append(f"- **{md(t('label.credibility_note'))}**：{c.text(inc.credibility_note)}")
    return lines


# --------------------------------------------------------------------------- 三、邻接预备


def adjacent(c: Ctx) -> str:
    b = c.brief
    if not b.adjacent:
        return ""
    n = b.stated.adjacent if b.stated.adjacent is not None else len(b.adjacent)
    title = md(t("brief.adjacent", n=n))
    rows = [
        f"| {t('th.num')} | {t('th.item')} | {t('th.arxiv')} | {t('th.origin')} | {t('th.status')} |",
        "|---|---|---|---|---|",
    ]
    for i, a in enumerate(b.adjacent):
        letter = chr(ord("A") + i)
        ids = " + ".join(
            paper_link(c.kb, c.linker, p, f"arXiv:{c.kb.papers[p].arxiv_base}")
            for p in a.papers
            if p in c.kb.papers and c.kb.papers[p].arxiv_base
        )
        arxiv = ids or (md(t("label.none")) + (f"（{md(a.source_note)}）" if a.source_note else ""))
        status = (f"{md(a.priority)} " if a.priority else "") + ADJACENT_LABELS[a.status]
        rel = f"（{c.text(a.relation)}）" if a.relation else ""
        warn = f" {md(a.warning)}" if a.warning else ""
        rows.append(
            f'| <span id="adj-{letter.lower()}"></span>{letter} | **{md(a.title)}**：{c.text(a.text)} | {arxiv} '
            f"| {md(a.origin)} | {status}{warn}{rel} |"
        )
    out = [_h(2, title, "adjacent"), "\n".join(rows)]
    for i, a in enumerate(b.adjacent):
        if a.editor_notes:
            out.append(f"{chr(65 + i)}：" + editor_notes(c, a.editor_notes))
    return "\n\n".join(out)


# --------------------------------------------------------------------------- 四、待核实


def claims(c: Ctx) -> str:
    b, kb = c.brief, c.kb
    if not (b.claims or b.claim_updates):
        return ""
    out = [_h(2, md(t("brief.claims")), "claims")] if b.claims else []
    for i, cl in enumerate(b.claims, 1):
        state = kb.claims.get(b.topic, cl.id)
        prio = f" · {md(cl.priority)}" if cl.priority else ""
        out.append(_h(3, f"{i}. {c.text(cl.title)}{prio}", f"claim-{i}"))
        lines = [f"- {c.text(p)}" for p in cl.points]
        if cl.papers:
            lines.append(
                f"- {md(t('label.related'))}："
                + "、".join(paper_link(kb, c.linker, p) for p in cl.papers if p in kb.papers)
            )
        for ev in state.events if state else []:
            lines.append(
                '- <span class="kb-claim-event">'
                + md(
                    t("claim.update", date=ev.date.isoformat(), action=CLAIM_ACTION_LABELS[ev.update.action], note="")
                ).rstrip("：")
                + "</span>："
                + c.text(ev.update.note)
                + "（"
                + brief_link(kb, c.linker, ev.brief)
                + "）"
            )
        out.append("\n".join(lines))
        notes = editor_notes(c, cl.editor_notes)
        if notes:
            out.append(notes)
    if b.claim_updates:
        out.append(_h(3, md(t("brief.claim_updates")), "claim-updates"))
        rows = []
        for u in b.claim_updates:
            state = kb.claims.get(b.topic, u.claim)
            what = md(state.claim.title) if state else md(u.claim)
            where = brief_link(kb, c.linker, state.brief, what, f"claim-{state.index}") if state else what
            prio = f"（→ {md(u.priority)}）" if u.priority else ""
            rows.append(f"- **{CLAIM_ACTION_LABELS[u.action]}**{prio}：{where} —— {c.text(u.note)}")
        out.append("\n".join(rows))
    return "\n\n".join(out)
