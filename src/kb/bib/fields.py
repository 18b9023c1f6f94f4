"""What a paper's BibTeX entry says, as plain text, before any LaTeX.

:func:`fields_for` decides the entry: its type, title, authors, venue, date and
identifiers.  :func:`uncitable` says why a paper cannot have an entry a reader
could cite (no author, no full title or no year: :func:`missing`) and what to add.

* type: ``inproceedings`` (``booktitle`` = the venue, ``note`` = its detail) when
  a venue is known, else ``article`` (``journal`` = arXiv's journal reference)
  when one is known, else ``misc``;
* ``title`` always (the paper's title, arXiv's, or the short name);
* ``author`` when known (``authors``, else arXiv's);
* ``year`` as the venue names it (``VLDB 2026``), else ``year`` and ``month`` from ``published``,
  else arXiv's v1 date
  (``arxiv_meta.published``), else the month the arXiv id encodes, else the
  stated v1 date (``submitted``);
* ``doi`` from arXiv; ``eprint``, ``archivePrefix = {arXiv}`` and ``primaryClass``
  for a paper with an arXiv id, and its abs page as ``url``; a paper without one
  gives its first link (proceedings, html, pdf, other, blog, code) as ``url``.
"""

from __future__ import annotations

import re

from kb.data import arxiv_id
from kb.data.models import Paper

LINK_ORDER = ("proceedings", "html", "pdf", "other", "blog", "code")


def authors_of(paper: Paper) -> list[str]:
    meta = paper.arxiv_meta
    return list(paper.authors) or (list(meta.authors) if meta else [])


_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


def date_of(paper: Paper) -> tuple[str | None, int | None]:
    """(year, month or None) of the entry: the year a venue names (``VLDB 2026``: the proceedings'
    year, whatever the preprint's), else from the first source that has a date."""
    named = _YEAR.findall(paper.venue.name) if paper.venue else []
    if named:
        return named[-1], None
    if paper.published:
        parts = paper.published.split("-")
        return parts[0], int(parts[1]) if len(parts) > 1 else None
    meta = paper.arxiv_meta
    if meta and meta.published:
        return str(meta.published.year), meta.published.month
    parsed = arxiv_id.parse(paper.arxiv) if paper.arxiv else None
    if parsed is not None:
        year, month = parsed.year_month
        return str(year), month
    if paper.submitted:
        return str(paper.submitted.year), paper.submitted.month
    return None, None


def entry_type(paper: Paper) -> str:
    if paper.venue:
        return "inproceedings"
    return "article" if paper.arxiv_meta and paper.arxiv_meta.journal_ref else "misc"


def fields_for(paper: Paper) -> dict[str, object]:
    """The plain-text fields of a paper's entry: ``ENTRYTYPE`` first, ``author`` a tuple of
    names, ``month`` a number, every other value a string."""
    meta = paper.arxiv_meta
    out: dict[str, object] = {"ENTRYTYPE": entry_type(paper), "title": paper.display_title}
    authors = authors_of(paper)
    if authors:
        out["author"] = tuple(authors)
    if paper.venue:
        out["booktitle"] = paper.venue.name
        if paper.venue.detail:
            out["note"] = paper.venue.detail
    elif meta and meta.journal_ref:
        out["journal"] = meta.journal_ref
    year, month = date_of(paper)
    if year:
        out["year"] = year
    if month:
        out["month"] = month
    if meta and meta.doi:
        out["doi"] = meta.doi
    out.update(_identifiers(paper))
    return out


def _identifiers(paper: Paper) -> dict[str, str]:
    parsed = arxiv_id.parse(paper.arxiv) if paper.arxiv else None
    if parsed is None:
        link = next((getattr(paper.links, name) for name in LINK_ORDER if getattr(paper.links, name)), None)
        return {"url": link} if link else {}
    out = {"eprint": str(parsed), "archivePrefix": "arXiv"}
    meta = paper.arxiv_meta
    primary = (meta.primary_category if meta else None) or (paper.subjects[0] if paper.subjects else None)
    if primary:
        out["primaryClass"] = primary
    out["url"] = parsed.abs_url
    return out


# What a complete entry needs, each with how to add it (the page says the same in Chinese:
# ``paper.bib_missing.*`` in the message catalogue).
NEEDED = {
    "author": "no author (add `authors:`, or `kb paper refresh` when online)",
    "title": "no full title, only the short name (add `title:`, or `kb paper refresh` when online)",
    "year": "no year (add `published: YYYY`, or an arXiv id)",
}


def missing(paper: Paper) -> list[str]:
    """The fields of :data:`NEEDED` that the paper's entry would lack: an entry without them makes a
    reference manager print "Anonymous" or a bare short name, so none is offered."""
    out = []
    if not authors_of(paper):
        out.append("author")
    if paper.display_title == paper.short:
        out.append("title")
    if date_of(paper)[0] is None:
        out.append("year")
    return out


def uncitable(paper: Paper) -> str | None:
    """Why the paper gets no BibTeX entry (and what to add), or None when it can be cited."""
    return "; ".join(NEEDED[name] for name in missing(paper)) or None
