"""``kb preview``'s builds (kb.site.preview.serve.Builder, in this process, no server): after each change
every page of the preview directory is the page ``mkdocs build --strict`` makes, though only
the affected ones were built again; a broken file leaves its located errors and the last good
build."""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import threading
import time
from pathlib import Path

import pytest
from mkdocs.commands import build as mkdocs_build

from kb.site.preview import serve
from kb.site.search import index as search_index
from sitebuild import build, copy_project

pytestmark = pytest.mark.slow
BRIEF = "data/briefs/inference/2026-09-03-e1.yaml"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = copy_project(tmp_path / "project")
    monkeypatch.chdir(root)
    monkeypatch.delenv("KB_DATA", raising=False)
    return root


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), "utf-8")


SELECTOR = re.compile(r"\n  version:\n(?:    .*\n)+")  # extra.version of mkdocs.yml: the edition selector


def differing(project: Path, site: Path, tmp: Path) -> list[str]:
    """The HTML pages of a fresh strict build that the preview directory has otherwise (or not): of
    the project as it is, without the edition selector, which a served build leaves out
    (kb.site.plugin.config.address)."""
    full, same = tmp / "full", tmp / "full-project"
    shutil.rmtree(same, ignore_errors=True)
    shutil.copytree(project, same, ignore=shutil.ignore_patterns(".cache"))
    config = same / "mkdocs.yml"
    text, found = SELECTOR.subn("\n", config.read_text("utf-8"))
    assert found == 1
    config.write_text(text, "utf-8")
    run = build(full, project=same)
    assert run.returncode == 0, run.stdout + run.stderr
    return sorted(
        str(f.relative_to(full))
        for f in full.rglob("*.html")
        if not (site / f.relative_to(full)).is_file() or (site / f.relative_to(full)).read_bytes() != f.read_bytes()
    )


def test_each_rebuild_makes_the_pages_mkdocs_build_makes(project, tmp_path):
    said: list[str] = []
    builder = serve.Builder(serve.project(project / "mkdocs.yml"), said.append, said.append)
    assert builder.first()
    site = builder.project.site_dir
    assert (site / "pagefind").is_dir() and (site / "api" / "papers.json").is_file()
    assert said[-1].startswith("kb preview: built 38 pages in ") and said[-1].endswith("with the search index")

    edit(project / BRIEF, "\ncharacter:\n  title: ", "\ncharacter:\n  title: 预览新词 ")
    builder()
    # the brief's page, the next one's, the index of briefs and the home page (its latest briefs)
    assert f"kb preview: {BRIEF} changed: rebuilt 4 of 38 pages in " in said[-1]
    assert "the search index follows after 1.5 s without changes" in said[-1]
    assert "预览新词" in (site / "briefs/inference/2026-09-03-e1/index.html").read_text("utf-8")
    assert "预览新词" not in indexed(site)  # not yet: the contributor may save again at once
    edit(project / "data/papers/albireo.yaml", "short: Albireo", "short: Albireo 2")
    edit(project / "docs/guide.md", "\n", "\n预览改动的一行。\n")
    builder()
    assert "data/papers/albireo.yaml, docs/guide.md changed" in said[-1]
    assert not builder.errors
    assert differing(project, site, tmp_path) == []
    builder.settle_search()  # as after 1.5 s without a change (the first build's update was dropped)
    assert said[-1].startswith("kb preview: search index brought up to date in ")
    assert "pages read)" in said[-1]  # Pagefind over the whole preview directory
    words = indexed(site)
    assert "预览新词" in words and "预览改动的一行" in words  # both builds' changes


def test_a_week_page_whose_inputs_stayed_is_not_built_again(project):
    """Week pages are made as the knowledge base loads; a brief's headline is not on its week's
    page: the rebuild leaves that page as the first build wrote it, and rewrites the brief's."""
    said: list[str] = []
    builder = serve.Builder(serve.project(project / "mkdocs.yml"), said.append, said.append)
    assert builder.first()
    site = builder.project.site_dir
    week, brief = (site / "weeks/2026-W36/index.html", site / "briefs/inference/2026-09-03-e1/index.html")
    before = (week.stat().st_mtime_ns, brief.stat().st_mtime_ns)
    time.sleep(0.05)
    edit(project / BRIEF, "\ncharacter:\n  title: ", "\ncharacter:\n  title: 周页不变 ")
    builder()
    assert not builder.errors
    assert week.stat().st_mtime_ns == before[0] and brief.stat().st_mtime_ns != before[1]


