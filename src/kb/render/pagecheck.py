"""``kb validate`` on hand-written pages: the data rules of :mod:`kb.data.pages` (files, front
matter, template syntax), then what the build does to each page, checked before it runs: what
the sanitizer would strip (:func:`kb.render.sanitize.page_findings`), where a template page's
macro calls would land (:func:`kb.render.placement.page_diagnostics`) and the calls' arguments
(:func:`kb.render.macros.diagnostics`).  The build runs the same checks on the pages it converts."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from kb.data import pages
from kb.data.diagnostics import Diagnostic
from kb.data.frontmatter import body_start
from kb.render import macros

if TYPE_CHECKING:
    from kb.knowledge.index import KnowledgeBase


def check_pages(docs_dir: Path) -> list[Diagnostic]:
    """Every file under ``docs_dir`` (:func:`kb.data.pages.check_pages`), and what the build would
    change or refuse in each page's HTML (located warnings and errors)."""
    mkdocs_yml = docs_dir.parent / "mkdocs.yml"

    def built(rel: str, text: str, shown: str, template: bool) -> list[Diagnostic]:
        from kb.render.placement import page_diagnostics
        from kb.render.sanitize import page_findings

        start = body_start(text)
        out = page_findings(text, start, shown, mkdocs_yml)
        if template:  # each macro call where text goes, as the build checks it
            calls = pages.template_diagnostics(text, shown, macros.MACROS)[0]
            out.extend(page_diagnostics(text, start, shown, calls, mkdocs_yml))
        return out

    return pages.check_pages(docs_dir, macros.MACROS, built)


def check_macro_refs(docs_dir: Path, kb: KnowledgeBase) -> list[Diagnostic]:
    """Template pages' macro calls with arguments the build would refuse (a call without a topic
    uses the topic whose living document the page is, else the first topic, as the build does
    when mkdocs.yml names none)."""
    first = next(iter(kb.topics), "")
    out = []
    for shown, text, calls in pages.template_calls(docs_dir, macros.MACROS):
        page = Path(shown).relative_to(docs_dir).as_posix()
        out.extend(macros.diagnostics(text, shown, calls, kb, macros.page_topic(kb, page, first)))
    return out
