"""A site of three topics (``tests/fixtures/team``: inference, llm-infra, agent) builds strictly,
with mkdocs.yml naming only the first topic's living document, and shows its cross-topic papers
on every topic's pages: CRISP (primary llm-infra, adjacent inference; inference's briefs saw it,
llm-infra's anchored it), Meta's production data (anchored in both topics' living documents),
TokenWeave (pending in both).  The home page lists each topic with its newest brief; the backlog,
the feeds and the search marks each topic's own."""

from __future__ import annotations

import posixpath
import re

import pytest

from sitebuild import TEAM

TOPICS = {"agent": "智能体", "inference": "LLM 推理", "llm-infra": "LLM 基础设施"}


def _text(node) -> str:
    return " ".join(node.get_text().split())


def _section(team_pages, page: str, section_id: str) -> str:
    """The text of a living document's section: its heading to the next section's."""
    head = team_pages.article(page).select_one(f"[id='sec-{section_id}']")
    assert head is not None, section_id
    out = []
    for node in head.find_all_next():
        if node.name in ("h2", "h3", "h4") and (node.get("id") or "").startswith("sec-"):
            break
        if node.name == "p" or node.name == "li":
            out.append(_text(node))
    return " ".join(out)


def test_the_fixture_has_three_topics_and_mkdocs_yml_names_one(team_kb, root):
    assert {tid: t.title for tid, t in team_kb.topics.items()} == TOPICS
    nav = (root / "mkdocs.yml").read_text("utf-8")
    assert "inference.md" in nav and "llm-infra.md" not in nav and "agent.md" not in nav
    assert (TEAM / "docs" / "llm-infra.md").is_file() and (TEAM / "docs" / "agent.md").is_file()


def test_kb_validate_accepts_the_fixture_and_its_pages():
    """Its living documents call section("i1-serving-platform") without naming their topic: each
    call is checked against its page's topic (llm-infra), not the first topic."""
    from kb.cli.validate import collect

    diags, kb = collect(TEAM / "data", TEAM / "docs")
    assert not kb.errors and [d.text() for d in diags if d.severity.value != "note"] == []  # strict: no warning


def test_every_living_document_is_in_the_nav_beside_the_first(team_pages):
    nav = team_pages.soup("index.html").select_one(".md-nav--primary")
    section = next(li for li in nav.select("li.md-nav__item--nested") if "活文档" in _text(li.select_one("label")))
    titles = [_text(a) for a in section.select("nav a.md-nav__link")]
    assert titles == ["LLM 推理", "智能体", "LLM 基础设施"]  # the listed one, then the others by id


def test_macros_on_a_topics_page_use_that_topic(team_pages):
    """docs/llm-infra.md calls section("i1-serving-platform") without naming its topic."""
    article = team_pages.article("llm-infra/index.html")
    assert article.select_one("[id='sec-i1-serving-platform']") is not None
    assert "约 120 条" in _text(article)  # citation_count(): llm-infra's log, not inference's (约 432)


def test_home_page_lists_each_topic_with_its_newest_brief(team_pages, team_kb):
    cards = team_pages.article("index.html").select("ul.kb-topics > li")
    assert len(cards) == 3
    for card, (tid, topic) in zip(cards, team_kb.topics.items(), strict=True):
        title = card.select_one(".kb-topic-title a")
        assert _text(title) == topic.title and title["href"] == f"{tid}/"
        newest = team_kb.by_topic[tid][-1]
        brief = team_kb.briefs[newest]
        line = card.select("p")[1]
        assert brief.date.isoformat() in _text(line)
        assert line.select_one("a")["href"] == f"briefs/{newest}/"
        # its headline, else (inference's of 09-05 states none) its round and author as the index names it
        named = brief.character.title if brief.character else f"{brief.round} · {brief.instance}"
        assert _text(line) == f"最新简报 {brief.date.isoformat()}：{named}"
        links = {a["href"]: _text(a) for a in card.select(".kb-topic-links a")}
        assert links[f"briefs/#topic-{tid}"] == "全部简报"
        assert re.fullmatch(r"待锚入 \d+ 条", links[f"backlog/#pending-{tid}"])
        assert f"timeline/{tid}/" in links and f"{tid}.atom.xml" in links


def test_crisp_is_on_both_topics_pages(team_pages):
    """Anchored in llm-infra's §2.(1) by llm-infra's brief; still waiting in inference's §1.(1)."""
    infra = _section(team_pages, "llm-infra/index.html", "i2-1-sparse-attention")
    assert "已锚入本节： CRISP" in infra and "2026-09-04" in infra
    inference = _section(team_pages, "inference/index.html", "s1-1-engines")
    assert "待锚入本节：" in inference and "CRISP" in inference


def test_a_paper_anchored_in_two_topics_is_listed_in_both_documents(team_pages):
    inference = _section(team_pages, "inference/index.html", "s1-1-engines")
    infra = _section(team_pages, "llm-infra/index.html", "i1-serving-platform")
    for text, date in ((inference, "2026-09-04"), (infra, "2026-09-05")):
        assert "已锚入本节： Meta Llama Inference" in text and f"锚入于 {date}" in text


