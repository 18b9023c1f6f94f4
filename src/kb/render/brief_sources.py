"""What a brief checked: the source groups (一、来源清单) with their files and new
paper cards, and the author's lists of sources included / not included
(七、检查过的来源汇总).  Long process detail: shown whole, folded."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from kb.data.models import CardEntry, SourceGroup
from kb.render import checks
from kb.render.escape import md
from kb.render.links import paper_link
from kb.render.messages import t

if TYPE_CHECKING:
    from kb.render.brief import Ctx


def _h(level: int, title: str, anchor: str) -> str:
    return f"{'#' * level} {title} {{ #{anchor} }}"


def fold(summary: str, body: str, open_: bool = False) -> str:
    """A Material-styled ``<details>`` block whose body is Markdown; ``summary`` is plain text."""
    attr = " open" if open_ else ""
    return (
        f'<details class="kb-fold"{attr} markdown="1">\n<summary>{html.escape(summary)}</summary>\n\n'
        f"{body}\n\n</details>"
    )


def sources(c: Ctx) -> str:
    b = c.brief
    if not b.sources:
        return ""
    groups = []
    for i, g in enumerate(b.sources, 1):
        when = f"（{md(g.time)}）" if g.time else ""
        groups.append(_h(3, f"1.{i} {md(g.title)}{when}", f"src-{i}") + "\n\n" + _group(c, i - 1, g))
    files = sum(len(g.files) for g in b.sources)
    label = f"{len(b.sources)} 组来源 · {files} 个文件"
    return _h(2, md(t("brief.sources")), "sources") + "\n\n" + fold(label, "\n\n".join(groups))


def _group(c: Ctx, index: int, g: SourceGroup) -> str:
    kb = c.kb
    lines = [f"- {c.text(x)}" for x in g.findings]
    for fl in g.files:
        bits = [md(fl.path)]
        if fl.scope:
            bits.append(f"〔{md(fl.scope)}〕")
        if fl.time and fl.time not in (g.time or ""):
            bits.append(f"（{md(fl.time)}）")
        keyed = f" · **{md(fl.key)}**" if fl.key else ""
        desc = " — " + c.text(fl.summary) if fl.summary else ""
        lines.append(f"- {' '.join(bits)}{keyed}{desc}")
    if g.cards:
        window = ""
        if g.cards_window:
            w = g.cards_window
            window = f"（{md(w.label)}：{w.start.isoformat()} → {w.end.isoformat()}）"
        lines.append(f"- {md(t('label.cards'))}{window}：")
        for card in g.cards:
            lines.append("    " + _card(c, card))
    lines.extend(f"- {c.text(x)}" for x in g.tally)
    lines.extend(_group_checks(c, index, g))
    if g.confirmed_pending:
        names = " / ".join(paper_link(kb, c.linker, p) for p in g.confirmed_pending if p in kb.papers)
        lines.append(f"- {md(t('label.confirmed_pending'))}：{names}")
    return "\n".join(lines)


def _card(c: Ctx, card: CardEntry) -> str:
    kb = c.kb
    paper = kb.paper_for(card.arxiv) if card.arxiv else None
    bits = [str(card.number)]
    if card.arxiv:
        bits.append(c.text(card.arxiv))
    if card.title:
        bits.append(paper_link(kb, c.linker, paper.id, card.title) if paper else md(card.title))
    extra = []
    if card.category:
        extra.append(f"主分类 {md(card.category)}")
    if card.adjacent:
        extra.append("邻接 " + "、".join(md(a) for a in card.adjacent))
    if card.ingested:
        extra.append(f"{md(card.ingested)} 入库")
    if card.note:
        extra.append(md(card.note))
    return f"- {' · '.join(bits)}" + (f"（{' · '.join(extra)}）" if extra else "")


def _group_checks(c: Ctx, index: int, g: SourceGroup) -> list[str]:
    """Stated tallies of a group that its card list does not give, with the computed check."""
    tally = next((x for x in c.figures.cards if x.group == index), None)
    if tally is None:
        return []
    out = []
    for name, computed, what in (
        ("cards", tally.total, "新卡"),
        ("cards_in_topic", len(tally.in_topic), "本主题主分类新卡"),
        ("cards_adjacent", len(tally.adjacent), "邻接入库"),
    ):
        stated = getattr(g.stated, name)
        if stated is not None and stated != computed:
            code = f"sources/{index + 1}/{name}"
            out.append(f"- {md(t('brief.checks'))}：{what}原文 {stated}{checks.check_mark(computed, code, c.numbers)}")
    return out


def source_lists(c: Ctx) -> str:
    ch = c.brief.checked
    if ch is None or not (ch.included or ch.excluded):
        return ""
    inc = "\n".join(f"- ✅ {md(x.path)}" + (f"（{c.text(x.note)}）" if x.note else "") for x in ch.included)
    exc = "\n".join(f"- {md(x.path)}" + (f"（{c.text(x.note)}）" if x.note else "") for x in ch.excluded)
    qual = f"（{md(ch.excluded_label)}）" if ch.excluded_label else ""
    body = [
        _h(3, md(t("label.included")), "sources-included"),
        inc or md(t("label.none")),
        _h(3, f"{md(t('label.excluded'))}{qual}", "sources-excluded"),
        exc or md(t("label.none")),
    ]
    label = f"已纳入 {len(ch.included)} · 未纳入 {len(ch.excluded)}"
    return _h(2, md(t("brief.source_lists")), "source-lists") + "\n\n" + fold(label, "\n\n".join(body))
