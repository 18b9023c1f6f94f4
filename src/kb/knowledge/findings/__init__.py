"""Findings: where what a record states differs from what the knowledge base
computes, or where the record disagrees with itself or with the history.

A finding is not an error: the author's words stay on the page as written and
the finding stands beside them.  Each has a stable ``code`` (unique within its
file) so the file can acknowledge it (``acknowledged: [{finding: code, reason}]``):
an acknowledged finding is still shown but no longer fails ``kb validate
--strict``.  Messages here are for contributors (English); the site shows the
same finding in Chinese from the renderers' message catalogue, using ``params``.

Modules: :mod:`.base` the :class:`Finding` record; :mod:`.brief` a brief's figures, source
groups, citable list, categories and window against what is computed; :mod:`.history` a
brief's carried-over items, statuses and origins against the history; :mod:`.records` paper
files and topics' update logs.
"""

from __future__ import annotations

from kb.knowledge.finding import Finding
from kb.knowledge.findings.brief import brief_findings
from kb.knowledge.findings.records import paper_findings, topic_findings

__all__ = ["Finding", "brief_findings", "paper_findings", "topic_findings"]
