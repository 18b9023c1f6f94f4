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
    """Each file of a clash is told of it, naming the other: ``kb validate FILE`` (a pre-commit
    hook's check of the files changed) finds it whichever of the two was added."""
    out = []
    first_by_arxiv: dict[str, str] = {}
    first_by_card: dict[int, tuple[str, int]] = {}
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
                first = first_by_arxiv[base]
                for here, there, verb in ((pid, first, "already has"), (first, pid, "also has")):
                    out.append(
                        diag(
                            kb,
                            "paper",
                            here,
                            ("arxiv",),
                            f"duplicate paper: arXiv {base} {verb} the paper file "
                            f"{path_of(kb, 'paper', there)}; keep one file per paper",
                            "duplicate-paper",
                        )
                    )
            else:
                first_by_arxiv[base] = pid
        for i, card in enumerate(paper.cards):
            owner = first_by_card.setdefault(card, (pid, i))
            if owner[0] != pid:
                for (here, at), there, verb in (((pid, i), owner[0], "already"), (owner, pid, "also")):
                    out.append(
                        diag(
                            kb,
                            "paper",
                            here,
                            ("cards", at),
                            f"paper_card {card} {verb} belongs to {path_of(kb, 'paper', there)}; "
                            "a card is one paper's: correct the number in one of the two files",
                            "duplicate-card",
                        )
                    )
    return out
