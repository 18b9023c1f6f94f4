"""BibTeX for papers, with bibtexparser's v2 API: entries out, entries back in.

Pure and offline: the site build imports this module (and only this one of the
arXiv/BibTeX tooling).  The functions the site calls:

* :func:`entry_for` ``(paper, kb=None) -> str`` - one entry; pass ``kb`` to get
  the key it has in whole-library exports;
* :func:`export_library` ``(kb, papers) -> str`` - entries for ``papers``
  (Paper objects or ids), sorted by citation key;
* :func:`citation_keys` ``(kb) -> {paper id: key}``.

What an entry carries (:func:`fields_for`): title, authors, year and month,
venue (``booktitle``, with ``venue.detail`` as ``note``), journal reference
(``journal``), DOI, ``eprint``/``archivePrefix``/``primaryClass`` for arXiv
papers, and a ``url``.  :func:`paper_fields_from_entry` reads such an entry
back, so export -> import keeps every field listed here.

Citation keys: ``<first author's last name, else short name><year><first
significant title word>``, lowercase ASCII, deterministic; papers that would
share a key get suffixes ``a``, ``b``, … in arXiv-id (then paper-id) order, so
the oldest paper keeps ``a`` when a newer one arrives.
"""

from __future__ import annotations

import re
import unicodedata
import weakref
from dataclasses import dataclass
from typing import Iterable

import bibtexparser
from bibtexparser.model import Entry, Field

from kb.data import arxiv_id

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
STOPWORDS = frozenset(
    "a an the on of to toward towards in for with and or is are do does can how why what when where "
    "via by at from into we our you your it its this that not no".split()
)
_LINK_ORDER = ("proceedings", "html", "pdf", "other", "blog", "code")
_FIELD_ORDER = ("title", "author", "booktitle", "journal", "note", "year", "month", "doi",
                "eprint", "archivePrefix", "primaryClass", "url")
_VERBATIM = frozenset({"doi", "eprint", "archivePrefix", "primaryClass", "url", "year", "month"})


# --------------------------------------------------------------------------- LaTeX text

