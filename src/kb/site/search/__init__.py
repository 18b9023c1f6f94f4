"""Site search with Pagefind: what each built page tells the index.

As MkDocs writes each page, :func:`mark` marks its ``<article>`` as the body Pagefind indexes and
gives it the page's **type** (简报, 论文, 活文档, …), **topic** and **date** (:class:`Facts`, as its page
type says: :mod:`kb.site.pages`) as Pagefind filters and
metadata (empty, hidden elements: nothing a reader sees), each arXiv id in its text one more,
hidden word (:mod:`kb.site.search.words`), and a paper page what the briefs call the paper, as
hidden words weighted below theirs (:attr:`Facts.said`).  After the build :mod:`kb.site.search.index` runs
Pagefind (the extended build: Chinese is segmented) over the written site; pages without a marked
body (the 404 page, anything under ``assets/``) are not indexed.  A reader's browser downloads only the
chunks of the index a query needs (``assets/kb-search.js``; the bytes per query are measured by
``scripts/bench_search.py``).

Nothing here imports MkDocs; the plugin calls :func:`mark` from ``on_post_page``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass

from kb.messages import UI
from kb.render import htmltext
from kb.render.html import attr
from kb.site.search import words as search_words

__all__ = ["BODY", "EXCLUDE", "OUTPUT", "SKIP_DIRS", "SKIP_PAGES", "TYPES", "Facts", "indexed", "mark"]

BODY = "data-pagefind-body"  # the attribute that marks what Pagefind indexes of a page (:func:`mark`)
OUTPUT = "pagefind"  # the bundle's directory, beside the pages; editions use latest/'s (kb.editions.freeze)

# The result types a reader can filter by, in the order the filter lists them (their names are
# interface text: the message catalogue's).
_KINDS = ("brief", "paper", "living", "timeline", "week", "backlog", "index", "home", "about")
TYPES = tuple(UI[f"search.type.{k}"] for k in _KINDS)
BRIEF, PAPER, LIVING, TIMELINE, WEEK, BACKLOG, INDEX, HOME, ABOUT = TYPES
TYPE_FILTER, TOPIC_FILTER = UI["search.filter.type"], UI["search.filter.topic"]  # Pagefind's filter names
DATES = {PAPER: UI["paper.published"], LIVING: UI["search.date.living"]}  # what a result's date is (a brief's: its day)
# How much a word on the page counts (Pagefind's data-pagefind-weight on the indexed body).  The living
# document and the paper pages are where a topic or a name is defined; briefs report it on a date;
# the home page and the indexes only repeat the titles of other pages, so they never come first; nor
# do the pages about the site (the guide, the performance log), which quote queries as examples
# (投机解码 found the guide before SSR's paper page).
WEIGHTS = {LIVING: 2.0, PAPER: 1.5, BRIEF: 1.0, INDEX: 0.25, ABOUT: 0.25}
SAID = 0.5  # what briefs call a paper, as words of its page (:attr:`Facts.said`): below any brief's own
# words, so a phrase of a brief finds the brief first and the paper after it
HEADINGS = 10.0  # Pagefind's largest weight: a section named 推理调度 is the answer to 推理调度, and
# the page whose identity list names 2505.02922 is the answer to 2505.02922

# Not indexed: the permalink signs after headings, the edition banner of a frozen page, and what a
# page only repeats from other pages: a paper page's backlinks quote the briefs that mention it
# (each brief is indexed itself, and a phrase of a brief should find the brief), a brief's
# previous/next links name its neighbours.  A quarter of a paper page's words, a sixth of Pagefind's work.
# And what a page repeats of itself: a brief's glance at the top lists its increments, side items and
# claims, each a jump link to its section; a word there is found in that section, and the result
# opens the section (a sixteenth of a brief's words).
# And the tables of the index pages and the backlog (:attr:`Facts.listing`, marked by :func:`mark`): a row
# there is a paper's or a brief's title, id, status and figures, each indexed on its own page, where a
# query should land; those pages stay findable by their headings and prose.  (Pagefind matches an
# excluded element's ancestors only below the body, so the mark is on each table.)
EXCLUDE = [".headerlink", ".kb-edition", ".kb-backlinks", ".kb-prevnext", ".kb-glance", ".kb-glance-side"]
EXCLUDE += [".kb-timeline-link"]  # under each living-document section: the same words each time
EXCLUDE += ["table[data-kb-listing]"]
# related papers (kb.render.related): other papers' names and the same reasons on every paper page
EXCLUDE += [".kb-related", ".kb-section-graph"]
# And a paper page's BibTeX entry: its title, authors, year and id are the page's own identity list
# again (in LaTeX), and an excerpt from it is noise; its key stays a word of the page (:func:`mark`), so
# a key copied from a .bib file finds the paper.  A fifth of a paper page's words.
EXCLUDE += [".kb-bibtex"]
EXCLUDE += ["script", "style", "svg"]
# Not indexed at all: the theme's 404 page (the site's own pages say so by their page type: kb.site.pages).
SKIP_PAGES = ("404.html",)
SKIP_DIRS = ("assets/", f"{OUTPUT}/", "api/", "feeds/")

_ARTICLE = re.compile(r"<article\b[^>]*>", re.IGNORECASE)
_IDENTITY = '<ul class="kb-identity"'  # a paper page's identity list (kb.render.paper)
_BACKLINKS = '<div class="kb-backlinks">'  # its backlinks' table, in its div (kb.render.html.table)
_BIBTEX = '<pre class="kb-bibtex"'  # a paper page's BibTeX entry (kb.render.paper)
_BIBTEX_KEY = re.compile(r"@\w+\{([^,<\s]+),")


@dataclass(frozen=True)
class Facts:
    """What a result shows beside its title and what a reader can filter it by."""

    type: str
    topics: tuple[str, ...] = ()  # topic titles (the filter shows them)
    date: str | None = None
    weight: float | None = None  # Pagefind page weight (1.0: neutral); the pages that define a name rank higher
    headings: float | None = None  # weight of the section headings (the living document's define its topics)
    identity: float | None = None  # weight of a paper page's identity list (its id, authors, venue, dates)
    terms: float | None = None  # weight of the terms a glossary's table defines (its rows' first cells)
    listing: bool = False  # its tables list other pages (index pages, the backlog): not indexed (EXCLUDE)
    # What the briefs call a paper: the text of each reference a brief makes to it by name (an
    # increment's headline, a claim's title, a citable id's note; kb.knowledge.mentions).  The paper
    # page quotes them in its backlinks, which are not indexed (EXCLUDE); they are its words again,
    # hidden and weighted below the briefs (SAID), so 投机解码 finds SSR's page too, and a filter
    # for papers keeps it.
    said: tuple[str, ...] = ()


def indexed(url: str) -> bool:
    """Whether the page at ``url`` (site-relative, as MkDocs gives it) belongs in the index."""
    return url not in SKIP_PAGES and not url.startswith(SKIP_DIRS)


def mark(text: str, facts: Facts, words: bool = True) -> str | None:
    """The built page with its ``<article>`` marked as the indexed body, the facts as filters and
    metadata (empty, hidden elements: no text) and, with ``words``, its arXiv ids and terms as
    words (:func:`kb.site.search.words.mark`; a generated page has them already: the plugin adds
    them in the walk that finishes its HTML).  ``None``: the page has no article."""
    m = _ARTICLE.search(text)
    end = text.rfind("</article>")
    if m is None or end < m.end():
        return None
    attrs = f" {BODY}"
    if facts.weight is not None:
        attrs += f' data-pagefind-weight="{facts.weight:g}"'
    marks = [m.group(0)[:-1] + attrs + ">"]
    marks.append(f'<span hidden data-pagefind-filter="{TYPE_FILTER}:{attr(facts.type)}"></span>')
    marks.append(f'<span hidden data-pagefind-meta="type:{attr(facts.type)}"></span>')
    for title in facts.topics:
        marks.append(f'<span hidden data-pagefind-filter="{TOPIC_FILTER}:{attr(title)}"></span>')
    if facts.topics:
        marks.append(f'<span hidden data-pagefind-meta="topic:{attr(" · ".join(facts.topics))}"></span>')
    # No sort key: results are ordered by relevance (kb-search.js).
    if facts.date:
        marks.append(f'<span hidden data-pagefind-meta="date:{attr(facts.date)}"></span>')
        if facts.type in DATES:  # and what the date is, as a result shows it (kb-search.js)
            marks.append(
                f'<span hidden data-pagefind-meta="when:{attr(DATES[facts.type].format(date=facts.date))}"></span>'
            )
    body = text[m.end() : end]
    marker = _Marks(facts)
    readers = [search_words.words(body)] if words else []
    if readers or marker.names:  # else the marks have nothing to read
        body = htmltext.edit(body, [*readers, marker.read], marker.names)  # one walk
    if facts.said:
        body = _said(body, facts.said)
    return text[: m.start()] + "".join(marks) + body + text[end:]


class _Marks:
    """The reader (:func:`kb.render.htmltext.edit`) that marks the elements of a page's body by its
    facts: the weights of its headings (h2 to h4), of its tables' terms (each row's first cell)
    and of its identity list, its listing tables (not indexed: :data:`EXCLUDE`), and its BibTeX
    entry's key as a hidden word after the entry (the entry is not indexed).  It reads the tags of
    only the elements its page's facts mark (:attr:`names`): the walk passes over the rest in one
    match (a paper page's backlinks' rows, most of its tags, are not stopped at)."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self.names = _names(facts)  # the elements whose tags it reads
        self.row = False  # in a table row before its first cell
        self.identity = facts.identity is not None  # the identity list's weight is still to be given
        self.bibtex = facts.type == PAPER  # the BibTeX entry is still to be found
        self.key: str | None = None  # inside it: its key, once read

    def read(self, page: str, token: htmltext.Token) -> list[htmltext.Edit]:
        if token.kind == htmltext.START:
            return [(at, at, attrs) for at, attrs in self._attributes(page, token)]
        if self.key is None or token.kind == htmltext.MARKUP:
            return []
        if token.kind == htmltext.TEXT and not self.key:
            found = _BIBTEX_KEY.match(page, token.start, token.end)
            self.key = found.group(1) if found else None
        elif token.kind == htmltext.END and token.name == "pre":
            key, self.key = self.key, None
            return [(token.end, token.end, search_words.hidden_word(key))] if key else []
        return []

    def _attributes(self, page: str, token: htmltext.Token) -> Iterator[tuple[int, str]]:
        """The attributes added to a start tag, each with its place (after the tag's name)."""
        facts, name, at = self.facts, token.name, token.start + 1 + len(token.name)
        if name == "tr":
            self.row = True
        elif name == "table" and facts.listing:
            yield at, " data-kb-listing"
        elif name in ("h2", "h3", "h4") and facts.headings is not None:
            yield at, f' data-pagefind-weight="{facts.headings:g}"'
        elif name == "td" and self.row and facts.terms is not None:
            yield at, f' data-pagefind-weight="{facts.terms:g}"'
        elif name == "ul" and self.identity and page.startswith(_IDENTITY, token.start):
            self.identity = False
            yield token.start + len(_IDENTITY), f' data-pagefind-weight="{facts.identity:g}"'
        elif name == "pre" and self.bibtex and page.startswith(_BIBTEX, token.start):
            self.bibtex, self.key = False, ""
        self.row = self.row and name not in ("td", "th")