def test_hand_written_pages_are_built_again_when_what_they_show_changed(project):
    """The home page lists the latest briefs' headlines; the living document, the guide and the
    glossary show none: a headline's edit rewrites the first only.  An edited page is rewritten."""
    said: list[str] = []
    builder = serve.Builder(serve.project(project / "mkdocs.yml"), said.append, said.append)
    assert builder.first()
    site = builder.project.site_dir
    pages = {name: site / name / "index.html" for name in ("guide", "glossary", "inference")}
    pages["home"] = site / "index.html"

    def written() -> dict[str, int]:
        return {name: path.stat().st_mtime_ns for name, path in pages.items()}

    before = written()
    time.sleep(0.05)
    edit(project / BRIEF, "\ncharacter:\n  title: ", "\ncharacter:\n  title: 首页新词 ")
    builder()
    assert not builder.errors and "首页新词" in pages["home"].read_text("utf-8")
    after = written()
    assert [name for name in pages if after[name] != before[name]] == ["home"]
    assert f"kb preview: {BRIEF} changed: rebuilt 4 of 38 pages in " in said[-1]  # the home page among them
    edit(project / "docs/guide.md", "\n", "\n指南改动的一行。\n")
    builder()
    assert [name for name, when in written().items() if when != after[name]] == ["guide"]
    assert "kb preview: docs/guide.md changed: rebuilt 1 of 38 pages in " in said[-1]  # it said 0


def test_template_syntax_saved_in_a_plain_page_is_said_as_kb_validate_says_it(project):
    """The page shows it as text (no template engine runs), so the build goes on; the preview says
    what the pull request's `kb validate` will refuse, where, on the build after the edit only."""
    said: list[str] = []
    builder = serve.Builder(serve.project(project / "mkdocs.yml"), said.append, said.append)
    assert builder.first()
    edit(project / "docs/guide.md", "\n", "\n看 {{ config.site_name }} 的值。\n")
    builder()
    assert not builder.errors
    shown = (builder.project.site_dir / "guide/index.html").read_text("utf-8")
    assert "{{ config.site_name }}" in shown
    warned = [line for line in said if "template syntax" in line]
    # each mark where it stands, as kb validate says them (line 2: after the title)
    assert [w.split(": template syntax ")[0] for w in warned] == [
        "kb preview: docs/guide.md:2:3",
        "kb preview: docs/guide.md:2:23",
    ]
    assert all("kb validate refuses it" in w and "&#123;" in w for w in warned)
    edit(project / BRIEF, "\ncharacter:\n  title: ", "\ncharacter:\n  title: 另一处 ")
    builder()
    assert sum("template syntax" in line for line in said) == 2  # the guide was not read again


def test_the_search_index_follows_when_nothing_changes(project):
    said: list[str] = []
    builder = serve.Builder(serve.project(project / "mkdocs.yml"), said.append, said.append)
    assert builder.first()
    edit(project / BRIEF, "\ncharacter:\n  title: ", "\ncharacter:\n  title: 稍后索引 ")
    builder()
    deadline = time.monotonic() + 60
    while not said[-1].startswith("kb preview: search index brought up to date") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert said[-1].startswith("kb preview: search index brought up to date"), said[-3:]
    assert "稍后索引" in indexed(builder.project.site_dir)


def test_a_failed_build_keeps_the_search_update_of_the_good_one_before(project):
    said: list[str] = []
    builder = serve.Builder(serve.project(project / "mkdocs.yml"), said.append, said.append)
    assert builder.first()
    edit(project / BRIEF, "\ncharacter:\n  title: ", "\ncharacter:\n  title: 失败之前 ")
    builder()  # good: its pages wait for the index
    edit(project / BRIEF, "sections: [s1-1-engines]", "sections: [s1-1-engine]")
    builder()  # fails before writing a page
    assert builder.errors
    builder.settle_search()  # as after 1.5 s without a change
    assert said[-1].startswith("kb preview: search index brought up to date in "), said[-3:]
    assert "失败之前" in indexed(builder.project.site_dir)


def test_a_build_failing_after_it_wrote_a_page_is_made_good_by_the_next(project, tmp_path, monkeypatch):
    said: list[str] = []
    builder = serve.Builder(serve.project(project / "mkdocs.yml"), said.append, said.append)
    assert builder.first()
    edit(project / BRIEF, "\ncharacter:\n  title: ", "\ncharacter:\n  title: 第一次保存 ")
    builder()  # good: its pages wait for the index
    page = builder.project.site_dir / "briefs/inference/2026-09-03-e1/index.html"
    build_page = mkdocs_build._build_page

    def fails_after(page_: object, config: object, *args: object, **kwargs: object) -> None:
        build_page(page_, config, *args, **kwargs)  # type: ignore[arg-type]
        if "失败前写下" in page.read_text("utf-8"):
            raise OSError(28, "No space left on device")  # as a full disk after the page

    monkeypatch.setattr(mkdocs_build, "_build_page", fails_after)
    edit(project / BRIEF, "title: 第一次保存 ", "title: 失败前写下 ")
    builder()
    assert builder.errors and "失败前写下" in page.read_text("utf-8")
    assert "serving the pages it wrote before it failed" in said[-len(builder.errors) - 1]
    assert builder.settle_search() is None  # the update before would index the page as it knew it
    monkeypatch.undo()
    edit(project / BRIEF, "title: 失败前写下 ", "title: 第一次保存 ")  # undone: as the last good build
    builder()
    assert not builder.errors and "失败前写下" not in page.read_text("utf-8")
    builder.settle_search()
    assert said[-1].startswith("kb preview: search index brought up to date in "), said[-3:]
    words = indexed(builder.project.site_dir)
    assert "第一次保存" in words and "失败前写下" not in words
    assert differing(project, builder.project.site_dir, tmp_path) == []


