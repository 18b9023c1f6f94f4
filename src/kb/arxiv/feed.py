"""arXiv API Atom answers -> :class:`kb.data.models.ArxivMeta`, keyed by base arXiv id.

The XML is first parsed strictly (no recovery, no entities, no network) so a
truncated or garbled answer is an error rather than a silently shorter list;
the entries are then read with the ``arxiv`` package's own entry parser
(``arxiv._feed``, the parser behind ``arxiv.Client`` in arxiv 4.x).
"""

from __future__ import annotations

import arxiv._feed as arxiv_feed  # the package's Atom entry parser
from lxml import etree
from pydantic import ValidationError

from kb.data import arxiv_id
from kb.data.models import ArxivMeta
from kb.data.paperfile import ABSTRACT_MAX, LINE_MAX, TEXT_MAX, clean

ATOM = "{http://www.w3.org/2005/Atom}"


class MalformedFeed(Exception):
    """The answer is not a well-formed Atom feed (worth retrying: often a cut-off answer)."""


class ApiError(Exception):
    """The API answered with an error entry (e.g. a malformed id): retrying will not help."""


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, recover=False)


def parse(body: bytes) -> tuple[int, dict[str, ArxivMeta | str]]:
    """(number of entries, {base id: metadata, or why the entry was unusable}).

    Raises :class:`MalformedFeed` or :class:`ApiError`.
    """
    try:
        root = etree.fromstring(body, parser=_parser())
    except etree.XMLSyntaxError as exc:
        raise MalformedFeed(f"malformed XML from the API: {exc}") from None
    if root is None or root.tag != ATOM + "feed":
        tag = etree.QName(root).localname if root is not None else "nothing"
        raise MalformedFeed(f"expected an Atom feed from the API, got <{tag}>")
    entries = root.findall(ATOM + "entry")
    seen: dict[str, ArxivMeta | str] = {}
    for entry in entries:
        entry_id = (entry.findtext(ATOM + "id") or "").strip()
        if "/api/errors" in entry_id:
            detail = clean(entry.findtext(ATOM + "summary")) or clean(entry.findtext(ATOM + "title")) or entry_id
            raise ApiError(f"arXiv API error: {detail}")
        parsed = arxiv_id.parse(entry_id.rsplit("/abs/", 1)[-1])
        if parsed is not None:
            seen[parsed.base] = "the arXiv entry lacks required fields (id, published or updated date)"
    for result in arxiv_feed.parse(body).results:
        parsed = arxiv_id.parse(result.get_short_id())
        if parsed is None:
            continue
        try:
            seen[parsed.base] = to_meta(result, parsed.version)
        except (ValueError, ValidationError) as exc:
            seen[parsed.base] = f"the arXiv entry does not fit the schema: {_first_error(exc)}"
    return len(entries), seen


def _first_error(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        err = exc.errors(include_url=False)[0]
        return f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}"
    return str(exc)


def _dedup(items) -> list[str]:
    out: list[str] = []
    for item in items:
        if item and item not in out:
            out.append(item)
    return out


def to_meta(result, version: int | None) -> ArxivMeta:
    """An ``arxiv.Result`` -> ``ArxivMeta`` with text normalised to fit the schema."""
    title = clean(result.title, TEXT_MAX)
    if not title:
        raise ValueError("the arXiv entry has no title")
    return ArxivMeta(
        title=title,
        authors=_dedup(clean(a.name, LINE_MAX) for a in result.authors),
        abstract=clean(result.summary, ABSTRACT_MAX),
        published=result.published.date() if result.published else None,
        updated=result.updated.date() if result.updated else None,
        categories=_dedup(clean(c, LINE_MAX) for c in result.categories),
        primary_category=clean(result.primary_category, LINE_MAX),
        doi=clean(result.doi, LINE_MAX),
        journal_ref=clean(result.journal_ref, LINE_MAX),
        comment=clean(result.comment, TEXT_MAX),
        version=version,
    )

