"""What every part of one brief's page needs (:mod:`kb.render.brief` makes it; the parts in
:mod:`kb.render.brief_items`, :mod:`kb.render.brief_lists` and :mod:`kb.render.brief_sources`
read it)."""

from __future__ import annotations

from dataclasses import dataclass, field

from kb.data.models import Brief
from kb.knowledge.figures import BriefFigures
from kb.knowledge.index import KnowledgeBase, Noted
from kb.messages import brief_words, t
from kb.render import checks
from kb.render.html import Html
from kb.render.links import Linker, text

NUMERALS = t("brief.numerals")


@dataclass
class Ctx:
    """What every part of one brief's page needs."""

    kb: KnowledgeBase
    key: str
    brief: Brief
    figures: BriefFigures
    linker: Linker
    noted: list[Noted] = field(default_factory=list)
    numbers: dict[str, int] = field(default_factory=dict)  # finding code -> number in 核对
    parts: list[str] = field(default_factory=list)  # the numbered parts shown so far

    def part(self, key: str, written: bool = True, **params: object) -> str:
        """A part's heading, numbered 一、二、… in the order the page shows the parts the author
        wrote: a part the brief does not have takes no number, nor does one the knowledge base
        made (``written=False``: a computed list stands under its title alone)."""
        if not written:
            return t(key, **params)
        self.parts.append(key)
        return t("brief.part", num=NUMERALS[len(self.parts) - 1], title=t(key, **params))

    def text(self, value: str) -> Html:
        return text(self.kb, self.linker, value)

    def figure(
        self, stated: int | None, computed: int, code: str | None = None, unit: str = "", told: str = ""
    ) -> Html:
        """A figure of the brief; ``told``: which figure the next brief may state of it."""
        f = self.figures
        said = f.told.get(told)  # the next brief's figure: told holds one only where there is a next
        by = (said, brief_words(f.next)) if said is not None and f.next else None
        return checks.figure(stated, computed, code, self.numbers, self.figures.partial, unit, by)

    def codes(self, prefix: str) -> list[str]:
        return [c for c in self.numbers if c.startswith(prefix)]
