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
from kb.render import checks
from kb.render.brief_items import _anchor_text, _h, _stars, status_word
from kb.render.escape import md
from kb.render.links import brief_link, paper_link
from kb.render.messages import t

if TYPE_CHECKING:
    from kb.render.brief import Ctx


# --------------------------------------------------------------------------- 五、可引用的 arXiv 号、沿用件


def citable_and_carried(c: Ctx) -> str:
    b, f, kb = c.brief, c.figures, c.kb
    out = []
    if b.citable or f.net_new_papers:
        n = b.stated.arxiv_net_new if b.stated.arxiv_net_new is not None else len(b.citable or f.net_new_papers)
        out.append(_h(2, md(t("brief.citable", n=n)), "arxiv-ids"))
        chosen = [(x.paper, x.note) for x in b.citable] or [(p, None) for p in f.net_new_papers]
        lines = []
        for i, (pid, note) in enumerate(chosen, 1):
            p = kb.papers.get(pid)
            if p is None:
                continue
            ident = paper_link(kb, c.linker, pid, "arXiv:" + p.arxiv_base) if p.arxiv_base else md(p.short)
            lines.append(f"{i}. {ident} — {md(p.display_title)}" + (f"（{c.text(note)}）" if note else ""))
        out.append("\n".join(lines))
        if not b.citable:
            out.append(checks.mark("kb-computed", t("computed.citable"), t("check.computed_title")))
    if b.candidates:
        out.append(_h(3, f"{md(t('brief.candidates'))}（{len(b.candidates)} 件）", "candidates"))
        out.append(
            "\n".join(_entry(c, x.paper, x.note, x.status, x.anchored_in, x.anchored_since) for x in b.candidates)
        )
    out.append(_carried(c))
    return "\n\n".join(x for x in out if x)


def _entry(
    c: Ctx,
    pid: str,
    note: str | None,
    status: Status | None,
    anchored_in: str | None = None,
    since: dt.date | None = None,
) -> str:
    kb = c.kb
    p = kb.papers.get(pid)
    if p is None:
        return f"- {md(pid)}"
    ident = f" {paper_link(kb, c.linker, pid, 'arXiv:' + p.arxiv_base)}" if p.arxiv_base else ""
    venue = f" {md(p.venue.name)}" if p.venue else ""
    word = f" · {status_word(status)}" if status else ""
    if status is Status.anchored:
        word += " · " + _anchor_text(c, anchored_in, since)
    return f"- {paper_link(kb, c.linker, pid)}{ident}{venue}" + (f"（{c.text(note)}）" if note else "") + word


def _carried(c: Ctx) -> str:
    b, f = c.brief, c.figures
    anchored = len(f.carried_anchored)
    out = [_h(3, md(t("brief.carried")), "carried")]
    if b.carried:
        out.append("\n".join(_entry(c, x.paper, x.note, None) for x in b.carried))
        listed = {x.paper for x in b.carried}
        computed = {x.paper for x in f.carried}
        if listed == computed:
            out.append(
                f'<p class="kb-check-line" markdown>{md(t("brief.checks"))}：'
                f"{md(t('check.same'))}（{t('fig.carried', n=len(f.carried), anchored=anchored)}）</p>"
            )
        else:
            codes = c.codes("carried/")
            out.append(
                f'<p class="kb-check-line" markdown>{md(t("brief.checks"))}：'
                f"{md(t('computed.carried'))} {t('fig.carried', n=len(f.carried), anchored=anchored)}"
                + checks.check_mark(len(f.carried), codes[0] if codes else None, c.numbers)
                + "</p>"
            )
        return "\n\n".join(out)
    if not f.carried:
        out.append(md(t("label.none")))
        return "\n\n".join(out)
    rows = []
    for x in f.carried:
        state = _anchor_text(c, x.anchor.section, x.anchor.since) if x.anchor else STATUS_LABELS[x.status]
        rows.append(
            _entry(c, x.paper, None, None)
            + f"（{brief_link(c.kb, c.linker, x.origin, _origin(c, x.origin))} · {state}）"
        )
    out.append("\n".join(rows))
    out.append(
        checks.mark(
            "kb-computed",
            f"{t('computed.carried')}：{t('fig.carried', n=len(f.carried), anchored=anchored)}",
            t("computed.carried_note"),
        )
    )
    return "\n\n".join(out)


def _origin(c: Ctx, key: str) -> str:
    d = c.kb.briefs[key].date
    return f"{d.month}-{d.day}"


# --------------------------------------------------------------------------- 六、小结表


def summary_rows(c: Ctx) -> str:
    """The summary table as the author wrote it: a row per item that has one."""
    b = c.brief
    rows = [
        f"| {t('th.num')} | {t('th.item')} | {t('th.category')} | {t('th.value')} | {t('th.status')} |",
        "|---|---|---|---|---|",
    ]
    n = 0
    for i, inc in enumerate(b.increments, 1):
        if inc.summary:
            n += 1
            rows.append(_row(c, str(i), f"inc-{i}", inc.summary, inc.value))
    for i, a in enumerate(b.adjacent):
        if a.summary:
            n += 1
            rows.append(_row(c, chr(65 + i), f"adj-{chr(97 + i)}", a.summary, a.value))
    return "\n".join(rows) if n else ""


def _row(c: Ctx, key: str, anchor: str, row: SummaryRow, value: int | None) -> str:
    return (
        f"| [{key}](#{anchor}) | {c.text(row.label)} | {md(row.category or '—')} | {_stars(value)} "
        f"| {md(row.status or '—')} |"
    )
