"""A brief's page: the news first, then the whole brief in the author's order.

The page opens with what a reader takes in at a glance (the round's headline,
one line per main increment, the adjacent items, the claims to verify and the
candidates; a reconstructed brief's note on what of it is known after them), then
gives the brief as written: status · sources checked · main increments ·
adjacent prep items · claims · citable ids and carried-over items · summary and
comparison · sources included / not included · signature, and last the 核对
section where the knowledge base's computed figures meet the stated ones.

Texts and figures the author wrote are shown as recorded (:mod:`kb.render.checks`
puts the computed check beside a figure); every contributed string goes through
:func:`kb.render.html.esc` or :func:`kb.render.links.text`; the page is HTML
(:mod:`kb.render.html`), handed to MkDocs after its Markdown step.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata

from kb.data.models import LIGHTS, Increment, Status
from kb.knowledge.figures import BriefFigures, agrees, short_date
from kb.knowledge.index import KnowledgeBase, brief_page
from kb.messages import t
from kb.render import brief_items, brief_lists, brief_sources, checks
from kb.render.brief_items import item, stars
from kb.render.briefctx import Ctx
from kb.render.html import (
    BR,
    Html,
    a,
    admonition,
    blocks,
    details,
    div,
    esc,
    heading,
    link,
    ol,
    p,
    span,
    strong,
    t_html,
    table,
    ul,
)
from kb.render.links import Linker, brief_link, brief_title, section_link


def clock(value: dt.datetime) -> str:
    return value.strftime("%Y-%m-%d %H:%M")


def title_anchor(title: str, key: str) -> str:
    """The h1's anchor: the slug the ``toc`` extension gives a heading (ASCII letters, digits and
    dashes of the title: ``inference-e1-2026-09-03``), the brief's key when the title has none."""
    ascii_ = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", ascii_).strip().lower()) or re.sub(r"[^\w-]+", "-", key)
    return f"{slug}_1" if _OWN_ANCHOR.fullmatch(slug) else slug  # as toc does when the page has the id


# the anchors the page's parts set (a title slugged to one of them gets another, as with toc)
_OWN_ANCHOR = re.compile(
    r"status|sources|increments|adjacent|claims|arxiv-ids|candidates|carried|summary|comparison|source-lists"
    r"|sources-included|sources-excluded|signature|checks|claim-updates|(inc|claim|src|check)-\d+|adj-[a-z]"
)


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")  # a date in a title is not cut at its hyphens on a phone


def page(kb: KnowledgeBase, key: str, page: str | None = None) -> Html:
    """The brief's page as HTML; links are made relative to ``page`` (default: the brief's own page),
    so the same brief can be embedded in any hand-written page."""
    noted = kb.findings("brief", key)
    c = Ctx(kb, key, kb.briefs[key], kb.figures[key], Linker(page or brief_page(key)), noted, checks.numbered(noted))
    title = brief_title(kb, key)
    return (
        blocks(
            heading(1, _DATE.sub(lambda d: span(d.group(0), "kb-nowrap"), esc(title)), title_anchor(title, key)),
            _lede(c),
            _status(c),
            brief_sources.sources(c),
            brief_items.increments(c),
            brief_items.adjacent(c),
            brief_items.claims(c),
            brief_lists.citable_and_carried(c),
            _summary(c),
            brief_sources.source_lists(c),
            _signature(c),
            _unmapped(c),
            _editor_notes(c),
            checks.section(
                kb, noted, heading(2, esc(t("brief.checks")), checks.CHECKS_ANCHOR), c.brief.reconstructed is not None
            ),
            _prev_next(c),
        )
        + "\n"
    )


# --------------------------------------------------------------------------- the news first

GLANCE_CANDIDATES = 10  # candidates named in the glance; more: how many, linked to the section


