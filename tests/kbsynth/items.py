"""The items of a brief: main increments, adjacent prep items, claims and claim updates."""

from __future__ import annotations

import datetime as dt

from kbsynth import vocab as v
from kbsynth.plan import OpenClaim, Paper, TopicState
from kbsynth.words import Words, slug
from kbsynth.yamlout import Doc, Flow, FlowMap

STATUS_NOTES = {
    "net-new": "尚未锚入 {t}.md；{tail}",
    "pending": "仍未锚入，继续跟进",
    "anchored": "已锚入，本棒补充新数据",
}
SUMMARY_STATUS = {"net-new": "NET-new；待锚入", "pending": "待锚入", "anchored": "已锚入"}


class Items(Words):
    papers: dict[str, Paper]
    claim_no: int

    def older(self, st: TopicState, k: int) -> list[Paper]:
        pool = st.raised[-60:] + (st.background[:40] if len(st.raised) < 60 else [])
        return [self.papers[pid] for pid in self.pick(pool, k)]

    def _relations(self, st: TopicState, key: str, secs: list[str], date: dt.date) -> list[Doc]:
        r = self.r
        out = []
        for _ in range(r.randint(1, 4)):
            olds = self.older(st, r.randint(0, 2))
            mention = (
                "、".join(f"{p.short}{self.ref(p)}" for p in olds)
                or f"KV Cache Internet（arXiv:{self.arxiv_like(date)}）"
            )
            out.append(
                {
                    "section": self.pick(secs) if r.random() < 0.9 else None,
                    "papers": Flow([p.id for p in olds]) if olds else None,
                    "text": f"与 {mention} 同属“{self.pick(v.TAGS)}”方向；{self.sentence()}",
                }
            )
        newly = [s for s, k in st.late.items() if k == key]
        if newly:
            out.append({"section": newly[0], "text": f"开出新路线：{self.pick(v.METHOD)}。"})
        return out

    def _links(self, ps: list[Paper]) -> list[FlowMap]:
        r = self.r
        links = [
            FlowMap(
                {
                    "label": f"{p.short} 链接",
                    "url": f"https://arxiv.org/abs/{p.arxiv}" if p.arxiv else f"https://example.org/{p.id}",
                    "note": "v1" if r.random() < 0.2 else None,
                }
            )
            for p in ps
        ]
        if r.random() < 0.4:
            links.append(
                FlowMap(
                    {
                        "label": "GitHub",
                        "url": f"https://github.com/{self.pick(v.WHO)}-lab/{(ps[0].id if ps else 'release')}",
                    }
                )
            )
        return links

    def _points(self, ps: list[Paper]) -> list[Doc]:
        r = self.r
        if len(ps) > 1:
            return [
                {"title": f"要点（{p.short}）", "items": [self.sentence() for _ in range(r.randint(3, 5))]} for p in ps
            ]
        return [{"items": [self.sentence() for _ in range(r.randint(3, 6))]}]

    def increment(self, st: TopicState, key: str, ps: list[Paper], status: str, secs: list[str], date: dt.date) -> Doc:
        """One main increment; ``status: anchored`` (one paper) records where and since when it is anchored."""
        r, t = self.r, st.id
        sections = self.pick(secs, r.choice([1, 1, 2]))
        suggested = self.pick(secs, r.randint(1, 2))
        label = " + ".join(p.short for p in ps) or f"{self.pick(v.ENGINE)} v0.{r.randint(5, 19)}"
        what = {"pending": "跟进", "anchored": "更新"}.get(status, "")
        venue = self.pick(v.VENUES) if r.random() < 0.5 else "arXiv 预印本"
        n_def = r.choice([0, 2, 3, 4, 5])
        anchored = ps[0] if status == "anchored" else None
        ids = "".join(f" · arXiv:{p.arxiv}" for p in ps if p.arxiv)
        return {
            "anchored_in": anchored.anchor_section if anchored else None,
            "anchored_since": anchored.anchor_since if anchored else None,
            "sections": Flow(sections),
            "where": f"§{sections[0]}" if r.random() < 0.5 else None,
            "light": r.choice(["green"] * 6 + ["yellow"] * 3 + ["red"]),
            "title": f"{label}{what}：{self.pick(v.METHOD)}——{self.pick(v.TAIL)}（{venue}）",
            "label": label,
            "papers": Flow([p.id for p in ps]) if ps else None,
            "sources": [
                {
                    "path": f"inbox/{self.pick(v.WHO)}/{date.isoformat()}-{t}-engineering.md",
                    "section": f"§A{r.randint(1, 6)}" if r.random() < 0.6 else None,
                }
                for _ in range(r.randint(1, 2))
            ],
            "links": self._links(ps),
            "credibility_note": "单作者 preprint，可信度起点低" if r.random() < 0.05 else None,
            "points": self._points(ps),
            "defects_source": f"{self.pick(v.WHO)} critical-read 识别" if n_def else None,
            "defects": [self.sentence() for _ in range(n_def)],
            "relations": self._relations(st, key, secs, date),
            "suggested": [
                {"section": s, "note": f"{'NET-new' if status == 'net-new' else status} · {label}{ids}"}
                for s in suggested
            ],
            "status": status,
            "status_note": STATUS_NOTES[status].format(t=t, tail=self.pick(v.TAIL)),
            "value": r.randint(2, 5),
            "summary": FlowMap(
                {
                    "label": f"{label}（{self.pick(v.TAGS)}{ids}）",
                    "category": f"§{sections[0]}",
                    "status": SUMMARY_STATUS[status],
                }
            )
            if r.random() < 0.8
            else None,
        }

    def adjacent_item(self, p: Paper | None, secs: list[str], date: dt.date, claim: str | None = None) -> Doc:
        """An adjacent prep item; one with ``claim`` is also a claim to verify (``status: verify``)."""
        r = self.r
        industry = claim is not None or r.random() < 0.1
        title = p.short if p else f"{self.pick(v.ENGINE)} {self.pick(v.TAGS)}" + ("（待核实）" if claim else "")
        priority = r.choice(["P0", "P1", "P2"]) if claim else None
        return {
            "title": title,
            "text": f"{p.short}{self.ref(p)}：{self.sentence()}" if p else self.sentence(),
            "papers": Flow([p.id]) if p else None,
            "source_note": None
            if p
            else self.pick(["HF 官方博客", "CSDN", "Red Hat Developers", "The Information", "知乎"])
            + f" {date.isoformat()}",
            "origin": f"{self.pick(v.WHO)} {date.month}-{date.day} "
            f"{r.randint(6, 23):02d}{r.choice(['05', '20', '35', '50'])}",
            "relation": f"{self.pick(v.TAGS)}；{self.pick(v.TAIL)}",
            "sections": None if industry else Flow(self.pick(secs, 1)),
            "value": r.randint(2, 5),
            "status": "verify" if claim else None,
            "priority": priority,
            "warning": "⚠️生产警示" if r.random() < 0.05 else None,
            "claim": claim,
            "summary": FlowMap(
                {
                    "label": title,
                    "category": "行业事件"
                    if industry
                    else self.pick(["边缘/Apple Silicon", "推理引擎选型", "本地推理"]),
                    "status": f"{priority} 待核实" if claim else "邻接预备",
                }
            )
            if r.random() < 0.7
            else None,
        }

    def claim_id(self, base: str) -> str:
        self.claim_no += 1
        return f"{slug(base, 50)}-{self.claim_no}"

    def claims(self, st: TopicState, key: str, ps: list[Paper], extra: list[tuple[str, str]]) -> list[Doc]:
        """Claims to verify, each with a new id (``extra``: (id, title) of claims an adjacent item names)."""
        r = self.r
        out: list[Doc] = [{"id": cid, "title": title, "points": [self.sentence()]} for cid, title in extra]
        for _ in range(r.randint(2, 5)):
            sel = self.pick(ps, r.randint(0, 2)) if ps else []
            title = (" / ".join(p.short for p in sel) or self.pick(v.ENGINE)) + f" 的{self.pick(v.METRIC)}数字待核实"
            out.append(
                {
                    "id": self.claim_id(sel[0].id if sel else title),
                    "title": title,
                    "priority": r.choice(["P0", "P1", None, None]),
                    "papers": Flow([p.id for p in sel]) if sel else None,
                    "points": [self.sentence() for _ in range(r.randint(1, 3))],
                }
            )
        st.claims.extend(OpenClaim(c["id"], key) for c in out)
        return out

    def claim_updates(self, st: TopicState, key: str) -> list[Doc]:
        """A later brief's word on some open claims of earlier briefs: resolved, dropped or updated."""
        r = self.r
        earlier = [c for c in st.claims if c.brief != key]
        out = []
        for c in self.pick(earlier, r.choice([0, 0, 1, 1, 2, 3])):
            action = r.choices(["resolved", "dropped", "updated"], [0.5, 0.15, 0.35])[0]
            out.append(
                {
                    "claim": c.id,
                    "action": action,
                    "priority": r.choice(["P0", "P1", "P2", None]) if action == "updated" else None,
                    "note": f"{self.pick(v.TAIL)}；{self.sentence()}",
                }
            )
            if action == "updated":
                c.updated = True
            else:
                st.claims.remove(c)
        return out
