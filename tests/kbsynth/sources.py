"""A brief's sources: the source groups with their files and new paper cards, and the
author's lists of sources included / not included (``checked:``)."""

from __future__ import annotations

import datetime as dt

from kbsynth import vocab as v
from kbsynth.plan import Paper, TopicState
from kbsynth.words import Words
from kbsynth.yamlout import Doc, Flow, FlowMap


class Sources(Words):
    papers: dict[str, Paper]
    card_no: int

    def cards(self, t: str, date: dt.date, new: list[Paper]) -> list[FlowMap]:
        """New paper cards: papers of this brief ingested under another primary category (and a
        few in the topic), repeats of an id, and cards for ids without a paper file."""
        r, d = self.r, date.isoformat()
        cards = []
        for p in new:
            if p.arxiv and (p.primary != t or r.random() < 0.15):
                self.card_no += 1
                p.cards.append(self.card_no)
                cards.append(
                    FlowMap(
                        {
                            "number": self.card_no,
                            "arxiv": p.arxiv,
                            "title": p.short,
                            "ingested": f"{d} {r.randint(8, 21)}:{r.choice(['00', '30'])}"
                            if r.random() < 0.3
                            else None,
                        }
                    )
                )
                if r.random() < 0.05:
                    self.card_no += 1
                    p.cards.append(self.card_no)
                    cards.append(
                        FlowMap(
                            {
                                "number": self.card_no,
                                "arxiv": p.arxiv,
                                "note": f"同号重（与 {p.cards[0]} 同一 arXiv 号）",
                            }
                        )
                    )
        for _ in range(r.randint(0, 6)):
            self.card_no += 1
            cards.append(
                FlowMap(
                    {
                        "number": self.card_no,
                        "arxiv": self.arxiv_like(date),
                        "title": self.pick(v.PRE) + self.pick(v.SUF),
                        "category": self.pick(v.OTHER_CATS),
                    }
                )
            )
        return cards

    def _inbox(self, t: str, date: dt.date) -> list[tuple[str, list[Doc], str, Doc]]:
        r, d = self.r, date.isoformat()
        radar = [
            {
                "path": f"inbox/tom/{d}T{h}-agent-rag-longcontext-radar.md",
                "time": f"{h[:2]}:{h[2:]}",
                "summary": f"{t} 主轴 {r.randint(0, 3)} 件（{self.pick(v.PRE)}{self.pick(v.SUF)} / "
                f"{self.pick(v.PRE)}{self.pick(v.SUF)}）",
            }
            for h in ("0840", "1440", "2040")
        ]
        jay = [
            {
                "path": f"inbox/jay/{d}T{r.randint(6, 22):02d}{r.randint(0, 59):02d}-jay-{self.pick(v.PRE).lower()}-"
                f"{self.pick(v.SUF).lower()}-briefing.md",
                "summary": " + ".join(self.pick(v.TAGS, 3)),
                "key": f"本棒最关键源之{'一二三'[i]}" if i < 3 and r.random() < 0.4 else None,
            }
            for i in range(r.randint(3, 6))
        ]
        out: list[tuple[str, list[Doc], str, Doc]] = [
            (
                "work-queue.md",
                [{"path": "work-queue.md", "time": f"{d} 22:00"}],
                "work-queue",
                {
                    "time": f"{d} 22:00 自动生成",
                    "findings": [
                        f"待建卡 {r.randint(0, 12)} · 待更新活文档 {r.randint(0, 3)} · 选题榜 {r.randint(5, 15)} 件。"
                    ],
                },
            ),
            ("inbox/tom 今日 radar", radar, "tom radar", {"time": "08:40 / 14:40 / 20:40"}),
            ("inbox/jay 全天简报（高密度源）", jay, "jay 简报", {}),
        ]
        if r.random() < 0.5:
            out.append(
                (
                    f"inbox/flyp {date.month}-{date.day} critical-read",
                    [{"path": f"inbox/flyp/{d}-1550-critical-read.md", "summary": self.sentence()}],
                    "flyp critical-read",
                    {"time": f"{d} 15:50 重写版"},
                )
            )
        out.append(
            (
                "inbox/spark + stephen e1prep",
                [
                    {"path": f"inbox/spark/{d}-llm-infra-e1prep.md", "time": f"{d} 18:40"},
                    {"path": f"inbox/stephen/{d}-llm-application-e1prep.md", "time": f"{d} 21:10"},
                ],
                "spark/stephen e1prep",
                {"findings": [f"{r.randint(0, 6)} 件邻接备料候选，{self.pick(v.TAIL)}。"]},
            )
        )
        return out

    def _checked(self, t: str, paths: list[str], excluded: list[str]) -> Doc:
        """The author's lists of files checked: included (some with a note) and excluded."""
        r = self.r
        return {
            "included": [
                FlowMap({"path": p, "note": self.pick(v.TAGS) if r.random() < 0.5 else None})
                for p in paths
                if p not in excluded
            ],
            "excluded_label": f"无 {t} 净新增",
            "excluded": [FlowMap({"path": p, "note": f"其他主轴 · {t} 0 件"}) for p in excluded],
        }

    def sources(self, st: TopicState, date: dt.date, new: list[Paper], confirmed: list[str]) -> Doc:
        """Source groups, the author's checked lists and what the figures need of them."""
        r, t, d = self.r, st.id, date.isoformat()
        groups = self._inbox(t, date)
        cards = self.cards(t, date, new)
        card_group = None
        if cards:
            card_group = len(groups)
            groups.append(_card_group(date, cards))
        groups.append(
            (
                f"organized/knowledge/{t}.md",
                [{"path": f"organized/knowledge/{t}.md", "summary": f"{d} 更新标注"}],
                f"{t}.md",
                {
                    "findings": [
                        f"{' / '.join(self.papers[p].short for p in confirmed)} 仍未锚入。"
                        if confirmed
                        else "没有新的待锚入件。"
                    ],
                    "confirmed_pending": Flow(confirmed) if confirmed else None,
                },
            )
        )
        if st.prev:
            groups.append(
                ("参照基线", [{"path": f"inbox/tom/{st.prev['date'].isoformat()}-{t}-e1prep.md"}], "参照基线", {})
            )
        others = [
            {"path": f"inbox/{w}/{d}-{c}-e1prep.md"}
            for w, c in zip(self.pick(v.WHO, 3), self.pick(v.OTHER_CATS, 3), strict=True)
        ]
        groups.append(("其他主轴的 e1prep", others, "其他主轴", {}))
        docs = [{"title": title, **extra, "files": files} for title, files, _, extra in groups]
        paths = list(dict.fromkeys(fl["path"] for g in docs for fl in g["files"]))
        excluded = [fl["path"] for fl in others]
        checked = self._checked(t, paths, excluded) if r.random() < 0.6 else None
        return {
            "groups": docs,
            "checked": checked,
            "listed": len(paths),
            "cards": len(cards),
            "card_group": card_group,
            "breakdown": [FlowMap({"label": label, "count": len(files)}) for _, files, label, _ in groups],
        }


def _card_group(date: dt.date, cards: list[FlowMap]) -> tuple[str, list[Doc], str, Doc]:
    """The source group of the paper cards new in the last three days (two of them as files)."""
    files: list[Doc] = [
        {
            "path": f"paper_cards/{c['number']}-{c['arxiv'].replace('.', '-')}.md",
            "summary": f"{c.get('title') or c['arxiv']} 入库",
        }
        for c in cards[:2]
    ]
    extra: Doc = {
        "cards_window": FlowMap({"label": "近 3 日", "start": date - dt.timedelta(days=2), "end": date}),
        "findings": [f"批次为 paper_card {cards[0]['number']}-{cards[-1]['number']}。"],
        "cards": cards,
        "stated": FlowMap({"cards": len(cards)}),
    }
    return "paper_cards 库近 3 日新卡", files, "paper_cards", extra
