"""A team's project for the benchmarks: this repository's site with one living document per topic.

    python scripts/team_project.py DATA_DIR OUT_DIR

The repository's project (mkdocs.yml, docs/, hooks/) builds one topic: docs/inference.md is the
living document of ``inference`` and names no topic in its macro calls.  A knowledge base of
several topics (``scripts/synth_kb.py --topics ...``) needs a living document for each; this
writes OUT_DIR as a copy of the project with

* ``plugins: kb: topic: inference`` (docs/inference.md stays the repository's page);
* ``docs/<topic>.md`` for every other topic of DATA_DIR: a heading, the update labels, the
  outline and every section of data/topics/<topic>.yaml with a line of text under it, the
  macros naming the topic;
* those pages in the nav under the living documents and in hooks/template_pages.txt.

Build it as the benchmarks do: ``KB_DATA=DATA_DIR kb build --strict -f OUT_DIR/mkdocs.yml``.
TEAM_TOPICS are the ten topics of the team the site is made for (a team year: about ten
briefs a day, 3,650 briefs and 3,000 papers).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEAM_TOPICS = (
    "inference",
    "llm-infra",
    "llm-application",
    "agent",
    "rag",
    "evaluation",
    "risk",
    "ai-industry",
    "multimodal",
    "database",
)
TEAM_YEAR = (3650, 3000)  # briefs, papers: ten topics, a brief a day each
MAIN_TOPIC = "inference"  # docs/inference.md's topic


def _sections(nodes: list[dict]) -> list[str]:
    out: list[str] = []
    for node in nodes:
        out.append(str(node["id"]))
        out.extend(_sections(node.get("children") or []))
    return out


def living_document(topic: dict) -> str:
    """The Markdown of a topic's living document, every section of the topic in order."""
    tid, title = topic["id"], topic["title"]
    lines = [
        "---",
        f"title: {title} · 活文档",
        "---",
        "",
        f"# {title} · 活文档",
        "",
        f"这是 {title} 方向的活文档：节标题、锚点与锚入的论文在构建时从 `data/` 计算出来。",
        "",
        f'{{{{ citation_count("{tid}") }}}}',
        "",
        "## 更新标注 { #updates }",
        "",
        f'{{{{ update_labels("{tid}") }}}}',
        "",
        "## 各节一览 { #outline }",
        "",
        f'{{{{ section_outline("{tid}") }}}}',
        "",
    ]
    for n, sid in enumerate(_sections(topic["sections"])):
        lines += [f'{{{{ section("{sid}", "{tid}") }}}}', "", "这一节的正文由人来写：进展与取舍。", ""]
        if n == 0:
            lines += [f'{{{{ unsectioned("{tid}") }}}}', ""]
    return "\n".join(lines)


def write_project(data: Path, out: Path) -> Path:
    """Write the team project for the knowledge base at ``data`` to ``out``; its mkdocs.yml."""
    import yaml

    out.mkdir(parents=True, exist_ok=True)
    for part in ("docs", "hooks"):
        shutil.copytree(ROOT / part, out / part, dirs_exist_ok=True)
    topics = [yaml.safe_load(p.read_text("utf-8")) for p in sorted((data / "topics").glob("*.yaml"))]
    others = [t for t in topics if t["id"] != MAIN_TOPIC]
    for topic in others:
        (out / "docs" / topic["page"]).write_text(living_document(topic), "utf-8")
    with (out / "hooks" / "template_pages.txt").open("a", encoding="utf-8") as f:
        f.writelines(f"{t['page']}\n" for t in others)

    cfg = yaml.safe_load((ROOT / "mkdocs.yml").read_text("utf-8"))
    for plugin in cfg["plugins"]:
        if isinstance(plugin, dict) and "kb" in plugin:
            plugin["kb"]["topic"] = MAIN_TOPIC
    for entry in cfg["nav"]:
        if isinstance(entry, dict) and any(str(p).endswith(f"{MAIN_TOPIC}.md") for p in _pages(entry)):
            living = next(iter(entry.values()))
            living.extend({t["title"]: t["page"]} for t in others)
    config = out / "mkdocs.yml"
    config.write_text(yaml.safe_dump(cfg, allow_unicode=True, sort_keys=False), "utf-8")
    return config


def _pages(entry: object) -> list[str]:
    if isinstance(entry, dict):
        return [p for v in entry.values() for p in _pages(v)]
    if isinstance(entry, list):
        return [p for v in entry for p in _pages(v)]
    return [str(entry)]


if __name__ == "__main__":
    print(write_project(Path(sys.argv[1]), Path(sys.argv[2])))
