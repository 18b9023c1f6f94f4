"""The items of a brief's page: main increments, adjacent prep items, claims to
verify (the citable ids, carried-over list and summary table: :mod:`kb.render.brief_lists`).

Everything here is the author's (or the paper files', for paper facts entered
once there); computed lists appear only as checks beside the author's.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kb.data.models import (
    ADJACENT_LABELS,
    CLAIM_ACTION_LABELS,
    LIGHTS,
    STATUS_LABELS,
    EditorNote,
    Increment,
    Paper,
    Relation,
    Status,
)
from kb.knowledge.index import paper_page
from kb.messages import brief_words, t
from kb.render import checks
from kb.render.html import Html, a, blocks, esc, heading, link, ol, p, span, strong, t_html, table, ul
from kb.render.links import brief_link, named, paper_link, section_label, section_link

if TYPE_CHECKING:
    from kb.render.briefctx import Ctx


def status_word(status: Status) -> Html:
    return span(esc(STATUS_LABELS[status]), f"kb-status kb-status-{status.value}")


def item(label: str, value: Html, bold: bool = True) -> Html:
    """``**label**：value``, the way the brief's lists name each line."""
    return f"{strong(esc(label)) if bold else esc(label)}：{value}"


def stars(value: int | None) -> str:
    return "⭐" * value if value else "—"


def editor_notes(c: Ctx, notes: list[EditorNote], prefix: str = "") -> Html:
    """编者注: never the author's words, set apart in their own style (``prefix``: what the note is on, "A")."""
    return blocks(*(editor_note(n, c.text(n.text), prefix) for n in notes))


def editor_note(note: EditorNote, text: Html, prefix: str = "") -> Html:
    """One 编者注 with its ``text`` (the note's, as HTML: ids linked), wherever it is shown."""
    by = f"（{esc(note.by)}）" if note.by else ""
    lead = f"{esc(prefix)}：" if prefix else ""
    return p(f"{lead}{strong(esc(t('label.editor_note')))}{by}：{text}", "kb-editor-note")


def net_new_list(c: Ctx) -> Html:
    """The ids of the 状态 line: the author's citable list when there is one, else the computed
    net-new ids, marked as computed."""
    kb = c.kb
    listed = [x.paper for x in c.brief.citable if x.paper in kb.papers and kb.papers[x.paper].arxiv_base]
    chosen = listed or c.figures.net_new_papers
    ids = " + ".join(
        f"{paper_link(kb, c.linker, pid, f'arXiv:{kb.papers[pid].arxiv_base}')} {esc(kb.papers[pid].short)}"
        for pid in chosen
    )
    if ids and not listed:
        ids += checks.mark("kb-computed", t("check.computed_mark"), t("computed.net_new_ids"))
    return ids


# --------------------------------------------------------------------------- 二、主增量


def increments(c: Ctx) -> Html:
    b = c.brief
    if not b.increments:
        return ""
    n, told = _count(c, b.stated.increments, "increments", len(b.increments))
    head = heading(2, esc(c.part("brief.increments", n=n)) + told, "increments")
    return blocks(head, *(_increment(c, i, inc) for i, inc in enumerate(b.increments, 1)))


