"""The macros of template pages: the whole vocabulary a template page may use.

A template page (listed in ``hooks/template_pages.txt``, or a generated brief page) may
contain calls of these functions with literal arguments, e.g.
``{{ section("s1-3-kv-cache") }}``; :mod:`kb.data.template` finds the calls with a linear
scanner and the ``kb`` plugin puts each call's output, HTML, in its place after the page's
Markdown step (the output itself never goes through Markdown).  No template engine runs on
contributed text.  Every macro is a one-line call into a renderer (which escapes data);
the site is the ``kb`` plugin's, a macro never loads anything itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kb.data.template import Literal
from kb.site.layout import Site, demos_html


@dataclass(frozen=True)
class Context:
    site: Site
    page: str  # src uri of the page being built

    def topic(self, name: str | None) -> str:
        return name or self.site.default_topic


Macro = Callable[..., str]
MACROS: dict[str, Macro] = {}


def macro(fn: Macro) -> Macro:
    MACROS[fn.__name__] = fn
    return fn


@macro
def brief(ctx: Context, key: str) -> str:
    """The whole page of one brief, e.g. ``brief("inference/2026-09-03-e1")``."""
    from kb.render import brief as brief_render

    if key not in ctx.site.kb.briefs:
        raise KeyError(f"unknown brief {key!r}")
    return brief_render.page(ctx.site.kb, key, ctx.page)


@macro
def section(ctx: Context, section_id: str, topic_id: str | None = None) -> str:
    """Heading with a stable anchor, summary, anchored papers and pending items of a section."""
    from kb.render import living

    return living.section(
        ctx.site.kb, ctx.topic(topic_id), section_id, ctx.page, demos=demos_html(ctx.site, ctx.page, section=section_id)
    )


@macro
def section_heading(ctx: Context, section_id: str, topic_id: str | None = None) -> str:
    from kb.render import living

    return living.heading(ctx.site.kb, ctx.topic(topic_id), section_id)


@macro
def anchored_papers(ctx: Context, section_id: str | None = None, topic_id: str | None = None) -> str:
    from kb.render import living

    return living.papers_in(ctx.site.kb, ctx.topic(topic_id), section_id, ctx.page)


@macro
def unsectioned(ctx: Context, topic_id: str | None = None) -> str:
    """Papers anchored in the document without a recorded section."""
    from kb.render import living

    return living.unsectioned(ctx.site.kb, ctx.topic(topic_id), ctx.page)


@macro
def update_labels(ctx: Context, topic_id: str | None = None) -> str:
    from kb.render import living

    return living.update_labels(ctx.site.kb, ctx.topic(topic_id), ctx.page)


@macro
def citation_count(ctx: Context, topic_id: str | None = None) -> str:
    from kb.render import living

    return living.citation_count(ctx.site.kb, ctx.topic(topic_id))


@macro
def section_outline(ctx: Context, topic_id: str | None = None) -> str:
    from kb.render import living

    return living.toc(ctx.site.kb, ctx.topic(topic_id), ctx.page)


@macro
def latest_briefs(ctx: Context, limit: int = 5) -> str:
    from kb.render import indexes

    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 100:
        raise ValueError(f"latest_briefs(): limit must be an integer from 1 to 100, not {limit!r}")
    return indexes.latest_briefs(ctx.site.kb, ctx.page, limit)


def call(
    site: Site, page: str, name: str, args: tuple[Literal, ...] = (), kwargs: tuple[tuple[str, Literal], ...] = ()
) -> str:
    """The output of one call of a registered macro (``name`` must be one)."""
    return MACROS[name](Context(site, page), *args, **dict(kwargs))
