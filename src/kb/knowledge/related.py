"""Related papers: for each paper, the papers the briefs put beside it, ranked, each with why.

Two papers are related by what the briefs record of both (each a :class:`Tie`):

* ``relation`` — a 脉络关系 line of an increment names them together: each of the increment's
  papers with each paper the line names, and those papers with each other (the increment's own
  papers with each other are an ``item``);
* ``item`` — one increment or adjacent item lists both;
* ``claim`` — one claim to verify names both;
* ``section`` — both belong to one section of a topic's living document: anchored there, or
  named there by an increment (its sections, the sections it suggests) or an adjacent item.  It
  adds to two papers another tie joins, and alone relates none: a section holds hundreds of
  papers in a year, and a list of them all at the same score would be ranked by name;
* ``brief`` — one brief lists both as items (an increment, an adjacent item, a candidate, a
  claim; not the carried-over or citable lists, which restate earlier briefs).

A pair's score is the sum of its ties' weights (:data:`WEIGHTS`), its shared briefs counted up
to :data:`BRIEF_CAP`: a pair carried together through many briefs is not more related than one
a relation names.  A paper's list holds its :data:`LIMIT` best, by score, then name.  A section's
neighbourhood (:func:`section_graph`) is its papers, the best connected first, and the related
pairs among them.  Computed once per knowledge base (:func:`kb.knowledge.derived.memo`).

A long-running process (``kb preview``) keeps each paper's list between knowledge bases
(:func:`carry`, from :class:`kb.knowledge.load.Memo`), by the digest of what the list is made
from: the paper's groups (each tie, its papers and their names).  The next knowledge base takes
the lists whose digest is the same and computes only the others.
"""

from __future__ import annotations

import hashlib
import heapq
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import cast

from kb.knowledge.derived import memo
from kb.knowledge.index import KnowledgeBase


class Reason(str, Enum):
    relation = "relation"
    item = "item"
    claim = "claim"
    section = "section"
    brief = "brief"


WEIGHTS: Mapping[Reason, int] = {
    Reason.relation: 5,
    Reason.item: 4,
    Reason.claim: 3,
    Reason.section: 2,
    Reason.brief: 1,
}
BRIEF_CAP = 3  # shared briefs counted at most
LIMIT = 8  # related papers listed per paper
SECTION_NODES = 12  # papers drawn in a section's neighbourhood


@dataclass(frozen=True)
class Tie:
    """One fact two papers share.  ``where``: the brief key and the increment's 0-based index
    (``at``; ``-1`` for the first adjacent item, ``-2`` for the next…) and, for a relation, its
    0-based line (``line``); the topic and claim id (claim); the topic and section id (section);
    the brief key (brief)."""

    reason: Reason
    where: tuple[str, ...]
    at: int = 0
    line: int = 0


@dataclass(frozen=True)
class Related:
    paper: str
    score: int
    ties: tuple[Tie, ...]  # by reason (strongest first), then where

    def of(self, reason: Reason) -> tuple[Tie, ...]:
        return tuple(t for t in self.ties if t.reason is reason)


@dataclass(frozen=True)
class SectionGraph:
    papers: tuple[str, ...]  # drawn, best connected first
    total: int  # papers of the section
    edges: tuple[tuple[str, str, int], ...]  # (paper, paper, score) among the drawn, each pair once


def score(ties: Iterable[Tie]) -> int:
    """The score of a pair with these ties (the view sums it per paper, :func:`_scores`)."""
    ties = list(ties)
    briefs = sum(1 for t in ties if t.reason is Reason.brief)
    return sum(WEIGHTS[t.reason] for t in ties if t.reason is not Reason.brief) + min(briefs, BRIEF_CAP)


_ORDER = {r: i for i, r in enumerate(Reason)}


def _tie_order(t: Tie) -> tuple[int, tuple[str, ...], int, int]:
    return _ORDER[t.reason], t.where, t.at, t.line


