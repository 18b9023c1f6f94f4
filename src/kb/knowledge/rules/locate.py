"""A rule's diagnostic, located at the value a key path names in a record's file."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.data.diagnostics import Diagnostic, KeyPath, Severity, format_keypath

if TYPE_CHECKING:
    from kb.knowledge.index import KnowledgeBase


def diag(
    kb: KnowledgeBase,
    kind: str,
    key: str,
    keypath: KeyPath,
    message: str,
    code: str,
    severity: Severity = Severity.ERROR,
) -> Diagnostic:
    src = kb.sources[(kind, key)]
    line, col = src.located.value_where(keypath)
    return Diagnostic(src.path, line, col, message, key=format_keypath(keypath), severity=severity, code=code)


def path_of(kb: KnowledgeBase, kind: str, key: str) -> str:
    src = kb.sources.get((kind, key))
    return src.path if src else key
