"""Hand-written pages: which may hold template code, and a check for the rest.

Only pages named in the reviewed list ``hooks/template_pages.txt`` may contain
Jinja syntax or opt into macro rendering with ``render_macros``.  Any other
page that does is reported with its line and column, so a pull request cannot
slip template code into the build through a Markdown file.
"""

from __future__ import annotations

import re
from pathlib import Path

from kb.data.diagnostics import Diagnostic
from kb.data.yamlstrict import Limits, decode, load_text

TEMPLATE_LIST = Path("hooks") / "template_pages.txt"  # relative to the project root (where kb and mkdocs run)
_TEMPLATE = re.compile(r"\{\{|\{%|\{#|\}\}|%\}")
_RENDER = re.compile(r"^render_macros\s*:", re.MULTILINE)


def template_pages(list_file: Path | None = None) -> frozenset[str]:
    path = list_file or TEMPLATE_LIST
    if not path.is_file():
        return frozenset()
    lines = (ln.split("#", 1)[0].strip() for ln in path.read_text("utf-8").splitlines())
    return frozenset(ln for ln in lines if ln)


# the same rule MkDocs uses to find front matter (mkdocs.utils.meta): "---" with optional
# trailing blanks, closed by "---" or "..."
_FRONT = re.compile(r"^-{3}[ \t]*\n(.*?\n)(?:\.{3}|-{3})[ \t]*\n", re.DOTALL)


def _front_matter(text: str) -> tuple[int, int]:
    """(start, end) of the YAML inside the front matter, or (0, 0)."""
    m = _FRONT.match(text)
    return (m.start(1), m.end(1)) if m else (0, 0)


def _front_matter_end(text: str) -> int:
    m = _FRONT.match(text)
    return m.end() if m else 0


def _where(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def front_matter_diagnostics(text: str, shown: str) -> list[Diagnostic]:
    """Front matter of a page, read with the same strict rules as data (no aliases, tags,
    duplicate keys; size and depth limits), before MkDocs' own YAML reader sees it."""
    start, end = _front_matter(text)
    if not end:
        return []
    located, diags = load_text(text[start:end], shown)
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


PAGE_LIMITS = Limits(max_bytes=4 * 1024 * 1024)


def read_page(path: Path, shown: str | None = None) -> tuple[str | None, list[Diagnostic]]:
    """A page's text (BOM and CRLF handled like data), or a located reason it cannot be read."""
    shown = shown or str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, [Diagnostic(shown, 1, 1, f"cannot read page: {exc.strerror}", code="io")]
    return decode(raw, shown, PAGE_LIMITS)


def _list_for(docs_dir: Path, list_file: Path | None) -> Path:
    # the reviewed list lives in the project beside docs/, wherever kb runs from
    return list_file or docs_dir.parent / TEMPLATE_LIST


def check_pages(docs_dir: Path, list_file: Path | None = None) -> list[Diagnostic]:
    allowed = template_pages(_list_for(docs_dir, list_file))
    out = []
    for path in sorted(docs_dir.rglob("*.md")):
        rel = path.relative_to(docs_dir).as_posix()
        text, problems = read_page(path)
        if text is None:
            out.extend(problems)
            continue
        out.extend(check_page(rel, text, str(path), allowed))
    return out


_MACRO_REF = re.compile(r"""\b(section|section_heading|anchored_papers|brief)\(\s*["']([^"']+)["']""")


def check_macro_refs(docs_dir: Path, kb, list_file: Path | None = None) -> list[Diagnostic]:
    """Template pages name sections and briefs in macro calls; each must exist, or the
    build would stop on a macro error.  Located like any data error."""
    out = []
    for rel in sorted(template_pages(_list_for(docs_dir, list_file))):
        path = docs_dir / rel
        if not path.is_file():
            continue
        text, _ = read_page(path)
        if text is None:
            continue  # already reported by check_pages
        for m in _MACRO_REF.finditer(text):
            name, ref = m.groups()
            known = ref in kb.briefs if name == "brief" else kb.find_section(ref) is not None
            if not known:
                line, col = _where(text, m.start(2))
                what = "brief" if name == "brief" else "section"
                out.append(Diagnostic(str(path), line, col, f"{name}() names unknown {what} '{ref}'", key=name, code="macro-ref"))
    return out