def _increment(c: Ctx, i: int, inc: Increment) -> Html:
    kb, b = c.kb, c.brief
    where = esc(inc.where) if inc.where else " + ".join(esc(section_label(kb, b.topic, s)) for s in inc.sections)
    light = f" {esc(LIGHTS[inc.light])}" if inc.light else ""
    date = esc(b.date.isoformat())
    title = t_html("brief.increment_heading", n=str(i), where=where, date=date, light=light, title=c.text(inc.title))
    out = [heading(3, title, f"inc-{i}", t("brief.increment_toc", n=str(i), label=inc.label))]
    lines = []
    for s in inc.sources:
        sec = f" {esc(s.section)}" if s.section else ""
        note = f"（{esc(s.note)}）" if s.note else ""
        lines.append(item(t("label.source"), f"{esc(s.path)}{note}{sec}"))
    for ln in inc.links:
        note = f"（{c.text(ln.note)}）" if ln.note else ""
        lines.append(item(ln.label, link(ln.url, ln.url) + note))
    lines.extend(_paper_facts(c, inc))
    out.append(ul(lines))
    for g in inc.points:
        out.append(p(item(g.title or t("label.points"), "")))
        out.append(ul(c.text(x) for x in g.items))
    if inc.defects:
        src = f"（{esc(inc.defects_source)}）" if inc.defects_source else ""
        out.append(p(f"{strong(esc(t('label.defects')))}{src}："))
        out.append(ol(c.text(d) for d in inc.defects))
    if inc.relations:
        out.append(p(item(t("label.relations"), "")))
        out.append(ul(_relation(c, r) for r in inc.relations))
    out.append(_increment_tail(c, i, inc))
    out.append(editor_notes(c, inc.editor_notes))
    return blocks(*out)


def _relation(c: Ctx, r: Relation) -> Html:
    where = ""
    if r.section:
        where = section_link(c.kb, c.linker, c.brief.topic, r.section, r.label) + "："
    elif r.label:
        where = esc(r.label) + "："
    said, unnamed = named(c.kb, c.linker, r.text, r.papers)  # the papers listed, linked where the text names them
    rest = "、".join(paper_link(c.kb, c.linker, pid) for pid in unnamed)
    return f"{where}{said}" + (f"（{item(t('label.related'), rest, False)}）" if rest else "")


def _increment_tail(c: Ctx, i: int, inc: Increment) -> Html:
    kb, b = c.kb, c.brief
    tail = []
    if inc.suggested:
        tail.append(
            item(
                t("label.suggested"),
                " + ".join(
                    section_link(kb, c.linker, b.topic, s.section, s.label)
                    + (f"（{c.text(s.note)}）" if s.note else "")
                    for s in inc.suggested
                ),
            )
        )
    note = f"（{c.text(inc.status_note)}）" if inc.status_note else ""
    computed = c.figures.statuses[i - 1] if i - 1 < len(c.figures.statuses) else None
    check = ""
    promoted = i in c.figures.first_as_main
    if promoted and inc.status is Status.net_new:  # the team's NET-new: first time as a main increment
        check = checks.mark("kb-computed", t("status.first_as_main"), t("check.computed_title"))
    elif computed is not None and computed is not inc.status:
        code = next((x for x in c.codes("status/") if x.split("/", 1)[1] in inc.papers), None)
        check = checks.check_mark(STATUS_LABELS[computed], code, c.numbers)
    suggested = {s.section for s in inc.suggested}
    if inc.where and not set(inc.sections) <= suggested:  # the heading shows the author's words instead
        links = " + ".join(section_link(kb, c.linker, b.topic, s) for s in inc.sections)
        tail.append(item(t("label.sections"), links))
    anchored = ""
    if inc.status is Status.anchored:
        anchored = " · " + anchor_text(c, inc.anchored_in or (), inc.anchored_since or b.date)
    tail.append(item(t("label.status"), f"{status_word(inc.status)}{check}{anchored}{note}"))
    tail.append(item(t("label.value"), esc(stars(inc.value))))
    return ul(tail)


def anchor_text(c: Ctx, sections: Sequence[str], since: dt.date | None) -> Html:
    """已锚入（§… + §… · date）: each section linked when the living document has it."""
    where = " + ".join(
        section_link(c.kb, c.linker, c.brief.topic, s) if c.kb.section(c.brief.topic, s) else esc(s) for s in sections
    ) or esc(t("status.unsectioned"))
    if since is not None:
        return t_html("status.anchored_at", section=where, date=since.isoformat())
    return t_html("status.anchored_undated", section=where, date=c.brief.date.isoformat())


