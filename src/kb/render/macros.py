"""The macros of template pages: the whole vocabulary a template page may use.

A template page (listed in ``hooks/template_pages.txt``, or a generated brief page) may
contain calls of these functions with literal arguments, e.g.
``{{ section("s1-3-kv-cache") }}``; :mod:`kb.data.template` finds the calls with a linear
scanner and the ``kb`` plugin puts each call's output, HTML, in its place after the page's
Markdown step (the output itself never goes through Markdown).  No template engine runs on
contributed text.  Every macro is a one-line call into a renderer (which escapes data);
the knowledge base and the demo blocks come in the :class:`Context` the plugin makes, a macro
never loads anything itself.

A call's arguments are checked by :func:`problems` (types, ranges, that the topic, section
or brief named exists), the one check ``kb validate`` and the build both run: a call that
passes it does not fail in the build.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kb.data.diagnostics import Diagnostic, line_col
from kb.data.template import Call, Literal

if TYPE_CHECKING:
    from kb.knowledge.index import KnowledgeBase


def _no_demos(section_id: str) -> str:
    return ""


@dataclass(frozen=True)
class Context:
    kb: KnowledgeBase
    page: str  # src uri of the page being built
    default_topic: str
    demos: Callable[[str], str] = _no_demos  # section id -> the demo blocks shown with it on this page

    def topic(self, name: str | None) -> str:
        return name or page_topic(self.kb, self.page, self.default_topic)


def page_topic(kb: KnowledgeBase, page: str, fallback: str) -> str:
    """The topic of a call that names none on ``page``: the topic whose living document the page is
    (a second topic's page needs no topic argument in its calls), else ``fallback`` (the site's
    default topic)."""
    return next((tid for tid, topic in kb.topics.items() if topic.page == page), fallback)


Macro = Callable[..., str]
MACROS: dict[str, Macro] = {}


def macro(fn: Macro) -> Macro:
    MACROS[fn.__name__] = fn
    return fn


@macro
def brief(ctx: Context, key: str) -> str:
    """The whole page of one brief, e.g. ``brief("inference/2026-09-03-e1")``."""
    from kb.render import brief as brief_render

    return brief_render.page(ctx.kb, key, ctx.page)


@macro
def section(ctx: Context, section_id: str, topic_id: str | None = None) -> str:
    """Heading with a stable anchor, summary, anchored papers and pending items of a section."""
    from kb.render import living

    return living.section(ctx.kb, ctx.topic(topic_id), section_id, ctx.page, demos=ctx.demos(section_id))


@macro
def section_heading(ctx: Context, section_id: str, topic_id: str | None = None) -> str:
    from kb.render import living

    return living.heading(ctx.kb, ctx.topic(topic_id), section_id, ctx.page)


@macro
def anchored_papers(ctx: Context, section_id: str | None = None, topic_id: str | None = None) -> str:
    from kb.render import living

    return living.papers_in(ctx.kb, ctx.topic(topic_id), section_id, ctx.page)


@macro
def unsectioned(ctx: Context, topic_id: str | None = None) -> str:
    """Papers anchored in the document without a recorded section."""
    from kb.render import living

    return living.unsectioned(ctx.kb, ctx.topic(topic_id), ctx.page)


@macro
def update_labels(ctx: Context, topic_id: str | None = None) -> str:
    from kb.render import living

    return living.update_labels(ctx.kb, ctx.topic(topic_id), ctx.page)


@macro
def citation_count(ctx: Context, topic_id: str | None = None) -> str:
    from kb.render import living

    return living.citation_count(ctx.kb, ctx.topic(topic_id))


@macro
def section_outline(ctx: Context, topic_id: str | None = None) -> str:
    from kb.render import living

    return living.toc(ctx.kb, ctx.topic(topic_id), ctx.page)


@macro
def latest_briefs(ctx: Context, limit: int = 5) -> str:
    from kb.render import indexes

    return indexes.latest_briefs(ctx.kb, ctx.page, limit)


@macro
def topics(ctx: Context) -> str:
    """Every topic: its living document, its newest brief (date and headline) and its own pages."""
    from kb.render import indexes

    return indexes.topics(ctx.kb, ctx.page)


@macro
def latest_weeks(ctx: Context, limit: int = 1) -> str:
    """The latest weeks' news (the week in one page), with links to every week and the weeks' feed."""
    from kb.render import weeks

    return weeks.latest(ctx.kb, ctx.page, limit)


MAX_LIMIT = 100  # latest_briefs(limit), latest_weeks(limit)


def problems(kb: KnowledgeBase, default_topic: str, call: Call) -> list[str]:
    """Why the arguments of ``call`` (of a registered macro) would fail: a wrong type, a number out
    of range, a topic, section or brief the knowledge base does not have; [] when it would not.
    Parameters are checked by name: ``topic_id``, ``section_id``, ``key``, ``limit``."""
    params = inspect.signature(MACROS[call.name]).parameters
    try:
        bound = inspect.Signature(list(params.values())[1:]).bind(*call.args, **dict(call.kwargs))
    except TypeError as exc:
        return [str(exc)]
    bound.apply_defaults()
    values = bound.arguments
    out = []
    for name, value in values.items():
        optional = params[name].default is None
        if value is None and optional:
            continue
        if name == "limit":
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_LIMIT:
                out.append(f"limit must be an integer from 1 to {MAX_LIMIT}, not {value!r}")
        elif not isinstance(value, str):
            out.append(f"{name} must be a string, not {value!r}")
        elif name == "topic_id" and value not in kb.topics:
            out.append(f"unknown topic '{value}'; known: {', '.join(kb.topics) or 'none'}")
        elif name == "key" and value not in kb.briefs:
            out.append(f"unknown brief '{value}' (a brief key is topic/file name, e.g. inference/2026-09-03-e1)")
    section_id, topic = values.get("section_id"), values.get("topic_id") or default_topic
    if isinstance(section_id, str) and topic in kb.topics and kb.section(topic, section_id) is None:
        out.append(f"unknown section '{section_id}' in topic '{topic}'")
    return out


def call(ctx: Context, name: str, args: tuple[Literal, ...] = (), kwargs: tuple[tuple[str, Literal], ...] = ()) -> str:
    """The output of one call of a registered macro (``name`` must be one) on the page of ``ctx``;
    arguments that :func:`problems` refuses raise ValueError."""
    found = problems(ctx.kb, page_topic(ctx.kb, ctx.page, ctx.default_topic), Call(0, 0, name, args, kwargs))
    if found:
        raise ValueError("; ".join(found))
    return MACROS[name](ctx, *args, **dict(kwargs))


def diagnostics(text: str, shown: str, calls: list[Call], kb: KnowledgeBase, default_topic: str) -> list[Diagnostic]:
    """Macro calls whose arguments the build would refuse (:func:`problems`: types, ranges, known
    topics, sections and briefs), located at the call: validate and build run this."""
    out = []
    for c in calls:
        for why in problems(kb, default_topic, c):
            line, col = line_col(text, c.start)
            out.append(Diagnostic(shown, line, col, f"{c.render()}: {why}", key=c.name, code="macro-argument"))
    return out
