"""Charts as static SVG, made at build time (pure: no script, no CDN, works offline).

* :func:`increments_svg` — a heat table: one cell per (section, week) with the
  number of main increments that name the section in the topic's briefs of
  that week (weeks start on Monday; an increment naming two sections counts in
  each; in a week with a reconstructed brief that may list fewer, a lower bound: ≥n).
* :func:`backlog_age_svg` — bars: items still NET-new or pending anchoring
  (:func:`kb.backlog.pending_items`) by age in days, in fixed buckets.
* :func:`growth_svg` — a step line: the papers anchored in one section so far, day by
  day (the section timelines, :mod:`kb.render.timeline`).

Every cell and bar carries its value in ``data-*`` attributes, and every piece
of text (section titles, paper names) is XML-escaped.  :func:`page` lays out
the generated "统计" page; :func:`backlog_section` is appended to the backlog page.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass
from xml.sax.saxutils import escape

from kb.knowledge.backlog import PendingItem, as_of, pending_items
from kb.knowledge.index import KnowledgeBase
from kb.knowledge.week import increments_known
from kb.messages import UI
from kb.render.checks import at_least
from kb.render.feeds import LENGTH as FEED_LENGTH
from kb.render.feeds import FeedPaths
from kb.render.html import Html, blocks, details, div, esc, heading, link, p, t_html, table, ul
from kb.render.links import Linker, section_label

PAGE = "stats.md"
TITLE_ANCHOR = "_1"  # what the toc extension made of the title "统计" (nothing ASCII to slug)
FONT = 12
INK = "#1f2937"
MUTED = "#6b7280"
MUTED_VAR = "--md-default-fg-color--light"
EMPTY = "#eef0f7"
BAR = "#3f51b5"


def _days(low: int, high: int | None, short: bool = False) -> str:
    """An age bucket's label: "2–3 天", "90 天以上"; ``short``, under its bar, without the unit (the
    axis says it once): "2–3", "90+"."""
    if high is None:
        return UI["charts.axis_more" if short else "charts.days_more"].format(n=low - 1)
    if low == high:
        return str(low) if short else UI["charts.days"].format(n=low)
    return UI["charts.axis_range" if short else "charts.days_range"].format(low=low, high=high)


# (lowest age, highest age or None for "and more"), and with each its label
_AGES: tuple[tuple[int, int | None], ...] = ((0, 0), (1, 1), (2, 3), (4, 7), (8, 14), (15, 30), (31, 90), (91, None))
AGE_BUCKETS: tuple[tuple[int, int | None, str], ...] = tuple((low, high, _days(low, high)) for low, high in _AGES)


def _ink(color: str, var: str = "--md-default-fg-color") -> str:
    """A text colour that follows the theme (Material's light and dark schemes), ``color`` elsewhere."""
    return f'fill="{color}" style="fill:var({var}, {color})"'


def _x(text: object) -> str:
    """Escape for XML text and double-quoted attributes."""
    return escape(str(text), {'"': "&quot;"})


def _width(text: str, size: int = FONT) -> float:
    """Rough rendered width: CJK and full-width characters are about 1em, the rest about 0.6em."""
    return sum(1.0 if ord(c) >= 0x2E80 else 0.6 for c in text) * size


def _svg(
    kind: str, topic: str, width: float, height: float, title: str, body: list[str], scale: bool = True, key: str = ""
) -> str:
    """``scale``: shrink to the column's width; otherwise keep the natural size (the box scrolls).
    ``key``: what tells this chart from the page's other charts of its kind and topic (a section)."""
    ident = f"kb-chart-{kind}-{topic}" + (f"-{key}" if key else "")
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
    partial: frozenset[dt.date] = frozenset()  # weeks with a reconstructed brief: its counts are lower bounds

    def count(self, section: str, week: dt.date) -> int:
        return self.counts.get((section, week), 0)

    def shown(self, section: str, week: dt.date) -> str:
        """A cell's count as written: a lower bound (≥n, or unknown for 0) in a partial week."""
        return at_least(self.count(section, week), week in self.partial)


def increments_by_week(kb: KnowledgeBase, topic: str) -> WeekTable:
    keys = kb.by_topic.get(topic, [])
    counts: Counter[tuple[str, dt.date]] = Counter()
    partial = frozenset(monday(kb.briefs[key].date) for key in keys if not increments_known(kb, key))
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
    return WeekTable(sections, weeks, dict(counts), partial)


def _luminance(color: str) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def _contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _text_on(fill: str) -> str:
    """White or dark ink on a cell of colour ``fill``, whichever contrasts more (WCAG AA: 4.5:1)."""
    return "#ffffff" if _contrast("#ffffff", fill) >= _contrast(INK, fill) else INK


def _mix(t: float) -> str:
    lo, hi = (0xE8, 0xEA, 0xF6), (0x3F, 0x51, 0xB5)  # light indigo -> indigo
    return "#" + "".join(f"{round(a + (b - a) * t):02x}" for a, b in zip(lo, hi, strict=True))


def _bands() -> tuple[float, float]:
    """The lightest tone dark ink is readable on, and the lightest white text is (4.5:1)."""
    steps = [k / 200 for k in range(50, 201)]
    ink = max(t for t in steps if _contrast(INK, _mix(t)) >= 4.5)
    white = min(t for t in steps if _contrast("#ffffff", _mix(t)) >= 4.5)
    return ink, white


INK_TO, WHITE_FROM = _bands()


def _shade(value: int, top: int) -> str:
    """The cell's colour, darker for more: the lower half of the counts in light tones (dark
    text), the upper half in dark ones (white text); no middle tone on which neither reads."""
    if value <= 0 or top <= 0:
        return EMPTY
    u = value / top
    if u <= 0.5:
        return _mix(0.25 + (INK_TO - 0.25) * u / 0.5)
    return _mix(WHITE_FROM + (1 - WHITE_FROM) * (u - 0.5) / 0.5)


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
            n, shown = table.count(sid, week), table.shown(sid, week)
            x = left + j * cell_w
            tip = UI["charts.cell_tip"].format(section=label, week=week.isoformat(), n=shown)
            text = (
                ""
                if n == 0
                else (
                    f'<text x="{x + cell_w / 2:.0f}" y="{y + cell_h / 2 + 4:.0f}" text-anchor="middle" '
                    f'fill="{_text_on(_shade(n, peak))}">{_x(shown)}</text>'
                )
            )
            body.append(
                f'<g class="kb-cell"><title>{_x(tip)}</title>'
                f'<rect x="{x + gap / 2:.0f}" y="{y + gap / 2:.0f}" '
                f'width="{cell_w - gap}" height="{cell_h - gap}" rx="3" '
                f'fill="{_shade(n, peak)}" data-section="{_x(sid)}" data-week="{week.isoformat()}" data-count="{n}"/>'
                f"{text}</g>"
            )
    title = UI["charts.increments_title"].format(topic=kb.topic_title(topic))
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
    # 40 a bar (the widest label, "15–30", is about 36 at this font size) and the unit before the first:
    # eight buckets are 356 wide, a phone's column, so the text is not scaled down there
    bar_w, slot, plot_h, top, bottom, lead = 28, 40, 120, 20, 28, 28
    width = len(buckets) * slot + lead + 8
    height = top + plot_h + bottom
    peak = max(b.count for b in buckets)
    base_y = top + plot_h
    body = [
        f'<line x1="8" y1="{base_y}" x2="{width - 8}" y2="{base_y}" stroke="{MUTED}" stroke-width="1"/>',
        f'<text x="8" y="{base_y + 18}" {_ink(MUTED, MUTED_VAR)}>{_x(UI["charts.axis_unit"])}</text>',
    ]
    for i, b in enumerate(buckets):
        cx = lead + i * slot + slot / 2
        h = plot_h * b.count / peak if peak else 0
        names = "、".join(kb.papers[it.paper].short if it.paper in kb.papers else it.paper for it in b.items)
        tip = UI["charts.bar_tip"].format(bucket=b.label, n=b.count) + (
            UI["charts.bar_names"].format(names=names) if names else ""
        )
        body.append(
            f'<g class="kb-bar"><title>{_x(tip)}</title>'
            f'<rect x="{cx - bar_w / 2:.0f}" y="{base_y - h:.1f}" width="{bar_w}" height="{h:.1f}" rx="2" fill="{BAR}" '
            f'data-bucket="{_x(b.label)}" data-min="{b.low}" '
            f'data-max="{"" if b.high is None else b.high}" data-count="{b.count}"/>'
            f'<text x="{cx:.0f}" y="{base_y - h - 5:.0f}" text-anchor="middle" {_ink(INK)}>{b.count}</text>'
            f'<text x="{cx:.0f}" y="{base_y + 18}" text-anchor="middle" {_ink(MUTED, MUTED_VAR)}>'
            f"{_x(_days(b.low, b.high, short=True))}</text></g>"
        )
    title = UI["charts.age_title"].format(topic=kb.topic_title(topic))
    return _svg("backlog-age", topic, width, height, title, body)


# --------------------------------------------------------------------------- a section's growth

LINE_VAR = "--md-typeset-a-color"  # the links' colour: Material lightens it in the dark scheme


def growth_svg(topic: str, section: str, title: str, steps: list[tuple[dt.date, int]], end: dt.date) -> str:
    """A section's growth: ``steps`` (each day something was anchored there, oldest first, with the
    papers anchored there by then) as a step line from the first day to ``end``; a point per day."""
    first, top_n = steps[0][0], max(n for _, n in steps) or 1
    end = max(end, steps[-1][0])
    span = max((end - first).days, 1)
    width, height, left, right, top, plot_h = 320, 110, 28, 12, 10, 70
    base = top + plot_h

    def x(day: dt.date) -> float:
        return left + (width - left - right) * (day - first).days / span

    def y(n: int) -> float:
        return base - plot_h * n / top_n

    path = f"M{x(first):.1f},{base}" + "".join(f"H{x(d):.1f}V{y(n):.1f}" for d, n in steps) + f"H{x(end):.1f}"
    line = f'stroke="{BAR}" style="stroke:var({LINE_VAR}, {BAR})"'
    body = [
        f'<line x1="{left}" y1="{base}" x2="{width - right}" y2="{base}" stroke="{MUTED}" stroke-width="1"/>',
        f'<text x="{left - 6}" y="{base}" text-anchor="end" {_ink(MUTED, MUTED_VAR)}>0</text>',
        f'<text x="{left - 6}" y="{top + 4}" text-anchor="end" {_ink(INK)}>{top_n}</text>',
        f'<text x="{left}" y="{base + 18}" {_ink(MUTED, MUTED_VAR)}>{first.isoformat()}</text>',
        f'<path d="{path}" fill="none" stroke-width="2" {line}/>',
    ]
    if end != first:
        at = f'x="{width - right}" y="{base + 18}" text-anchor="end"'
        body.append(f"<text {at} {_ink(MUTED, MUTED_VAR)}>{end.isoformat()}</text>")
    for day, n in steps:
        tip = UI["timeline.point_tip"].format(date=day.isoformat(), n=n)
        body.append(
            f'<g class="kb-point"><title>{_x(tip)}</title><circle cx="{x(day):.1f}" cy="{y(n):.1f}" r="4" '
            f'fill="{BAR}" style="fill:var({LINE_VAR}, {BAR})" data-date="{day.isoformat()}" data-count="{n}"/></g>'
        )
    return _svg("growth", topic, width, height, title, body, key=section)


# --------------------------------------------------------------------------- pages


def _figure(svg: str) -> Html:
    return div(svg, "kb-chart-box", style="overflow-x:auto")


def _data_table(headers: list[str], rows: list[list[Html]], summary: str) -> Html:
    """The chart's numbers as a table, folded under it (readable without hovering, by screen readers too)."""
    return details(esc(summary), table([esc(h) for h in headers], rows), "kb-chart-data")


def increments_table(kb: KnowledgeBase, topic: str) -> Html:
    weeks = increments_by_week(kb, topic)
    rows = [
        [esc(section_label(kb, topic, sid))] + [esc(weeks.shown(sid, w)) for w in weeks.weeks] for sid in weeks.sections
    ]
    return _data_table(
        [UI["charts.th_section"]] + [UI["charts.th_week"].format(week=w.isoformat()) for w in weeks.weeks],
        rows,
        UI["charts.increments_table"],
    )


def ages_table(kb: KnowledgeBase, topic: str) -> Html:
    rows = [
        [
            esc(b.label),
            str(b.count),
            "、".join(esc(kb.papers[it.paper].short) if it.paper in kb.papers else esc(it.paper) for it in b.items)
            or "—",
        ]
        for b in backlog_ages(kb, topic)
    ]
    return _data_table(
        [UI["charts.th_days"], UI["charts.th_count"], UI["charts.th_items"]], rows, UI["charts.age_table"]
    )


def _age_part(kb: KnowledgeBase, topic: str, head: Html) -> list[Html]:
    svg = backlog_age_svg(kb, topic)
    day = as_of(kb, topic)
    out = [head]
    if svg is None:
        out.append(p(esc(UI["charts.no_pending"])))
        return out
    total = len(pending_items(kb, topic))
    out.append(p(esc(UI["charts.age_intro"].format(date=day.isoformat() if day else "—", n=total))))
    out.append(_figure(svg))
    out.append(ages_table(kb, topic))
    return out


def page(kb: KnowledgeBase, feeds: list[FeedPaths] | None = None) -> Html:
    """The "统计" page: per topic, increments per section per week and the backlog's ages."""
    linker = Linker(PAGE)
    out = [heading(1, esc(UI["charts.title"]), TITLE_ANCHOR), p(esc(UI["charts.intro"]))]
    for topic in kb.topics:
        out.append(heading(2, esc(kb.topics[topic].title), f"topic-{topic}"))
        out.append(heading(3, esc(UI["charts.increments_heading"]), f"increments-{topic}"))
        svg = increments_svg(kb, topic)
        if svg is None:
            out.append(p(esc(UI["charts.no_increments"])))
        else:
            out.append(p(esc(UI["charts.increments_intro"])))
            if increments_by_week(kb, topic).partial:
                out.append(p(esc(UI["charts.increments_partial"])))
            out.append(_figure(svg))
            out.append(increments_table(kb, topic))
        out.extend(_age_part(kb, topic, heading(3, esc(UI["charts.age_heading"]), f"backlog-age-{topic}")))
        details_link = linker.href("backlog.md", f"pending-{topic}")
        out.append(p(t_html("charts.details", link=link(UI["charts.details_link"], details_link))))
    if feeds:
        out.append(heading(2, esc(UI["charts.feeds"]), "feeds"))
        out.append(p(t_html("charts.feeds_intro", n=str(FEED_LENGTH))))
        out.append(
            ul(
                f"{esc(f.title)}：{link('Atom', linker.href(f.atom))} · {link('RSS', linker.href(f.rss))}"
                for f in feeds
            )
        )
    return blocks(*out) + "\n"


def backlog_section(kb: KnowledgeBase) -> Html:
    """Appended to the backlog page: the age chart of each topic."""
    out = []
    for topic in kb.topics:
        title = f"{esc(kb.topics[topic].title)}：{esc(UI['charts.age_heading'])}"
        out.extend(_age_part(kb, topic, heading(2, title, f"age-{topic}")))
    return blocks(*out) + "\n" if out else ""
