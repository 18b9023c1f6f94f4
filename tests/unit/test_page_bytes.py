"""What keeps every page small at a team's size: the theme's templates lose their indentation
(kb.site.theme.LeanLoader), a brief page's head links its own topic's feeds and a paper page's
its topics' (kb.site.pages.files.page_feeds)."""

from __future__ import annotations

from jinja2 import DictLoader, Environment

from kb.site.pages.files import page_feeds
from kb.site.theme import LeanLoader

TEMPLATE = """<nav>
    <ul>
      {% for item in items %}
        <li>{{ item }}</li>
      {% endfor %}
    </ul>
    {#- a comment -#}
    <script>var a = 1
      {% if items %}
      a += 1
      {% endif %}
    </script>
</nav>
"""


def render(source: str, **values: object) -> str:
    return Environment(loader=LeanLoader(DictLoader({"t.html": source}))).get_template("t.html").render(**values)


def test_templates_lose_their_indentation_and_statement_lines():
    out = render(TEMPLATE, items=["a", "b"])
    assert out == "<nav>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul><script>var a = 1\na += 1\n</script>\n</nav>"
    assert "  " not in out


def test_words_on_two_lines_stay_apart():
    assert render("<p>one\n    two {{ x }}\n    three</p>", x="2") == "<p>one\ntwo 2\nthree</p>"


def test_a_template_with_pre_or_textarea_keeps_its_blanks():
    for tag in ("pre", "TEXTAREA"):
        source = f"<{tag}>\n    a\n      b\n</{tag}>"
        assert render(source) == source


FEEDS = [
    {"title": f"{topic} {kind}", "atom": f"{topic}.{kind}.atom.xml", "rss": f"{topic}.{kind}.rss.xml", "topic": topic}
    for topic in ("inference", "rag")
    for kind in ("briefs", "papers")
]


def test_a_brief_page_links_its_topics_feeds_any_other_page_every_topics():
    assert [f["topic"] for f in page_feeds(FEEDS, "briefs/rag/2026-09-03-e1.md")] == ["rag", "rag"]
    for page in ("papers/retroinfer.md", "index.md", "briefs/index.md", "timeline/rag.md", "inference.md"):
        assert page_feeds(FEEDS, page) == FEEDS
    assert page_feeds(FEEDS, "briefs/agent/2026-09-03-e1.md") == FEEDS  # a topic without feeds: all of them


def test_a_page_given_its_topics_links_theirs_and_no_topic_every_feed():
    weeks = {"title": "weeks", "atom": "all.weeks.atom.xml", "rss": "all.weeks.rss.xml", "topic": "all"}
    links = [*FEEDS, weeks]
    assert [f["topic"] for f in page_feeds(links, "papers/retroinfer.md", {"rag"})] == ["rag", "rag", "all"]
    assert page_feeds(links, "papers/retroinfer.md", {"rag", "inference"}) == links
    assert page_feeds(links, "papers/retroinfer.md", set()) == links  # a paper in no topic: every feed
