"""Charts as static SVG, made at build time (pure: no script, no CDN, works offline).

* :func:`increments_svg` — a heat table: one cell per (section, week) with the
  number of main increments that name the section in the topic's briefs of
  that week (weeks start on Monday; an increment naming two sections counts in
  each).
* :func:`backlog_age_svg` — bars: items still NET-new or pending anchoring
  (:func:`kb.backlog.pending_items`) by age in days, in fixed buckets.

Every cell and bar carries its value in ``data-*`` attributes, and every piece
of text (section titles, paper names) is XML-escaped.  :func:`page` lays out
the generated "统计" page; :func:`backlog_section` is appended to the backlog page.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from kb.knowledge.backlog import PendingItem, as_of, pending_items
from kb.knowledge.index import KnowledgeBase
from kb.render.escape import md
from kb.render.links import section_label

if TYPE_CHECKING:
    from kb.render.feeds import FeedPaths

PAGE = "stats.md"
FONT = 12
INK = "#1f2937"
MUTED = "#6b7280"
MUTED_VAR = "--md-default-fg-color--light"
EMPTY = "#eef0f7"
BAR = "#3f51b5"

# (lowest age, highest age or None for "and more", label)
AGE_BUCKETS: tuple[tuple[int, int | None, str], ...] = (
    (0, 0, "0 天"),
    (1, 1, "1 天"),
    (2, 3, "2–3 天"),
    (4, 7, "4–7 天"),
    (8, 14, "8–14 天"),
    (15, 30, "15–30 天"),
    (31, 90, "31–90 天"),
    (91, None, "90 天以上"),
)


def _ink(color: str, var: str = "--md-default-fg-color") -> str:
    """A text colour that follows the theme (Material's light and dark schemes), ``color`` elsewhere."""
    return f'fill="{color}" style="fill:var({var}, {color})"'


def _x(text: object) -> str:
    """Escape for XML text and double-quoted attributes."""
    return escape(str(text), {'"': "&quot;"})


def _width(text: str, size: int = FONT) -> float:
    """Rough rendered width: CJK and full-width characters are about 1em, the rest about 0.6em."""
    return sum(1.0 if ord(c) >= 0x2E80 else 0.6 for c in text) * size


def _svg(kind: str, topic: str, width: float, height: float, title: str, body: list[str], scale: bool = True) -> str:
    """``scale``: shrink to the column's width; otherwise keep the natural size (the box scrolls)."""
    ident = f"kb-chart-{kind}-{topic}"
    w, h = round(width), round(height)
    style = "max-width:100%;height:auto" if scale else "max-width:none"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="kb-chart" data-chart="{kind}" data-topic="{_x(topic)}" '
        f'width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-labelledby="{ident}-title" '
        f'font-size="{FONT}" style="{style}">'
        f'<title id="{ident}-title">{_x(title)}</title>' + "".join(body) + "</svg>"
    )


# --------------------------------------------------------------------------- increments per section per week


def monday(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=day.weekday())


@dataclass(frozen=True)
class WeekTable:
    sections: list[str]  # section ids with at least one increment, in the topic's outline order
    weeks: list[dt.date]  # Mondays, every week from the first brief to the last
    counts: dict[tuple[str, dt.date], int]  # (section, week) -> increments (absent = 0)

    def count(self, section: str, week: dt.date) -> int:
        return self.counts.get((section, week), 0)


