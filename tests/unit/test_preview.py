"""``kb preview``'s decisions without MkDocs: which files change every page, which pages a change
affects (kb.site.preview), and the memo that keeps records and mentions across loads (off
unless passed: a load without one shares nothing with another)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kb.data.diagnostics import DataError
from kb.knowledge.index import KnowledgeBase, brief_page, paper_page
from kb.knowledge.load import Memo, load_kb
from kb.knowledge.views import api_files
from kb.site.pages import REGISTRY, affected
from kb.site.pages import snapshot as preview_inputs
from kb.site.pages.files import API_FILES
from kb.site.preview import Preview, Project, change_of, ignored, snapshot
from sitebuild import FIXTURE_DATA

# the pages every change remakes (types without inputs), and those compared before written
ALWAYS = frozenset({"briefs/index.md", "stats.md", "weeks/index.md"})
SUMMARY_PAGES = ALWAYS | {"papers/index.md", "backlog.md", "timeline/inference.md"}

BRIEF = "inference/2026-09-03-e1"
NEXT = "inference/2026-09-04-e1"


@pytest.fixture
def data(tmp_path: Path) -> Path:
    dest = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, dest)
    return dest


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), "utf-8")


# --------------------------------------------------------------------------- which files change everything


def test_a_brief_paper_or_page_changes_only_some_pages():
    change = change_of(["briefs/inference/2026-09-03-e1.yaml", "papers/ssr.yaml"], ["guide.md"], [])
    assert not change.everything
    assert change.paths == ("data/briefs/inference/2026-09-03-e1.yaml", "data/papers/ssr.yaml", "docs/guide.md")


@pytest.mark.parametrize(
    ("data", "other"),
    [
        (["topics/inference.yaml"], []),  # sections, titles, the update log: every page
        (["demos/flash.yaml"], []),
        (["schema/brief.schema.json"], []),
        ([], ["mkdocs.yml"]),
        ([], ["overrides/main.html"]),
        ([], ["hooks/template_pages.txt"]),
    ],
)
def test_topics_demos_and_the_project_change_everything(data, other):
    assert change_of(data, [], other).everything


def test_the_watched_files_and_what_changed_among_them(tmp_path):
    root = tmp_path / "project"
    for name in ("data/briefs/t", "data/papers", "docs", "overrides", "hooks"):
        (root / name).mkdir(parents=True)
    config = root / "mkdocs.yml"
    config.write_text("site_name: x\n", "utf-8")
    brief, swap, page = (
        root / "data/briefs/t/2026-01-01-e1.yaml",
        root / "data/briefs/t/.x.yaml.swp",
        root / "docs/a.md",
    )
    for path in (brief, swap, page, root / "docs/b.md~", root / "overrides/main.html"):
        path.write_text("x", "utf-8")
    project = Project(config, root / "data", root / ".cache/kb/preview", root / "docs", root / "overrides")
    assert set(project.watched()) == {root / "data", root / "docs", config, root / "hooks", root / "overrides"}
    files = snapshot(project.watched())
    assert set(files) == {
        str(p) for p in (brief, page, config, root / "overrides/main.html")
    }  # no swap or backup files
    assert files[str(brief)] == (brief.stat().st_mtime_ns, 1)
    assert ignored(".#a.md") and ignored("4913") and not ignored("a.md")
    change = project.sort({brief, page})
    assert change.paths == ("data/briefs/t/2026-01-01-e1.yaml", "docs/a.md") and not change.everything
    assert project.sort({brief, root / "overrides/main.html"}).everything
    assert project.sort({config}).paths == ("mkdocs.yml",)


# --------------------------------------------------------------------------- which pages


def test_nothing_changed_rebuilds_only_the_summaries_made_from_every_record(data):
    memo = Memo()
    before = load_kb(data, memo=memo)
    after = load_kb(data, memo=memo)
    assert affected(preview_inputs(before), preview_inputs(after)) == ALWAYS
    compared = {p for t in REGISTRY if t.compared for p in t.paths(after)}
    assert compared == SUMMARY_PAGES


def test_an_edited_brief_rebuilds_its_page_and_the_next_one(data):
    memo = Memo()
    before = preview_inputs(load_kb(data, memo=memo))
    edit(data / "briefs" / f"{BRIEF}.yaml", "\ncharacter:\n  title: ", "\ncharacter:\n  title: 新词 ")
    after = preview_inputs(load_kb(data, memo=memo))
    # the next brief compares itself with this one; no paper page, nor the backlog or the section
    # timeline, shows the headline
    assert affected(before, after) == ALWAYS | {f"briefs/{BRIEF}.md", f"briefs/{NEXT}.md"}


def test_an_edited_paper_rebuilds_its_page_and_the_briefs_that_name_it(data):
    memo = Memo()
    kb = load_kb(data, memo=memo)
    naming = {m.place.page for m in kb.mentions_of("albireo") if m.place.brief}
    carried = {f"briefs/{k}.md" for k, f in kb.figures.items() if any(c.paper == "albireo" for c in f.carried)}
    before = preview_inputs(kb)
    edit(data / "papers" / "albireo.yaml", "short: Albireo", "short: Albireo2")
    pages = affected(before, preview_inputs(load_kb(data, memo=memo)))
    assert "papers/albireo.md" in pages
    assert naming and naming <= pages  # briefs whose parts name it
    assert carried and carried <= pages  # and those that list it as carried over (computed)
    assert "papers/ssr.md" not in pages


def rendered(kb: KnowledgeBase) -> dict[str, str]:
    """Every brief and paper page, the papers index, the backlog and the section timelines as the
    renderers make them (the oracle: a page that differs must be rebuilt)."""
    from kb import bib
    from kb.render import backlog, brief, indexes, paper, timeline

    out = {brief_page(k): brief.page(kb, k, brief_page(k)) for k in kb.briefs}
    out.update((paper_page(p), paper.page(kb, p, bibtex=bib.entry_for(kb.papers[p], kb))) for p in kb.papers)
    out[indexes.PAPERS], out[backlog.PAGE] = indexes.papers(kb), backlog.page(kb)
    out.update((timeline.page_of(topic), timeline.page(kb, topic)) for topic in kb.topics)
    return out


# FlexLLM (9-2) moved from s1-2-scheduling, Cascade's section, to s1-1-engines
FLEXLLM = (
    "    title: FlexLLM：token 级 co-serving（NSDI 2026）\n    label: FlexLLM\n    papers: [flexllm]\n    suggested:\n"
)
MOVE_FLEXLLM = (
    f"[s1-2-scheduling]\n{FLEXLLM}      - section: s1-2-scheduling",
    f"[s1-1-engines]\n{FLEXLLM}      - section: s1-1-engines",
)

STREAM2LLM = "      - papers: [stream2llm]\n        origin: 2026-09-02\n        text: 与 Stream2LLM（append/update"
STREAM2LLM += " 模式，9-2 e1prep）合起来，形成“调度策略 × SLO 保障”的双层体系。\n"

EDITS = {
    "headline": ("briefs/inference/2026-09-03-e1.yaml", "\ncharacter:\n  title: ", "\ncharacter:\n  title: 新词 "),
    # a brief is named by its title on the pages that link to it: the brief before it, the paper pages
    "brief title": ("briefs/inference/2026-09-03-e1.yaml", "\ntitle: inference · E1 预", "\ntitle: inference · E1 新"),
    "status": ("briefs/inference/2026-09-01-e1.yaml", "{paper: albireo, status: net-new", "{paper: albireo"),
    "short name": ("papers/albireo.yaml", "short: Albireo", "short: Albireo2"),
    "title": ("papers/ssr.yaml", 'title: "SSR: ', 'title: "New SSR: '),
    "anchoring": ("briefs/inference/2026-09-05-e1.yaml", "anchored_in: s1-2-scheduling", "anchored_in: s1-1-engines"),
    "claim update": ("briefs/inference/2026-09-05-e1.yaml", "action: updated", "action: resolved"),
    # what only the backlog shows besides the brief: stars, a claim's priority, an id without a paper file
    "value": (
        "briefs/inference/2026-09-04-e1.yaml",
        "    value: 3\n    summary: {label: LMCache",
        "    value: 1\n    summary: {label: LMCache",
    ),
    "claim priority": ("briefs/inference/2026-09-04-e1.yaml", "    priority: P2\n", "    priority: P0\n"),
    "unknown id": ("briefs/inference/2026-09-04-e1.yaml", "实验开关。", "实验开关（arXiv:2612.00001）。"),
    # another paper's brief moves it out of a section: the related lists of that section's papers
    "related": ("briefs/inference/2026-09-02-e1.yaml", *MOVE_FLEXLLM),
    # a relation line goes: the section's graph on the timeline loses the line between two papers
    "relation": ("briefs/inference/2026-09-03-e1.yaml", STREAM2LLM, ""),
}


@pytest.mark.parametrize("name", EDITS)
def test_every_page_that_changes_is_rebuilt(data, name):
    path, old, new = EDITS[name]
    memo = Memo()
    kb = load_kb(data, memo=memo)
    before, pages = preview_inputs(kb), rendered(kb)
    edit(data / path, old, new)
    kb = load_kb(data, memo=memo)
    changed = {page for page, html in rendered(kb).items() if pages.get(page) != html}
    chosen = affected(before, preview_inputs(kb))
    assert changed, name
    assert changed <= chosen, sorted(changed - chosen)
    if name in ("value", "claim priority", "unknown id"):
        assert "backlog.md" in changed, name  # the edit reaches the backlog
    assert len(chosen - SUMMARY_PAGES) < len(pages)  # not every page


def test_a_related_list_follows_the_briefs_of_other_papers(data):
    """Cascade and FlexLLM are related by a relation line of 9-3 and their section (s1-2-scheduling),
    which FlexLLM has from 9-2 only; 9-2, which does not name Cascade, moves FlexLLM to another
    section: Cascade's page changes (FlexLLM's score and reasons) and is rebuilt."""
    memo = Memo()
    kb = load_kb(data, memo=memo)
    assert "cascade" not in {m.paper for m in kb.mentions if m.place.brief == "inference/2026-09-02-e1"}
    before, pages = preview_inputs(kb), rendered(kb)
    edit(data / "briefs" / "inference" / "2026-09-02-e1.yaml", *MOVE_FLEXLLM)
    kb = load_kb(data, memo=memo)
    page = paper_page("cascade")

    def row(html: str) -> str:
        return next(li for li in html.split("<li>") if li.startswith('<a href="flexllm.md">'))

    assert "7 分" in row(pages[page]) and "5 分" in row(rendered(kb)[page])
    assert page in affected(before, preview_inputs(kb))


def test_added_and_removed_briefs_rebuild_every_page_that_changes(data):
    memo = Memo()
    kb = load_kb(data, memo=memo)
    before, pages = preview_inputs(kb), rendered(kb)
    newest = data / "briefs" / "inference" / "2026-09-05-e1.yaml"
    text = newest.read_text("utf-8").replace("2026-09-05", "2026-09-06")
    (data / "briefs" / "inference" / "2026-09-06-e1.yaml").write_text(text, "utf-8")
    kb = load_kb(data, memo=memo)
    now = rendered(kb)
    changed = {page for page, html in now.items() if pages.get(page) != html}
    assert "briefs/inference/2026-09-06-e1.md" in changed
    assert changed <= affected(before, preview_inputs(kb))
    before, pages = preview_inputs(kb), now
    (data / "briefs" / "inference" / "2026-09-06-e1.yaml").unlink()
    kb = load_kb(data, memo=memo)
    changed = {page for page, html in rendered(kb).items() if pages.get(page) != html}
    assert changed and changed <= affected(before, preview_inputs(kb))


def test_a_new_brief_leaves_the_pages_of_papers_it_does_not_name(data):
    """A paper page changes with a brief that names the paper, not with every new day."""
    memo = Memo()
    kb = load_kb(data, memo=memo)
    before, pages = preview_inputs(kb), rendered(kb)
    previous = kb.by_topic["inference"][-1]
    newest = data / "briefs" / "inference" / "2026-09-05-e1.yaml"
    text = newest.read_text("utf-8").replace("2026-09-05", "2026-09-06")
    (newest.parent / "2026-09-06-e1.yaml").write_text(text, "utf-8")
    kb = load_kb(data, memo=memo)
    key = "inference/2026-09-06-e1"
    named = {m.paper for m in kb.mentions if m.place.brief == key} | set(kb.figures[key].net_new_papers)
    new_then = {pid for pid in kb.papers if (s := kb.history.first_seen(pid)) and s.brief == previous}
    quiet = {paper_page(pid) for pid in kb.papers if pid not in named | new_then}
    now = rendered(kb)
    assert quiet and all(now[page] == pages[page] for page in quiet)
    assert not quiet & affected(before, preview_inputs(kb))


def test_the_preview_chooses_every_page_without_a_good_build_or_on_a_global_change(data):
    memo = Memo()
    preview = Preview(memo=memo)
    kb = load_kb(data, memo=memo)
    assert not preview.partial and preview.choose(kb) is None  # the first build
    preview.before = kb
    preview.change = change_of([], [], ["mkdocs.yml"])
    assert not preview.partial and preview.choose(load_kb(data, memo=memo)) is None
    preview.before = kb
    preview.change = change_of(["briefs/inference/2026-09-03-e1.yaml"], [], [])
    assert preview.partial
    assert preview.choose(load_kb(data, memo=memo)) == ALWAYS
    assert preview.built == ALWAYS


def test_pages_a_failed_build_wrote_are_built_again_until_a_good_build(data):
    memo = Memo()
    kb = load_kb(data, memo=memo)
    preview = Preview(memo=memo, before=kb, change=change_of(["briefs/inference/2026-09-03-e1.yaml"], [], []))
    preview.built = frozenset({"briefs/inference/2026-09-03-e1.md"})
    assert not preview.failed()  # it wrote nothing: nothing to build again
    assert preview.choose(load_kb(data, memo=memo)) == ALWAYS
    preview.built = frozenset({"briefs/inference/2026-09-03-e1.md"})
    preview.writing.add(True)  # the kb plugin wrote a page
    assert preview.failed()
    assert preview.choose(load_kb(data, memo=memo)) == ALWAYS | {"briefs/inference/2026-09-03-e1.md"}
    assert preview.failed()  # again, after writing again (what it built: that page and the summaries)
    assert preview.partial and preview.choose(load_kb(data, memo=memo)) >= {"briefs/inference/2026-09-03-e1.md"}
    preview.built = None  # a build of every page failed after writing one: the next builds every page
    assert preview.failed() and not preview.partial and preview.choose(load_kb(data, memo=memo)) is None
    preview.succeeded(kb)
    assert preview.partial and preview.choose(load_kb(data, memo=memo)) == ALWAYS


# --------------------------------------------------------------------------- the memo


def test_the_memo_parses_only_changed_files_and_reuses_their_records(data):
    memo = Memo()
    first = load_kb(data, memo=memo)
    assert memo.files.hits == 0 and memo.files.misses > 20
    files = memo.files.misses
    edit(data / "briefs" / f"{BRIEF}.yaml", "\ncharacter:\n  title: ", "\ncharacter:\n  title: 新词 ")
    second = load_kb(data, memo=memo)
    assert (memo.files.hits, memo.files.misses) == (files - 1, 1)
    assert second.briefs[BRIEF] is not first.briefs[BRIEF]
    assert second.briefs[NEXT] is first.briefs[NEXT] and second.papers["ssr"] is first.papers["ssr"]
    assert memo.mentions.reused == len(second.briefs) + len(second.papers) - 1
    (data / "papers" / "crisp.yaml").unlink()
    with pytest.raises(DataError):  # briefs name it: the load fails with every located error
        load_kb(data, memo=memo)
    assert not any(path.endswith("crisp.yaml") for path, _ in memo.files.entries)


def test_a_load_with_the_memo_equals_one_without(data):
    memo = Memo()
    load_kb(data, memo=memo)
    edit(data / "papers" / "albireo.yaml", "short: Albireo", "short: Albireo2")
    edit(data / "briefs" / f"{BRIEF}.yaml", "\ncharacter:\n  title: ", "\ncharacter:\n  title: 新词 ")
    kept, fresh = load_kb(data, memo=memo), load_kb(data)
    naming = {m.place.brief for m in fresh.mentions if m.paper == "albireo" and m.place.brief}
    assert memo.mentions.reused == len(fresh.briefs) + len(fresh.papers) - len(naming | {BRIEF}) - 1
    assert api_files(kept) == api_files(fresh)
    assert [d.text() for d in kept.diagnostics] == [d.text() for d in fresh.diagnostics]
    assert kept.mentions == fresh.mentions


@pytest.mark.parametrize("name", ["move FlexLLM", "short name", "anchoring", "headline"])
def test_the_memo_keeps_the_related_lists_of_papers_whose_briefs_stayed(data, name):
    """Each paper's related list is taken from the last load while its groups (ties, their papers
    and names) are the same, made again otherwise: the lists equal a load's without the memo."""
    from kb.knowledge.related import related_papers

    memo = Memo()
    first = related_papers(load_kb(data, memo=memo))
    path, old, new = ("briefs/inference/2026-09-02-e1.yaml", *MOVE_FLEXLLM) if name == "move FlexLLM" else EDITS[name]
    edit(data / path, old, new)
    kept, fresh = related_papers(load_kb(data, memo=memo)), related_papers(load_kb(data))
    assert kept == fresh
    made = {p for p in kept if kept[p] is not first[p]}  # made again: not the last load's object
    assert {p for p in kept if kept[p] != first[p]} <= made < set(kept)
    assert bool(made) == (name != "headline")  # a headline is in no group: every list carried


