"""The parts of a text brief: the title, the header, 状态, and the numbered parts, each
recognised by the words of its heading (not by its number, which drifts)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kb.importer.lines import HEADING, Logical

# part kind -> words its heading holds (first match wins)
KINDS = (
    ("sources", ("来源清单", "检查过的来源清单")),
    ("checked", ("来源汇总",)),
    ("increments", ("主增量", "增量")),
    ("adjacent", ("邻接",)),
    ("claims", ("矛盾", "待核实", "警惕")),
    ("citable", ("可引用", "arXiv 号列表")),
    ("summary", ("小结",)),
)
# a sub-part that starts inside another part
SUBPARTS = (
    ("carried", re.compile(r"^沿用件")),
    ("candidates", re.compile(r"^其他条目")),
    ("comparison", re.compile(r"^与\s*\S.*对照")),
)


@dataclass
class Part:
    kind: str  # a KINDS name, "carried", "comparison", or "unknown"
    heading: Logical | None
    lines: list[Logical] = field(default_factory=list)

    @property
    def heading_text(self) -> str | None:
        return self.heading.text if self.heading else None


@dataclass
class Split:
    title: Logical | None
    header: list[Logical]
    status: list[Logical]
    status_heading: Logical | None
    parts: list[Part]


def kind_of(title: str) -> str:
    for kind, words in KINDS:
        if any(w.lower() in title.lower() for w in words):
            return kind
    return "unknown"


def split(lines: list[Logical]) -> Split:
    title = lines[0] if lines and not HEADING.match(lines[0].text) else None
    rest = lines[1:] if title else lines
    header: list[Logical] = []
    status: list[Logical] = []
    status_heading: Logical | None = None
    parts: list[Part] = []
    for line in rest:
        m = HEADING.match(line.text)
        if m and not line.bullet:
            parts.append(Part(kind_of(m.group("title")), line))
        elif not parts and status_heading is None and re.fullmatch(r"状态\s*[：:]?", line.text.strip()):
            status_heading = line
        elif parts:
            sub = next((k for k, rx in SUBPARTS if rx.match(line.text) and not line.bullet), None)
            inside = parts[-1].kind == "summary" if sub == "comparison" else parts[-1].kind not in (sub, "increments")
            if sub and inside:
                parts.append(Part(sub, line))
            else:
                parts[-1].lines.append(line)
        elif status_heading is not None or line.bullet:  # 状态's bullets, with or without their heading
            status.append(line)
        else:
            header.append(line)
    return Split(title, header, status, status_heading, parts)
