"""A brief's page: the news first, then the whole brief in the author's order.

The page opens with what a reader takes in at a glance (the round's headline,
one line per main increment, the adjacent items and the claims to verify), then
gives the brief as written: status · sources checked · main increments ·
adjacent prep items · claims · citable ids and carried-over items · summary and
comparison · sources included / not included · signature, and last the 核对
section where the knowledge base's computed figures meet the stated ones.

Texts and figures the author wrote are shown as recorded (:mod:`kb.render.checks`
puts the computed check beside a figure); every contributed string goes through
:mod:`kb.render.escape` or :func:`kb.render.links.text`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from kb.data.models import LIGHTS, Brief, Increment
from kb.knowledge.figures import BriefFigures, short_date
from kb.knowledge.index import KnowledgeBase, Noted, brief_page
from kb.render import brief_items, brief_lists, brief_sources, checks
from kb.render.escape import md
from kb.render.links import Linker, brief_link, brief_title, section_link, text
from kb.render.messages import t


def stars(value: int | None) -> str:
    return "⭐" * value if value else "—"


def heading(level: int, title: str, anchor: str) -> str:
    return f"{'#' * level} {title} {{ #{anchor} }}"


def clock(value: dt.datetime) -> str:
    return value.strftime("%Y-%m-%d %H:%M")


@dataclass
class Ctx:
    """What every part of one brief's page needs."""

    kb: KnowledgeBase
    key: str
    brief: Brief
    figures: BriefFigures
    linker: Linker
    noted: list[Noted] = field(default_factory=list)
    numbers: dict[str, int] = field(default_factory=dict)  # finding code -> number in 核对

    def text(self, value: str) -> str:
        return text(self.kb, self.linker, value)

    def figure(self, stated: int | None, computed: int, code: str | None = None, unit: str = "") -> str:
        return checks.figure(stated, computed, code, self.numbers, self.figures.partial, unit)

    def codes(self, prefix: str) -> list[str]:
        return [c for c in self.numbers if c.startswith(prefix)]


def markdown(kb: KnowledgeBase, key: str, page: str | None = None) -> str:
    """The brief's Markdown; links are made relative to ``page`` (default: the brief's own page),
    so the same brief can be embedded in any hand-written page."""
    noted = kb.findings("brief", key)
    c = Ctx(kb, key, kb.briefs[key], kb.figures[key], Linker(page or brief_page(key)), noted, checks.numbered(noted))
    parts = [
        f"# {md(c.brief.title or brief_title(kb, key))}",
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
        _editor_notes(c),
        checks.section(kb, noted, heading(2, md(t("brief.checks")), checks.CHECKS_ANCHOR)),
        _prev_next(c),
    ]
    return "\n\n".join(p for p in parts if p) + "\n"


# --------------------------------------------------------------------------- the news first


def _lede(c: Ctx) -> str:
    b, out = c.brief, []
    if b.character:
        out.append(f'<p class="kb-headline" markdown>**{md(t("brief.headline"))}**：{c.text(b.character.title)}</p>')
    if b.reconstructed:
        out.append(f'!!! note "{md(t("brief.reconstructed"))}"\n    {c.text(b.reconstructed)}')
    glance = [_glance_increment(c, i, inc) for i, inc in enumerate(b.increments, 1)]
    if glance:
        out.append('<div class="kb-glance" markdown>\n\n' + "\n".join(glance) + "\n\n</div>")
    side = []
    if b.adjacent:
        items = " · ".join(f"[{chr(65 + i)} {md(a.title)}](#adj-{chr(97 + i)})" for i, a in enumerate(b.adjacent))
        side.append(f"- **{md(t('brief.adjacent_glance'))}**：{items}")
    claims = sorted(c.kb.claims.of_brief(c.key), key=lambda s: (s.priority_rank, s.index))
    if claims:
        items = " · ".join(
            (f"**{md(s.priority)}** " if s.priority else "") + f"[{md(s.claim.title)}](#claim-{s.index})"
            for s in claims
        )
        side.append(f"- **{md(t('brief.claims_glance'))}**：{items}")
    if side:
        out.append("\n".join(side))
    out.append(_meta(c))
    return "\n\n".join(out)


def _glance_increment(c: Ctx, i: int, inc: Increment) -> str:
    light = f"{LIGHTS[inc.light]} " if inc.light else ""
    where = (
        md(inc.where) if inc.where else " + ".join(section_link(c.kb, c.linker, c.brief.topic, s) for s in inc.sections)
    )
    creds = [cr for p in inc.papers if p in c.kb.papers and (cr := c.kb.papers[p].credibility)]
    cred = f" · {md(t('label.credibility'))} {md('/'.join(dict.fromkeys(x.label for x in creds)))}" if creds else ""
    status = md(inc.summary.status) if inc.summary and inc.summary.status else brief_items.status_word(inc.status)
    title = inc.title
    for sep in ("：", ":"):  # the title repeats the label the line starts with: "SSR：自投机解码……"
        if title.startswith(inc.label + sep) and len(title) > len(inc.label) + 1:
            title = title[len(inc.label) + 1 :].lstrip()
            break
    return (
        f"{i}. {light}**[{md(inc.label)}](#inc-{i})** — {c.text(title)}  \n"
        f'    <span class="kb-glance-meta">{where}{cred} · {stars(inc.value)} · {status}</span>'
    )