def _names(facts: Facts) -> frozenset[str]:
    """The elements whose tags :class:`_Marks` reads for a page of ``facts``."""
    names = {"table"} if facts.listing else set()
    if facts.headings is not None:
        names |= {"h2", "h3", "h4"}
    if facts.terms is not None:
        names |= {"tr", "td", "th"}
    if facts.identity is not None:
        names.add("ul")
    if facts.type == PAPER:  # the BibTeX entry: its <pre> and the <code> in it
        names |= {"pre", "code"}
    return frozenset(names)


def _said(body: str, said: tuple[str, ...]) -> str:
    """A paper page's body with what the briefs call it (:attr:`Facts.said`) as hidden words right
    after its backlinks, which quote them where a reader sees them: the section a result for them
    opens (at the end of the body when the page has no backlinks)."""
    words = search_words.mark("".join(f"<p>{html.escape(w, quote=False)}</p>" for w in said))
    hidden = f'<div hidden data-pagefind-weight="{SAID:g}">{words}</div>'
    start = body.find(_BACKLINKS)
    table = body.find("</table>", start) if start >= 0 else -1
    end = body.find("</div>", table) if table >= 0 else -1
    if end < 0:
        return body + hidden
    end += len("</div>")
    return body[:end] + hidden + body[end:]
