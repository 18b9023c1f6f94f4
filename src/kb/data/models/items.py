"""The items of a brief: main increments, adjacent prep items, candidates, the
author's carried-over list, citable ids and claims to verify (with their later
updates).  Text the author wrote is stored as written and shown verbatim;
anything countable is computed by the knowledge base and shown beside it."""

from __future__ import annotations

from enum import Enum

from pydantic import Field

from kb.data.models.types import (
    Date,
    EditorNote,
    Flag,
    Line,
    Priority,
    Record,
    RepoPath,
    SectionIds,
    Slug,
    Text,
    Url,
    Value,
)


class Status(str, Enum):
    net_new = "net-new"
    pending = "pending"
    anchored = "anchored"


STATUS_LABELS = {Status.net_new: "NET-new", Status.pending: "待锚入", Status.anchored: "已锚入"}
STATUS_RANK = {Status.net_new: 0, Status.pending: 1, Status.anchored: 2}


class Light(str, Enum):
    green = "green"
    yellow = "yellow"
    red = "red"


LIGHTS = {Light.green: "🟢", Light.yellow: "🟡", Light.red: "🔴"}


class SummaryRow(Record):
    """The item's row in the summary table (六、本棒小结), as the author wrote it."""

    label: Line = Field(
        description="条目, e.g. `SSR（自投机解码 · partial-CoT 作 draft · arXiv:2608.20359）`.",
        examples=["RetroInfer（wave index · VLDB 2026 · arXiv:2505.02922）"],
    )
    category: Line | None = Field(None, description="分类 as written, e.g. `§1.(3) KV Cache` or `行业事件`.")
    status: Line | None = Field(None, description="状态 as written, e.g. `NET-new；高可信度；建议优先锚入`.")


class SourceRef(Record):
    path: RepoPath = Field(examples=["inbox/jay/2026-09-03-llm-inference-rag-engineering.md"])
    section: Line | None = Field(None, description="Section of the source cited, e.g. `§A1 + §A2`.")
    note: Line | None = None


class LinkOut(Record):
    label: Line = Field(examples=["来源链接"])
    url: Url = Field(examples=["https://arxiv.org/abs/2505.02922"])
    note: Line | None = Field(None, description="e.g. `v1 2026-06-17，cs.CL`.")
    joined: Flag = Field(False, description="Written on the line of the link before it, after `；`.")


class Detail(Record):
    """A labelled line of an increment the other fields do not hold (`代码：开源，MIT`), as written."""

    label: Line = Field(examples=["代码"])
    text: Text


class PointGroup(Record):
    title: Line | None = Field(None, description="e.g. `要点（RTP-LLM）`; omit for plain `要点`.")
    items: list[Text] = Field(min_length=1)


class Relation(Record):
    section: Slug | None = Field(None, description="Section of the living document the relation is about.")
    label: Line | None = Field(None, description="The section as the author wrote it, e.g. `§1.(3) KV Cache`.")
    papers: list[Slug] = Field(default_factory=list, description="Papers the text names.", examples=[["tokenweave"]])
    origin: Date | None = Field(
        None,
        description="Date of the brief the text says these papers came from "
        "(`9-2 e1prep` → 2026-09-02); checked against the history.",
    )
    text: Text


class Suggestion(Record):
    section: Slug = Field(examples=["s1-3-kv-cache"])
    label: Line | None = Field(
        None, description="The section as the author wrote it, e.g. `§1.(1) 推理引擎 · Speculative Decoding`."
    )
    note: Line | None = None


class Anchoring(Record):
    """Fields shared by every entry that can record an anchoring (``status: anchored``)."""

    anchored_in: SectionIds | None = Field(
        None,
        description="With `status: anchored`: the section(s) of the living document it is anchored in, "
        "one id or a list (`[s1-1-engines, s1-2-scheduling]`); omit when the document records none.",
        examples=["s1-3-vector-storage"],
    )
    anchored_since: Date | None = Field(
        None,
        description="With `status: anchored`: the date it was anchored, only when it is not the brief's date. "
        "An increment or candidate the brief anchors is anchored on the brief's date; an entry of the "
        "carried-over list restates an older anchoring, whose date is unknown unless given here.",
    )