def test_the_preview_keeps_the_bibtex_entries_of_unchanged_papers(data):
    """An entry is written again only for a changed record (or key): the others are the last
    build's, and every entry equals one written afresh."""
    from kb.bib import entry_for, keys

    memo, kept = Memo(), {}
    kb = load_kb(data, memo=memo)
    keys.carry(kb, kept)
    first = {pid: entry_for(paper, kb) for pid, paper in kb.papers.items()}
    edit(data / "papers" / "ssr.yaml", 'title: "SSR: ', 'title: "New SSR: ')
    kb, fresh = load_kb(data, memo=memo), load_kb(data)
    keys.carry(kb, kept)
    now = {pid: entry_for(paper, kb) for pid, paper in kb.papers.items()}
    assert now == {pid: entry_for(paper, fresh) for pid, paper in fresh.papers.items()}
    assert {pid for pid, entry in now.items() if entry is not first[pid]} == {"ssr"}
    assert "New SSR" in str(now["ssr"])


def test_without_a_memo_nothing_is_shared(data):
    one, two = load_kb(data), load_kb(data)
    assert one.briefs[BRIEF] == two.briefs[BRIEF] and one.briefs[BRIEF] is not two.briefs[BRIEF]


def test_the_api_file_names_the_preview_keeps_are_the_builds(sample_kb):
    from kb.data.jsonschema import site_files

    assert sorted(API_FILES) == sorted([*api_files(sample_kb), *site_files()])


def test_the_packages_theme_is_watched_where_it_is_the_projects_own_checkout(tmp_path):
    """Editing src/kb/theme/ in this checkout rebuilds the preview; another project (whose kb is
    installed) watches its own custom_dir, or no theme directory."""
    from kb.site.preview import serve
    from kb.site.theme import TEMPLATES

    repo = Path(__file__).resolve().parents[2]
    assert serve.project(repo / "mkdocs.yml").theme_dir == TEMPLATES.parent
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nplugins:\n  - kb\n", "utf-8")
    assert serve.project(tmp_path / "mkdocs.yml").theme_dir is None
