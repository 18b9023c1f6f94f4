"""Editions for real: sites built from three states of the sources are published
with ``scripts/publish_edition.py`` into a throw-away git repository (its
gh-pages branch; nothing is pushed):

1. September's sources as edition 2026-09;
2. October's (a new paper, a new paragraph in the living document) as 2026-10;
3. September's with an erratum as 2026-09 again: the fix of an older edition.

Then the tree is read back with git: the current site whole at latest/, editions
holding only their frozen pages, every link of every page resolving inside the
tree, the version selector's versions.json where Material looks for it, and the
changes pages."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from editions_repo import ERRATUM, OCTOBER, Tree, build_site, deploy, git, new_repo, sources, tool, version_config

from sitebuild import ROOT

pytestmark = pytest.mark.slow
SELECTOR = {"provider": "mike", "default": "latest", "alias": True}
INDEXES = ("briefs/", "papers/", "backlog/", "stats/")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("editions")
    return {
        "sep": build_site(sources(tmp / "src-sep"), tmp / "site-sep"),
        "oct": build_site(sources(tmp / "src-oct", october=True), tmp / "site-oct"),
        "fix": build_site(sources(tmp / "src-fix", erratum=True), tmp / "site-fix"),
    }


@pytest.fixture(scope="module")
def repo(built, tmp_path_factory) -> Path:
    r = new_repo(tmp_path_factory.mktemp("pages") / "kb")
    deploy(r, built["sep"], "2026-09")
    git(r, "tag", "after-september", "gh-pages")
    deploy(r, built["oct"], "2026-10")
    git(r, "tag", "after-october", "gh-pages")
    out = deploy(r, built["fix"], "2026-09")
    assert "latest left as it was" in out
    return r


@pytest.fixture(scope="module")
def tree(repo) -> Tree:
    return Tree(repo)


def site_files(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())


def test_the_branch_holds_latest_the_editions_and_the_root_files(tree):
    assert tree.top() == {".nojekyll", "404.html", "index.html", "versions.json", "latest", "2026-09", "2026-10"}
    index = tree.text("index.html")
    assert "url=latest/" in index and 'window.location.replace("latest/"' in index


def test_versions_json_lists_latest_then_the_editions_newest_first(tree):
    assert tree.json("versions.json") == [
        {"version": "latest", "title": "最新", "aliases": []},
        {"version": "2026-10", "title": "2026-10", "aliases": []},
        {"version": "2026-09", "title": "2026-09", "aliases": []},
    ]


def test_latest_is_the_newest_build_whole_and_the_fix_left_it_alone(tree, built):
    assert tree.files("latest/") == ["latest/" + f for f in site_files(built["oct"])]
    assert tree.text("latest/papers/editions-demo/index.html")  # the October paper at its permanent URL
    assert OCTOBER in tree.text("latest/inference/index.html")
    assert ERRATUM not in tree.text("latest/inference/index.html")


def _page_url(md: Path) -> str:
    stem = md.relative_to(DOCS).with_suffix("").as_posix()
    return "index.html" if stem == "index" else f"{stem.removesuffix('/index')}/index.html"


DOCS = ROOT / "docs"
# the pages people write (home page, living documents, guide, glossary, ...): what an edition freezes
HAND_WRITTEN = [_page_url(md) for md in DOCS.rglob("*.md")]


def test_editions_hold_only_their_frozen_pages(tree):
    for edition in ("2026-09", "2026-10"):
        files = [f[len(edition) + 1 :] for f in tree.files(edition + "/")]
        pages = sorted(f for f in files if f.endswith(".html") and not f.startswith("assets/"))
        assert pages == sorted(["changes/index.html", *HAND_WRITTEN]), edition
        assert not [f for f in files if f.startswith(INDEXES) or f.startswith("feeds/")], edition
        assert "edition.json" in files
        assert not [f for f in files if f.startswith(("search/", "pagefind/"))], edition  # latest/'s index serves
        assert any(f.startswith("assets/stylesheets/main.") for f in files)
        assert not [f for f in files if f.endswith(".map")]
        manifest = tree.json(f"{edition}/edition.json")
        assert manifest["edition"] == edition and manifest["current"] == "latest"
        assert "papers/ssr/" in manifest["records"] and "briefs/inference/2026-09-03-e1/" in manifest["records"]
    assert "papers/editions-demo/" in tree.json("2026-10/edition.json")["records"]
    assert "papers/editions-demo/" not in tree.json("2026-09/edition.json")["records"]


def test_every_link_of_every_page_resolves_in_the_tree(tree):
    pages = [
        p
        for p in tree.files()
        if p.endswith(".html") and p != "index.html" and not p.endswith("404.html") and "/assets/" not in p
    ]
    assert len(pages) > 40
    for page in pages:
        assert tree.broken_links(page) == [], page


def test_frozen_pages_link_records_and_indexes_at_their_permanent_urls(tree):
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(tree.text("2026-09/inference/index.html"), "lxml")
    targets = {
        tree.resolve("2026-09/inference/index.html", a["href"])
        for a in soup.select("article a[href]")
        if not a["href"].startswith(("#", "http"))
    }
    assert "latest/papers/ssr/index.html" in targets
    assert "latest/briefs/inference/2026-09-03-e1/index.html" in targets
    assert not any(t and t.startswith("2026-09/") and t.split("/")[1] in ("papers", "briefs") for t in targets)
    nav = {tree.resolve("2026-09/inference/index.html", a["href"]) for a in soup.select("nav a[href]")}
    assert {
        "latest/backlog/index.html",
        "latest/stats/index.html",
        "latest/papers/index.html",
        "2026-09/guide/index.html",
        "2026-09/index.html",
    } <= nav
    banner = soup.select_one("article .kb-edition")
    assert banner and "2026-09 版" in banner.get_text()
    assert tree.resolve("2026-09/inference/index.html", banner.select("a")[1]["href"]) == "2026-09/changes/index.html"


def test_version_selector_finds_versions_json_and_every_version(tree):
    """What Material's bundle does: base = new URL(config.base, page URL); versions.json at
    new URL("../versions.json", base); the current version is the last segment of base; each
    entry links to new URL("../<version>/", base)."""
    site = "https://pages.example/site/"
    versions = tree.json("versions.json")
    for page in (
        "latest/index.html",
        "latest/papers/ssr/index.html",
        "2026-09/inference/index.html",
        "2026-10/index.html",
        "2026-10/guide/index.html",
    ):
        config = version_config(tree.text(page))
        assert config["version"] == SELECTOR, page
        base = urljoin(site + page, config["base"]).rstrip("/") + "/"
        assert urljoin(base, "../versions.json") == site + "versions.json", page
        current = urlsplit(base).path.rstrip("/").rsplit("/", 1)[-1]
        assert current == page.split("/", 1)[0] and current in [v["version"] for v in versions], page
        for v in versions:
            target = urlsplit(urljoin(base, f"../{v['version']}/")).path[len("/site/") :]
            assert target + "index.html" in tree.modes, (page, v)


def test_each_edition_searches_the_current_sites_index(tree):
    """Pagefind's index stays in latest/: an edition's search form names it there."""
    from bs4 import BeautifulSoup

    assert "latest/pagefind/pagefind.js" in tree.modes
    for page in ("2026-10/index.html", "2026-10/inference/index.html"):
        form = BeautifulSoup(tree.text(page), "lxml").select_one("form[name='kb-search']")
        target = urljoin("/site/" + page, form["action"])[len("/site/") :]
        assert target == "latest/pagefind/pagefind.js", (page, form["action"])
        script = BeautifulSoup(tree.text(page), "lxml").select_one("script[src$='kb-search.js']")
        assert urljoin("/site/" + page, script["src"])[len("/site/") :] == "2026-10/assets/kb-search.js"
    assert "2026-10/assets/kb-search.js" in tree.modes
    assert not [f for f in tree.modes if f.startswith("2026-10/") and "/lunr/" in f]


def test_changes_page_lists_new_records_and_the_living_document_diff(tree):
    changes = tree.text("2026-10/changes/index.html")
    assert "新增论文（1）" in changes and "新增简报（0）" in changes
    assert 'href="../../latest/papers/editions-demo/"' in changes and "EditionsDemo" in changes
    assert f"<ins>{OCTOBER}</ins>" in changes
    # the fix of 2026-09 added the erratum there, so October's page now shows it as removed
    assert f"<del>{ERRATUM}</del>" in changes
    first = tree.text("2026-09/changes/index.html")
    assert "这是第一个版本" in first


def test_the_fix_replaced_only_the_older_edition(repo, tree):
    before = Tree(repo, "after-october")
    assert ERRATUM in tree.text("2026-09/inference/index.html")
    assert ERRATUM not in before.text("2026-09/inference/index.html")
    for path in tree.files("latest/") + [f for f in tree.files("2026-10/") if f != "2026-10/changes/index.html"]:
        assert tree.modes[path] == before.modes[path]
        assert git(repo, "rev-parse", f"gh-pages:{path}") == git(repo, "rev-parse", f"after-october:{path}"), path
    assert tree.json("versions.json") == before.json("versions.json")


def test_history_is_one_commit_per_deployment_and_main_is_untouched(repo):
    log = git(repo, "log", "--format=%s", "gh-pages").splitlines()
    assert log == [
        "Publish the fix of edition 2026-09 from test",
        "Publish latest and edition 2026-10 from test",
        "Publish latest and edition 2026-09 from test",
    ]
    assert git(repo, "log", "--format=%s", "main").splitlines() == ["sources"]
    assert git(repo, "status", "--porcelain") == ""


def test_deploying_the_same_site_again_changes_nothing(repo, built, tmp_path):
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--no-local", str(repo), str(clone))
    run = tool(clone, "deploy", "--site", str(built["oct"]), "--edition", "2026-10", "--from", "origin/gh-pages")
    assert run.returncode == 0, run.stderr
    assert "gh-pages: nothing changed" in run.stdout
    assert git(clone, "rev-parse", "gh-pages") == git(repo, "rev-parse", "gh-pages")


def test_a_new_month_moves_latest_and_compares_with_the_month_before(repo, built, tmp_path):
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--no-local", str(repo), str(clone))
    run = tool(clone, "deploy", "--site", str(built["sep"]), "--edition", "2026-11", "--from", "origin/gh-pages")
    assert run.returncode == 0, run.stderr
    t = Tree(clone)
    assert [v["version"] for v in t.json("versions.json")] == ["latest", "2026-11", "2026-10", "2026-09"]
    assert "papers/editions-demo/index.html" not in [f[len("latest/") :] for f in t.files("latest/")]
    changes = t.text("2026-11/changes/index.html")
    assert "不再存在的论文（1）" in changes and f"<del>{OCTOBER}</del>" in changes


def test_deleting_an_edition(repo, tmp_path):
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--no-local", str(repo), str(clone))
    run = tool(clone, "delete", "--edition", "2026-09", "--from", "origin/gh-pages")
    assert run.returncode == 0, run.stderr
    t = Tree(clone)
    assert [v["version"] for v in t.json("versions.json")] == ["latest", "2026-10"]
    assert "2026-09" not in t.top()
    assert "这是第一个版本" in t.text("2026-10/changes/index.html")
    assert tool(clone, "delete", "--edition", "2026-08").returncode == 2


def test_editions_mike_published_whole_are_frozen_in_place(built, tmp_path):
    """The first deployment onto a branch that mike filled: whole-site editions, latest a symlink."""
    r = new_repo(tmp_path / "kb")
    git(r, "checkout", "-q", "--orphan", "gh-pages")
    git(r, "rm", "-q", "-rf", ".")
    import shutil

    shutil.copytree(built["sep"], r / "2026-08")
    (r / "latest").symlink_to("2026-08")
    (r / "versions.json").write_text(json.dumps([{"version": "2026-08", "title": "2026-08", "aliases": ["latest"]}]))
    git(r, "add", "-A")
    git(r, "commit", "-q", "-m", "mike")
    git(r, "checkout", "-q", "main")
    deploy(r, built["oct"], "2026-10")
    t = Tree(r)
    assert t.modes["latest/index.html"] == "100644"  # a directory now, not mike's symlink
    assert [v["version"] for v in t.json("versions.json")] == ["latest", "2026-10", "2026-08"]
    assert not [f for f in t.files("2026-08/") if f.startswith(tuple("2026-08/" + i for i in INDEXES))]
    assert "2026-08/inference/index.html" in t.modes and "2026-08/changes/index.html" in t.modes
    assert t.broken_links("2026-08/inference/index.html") == []
    assert "新增论文（1）" in t.text("2026-10/changes/index.html")


def test_refusals(built, tmp_path):
    r = new_repo(tmp_path / "kb")
    for bad in ("2026-13", "latest", "2026-9", "../x"):
        run = tool(r, "deploy", "--site", str(built["sep"]), "--edition", bad)
        assert run.returncode == 2 and "YYYY-MM" in run.stderr, bad
    linked = tmp_path / "site-with-link"
    import shutil

    shutil.copytree(built["sep"], linked)
    (linked / "leak").symlink_to("/etc/hostname")
    run = tool(r, "deploy", "--site", str(linked), "--edition", "2026-09")
    assert run.returncode == 2 and "only regular files and directories" in run.stderr
    assert tool(r, "deploy", "--site", str(tmp_path), "--edition", "2026-09").returncode == 2
    assert git(r, "branch", "--list", "gh-pages") == ""