def _paper_facts(c: Ctx, inc: Increment) -> list[Html]:
    """会议 / 作者 / 可信度 of the increment's papers, from the paper files (entered once there)."""
    kb = c.kb
    papers = [kb.papers[pid] for pid in inc.papers if pid in kb.papers]
    multi = len(papers) > 1
    lines = []
    for paper in papers:  # each paper's 会议 and 作者 follow its 论文 line: they name no paper again
        ident = f"（{c.text('arXiv:' + paper.arxiv)}）" if paper.arxiv else ""
        if noted := kb.findings("paper", paper.id):  # what the paper's page checks (its dates), one link away
            href = c.linker.href(paper_page(paper.id), checks.CHECKS_ANCHOR)
            ident += " " + a(esc(t("check.paper", n=len(noted))), href, "kb-check")
        lines.append(item(t("label.paper"), f"{paper_link(kb, c.linker, paper.id, paper.display_title)}{ident}"))
        if paper.venue:
            detail = f"（{esc(paper.venue.detail)}）" if paper.venue.detail else ""
            note = f" · {esc(paper.venue.note)}" if paper.venue.note else ""
            lines.append(item(t("label.venue"), f"{esc(paper.venue.name)}{detail}{note}"))
        authors = "、".join(esc(x) for x in paper.authors)
        affs = " + ".join(esc(x) for x in paper.affiliations)
        if authors or affs:
            note = f"（{c.text(paper.authors_note)}）" if paper.authors_note else ""
            lines.append(item(t("label.authors"), f"{authors}{' · ' if authors and affs else ''}{affs}{note}"))
    credibility = _credibility(c, papers, multi)
    if credibility:
        lines.append(item(t("label.credibility"), credibility))
    if inc.venue and not any(x.venue for x in papers):  # as the brief writes them, where no paper file has them
        lines.append(item(t("label.venue"), c.text(inc.venue)))
    if inc.authors and not any(x.authors or x.affiliations for x in papers):
        lines.append(item(t("label.authors"), c.text(inc.authors)))
    if inc.credibility_note:
        lines.append(item(t("label.credibility_note"), c.text(inc.credibility_note)))
    lines += [item(d.label, c.text(d.text)) for d in inc.details]
    return lines


def _credibility(c: Ctx, papers: list[Paper], multi: bool) -> Html:
    """The credibility of an increment's papers: one level with its reasons, or each paper's."""
    creds = [(x, x.credibility) for x in papers if x.credibility]
    if not creds:
        return ""
    if len({cred.level for _, cred in creds}) == 1 and len(creds) == len(papers):
        cred = creds[0][1]
        light = f"{esc(LIGHTS[cred.light])} " if cred.light else ""  # type: ignore[index]  # a Light is its text
        reasons = "；".join((f"{esc(x.short)} = " if multi else "") + c.text(cr.reason) for x, cr in creds if cr.reason)
        return f"{light}{esc(cred.label)}" + (f"（{reasons}）" if reasons else "")
    return "；".join(
        f"{esc(x.short)} {esc(cr.label)}" + (f"（{c.text(cr.reason)}）" if cr.reason else "") for x, cr in creds
    )


# --------------------------------------------------------------------------- 三、邻接预备


