"""arXiv API Atom answers -> :class:`kb.data.models.ArxivMeta`, keyed by base arXiv id.

Read with lxml alone: the XML is parsed strictly (no recovery, no entities, no
DTD, no network), so a truncated or garbled answer is an error rather than a
silently shorter list, and each ``<entry>`` is read field by field:

====================================  ==========================
Atom / arXiv element                  ArxivMeta field
====================================  ==========================
``id`` (``…/abs/<id>v<N>``)           the key, and ``version``
``title``                             ``title``
``summary``                           ``abstract``
``published``, ``updated``            ``published``, ``updated``
``author/name``                       ``authors``
``category/@term``                    ``categories``
``arxiv:primary_category/@term``      ``primary_category``
``arxiv:doi``                         ``doi``
``arxiv:journal_ref``                 ``journal_ref``
``arxiv:comment``                     ``comment``
====================================  ==========================

An answer that lists one id twice is refused (:class:`BadAnswer`): which of
the two is arXiv's cannot be told.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from lxml import etree
from pydantic import ValidationError

from kb.data import arxiv_id
from kb.data.models import ArxivMeta
from kb.data.text import ABSTRACT_MAX, LINE_MAX, TEXT_MAX, clean

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
LACKS = "the arXiv entry lacks required fields (id, published or updated date)"


class MalformedFeed(Exception):
    """The answer is not a well-formed Atom feed (worth retrying: often a cut-off answer)."""


class ApiError(Exception):
    """The API answered with an error entry (e.g. a malformed id): retrying will not help."""


class BadAnswer(ApiError):
    """A well-formed answer that cannot be trusted (e.g. one id listed twice)."""


class _Missing(Exception):
    """A required element is absent."""


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, recover=False)


def _root(body: bytes) -> etree._Element:
    try:
        root = etree.fromstring(body, parser=_parser())
    except etree.XMLSyntaxError as exc:
        raise MalformedFeed(f"malformed XML from the API: {exc}") from None
    if root is None or root.tag != ATOM + "feed":
        tag = etree.QName(root).localname if root is not None else "nothing"
        raise MalformedFeed(f"expected an Atom feed from the API, got <{tag}>")
    return root


def parse(body: bytes) -> tuple[int, dict[str, ArxivMeta | str]]:
    """(number of entries, {base id: metadata, or why the entry was unusable}).

    Raises :class:`MalformedFeed`, :class:`ApiError` or :class:`BadAnswer`.
    """
    entries = _root(body).findall(ATOM + "entry")
    found: dict[str, ArxivMeta | str] = {}
    for entry in entries:
        parsed = _entry_id(entry)
        if parsed is None:
            continue
        if parsed.base in found:
            raise BadAnswer(f"the answer lists arXiv {parsed.base} more than once; refusing it")
        found[parsed.base] = _read(entry, parsed.version)
    return len(entries), found


def _entry_id(entry: etree._Element) -> arxiv_id.ArxivId | None:
    """The id an entry answers for; raises ApiError for the API's error entries."""
    raw = _text(entry, ATOM + "id") or ""
    if "/api/errors" in raw:
        detail = clean(_text(entry, ATOM + "summary")) or clean(_text(entry, ATOM + "title")) or raw
        raise ApiError(f"arXiv API error: {detail}")
    return arxiv_id.parse(raw.rsplit("/abs/", 1)[-1])


def _read(entry: etree._Element, version: int | None) -> ArxivMeta | str:
    try:
        return to_meta(entry, version)
    except _Missing:
        return LACKS
    except (ValueError, ValidationError) as exc:
        return f"the arXiv entry does not fit the schema: {_first_error(exc)}"


def to_meta(entry: etree._Element, version: int | None) -> ArxivMeta:
    """One ``<entry>`` -> ``ArxivMeta`` with text normalised to fit the schema."""
    published, updated = _date(entry, "published"), _date(entry, "updated")
    title = clean(_text(entry, ATOM + "title"), TEXT_MAX)
    if not title:
        raise ValueError("the arXiv entry has no title")
    primary = entry.find(ARXIV + "primary_category")
    return ArxivMeta(
        title=title,
        authors=_dedup(clean(_joined(name), LINE_MAX) for name in entry.iterfind(f"{ATOM}author/{ATOM}name")),
        abstract=clean(_text(entry, ATOM + "summary"), ABSTRACT_MAX),
        published=published,
        updated=updated,
        categories=_dedup(clean(c.get("term"), LINE_MAX) for c in entry.iterfind(ATOM + "category")),
        primary_category=clean(primary.get("term") if primary is not None else None, LINE_MAX),
        doi=clean(_text(entry, ARXIV + "doi"), LINE_MAX),
        journal_ref=clean(_text(entry, ARXIV + "journal_ref"), LINE_MAX),
        comment=clean(_text(entry, ARXIV + "comment"), TEXT_MAX),
        version=version,
    )


def _joined(element: etree._Element) -> str:
    return "".join(s for s in element.itertext() if isinstance(s, str))  # text nodes: always str


def _text(entry: etree._Element, tag: str) -> str | None:
    element = entry.find(tag)
    return _joined(element) if element is not None else None


def _date(entry: etree._Element, name: str) -> dt.date:
    raw = (_text(entry, ATOM + name) or "").strip()
    if not raw:
        raise _Missing(name)
    try:
        return dt.datetime.fromisoformat(raw).date()
    except ValueError:
        raise ValueError(f"{name}: not a date and time: {raw[:40]!r}") from None


def _first_error(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        err = exc.errors(include_url=False)[0]
        return f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}"
    return str(exc)


def _dedup(items: Iterable[str | None]) -> list[str]:
    out: list[str] = []
    for item in items:
        if item and item not in out:
            out.append(item)
    return out
