"""Paper files: one file per arXiv id, one paper per card number, no id that a
generated page owns."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.data.diagnostics import Diagnostic
from kb.data.models import RESERVED_PAPER_IDS
from kb.knowledge.rules.locate import diag, path_of

if TYPE_CHECKING:
    from kb.knowledge.index import KnowledgeBase


def check(kb: KnowledgeBase) -> list[Diagnostic]:
    out = []
    first_by_arxiv: dict[str, str] = {}
    first_by_card: dict[int, str] = {}
    for pid, paper in kb.papers.items():
        if pid in RESERVED_PAPER_IDS:
            out.append(
                diag(
                    kb,
                    "paper",
                    pid,
                    ("id",),
                    f"the paper id '{pid}' is reserved for a generated page "
                    f"(papers/{pid}.md); rename the file and its id, e.g. '{pid}-paper'",
                    "reserved-id",
                )
            )
        base = paper.arxiv_base
        if base:
            if base in first_by_arxiv:
                out.append(
                    diag(
                        kb,
                        "paper",
                        pid,
                        ("arxiv",),
                        f"duplicate paper: arXiv {base} already has the paper file "
                        f"{path_of(kb, 'paper', first_by_arxiv[base])}; keep one file per paper",
                        "duplicate-paper",
                    )
                )
            else:
                first_by_arxiv[base] = pid
        for i, card in enumerate(paper.cards):
            if card in first_by_card and first_by_card[card] != pid:
                out.append(
                    diag(
                        kb,
                        "paper",
                        pid,
                        ("cards", i),
                        f"paper_card {card} already belongs to {path_of(kb, 'paper', first_by_card[card])}",
                        "duplicate-card",
                    )
                )
            first_by_card.setdefault(card, pid)
    return out
