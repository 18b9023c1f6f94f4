"""A whole brief: what it raises (:mod:`kbsynth.briefs`), its sources, claims, the
figures its author states, its window, and the file."""

from __future__ import annotations

import datetime as dt

from kbsynth import vocab as v
from kbsynth.briefs import Briefs, Round
from kbsynth.plan import Paper, TopicState
from kbsynth.yamlout import Doc, FlowMap, dump


class BriefDocs(Briefs):
    def open_sections(self, st: TopicState, date: dt.date) -> list[str]:
        return [s for s in st.sections if s not in st.opened or st.opened[s] <= date]

    def brief(self, st: TopicState, date: dt.date, rnd: str, k: int, last: dt.date) -> None:
        r = self.r
        key = f"{st.id}/{date.isoformat()}-{rnd.lower()}"
        self.brief_dates[key] = date
        st.dates.append(date)
        new, roles = self._new(st, key, date, k)
        b = Round(st, key, date, rnd, self.open_sections(st, date), new)
        role = {x: [p for p, y in zip(new, roles, strict=True) if y == x] for x in ("inc", "cand", "adj")}
        due = [pid for pid in st.pending if (self.papers[pid].anchor_since or dt.date.max) <= date]
        due_set = set(due)
        pend = [pid for pid in st.pending if pid not in due_set]
        recent = [pid for d in range(4) for pid in st.recorded_on.get(date - dt.timedelta(days=d), [])]
        write_carried = r.random() < (0.6 if due else 0.3)
        self._increments(b, role["inc"], due, pend, recent)
        self._candidates(b, role["cand"], due, pend, recent, write_carried)
        self._background(b)
        for p in [p for ps, _ in b.groups for p in ps] + role["cand"]:
            self.plan_anchor(p, date, self.pick(b.secs), last)
        carried = self._carried(b, write_carried)
        self._record(b)
        self._advance(b, carried)
        st.adjacent_only.extend(p.id for p in role["adj"])
        for ps, _ in b.groups:
            st.raised.extend(p.id for p in ps if p.id not in st.raised[-50:])
        src = self.sources(st, date, new, pend[: r.randint(0, 5)])
        adjacent, extra = self._adjacent(b, role["adj"])
        updates = self.claim_updates(st, key)
        claims = self.claims(st, key, [p for ps, _ in b.groups for p in ps], extra)
        stated = self._stated(b, adjacent, src)
        self._write(b, adjacent, src, stated, claims, updates)

    def _adjacent(self, b: Round, adj_new: list[Paper]) -> tuple[list[Doc], list[tuple[str, str]]]:
        """Adjacent items: the new papers raised as adjacent, then items without a paper; an item
        to verify names the claim it is about, raised in the same brief."""
        r = self.r
        items = [self.adjacent_item(p, b.secs, b.date) for p in adj_new]
        extra: list[tuple[str, str]] = []
        for _ in range(r.randint(3, 6)):
            if r.random() < 0.12:
                cid = self.claim_id(f"{self.pick(v.ENGINE)}-{self.pick(v.WHO)}")
                items.append(self.adjacent_item(None, b.secs, b.date, claim=cid))
                extra.append((cid, items[-1]["title"]))
            else:
                items.append(self.adjacent_item(None, b.secs, b.date))
        r.shuffle(items)
        return items, extra

    def _stated(self, b: Round, adjacent: list[Doc], src: Doc) -> Doc:
        """The figures the author states, as the knowledge base computes them; now and then one is
        deliberately off (a finding with a known code)."""
        r, t, st = self.r, b.st.id, b.st
        n = src["listed"]
        stated = {
            "increments": len(b.groups),
            "net_new": sum(1 for ps, s in b.groups if ps and s == "net-new"),
            "adjacent_ingested": sum(
                1 for ps, _ in b.groups if any(p.cards and p.primary and p.primary != t for p in ps)
            ),
            "adjacent": len(adjacent),
            "arxiv_net_new": sum(1 for p in b.new if p.arxiv),
            "carried_over": b.n_carried,
            "sources_checked_min": n - n % 5 if n >= 5 else n,
            "sources_breakdown": src["breakdown"],
        }
        if st.prev:
            stated["previous_increments"], stated["previous_adjacent"] = st.prev["increments"], st.prev["adjacent"]
        if r.random() < self.disagree_rate:
            fig = r.choice(
                ["net_new", "adjacent", "carried_over"] + (["cards"] if src["card_group"] is not None else [])
            )
            if fig == "cards":
                src["groups"][src["card_group"]]["stated"]["cards"] += 1
                code = f"sources/{src['card_group'] + 1}/cards"
            else:
                stated[fig] += 1
                code = f"stated/{fig}"
            self.disagreements.append(f"{b.key} {code}")
        return stated

    def _window(self, st: TopicState, date: dt.date, rnd: str) -> tuple[dt.datetime, Doc]:
        gen_at = dt.datetime.combine(date, dt.time(22, 20) if rnd == "E1" else dt.time(23, 50), tzinfo=v.TZ)
        start = (
            st.prev["generated_at"] if st.prev and st.prev["generated_at"] < gen_at else gen_at - dt.timedelta(days=1)
        )
        hours = round((gen_at - start).total_seconds() / 3600)
        return gen_at, {"start": start.isoformat(), "end": gen_at.isoformat(), "note": f"约 {hours}h"}

    def _character(self, labels: list[str], adjacent: list[Doc]) -> Doc:
        """本棒性质: the increments' labels, then a few sentences."""
        return {
            "title": " + ".join(labels[:4])
            + f" {len(labels)} 核驱动"
            + (" + " + adjacent[0]["title"] if adjacent else ""),
            "text": "".join(self.sentence() for _ in range(self.r.randint(3, 5))),
        }

    def _comparison(self, st: TopicState, date: dt.date, labels: list[str]) -> Doc:
        """The comparison with the previous brief of the topic."""
        prev = st.prev
        return {
            "previous_summary": f"{prev['date'].month}-{prev['date'].day} 的增量是 {' / '.join(prev['labels'][:4])}。"
            if prev
            else None,
            "this_summary": f"{date.month}-{date.day} 的增量是 {' + '.join(labels)}。",
            "features": [
                f"{self.pick(v.TAGS)}（{self.pick(v.METRIC)} {self.pct()}）" for _ in range(self.r.randint(2, 4))
            ],
        }

    def _write(
        self, b: Round, adjacent: list[Doc], src: Doc, stated: Doc, claims: list[Doc], updates: list[Doc]
    ) -> None:
        r, st, t, date, rnd = self.r, b.st, b.st.id, b.date, b.rnd
        increments = [self.increment(st, b.key, ps, status, b.secs, date) for ps, status in b.groups]
        labels = [inc["label"] for inc in increments]
        gen_at, window = self._window(st, date, rnd)
        who = ["Tom", "Jay", "Spark", "Stephen", "Flyp"][self.topics.index(t) % 5]
        citable = (
            [
                FlowMap({"paper": p.id, "note": f"{self.pick(v.TAGS)} · {p.month.year}-{p.month.month:02d}"})
                for p in b.new
                if p.arxiv
            ]
            if r.random() < 0.5
            else []
        )
        doc = {
            "topic": t,
            "date": date,
            "round": rnd,
            "round_name": "日间预消化轮" if rnd == "E1" else "夜间补充轮",
            "title": f"{t} · {rnd} 预消化简报（{date.isoformat()}）",
            "instance": who,
            "cron": self.uuid(),
            "generated_at": gen_at.isoformat(),
            "timezone": "Asia/Shanghai",
            "timezone_abbr": "CST",
            "window": window,
            "character": self._character(labels, adjacent),
            "stated": stated,
            "sources": src["groups"],
            "increments": increments,
            "adjacent": adjacent,
            "claims": claims,
            "claim_updates": updates,
            "citable": citable,
            "carried": b.carried,
            "candidates": [FlowMap(c) for c in b.cands],
            "comparison": self._comparison(st, date, labels),
            "checked": src["checked"],
            "signature": f"{who} · {date.isoformat()} {gen_at.strftime('%H:%M')} CST · "
            f"本棒检查 {stated['sources_checked_min']}+ 来源 · "
            f"{t} 主题 NET-new {stated['net_new']} 条 + 邻接预备 {stated['adjacent']} 条",
        }
        self.files[f"briefs/{b.key}.yaml"] = dump(doc, f"{t} · {rnd} synthetic brief for {date.isoformat()}.")
        st.prev = {
            "increments": len(increments),
            "adjacent": len(adjacent),
            "labels": labels,
            "date": date,
            "generated_at": gen_at,
            "key": b.key,
        }
