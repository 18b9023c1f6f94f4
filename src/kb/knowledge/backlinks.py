"""Every mention of every paper, collected from the records: explicit references and arXiv ids in
briefs and paper files, and the living documents' sections that anchor a paper (the mention
itself: :mod:`kb.knowledge.mentions`).  :class:`MentionMemo` keeps each record's mentions across
builds for as long as what they were made from is the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from pydantic import BaseModel

from kb.data import arxiv_id
from kb.data.models import Brief, Paper
from kb.knowledge.mentions import CONTEXT_MAX, Mention, Place, iter_strings, sentence_around, text_mentions
from kb.messages import t

if TYPE_CHECKING:
    from kb.knowledge.history import AnchorRecord
    from kb.knowledge.index import KnowledgeBase


_NOT_TEXT = ("path", "url", "cron", "timezone", "round", "topic", "arxiv", "claim", "finding", "anchored_in", "section")


def brief_place(key: str, brief: Brief, path: tuple[str | int, ...]) -> Place:
    """Where a part of a brief sits on its page (an element id and a label)."""
    page = f"briefs/{key}.md"
    head = path[0] if path else ""
    i = path[1] if len(path) > 1 and isinstance(path[1], int) else None

    def place(anchor: str, label: str) -> Place:
        return Place("brief", page, anchor, label, brief.date, key)

    if head == "increments" and i is not None:
        return place(f"inc-{i + 1}", t("brief.increment_toc", n=i + 1, label=brief.increments[i].label))
    if head == "adjacent" and i is not None:
        letter = chr(ord("A") + i)
        return place(f"adj-{letter.lower()}", t("place.adjacent", letter=letter, title=brief.adjacent[i].title))
    if head == "claims" and i is not None:
        return place(f"claim-{i + 1}", t("place.claim", n=i + 1, title=brief.claims[i].title))
    if head == "claim_updates" and i is not None:
        return place(f"claim-update-{i + 1}", t("place.claim_update", claim=brief.claim_updates[i].claim))
    if head == "sources" and i is not None:
        return place(f"src-{i + 1}", t("place.source", n=i + 1, title=brief.sources[i].title))
    if head in _NAMED:
        anchor, name = _NAMED[head]
        return place(anchor, t(name))
    return place("status", t("brief.status"))


# a part of a brief named as a whole: its field -> (its element id, its name's key in the catalogue)
_NAMED = {
    "candidates": ("candidates", "brief.candidates"),
    "carried": ("carried", "sighting.carried"),
    "citable": ("arxiv-ids", "place.citable"),
    "comparison": ("summary", "place.summary"),
    "checked": ("source-lists", "place.source_lists"),
    "signature": ("signature", "brief.signature"),
}


class Lookups:
    """The knowledge base as making a record's mentions sees it: which paper has an id or an
    arXiv id.  What was asked is kept (:attr:`asked`), so the mentions can be reused in a later
    build for as long as every answer is the same (:meth:`hold`)."""

    def __init__(self, kb: KnowledgeBase) -> None:
        self._papers, self._arxiv = kb.papers, kb.by_arxiv
        self.asked: dict[tuple[str, str], object] = {}

    def paper(self, pid: str) -> Paper | None:
        found = self._papers.get(pid)
        self.asked["paper", pid] = _face(found)
        return found

    def by_arxiv(self, base: str) -> str | None:
        found = self._arxiv.get(base)
        self.asked["arxiv", base] = found
        return found

    @staticmethod
    def hold(kb: KnowledgeBase, asked: dict[tuple[str, str], object]) -> bool:
        """Whether ``kb`` answers every question of ``asked`` as before."""
        papers, arxiv = kb.papers, kb.by_arxiv
        for (kind, name), answer in asked.items():
            now = _face(papers.get(name)) if kind == "paper" else arxiv.get(name)
            if now != answer:
                return False
        return True


def _face(paper: Paper | None) -> tuple[str, ...] | None:
    """All a mention reads of a paper: its id, its arXiv id and the names a text may call it by."""
    if paper is None:
        return None
    return (paper.id, paper.arxiv_base or "", paper.short, paper.display_title)


@dataclass(frozen=True)
class Kept:
    """A record's mentions and what they were made from: the record (``token``: the record itself
    in a preview, its file's digest between builds) and the answers of :class:`Lookups`."""

    token: object
    asked: dict[tuple[str, str], object]
    mentions: list[Mention]