def _meta(c: Ctx) -> str:
    b = c.brief
    tz = f" {md(b.timezone_abbr)}" if b.timezone_abbr else ""
    bits = [
        f"{md(t('label.instance'))}：{md(b.instance)} · {md(b.topic)} {md(b.round)} {md(b.round_name or '')}".rstrip(),
        f"{md(t('label.generated'))}：{md(clock(b.generated_at))}{tz}（{md(b.timezone)}）",
    ]
    note = f"（{md(b.window.note)}）" if b.window.note else ""
    bits.append(f"{md(t('label.window'))}：{md(clock(b.window.start))} → {md(clock(b.window.end))}{note}")
    nav = _prev_next(c)
    return '<div class="kb-brief-meta" markdown>\n\n' + " · ".join(bits) + "\n\n</div>" + ("\n\n" + nav if nav else "")


def _prev_next(c: Ctx) -> str:
    f, items = c.figures, []
    if f.previous:
        items.append(f"{md(t('brief.prev'))} " + brief_link(c.kb, c.linker, f.previous))
    if f.next:
        items.append(brief_link(c.kb, c.linker, f.next) + f" {md(t('brief.next'))}")
    return '<div class="kb-prevnext" markdown>\n\n' + " · ".join(items) + "\n\n</div>" if items else ""


# --------------------------------------------------------------------------- 状态


def count_line(c: Ctx, short: bool = False) -> str:
    """``5 条主增量（3 条 NET-new + 2 条 paper_card 邻接入库）+ 6 条邻接预备…`` with its checks."""
    s, f = c.brief.stated, c.figures
    inc = c.figure(s.increments, f.increments, "stated/increments", t("unit.increments"))
    net = c.figure(s.net_new, f.net_new, "stated/net_new", t("unit.net_new"))
    ing = c.figure(
        s.adjacent_ingested,
        f.adjacent_ingested,
        "stated/adjacent_ingested",
        t("unit.ingested_short" if short else "unit.ingested"),
    )
    adj = c.figure(s.adjacent, f.adjacent, "stated/adjacent", t("unit.adjacent"))
    return f"{inc}（{net} + {ing}）+ {adj}"


def _status(c: Ctx) -> str:
    b, f = c.brief, c.figures
    lines = [heading(2, md(t("brief.status")), "status"), ""]
    lines.append(f"- **{md(t('label.count'))}**：{count_line(c)}")
    if b.character:
        lines.append(
            f"- **{md(t('label.character'))}**：“{c.text(b.character.title)}”型棒 —— {c.text(b.character.text)}"
        )
    ids = brief_items.net_new_list(c)
    n = c.figure(b.stated.arxiv_net_new, len(f.net_new_ids), "stated/arxiv_net_new", t("unit.arxiv"))
    lines.append(f"- **{md(t('label.arxiv'))}**：{md(t('fig.arxiv'), strip=False)}{n}" + (f"（{ids}）" if ids else ""))
    if b.cron:
        lines.append(f"- **{md(t('label.cron'))}**：{md(b.cron)}")
    base = _baseline(c)
    if base:
        lines.append(f"- **{md(t('label.baseline'))}**：{base}")
    return "\n".join(lines)


def _baseline(c: Ctx) -> str:
    """The living document as of the brief, from the topic's update log (computed, never retyped)."""
    bl = c.figures.baseline
    topic = c.kb.topics.get(c.brief.topic)
    if topic is None or bl is None or bl.update is None:
        return ""
    u = bl.update
    labels = "；".join(md(lb.text) for lb in u.labels)
    cites = ""
    if u.citations is not None:
        cites = f"；引→{'约' if u.citations_approx else ''}{u.citations}条 arXiv"
    page = c.linker.link(topic.document, topic.page)
    anchored = t("brief.baseline_anchored", n=bl.anchored) if bl.previous else ""
    return f"{page}（{u.date.isoformat()} 更新标注：{labels}{cites}）" + checks.mark(
        "kb-computed", t("brief.baseline_computed") + anchored + "）", t("check.computed_title")
    )


# --------------------------------------------------------------------------- 小结、签名


