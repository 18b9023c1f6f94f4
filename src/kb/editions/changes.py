"""The page of changes between an edition and the one before it (``<edition>/changes/``).

Computed from the two frozen editions alone, so it can be written again when an
edition is fixed or deleted:

- the records that appeared (new briefs, new papers) or disappeared, from the
  two ``edition.json`` manifests, linked at their permanent URLs;
- for every frozen page outside ``briefs/`` and ``papers/`` (their indexes are
  the record lists above), the blocks of text (headings, paragraphs, list items,
  table rows) removed and added, under the heading they belong to.

The page is self-contained HTML that borrows the edition's own stylesheets.
"""

from __future__ import annotations

import difflib
import html
from pathlib import Path
from typing import Any

from kb.messages import t
from kb.render.html import attr, t_html
from kb.render.htmltext import END, MARKUP, START, TEXT, attributes, tokens

from .freeze import CHANGES, CURRENT, read_manifest, scan

__all__ = ["write_changes", "MAX_BLOCKS", "blocks"]

MAX_BLOCKS = 300  # removed + added blocks shown per page; the rest is counted
RECORD_KINDS = (
    ("briefs/", t("edition.briefs_added"), t("edition.briefs_removed")),
    ("papers/", t("edition.papers_added"), t("edition.papers_removed")),
)


# The elements that start a block of the article's text, the cells of a row, and the text that is not content.
_BLOCKS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "p", "li", "dt", "dd", "pre", "tr", "figcaption"})
_BLOCKS |= {"blockquote", "summary", "div", "section", "details", "ul", "ol", "table", "thead", "tbody"}
_KINDS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "pre", "tr"})  # the blocks that keep their kind
_CELLS = frozenset({"td", "th"})
_SKIP = frozenset({"script", "style", "svg", "button", "noscript"})  # noscript: raw text, shown to no reader
SKIP_CLASSES = frozenset({"headerlink", "kb-edition"})  # permalinks and the edition banner are not content


def blocks(page: str) -> list[tuple[str, str]]:
    """The article's text as ``(kind, text)`` blocks, the unit of the diff between two editions
    (:mod:`kb.render.htmltext`'s walk); kind is ``h1``…``h6``, ``pre``, ``tr`` or ``p``."""
    out: list[tuple[str, str]] = []
    buf: list[str] = []
    kind = "p"
    skipped: tuple[str, ...] | None = None  # the open elements down to the one with a class skipped

    def flush() -> None:
        text = " ".join("".join(buf).split())
        if text:
            out.append((kind, text))
        buf.clear()

    for token in tokens(page):
        if "article" not in token.stack:
            continue
        if skipped is not None and token.stack[: len(skipped)] != skipped:
            skipped = None  # closed by an end tag of an element around it
        if token.kind == START and token.name in _BLOCKS:
            flush()
            kind = token.name if token.name in _KINDS else kind
        elif token.kind == START and token.name in _CELLS and buf:
            buf.append(" | ")
        elif token.kind == END and (token.name in _BLOCKS or token.name == "article"):
            flush()
            kind = "p"
        elif token.kind == TEXT or token.kind == MARKUP and page.startswith("&", token.start):  # a reference
            if skipped is None and not _SKIP.intersection(token.stack):
                buf.append(html.unescape(page[token.start : token.end]))
        if token.kind == START and skipped is None:
            classes = attributes(page[token.start : token.end]).get("class", "").split()
            skipped = token.stack if SKIP_CLASSES.intersection(classes) else None
        elif (
            skipped
            and token.kind == END
            and token.name == skipped[-1]
            and token.name not in token.stack[len(skipped) :]
        ):
            skipped = None  # its end tag
    flush()
    return out


def _records(urls: list[str], titles: dict[str, str], base: str) -> str:
    items = "".join(f'<li><a href="{attr(base + u)}">{attr(titles.get(u) or u)}</a></li>' for u in urls)
    return f"<ul>{items}</ul>" if urls else f"<p>{attr(t('edition.none'))}</p>"


def _page_diff(old: list[tuple[str, str]], new: list[tuple[str, str]]) -> tuple[str, int, int]:
    """HTML of the removed/added blocks, and how many of each."""
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    out, shown, removed, added = [], 0, 0, 0
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        removed += i2 - i1
        added += j2 - j1
        if shown >= MAX_BLOCKS:
            continue
        heading = next((t for k, t in reversed(new[:j1]) if k.startswith("h")), None)
        hunk = [f'<p class="kb-context">§ {attr(heading)}</p>'] if heading else []
        for _, text in old[i1:i2]:
            hunk.append(f"<p><del>{attr(text)}</del></p>")
        for _, text in new[j1:j2]:
            hunk.append(f"<p><ins>{attr(text)}</ins></p>")
        shown += (i2 - i1) + (j2 - j1)
        out.append('<div class="kb-hunk">' + "".join(hunk) + "</div>")
    if removed + added > shown:
        out.append(f"<p>{attr(t('edition.more_changes', n=removed + added - shown))}</p>")
    return "".join(out), removed, added


