"""What a brief checked: the source groups (一、来源清单) with their files and new
paper cards, and the author's lists of sources included / not included
(七、检查过的来源汇总).  Long process detail: shown whole, folded."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.data.models import CardEntry, SourceGroup
from kb.messages import t
from kb.render import checks
from kb.render.html import Html, blocks, details, esc, heading, p, strong, t_html, ul
from kb.render.links import paper_link

if TYPE_CHECKING:
    from kb.render.briefctx import Ctx


def fold(summary: str, body: Html, open_: bool = False) -> Html:
    """A Material-styled ``<details>`` block; ``summary`` is plain text."""
    return details(esc(summary), body, "kb-fold", open_)


def sources(c: Ctx) -> Html:
    b = c.brief
    if not b.sources:
        return ""
    groups = []
    for i, g in enumerate(b.sources, 1):
        when = f"（{esc(g.time)}）" if g.time else ""
        groups.append(blocks(heading(3, f"1.{i} {esc(g.title)}{when}", f"src-{i}"), _group(c, i - 1, g)))
    files = sum(len(g.files) for g in b.sources)
    label = t("sources.fold", groups=len(b.sources), files=files)
    return blocks(heading(2, esc(c.part("brief.sources")), "sources"), fold(label, blocks(*groups)))


def _group(c: Ctx, index: int, g: SourceGroup) -> Html:
    kb = c.kb
    lines = [c.text(x) for x in g.findings]
    for fl in g.files:
        bits = [esc(fl.path)]
        if fl.scope:
            bits.append(f"〔{esc(fl.scope)}〕")
        if fl.time and fl.time not in (g.time or ""):
            bits.append(f"（{esc(fl.time)}）")
        keyed = f" · {strong(esc(fl.key))}" if fl.key else ""
        desc = " — " + c.text(fl.summary) if fl.summary else ""
        lines.append(f"{' '.join(bits)}{keyed}{desc}")
    if g.cards:
        window = ""
        if g.cards_window:
            w = g.cards_window
            window = f"（{esc(w.label)}：{w.start.isoformat()} → {w.end.isoformat()}）"
        lines.append(f"{esc(t('label.cards'))}{window}：" + ul(_card(c, card) for card in g.cards))
    lines.extend(c.text(x) for x in g.tally)
    lines.extend(_group_checks(c, index, g))
    if g.confirmed_pending:
        names = " / ".join(paper_link(kb, c.linker, x) for x in g.confirmed_pending if x in kb.papers)
        lines.append(f"{esc(t('label.confirmed_pending'))}：{names}")
    return ul(lines)


def _card(c: Ctx, card: CardEntry) -> Html:
    kb = c.kb
    paper = kb.paper_for(card.arxiv) if card.arxiv else None
    bits = [str(card.number)]
    if card.arxiv:
        bits.append(c.text(card.arxiv))
    if card.title:
        bits.append(paper_link(kb, c.linker, paper.id, card.title) if paper else esc(card.title))
    extra = []
    if card.category:
        extra.append(t_html("sources.card_category", category=esc(card.category)))
    if card.adjacent:
        extra.append(t_html("sources.card_adjacent", topics="、".join(esc(x) for x in card.adjacent)))
    if card.ingested:
        extra.append(t_html("sources.card_ingested", ingested=esc(card.ingested)))
    if card.note:
        extra.append(esc(card.note))
    return " · ".join(bits) + (f"（{' · '.join(extra)}）" if extra else "")


def _group_checks(c: Ctx, index: int, g: SourceGroup) -> list[Html]:
    """Stated tallies of a group that its card list does not give, with the computed check."""
    tally = next((x for x in c.figures.cards if x.group == index), None)
    if tally is None:
        return []
    out = []
    for name, computed, what in (
        ("cards", tally.total, t("sources.cards")),
        ("cards_in_topic", len(tally.in_topic), t("sources.cards_in_topic")),
        ("cards_adjacent", len(tally.adjacent), t("sources.cards_adjacent")),
    ):
        stated = getattr(g.stated, name)
        if stated is not None and stated != computed:
            mark = checks.check_mark(computed, f"sources/{index + 1}/{name}", c.numbers)
            out.append(
                t_html("sources.check", checks=esc(t("brief.checks")), what=esc(what), stated=str(stated), mark=mark)
            )
    return out


def source_lists(c: Ctx) -> Html:
    ch = c.brief.checked
    if ch is None or not (ch.included or ch.excluded):
        return ""
    none = p(esc(t("label.none")))
    inc = ul("✅ " + esc(x.path) + (f"（{c.text(x.note)}）" if x.note else "") for x in ch.included)
    exc = ul(esc(x.path) + (f"（{c.text(x.note)}）" if x.note else "") for x in ch.excluded)
    qual = f"（{esc(ch.excluded_label)}）" if ch.excluded_label else ""
    body = blocks(
        heading(3, esc(t("label.included")), "sources-included"),
        inc or none,
        heading(3, f"{esc(t('label.excluded'))}{qual}", "sources-excluded"),
        exc or none,
    )
    label = t("sources.lists_fold", included=len(ch.included), excluded=len(ch.excluded))
    return blocks(heading(2, esc(c.part("brief.source_lists")), "source-lists"), fold(label, body))
