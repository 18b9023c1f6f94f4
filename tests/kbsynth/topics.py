"""Topic files: the section tree of each living document (some sections opened by a
brief during the year) and the document's update log (``updates:``), written after
the briefs so every anchoring a brief records is in the log by its date."""

from __future__ import annotations

import datetime as dt

from kbsynth import vocab as v
from kbsynth.plan import Paper, TopicState
from kbsynth.words import Words
from kbsynth.yamlout import Doc, Flow


def _default_tree(tid: str) -> list[v.TreeNode]:
    def part(i: int) -> v.TreeNode:
        children: list[v.TreeNode] = [
            (f"{'*' if i == 3 and j == 3 else ''}s{i}-{j}-{w}", f"{i}.({j})", f"{w} 路线", f"{w.title()} route", [])
            for j, w in enumerate(["methods", "systems", "evaluation"], 1)
        ]
        return (f"s{i}", str(i), f"{tid} 第 {i} 部分", f"{tid} part {i}", children)

    return [("head", None, "头部 · 要闻", "Headline items", []), *(part(i) for i in (1, 2, 3))]


class Topics(Words):
    papers: dict[str, Paper]

    def _walk(self, nodes: list[v.TreeNode], depth: int, refs: list[str], late_ids: list[str]) -> list[Doc]:
        out: list[Doc] = []
        for sid, number, title, title_en, children in nodes:
            late = sid.startswith("*")
            sid = sid.lstrip("*")
            if depth or sid == "head":
                refs.append(sid)
            node: Doc = {"id": sid, "number": number, "title": title, "title_en": title_en}
            if self.r.random() < 0.6:
                node["summary"] = f"{title}：{self.pick(v.METHOD)}、{self.pick(v.METHOD)}等路线的进展与取舍。"
            if late:
                late_ids.append(sid)
                node["_late"] = True
            if children:
                node["children"] = self._walk(children, depth + 1, refs, late_ids)
            out.append(node)
        return out

    def topic_plan(self, tid: str, keys: list[tuple[str, dt.date]]) -> tuple[Doc, TopicState]:
        """The topic document (without its update log) and the generator's state for it."""
        refs: list[str] = []
        late_ids: list[str] = []
        sections = self._walk(v.TREES.get(tid) or _default_tree(tid), 0, refs, late_ids)
        late: dict[str, str] = {}
        opened: dict[str, dt.date] = {}
        for n, sid in enumerate(late_ids):
            if len(keys) >= 2:
                stem, date = keys[max(1, (n + 1) * len(keys) // (len(late_ids) + 1))]
                late[sid], opened[sid] = f"{tid}/{stem}", date

        def finish(nodes: list[Doc]) -> None:
            for node in nodes:
                if node.pop("_late", False) and node["id"] in late:
                    node["introduced"] = opened[node["id"]]
                    node["introduced_by"] = late[node["id"]]
                finish(node.get("children", []))

        finish(sections)
        title, title_en = v.TOPIC_TITLES.get(tid, (tid, tid))
        doc = {
            "id": tid,
            "title": title,
            "title_en": title_en,
            "description": f"{title}方向的活文档：{self.pick(v.METHOD)}等。Living survey of {title_en}.",
            "document": f"organized/knowledge/{tid}.md",
            "page": f"{tid}.md",
            "sections": sections,
        }
        return doc, TopicState(tid, refs, late, opened)

    def updates(self, st: TopicState) -> list[Doc]:
        """The living document's update log: an entry before the first brief (the papers anchored
        before it), then one for most brief dates, always one for a date with new anchorings and one
        for the last brief's date.
        Labels name only papers a brief records as anchored by the entry's date."""
        out = []
        anchored = 0
        if st.dates and st.background:
            anchored = len(st.background)
            out.append(self._update(st.dates[0] - dt.timedelta(days=1), [], anchored))
        days = sorted(set(st.dates))
        for date in days:
            new = st.recorded_on.get(date, [])
            anchored += sum(1 for pid in new if pid not in st.background)
            # a date with new anchorings always has its entry, and so does the last brief's date (an anchoring
            # a brief records again after the log's last entry would make the log stale)
            if new or date == days[-1] or self.r.random() < 0.9:
                out.append(self._update(date, new, anchored))
        return out

    def _update(self, date: dt.date, new: list[str], anchored: int) -> Doc:
        labels = []
        named = [pid for pid in new if self.papers[pid].anchor_since is not None][:3]
        if named:
            labels.append({"text": "/".join(self.papers[i].short for i in named), "papers": Flow(named)})
        labels += [{"text": f"{self.pick(v.ENGINE)} {self.pick(v.TAGS)}"} for _ in range(self.r.randint(1, 3))]
        return {"date": date, "labels": labels, "citations": 300 + anchored, "citations_approx": self.r.random() < 0.7}
