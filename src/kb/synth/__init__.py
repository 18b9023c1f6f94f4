"""A synthetic, schema-valid knowledge base of any size, from a seed number.

``build(briefs=365, papers=2000, seed=1)`` returns ``{relative path: YAML text}``
shaped like the real data (see ``data/briefs/inference/2026-09-03-e1.yaml``):
mixed Chinese/English text, arXiv ids in text, source groups with files and
paper cards, adjacent items, claims, candidates, a section tree per topic.
Histories are consistent: items move from NET-new to pending to anchored and
never back, windows hold the brief date, and ``stated:`` figures agree with
the ones :mod:`kb.knowledge.figures` computes, except for a few deliberate disagreements
(``disagree_rate``) that show up as warnings.  Same arguments, same bytes:
only ``random.Random(seed)`` is used and no set is ever iterated unsorted.

Pure: no file access except :func:`write`; no MkDocs.  Used by
``scripts/synth_kb.py``, the tests and the benchmarks.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["build", "generate", "write", "Summary"]

# --------------------------------------------------------------------------- YAML out


class Flow(list):
    """A list written in flow style: ``[a, b]``."""


class FlowMap(dict):
    """A mapping written in flow style: ``{number: 1, arxiv: 2501.00001}``."""


_BAD_START = set("-?:,[]{}#&*!|>'\"%@` ")
_NULLS = {"~", "null", "Null", "NULL"}


def _scalar(v: object, flow: bool = False) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, dt.date)):
        return v.isoformat() if isinstance(v, dt.date) else str(v)
    s = str(v)
    plain = (s and s == s.strip() and s[0] not in _BAD_START and s not in _NULLS and not s.endswith(":")
             and ": " not in s and " #" not in s and "\n" not in s and "\t" not in s
             and not (flow and any(c in s for c in ",[]{}:#")))
    return s if plain else json.dumps(s, ensure_ascii=False)


def _inline(v: object) -> str:
    if isinstance(v, FlowMap):
        return "{" + ", ".join(f"{k}: {_scalar(x, True)}" for k, x in v.items() if x is not None) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_scalar(x, True) for x in v) + "]"
    return _scalar(v)


def _map(d: dict, ind: int, out: list[str], first: str | None = None) -> None:
    pad = " " * ind
    n = 0
    for k, v in d.items():
        if v is None or (isinstance(v, dict) and not v):
            continue
        lead = first if n == 0 and first is not None else pad
        n += 1
        if isinstance(v, list) and not v:
            continue
        if isinstance(v, (Flow, FlowMap)) or not isinstance(v, (dict, list)):
            out.append(f"{lead}{k}: {_inline(v)}")
        elif isinstance(v, dict):
            out.append(f"{lead}{k}:")
            _map(v, ind + 2, out)
        else:
            out.append(f"{lead}{k}:")
            for item in v:
                if isinstance(item, dict) and not isinstance(item, FlowMap):
                    _map(item, ind + 4, out, " " * (ind + 2) + "- ")
                else:
                    out.append(f"{pad}  - {_inline(item)}")


def dump(data: dict, comment: str = "") -> str:
    out = [f"# {line}" for line in comment.splitlines()]
    _map(data, 0, out)
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- vocabulary

# (id, number, title, title_en, children); an id starting with "*" is a section
# opened during the year (``introduced_by`` a brief).
_TREES: dict[str, list] = {
    "inference": [  # the ids of data/topics/inference.yaml: docs/inference.md calls section() with them
        ("head", None, "头部 · 要闻", "Headline items", []),
        ("s1", "1", "推理系统", "Inference systems", [
            ("s1-1-engines", "1.(1)", "推理引擎", "Inference engines and kernels", [
                ("s1-1-spec-decoding", None, "Speculative Decoding", "Speculative decoding", []),
                ("s1-1-local-edge", None, "本地 / 边缘推理", "Local and edge inference", []),
                ("s1-1-engine-config", None, "引擎配置与选型", "Engine configuration and selection", [])]),
            ("s1-2-scheduling", "1.(2)", "推理调度", "Scheduling and serving", []),
            ("s1-3-kv-cache", "1.(3)", "KV Cache", "KV cache", [
                ("s1-3-eviction", None, "驱逐（Eviction）", "Eviction", []),
                ("s1-3-compression", None, "压缩（Compression）", "Compression", []),
                ("s1-3-hybrid-memory", None, "混合内存（Hybrid Memory）", "Hybrid memory", []),
                ("s1-3-novel-attention", None, "新型注意力（Novel Attention）", "Novel attention", []),
                ("s1-3-combination", None, "组合路线（Combination）", "Combinations", []),
                ("*s1-3-vector-storage", None, "向量存储引擎化（Vector Storage）", "KV cache as a vector store", [])])]),
    ],
    "rag": [
        ("head", None, "头部 · 要闻", "Headline items", []),
        ("s1", "1", "检索", "Retrieval", [
            ("s1-1-dense", "1.(1)", "稠密检索", "Dense retrieval", []),
            ("s1-2-hybrid", "1.(2)", "混合检索与重排", "Hybrid retrieval and reranking", []),
            ("*s1-3-graph", "1.(3)", "GraphRAG", "Graph-based RAG", [])]),
        ("s2", "2", "生成", "Generation", [
            ("s2-1-long-context", "2.(1)", "长上下文 vs RAG", "Long context versus RAG", []),
            ("s2-2-citation", "2.(2)", "引用与可信度", "Citation and faithfulness", [])]),
        ("s3", "3", "评测", "Evaluation", [("s3-1-benchmarks", "3.(1)", "基准", "Benchmarks", [])]),
    ],
    "agent": [
        ("head", None, "头部 · 要闻", "Headline items", []),
        ("s1", "1", "规划与工具", "Planning and tools", [
            ("s1-1-tool-use", "1.(1)", "工具调用", "Tool use", []),
            ("s1-2-memory", "1.(2)", "记忆", "Memory", []),
            ("*s1-3-harness", "1.(3)", "Harness 工程", "Agent harnesses", [])]),
        ("s2", "2", "多智能体", "Multi-agent systems", [("s2-1-protocols", "2.(1)", "协议（MCP/A2A）", "Protocols", [])]),
        ("s3", "3", "评测与安全", "Evaluation and safety", [("s3-1-benchmarks", "3.(1)", "基准", "Benchmarks", []),
                                                       ("s3-2-safety", "3.(2)", "安全", "Safety", [])]),
    ],
}
_TOPIC_TITLES = {"inference": ("LLM 推理", "LLM inference"), "rag": ("检索增强生成", "Retrieval-augmented generation"),
                 "agent": ("智能体", "LLM agents")}

_PRE = ["Flash", "Spec", "Tile", "Paged", "Radix", "Stream", "Token", "Retro", "Hydra", "Quant", "Sparse", "Lumen",
        "Orca", "Swift", "Vortex", "Nimbus", "Kernel", "Route", "Prism", "Echo", "Helix", "Mosaic", "Relay", "Atlas",
        "Cinder", "Delta", "Ember", "Fjord", "Garnet", "Harbor", "Iris", "Jade", "Kite", "Lattice", "Meridian", "Nova"]
_SUF = ["Infer", "Serve", "KV", "Attn", "Decode", "LLM", "Cache", "Flow", "Weave", "Scale", "Gate", "Fuse", "Mem",
        "Prefill", "Route", "RAG", "Agent", "Bench", "Spec", "Shard", "Pipe", "Batch", "Quant", "Retriever"]
_EN_ADJ = ["Latency-Budget-Aware", "Input-Adaptive", "Wave-Indexed", "Token-Level", "Operator-Level", "SLO-Aware",
           "Disaggregated", "Training-Free", "Hierarchical", "Structure-Aware", "Elastic", "Cache-Efficient"]
_EN_NOUN = ["Scheduling", "Sparse Prefilling", "Speculative Decoding", "KV Cache Management", "Co-Serving",
            "Retrieval", "Tool Routing", "Memory Compression", "Weight Quantization", "Request Batching"]
_EN_GOAL = ["Long-Context LLM Inference", "SLO-Bound LLM Serving", "Reasoning Models", "Multi-Tenant GPU Clusters",
            "Edge Devices", "Retrieval-Augmented Generation", "Agentic Workloads", "Mixture-of-Experts Models"]
_METHOD = ["把 KV Cache 当作可检索的向量集合", "按 token 粒度做 prefill/decode co-serving", "用延迟预算统一协调调度与缓存",
           "以算子为单位做亚秒级弹性伸缩", "partial-CoT 作草稿、完整预算作验证的自投机解码",
           "分层放置 KV（GPU HBM → 本地 CPU → 远程 CPU RDMA → 3FS）", "输入自适应的稀疏 prefill 路由",
           "FP8/INT4 混合精度的权重量化", "前缀感知的请求路由与 RadixAttention 复用", "检索与 decode 重叠的流水线",
           "按质量层级给 head 动态分配稀疏模式", "把工具调用结果缓存成可复用的 KV 片段"]
_TAIL = ["不改模型权重", "代码已开源", "仍是 arXiv 预印本", "只测了 dense 模型", "需要实测验证",
         "与 PagedAttention 可以互补", "与既有路线构成直接竞争", "生产环境已上线", "复现要自己做工程",
         "对长上下文负载收益最大", "在异构集群上的泛化有待验证"]
_METRIC = ["TTFT P95 延迟", "端到端延迟", "好吞吐（goodput）", "GPU 显存占用", "SLO 违规率", "投机接受率",
           "每 token 成本", "模型加载时间", "缓存命中率", "召回率@10", "任务成功率"]
_HW = ["H100", "H200", "A800", "B200", "MI300X", "L40S", "M4 GPU", "Ascend 910B", "TPU v5e"]
_MODEL = ["Llama-3.1-70B", "Qwen3.5-27B-A3B", "DeepSeek-V4-Flash", "Gemma-4-E4B", "Mixtral-8x22B", "Kimi-K3",
          "Qwen3.5-4B", "GLM-5"]
_ENGINE = ["vLLM", "SGLang", "TRT-LLM", "llama.cpp", "LMCache", "Ollama", "MLC-LLM", "TGI"]
_WHO = ["jay", "tom", "flyp", "spark", "stephen"]
_TAGS = ["自投机解码", "P/D 分离量化数据", "SLO 调度", "算子级弹性", "长上下文稀疏 Prefill", "wave index", "生产数据",
         "KV 分层放置", "免训练", "量化", "MoE", "边缘推理", "paper_card 入库", "NSDI 2026", "MLSys 2026", "VLDB 2026"]
_VENUES = ["MLSys 2026", "VLDB 2026", "NSDI 2026", "OSDI 2026", "ASPLOS 2026", "EuroSys 2026", "ICML 2026",
           "NeurIPS 2025", "ICLR 2026", "ACL 2026", "ICPP 2026", "SIGMOD 2026"]
_AFFIL = ["微软研究院", "清华大学", "上海交通大学", "北京大学", "阿里巴巴", "字节跳动", "Meta", "Google DeepMind",
          "UC Berkeley", "CMU", "Stanford", "NVIDIA", "Dell Technologies", "华为", "中国科技大学", "ETH Zürich", "KAIST"]
_FIRST = ["Wei", "Yuxuan", "Ravi", "Hao", "Lena", "Jun", "Sofia", "Min", "Arjun", "Chen", "Tomás", "Yuki", "Omar"]
_LAST = ["Zhang", "Li", "Valluri", "Wang", "Müller", "Liu", "García", "Park", "Sharma", "Chen", "Ito", "Haddad"]
_OTHER_CATS = ["llm-infra", "multimodal", "evaluation", "database", "risk", "agent", "rag"]
_OLD_IDS = ["cs/0112017", "hep-th/9901001", "math.GT/0309136", "cond-mat/0102536", "cs/0207021", "physics/0402096",
            "1409.0473", "1412.6980", "1308.0850", "1211.5063"]  # old style, then 4-digit new style (2007-2014)
_TZ = dt.timezone(dt.timedelta(hours=8))  # Asia/Shanghai (CST)
_LEVELS = ["very-high", "high", "medium", "medium-low", "low"]


# --------------------------------------------------------------------------- plan records


@dataclass
class _Paper:
    id: str
    short: str
    topic: str
    arxiv: str | None
    month: dt.date  # month of the arXiv id (first day)
    kind: str = "paper"
    primary: str | None = None
    adjacent: list[str] = field(default_factory=list)
    cards: list[int] = field(default_factory=list)
    first: tuple | None = None  # (date, topic, round) of first raise (item or adjacent)
    anchor: tuple[dt.date, str | None] | None = None  # (since, section)
    planned: bool = False  # anchor decided (raised as an item)


@dataclass
class _Topic:
    id: str
    sections: list[str]  # referable section ids, in tree order
    late: dict[str, str]  # section id -> brief key that opens it
    opened: dict[str, dt.date]  # section id -> date opened
    pending: dict[str, bool] = field(default_factory=dict)  # mirror of figures.carried_over state
    adjacent_only: list[str] = field(default_factory=list)
    anchored_on: dict[dt.date, list[str]] = field(default_factory=dict)
    raised: list[str] = field(default_factory=list)  # item papers, oldest first
    background: list[str] = field(default_factory=list)  # anchored before the first brief
    prev: dict | None = None  # previous brief summary


@dataclass
class Summary:
    briefs: int
    papers: int
    topics: int
    files: int
    bytes: int
    disagreements: int  # stated figures deliberately off (expected warnings)


# --------------------------------------------------------------------------- generator


class _Gen:
    def __init__(self, briefs: int, papers: int, seed: int, topics: list[str], start: dt.date, disagree_rate: float):
        self.r = random.Random(seed)
        self.n_briefs, self.n_papers, self.topics, self.start = briefs, papers, topics, start
        self.disagree_rate = disagree_rate
        self.papers: dict[str, _Paper] = {}
        self.used_arxiv: set[str] = set()
        self.card_no = 100
        self.files: dict[str, str] = {}
        self.disagreements = 0

    # ---- small helpers
    def pick(self, seq, k: int | None = None):
        return self.r.choice(seq) if k is None else self.r.sample(seq, min(k, len(seq)))

    def pct(self) -> str:
        return f"{self.r.choice(['-', '+'])}{self.r.randint(2, 60)}.{self.r.randint(0, 9)}%"

    def times(self) -> str:
        return f"{self.r.randint(1, 9)}.{self.r.randint(0, 99):02d}×"

    def ref(self, p: _Paper) -> str:
        return f"（arXiv:{p.arxiv}）" if p.arxiv else "（无 arXiv 号）"

    def sentence(self, who: str | None = None) -> str:
        r = self.r
        who = who or self.pick(_ENGINE)
        forms = [
            f"{self.pick(_METHOD)}：在 {self.pick(_HW)} 上 {self.pick(_MODEL)} 的{self.pick(_METRIC)} {self.pct()}，{self.pick(_TAIL)}。",
            f"与 {who} 相比，{self.pick(_METRIC)}最高提升 {self.times()}；{self.pick(_METRIC)}降低 {r.randint(5, 45)}%（{self.pick(_HW)}，batch {2 ** r.randint(0, 8)}）。",
            f"关键数字：{self.pick(_MODEL)} 上{self.pick(_METRIC)} {self.pct()}、{self.pick(_MODEL)} {self.pct()}；{self.pick(_TAIL)}。",
            f"{self.pick(_TAIL)}；这正是它与 {self.pick(_ENGINE)} / {self.pick(_ENGINE)} 的根本区别——{self.pick(_METHOD)}。",
            f"工程意义：直接瞄准{self.pick(_METRIC)}的瓶颈，{self.pick(_METHOD)}，{self.pick(_TAIL)}。",
        ]
        return r.choice(forms)

    def arxiv_for(self, month: dt.date) -> str:
        while True:
            aid = f"{month.year % 100:02d}{month.month:02d}.{self.r.randint(1, 29999):05d}"
            if aid not in self.used_arxiv:
                self.used_arxiv.add(aid)
                return aid

    def new_paper(self, topic: str, when: dt.date, background: bool = False) -> _Paper:
        r = self.r
        while True:
            short = self.pick(_PRE) + self.pick(_SUF) + r.choice(["", "", "", "-2", "++", " v2"])
            pid = re.sub(r"[^a-z0-9]+", "-", short.lower()).strip("-")
            if pid not in self.papers:
                break
            short += f" {r.randint(3, 99)}"
            pid = re.sub(r"[^a-z0-9]+", "-", short.lower()).strip("-")
            if pid not in self.papers:
                break
        back = r.randint(0, 30 if background else 2)
        month = dt.date(when.year, when.month, 1)
        for _ in range(back):
            month = (month - dt.timedelta(days=1)).replace(day=1)
        kind, arxiv = "paper", None
        if background and r.random() < 0.08 and any(a not in self.used_arxiv for a in _OLD_IDS):
            arxiv = r.choice([a for a in _OLD_IDS if a not in self.used_arxiv])
            self.used_arxiv.add(arxiv)
            yymm = re.search(r"(\d{2})(\d{2})[.\d]", arxiv.split("/")[-1])
            yy = int(yymm.group(1))
            month = dt.date(2000 + yy if yy < 90 else 1900 + yy, int(yymm.group(2)), 1)
        elif r.random() < 0.08:
            kind = r.choice(["system", "report", "benchmark"])
        else:
            arxiv = self.arxiv_for(month)
        p = _Paper(pid, short, topic, arxiv, month, kind, primary=topic if r.random() < 0.9 else None)
        self.papers[pid] = p
        return p

    # ---- schedule
    def schedule(self) -> list[tuple[str, dt.date, str]]:
        out, day = [], self.start
        while len(out) < self.n_briefs:
            if self.r.random() < 0.04 and out:  # a skipped day: next window is ~48h
                day += dt.timedelta(days=1)
            for t in self.topics:
                if len(out) < self.n_briefs:
                    out.append((t, day, "E1"))
                if len(out) < self.n_briefs and self.r.random() < 0.03:
                    out.append((t, day, "E2"))
            day += dt.timedelta(days=1)
        return out

    def topic_plan(self, tid: str, keys: list[tuple[str, dt.date]]) -> tuple[dict, _Topic]:
        tree = _TREES.get(tid) or [
            ("head", None, "头部 · 要闻", "Headline items", []),
            *[(f"s{i}", str(i), f"{tid} 第 {i} 部分", f"{tid} part {i}",
               [(f"{'*' if i == 3 and j == 3 else ''}s{i}-{j}-{w}", f"{i}.({j})", f"{w} 路线", f"{w.title()} route", [])
                for j, w in enumerate(["methods", "systems", "evaluation"], 1)]) for i in (1, 2, 3)]]
        late_ids = []
        refs: list[str] = []

        def walk(nodes, depth):
            out = []
            for sid, number, title, title_en, children in nodes:
                late = sid.startswith("*")
                sid = sid.lstrip("*")
                if depth or sid == "head":
                    refs.append(sid)
                node = {"id": sid, "number": number, "title": title, "title_en": title_en}
                if self.r.random() < 0.6:
                    node["summary"] = f"{title}：{self.pick(_METHOD)}、{self.pick(_METHOD)}等路线的进展与取舍。"
                if late:
                    late_ids.append(sid)
                    node["_late"] = True
                if children:
                    node["children"] = walk(children, depth + 1)
                out.append(node)
            return out

        sections = walk(tree, 0)
        late: dict[str, str] = {}
        opened: dict[str, dt.date] = {}
        for n, sid in enumerate(late_ids):
            if len(keys) >= 2:
                stem, date = keys[max(1, (n + 1) * len(keys) // (len(late_ids) + 1))]
                late[sid], opened[sid] = f"{tid}/{stem}", date

        def finish(nodes):
            for node in nodes:
                if node.pop("_late", False) and node["id"] in late:
                    node["introduced"] = opened[node["id"]]
                    node["introduced_by"] = late[node["id"]]
                finish(node.get("children", []))

        finish(sections)
        title, title_en = _TOPIC_TITLES.get(tid, (tid, tid))
        doc = {"id": tid, "title": title, "title_en": title_en,
               "description": f"{title}方向的活文档：{self.pick(_METHOD)}等。Living survey of {title_en}.",
               "document": f"organized/knowledge/{tid}.md", "page": f"{tid}.md", "sections": sections}
        return doc, _Topic(tid, refs, late, opened)

    # ---- whole knowledge base
    def run(self) -> dict[str, str]:
        slots = self.schedule()
        last = max(d for _, d, _ in slots) if slots else self.start
        keys_by_topic: dict[str, list] = {t: [] for t in self.topics}
        for t, d, rnd in slots:
            keys_by_topic[t].append((f"{d.isoformat()}-{rnd.lower()}", d))
        states: dict[str, _Topic] = {}
        for t in self.topics:
            doc, states[t] = self.topic_plan(t, keys_by_topic[t])
            self.files[f"topics/{t}.yaml"] = dump(doc, f"Synthetic topic {t}: the section tree of its living document.")
        # papers: a tenth anchored before the year starts, the rest raised by briefs
        n_bg = min(self.n_papers, max(len(self.topics), self.n_papers // 10)) if slots else self.n_papers
        for i in range(n_bg):
            t = self.topics[i % len(self.topics)]
            p = self.new_paper(t, self.start, background=True)
            st = states[t]
            p.anchor = (self.start - dt.timedelta(days=self.r.randint(1, 400)), self.pick(self.base_sections(st)))
            p.planned = True
            st.background.append(p.id)
        n_new = self.n_papers - n_bg
        counts = [n_new // max(1, len(slots))] * len(slots)
        for i in self.r.sample(range(len(slots)), n_new % len(slots)) if slots else []:
            counts[i] += 1
        for _ in range(len(slots) * 2):  # some briefs bring more, some fewer
            i, j = self.r.randrange(len(slots)), self.r.randrange(len(slots))
            if counts[i] > 1:
                counts[i] -= 1
                counts[j] += 1
        for (t, d, rnd), k in zip(slots, counts):
            self.brief(states[t], d, rnd, k, last)
        for p in self.papers.values():
            self.files[f"papers/{p.id}.yaml"] = dump(self.paper_doc(p))
        for i, p in enumerate(sorted(self.papers.values(), key=lambda p: p.id)[:2]):
            kernel = ["attention-decode", "softmax"][i]
            self.files[f"demos/{kernel}-demo.yaml"] = dump({
                "id": f"{kernel}-demo", "kernel": kernel, "title": f"{kernel} WebGPU kernel（{p.short}）",
                "description": f"浏览器内运行的 {kernel} kernel，对照 {p.short} 的实现。",
                "papers": Flow([p.id]), "sections": Flow([self.base_sections(states[p.topic])[0]])})
        return dict(sorted(self.files.items()))

    def base_sections(self, st: _Topic) -> list[str]:
        return [s for s in st.sections if s not in st.late]

    def open_sections(self, st: _Topic, date: dt.date) -> list[str]:
        return [s for s in st.sections if s not in st.opened or st.opened[s] <= date]

    @staticmethod
    def anchored(p: _Paper, topic: str, date: dt.date) -> bool:
        return p.anchor is not None and p.topic == topic and p.anchor[0] <= date

    def plan_anchor(self, p: _Paper, date: dt.date, section: str | None, last: dt.date, st: _Topic) -> None:
        if p.planned:
            return
        p.planned = True
        if self.r.random() < 0.99:
            since = date + dt.timedelta(days=min(self.r.randint(1, 8), self.r.randint(1, 30)))
            if since <= last:
                p.anchor = (since, section if self.r.random() < 0.9 else None)
                st.anchored_on.setdefault(since, []).append(p.id)

    # ---- one brief
    def brief(self, st: _Topic, date: dt.date, rnd: str, k: int, last: dt.date) -> None:
        r, t = self.r, st.id
        key = f"{t}/{date.isoformat()}-{rnd.lower()}"
        secs = self.open_sections(st, date)
        where = (date, t, rnd)
        new = [self.new_paper(t, date) for _ in range(k)]
        roles = [r.choices(["inc", "cand", "adj"], [0.66, 0.12, 0.22])[0] for _ in new]
        inc_new = [p for p, role in zip(new, roles) if role == "inc"]
        cand_new = [p for p, role in zip(new, roles) if role == "cand"]
        adj_new = [p for p, role in zip(new, roles) if role == "adj"]
        for p in new:
            p.first = where
            if r.random() < 0.2 and p.arxiv:  # ingested as a paper card under another primary category
                p.primary, p.adjacent = r.choice(_OTHER_CATS), [t]

        # increments: new papers (1 or 2 each), a promoted adjacent paper, follow-ups, a paper-less item
        groups: list[tuple[list[_Paper], str]] = []
        i = 0
        while i < len(inc_new):
            n = 2 if r.random() < 0.25 and i + 1 < len(inc_new) else 1
            groups.append((inc_new[i:i + n], "net-new"))
            i += n
        if st.adjacent_only and r.random() < 0.15:
            groups.append(([self.papers[st.adjacent_only.pop(0)]], "net-new"))
        pend = [pid for pid in st.pending if not self.anchored(self.papers[pid], t, date)]
        if pend and r.random() < 0.2:
            groups.append(([self.papers[self.pick(pend)]], "pending"))
        recent = [pid for d in range(4) for pid in st.anchored_on.get(date - dt.timedelta(days=d), [])]
        if recent and r.random() < 0.15:
            groups.append(([self.papers[self.pick(recent)]], "anchored"))
        for _ in range(int(not groups) + (r.random() < 0.35) + (r.random() < 0.1)):
            groups.append(([], "net-new"))
        increments = [self.increment(st, key, ps, status, secs, date, last) for ps, status in groups]

        # candidates: new ones, some still pending, some just anchored
        cands = [{"paper": p.id, "status": "net-new", "note": "NET-new 待锚入"} for p in cand_new]
        raised_inc = {p.id for ps, _ in groups for p in ps}
        if r.random() < 0.4:
            for pid in self.pick([p for p in pend if p not in raised_inc], r.randint(1, 4)):
                cands.append({"paper": pid, "status": "pending", "note": "候选 · 仍未锚入"})
            for pid in self.pick([p for p in recent if p not in raised_inc], r.randint(0, 2)):
                cands.append({"paper": pid, "status": "anchored",
                              "note": f"已锚入（{self.papers[pid].anchor[0].isoformat()}）"})
        for p in cand_new:
            self.plan_anchor(p, date, self.pick(secs), last, st)

        adjacent = [self.adjacent_item(st, p, secs, date) for p in adj_new]
        for _ in range(r.randint(3, 6)):
            adjacent.append(self.adjacent_item(st, None, secs, date))
        r.shuffle(adjacent)
        for p in adj_new:
            st.adjacent_only.append(p.id)

        # figures, mirroring kb.knowledge.figures
        items = [(p.id, status) for ps, status in groups for p in ps] + [(c["paper"], c["status"]) for c in cands]
        seen: set[str] = set()
        arxiv_net_new = 0
        for ps, _ in groups:
            for p in ps:
                if not p.arxiv or p.id in seen:
                    continue
                seen.add(p.id)
                f = p.first
                is_earlier = f[0] < date or (f[0] == date and f[1] == t and f[2] < rnd)
                if not is_earlier and not self.anchored(p, t, date):
                    arxiv_net_new += 1
        pending_before = list(st.pending)
        raised = {pid for pid, _ in items}
        carried = [(pid, self.anchored(self.papers[pid], t, date)) for pid in st.pending if pid not in raised]
        nxt = {pid: True for pid, a in carried if not a}
        for pid, status in items:
            if status == "anchored" or self.anchored(self.papers[pid], t, date):
                nxt.pop(pid, None)
            elif pid not in nxt:
                nxt[pid] = True
        st.pending = nxt
        for ps, _ in groups:
            st.raised.extend(p.id for p in ps if p.id not in st.raised[-50:])

        sources, cards, n_files, breakdown = self.sources(st, date, rnd, new, pending_before)
        stated = {
            "increments": len(increments),
            "net_new": sum(1 for s in groups if s[1] == "net-new"),
            "adjacent_ingested": sum(1 for ps, _ in groups if any(p.cards and p.primary and p.primary != t for p in ps)),
            "adjacent": len(adjacent),
            "arxiv_net_new": arxiv_net_new,
            "carried_over": len(carried),
            "cards": cards,
            "sources_checked_min": n_files - n_files % 5 if n_files >= 5 else n_files,
            "sources_breakdown": breakdown,
        }
        if st.prev:
            stated["previous_increments"], stated["previous_adjacent"] = st.prev["increments"], st.prev["adjacent"]
        if r.random() < self.disagree_rate:
            fig = r.choice(["net_new", "adjacent", "carried_over", "cards"])
            stated[fig] += 1
            self.disagreements += 1
        labels = [inc["label"] for inc in increments]
        gen_at = dt.datetime.combine(date, dt.time(22, 20) if rnd == "E1" else dt.time(23, 50), tzinfo=_TZ)
        start = st.prev["generated_at"] if st.prev and st.prev["generated_at"] < gen_at else gen_at - dt.timedelta(days=1)
        hours = round((gen_at - start).total_seconds() / 3600)
        who = ["Tom", "Jay", "Spark", "Stephen", "Flyp"][self.topics.index(t) % 5]
        doc = {
            "topic": t, "date": date, "round": rnd, "round_name": "日间预消化轮" if rnd == "E1" else "夜间补充轮",
            "instance": who, "cron": self.uuid(), "generated_at": gen_at.isoformat(), "timezone": "Asia/Shanghai",
            "timezone_abbr": "CST",
            "window": {"start": start.isoformat(), "end": gen_at.isoformat(), "note": f"约 {hours}h"},
            "baseline": self.baseline(st, date),
            "character": {"title": " + ".join(labels[:4]) + f" {len(labels)} 核驱动" + (" + " + adjacent[0]["title"] if adjacent else ""),
                          "text": "".join(self.sentence() for _ in range(r.randint(3, 5)))},
            "stated": stated, "sources": sources, "increments": increments, "adjacent": adjacent,
            "candidates": [FlowMap(c) for c in cands],
            "claims": self.claims([p for ps, _ in groups for p in ps]),
            "comparison": {
                "previous_summary": f"{st.prev['date'].month}-{st.prev['date'].day} 的增量是 {' / '.join(st.prev['labels'][:4])}。" if st.prev else None,
                "this_summary": f"{date.month}-{date.day} 的增量是 {' + '.join(labels)}。",
                "features": [f"{self.pick(_TAGS)}（{self.pick(_METRIC)} {self.pct()}）" for _ in range(r.randint(2, 4))]},
        }
        self.files[f"briefs/{key}.yaml"] = dump(doc, f"{t} · {rnd} synthetic brief for {date.isoformat()}.")
        st.prev = {"increments": len(increments), "adjacent": len(adjacent), "labels": labels, "date": date,
                   "generated_at": gen_at, "key": key}

    def uuid(self) -> str:
        h = f"{self.r.getrandbits(128):032x}"
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

    def older(self, st: _Topic, date: dt.date, k: int) -> list[_Paper]:
        pool = st.raised[-60:] + (st.background[:40] if len(st.raised) < 60 else [])
        return [self.papers[pid] for pid in self.pick(pool, k)]

    def increment(self, st: _Topic, key: str, ps: list[_Paper], status: str, secs: list[str], date: dt.date, last: dt.date) -> dict:
        r, t = self.r, st.id
        sections = self.pick(secs, r.choice([1, 1, 2]))
        suggested = self.pick(secs, r.randint(1, 2))
        newly = [s for s, k in st.late.items() if k == key]
        for p in ps:
            self.plan_anchor(p, date, suggested[0], last, st)
        label = " + ".join(p.short for p in ps) or f"{self.pick(_ENGINE)} v0.{r.randint(5, 19)}"
        what = "跟进" if status == "pending" else ("更新" if status == "anchored" else "")
        title = f"{label}{what}：{self.pick(_METHOD)}——{self.pick(_TAIL)}（{self.pick(_VENUES) if r.random() < 0.5 else 'arXiv 预印本'}）"
        links = [FlowMap({"label": f"{p.short} 链接", "url": f"https://arxiv.org/abs/{p.arxiv}" if p.arxiv else
                          f"https://example.org/{p.id}", "note": "v1" if r.random() < 0.2 else None}) for p in ps]
        if r.random() < 0.4:
            links.append(FlowMap({"label": "GitHub", "url": f"https://github.com/{self.pick(_WHO)}-lab/{(ps[0].id if ps else 'release')}"}))
        if len(ps) > 1:
            points = [{"title": f"要点（{p.short}）", "items": [self.sentence() for _ in range(r.randint(3, 5))]} for p in ps]
        else:
            points = [{"items": [self.sentence() for _ in range(r.randint(3, 6))]}]
        relations = []
        for _ in range(r.randint(1, 4)):
            olds = self.older(st, date, r.randint(0, 2))
            mention = "、".join(f"{p.short}{self.ref(p)}" for p in olds) or f"KV Cache Internet（arXiv:{self.arxiv_like(date)}）"
            relations.append({"section": self.pick(secs) if r.random() < 0.9 else None,
                              "papers": Flow([p.id for p in olds]) if olds else None,
                              "text": f"与 {mention} 同属“{self.pick(_TAGS)}”方向；{self.sentence()}"})
        if newly:
            relations.append({"section": newly[0], "text": f"开出新路线：{self.pick(_METHOD)}。"})
        n_def = r.choice([0, 2, 3, 4, 5])
        return {
            "sections": Flow(sections), "light": r.choice(["green"] * 6 + ["yellow"] * 3 + ["red"]),
            "title": title, "label": label, "tags": Flow(self.pick(_TAGS, r.randint(1, 3))),
            "papers": Flow([p.id for p in ps]) if ps else None,
            "sources": [{"path": f"inbox/{self.pick(_WHO)}/{date.isoformat()}-{t}-engineering.md",
                         "section": f"§A{r.randint(1, 6)}" if r.random() < 0.6 else None} for _ in range(r.randint(1, 2))],
            "links": links,
            "credibility_note": "单作者 preprint，可信度起点低" if r.random() < 0.05 else None,
            "points": points,
            "defects_source": f"{self.pick(_WHO)} critical-read 识别" if n_def else None,
            "defects": [self.sentence() for _ in range(n_def)],
            "relations": relations,
            "suggested": [{"section": s, "note": f"{'NET-new' if status == 'net-new' else status} · {label}"
                           + "".join(f" · arXiv:{p.arxiv}" for p in ps if p.arxiv)} for s in suggested],
            "status": status,
            "status_note": {"net-new": f"尚未锚入 {t}.md；{self.pick(_TAIL)}", "pending": "仍未锚入，继续跟进",
                            "anchored": "已锚入，本棒补充新数据"}[status],
            "value": r.randint(2, 5), "summary_note": self.pick(["待锚入", "建议优先锚入", "低可信度；仅作对照锚", None]),
        }

    def arxiv_like(self, date: dt.date) -> str:
        return f"{date.year % 100:02d}{date.month:02d}.{self.r.randint(30000, 39999):05d}"  # never a paper file

    def adjacent_item(self, st: _Topic, p: _Paper | None, secs: list[str], date: dt.date) -> dict:
        r = self.r
        verify = r.random() < 0.12
        industry = verify or r.random() < 0.1
        return {
            "title": p.short if p else f"{self.pick(_ENGINE)} {self.pick(_TAGS)}" + ("（待核实）" if verify else ""),
            "text": f"{p.short}{self.ref(p)}：{self.sentence()}" if p else self.sentence(),
            "papers": Flow([p.id]) if p else None,
            "source_note": None if p else self.pick(["HF 官方博客", "CSDN", "Red Hat Developers", "The Information", "知乎"]) + f" {date.isoformat()}",
            "origin": f"{self.pick(_WHO)} {date.month}-{date.day} {r.randint(6, 23):02d}{r.choice(['05', '20', '35', '50'])}",
            "relation": f"{self.pick(_TAGS)}；{self.pick(_TAIL)}",
            "sections": None if industry else Flow(self.pick(secs, 1)),
            "category": "行业事件" if industry else None,
            "section_note": self.pick(["边缘/Apple Silicon", "推理引擎选型", "本地推理", None, None]),
            "value": r.randint(2, 5),
            "status": "verify" if verify else None,
            "priority": r.choice(["P0", "P1", "P2"]) if verify else None,
            "warning": "⚠️生产警示" if r.random() < 0.05 else None,
        }

    def claims(self, ps: list[_Paper]) -> list[dict]:
        r = self.r
        out = []
        for _ in range(r.randint(2, 5)):
            sel = self.pick(ps, r.randint(0, 2)) if ps else []
            out.append({"title": (" / ".join(p.short for p in sel) or self.pick(_ENGINE)) + f" 的{self.pick(_METRIC)}数字待核实",
                        "priority": r.choice(["P0", "P1", None, None]), "resolved": True if r.random() < 0.1 else None,
                        "papers": Flow([p.id for p in sel]) if sel else None,
                        "points": [self.sentence() for _ in range(r.randint(1, 3))]})
        return out

    def baseline(self, st: _Topic, date: dt.date) -> dict | None:
        if self.r.random() < 0.1:
            return None
        labels = []
        for d in range(3):
            ids = [pid for pid in st.anchored_on.get(date - dt.timedelta(days=d), [])]
            if ids:
                labels.append({"text": "/".join(self.papers[i].short for i in ids[:3]), "papers": Flow(ids[:3])})
        labels += [{"text": f"{self.pick(_ENGINE)} {self.pick(_TAGS)}"} for _ in range(self.r.randint(1, 3))]
        n = sum(1 for p in self.papers.values() if p.topic == st.id and p.anchor and p.anchor[0] <= date)
        return {"document": f"organized/knowledge/{st.id}.md", "updated": date, "labels": labels,
                "citations": 300 + n, "citations_approx": self.r.random() < 0.7}

    def sources(self, st: _Topic, date: dt.date, rnd: str, new: list[_Paper], pending: list[str]):
        r, t, d = self.r, st.id, date.isoformat()
        groups: list[dict] = []
        breakdown: list[tuple[str, int]] = []

        def group(title, files, label, **extra):
            groups.append({"title": title, **extra, "files": files})
            breakdown.append((label, len(files)))

        def f(path, included=True, **kw):
            return {"path": path, **kw, "included": included}

        group("work-queue.md", [f("work-queue.md", time=f"{d} 22:00")], "work-queue",
              time=f"{d} 22:00 自动生成", findings=[f"待建卡 {r.randint(0, 12)} · 待更新活文档 {r.randint(0, 3)} · 选题榜 {r.randint(5, 15)} 件。"])
        radar = [f(f"inbox/tom/{d}T{h}-agent-rag-longcontext-radar.md", time=f"{h[:2]}:{h[2:]}",
                   summary=f"{t} 主轴 {r.randint(0, 3)} 件（{self.pick(_PRE)}{self.pick(_SUF)} / {self.pick(_PRE)}{self.pick(_SUF)}）",
                   reason=f"{t} {r.randint(0, 3)} 件") for h in ("0840", "1440", "2040")]
        group("inbox/tom 今日 radar", radar, "tom radar", time="08:40 / 14:40 / 20:40")
        jay = [f(f"inbox/jay/{d}T{r.randint(6, 22):02d}{r.randint(0, 59):02d}-jay-{self.pick(_PRE).lower()}-{self.pick(_SUF).lower()}-briefing.md",
                 summary=" + ".join(self.pick(_TAGS, 3)), reason=self.pick(_TAGS),
                 key=f"本棒最关键源之{'一二三'[i]}" if i < 3 and r.random() < 0.4 else None) for i in range(r.randint(3, 6))]
        group("inbox/jay 全天简报（高密度源）", jay, "jay 简报")
        if r.random() < 0.5:
            group(f"inbox/flyp {date.month}-{date.day} critical-read", [f(f"inbox/flyp/{d}-1550-critical-read.md", summary=self.sentence())],
                  "flyp critical-read", time=f"{d} 15:50 重写版")
        group("inbox/spark + stephen e1prep", [f(f"inbox/spark/{d}-llm-infra-e1prep.md", time=f"{d} 18:40"),
                                              f(f"inbox/stephen/{d}-llm-application-e1prep.md", time=f"{d} 21:10")],
              "spark/stephen e1prep", findings=[f"{r.randint(0, 6)} 件邻接备料候选，{self.pick(_TAIL)}。"])
        cards = []
        for p in new:
            if p.arxiv and (p.primary != t or r.random() < 0.15):
                self.card_no += 1
                p.cards.append(self.card_no)
                cards.append(FlowMap({"number": self.card_no, "arxiv": p.arxiv, "title": p.short,
                                      "ingested": f"{d} {r.randint(8, 21)}:{r.choice(['00', '30'])}" if r.random() < 0.3 else None}))
                if r.random() < 0.05:
                    self.card_no += 1
                    p.cards.append(self.card_no)
                    cards.append(FlowMap({"number": self.card_no, "arxiv": p.arxiv, "note": f"同号重（与 {p.cards[0]} 同一 arXiv 号）"}))
        for _ in range(r.randint(0, 6)):
            self.card_no += 1
            cards.append(FlowMap({"number": self.card_no, "arxiv": self.arxiv_like(date), "title": self.pick(_PRE) + self.pick(_SUF),
                                  "category": self.pick(_OTHER_CATS)}))
        if cards:
            group("paper_cards 库近 3 日新卡",
                  [f(f"paper_cards/{c['number']}-{c['arxiv'].replace('.', '-')}.md", summary=f"{c.get('title') or c['arxiv']} 入库")
                   for c in cards[:2]], "paper_cards", cards_window=f"{(date - dt.timedelta(days=3)).isoformat()} → {d}",
                  findings=[f"批次为 paper_card {cards[0]['number']}-{cards[-1]['number']}。"], cards=cards)
        confirmed = [pid for pid in pending if not self.anchored(self.papers[pid], t, date)][:r.randint(0, 5)]
        group(f"organized/knowledge/{t}.md", [f(f"organized/knowledge/{t}.md", summary=f"{d} 更新标注")], f"{t}.md",
              findings=[f"{' / '.join(self.papers[p].short for p in confirmed)} 仍未锚入。" if confirmed else "没有新的待锚入件。"],
              confirmed_pending=Flow(confirmed) if confirmed else None)
        if st.prev:
            group("参照基线", [f(f"inbox/tom/{st.prev['date'].isoformat()}-{t}-e1prep.md", reason="上一棒参照基线")], "参照基线")
        group("其他主轴的 e1prep", [f(f"inbox/{w}/{d}-{c}-e1prep.md", False, reason=f"{c} 主轴")
                                  for w, c in zip(self.pick(_WHO, 3), self.pick(_OTHER_CATS, 3))], "其他主轴")
        n_files = len({fl["path"] for g in groups for fl in g["files"]})
        return groups, len(cards), n_files, [FlowMap({"label": lb, "count": n}) for lb, n in breakdown]

    def paper_doc(self, p: _Paper) -> dict:
        r = self.r
        title = f"{p.short}: {self.pick(_EN_ADJ)} {self.pick(_EN_NOUN)} for {self.pick(_EN_GOAL)}"
        authors = [f"{self.pick(_FIRST)} {self.pick(_LAST)}" for _ in range(r.randint(0, 5))]
        doc = {
            "id": p.id, "arxiv": (p.arxiv + ("v2" if r.random() < 0.05 else "")) if p.arxiv else None,
            "kind": p.kind if p.kind != "paper" else None, "short": p.short, "title": title,
            "authors": Flow(authors) if authors else None,
            "affiliations": Flow(self.pick(_AFFIL, r.randint(1, 4))) if r.random() < 0.7 else None,
            "authors_note": "单作，无机构标注" if len(authors) == 1 else None,
            "venue": {"name": self.pick(_VENUES), "detail": f"Pages {r.randint(100, 900)}-{r.randint(901, 1800)}" if r.random() < 0.3 else None}
            if r.random() < 0.35 else None,
            "published": f"{p.month.year}-{p.month.month:02d}",
            "subjects": Flow(self.pick(["cs.CL", "cs.DC", "cs.LG", "cs.AR", "cs.IR"], r.randint(1, 2))) if p.arxiv else None,
            "links": {"code": f"https://github.com/{self.pick(_WHO)}-lab/{p.id}"} if r.random() < 0.4 else
            ({"other": f"https://example.org/{p.id}"} if not p.arxiv else None),
            "credibility": {"level": self.pick(_LEVELS), "reason": f"{self.pick(_TAIL)}；{self.pick(_AFFIL)}署名"},
            "cards": Flow(p.cards) if p.cards else None,
            "category": {"primary": p.primary, "adjacent": Flow(p.adjacent) if p.adjacent else None} if p.primary else None,
            "anchors": [{"topic": p.topic, "section": p.anchor[1], "since": p.anchor[0],
                         "note": f"锚入 {p.topic}.md" if r.random() < 0.3 else None}] if p.anchor else None,
            "key_numbers": [FlowMap({"value": self.pct(), "what": f"{self.pick(_MODEL)} · {self.pick(_METRIC)}"})
                            for _ in range(r.randint(0, 4))],
            "notes": [self.sentence() for _ in range(r.randint(1, 3))],
        }
        if p.arxiv and r.random() < 0.25:
            doc["arxiv_meta"] = {
                "title": title, "authors": Flow(authors) if authors else None,
                "abstract": " ".join(f"We present {p.short}, a {self.pick(_EN_ADJ).lower()} approach to {self.pick(_EN_NOUN).lower()} "
                                     f"for {self.pick(_EN_GOAL).lower()}." for _ in range(r.randint(2, 5))),
                "published": p.month + dt.timedelta(days=r.randint(0, 27)), "categories": Flow(["cs.CL", "cs.DC"]),
                "primary_category": "cs.CL", "version": r.randint(1, 3)}
        return doc


def generate(briefs: int = 365, papers: int = 2000, seed: int = 1, topics: list[str] | tuple[str, ...] = ("inference",),
             start: dt.date = dt.date(2026, 1, 1), disagree_rate: float = 0.02) -> tuple[dict[str, str], Summary]:
    """The synthetic data directory as ``{path relative to it: YAML text}`` (sorted by path) and its summary."""
    topics = list(topics)
    if briefs < 0 or papers < 0 or not topics:
        raise ValueError("briefs and papers must be >= 0 and at least one topic is needed")
    for t in topics:
        if not re.match(r"^[a-z0-9][a-z0-9-]{0,79}$", t) or topics.count(t) > 1:
            raise ValueError(f"bad or repeated topic id {t!r}")
    gen = _Gen(briefs, papers, seed, topics, start, disagree_rate)
    files = gen.run()
    n = lambda kind: sum(1 for p in files if p.startswith(kind + "/"))  # noqa: E731
    return files, Summary(n("briefs"), n("papers"), n("topics"), len(files),
                          sum(len(t.encode()) for t in files.values()), gen.disagreements)


def build(briefs: int = 365, papers: int = 2000, seed: int = 1, **kw) -> dict[str, str]:
    """Only the files of :func:`generate`."""
    return generate(briefs, papers, seed, **kw)[0]


def write(files: dict[str, str], out_dir: Path | str) -> None:
    root = Path(out_dir)
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
