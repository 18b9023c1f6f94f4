"""A topic and the section tree of its living document, with the document's update log."""

from __future__ import annotations

from pydantic import Field

from kb.data.models.types import Acknowledgement, Count, Date, DocsPage, Flag, Line, Record, RepoPath, Slug, Text


class Section(Record):
    id: Slug = Field(
        description="Stable id, used as the HTML anchor of the section in the living document.",
        examples=["s1-3-kv-cache"],
    )
    number: Line | None = Field(None, description="Number as written in the document, e.g. `1.(3)`.")
    title: Line = Field(description="Heading text (Chinese or English).", examples=["KV Cache"])
    title_en: Line | None = Field(None, description="English heading, for search and for readers.")
    summary: Text | None = Field(None, description="One paragraph on what the section covers.")
    introduced: Date | None = Field(None, description="Date the section (e.g. a new route) was opened.")
    introduced_by: Line | None = Field(
        None, description="Brief id that opened the section, e.g. `inference/2026-09-03-e1`."
    )
    children: list[Section] = Field(default_factory=list, description="Sub-sections, same shape.")

    @property
    def ref(self) -> str:
        return f"§{self.number}" if self.number else self.title

    @property
    def name(self) -> str:
        """The section as its heading names it: ``§1.(3) KV Cache``, or the title alone."""
        return f"§{self.number} {self.title}" if self.number else self.title


class UpdateLabel(Record):
    text: Line = Field(description="Update label as written in the document.", examples=["llm-d v0.7 CNCF"])
    papers: list[Slug] = Field(
        default_factory=list, description="Papers the label names, if any.", examples=[["tokenweave"]]
    )


class DocumentUpdate(Record):
    """One dated entry of the living document's update log ("更新标注"), recorded once here;
    each brief's baseline is the latest entry on or before its date."""

    date: Date = Field(description="Date of the update.", examples=["2026-09-03"])
    labels: list[UpdateLabel] = Field(default_factory=list, description="The update labels of that date.")
    citations: Count | None = Field(
        None,
        description="arXiv citations the document holds after the update "
        "(only the document knows it: `引→约430条 arXiv`).",
    )
    citations_approx: Flag = Field(False, description="`true` when the count is approximate (约).")


class Topic(Record):
    id: Slug = Field(description="Topic id, equal to the file name: `data/topics/<id>.yaml`.", examples=["inference"])
    title: Line = Field(examples=["LLM 推理"])
    title_en: Line | None = None
    description: Text | None = None
    document: RepoPath = Field(
        description="Path of the living document in the team's notes, e.g. `organized/knowledge/inference.md`.",
        examples=["organized/knowledge/inference.md"],
    )
    page: DocsPage = Field(
        description="The hand-written site page (under docs/) holding the living document, e.g. `inference.md`.",
        examples=["inference.md"],
    )
    sections: list[Section] = Field(min_length=1)
    updates: list[DocumentUpdate] = Field(
        default_factory=list, description="The living document's update log, oldest first."
    )
    acknowledged: list[Acknowledgement] = Field(
        default_factory=list, description="Findings about this file the authors know of."
    )