def test_a_save_during_the_search_update_stops_it_and_the_next_takes_both(project, monkeypatch):
    said: list[str] = []
    builder = serve.Builder(serve.project(project / "mkdocs.yml"), said.append, said.append)
    assert builder.first()
    started = threading.Event()
    run = search_index._run

    def slow(site_dir: Path, out: Path, stop: search_index.Stop) -> int:
        started.set()  # the update has begun: Pagefind reads the pages
        time.sleep(0.5)
        return run(site_dir, out, stop)

    monkeypatch.setattr(search_index, "_run", slow)
    edit(project / BRIEF, "\ncharacter:\n  title: ", "\ncharacter:\n  title: 第一次保存 ")
    builder()
    assert started.wait(60)
    edit(project / "docs/guide.md", "\n", "\n第二次保存的一行。\n")
    builder()  # lands during the update: stops it, does not wait for its end
    stopped = next(line for line in said if "search index update stopped after" in line)
    assert said.index(stopped) < len(said) - 1 and said[-1].startswith("kb preview: docs/guide.md changed")
    words = indexed(builder.project.site_dir)
    assert "第一次保存" not in words  # the index as it was
    builder.settle_search()
    assert said[-1].startswith("kb preview: search index brought up to date in "), said[-3:]
    words = indexed(builder.project.site_dir)
    assert "第一次保存" in words and "第二次保存的一行" in words


def indexed(site: Path) -> str:
    """Every page's text as the preview's search index holds it (its fragments)."""
    texts = []
    for path in (site / "pagefind" / "fragment").iterdir():
        raw = gzip.decompress(path.read_bytes())
        texts.append(json.loads(raw[raw.index(b"{") :])["content"].replace("\u200b", ""))
    return "\n".join(texts)


def test_a_broken_file_keeps_the_last_good_build_and_says_where(project, tmp_path):
    said: list[str] = []
    builder = serve.Builder(serve.project(project / "mkdocs.yml"), said.append, said.append)
    assert builder.first()
    page = builder.project.site_dir / "briefs/inference/2026-09-03-e1/index.html"
    good = page.read_bytes()
    edit(project / BRIEF, "sections: [s1-1-engines]", "sections: [s1-1-engine]")
    builder()
    assert page.read_bytes() == good
    shown = os.path.relpath(project / BRIEF)
    located = f"{shown}:123:16: unknown section 's1-1-engine' in topic 'inference' (did you mean 's1-1-engines'"
    assert any(located in e and "[increments[0].sections[0]]" in e for e in builder.errors), builder.errors
    assert said[-len(builder.errors) - 1].startswith(f"kb preview: building after {BRIEF} failed (still serving")
    html = serve.banner(builder.errors, builder.served())
    assert "the last build failed; still serving the last good build." in html and "s1-1-engine" in html

    builder()  # nothing changed: tried again, fails again
    assert builder.errors
    edit(project / BRIEF, "sections: [s1-1-engine]", "sections: [s1-1-engines]")
    edit(project / BRIEF, "\ncharacter:\n  title: ", "\ncharacter:\n  title: 修好了 ")
    builder()
    assert not builder.errors
    assert "修好了" in page.read_text("utf-8")
    assert differing(project, builder.project.site_dir, tmp_path) == []


def test_the_findings_of_a_changed_file_are_said(project):
    said: list[str] = []
    builder = serve.Builder(serve.project(project / "mkdocs.yml"), said.append, said.append)
    assert builder.first()
    assert not any("warning:" in line for line in said)  # the first build names none
    brief = "data/briefs/inference/2026-09-05-e1.yaml"
    edit(project / brief, "stated:\n  increments: 1", "stated:\n  increments: 2")
    builder()
    shown = os.path.relpath(project / brief)
    found = [line for line in said if line.startswith(f"kb preview: {shown}:")]
    assert len(found) == 1 and ": warning: " in found[0] and "[stated.increments]" in found[0], said
    assert not builder.errors


def test_a_change_of_mkdocs_yml_rebuilds_every_page(project, tmp_path):
    said: list[str] = []
    builder = serve.Builder(serve.project(project / "mkdocs.yml"), said.append, said.append)
    assert builder.first()
    edit(project / "mkdocs.yml", "site_name: LLM 推理知识库", "site_name: LLM 推理知识库（预览）")
    builder()
    assert "kb preview: mkdocs.yml changed: rebuilt 38 of 38 pages in " in said[-1]
    assert differing(project, builder.project.site_dir, tmp_path) == []
