"""A topic's living document that mkdocs.yml's nav leaves out joins the section listing the others
(:func:`kb.site.plugin.config.add_living_documents`): adding a topic needs no line in mkdocs.yml."""

from __future__ import annotations

from kb.site.plugin.config import add_living_documents

PAGES = {"inference.md": "LLM 推理", "agent.md": "智能体"}


def nav() -> list:
    return [{"首页": "index.md"}, {"活文档": [{"LLM 推理": "inference.md"}]}, {"待办": "backlog.md"}]


def test_a_missing_living_document_joins_the_section_of_the_listed_one():
    found = nav()
    add_living_documents(found, PAGES)
    assert found[1] == {"活文档": [{"LLM 推理": "inference.md"}, {"智能体": "agent.md"}]}
    assert found[0] == {"首页": "index.md"} and found[2] == {"待办": "backlog.md"}


def test_a_listed_living_document_is_not_added_again():
    found = nav()
    found[1]["活文档"].append({"我的智能体": "agent.md"})  # the project's own title stays
    add_living_documents(found, PAGES)
    add_living_documents(found, PAGES)  # a preview's next build configures the same nav
    assert found[1] == {"活文档": [{"LLM 推理": "inference.md"}, {"我的智能体": "agent.md"}]}


def test_a_nav_without_living_documents_or_without_a_nav_is_left_alone():
    bare = [{"首页": "index.md"}, "guide.md"]
    add_living_documents(bare, PAGES)
    assert bare == [{"首页": "index.md"}, "guide.md"]  # where to put them is the project's choice
    add_living_documents(None, PAGES)  # no nav: MkDocs lists every page itself
    top = ["index.md", "inference.md"]
    add_living_documents(top, PAGES)
    assert top == ["index.md", "inference.md", {"智能体": "agent.md"}]