class Increment(Anchoring):
    sections: list[Slug] = Field(
        min_length=1, description="Sections the increment is about (heading refs).", examples=[["s1-3-kv-cache"]]
    )
    where: Line | None = Field(
        None, description="The heading's section reference as written, e.g. `§1.(1) 推理引擎内核`."
    )
    light: Light | None = Field(None, description="Status light: green, yellow or red.")
    title: Text = Field(examples=["RetroInfer：把 KV Cache 当作向量存储引擎"])
    label: Line = Field(description="Short name, e.g. `SSR` (backlinks, previews).", examples=["RetroInfer"])
    papers: list[Slug] = Field(default_factory=list, examples=[["tokenweave"]])
    sources: list[SourceRef] = Field(default_factory=list)
    links: list[LinkOut] = Field(default_factory=list)
    venue: Line | None = Field(None, description="会议 as written, e.g. `VLDB 2026（PVLDB Vol.19 Issue 5）`.")
    authors: Line | None = Field(None, description="作者 as written.")
    credibility_note: Line | None = Field(None, description="Extra note on credibility for the whole increment.")
    details: list[Detail] = Field(
        default_factory=list, description="Other labelled lines the author wrote under the heading, in order."
    )
    points: list[PointGroup] = Field(default_factory=list)
    defects: list[Text] = Field(default_factory=list)
    defects_source: Line | None = None
    relations: list[Relation] = Field(default_factory=list)
    suggested: list[Suggestion] = Field(default_factory=list, description="Suggested section(s) to anchor it in.")
    status: Status = Field(
        description="As the author states it: `net-new`, `pending` or `anchored`.", examples=["net-new"]
    )
    status_note: Text | None = None
    value: Value | None = Field(None, description="Value 1–5 (shown as stars).")
    summary: SummaryRow | None = Field(None, description="Its row in the summary table, as written.")
    editor_notes: list[EditorNote] = Field(default_factory=list)


class AdjacentStatus(str, Enum):
    prep = "prep"
    verify = "verify"


ADJACENT_LABELS = {AdjacentStatus.prep: "邻接预备", AdjacentStatus.verify: "待核实"}


class AdjacentItem(Record):
    title: Line = Field(examples=["HF @huggingface/kernels WebGPU"])
    text: Text
    papers: list[Slug] = Field(default_factory=list, examples=[["tokenweave"]])
    source_note: Line | None = Field(
        None, description="Where it comes from when there is no arXiv id, e.g. `HF 官方博客`."
    )
    origin: Line = Field(description="Which source raised it, e.g. `jay 9-3 1735`.", examples=["jay 9-3 1735"])
    relation: Line | None = None
    sections: list[Slug] = Field(default_factory=list)
    value: Value | None = Field(
        None, description="Value 1–5 (shown as stars), when the author gives one.", examples=[4]
    )
    status: AdjacentStatus = AdjacentStatus.prep
    priority: Priority | None = None
    warning: Line | None = Field(None, description="A warning flag, e.g. `⚠️生产警示`.")
    claim: Slug | None = Field(
        None, description="The claim (by id) this item is about, when it is also a claim to verify."
    )
    summary: SummaryRow | None = Field(None, description="Its row in the summary table, as written.")
    editor_notes: list[EditorNote] = Field(default_factory=list)


class Candidate(Anchoring):
    paper: Slug = Field(examples=["tokenweave"])
    status: Status | None = Field(None, description="The status the brief gives it, when it gives one.")
    note: Line | None = None


class CarriedEntry(Anchoring):
    """An entry of the author's carried-over list (沿用件); the knowledge base computes its own list beside it."""

    paper: Slug = Field(examples=["tokenweave"])
    label: Line | None = Field(
        None,
        description="The item as the author names it before the note, when that says more than the paper's name "
        "and arXiv id (shown without it), e.g. `FlashAttention-4 MLSys 2026 Best HM`.",
    )
    note: Line | None = Field(None, description="As written, e.g. `9-1 候选 · 待锚入`.")
    status: Status | None = Field(None, description="The status the note states, when it states one.")
    origin: Date | None = Field(
        None, description="Date of the brief the note says it came from (`9-1 候选` → 2026-09-01)."
    )


class Citable(Record):
    """An entry of the author's list of citable arXiv ids (可引用的 arXiv 号列表)."""

    paper: Slug = Field(examples=["tokenweave"])
    title: Line | None = Field(None, description="The title as the list writes it (`kb import brief`).")
    note: Line | None = Field(
        None, description="The author's note after the title, e.g. `自投机解码 · ClassEval -24.1% · 2026-08`."
    )


class Claim(Record):
    id: Slug = Field(
        description="Stable id, unique within the topic; later briefs update the claim by it.",
        examples=["rtp-llm-open-source"],
    )
    title: Line
    priority: Priority | None = None
    papers: list[Slug] = Field(default_factory=list, examples=[["tokenweave"]])
    points: list[Text] = Field(default_factory=list)
    editor_notes: list[EditorNote] = Field(default_factory=list)


class ClaimAction(str, Enum):
    resolved = "resolved"
    updated = "updated"
    dropped = "dropped"


CLAIM_ACTION_LABELS = {ClaimAction.resolved: "已核实", ClaimAction.updated: "有更新", ClaimAction.dropped: "已放弃"}


class ClaimUpdate(Record):
    """A later brief's word on an earlier claim: resolved, updated or dropped."""

    claim: Slug = Field(description="The claim's id.", examples=["rtp-llm-open-source"])
    action: ClaimAction = Field(examples=["resolved"])
    note: Text = Field(description="What was found.", examples=["仓库已公开：alibaba/rtp-llm，API 与 vLLM 兼容。"])
    priority: Priority | None = Field(None, description="A new priority, with `updated`.")