def adjacent(c: Ctx) -> Html:
    b = c.brief
    if not b.adjacent:
        return ""
    n, told = _count(c, b.stated.adjacent, "adjacent", len(b.adjacent))
    head = [esc(t(k)) for k in ("th.num", "th.item", "th.arxiv", "th.origin", "th.value", "th.status", "th.section")]
    rows = []
    for i, x in enumerate(b.adjacent):
        letter = chr(ord("A") + i)
        ids = " + ".join(
            paper_link(c.kb, c.linker, pid, f"arXiv:{c.kb.papers[pid].arxiv_base}")
            for pid in x.papers
            if pid in c.kb.papers and c.kb.papers[pid].arxiv_base
        )
        arxiv = ids or (esc(t("label.none")) + (f"（{esc(x.source_note)}）" if x.source_note else ""))
        status = (f"{esc(x.priority)} " if x.priority else "") + esc(ADJACENT_LABELS[x.status])
        rel = f"（{c.text(x.relation)}）" if x.relation else ""
        warn = f" {esc(x.warning)}" if x.warning else ""
        # the sections are the knowledge base's filing, not the author's status: a column of their own
        sections = " + ".join(section_link(c.kb, c.linker, b.topic, s) for s in x.sections) or "—"
        rows.append(
            [
                span("", id=f"adj-{letter.lower()}") + letter,
                item(x.title, c.text(x.text)),
                arxiv,
                esc(x.origin),
                esc(stars(x.value)),
                f"{status}{warn}{rel}",
                sections,
            ]
        )
    notes = [editor_notes(c, x.editor_notes, chr(65 + i)) for i, x in enumerate(b.adjacent)]
    return blocks(heading(2, esc(c.part("brief.adjacent", n=n)) + told, "adjacent"), table(head, rows), *notes)


def _count(c: Ctx, stated: int | None, name: str, listed: int) -> tuple[int, Html]:
    """How many items a part's heading says: the brief's own figure, else the one the next brief
    gives of it (marked, with how many are listed here), else how many are listed."""
    if stated is not None:
        return stated, ""
    said = c.figures.told.get(name)
    if said is None or said == listed or c.figures.next is None:
        return listed, ""
    note = t("check.told", brief=brief_words(c.figures.next), known=t("check.told_known", n=listed))
    return said, " " + checks.mark("kb-told", f"（{note}）", t("check.told_title"))


# --------------------------------------------------------------------------- 四、待核实


def claims(c: Ctx) -> Html:
    b, kb = c.brief, c.kb
    if not (b.claims or b.claim_updates):
        return ""
    out = [heading(2, esc(c.part("brief.claims")), "claims")] if b.claims else []
    for i, cl in enumerate(b.claims, 1):
        state = kb.claims.get(b.topic, cl.id)
        prio = f" · {esc(cl.priority)}" if cl.priority else ""
        out.append(heading(3, f"{i}. {c.text(cl.title)}{prio}", f"claim-{i}"))
        lines = [c.text(x) for x in cl.points]
        if cl.papers:
            related = "、".join(paper_link(kb, c.linker, x) for x in cl.papers if x in kb.papers)
            lines.append(item(t("label.related"), related, False))
        here = kb.history.order[c.key]
        priority = cl.priority
        for ev in state.events if state else []:
            # a later brief's word: a dated note beside what this page said, never a rewrite of it
            later = kb.history.order[ev.brief] > here
            action = CLAIM_ACTION_LABELS[ev.update.action]
            when = t("claim.update", date=ev.date.isoformat(), action=action, note="").rstrip("：")
            if ev.update.priority and ev.update.priority != priority:
                when += t("claim.priority_change", old=priority or "—", new=ev.update.priority)
                priority = ev.update.priority
            by = brief_link(kb, c.linker, ev.brief)
            line = f"{span(esc(when), 'kb-claim-event')}：{c.text(ev.update.note)}（{by}）"
            lines.append(span(esc(t("claim.later")), "kb-later-word") + line if later else line)
            if later:
                lines[-1] = span(lines[-1], "kb-later")
        out.append(ul(lines))
        out.append(editor_notes(c, cl.editor_notes))
    if b.claim_updates:
        out.append(heading(3, esc(t("brief.claim_updates")), "claim-updates"))
        rows = []
        for u in b.claim_updates:
            st = kb.claims.get(b.topic, u.claim)
            what = st.claim.title if st else u.claim
            where = brief_link(kb, c.linker, st.brief, what, f"claim-{st.index}") if st else esc(what)
            prio = f"（→ {esc(u.priority)}）" if u.priority else ""
            rows.append(f"{strong(esc(CLAIM_ACTION_LABELS[u.action]))}{prio}：{where} —— {c.text(u.note)}")
        out.append(ul(rows))
    return blocks(*out)
