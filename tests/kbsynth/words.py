"""Random text and ids: the sentences, figures and arXiv ids of the synthetic data.
Every choice goes through the generator's one ``random.Random``."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from typing import TypeVar, overload

from kb.data.text import slugify
from kbsynth import vocab as v
from kbsynth.plan import Paper

T = TypeVar("T")


def slug(text: str, limit: int = 60) -> str:
    return slugify(text, limit) or "x"


class Words:
    r: random.Random
    used_arxiv: set[str]

    @overload
    def pick(self, seq: Sequence[T]) -> T: ...
    @overload
    def pick(self, seq: Sequence[T], k: int) -> list[T]: ...
    def pick(self, seq: Sequence[T], k: int | None = None) -> T | list[T]:
        return self.r.choice(seq) if k is None else self.r.sample(seq, min(k, len(seq)))

    def pct(self) -> str:
        return f"{self.r.choice(['-', '+'])}{self.r.randint(2, 60)}.{self.r.randint(0, 9)}%"

    def times(self) -> str:
        return f"{self.r.randint(1, 9)}.{self.r.randint(0, 99):02d}×"

    @staticmethod
    def ref(p: Paper) -> str:
        return f"（arXiv:{p.arxiv}）" if p.arxiv else "（无 arXiv 号）"

    def sentence(self, who: str | None = None) -> str:
        r = self.r
        who = who or self.pick(v.ENGINE)
        forms = [
            f"{self.pick(v.METHOD)}：在 {self.pick(v.HW)} 上 {self.pick(v.MODEL)} 的{self.pick(v.METRIC)} "
            f"{self.pct()}，{self.pick(v.TAIL)}。",
            f"与 {who} 相比，{self.pick(v.METRIC)}最高提升 {self.times()}；"
            f"{self.pick(v.METRIC)}降低 {r.randint(5, 45)}%"
            f"（{self.pick(v.HW)}，batch {2 ** r.randint(0, 8)}）。",
            f"关键数字：{self.pick(v.MODEL)} 上{self.pick(v.METRIC)} {self.pct()}、"
            f"{self.pick(v.MODEL)} {self.pct()}；{self.pick(v.TAIL)}。",
            f"{self.pick(v.TAIL)}；这正是它与 {self.pick(v.ENGINE)} / {self.pick(v.ENGINE)} "
            f"的根本区别——{self.pick(v.METHOD)}。",
            f"工程意义：直接瞄准{self.pick(v.METRIC)}的瓶颈，{self.pick(v.METHOD)}，{self.pick(v.TAIL)}。",
        ]
        return r.choice(forms)

    def arxiv_for(self, month: dt.date) -> str:
        while True:
            aid = f"{month.year % 100:02d}{month.month:02d}.{self.r.randint(1, 29999):05d}"
            if aid not in self.used_arxiv:
                self.used_arxiv.add(aid)
                return aid

    def arxiv_like(self, date: dt.date) -> str:
        """An id in a range no paper file uses (an id written without a paper: a card still to write)."""
        return f"{date.year % 100:02d}{date.month:02d}.{self.r.randint(30000, 39999):05d}"

    def uuid(self) -> str:
        h = f"{self.r.getrandbits(128):032x}"
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