def test_the_paper_page_shows_every_topic_it_is_in(team_pages):
    article = team_pages.article("papers/crisp/index.html")
    identity = _text(article.select_one("ul.kb-identity"))
    assert "主分类：LLM 基础设施；邻接 LLM 推理" in identity
    anchored = article.select_one("h2#anchored").find_next_sibling("ul")
    rows = [_text(li) for li in anchored.select("li")]
    assert rows[0].startswith("LLM 基础设施 · §2.(1) 稀疏注意力：锚入于 2026-09-04")
    assert rows[1].startswith("尚未锚入「LLM 推理」活文档，现为待锚入")  # its status in the other topic
    links = [a["href"] for a in anchored.select("a")]
    assert "../../llm-infra/#sec-i2-1-sparse-attention" in links
    assert "../../briefs/inference/2026-09-03-e1/" in links
    # each backlink says which topic's brief it is
    places = [_text(tr.select("td")[1]) for tr in article.select(".kb-backlinks tbody tr")]
    assert any(p.startswith("LLM 推理 2026-09-03 E1") for p in places), places
    assert any(p.startswith("LLM 基础设施 2026-09-04 E1") for p in places), places


def test_the_paper_page_of_a_paper_anchored_in_two_topics(team_pages):
    anchored = team_pages.article("papers/meta-llama-inference/index.html").select_one("h2#anchored")
    rows = [_text(li) for li in anchored.find_next_sibling("ul").select("li")]
    assert [r.split("：")[0] for r in rows] == ["LLM 推理 · §1.(1) 推理引擎", "LLM 基础设施 · §1 服务平台"]


def test_the_backlog_jumps_to_each_topic_and_names_each_claims_topic(team_pages, team_kb):
    article = team_pages.article("backlog/index.html")
    jumps = {a["href"]: _text(a) for a in article.select("p.kb-topic-jump a")}
    assert list(jumps) == [f"#pending-{tid}" for tid in team_kb.topics]
    assert jumps["#pending-agent"] == "智能体（1 条待锚入）"
    for tid in team_kb.topics:
        assert article.select_one(f"h2#pending-{tid}") is not None
    heads = [_text(th) for th in article.select("[data-kb-table='claims'] thead th")]
    assert heads[-1] == "主题"
    claims = {
        _text(tr.select("td")[0]): _text(tr.select("td")[-1])
        for tr in article.select("[data-kb-table='claims'] tbody tr")
    }
    assert claims["ToolCache 的收益是否适用于其他智能体框架"] == "智能体"
    assert set(claims.values()) == {"智能体", "LLM 推理"}


def test_each_topic_with_briefs_has_its_feeds_listed_on_the_home_page(team_site, team_pages):
    listed = [posixpath.normpath(a["href"]) for a in team_pages.soup("index.html").select("section.kb-subscribe a")]
    for tid in TOPICS:
        for suffix in (".atom.xml", ".rss.xml", ".papers.atom.xml"):
            assert (team_site / f"{tid}{suffix}").is_file()
        assert f"{tid}.atom.xml" in listed and f"{tid}.papers.rss.xml" in listed
    atom = (team_site / "llm-infra.atom.xml").read_text("utf-8")
    assert "CRISP" in atom and "ToolCache" not in atom  # a topic's feed holds its own briefs


@pytest.mark.parametrize(
    "page,topics",
    [
        ("papers/crisp/index.html", {"LLM 推理", "LLM 基础设施"}),  # seen by both topics' briefs
        ("papers/toolcache/index.html", {"智能体", "LLM 推理"}),  # agent's brief; adjacent to inference
        ("briefs/agent/2026-09-05-e1/index.html", {"智能体"}),
        ("llm-infra/index.html", {"LLM 基础设施"}),
    ],
)
def test_search_filters_each_page_by_its_topics(team_site, page, topics):
    from bs4 import BeautifulSoup

    from kb.site.search import TOPIC_FILTER

    soup = BeautifulSoup((team_site / page).read_text("utf-8"), "lxml")
    found = (m["data-pagefind-filter"].split(":", 1) for m in soup.select("[data-pagefind-filter]"))
    marks = {value for name, value in found if name == TOPIC_FILTER}
    assert marks == topics


@pytest.mark.parametrize(
    "page,topics",
    [
        ("papers/crisp/index.html", {"inference", "llm-infra"}),  # the topics search filters it by
        ("papers/toolcache/index.html", {"agent", "inference"}),
        ("briefs/agent/2026-09-05-e1/index.html", {"agent"}),
        ("index.html", set(TOPICS)),  # any other page: every topic's
    ],
)
def test_a_pages_head_links_the_feeds_of_its_topics_and_the_weeks(team_site, page, topics):
    from bs4 import BeautifulSoup

    soup = BeautifulSoup((team_site / page).read_text("utf-8"), "lxml")
    linked = [posixpath.basename(a["href"]) for a in soup.select("head link[rel=alternate]")]
    assert {name.split(".")[0] for name in linked} == topics | {"all"}  # all.weeks.*: the weeks'
    for name in linked:
        assert (team_site / name).is_file()


def test_a_topic_title_in_the_nav_is_text(tmp_path):
    """The nav entry the plugin adds carries the topic's title from data: shown as written, never markup."""
    from bs4 import BeautifulSoup

    from sitebuild import build, copy_project

    project = copy_project(tmp_path / "project", fixture=TEAM)
    topic = project / "data" / "topics" / "agent.yaml"
    hostile = "智能体 <img src=x onerror=alert(1)> & co"
    topic.write_text(topic.read_text("utf-8").replace("title: 智能体\n", f'title: "{hostile}"\n'), "utf-8")
    run = build(tmp_path / "site", project=project)
    assert run.returncode == 0, run.stdout + run.stderr
    soup = BeautifulSoup((tmp_path / "site" / "index.html").read_text("utf-8"), "lxml")
    nav = [" ".join(a.get_text().split()) for a in soup.select(".md-nav--primary a.md-nav__link")]
    assert hostile in nav and soup.select("img[onerror]") == []