def _lede(c: Ctx) -> Html:
    b, out = c.brief, []
    if b.character:
        out.append(p(item(t("brief.headline"), c.text(b.character.title)), "kb-headline"))
    glance = [_glance_increment(c, i, inc) for i, inc in enumerate(b.increments, 1)]
    if glance:
        out.append(div(ol(glance), "kb-glance"))
    side = []
    if b.adjacent:
        items = " · ".join(link(f"{chr(65 + i)} {x.title}", f"#adj-{chr(97 + i)}") for i, x in enumerate(b.adjacent))
        side.append(item(t("brief.adjacent_glance"), items))
    order = c.kb.history.order  # each claim as of this brief: a later priority is a dated note below
    here = order[c.key]
    states = [s.as_of(lambda k: order[k] <= here) for s in c.kb.claims.of_brief(c.key)]
    claims = sorted(states, key=lambda s: (s.priority_rank, s.index))
    if claims:
        items = " · ".join(
            (f"{strong(esc(s.priority))} " if s.priority else "") + link(s.claim.title, f"#claim-{s.index}")
            for s in claims
        )
        side.append(item(t("brief.claims_glance"), items))
    # the day's anchorings under their own word, then the other candidates; each paper once
    anchored = list(dict.fromkeys(x.paper for x in b.candidates if x.status is Status.anchored))
    others = list(dict.fromkeys(x.paper for x in b.candidates if x.paper not in anchored))
    for word, papers in (("brief.anchored_glance", anchored), ("brief.candidates", others)):
        if not papers:  # a reconstructed brief may know nothing but its candidates
            continue
        names = [c.kb.papers[pid].short if pid in c.kb.papers else pid for pid in papers]
        shown = [link(name, "#candidates") for name in names[:GLANCE_CANDIDATES]]
        if len(names) > GLANCE_CANDIDATES:  # a line, not the list: the section has them all
            shown.append(link(t("brief.candidates_more", n=len(names)), "#candidates"))
        side.append(item(t(word), " · ".join(shown)))
    out.append(ul(side, "kb-glance-side"))
    if b.reconstructed:  # after the news: what of it is known
        out.append(admonition("note", esc(t("brief.reconstructed")), p(c.text(b.reconstructed))))
    out.append(_meta(c))
    return blocks(*out)


def _glance_increment(c: Ctx, i: int, inc: Increment) -> Html:
    light = f"{esc(LIGHTS[inc.light])} " if inc.light else ""
    # the sections as the living document titles them, each a link to it (the author's own
    # wording of the place, inc.where, stays in the increment's section below)
    where = " + ".join(section_link(c.kb, c.linker, c.brief.topic, s) for s in inc.sections) or esc(inc.where or "")
    creds = [cr for pid in inc.papers if pid in c.kb.papers and (cr := c.kb.papers[pid].credibility)]
    cred = f" · {esc(t('label.credibility'))} {esc('/'.join(dict.fromkeys(x.label for x in creds)))}" if creds else ""
    status = esc(inc.summary.status) if inc.summary and inc.summary.status else brief_items.status_word(inc.status)
    title = inc.title
    for sep in ("：", ":"):  # the title repeats the label the line starts with: "SSR：自投机解码……"
        if title.startswith(inc.label + sep) and len(title) > len(inc.label) + 1:
            title = title[len(inc.label) + 1 :].lstrip()
            break
    meta = span(f"{where}{cred} · {esc(stars(inc.value))} · {status}", "kb-glance-meta")
    head = span(f"{light}{strong(a(esc(inc.label), f'#inc-{i}'))} — {c.text(title)}", "kb-glance-title")
    return f"{head}{BR}\n{meta}"


def _meta(c: Ctx) -> Html:
    b = c.brief
    tz = f" {b.timezone_abbr}" if b.timezone_abbr else ""
    bits = [f"{t('label.instance')}：{b.instance} · {b.topic} {b.round} {b.round_name or ''}".rstrip()]
    if b.generated_at is not None:  # a reconstructed brief may not record it: nothing is shown then
        bits.append(f"{t('label.generated')}：{clock(b.generated_at)}{tz}（{b.timezone}）")
    if b.window is not None:
        note = f"（{b.window.note}）" if b.window.note else ""
        bits.append(f"{t('label.window')}：{clock(b.window.start)} → {clock(b.window.end)}{note}")
    return blocks(div(p(" · ".join(esc(x) for x in bits)), "kb-brief-meta"), _prev_next(c))


def _prev_next(c: Ctx) -> Html:
    f, items = c.figures, []
    if f.previous:
        items.append(f"{esc(t('brief.prev'))} " + brief_link(c.kb, c.linker, f.previous))
    if f.next:
        items.append(brief_link(c.kb, c.linker, f.next) + f" {esc(t('brief.next'))}")
    return div(p(" · ".join(items)), "kb-prevnext") if items else ""


# --------------------------------------------------------------------------- 状态


