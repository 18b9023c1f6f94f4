"""The lists at the end of a brief's page: the citable ids, the carried-over list and the
summary table (:mod:`kb.render.brief_items` has the increments, adjacent items and claims).

Everything here is the author's (or the paper files', for paper facts entered
once there); computed lists appear only as checks beside the author's.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from kb.data.models import (
    STATUS_LABELS,
    Status,
    SummaryRow,
)
from kb.messages import t
from kb.render import checks
from kb.render.brief_items import anchor_text, stars, status_word
from kb.render.html import Html, blocks, esc, heading, link, ol, p, table, ul
from kb.render.links import brief_link, paper_link

if TYPE_CHECKING:
    from kb.render.briefctx import Ctx


# --------------------------------------------------------------------------- 五、可引用的 arXiv 号、沿用件


def citable_and_carried(c: Ctx) -> Html:
    b, f, kb = c.brief, c.figures, c.kb
    out = []
    if b.citable or f.net_new_papers:
        n = b.stated.arxiv_net_new if b.stated.arxiv_net_new is not None else len(b.citable or f.net_new_papers)
        out.append(heading(2, esc(c.part("brief.citable", written=bool(b.citable), n=n)), "arxiv-ids"))
        chosen = [(x.paper, x.note) for x in b.citable] or [(pid, None) for pid in f.net_new_papers]
        lines = []
        for pid, note in chosen:
            paper = kb.papers.get(pid)
            if paper is None:
                continue
            ident = paper_link(kb, c.linker, pid, "arXiv:" + paper.arxiv_base) if paper.arxiv_base else esc(paper.short)
            lines.append(f"{ident} — {esc(paper.display_title)}" + (f"（{c.text(note)}）" if note else ""))
        out.append(ol(lines))
        if not b.citable:
            out.append(p(checks.mark("kb-computed", t("computed.citable"), t("check.computed_title"))))
    if b.candidates:
        out.append(
            heading(3, esc(t("brief.candidates")) + esc(t("brief.candidates_count", n=len(b.candidates))), "candidates")
        )
        out.append(
            ul(_entry(c, x.paper, x.note, x.status, x.anchored_in, x.anchored_since or b.date) for x in b.candidates)
        )
    out.append(_carried(c))
    return blocks(*out)


def _entry(
    c: Ctx,
    pid: str,
    note: str | None,
    status: Status | None,
    anchored_in: list[str] | None = None,
    since: dt.date | None = None,
    label: str | None = None,
    venue: bool = False,
) -> Html:
    """A paper in one of the lists: as the author named it (``label``), else by its name and arXiv id
    (and its venue: ``venue``, in the lists the knowledge base makes), then the author's note."""
    kb = c.kb
    paper = kb.papers.get(pid)
    if paper is None:
        return esc(label or pid)
    if label:
        named = paper_link(kb, c.linker, pid, label)
    else:
        ident = f" {paper_link(kb, c.linker, pid, 'arXiv:' + paper.arxiv_base)}" if paper.arxiv_base else ""
        shown = f" {esc(paper.venue.name)}" if venue and paper.venue else ""
        named = f"{paper_link(kb, c.linker, pid)}{ident}{shown}"
    word = f" · {status_word(status)}" if status else ""
    if status is Status.anchored:
        word += " · " + anchor_text(c, anchored_in or (), since)
    return named + (f"（{c.text(note)}）" if note else "") + word


def _carried(c: Ctx) -> Html:
    b, f = c.brief, c.figures
    anchored = len(f.carried_anchored)
    head = heading(3, esc(t("brief.carried")), "carried")
    figures = esc(t("fig.carried", n=len(f.carried), anchored=anchored))
    if b.carried:
        entries = ul(_entry(c, x.paper, x.note, None, label=x.label) for x in b.carried)
        if {x.paper for x in b.carried} == {x.paper for x in f.carried}:
            check = f"{esc(t('brief.checks'))}：{esc(t('check.same'))}（{figures}）"
        else:
            codes = c.codes("carried/")  # the line says the computed figure: the link only says where the finding is
            mark = checks.finding_link(codes[0] if codes else None, c.numbers)
            check = f"{esc(t('brief.checks'))}：{esc(t('computed.carried'))} {figures}{mark}"
        return blocks(head, entries, p(check, "kb-check-line"))
    if not f.carried:  # of a reconstructed brief, unknown (as the briefs index says): not none
        return blocks(head, p(esc(t("check.unknown", unit="") if f.partial else t("label.none"))))
    rows = []
    for x in f.carried:
        state = anchor_text(c, x.anchor.sections, x.anchor.since) if x.anchor else esc(STATUS_LABELS[x.status])
        origin = brief_link(c.kb, c.linker, x.origin, _origin(c, x.origin))
        rows.append(_entry(c, x.paper, None, None, venue=True) + f"（{origin} · {state}）")
    computed = checks.mark(
        "kb-computed",
        f"{t('computed.carried')}：{t('fig.carried', n=len(f.carried), anchored=anchored)}",
        t("computed.carried_note"),
    )
    return blocks(head, ul(rows), p(computed))


def _origin(c: Ctx, key: str) -> str:
    d = c.kb.briefs[key].date
    return f"{d.month}-{d.day}"


# --------------------------------------------------------------------------- 六、小结表


def summary_rows(c: Ctx) -> Html:
    """The summary table as the author wrote it: a row per item that has one."""
    b = c.brief
    head = [esc(t(k)) for k in ("th.num", "th.item", "th.category", "th.value", "th.status")]
    rows = [_row(c, str(i), f"inc-{i}", inc.summary, inc.value) for i, inc in enumerate(b.increments, 1) if inc.summary]
    rows += [
        _row(c, chr(65 + i), f"adj-{chr(97 + i)}", x.summary, x.value) for i, x in enumerate(b.adjacent) if x.summary
    ]
    return table(head, rows) if rows else ""


def has_rows(c: Ctx) -> bool:
    """Did the author write a summary table?"""
    return any(x.summary for x in c.brief.increments) or any(x.summary for x in c.brief.adjacent)


def _row(c: Ctx, key: str, anchor: str, row: SummaryRow, value: int | None) -> list[Html]:
    return [
        link(key, f"#{anchor}"),
        c.text(row.label),
        esc(row.category or "—"),
        esc(stars(value)),
        esc(row.status or "—"),
    ]