def _groups(kb: KnowledgeBase) -> list[tuple[Tie, tuple[str, ...], frozenset[str]]]:
    """Every tie with the papers it joins (known papers only, each once), and the papers it does
    not join to each other (a relation's own increment's papers: their tie is the item)."""
    out: list[tuple[Tie, list[str], Iterable[str]]] = []
    sections: dict[tuple[str, str], list[str]] = {}

    def in_section(topic: str, sids: Iterable[str], papers: Iterable[str]) -> None:
        for sid in sids:
            if kb.section(topic, sid) is not None:
                sections.setdefault((topic, sid), []).extend(papers)

    for key, brief in kb.briefs.items():
        listed: list[str] = []
        for i, inc in enumerate(brief.increments):
            listed += inc.papers
            if len(inc.papers) > 1:
                out.append((Tie(Reason.item, (key,), i), inc.papers, ()))
            for j, rel in enumerate(inc.relations):
                if rel.papers:  # the increment's papers with those the line names, and those among themselves
                    out.append((Tie(Reason.relation, (key,), i, j), inc.papers + rel.papers, inc.papers))
            in_section(brief.topic, inc.sections + [s.section for s in inc.suggested], inc.papers)
        for i, adj in enumerate(brief.adjacent):
            listed += adj.papers
            if len(adj.papers) > 1:
                out.append((Tie(Reason.item, (key,), -1 - i), adj.papers, ()))
            in_section(brief.topic, adj.sections, adj.papers)
        listed += [c.paper for c in brief.candidates]
        for claim in brief.claims:
            listed += claim.papers
            if len(claim.papers) > 1:
                out.append((Tie(Reason.claim, (brief.topic, claim.id)), claim.papers, ()))
        out.append((Tie(Reason.brief, (key,)), listed, ()))
    for records in kb.history.anchors.values():
        for rec in records:
            in_section(rec.topic, rec.sections, [rec.paper])
    out += [(Tie(Reason.section, where), papers, ()) for where, papers in sections.items()]
    known = kb.papers
    kept = [(tie, tuple(dict.fromkeys([p for p in papers if p in known])), apart) for tie, papers, apart in out]
    return [(tie, papers, frozenset(apart) if apart else _NONE) for tie, papers, apart in kept if len(papers) > 1]


_NONE: frozenset[str] = frozenset()


def _scores(a: str, groups: Iterable[tuple[Tie, tuple[str, ...], frozenset[str]]]) -> dict[str, int]:
    """Each paper's score with ``a`` over ``a``'s groups."""
    scores: defaultdict[str, int] = defaultdict(int)
    briefs: defaultdict[str, int] = defaultdict(int)
    for tie, papers, apart in groups:
        if tie.reason is Reason.brief:
            for b in papers:
                briefs[b] += 1
        elif a in apart:
            for b in papers:
                if b not in apart:
                    scores[b] += WEIGHTS[tie.reason]
        else:
            w = WEIGHTS[tie.reason]
            for b in papers:
                scores[b] += w
    for b, n in briefs.items():
        scores[b] += min(n, BRIEF_CAP)
    scores.pop(a, None)
    return scores


def _add_sections(mine: frozenset[int], scores: dict[str, int], sec_of: Mapping[str, frozenset[int]]) -> None:
    """Add to the papers ``scores`` holds the weight of each section (of ``mine``) they share."""
    if mine:
        w = WEIGHTS[Reason.section]
        for b in scores:
            scores[b] += w * len(sec_of.get(b, _NO_SECTION) & mine)


_NO_SECTION: frozenset[int] = frozenset()


def _best(scores: Mapping[str, int], names: Mapping[str, str]) -> list[str]:
    """The :data:`LIMIT` best scored, by score, then name: sorted among those at the cut or above."""
    if not scores:
        return []
    cut = heapq.nlargest(LIMIT, scores.values())[-1]
    return sorted((b for b, s in scores.items() if s >= cut), key=lambda b: (-scores[b], names[b], b))[:LIMIT]


Spelled = tuple[tuple[str, int, tuple[tuple[str, tuple[str, ...], int, int], ...]], ...]
Carried = dict[str, tuple[bytes, tuple[Related, ...], Spelled]]  # paper -> (key, its list, spelled)
_CARRIED = "related carried"


def carry(kb: KnowledgeBase, kept: Carried) -> None:
    """Let ``kb`` take from ``kept`` the lists made from the same groups, and leave its own there
    (``kept``: what a long-running process keeps between knowledge bases)."""
    kb.derived[_CARRIED] = kept


def _keys(kb: KnowledgeBase, groups: list[tuple[Tie, tuple[str, ...], frozenset[str]]]) -> dict[str, bytes]:
    """Each paper's key: the digests of its groups (the tie, its papers and their names, the papers
    it does not join).  A paper's list is made from its groups only: the same key, the same list."""
    parts: dict[str, list[bytes]] = {}
    for tie, papers, apart in groups:
        names = [kb.papers[x].short for x in papers]
        text = repr((tie.reason.value, tie.where, tie.at, tie.line, papers, names, sorted(apart)))
        digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
        for x in papers:
            parts.setdefault(x, []).append(digest)
    return {x: b"".join(digests) for x, digests in parts.items()}


def spell(found: Iterable[Related]) -> Spelled:
    """A list as plain tuples (the paper page's inputs, :mod:`kb.render.related`: a dataclass's
    repr, with which the render cache spells its keys, is slow)."""
    return tuple((r.paper, r.score, tuple((x.reason.value, x.where, x.at, x.line) for x in r.ties)) for r in found)


