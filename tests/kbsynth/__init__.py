"""A synthetic, schema-valid knowledge base of any size, from a seed number.

``build(briefs=365, papers=2000, seed=1)`` returns ``{relative path: YAML text}``
shaped like the real data (see ``data/briefs/inference/2026-09-03-e1.yaml``):
mixed Chinese/English text, arXiv ids in text, source groups with files and
paper cards, adjacent items, claims with ids (later briefs resolve, update or
drop them in ``claim_updates:``), candidates, the author's carried-over and
citable lists, a section tree and an update log (``updates:``) per topic.

Histories are consistent: items move from NET-new to pending to anchored and
never back, and the anchoring is recorded only in briefs (an increment,
candidate or carried-over entry with ``status: anchored``, ``anchored_in`` and
``anchored_since``), never in paper files; windows hold the brief date; and
``stated:`` figures agree with the ones :mod:`kb.knowledge.figures` computes,
except for a few deliberate disagreements (``disagree_rate``), each one finding
(``stated/net_new``, ``stated/adjacent``, ``stated/carried_over`` or
``sources/<n>/cards``) listed in :attr:`Summary.findings`.  Same arguments, same
bytes: only ``random.Random(seed)`` is used and no set is ever iterated unsorted.

Pure: no file access except :func:`write`; no MkDocs.  Used by
``scripts/synth_kb.py``, the tests and the benchmarks.  Modules: ``gen`` (the
schedule and the run), ``briefdoc`` and ``briefs`` (one brief and its history),
``items``, ``sources``, ``papers``, ``topics``, ``words``, ``vocab``, ``plan``
(the generator's records) and ``yamlout`` (YAML out).
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from kbsynth.gen import Gen
from kbsynth.plan import Summary
from kbsynth.yamlout import dump

__all__ = ["build", "generate", "write", "dump", "Summary"]


def weeks(
    briefs: int, seed: int = 1, topics: tuple[str, ...] = ("inference",), start: dt.date = dt.date(2026, 1, 1)
) -> int:
    """How many ISO weeks the briefs of :func:`generate` (same arguments) fall in: a week page each."""
    days = Gen(briefs, 0, seed, list(topics), start, 0.0).schedule()
    return len({d.isocalendar()[:2] for _, d, _ in days})


def generate(
    briefs: int = 365,
    papers: int = 2000,
    seed: int = 1,
    topics: list[str] | tuple[str, ...] = ("inference",),
    start: dt.date = dt.date(2026, 1, 1),
    disagree_rate: float = 0.02,
) -> tuple[dict[str, str], Summary]:
    """The synthetic data directory as ``{path relative to it: YAML text}`` (sorted by path) and its summary."""
    topics = list(topics)
    if briefs < 0 or papers < 0 or not topics:
        raise ValueError("briefs and papers must be >= 0 and at least one topic is needed")
    for t in topics:
        if not re.match(r"^[a-z0-9][a-z0-9-]{0,79}$", t) or topics.count(t) > 1:
            raise ValueError(f"bad or repeated topic id {t!r}")
    gen = Gen(briefs, papers, seed, topics, start, disagree_rate)
    files = gen.run()

    def n(kind: str) -> int:
        return sum(1 for p in files if p.startswith(kind + "/"))

    return files, Summary(
        n("briefs"),
        n("papers"),
        n("topics"),
        len(files),
        sum(len(t.encode()) for t in files.values()),
        len(gen.disagreements),
        tuple(gen.disagreements),
    )


def build(
    briefs: int = 365,
    papers: int = 2000,
    seed: int = 1,
    topics: list[str] | tuple[str, ...] = ("inference",),
    start: dt.date = dt.date(2026, 1, 1),
    disagree_rate: float = 0.02,
) -> dict[str, str]:
    """Only the files of :func:`generate`."""
    return generate(briefs, papers, seed, topics, start, disagree_rate)[0]


def write(files: dict[str, str], out_dir: Path | str) -> None:
    root = Path(out_dir)
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