@dataclass
class MentionMemo:
    """The mentions of each brief and paper record, kept across builds.

    A record's mentions depend on the record and on what it asked of the rest (:class:`Lookups`:
    which paper has an id or arXiv id, and the names of those papers).  They are reused while the
    record's token is the same (``kb preview``: the very record object, as
    :class:`kb.data.loader.FileMemo` hands back the same record for the same bytes; a build: the
    digest of its file, :mod:`kb.knowledge.mentionstore`) and every answer is the same.  Off unless
    :func:`collect` is given one."""

    records: dict[str, Kept] = field(default_factory=dict)  # "brief:key"/"paper:id"
    reused: int = 0  # records whose mentions the last build reused
    changed: bool = False  # whether the last build made or dropped any
    _next: dict[str, Kept] = field(default_factory=dict)

    def start(self) -> None:
        self._next, self.reused = {}, 0

    def get(
        self, kb: KnowledgeBase, key: str, token: object, make: Callable[[Lookups], Iterator[Mention]]
    ) -> list[Mention]:
        kept = self.records.get(key)
        if kept is not None and (kept.token is token or kept.token == token) and Lookups.hold(kb, kept.asked):
            self.reused += 1
        else:
            look = Lookups(kb)
            made = list(make(look))
            kept = Kept(token, look.asked, made)
        self._next[key] = kept
        return kept.mentions

    def finish(self) -> None:
        """End of a build: keep only the records it saw."""
        self.changed = self.reused < len(self._next) or not self.records.keys() <= self._next.keys()
        self.records, self._next = self._next, {}


def collect(
    kb: KnowledgeBase, memo: MentionMemo | None = None, tokens: Mapping[str, object] | None = None
) -> list[Mention]:
    """Every mention in the data: explicit references and ids in text, in briefs and paper files,
    and the living documents' sections that anchor a paper.  With a ``memo``, each record is known
    by its entry in ``tokens`` ("brief:key"/"paper:id"), else by the record object itself."""
    out: list[Mention] = []
    if memo is None:
        look = Lookups(kb)
        for key, brief in kb.briefs.items():
            out.extend(_brief_mentions(key, brief, look))
        for pid, paper in kb.papers.items():
            out.extend(_paper_mentions(pid, paper, look))
    else:
        tokens = tokens or {}
        memo.start()
        for key, brief in kb.briefs.items():
            name = f"brief:{key}"
            out.extend(memo.get(kb, name, tokens.get(name, brief), partial(_brief_mentions, key, brief)))
        for pid, paper in kb.papers.items():
            name = f"paper:{pid}"
            out.extend(memo.get(kb, name, tokens.get(name, paper), partial(_paper_mentions, pid, paper)))
        memo.finish()
    for topic in kb.topics:
        for rec in kb.anchored_in(topic):  # one mention under each of its sections
            out.extend(_anchor_mention(kb, topic, rec, sid) for sid in rec.sections or (None,))
    return out


def _brief_mentions(key: str, brief: Brief, look: Lookups) -> Iterator[Mention]:
    for path, text in iter_strings(brief):
        if path and path[-1] in _NOT_TEXT:
            continue
        if len(path) >= 2 and path[-2] in ("papers", "confirmed_pending") or path[-1:] == ("paper",):
            paper = look.paper(text)
            if paper is not None:
                yield Mention(
                    brief_place(key, brief, path),
                    paper.id,
                    paper.arxiv_base,
                    _explicit_context(brief, path, paper),
                    True,
                )
            continue
        if arxiv_id.may_hold_ids(text):  # most strings hold no id: skip building their place
            yield from text_mentions(brief_place(key, brief, path), text, look.by_arxiv)
    for gi, g in enumerate(brief.sources):
        for card in g.cards:
            if card.arxiv:
                base = arxiv_id.normalize(card.arxiv)
                pid = look.by_arxiv(base or "")
                # the card's title, else the name of the paper it stands for, so the context names it
                named = look.paper(pid) if pid and not card.title else None
                name = card.title or (named.short if named else f"arXiv:{base or card.arxiv}")
                ctx = f"paper_card {card.number} · {name}" + (f" · {card.note}" if card.note else "")
                yield Mention(brief_place(key, brief, ("sources", gi)), pid, base, ctx, True)