def _all_groups(kb: KnowledgeBase) -> list[tuple[Tie, tuple[str, ...], frozenset[str]]]:
    return memo(kb, "related groups", lambda: _groups(kb))


def related_papers(kb: KnowledgeBase) -> Mapping[str, tuple[Related, ...]]:
    """Paper id -> its related papers, best first (at most :data:`LIMIT`)."""
    return _view(kb)[0]


def spelled(kb: KnowledgeBase, paper: str) -> Spelled:
    """:func:`related_to` as plain tuples (:func:`spell`); the same object while the list is carried."""
    return _view(kb)[1].get(paper, ())


def _view(kb: KnowledgeBase) -> tuple[dict[str, tuple[Related, ...]], dict[str, Spelled]]:
    """Each paper's list, and spelled.  Each paper's scores are summed over its groups; the ties are
    gathered for the papers kept only.  A list :func:`carry` keeps for the same key is taken as is."""

    def compute() -> tuple[dict[str, tuple[Related, ...]], dict[str, Spelled]]:
        groups = _all_groups(kb)
        of_paper: dict[str, list[int]] = {}
        for i, (_, papers, _) in enumerate(groups):
            for x in papers:
                of_paper.setdefault(x, []).append(i)
        members = [frozenset(papers) for _, papers, _ in groups]
        names = {pid: p.short.lower() for pid, p in kb.papers.items()}
        # a section adds to the papers another tie joins (alone, its hundreds of papers would rank by name)
        sections = {i for i, (tie, _, _) in enumerate(groups) if tie.reason is Reason.section}
        sec_of = {a: frozenset(i for i in mine if i in sections) for a, mine in of_paper.items()}
        kept = cast("Carried | None", kb.derived.get(_CARRIED))
        keys = _keys(kb, groups) if kept is not None else {}
        out: dict[str, tuple[Related, ...]] = {}
        spelt: dict[str, Spelled] = {}
        for a, mine in of_paper.items():
            carried = kept.get(a) if kept is not None else None
            if carried is not None and carried[0] == keys[a]:
                out[a], spelt[a] = carried[1], carried[2]
                continue
            scores = _scores(a, [groups[i] for i in mine if i not in sections])
            _add_sections(sec_of[a], scores, sec_of)
            best = _best(scores, names)
            ties: dict[str, list[Tie]] = {b: [] for b in best}
            for i in mine:
                tie, _, apart = groups[i]
                for b in best:
                    if b in members[i] and not (a in apart and b in apart):
                        ties[b].append(tie)
            out[a] = tuple(Related(b, scores[b], tuple(sorted(set(ties[b]), key=_tie_order))) for b in best)
            spelt[a] = spell(out[a])
        if kept is not None:
            kept.clear()
            kept.update((a, (keys[a], out[a], spelt[a])) for a in out)
        return out, spelt

    return memo(kb, "related papers", compute)


def related_to(kb: KnowledgeBase, paper: str) -> tuple[Related, ...]:
    return related_papers(kb).get(paper, ())


def section_papers(kb: KnowledgeBase, topic: str, section: str) -> tuple[str, ...]:
    """The papers of one section (the ``section`` tie's papers), in the order first named."""

    def compute() -> dict[tuple[str, ...], tuple[str, ...]]:
        return {tie.where: papers for tie, papers, _ in _all_groups(kb) if tie.reason is Reason.section}

    return memo(kb, "section papers", compute).get((topic, section), ())


STRONG = frozenset({Reason.relation, Reason.item, Reason.claim})  # what joins two papers of a section's graph


def section_graph(kb: KnowledgeBase, topic: str, section: str) -> SectionGraph:
    """A section's neighbourhood: its papers (at most :data:`SECTION_NODES`, the best connected),
    two joined where one is among the other's related papers by a relation, an item or a claim
    (every two share the section; many share a brief)."""
    members = section_papers(kb, topic, section)
    inside = set(members)
    scores: dict[tuple[str, str], int] = {}
    for a in members:
        for rel in related_to(kb, a):
            if rel.paper in inside and any(t.reason in STRONG for t in rel.ties):
                scores[min(a, rel.paper), max(a, rel.paper)] = rel.score
    degree = dict.fromkeys(members, 0)
    for (a, b), s in scores.items():
        degree[a] += s
        degree[b] += s
    drawn = sorted(members, key=lambda p: (-degree[p], kb.papers[p].short.lower(), p))[:SECTION_NODES]
    kept = set(drawn)
    edges = tuple((a, b, s) for (a, b), s in sorted(scores.items()) if a in kept and b in kept)
    return SectionGraph(tuple(drawn), len(members), edges)