def _diffed(pages: list[str]) -> list[str]:
    return [p for p in pages if not p.startswith(("briefs/", "papers/"))]


def write_changes(root: Path, edition: str, previous: str | None) -> Path:
    """Write ``root/<edition>/changes/index.html`` against ``root/<previous>/`` (None: the first edition)."""
    this_dir = root / edition
    this = read_manifest(this_dir) or {}
    before = (read_manifest(root / previous) if previous else None) or {}
    home = (this_dir / "index.html").read_text("utf-8")
    site_name = scan(home).title
    styles = "".join(f'<link rel="stylesheet" href="../{attr(s)}">' for s in scan(home).stylesheets)
    up_root = "../../"
    against = t("edition.against", previous=previous) if previous else t("edition.first")
    parts = [f"<h1>{attr(t('edition.heading', edition=edition, against=against))}</h1>"]
    links = [
        f'<a href="../">{attr(t("edition.home"))}</a>',
        f'<a href="{up_root}{CURRENT}/">{attr(t("edition.current_site"))}</a>',
    ]
    if previous:
        links.append(f'<a href="{up_root}{attr(previous)}/">{attr(t("edition.name", edition=previous))}</a>')
    parts.append("<p>" + " · ".join(links) + "</p>")
    if not previous:
        parts.append(f"<p>{attr(t('edition.first_intro'))}</p>")
    records, old_records = this.get("records", {}), before.get("records", {})
    for prefix, added_title, removed_title in RECORD_KINDS:
        added = sorted(u for u in records if u.startswith(prefix) and u not in old_records)
        removed = sorted(u for u in old_records if u.startswith(prefix) and u not in records)
        if previous:
            parts.append(f"<h2>{attr(added_title)}（{len(added)}）</h2>")
            parts.append(_records(added, records, f"{up_root}{CURRENT}/"))
        if removed:
            parts.append(f"<h2>{attr(removed_title)}（{len(removed)}）</h2>")
            parts.append(_records(removed, old_records, f"{up_root}{CURRENT}/"))
    if previous:
        parts.extend(_page_changes(root, edition, previous, this, before))
    target = this_dir / CHANGES
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(_document(edition, site_name, styles, parts), "utf-8")
    return target


def _page_changes(root: Path, edition: str, previous: str, this: dict[str, Any], before: dict[str, Any]) -> list[str]:
    """The section on pages: each new, changed or removed page of the edition against ``previous``."""
    up_root = "../../"
    this_dir = root / edition
    parts = [f"<h2>{attr(t('edition.pages'))}</h2>"]
    changed = 0
    old_pages = set(before.get("pages", []))
    for url in _diffed(list(this.get("pages", []))):
        file = url + "index.html" if url.endswith("/") or not url else url
        new_text = (this_dir / file).read_text("utf-8")
        title = scan(new_text).title or url or "/"
        if url not in old_pages or not (root / previous / file).is_file():
            parts.append(f'<h3><a href="../{attr(url)}">{attr(title)}</a>{attr(t("edition.new_page"))}</h3>')
            changed += 1
            continue
        body, removed_n, added_n = _page_diff(blocks((root / previous / file).read_text("utf-8")), blocks(new_text))
        if not removed_n and not added_n:
            continue
        changed += 1
        before_link = f'<a href="{up_root}{attr(previous)}/{attr(url)}">{attr(t("edition.previous_page"))}</a>'
        counts = t_html("edition.page_changed", removed=str(removed_n), added=str(added_n), previous=before_link)
        parts.append(f'<h3><a href="../{attr(url)}">{attr(title)}</a>{counts}</h3>{body}')
    for url in sorted(set(_diffed(sorted(old_pages))) - set(this.get("pages", []))):
        gone = f'<a href="{up_root}{attr(previous)}/{attr(url)}">{attr(url or "/")}</a>'
        parts.append(f"<h3>{gone}{attr(t('edition.page_gone'))}</h3>")
        changed += 1
    if not changed:
        parts.append(f"<p>{attr(t('edition.no_page_changes'))}</p>")
    return parts


def _document(edition: str, site_name: str, styles: str, parts: list[str]) -> str:
    """The page of changes: the theme's layout classes and stylesheets around ``parts``."""
    style = (
        "<style>.kb-hunk{border-left:3px solid var(--md-default-fg-color--lightest);padding-left:.8em;margin:1em 0}"
        ".kb-hunk p{margin:.3em 0}.kb-context{color:var(--md-default-fg-color--light)}"
        "ins{background:#e6ffec;text-decoration:none}del{background:#ffebe9}</style>"
    )
    doc = (
        '<!doctype html><html lang="zh"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{attr(t('edition.changes_title', edition=edition, site=site_name))}</title>{styles}{style}</head>"
        '<body><div class="md-container"><main class="md-main"><div class="md-main__inner md-grid">'
        '<div class="md-content"><article class="md-content__inner md-typeset">'
        + "".join(parts)
        + "</article></div></div></main></div></body></html>\n"
    )
    return doc
