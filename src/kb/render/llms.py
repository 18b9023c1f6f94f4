"""``llms.txt``: an index of the site for language models and other automated
readers (the llms.txt convention: a title, a one-line summary, then sections
of links with a note each), pointing at the pages and the machine-readable
``api/`` files.  Links are absolute when the site has a ``site_url``."""

from __future__ import annotations

from kb.knowledge.index import KnowledgeBase, brief_page, paper_page
from kb.knowledge.views import _url
from kb.render.links import brief_title

API = (
    (
        "api/papers.json",
        "every paper: status, first seen, anchors, open claims (schema: api/schema/papers.schema.json)",
    ),
    ("api/briefs.json", "every brief: stated and computed figures, findings (schema: api/schema/briefs.schema.json)"),
    (
        "api/backlog.json",
        "what is still waiting: pending items, open claims, cards to write (schema: api/schema/backlog.schema.json)",
    ),
)


def llms_txt(kb: KnowledgeBase, site_name: str, site_url: str = "") -> str:
    base = site_url.rstrip("/") + "/" if site_url else ""

    def link(title: str, path: str, note: str = "") -> str:
        clean = " ".join(title.replace("[", "(").replace("]", ")").split())
        return f"- [{clean}]({base}{path})" + (f": {' '.join(note.split())}" if note else "")

    out = [
        f"# {site_name}",
        "",
        "> Daily briefs on LLM-inference research (new papers, their arXiv ids, credibility, key numbers and "
        "where they belong in the living survey), the living survey documents, one page per paper, and a backlog.",
        "",
        "## Machine-readable",
        "",
    ]
    out += [link(path, path, note) for path, note in API]
    for tid, topic in kb.topics.items():
        out += ["", f"## {topic.title_en or topic.title}: living document", ""]
        out.append(link(topic.title, _url(topic.page), topic.description or ""))
        keys = kb.by_topic.get(tid, [])
        if keys:
            out += ["", f"## {topic.title_en or topic.title}: briefs, newest first", ""]
            for key in reversed(keys):
                b = kb.briefs[key]
                out.append(link(brief_title(kb, key), _url(brief_page(key)), b.character.title if b.character else ""))
    out += ["", "## Papers", ""]
    for pid, paper in kb.papers.items():
        note = f"arXiv:{paper.arxiv_base}" if paper.arxiv_base else ""
        title = (
            paper.display_title
            if paper.display_title.startswith(paper.short)
            else f"{paper.short}: {paper.display_title}"
        )
        out.append(link(title, _url(paper_page(pid)), note))
    out += [
        "",
        "## Optional",
        "",
        link("Backlog", "backlog/", "items waiting to be anchored, open claims, cards to write"),
    ]
    return "\n".join(out) + "\n"