def _paper_mentions(pid: str, paper: Paper, look: Lookups) -> Iterator[Mention]:
    """Paper files that mention other papers in their notes."""
    for name in ("authors_note", "key_numbers", "notes"):  # in field order
        for _path, value in iter_strings(getattr(paper, name), (name,)):
            if not arxiv_id.may_hold_ids(value):
                continue
            anchor = "notes" if name == "notes" else ("key-numbers" if name == "key_numbers" else "")
            place = Place("paper", f"papers/{pid}.md", anchor, t("place.paper", name=paper.short), None)
            yield from (m for m in text_mentions(place, value, look.by_arxiv) if m.paper != pid)


def _anchor_mention(kb: KnowledgeBase, topic: str, rec: AnchorRecord, section: str | None) -> Mention:
    doc = kb.topics[topic]
    info = kb.section(topic, section) if section else None
    where = info.section.name if info else t("status.unsectioned")
    place = Place(
        "section",
        doc.page,
        f"sec-{section}" if info else "unsectioned",
        f"{doc.title} · {where}",
        rec.recorded_on,
    )
    paper = kb.papers[rec.paper]
    since, by = rec.since, rec.recorded_on
    when = t("place.anchored_since", date=since.isoformat()) if since else t("place.anchored_by", date=by.isoformat())
    return Mention(place, rec.paper, paper.arxiv_base, when, True)


def _names(paper: Paper) -> list[str]:
    """What a text writes to name the paper: its short name, arXiv id, id or title (longest first)."""
    names = {n for n in (paper.short, paper.arxiv_base, paper.id, paper.display_title) if n}
    return sorted(names, key=len, reverse=True)


def _naming(text: str, names: list[str]) -> tuple[int, int] | None:
    low = text.lower()
    for name in names:
        i = low.find(name.lower())
        if i >= 0:
            return i, i + len(name)
    return None


def _clip(value: str) -> str:
    return value if len(value) <= CONTEXT_MAX else value[: CONTEXT_MAX - 1] + "…"


def _explicit_context(brief: Brief, path: tuple[str | int, ...], paper: Paper) -> str:
    """The human text an explicit reference sits in, and that names the paper.

    The reference's enclosing objects are searched from the nearest outwards (a relation before
    its increment, a claim's points before the claim): the first string in them that names the
    paper (short name, arXiv id, id or title) gives the sentence around the name.  When none
    does, the paper's short name is put before the nearest text (a title, text or note), so the
    context always names the paper it stands for."""
    chain: list[object] = [brief]
    obj: object = brief
    for part in path[:-1]:
        try:
            obj = obj[part] if isinstance(part, int) else getattr(obj, part)  # type: ignore[index]  # lists by index, models by name
        except (IndexError, AttributeError, TypeError):
            break
        chain.append(obj)
    items = [o for o in reversed(chain[1:]) if isinstance(o, BaseModel)]
    names = _names(paper)
    for item in items:
        for sub, value in iter_strings(item):
            if (
                sub
                and sub[-1] in _NOT_TEXT + ("id",)
                or sub[-1:] == ("paper",)
                or (len(sub) >= 2 and sub[-2] in ("papers", "sections"))
            ):
                continue
            hit = _naming(value, names)
            if hit is not None:
                return sentence_around(value, *hit)
    for item in items:
        for attr in ("text", "note", "title"):
            found = getattr(item, attr, None)
            if isinstance(found, str) and found.strip():
                return _clip(f"{paper.short}：{sentence_around(found, 0, 0)}")
    return paper.short