def _summary(c: Ctx) -> str:
    b = c.brief
    out = [heading(2, md(t("brief.summary")), "summary")]
    w = b.window
    span = f"{short_date(w.start)} {w.start:%H:%M} → {short_date(w.end)} {w.end:%H:%M}"
    out.append(f"{md(b.topic)} 主题 {span} 净增量 = {count_line(c, short=True)}")
    rows = brief_lists.summary_rows(c)
    if rows:
        out.append(rows)
    out.append(_comparison(c))
    return "\n\n".join(p for p in out if p)


def _comparison(c: Ctx) -> str:
    b, f, kb = c.brief, c.figures, c.kb
    lines = [heading(3, md(t("label.comparison")), "comparison")]
    if f.previous is None:
        lines.append(md(t("nav.first_brief")))
        return "\n\n".join(lines)
    pf, prev = kb.figures[f.previous], kb.briefs[f.previous]
    s, cmp = b.stated, b.comparison
    label = cmp.previous_label if cmp and cmp.previous_label else brief_title(kb, f.previous)
    inc = _previous_figure(s.previous_increments, pf.increments, pf.partial, "stated/previous_increments", c)
    adj = _previous_figure(s.previous_adjacent, pf.adjacent, pf.partial, "stated/previous_adjacent", c)
    lines.append(f"与 {brief_link(kb, c.linker, f.previous, label)}（{inc} 条主增量 + {adj} 条邻接预备）对照：")
    bullets = []
    if cmp and cmp.previous_summary:
        bullets.append(f"- {t('label.increments_of', date=short_date(prev.date))}：{c.text(cmp.previous_summary)}")
    if cmp and cmp.this_summary:
        bullets.append(f"- {t('label.increments_of', date=short_date(b.date))}：{c.text(cmp.this_summary)}")
    if cmp and cmp.features:
        bullets.append(f"- {md(t('label.features'))}：" + " + ".join(c.text(x) for x in cmp.features))
    if bullets:
        lines.append("\n".join(bullets))
    lines.append(_comparison_table(c, pf))
    return "\n\n".join(lines)


def _previous_figure(stated: int | None, computed: int, partial: bool, code: str, c: Ctx) -> str:
    if stated is not None and partial and computed < stated:
        return f"{stated}" + checks.mark(
            "kb-partial", f"（{t('check.partial', stated=stated, known=computed)}）", t("brief.reconstructed_figures")
        )
    return checks.figure(stated, computed, code, c.numbers, partial)


def _comparison_table(c: Ctx, pf: BriefFigures) -> str:
    """Computed figures of both briefs side by side, folded: a check, not the author's text."""
    f = c.figures
    mark = "≥" if pf.partial else ""
    rows = [f"| | {md(t('th.previous'))} | {md(t('th.this'))} |", "|---|---|---|"]
    for label, a, b in (
        ("主增量", pf.increments, f.increments),
        ("NET-new", pf.net_new, f.net_new),
        ("邻接预备", pf.adjacent, f.adjacent),
        ("净增 arXiv 号", len(pf.net_new_ids), len(f.net_new_ids)),
        ("沿用件", len(pf.carried), len(f.carried)),
    ):
        rows.append(f"| {label} | {mark}{a} | {b} |")
    return (
        '<details class="kb-fold" markdown="1">\n<summary>计算所得对照（知识库根据数据计算）</summary>\n\n'
        + "\n".join(rows)
        + "\n\n</details>"
    )


def _signature(c: Ctx) -> str:
    b, f = c.brief, c.figures
    out = [heading(2, md(t("brief.signature")), "signature")]
    if b.signature:
        out.append(f'<p class="kb-signature" markdown>{c.text(b.signature)}</p>')
    else:
        out.append(f'<p class="kb-signature kb-empty" markdown>{md(t("nav.sig_missing"))}</p>')
    marks = []
    s = b.stated
    for code, stated, computed, what in (
        ("stated/net_new", s.net_new, f.net_new, "NET-new"),
        ("stated/adjacent_ingested", s.adjacent_ingested, f.adjacent_ingested, "邻接入库"),
        ("stated/adjacent", s.adjacent, f.adjacent, "邻接预备"),
        ("stated/arxiv_net_new", s.arxiv_net_new, len(f.net_new_ids), "arXiv 号"),
    ):
        if stated is not None and stated != computed and not (f.partial and computed < stated):
            marks.append(f"{what} {stated}{checks.check_mark(computed, code, c.numbers)}")
    if s.sources_checked_min is not None:
        total = sum(x.count for x in s.sources_breakdown)
        detail = f"分项合计 {total}，" if s.sources_breakdown else ""
        marks.append(f"来源 {s.sources_checked_min}+：{detail}来源清单列出 {f.sources_listed} 个不同文件")
    if marks and b.signature:
        out.append(f'<p class="kb-sigcheck" markdown>{md(t("brief.checks"))}：' + "；".join(marks) + "</p>")
    return "\n\n".join(out)


def _editor_notes(c: Ctx) -> str:
    return brief_items.editor_notes(c, c.brief.editor_notes)
