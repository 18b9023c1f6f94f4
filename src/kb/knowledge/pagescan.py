"""arXiv ids written in hand-written pages, as mentions (backlinks) placed at the
section they stand in.  Collected before any page renders.

Code (fenced blocks and inline spans), template expressions, link destinations and
the front matter (found as MkDocs finds it, :mod:`kb.data.frontmatter`) are skipped,
the same places the HTML autolinker leaves alone.

Linear in the page's size on any input: the page is read line by line with string
operations (no regular expression here can backtrack: each is a literal or a single
character class), unclosed ``{{`` end the search for more, and each mention's sentence
is cut from a bounded window around it.
"""

from __future__ import annotations

import re

from kb.data import arxiv_id
from kb.data.frontmatter import _front_matter_end
from kb.knowledge.index import KnowledgeBase, section_anchor
from kb.knowledge.mentions import CONTEXT_MAX, Mention, Place, sentence_around

_INLINE_CODE = re.compile(r"`[^`\n]*`")
_SECTION_CALL = "section("
_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
_WINDOW = 2 * CONTEXT_MAX


def _blank(text: str) -> str:
    return "".join(ch if ch == "\n" else " " for ch in text)


def _blank_inline_code(line: str) -> str:
    if "`" not in line:
        return line
    return _INLINE_CODE.sub(lambda m: " " * len(m.group()), line)


def _blank_templates(text: str) -> str:
    """``{{ … }}``, ``{% … %}`` and ``{# … #}`` blanked (line breaks kept); an unclosed one
    blanks nothing and ends the search for that kind (no later one can close)."""
    out: list[str] = []
    pos = 0
    closed = {"{{": "}}", "{%": "%}", "{#": "#}"}
    dead: set[str] = set()
    i = text.find("{", pos)
    while i != -1:
        opening = text[i : i + 2]
        if opening in closed and opening not in dead:
            j = text.find(closed[opening], i + 2)
            if j == -1:
                dead.add(opening)
            else:
                out.append(text[pos:i])
                out.append(_blank(text[i : j + 2]))
                pos = j + 2
                i = text.find("{", pos)
                continue
        i = text.find("{", i + 1)
    out.append(text[pos:])
    return "".join(out)


def _heading(line: str) -> tuple[str, str | None] | None:
    """(text, explicit id) of an ATX heading line, or None."""
    n = 0
    while n < len(line) and n < 7 and line[n] == "#":
        n += 1
    if not 1 <= n <= 6 or n >= len(line) or line[n] not in " \t":
        return None
    body = line[n:].strip()
    anchor = None
    if body.endswith("}"):
        k = body.rfind("{")
        if k != -1:
            attrs = body[k + 1 : -1].strip()
            if attrs.startswith("#"):
                end = 1
                while end < len(attrs) and attrs[end] in _ID_CHARS:
                    end += 1
                if end > 1:
                    anchor = attrs[1:end]
                    body = body[:k].rstrip()
    if not body:
        return None
    return body, anchor


def _section_calls(text: str) -> list[tuple[int, str]]:
    """(offset, section id) of each ``{{ section("…") }}`` (found with str.find: linear)."""
    out = []
    i = text.find("{{")
    while i != -1:
        j = i + 2
        while j < len(text) and text[j] in " \t":
            j += 1
        if text.startswith(_SECTION_CALL, j):
            j += len(_SECTION_CALL)
            while j < len(text) and text[j] in " \t":
                j += 1
            if j < len(text) and text[j] in "\"'":
                quote = text[j]
                k = j + 1
                while k < len(text) and k - j <= 200 and text[k] in _ID_CHARS:
                    k += 1
                if k < len(text) and text[k] == quote and k > j + 1:
                    out.append((i, text[j + 1 : k]))
        i = text.find("{{", i + 2)
    return out


def scan_page(kb: KnowledgeBase, src_uri: str, text: str) -> list[Mention]:
    """Mentions of papers in one page's Markdown source."""
    lines, title, headings = _prose_lines(text)
    title = title or src_uri
    markers: list[tuple[int, str, str]] = []  # (offset, anchor, label)
    for at, sid in _section_calls(text):
        info = kb.find_section(sid)
        if info is not None:
            markers.append((at, section_anchor(info.id), f"{title} · {info.section.name}"))
    for at, name, where in headings:
        if where:
            markers.append((at, where, f"{title} · {name}"))
    markers.sort()
    return _paragraph_mentions(kb, src_uri, lines, markers, title)


def _prose_lines(text: str) -> tuple[list[str], str | None, list[tuple[int, str, str | None]]]:
    """The page's lines with front matter, template calls, code blocks and code spans blanked
    (offsets kept), its title (the first ``#`` heading) and its headings (offset, text, anchor)."""
    fm_end = _front_matter_end(text)
    cleaned = _blank(text[:fm_end]) + text[fm_end:]
    cleaned = _blank_templates(cleaned)
    lines = cleaned.split("\n")
    fence = ""
    title = None
    headings: list[tuple[int, str, str | None]] = []  # (offset, text, anchor)
    offset = 0
    for n, line in enumerate(lines):
        stripped = line.lstrip(" ")
        if fence:
            if stripped.startswith(fence):
                fence = ""
            lines[n] = " " * len(line)
        elif stripped.startswith(("```", "~~~")) and len(line) - len(stripped) < 4:
            fence = stripped[:3]
            lines[n] = " " * len(line)
        else:
            line = lines[n] = _blank_inline_code(line)
            head = _heading(line)
            if head is not None:
                headings.append((offset, head[0], head[1]))
                if title is None and line.startswith("# "):
                    title = head[0]
        offset += len(line) + 1
    return lines, title, headings


def _paragraph_mentions(
    kb: KnowledgeBase, src_uri: str, lines: list[str], markers: list[tuple[int, str, str]], title: str
) -> list[Mention]:
    """Mentions paragraph by paragraph, each placed at the last heading or section call before it."""
    out: list[Mention] = []
    k = 0
    anchor, label = "", title
    para: list[str] = []
    para_start = 0
    offset = 0

    def flush() -> None:
        nonlocal k, anchor, label
        if not para:
            return
        while k < len(markers) and markers[k][0] <= para_start:
            _, anchor, label = markers[k]
            k += 1
        joined = " ".join(" ".join(para).split())
        out.extend(_mentions(Place("page", src_uri, anchor, label, None), joined, kb.by_arxiv))

    for line in lines:
        if line.strip():
            if not para:
                para_start = offset
            para.append(line)
        else:
            flush()
            para = []
        offset += len(line) + 1
    flush()
    return out


def _mentions(place: Place, text: str, arxiv_to_paper: dict[str, str]) -> list[Mention]:
    """Like :func:`kb.knowledge.mentions.text_mentions`, with each sentence cut from a window
    of the text around the mention (the same sentence, or the same clipped excerpt, when the
    sentence is longer than the window): linear in the paragraph's length."""
    out = []
    for m in arxiv_id.find_ids(text):
        lo = max(0, m.start - _WINDOW)
        window = text[lo : m.end + _WINDOW]
        base = m.id.base
        out.append(
            Mention(place, arxiv_to_paper.get(base), base, sentence_around(window, m.start - lo, m.end - lo), False)
        )
    return out
