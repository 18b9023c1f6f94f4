"""The page-type registry (kb.site.pages): every page type declares what the site needs of it, no two
claim a page, and a new page type is one module plus one registry line, shown by a small example
type added in a test: the built site then has its page with its description, edition policy,
search facts, place under its parent and entry in llms.txt, and loses them when it is removed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup

from kb import messages
from kb.knowledge.index import KnowledgeBase
from kb.knowledge.load import load_kb
from kb.site import pages, search
from kb.site.pages import REGISTRY, Edition, Llms, PageType, Site, Stage
from sitebuild import FIXTURE_DATA, ROOT, copy_project


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return load_kb(FIXTURE_DATA)


def test_names_are_unique_and_no_two_types_claim_a_page(kb):
    assert len({t.name for t in REGISTRY}) == len(REGISTRY)
    seen: dict[str, str] = {}
    for page_type in REGISTRY:
        for page in page_type.paths(kb):
            assert page not in seen, (page, seen.get(page), page_type.name)
            seen[page] = page_type.name
    assert {"briefs/index.md", "papers/index.md", "backlog.md", "stats.md", "llms.txt"} <= set(seen)


def _nav(config: str) -> dict[str, str]:
    """The top-level entries of a mkdocs.yml's nav: page -> title."""
    nav = yaml.safe_load("nav:" + config.split("\nnav:", 1)[1])["nav"]
    return {page: title for item in nav for title, page in item.items() if isinstance(page, str)}


def test_every_generated_page_declares_how_readers_reach_it_and_what_it_is(kb):
    entries = _nav((ROOT / "mkdocs.yml").read_text("utf-8"))
    for page_type in REGISTRY:
        pages_of = list(page_type.paths(kb))
        if not page_type.generated or not all(p.endswith(".md") for p in pages_of):
            continue
        assert page_type.facts is not None and page_type.describe is not None, page_type.name
        assert (page_type.nav is None) != (page_type.parent is None), page_type.name  # in the nav or under a page
        for page in pages_of:
            assert page_type.describe(kb, page), (page_type.name, page)
            assert page_type.facts(kb, page).type in search.TYPES, (page_type.name, page)
            if page_type.nav:  # listed in the project's nav under the catalogue's title
                assert entries.get(page) == messages.UI[page_type.nav], (page, entries.get(page))
        if page_type.inputs is not None:  # inputs for exactly its own pages
            assert set(page_type.inputs(kb)) == set(pages_of), page_type.name
        assert page_type.edition is not Edition.FROZEN, page_type.name  # computed from every record


def test_a_new_teams_site_lists_the_generated_pages_as_the_registry_names_them(kb):
    from kb.cli.init import project_files

    entries = _nav(project_files("serving", "LLM 服务")["mkdocs.yml"])
    for page_type in REGISTRY:
        if page_type.nav:
            for page in page_type.paths(kb):
                assert entries.get(page) == messages.UI[page_type.nav], (page, entries.get(page))


def test_a_page_type_without_a_field_cannot_be_registered():
    with pytest.raises(TypeError):
        PageType(name="x", paths=lambda kb: [])  # type: ignore[call-arg]  # no facts, no edition policy


# --------------------------------------------------------------------------- an example type, added and removed

EXAMPLE = "example/index.md"


def _make(site: Site, page: str) -> str:
    newest = max(site.kb.briefs.values(), key=lambda b: b.date)
    return f'<h1 id="example">示例页</h1>\n<p>最新一期：{newest.date.isoformat()}，共 {len(site.kb.briefs)} 期。</p>\n'


EXAMPLE_TYPE = PageType(
    name="example",
    paths=lambda kb: [EXAMPLE],
    make=_make,
    stage=Stage.PAGES,
    facts=lambda kb, page: search.Facts(search.INDEX, weight=0.5),
    edition=Edition.CURRENT,
    describe=lambda kb, page: f"示例页：{len(kb.briefs)} 期简报。",
    parent="briefs/index.md",
    llms=lambda kb: [Llms("Example", [("示例页", EXAMPLE, "an example page type")])],
)


def _build(tmp: Path, monkeypatch: pytest.MonkeyPatch, registry: tuple[PageType, ...]) -> Path:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    project = copy_project(tmp / "project")
    monkeypatch.setattr(pages, "REGISTRY", registry)
    monkeypatch.setenv("KB_CACHE", "off")
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    monkeypatch.chdir(project)
    site = tmp / "site"
    build(load_config(str(project / "mkdocs.yml"), site_dir=str(site), strict=True))
    return site


@pytest.mark.slow
def test_a_new_page_type_is_one_registry_line(tmp_path, monkeypatch):
    site = _build(tmp_path / "with", monkeypatch, (*REGISTRY, EXAMPLE_TYPE))
    html = (site / "example" / "index.html").read_text("utf-8")
    soup = BeautifulSoup(html, "lxml")
    assert soup.select_one("article h1").get_text().startswith("示例页")
    assert soup.select_one('meta[name="description"]')["content"].startswith("示例页：")
    assert soup.select_one('meta[name="kb-edition"]')["content"] == "current"
    assert soup.select_one("[data-pagefind-body]")["data-pagefind-weight"] == "0.5"
    assert soup.select_one(f'[data-pagefind-filter="{search.TYPE_FILTER}:{search.INDEX}"]') is not None
    crumbs = [a.get_text(strip=True) for a in soup.select(".md-path a, nav.md-path a")]
    assert messages.UI["nav.page.briefs"] in " ".join(crumbs) or soup.select_one(".md-tabs__item--active")
    assert re.search(r"^- \[示例页\]\(example/\): an example page type$", (site / "llms.txt").read_text("utf-8"), re.M)
    monkeypatch.undo()
    site = _build(tmp_path / "without", monkeypatch, REGISTRY)
    assert not (site / "example").exists() and "示例页" not in (site / "llms.txt").read_text("utf-8")
