"""Hand-written HTML, sanitized with nh3 (the Rust ``ammonia`` sanitizer) against an
allowlist that fits the site: what Python-Markdown, its extensions (toc, tables,
admonition, attr_list, md_in_html, superfences, highlight) and Material print, plus the
renderers' own markup in template pages.

Refused: every element that can run or load code or change the document (script, style,
iframe, object, embed, svg, math, form controls, base, meta, link, template, noscript),
every ``on*`` attribute and ``style`` (except a table cell's ``text-align``, which the
tables extension writes), and URLs whose scheme is not http, https or mailto (nh3 parses
the URL after entity decoding, so ``jav&#x09;ascript:`` is ``javascript:``).

What the theme reads as HTML or code is reduced to text: a ``title`` (Material's tooltips build
their content from it with ``innerHTML``) keeps its text with full-width look-alikes for
``< > & " '`` (:func:`kb.render.html.tooltip`); the class ``mermaid`` (Material loads a script
from another site for ``pre.mermaid``) is removed.  Ids the theme and the site's scripts use
(:func:`reserved_id`: ``__config``, ``__search``, ``kb-words``, ...) are refused, not changed:
:func:`findings` names them as errors, and the build stops on them (:mod:`kb.site.plugin`).

:func:`clean` is what the build does (``on_page_content`` of hand-written pages, before
arXiv ids are linked).  :func:`findings` says what ``clean`` would remove, for
``kb validate`` to report before the build.  Pure: no MkDocs import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any

import nh3

from kb.render.html import tooltip

if TYPE_CHECKING:
    from kb.data.diagnostics import Diagnostic

TAGS = frozenset(
    {
        "a",
        "abbr",
        "b",
        "bdi",
        "bdo",
        "blockquote",
        "br",
        "caption",
        "cite",
        "code",
        "col",
        "colgroup",
        "dd",
        "del",
        "details",
        "dfn",
        "div",
        "dl",
        "dt",
        "em",
        "figcaption",
        "figure",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "i",
        "img",
        "ins",
        "kbd",
        "li",
        "mark",
        "ol",
        "p",
        "pre",
        "q",
        "rp",
        "rt",
        "ruby",
        "s",
        "samp",
        "small",
        "span",
        "strong",
        "sub",
        "summary",
        "sup",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "time",
        "tr",
        "u",
        "ul",
        "var",
        "wbr",
    }
)
# removed with everything inside them (the rest of the refused elements keep their text)
DROP_CONTENT = frozenset(
    {
        "script",
        "style",
        "template",
        "iframe",
        "object",
        "embed",
        "svg",
        "math",
        "noscript",
        "noembed",
        "noframes",
        "xmp",
        "textarea",
        "select",
        "title",
        "frameset",
        "frame",
        "applet",
        "audio",
        "video",
    }
)
GENERIC = frozenset({"class", "id", "title", "lang", "dir"})
ATTRIBUTES: dict[str, frozenset[str]] = {
    "a": frozenset({"href", "name"}),
    "img": frozenset({"src", "alt", "width", "height", "loading"}),
    "td": frozenset({"colspan", "rowspan"}),
    "th": frozenset({"colspan", "rowspan", "scope"}),
    "ol": frozenset({"start", "reversed", "type"}),
    "li": frozenset({"value"}),
    "details": frozenset({"open"}),
    "time": frozenset({"datetime"}),
    "col": frozenset({"span"}),
    "colgroup": frozenset({"span"}),
    "blockquote": frozenset({"cite"}),
    "q": frozenset({"cite"}),
    "del": frozenset({"cite", "datetime"}),
    "ins": frozenset({"cite", "datetime"}),
    # the renderers' own hooks for kb-tables.js and the demos (inert data, read by the site's scripts)
    "div": frozenset({"data-kb-table", "data-demo-id", "data-kernel"}),
    "table": frozenset({"data-kb-table"}),
}
ALIGN = frozenset({f"text-align: {a};" for a in ("left", "right", "center")})
VALUES = {"td": {"style": set(ALIGN)}, "th": {"style": set(ALIGN)}}
URL_SCHEMES = frozenset({"http", "https", "mailto"})
URL_ATTRS = frozenset({"href", "src", "cite"})


# classes the theme acts on by loading code: pre.mermaid makes Material load mermaid from unpkg.com
THEME_CLASSES = frozenset({"mermaid"})
# ids of the theme's and the site's own elements: every id Material's templates and scripts use
# starts with "__" (__config, __search, __drawer, __toc, __nav_1, __palette_0, __tooltip_3,
# __code_0, ...), every one of the theme's templates and scripts (kb/theme/) with "kb-" (kb-words, kb-subscribe,
# kb-search-results, kb-filter-...).  The first element with an id is the one getElementById and
# querySelector('#id') return, and a page's content comes before the theme's script data.
RESERVED_ID = re.compile(r"(?:__|kb-)", re.IGNORECASE)


def reserved_id(value: str) -> bool:
    """Whether an id (or an anchor's name) is one of the theme's or the site's own (:data:`RESERVED_ID`)."""
    return RESERVED_ID.match(value.strip()) is not None


def _classes(value: str) -> str:
    return " ".join(c for c in value.split() if c.lower() not in THEME_CLASSES)


def _attribute(tag: str, name: str, value: str) -> str | None:
    """nh3's attribute filter: a title as text without markup characters; theme classes removed."""
    if name == "title":
        return tooltip(value)
    if name == "class":
        return _classes(value) or None
    return value


def _attributes() -> dict[str, set[str]]:
    out = {"*": set(GENERIC)}
    for tag, names in ATTRIBUTES.items():
        out[tag] = set(names)
    return out


_CLEANER = nh3.Cleaner(
    tags=set(TAGS),
    clean_content_tags=set(DROP_CONTENT),
    attributes=_attributes(),
    tag_attribute_values=VALUES,
    url_schemes=set(URL_SCHEMES),
    link_rel=None,
    strip_comments=True,
    generic_attribute_prefixes=None,
    attribute_filter=_attribute,
)


def clean(html_text: str) -> str:
    """``html_text`` with everything outside the allowlist removed."""
    return _CLEANER.clean(html_text)


@dataclass(frozen=True)
class Finding:
    needle: str  # what to look for in the page source to locate it (see _needles: by kind)
    message: str  # what the build does to it, or (error) why it is refused
    kind: str = "element"  # element, attribute, class, scheme, title (changed), id (refused)

    @property
    def error(self) -> bool:
        return self.kind == "id"


_SCHEME = re.compile(r"^([a-z][a-z0-9+.\-]*):")
_STRIP_URL = re.compile(r"[\x00-\x20\x7f]+")


def url_scheme(value: str) -> str | None:
    """The scheme a browser would see in ``value`` (entities already decoded): ASCII
    whitespace and controls anywhere are ignored, as the URL parser does."""
    m = _SCHEME.match(_STRIP_URL.sub("", value).lower())
    return m.group(1) if m else None


class _Finder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[Finding] = []
        self.dropping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag(tag, attrs)
        if tag in DROP_CONTENT:
            self.dropping += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in DROP_CONTENT and self.dropping:
            self.dropping -= 1

    def _tag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.dropping:
            return
        if tag not in TAGS:
            what = "with its content" if tag in DROP_CONTENT else "(its text is kept)"
            self.found.append(
                Finding(
                    f"<{tag}", f"the <{tag}> element is not allowed in pages and is removed {what}; the build strips it"
                )
            )
            return
        allowed = GENERIC | ATTRIBUTES.get(tag, frozenset())
        for name, value in attrs:
            value = value or ""
            if name in VALUES.get(tag, {}):
                if value not in VALUES[tag][name]:
                    self.found.append(
                        Finding(
                            name,
                            f'the attribute {name}="{value[:60]}" on <{tag}> is removed '
                            "(only text-align is allowed in a table cell's style); the build strips it",
                            "attribute",
                        )
                    )
                continue
            if name not in allowed:
                why = (
                    "event-handler attributes never run"
                    if name.startswith("on")
                    else "style attributes are not allowed"
                    if name == "style"
                    else "it is not on the allowlist"
                )
                self.found.append(
                    Finding(
                        name, f"the attribute {name} on <{tag}> is removed ({why}); the build strips it", "attribute"
                    )
                )
                continue
            if name in URL_ATTRS:
                scheme = url_scheme(value)
                if scheme is not None and scheme not in URL_SCHEMES:
                    self.found.append(
                        Finding(
                            f"{scheme}",
                            f"the {name} of <{tag}> uses the URL scheme '{scheme}:' and "
                            "is removed (allowed: http, https, mailto, relative links); the build strips it",
                            "scheme",
                        )
                    )
            self._theme_read(tag, name, value)

    def _theme_read(self, tag: str, name: str, value: str) -> None:
        """What the theme would read as HTML or code (changed by the build), or as its own (refused)."""
        if name == "title" and tooltip(value) != value:
            self.found.append(
                Finding(
                    tag,
                    f"the title of <{tag}> holds markup characters (< > & \" '), which the theme's tooltip "
                    "would read as HTML; the build shows them as full-width look-alikes",
                    "title",
                )
            )
        elif name == "class" and _classes(value) != " ".join(value.split()):
            self.found.append(
                Finding(
                    "mermaid",
                    f"the class 'mermaid' of <{tag}> makes the theme load a script from another site; "
                    "the build strips it",
                    "class",
                )
            )
        elif (name == "id" or (tag == "a" and name == "name")) and reserved_id(value):
            self.found.append(
                Finding(
                    value.strip(),
                    f"the {name} '{value.strip()[:60]}' of <{tag}> is reserved for the theme and the site's scripts "
                    "(ids starting with '__' or 'kb-'); a page's element with it would take the place of theirs: "
                    "choose another (for a heading: ## Title { #my-id })",
                    "id",
                )
            )


def findings(html_text: str) -> list[Finding]:
    """What :func:`clean` would remove from ``html_text`` (comments aside), in document order."""
    finder = _Finder()
    # the standard library's parser reads comments the old way; HTML5 (nh3, browsers) ends
    # "<!-->" and "<!--->" at once and closes a comment at "--!>": read them alike
    finder.feed(html_text.replace("<!--->", "<!---->").replace("<!-->", "<!---->").replace("--!>", "-->"))
    finder.close()
    return finder.found


# ------------------------------------------------------------------ kb validate: located warnings

# an extension's name, or {name: its configuration}, as in mkdocs.yml
Extension = str | dict[str, dict[str, Any]]

DEFAULT_EXTENSIONS: list[Extension] = [
    "toc",
    "attr_list",
    "md_in_html",
    "tables",
    "admonition",
    "pymdownx.superfences",
    {"pymdownx.highlight": {"use_pygments": True}},
]


def markdown_extensions(mkdocs_yml: Path | None) -> tuple[list[str], dict[str, dict[str, Any]]]:
    """The Markdown extensions of ``mkdocs.yml`` (read as plain YAML), else the project's defaults."""
    import yaml

    listed: list[Extension] = DEFAULT_EXTENSIONS
    if mkdocs_yml is not None and mkdocs_yml.is_file():
        try:
            conf = yaml.safe_load(mkdocs_yml.read_text("utf-8")) or {}
            listed = conf.get("markdown_extensions") or DEFAULT_EXTENSIONS
        except yaml.YAMLError:
            pass
    names: list[str] = []
    configs: dict[str, dict[str, Any]] = {}
    for item in listed:
        if isinstance(item, dict):
            for name, conf in item.items():
                names.append(name)
                configs[name] = conf or {}
        else:
            names.append(str(item))
    return names, configs


def render_markdown(body: str, mkdocs_yml: Path | None) -> str:
    import markdown

    names, configs = markdown_extensions(mkdocs_yml)
    return markdown.Markdown(extensions=names, extension_configs=configs).convert(body)


_TITLE = r"(?<![\w.\-])title[ \t]*="
_TITLED = {  # where else a title is written: an abbreviation; a link's or a reference's title
    "abbr": re.compile(r"^[ \t]{0,3}\*\[|" + _TITLE, re.I | re.M),
    "a": re.compile(r"\]\([^)\s]*[ \t]+[\"'(]|^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*\S+[ \t]+[\"'(]|" + _TITLE, re.I | re.M),
}


def _needles(f: Finding) -> list[re.Pattern[str]]:
    n = re.escape(f.needle)
    if f.kind == "element":
        return [re.compile(n + r"(?![a-z0-9])", re.I)]
    if f.kind == "attribute":
        return [re.compile(r"(?<![a-z0-9_\-])" + n + r"[ \t]*=", re.I), re.compile(r"(?<![a-z0-9_\-])" + n, re.I)]
    if f.kind == "class":  # an attribute, or attr_list's { .name }
        return [
            re.compile(r"class[ \t]*=[ \t]*[\"']?[^\"'>]*?(?<![\w\-])" + n + r"(?![\w\-])|\." + n + r"(?![\w\-])", re.I)
        ]
    if f.kind == "title":  # needle: the element
        return [_TITLED.get(f.needle) or re.compile(_TITLE, re.I)]
    if f.kind == "id":  # an attribute, attr_list's { #id }, a heading whose anchor it is, or the word
        return [
            re.compile(r"(?<![\w\-])(?:id|name)[ \t]*=[ \t]*[\"']?" + n + r"(?![\w\-])", re.I),
            re.compile(r"#" + n + r"(?![\w\-])"),
            _heading(f.needle),
            re.compile(n, re.I),
        ]
    # a URL scheme: as written, or hidden by entities/whitespace: point at the link
    return [re.compile(n + r"[ \t]*:", re.I), re.compile(r"\]\(|\]:|href|src", re.I)]


def _heading(anchor: str) -> re.Pattern[str]:
    """The ATX heading lines whose text the toc extension makes ``anchor`` of (its default slugify)."""
    from markdown.extensions.toc import slugify

    base = re.sub(r"_\d+$", "", anchor)  # a repeated heading's anchor: the first one's with _1, _2, ...
    words = [re.escape(w) for w in re.split(r"[-\s]+", base) if w]
    loose = r"[^\w\n]*".join(words) if words and slugify(base, "-") == base else re.escape(base)
    return re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+[^\w\n]*" + loose + r"(?![\w])", re.I | re.M)


def located(text: str, start: int, shown: str, found: list[Finding]) -> list[Diagnostic]:
    """``found`` (:func:`findings` of the page's HTML) located in the page ``text`` (Markdown from
    ``start``): warnings for what the build changes, errors for what it refuses."""
    from kb.data.diagnostics import Diagnostic, Severity, line_col

    out = []
    cursor = start
    for f in found[:50]:
        offset = None
        for pattern in _needles(f):
            m = pattern.search(text, cursor) or pattern.search(text, start)
            if m:
                offset = m.start()
                break
        if offset is None:
            offset = start
        else:
            cursor = offset + 1
        line, col = line_col(text, offset)
        severity, code = (Severity.ERROR, "id") if f.error else (Severity.WARNING, "html")
        out.append(Diagnostic(shown, line, col, f.message, severity=severity, code=code))
    return out


def page_findings(text: str, start: int, shown: str, mkdocs_yml: Path | None) -> list[Diagnostic]:
    """What the build's sanitizer would change in the page ``text`` (Markdown from ``start``), as
    located warnings (``kb validate --strict`` fails on them), and the ids it refuses (errors)."""
    return located(text, start, shown, findings(render_markdown(text[start:], mkdocs_yml)))


_MAYBE_RESERVED = re.compile(r"""\s(?:id|name)=["']?[ \t]*(?:__|kb-)""", re.IGNORECASE)


def refused(html_text: str) -> list[Finding]:
    """The ids (and anchors' names) of the theme's and the site's own elements in a page's
    sanitized HTML (:func:`reserved_id`): the build stops on them, as ``kb validate`` does."""
    if not _MAYBE_RESERVED.search(html_text):
        return []
    return [f for f in findings(html_text) if f.error]
