"""Cross-record rules: references, duplicates and history that no single file can
check.  Every problem is an error located at the value that causes it, with the
fix in the message; :func:`check` collects them all."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.data.diagnostics import Diagnostic, KeyPath
from kb.data.models import Section
from kb.knowledge.rules import history, papers, refs, textids, windows

if TYPE_CHECKING:
    from kb.knowledge.index import KnowledgeBase


def check(kb: KnowledgeBase, dup_sections: list[tuple[str, Section, KeyPath]]) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    out.extend(refs.topics(kb, dup_sections))
    out.extend(papers.check(kb))
    out.extend(refs.demos(kb))
    out.extend(refs.briefs(kb))
    out.extend(refs.unchecked_briefs(kb))
    out.extend(windows.check(kb))
    out.extend(history.check(kb))
    out.extend(textids.check(kb))
    return out