def increments_by_week(kb: KnowledgeBase, topic: str) -> WeekTable:
    keys = kb.by_topic.get(topic, [])
    counts: Counter[tuple[str, dt.date]] = Counter()
    for key in keys:
        brief = kb.briefs[key]
        for inc in brief.increments:
            for sid in dict.fromkeys(inc.sections):  # a section named twice counts once
                counts[(sid, monday(brief.date))] += 1
    if not keys:
        return WeekTable([], [], {})
    first, last = monday(kb.briefs[keys[0]].date), monday(kb.briefs[keys[-1]].date)
    weeks = [first + dt.timedelta(weeks=i) for i in range((last - first).days // 7 + 1)]
    named = {s for s, _ in counts}
    order = list(kb.sections.get(topic, {}))
    sections = [s for s in order if s in named] + sorted(named - set(order))
    return WeekTable(sections, weeks, dict(counts))


def _shade(value: int, top: int) -> str:
    if value <= 0 or top <= 0:
        return EMPTY
    t = 0.25 + 0.75 * value / top  # light indigo -> indigo
    lo, hi = (0xE8, 0xEA, 0xF6), (0x3F, 0x51, 0xB5)
    return "#" + "".join(f"{round(a + (b - a) * t):02x}" for a, b in zip(lo, hi, strict=True))


def increments_svg(kb: KnowledgeBase, topic: str) -> str | None:
    """The heat table, or None when the topic has no increments."""
    table = increments_by_week(kb, topic)
    if not table.sections:
        return None
    labels = [section_label(kb, topic, s) for s in table.sections]
    cell_w, cell_h, gap = 56, 28, 2
    left = max(_width(lb) for lb in labels) + 16
    top_h = 40
    width = left + len(table.weeks) * cell_w + 8
    height = top_h + len(table.sections) * cell_h + 8
    peak = max(table.counts.values())
    body = []
    for j, week in enumerate(table.weeks):
        x = left + j * cell_w + cell_w / 2
        iso = week.isocalendar()
        body.append(
            f'<text x="{x:.0f}" y="16" text-anchor="middle" {_ink(INK)}>W{iso.week:02d}</text>'
            f'<text x="{x:.0f}" y="32" text-anchor="middle" {_ink(MUTED, MUTED_VAR)} font-size="10">{week:%m-%d}</text>'
        )
    for i, (sid, label) in enumerate(zip(table.sections, labels, strict=True)):
        y = top_h + i * cell_h
        body.append(
            f'<text x="{left - 8:.0f}" y="{y + cell_h / 2 + 4:.0f}" text-anchor="end" {_ink(INK)}>{_x(label)}</text>'
        )
        for j, week in enumerate(table.weeks):
            n = table.count(sid, week)
            x = left + j * cell_w
            tip = f"{label} · {week.isoformat()} 起一周：{n} 条主增量"
            text = (
                ""
                if n == 0
                else (
                    f'<text x="{x + cell_w / 2:.0f}" y="{y + cell_h / 2 + 4:.0f}" text-anchor="middle" '
                    f'fill="{"#ffffff" if n * 2 > peak else INK}">{n}</text>'
                )
            )
            body.append(
                f'<g class="kb-cell"><title>{_x(tip)}</title>'
                f'<rect x="{x + gap / 2:.0f}" y="{y + gap / 2:.0f}" '
                f'width="{cell_w - gap}" height="{cell_h - gap}" rx="3" '
                f'fill="{_shade(n, peak)}" data-section="{_x(sid)}" data-week="{week.isoformat()}" data-count="{n}"/>'
                f"{text}</g>"
            )
    title = f"{kb.topics[topic].title if topic in kb.topics else topic}：每周各节的主增量"
    return _svg("increments", topic, width, height, title, body, scale=False)  # many weeks: scroll, keep cells legible


# --------------------------------------------------------------------------- backlog age


@dataclass(frozen=True)
class AgeBucket:
    low: int
    high: int | None
    label: str
    items: tuple[PendingItem, ...]

    @property
    def count(self) -> int:
        return len(self.items)


def bucket_of(age: int) -> int:
    for i, (low, high, _) in enumerate(AGE_BUCKETS):
        if age >= low and (high is None or age <= high):
            return i
    raise ValueError(f"negative age {age}")  # pragma: no cover - ages count forward from the first brief


def backlog_ages(kb: KnowledgeBase, topic: str) -> list[AgeBucket]:
    items = pending_items(kb, topic)
    groups: list[list[PendingItem]] = [[] for _ in AGE_BUCKETS]
    for it in items:
        groups[bucket_of(it.age_days)].append(it)
    return [AgeBucket(low, high, label, tuple(g)) for (low, high, label), g in zip(AGE_BUCKETS, groups, strict=True)]


def backlog_age_svg(kb: KnowledgeBase, topic: str) -> str | None:
    """Bars by age bucket, or None when nothing is pending."""
    buckets = backlog_ages(kb, topic)
    if not any(b.count for b in buckets):
        return None
    bar_w, slot, plot_h, top, bottom = 40, 64, 120, 20, 28
    width = len(buckets) * slot + 16
    height = top + plot_h + bottom
    peak = max(b.count for b in buckets)
    base_y = top + plot_h
    body = [f'<line x1="8" y1="{base_y}" x2="{width - 8}" y2="{base_y}" stroke="{MUTED}" stroke-width="1"/>']
    for i, b in enumerate(buckets):
        cx = 8 + i * slot + slot / 2
        h = plot_h * b.count / peak if peak else 0
        names = "、".join(kb.papers[it.paper].short if it.paper in kb.papers else it.paper for it in b.items)
        tip = f"{b.label}：{b.count} 条" + (f"（{names}）" if names else "")
        body.append(
            f'<g class="kb-bar"><title>{_x(tip)}</title>'
            f'<rect x="{cx - bar_w / 2:.0f}" y="{base_y - h:.1f}" width="{bar_w}" height="{h:.1f}" rx="2" fill="{BAR}" '
            f'data-bucket="{_x(b.label)}" data-min="{b.low}" '
            f'data-max="{"" if b.high is None else b.high}" data-count="{b.count}"/>'
            f'<text x="{cx:.0f}" y="{base_y - h - 5:.0f}" text-anchor="middle" {_ink(INK)}>{b.count}</text>'
            f'<text x="{cx:.0f}" y="{base_y + 18}" text-anchor="middle" {_ink(MUTED, MUTED_VAR)}>'
            f"{_x(b.label)}</text></g>"
        )
    title = f"{kb.topics[topic].title if topic in kb.topics else topic}：待锚入条目的天数分布"
    return _svg("backlog-age", topic, width, height, title, body)


# --------------------------------------------------------------------------- pages


def _figure(svg: str) -> str:
    # a raw HTML block (no blank line inside): Markdown leaves the SVG as it is
    return f'<div class="kb-chart-box" style="overflow-x:auto">\n{svg}\n</div>'


def _data_table(headers: list[str], rows: list[list[str]], summary: str) -> str:
    """The chart's numbers as a table, folded under it (readable without hovering, by screen readers too)."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return (
        f'<details class="kb-chart-data" markdown>\n<summary>{summary}</summary>\n\n'
        + "\n".join(lines)
        + "\n\n</details>"
    )


def increments_table(kb: KnowledgeBase, topic: str) -> str:
    table = increments_by_week(kb, topic)
    rows = [
        [md(section_label(kb, topic, sid))] + [str(table.count(sid, w)) for w in table.weeks] for sid in table.sections
    ]
    return _data_table(["节"] + [f"{w.isoformat()} 起" for w in table.weeks], rows, "数据表：每周各节的主增量")


def ages_table(kb: KnowledgeBase, topic: str) -> str:
    rows = [
        [
            md(b.label),
            str(b.count),
            "、".join(md(kb.papers[it.paper].short) if it.paper in kb.papers else md(it.paper) for it in b.items)
            or "—",
        ]
        for b in backlog_ages(kb, topic)
    ]
    return _data_table(["天数", "条数", "条目"], rows, "数据表：待锚入条目的天数分布")


def _age_part(kb: KnowledgeBase, topic: str, heading: str) -> list[str]:
    svg = backlog_age_svg(kb, topic)
    day = as_of(kb, topic)
    out = [heading]
    if svg is None:
        out.append("没有待锚入的条目。")
        return out
    total = len(pending_items(kb, topic))
    out.append(
        f"截至 {day.isoformat() if day else '—'}（该主题最新一期简报的日期）共 {total} 条仍为 NET-new 或待锚入；"
        "天数从任何一期简报第一次提到它的那天算起。"
    )
    out.append(_figure(svg))
    out.append(ages_table(kb, topic))
    return out


def page(kb: KnowledgeBase, feeds: list[FeedPaths] | None = None) -> str:
    """The "统计" page: per topic, increments per section per week and the backlog's ages."""
    out = [
        "# 统计",
        "下面的图表在构建网站时由数据生成（静态 SVG，不需要脚本，离线可看）；数字与简报页、待办页使用同一套计算。"
        "把鼠标停在格子或柱子上可以看到明细，每张图下面也有展开即见的数据表。",
    ]
    for topic in kb.topics:
        title = md(kb.topics[topic].title)
        out.append(f"## {title} {{ #topic-{topic} }}")
        out.append(f"### 每周各节的主增量 {{ #increments-{topic} }}")
        svg = increments_svg(kb, topic)
        if svg is None:
            out.append("还没有主增量。")
        else:
            out.append("每格是该周（周一起）各期简报中归入该节的主增量条数；一条增量归入几个节，就在每个节各计一次。")
            out.append(_figure(svg))
            out.append(increments_table(kb, topic))
        out.extend(_age_part(kb, topic, f"### 待锚入条目的天数 {{ #backlog-age-{topic} }}"))
        out.append(f"逐条明细见[待办](backlog.md#pending-{topic})。")
    if feeds:
        out.append("## 订阅 { #feeds }")
        out.append("每个主题的简报都有 Atom 与 RSS 订阅源，每期简报一条：计算出的计数、本棒性质和各条主增量的标题。")
        out.append("\n".join(f"- {md(f.title)}：[Atom]({f.atom}) · [RSS]({f.rss})" for f in feeds))
    return "\n\n".join(out) + "\n"


def backlog_section(kb: KnowledgeBase) -> str:
    """Appended to the backlog page: the age chart of each topic."""
    out = []
    for topic in kb.topics:
        out.extend(_age_part(kb, topic, f"## {md(kb.topics[topic].title)}：待锚入条目的天数 {{ #age-{topic} }}"))
    return ("\n\n" + "\n\n".join(out) + "\n") if out else ""