def count_line(c: Ctx, short: bool = False) -> Html:
    """``5 条主增量（3 条 NET-new + 2 条 paper_card 邻接入库）+ 6 条邻接预备…`` with its checks."""
    s, f = c.brief.stated, c.figures
    inc = c.figure(s.increments, f.increments, "stated/increments", t("unit.increments"), "increments")
    net = c.figure(s.net_new, f.net_new, "stated/net_new", t("unit.net_new"))
    ing = c.figure(
        s.adjacent_ingested,
        f.adjacent_ingested,
        "stated/adjacent_ingested",
        t("unit.ingested_short" if short else "unit.ingested"),
    )
    adj = c.figure(s.adjacent, f.adjacent, "stated/adjacent", t("unit.adjacent"), "adjacent")
    return f"{inc}（{net} + {ing}）+ {adj}"


def _status(c: Ctx) -> Html:
    b, f = c.brief, c.figures
    items = [item(t("label.count"), count_line(c))]
    if b.character:
        items.append(
            item(
                t("label.character"),
                t_html("brief.character", title=c.text(b.character.title), text=c.text(b.character.text)),
            )
        )
    ids = brief_items.net_new_list(c)
    n = c.figure(b.stated.arxiv_net_new, len(f.net_new_ids), "stated/arxiv_net_new", t("unit.arxiv"))
    items.append(item(t("label.arxiv"), esc(t("fig.arxiv"), strip=False) + n + (f"（{ids}）" if ids else "")))
    # how the brief was made (the job that wrote it, the document it started from): folded
    process = [item(t("label.cron"), esc(b.cron))] if b.cron else []
    base = _baseline(c) or (c.text(b.baseline) if b.baseline else "")  # computed, else as the author wrote it
    if base:
        process.append(item(t("label.baseline"), base))
    folded = brief_sources.fold(t("brief.process"), ul(process)) if process else ""
    return blocks(heading(2, esc(t("brief.status")), "status"), ul(items), folded)


def _baseline(c: Ctx) -> Html:
    """The living document as of the brief, from the topic's update log (computed, never retyped)."""
    bl = c.figures.baseline
    topic = c.kb.topics.get(c.brief.topic)
    if topic is None or bl is None or bl.update is None:
        return ""
    u = bl.update
    labels = "；".join(esc(lb.text) for lb in u.labels)
    cites = ""
    if u.citations is not None:
        approx = esc(t("brief.baseline_approx")) if u.citations_approx else ""
        cites = t_html("brief.baseline_citations", approx=approx, n=str(u.citations))
    doc = c.linker.link(topic.document, topic.page)
    # a count resting on a reconstructed brief is a lower bound: that brief may have recorded more;
    # "at least 0" says nothing: unknown (as the briefs index says a reconstructed brief's figures)
    if not bl.partial:
        word = "brief.baseline_anchored"
    elif bl.anchored:
        word = "brief.baseline_anchored_min"
    else:
        word = "brief.baseline_anchored_unknown"
    anchored = t(word, n=bl.anchored) if bl.previous else ""
    line = t_html("brief.baseline", doc=doc, date=esc(u.date.isoformat()), labels=labels, citations=cites)
    return line + checks.mark("kb-computed", t("brief.baseline_computed") + anchored + "）", t("check.computed_title"))


# --------------------------------------------------------------------------- 小结、签名


def _summary(c: Ctx) -> Html:
    b, w = c.brief, c.brief.window
    window = f"{short_date(w.start)} {w.start:%H:%M} → {short_date(w.end)} {w.end:%H:%M} " if w else ""
    return blocks(
        heading(2, esc(c.part("brief.summary", written=not b.reconstructed or brief_lists.has_rows(c))), "summary"),
        p(t_html("brief.summary_line", topic=esc(b.topic), window=esc(window), counts=count_line(c, short=True))),
        brief_lists.summary_rows(c),
        _comparison(c),
    )


def _comparison(c: Ctx) -> Html:
    b, f, kb = c.brief, c.figures, c.kb
    head = heading(3, esc(t("label.comparison")), "comparison")
    if f.previous is None:  # of a reconstructed brief, only that the knowledge base has none earlier
        return blocks(head, p(esc(t("nav.no_earlier" if b.reconstructed else "nav.first_brief"))))
    pf, prev = kb.figures[f.previous], kb.briefs[f.previous]
    s, cmp = b.stated, b.comparison
    label = cmp.previous_label if cmp and cmp.previous_label else brief_title(kb, f.previous)
    inc = _previous_figure(s.previous_increments, pf.increments, pf.partial, "stated/previous_increments", c)
    adj = _previous_figure(s.previous_adjacent, pf.adjacent, pf.partial, "stated/previous_adjacent", c)
    link = brief_link(kb, c.linker, f.previous, label)
    intro = p(t_html("brief.compared_with", brief=link, increments=inc, adjacent=adj))
    bullets = []
    if cmp and cmp.previous_summary:
        bullets.append(item(t("label.increments_of", date=short_date(prev.date)), c.text(cmp.previous_summary), False))
    if cmp and cmp.this_summary:
        bullets.append(item(t("label.increments_of", date=short_date(b.date)), c.text(cmp.this_summary), False))
    if cmp and cmp.features:
        bullets.append(item(t("label.features"), " + ".join(c.text(x) for x in cmp.features), False))
    return blocks(head, intro, ul(bullets), _comparison_table(c, pf))


