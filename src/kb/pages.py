"""Hand-written pages: which may hold template code, and a check for the rest.

Only pages named in the reviewed list ``hooks/template_pages.txt`` may contain
Jinja syntax or opt into macro rendering with ``render_macros``.  Any other
page that does is reported with its line and column, so a pull request cannot
slip template code into the build through a Markdown file.
"""

from __future__ import annotations

import re
from pathlib import Path

from .diagnostics import Diagnostic
from .yamlstrict import load_text

TEMPLATE_LIST = Path("hooks") / "template_pages.txt"  # relative to the project root (where kb and mkdocs run)
_TEMPLATE = re.compile(r"\{\{|\{%|\{#|\}\}|%\}")
_RENDER = re.compile(r"^render_macros\s*:", re.MULTILINE)


def template_pages(list_file: Path | None = None) -> frozenset[str]:
    path = list_file or TEMPLATE_LIST
    if not path.is_file():
        return frozenset()
    lines = (ln.split("#", 1)[0].strip() for ln in path.read_text("utf-8").splitlines())
    return frozenset(ln for ln in lines if ln)


def _front_matter_end(text: str) -> int:
    if not text.startswith("---\n"):
        return 0
    end = text.find("\n---\n", 4)
    return end + 5 if end >= 0 else 0


def _where(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def front_matter_diagnostics(text: str, shown: str) -> list[Diagnostic]:
    """Front matter of a page, read with the same strict rules as data (no aliases, tags,
    duplicate keys; size and depth limits), before MkDocs' own YAML reader sees it."""
    end = _front_matter_end(text)
    if not end:
        return []
    located, diags = load_text(text[4:end - 4], shown)
    return [Diagnostic(d.path, d.line + 1, d.col, d.message, d.key, d.severity, d.code) for d in diags]


def check_page(rel: str, text: str, shown: str, allowed: frozenset[str]) -> list[Diagnostic]:
    fm = front_matter_diagnostics(text, shown)
    if rel in allowed or fm:
        return fm
    out = []
    fm_end = _front_matter_end(text)
    for m in _RENDER.finditer(text, 0, fm_end):
        line, col = _where(text, m.start())
        out.append(Diagnostic(shown, line, col, "render_macros is only allowed on pages listed in hooks/template_pages.txt",
                              key="render_macros", code="template"))
    for m in _TEMPLATE.finditer(text):
        line, col = _where(text, m.start())
        out.append(Diagnostic(shown, line, col,
                              f"template syntax '{m.group()}' in a page that is not in hooks/template_pages.txt; "
                              "pages are not templates (write it as text, e.g. in a code span, or ask for review)",
                              code="template"))
        break  # one per page is enough to act on
    return out


def check_pages(docs_dir: Path, list_file: Path | None = None) -> list[Diagnostic]:
    allowed = template_pages(list_file)
    out = []
    for path in sorted(docs_dir.rglob("*.md")):
        rel = path.relative_to(docs_dir).as_posix()
        try:
            text = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            out.append(Diagnostic(str(path), 1, 1, f"cannot read page as UTF-8 text: {exc}", code="io"))
            continue
        out.extend(check_page(rel, text, str(path), allowed))
    return out


_MACRO_REF = re.compile(r"""\b(section|section_heading|anchored_papers|brief)\(\s*["']([^"']+)["']""")


def check_macro_refs(docs_dir: Path, kb, list_file: Path | None = None) -> list[Diagnostic]:
    """Template pages name sections and briefs in macro calls; each must exist, or the
    build would stop on a macro error.  Located like any data error."""
    out = []
    for rel in sorted(template_pages(list_file)):
        path = docs_dir / rel
        if not path.is_file():
            continue
        text = path.read_text("utf-8")
        for m in _MACRO_REF.finditer(text):
            name, ref = m.groups()
            known = ref in kb.briefs if name == "brief" else kb.find_section(ref) is not None
            if not known:
                line, col = _where(text, m.start(2))
                what = "brief" if name == "brief" else "section"
                out.append(Diagnostic(str(path), line, col, f"{name}() names unknown {what} '{ref}'", key=name, code="macro-ref"))
    return out