_ESCAPES = {  # braces as words, so that the field's braces stay balanced for BibTeX itself
    "\\": r"\textbackslash{}", "{": r"\textbraceleft{}", "}": r"\textbraceright{}",
    "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}


def latex_escape(text: str) -> str:
    """Plain text -> BibTeX field text that reads back as the same text."""
    return "".join(_ESCAPES.get(ch, ch) for ch in text)


_ACCENTS = {'"': "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303", "=": "\u0304",
            ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b", "c": "\u0327", "k": "\u0328",
            "r": "\u030a"}
_WORDS = {"textbackslash": "\\", "textbraceleft": "{", "textbraceright": "}", "textasciitilde": "~",
          "textasciicircum": "^", "ss": "ß", "o": "ø",
          "O": "Ø", "aa": "å", "AA": "Å", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "l": "ł", "L": "Ł",
          "i": "ı", "j": "ȷ", "textendash": "–", "textemdash": "—", "textquoteright": "’", "textquoteleft": "‘"}
_STYLE = frozenset({"emph", "textit", "textbf", "textsc", "texttt", "textrm", "textsf", "textup", "mbox", "text",
                    "url", "mathrm", "mathit", "mathbf", "mathsf", "mathtt", "bf", "it", "em", "sc", "tt", "rm"})
_TOKEN = re.compile(r"""
    \\(?P<acc>["'`^~=.])\s*(?:\{(?P<a1>\\?[A-Za-z]?)\}|(?P<a2>\\?[A-Za-z]))
  | \\(?P<lacc>[uvHckr])(?:\{(?P<b1>\\?[A-Za-z]?)\}|\s+(?P<b2>[A-Za-z]))
  | \\(?P<word>[A-Za-z]+)(?P<after>\{\}|[ \t\n]*)
  | \\(?P<sym>[^A-Za-z])
  | (?P<brace>[{}])
  | (?P<tie>~)
""", re.VERBOSE)


def latex_unescape(text: str) -> str:
    """BibTeX field text -> plain text: escapes, accents and grouping braces resolved."""

    def letter(raw: str | None) -> str:
        raw = raw or ""
        return _WORDS.get(raw[1:], raw[1:]) if raw.startswith("\\") else raw

    def sub(m: re.Match[str]) -> str:
        if m.group("acc") or m.group("lacc"):
            mark = _ACCENTS[m.group("acc") or m.group("lacc")]
            base = letter(m.group("a1") or m.group("a2") or m.group("b1") or m.group("b2"))
            return unicodedata.normalize("NFC", base + mark) if base else mark
        if m.group("word"):
            word = m.group("word")
            if word in _WORDS:
                return _WORDS[word]
            if word in _STYLE:  # the braced argument that follows stays, its braces go
                return " " if m.group("after").strip() == "" and m.group("after") else ""
            return "\\" + word + (" " if m.group("after").strip() == "" and m.group("after") else "")
        if m.group("sym") is not None:
            sym = m.group("sym")
            return " " if sym.isspace() or sym == "\\" else sym
        if m.group("tie"):
            return " "
        return ""  # a grouping brace

    return " ".join(_TOKEN.sub(sub, text).split())


# --------------------------------------------------------------------------- names

def _split_top(text: str, sep: re.Pattern[str]) -> list[str]:
    """Split at ``sep`` matches that are outside braces."""
    parts, depth, last = [], 0, 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0:
            m = sep.match(text, i)
            if m:
                parts.append(text[last:i])
                last = i = m.end()
                continue
        i += 1
    parts.append(text[last:])
    return [p.strip() for p in parts]


_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
_COMMA = re.compile(r",")


def bib_name(name: str) -> str:
    """"First Last" -> "Last, First"; a name BibTeX would misread is braced whole."""
    name = " ".join(name.split())
    words = name.split(" ")
    if "," in name or _AND.search(f" {name} ") or len(words) == 1:
        return "{" + latex_escape(name) + "}" if len(words) > 1 or "," in name else latex_escape(name)
    return f"{latex_escape(words[-1])}, {latex_escape(' '.join(words[:-1]))}"


def parse_names(value: str) -> list[str]:
    """A BibTeX ``author`` value -> ["First Last", …]."""
    out = []
    for raw in _split_top(value, _AND):
        if not raw:
            continue
        parts = _split_top(raw, _COMMA)
        if len(parts) == 2:
            raw = f"{parts[1]} {parts[0]}"
        elif len(parts) >= 3:
            raw = f"{parts[2]} {parts[0]} {parts[1]}"
        name = latex_unescape(raw)
        if name:
            out.append(name)
    return out


# --------------------------------------------------------------------------- paper -> fields

def _year_month(paper) -> tuple[str | None, int | None]:
    if paper.published:
        parts = paper.published.split("-")
        return parts[0], int(parts[1]) if len(parts) > 1 else None
    meta = paper.arxiv_meta
    day = (meta.published if meta else None) or paper.submitted
    return (str(day.year), day.month) if day else (None, None)


def fields_for(paper) -> dict[str, object]:
    """The plain-text fields of a paper's entry (``ENTRYTYPE`` first; ``author`` is a tuple
    of names), as :func:`entry_for` writes them."""
    meta = paper.arxiv_meta
    out: dict[str, object] = {}
    out["ENTRYTYPE"] = "inproceedings" if paper.venue else ("article" if meta and meta.journal_ref else "misc")
    out["title"] = paper.display_title
    authors = list(paper.authors) or (list(meta.authors) if meta else [])
    if authors:
        out["author"] = tuple(authors)
    if paper.venue:
        out["booktitle"] = paper.venue.name
        if paper.venue.detail:
            out["note"] = paper.venue.detail
    if meta and meta.journal_ref:
        out["journal"] = meta.journal_ref
    year, month = _year_month(paper)
    if year:
        out["year"] = year
    if month:
        out["month"] = MONTHS[month - 1]
    if meta and meta.doi:
        out["doi"] = meta.doi
    if paper.arxiv:
        out["eprint"] = paper.arxiv
        out["archivePrefix"] = "arXiv"
        primary = (meta.primary_category if meta else None) or (paper.subjects[0] if paper.subjects else None)
        if primary:
            out["primaryClass"] = primary
        out["url"] = arxiv_id.parse(paper.arxiv).abs_url
    else:
        for name in _LINK_ORDER:
            link = getattr(paper.links, name)
            if link:
                out["url"] = link
                break
    return out


def _ascii_word(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower())


def key_base(paper) -> str:
    """The citation key before de-duplication."""
    f = fields_for(paper)
    authors = f.get("author") or ("",)
    who = _ascii_word(authors[0].split(" ")[-1])[:32]
    who = who or _ascii_word(paper.short)[:32] or _ascii_word(paper.id)[:32] or "paper"
    word = ""
    for w in f["title"].split():
        candidate = _ascii_word(w)[:20]
        if candidate and candidate not in STOPWORDS and candidate not in who:
            word = candidate
            break
    return f"{who}{f.get('year', '')}{word}"


_last_keys: tuple = (None, -1, {})  # (weak reference to kb, number of papers, keys)


def citation_keys(kb) -> dict[str, str]:
    """{paper id: citation key} for every paper of the knowledge base, de-duplicated.

    Remembered for the last knowledge base asked about (pages call it once per paper)."""
    return dict(_keys(kb))


def _keys(kb) -> dict[str, str]:
    """:func:`citation_keys` without the copy (read only): O(1) per paper page."""
    global _last_keys
    ref, count, cached = _last_keys
    if ref is not None and ref() is kb and count == len(kb.papers):
        return cached
    keys = _compute_keys(kb)
    try:
        _last_keys = (weakref.ref(kb), len(kb.papers), keys)
    except TypeError:  # pragma: no cover - an object without weak references
        pass
    return keys


def _compute_keys(kb) -> dict[str, str]:
    groups: dict[str, list] = {}
    for paper in kb.papers.values():
        groups.setdefault(key_base(paper), []).append(paper)
    out: dict[str, str] = {}
    for base, papers in groups.items():
        if len(papers) == 1:
            out[papers[0].id] = base
            continue
        papers.sort(key=lambda p: (p.arxiv_base or "~", p.id))
        for i, paper in enumerate(papers):
            out[paper.id] = base + _suffix(i)
    return out


def _suffix(i: int) -> str:
    letters = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        letters = chr(ord("a") + r) + letters
    return letters


# --------------------------------------------------------------------------- writing

def _entry(paper, key: str) -> Entry:
    f = fields_for(paper)
    fields = []
    for name in _FIELD_ORDER:
        if name not in f:
            continue
        value = f[name]
        if name == "author":
            fields.append(Field(name, " and ".join(bib_name(a) for a in value)))
        elif name == "title":
            fields.append(Field(name, "{" + latex_escape(value) + "}"))  # keep the title's capitals
        elif name == "month":
            fields.append(Field(name, value, enclosing="no-enclosing"))
        elif name in _VERBATIM:
            fields.append(Field(name, value.replace("{", "").replace("}", "")))
        else:
            fields.append(Field(name, latex_escape(value)))
    return Entry(f["ENTRYTYPE"], key, fields)


def _format() -> bibtexparser.BibtexFormat:
    fmt = bibtexparser.BibtexFormat()
    fmt.indent = "  "
    fmt.block_separator = "\n"
    return fmt


def _write(entries: list[Entry]) -> str:
    return bibtexparser.write_string(bibtexparser.Library(entries), bibtex_format=_format())


def entry_for(paper, kb=None) -> str:
    """One BibTeX entry for ``paper`` (its library-wide key when ``kb`` is given)."""
    key = _keys(kb)[paper.id] if kb is not None and paper.id in kb.papers else key_base(paper)
    return _write([_entry(paper, key)])


def export_library(kb, papers: Iterable) -> str:
    """BibTeX for ``papers`` (Paper objects or ids), sorted by citation key."""
    keys = _keys(kb)
    chosen = {}
    for p in papers:
        paper = kb.papers[p] if isinstance(p, str) else p
        chosen[paper.id] = paper
    ordered = sorted(chosen.values(), key=lambda p: (keys.get(p.id) or key_base(p), p.id))
    # entry by entry: bibtexparser's writer is quadratic in the number of blocks (it copies the
    # block list once per block); with a fixed value column, joining gives the same text
    return _format().block_separator.join(_write([_entry(p, keys.get(p.id) or key_base(p))]) for p in ordered)


# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class BibPaper:
    """What an entry says about a paper, as plain text (see :func:`paper_fields_from_entry`)."""

    key: str
    line: int  # 1-based line of the entry
    entry_type: str
    arxiv: str | None
    title: str | None
    authors: tuple[str, ...]
    year: str | None
    month: int | None
    venue: str | None
    venue_detail: str | None
    journal: str | None
    doi: str | None
    primary_class: str | None
    url: str | None


_ARXIV_IN_TEXT = re.compile(r"arxiv\.org/(?:abs|pdf)/(?P<url>[^\s?#}]+)|arXiv:\s*(?P<tag>\S+)", re.IGNORECASE)


def _value(entry: Entry, name: str) -> str | None:
    for f in entry.fields:
        if f.key.lower() == name.lower():
            value = f.value if isinstance(f.value, str) else str(f.value)
            return value.strip()
    return None


def _month(raw: str | None) -> int | None:
    if not raw:
        return None
    text = latex_unescape(raw).strip().lower()
    if text.isdigit() and 1 <= int(text) <= 12:
        return int(text)
    return MONTHS.index(text[:3]) + 1 if text[:3] in MONTHS else None


def entry_arxiv(entry: Entry) -> tuple[str | None, str | None]:
    """(arXiv id as written, or None; a problem with it, or None)."""
    prefix = (_value(entry, "archivePrefix") or _value(entry, "eprinttype") or "").strip("{} ").lower()
    eprint = _value(entry, "eprint")
    if eprint and prefix in ("", "arxiv"):
        text = latex_unescape(eprint)
        parsed = arxiv_id.parse(text)
        if parsed is None:
            return None, f"eprint '{text}' is not an arXiv id"
        return str(parsed), None
    for name in ("url", "journal", "note", "howpublished"):
        raw = _value(entry, name)
        if not raw:
            continue
        m = _ARXIV_IN_TEXT.search(raw if name == "url" else latex_unescape(raw))
        if m:
            found = (m.group("url") or m.group("tag")).rstrip(".,;").removesuffix(".pdf")
            parsed = arxiv_id.parse(found)
            if parsed:
                return str(parsed), None
    return None, None


def paper_fields_from_entry(entry: Entry) -> BibPaper:
    """Read an entry's fields as plain text."""
    arxiv, _ = entry_arxiv(entry)

    def text(name: str) -> str | None:
        raw = _value(entry, name)
        return (latex_unescape(raw) or None) if raw is not None else None

    def verbatim(name: str) -> str | None:
        raw = _value(entry, name)
        return raw.replace("{", "").replace("}", "").strip() or None if raw else None

    journal = text("journal")
    if journal and re.match(r"arxiv\b", journal, re.IGNORECASE):
        journal = None  # "arXiv preprint arXiv:…" is no journal reference
    year = verbatim("year")
    return BibPaper(
        key=entry.key,
        line=(entry.start_line or 0) + 1,
        entry_type=entry.entry_type.lower(),
        arxiv=arxiv,
        title=text("title"),
        authors=tuple(parse_names(_value(entry, "author") or "")),
        year=year if year and re.fullmatch(r"\d{4}", year) else None,
        month=_month(_value(entry, "month")),
        venue=text("booktitle"),
        venue_detail=text("note") if _value(entry, "booktitle") else None,
        journal=journal,
        doi=verbatim("doi"),
        primary_class=verbatim("primaryClass"),
        url=verbatim("url"),
    )


# --------------------------------------------------------------------------- selections


def papers_for_topic(kb, topic: str) -> list:
    """Papers anchored in ``topic``, filed under it (category), or mentioned in its briefs."""
    ids = {p.id for p in kb.papers.values()
           if any(a.topic == topic for a in p.anchors)
           or (p.category and (p.category.primary == topic or topic in p.category.adjacent))}
    briefs = set(kb.by_topic.get(topic, []))
    ids |= {m.paper for m in kb.mentions if m.paper and m.place.brief in briefs}
    return [kb.papers[i] for i in sorted(ids)]


def papers_for_section(kb, section: str) -> list:
    """Papers anchored in ``section`` or below it, or named by brief items about those sections."""
    info = kb.find_section(section)
    if info is None:
        return []
    topic = info.topic
    under = {sid for sid, i in kb.sections[topic].items() if sid == section or any(p.id == section for p in i.parents)}
    ids = {p.id for p in kb.papers.values() if any(a.topic == topic and a.section in under for a in p.anchors)}
    for key in kb.by_topic.get(topic, []):
        brief = kb.briefs[key]
        for inc in brief.increments:
            if under & set(inc.sections):
                ids.update(inc.papers)
            for rel in inc.relations:
                if rel.section in under:
                    ids.update(rel.papers)
        for adj in brief.adjacent:
            if under & set(adj.sections):
                ids.update(adj.papers)
    return [kb.papers[i] for i in sorted(ids) if i in kb.papers]


def papers_for_brief(kb, brief_key: str) -> list:
    """Papers a brief mentions (explicit references and arXiv ids in its text)."""
    ids = {m.paper for m in kb.mentions if m.paper and m.place.brief == brief_key}
    return [kb.papers[i] for i in sorted(ids)]