def _previous_figure(stated: int | None, computed: int, partial: bool, code: str, c: Ctx) -> Html:
    if stated is not None and partial and computed < stated:
        return f"{stated}" + checks.mark(
            "kb-partial", f"（{t('check.partial', stated=stated, known=computed)}）", t("brief.reconstructed_figures")
        )
    return checks.figure(stated, computed, code, c.numbers, partial)


def _comparison_table(c: Ctx, pf: BriefFigures) -> Html:
    """Computed figures of both briefs side by side, folded: a check, not the author's text."""
    f = c.figures
    mark = "≥" if pf.partial else ""
    rows = [
        [esc(t(label)), f"{esc(mark)}{x}", str(y)]
        for label, x, y in (
            ("compare.increments", pf.increments, f.increments),
            ("compare.net_new", pf.net_new, f.net_new),
            ("compare.adjacent", pf.adjacent, f.adjacent),
            ("compare.arxiv", len(pf.net_new_ids), len(f.net_new_ids)),
            ("compare.carried", len(pf.carried), len(f.carried)),
        )
    ]
    head = ["", esc(t("th.previous")), esc(t("th.this"))]
    return details(esc(t("compare.title")), table(head, rows), "kb-fold")


def _signature(c: Ctx) -> Html:
    b, f = c.brief, c.figures
    out = [heading(2, esc(t("brief.signature")), "signature")]
    if b.signature:
        out.append(p(c.text(b.signature), "kb-signature"))
    else:
        out.append(p(esc(t("nav.sig_missing")), "kb-signature kb-empty"))
    marks = []
    s = b.stated
    for code, stated, computed, what in (
        ("stated/net_new", s.net_new, f.net_new, "sigcheck.net_new"),
        ("stated/adjacent_ingested", s.adjacent_ingested, f.adjacent_ingested, "sigcheck.adjacent_ingested"),
        ("stated/adjacent", s.adjacent, f.adjacent, "sigcheck.adjacent"),
        ("stated/arxiv_net_new", s.arxiv_net_new, len(f.net_new_ids), "sigcheck.arxiv"),
    ):
        if stated is not None and not agrees(stated, computed, f.partial):
            marks.append(f"{esc(t(what))} {stated}{checks.check_mark(computed, code, c.numbers)}")
    if s.sources_checked_min is not None and c.codes("stated/sources"):  # only where a figure disagrees
        total = sum(x.count for x in s.sources_breakdown)
        detail = t("sigcheck.breakdown", total=total) if s.sources_breakdown else ""
        stated_min, listed = s.sources_checked_min, f.sources_listed
        marks.append(esc(t("sigcheck.sources", stated=stated_min, breakdown=detail, listed=listed)))
    if marks and b.signature:
        out.append(p(esc(t("sigcheck.lead")) + "；".join(marks), "kb-sigcheck"))  # each mark says 核对 itself
    return blocks(*out)


def _unmapped(c: Ctx) -> Html:
    """Lines of an imported text brief that fit no field: the author's text, as written."""
    if not c.brief.unmapped:
        return ""
    out = [heading(2, esc(t("brief.unmapped")), "unmapped"), p(esc(t("brief.unmapped_note")), "kb-note")]
    for block in c.brief.unmapped:
        where = t("brief.unmapped_where", line=block.line or "?", part=block.part or t("brief.unmapped_no_part"))
        out.append(p(esc(where) + (f"（{esc(block.why)}）" if block.why else ""), "kb-unmapped-where"))
        out.append(blocks(*(p(c.text(x), "kb-unmapped") for x in block.lines)))
    return blocks(*out)


def _editor_notes(c: Ctx) -> Html:
    return brief_items.editor_notes(c, c.brief.editor_notes)
