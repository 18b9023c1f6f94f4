"""Generated pages reach MkDocs as HTML, after its Markdown step, and lose nothing on the way:
their links are resolved and validated like Markdown links (a broken anchor or a missing page
still fails the strict build), and Python-Markdown sees nothing of a generated page but the
skeleton that tells MkDocs its headings and ids."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sitebuild import build, copy_project

# Runs the real `mkdocs build --strict` in a fresh interpreter after patching one renderer, so
# that a generated page carries the link under test.
RUNNER = textwrap.dedent(
    """
    import sys, markdown
    import kb.render.paper as paper
    extra = sys.argv[2]
    original = paper.page
    def patched(kb, pid, **kw):
        out = original(kb, pid, **kw)
        return out + extra if pid == sorted(kb.papers)[0] else out
    paper.page = patched
    converted = []
    convert = markdown.Markdown.convert
    def counting(self, source):
        converted.append(source)
        return convert(self, source)
    markdown.Markdown.convert = counting
    from mkdocs.__main__ import cli
    try:
        cli(["build", "--strict", "-d", sys.argv[1]])
    finally:
        with open(sys.argv[1] + ".converted", "w", encoding="utf-8") as out:
            out.write("\\x00".join(converted))
    """
)


def build_with(tmp_path: Path, extra: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    project = copy_project(tmp_path / "project")
    dest = tmp_path / "site"
    run = subprocess.run(
        [sys.executable, "-c", RUNNER, str(dest), extra],
        cwd=project,
        capture_output=True,
        text=True,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
    )
    converted = Path(str(dest) + ".converted")
    return run, converted.read_text("utf-8").split("\x00") if converted.exists() else []


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            '<p><a href="../inference.md#sec-no-such-section">x</a></p>',
            "does not contain an anchor '#sec-no-such-section'",
        ),
        ('<p><a href="#no-such-anchor">x</a></p>', "there is no such anchor on this page"),
        ('<p><a href="../no-such-page.md">x</a></p>', "is not found among documentation files"),
    ],
    ids=["anchor-on-another-page", "anchor-on-the-page", "missing-page"],
)
def test_a_broken_link_in_a_generated_page_fails_the_strict_build(tmp_path, extra, message):
    run, _ = build_with(tmp_path, extra)
    assert run.returncode != 0
    assert message in run.stdout + run.stderr, run.stdout + run.stderr


def test_a_good_link_builds_resolved_and_no_generated_page_is_converted(tmp_path, root):
    run, converted = build_with(tmp_path, '<p><a href="../inference.md#sec-s1-3-kv-cache">kv</a></p>')
    assert run.returncode == 0, run.stdout + run.stderr
    built = [p.read_text("utf-8") for p in (tmp_path / "site" / "papers").glob("*/index.html")]
    carrying = [text for text in built if ">kv</a>" in text]
    assert len(carrying) == 1
    assert '<a href="../../inference/#sec-s1-3-kv-cache">kv</a>' in carrying[0]  # the built URL, not the .md
    hand_written = sum(1 for _ in (tmp_path / "project" / "docs").rglob("*.md"))
    pages = sum(1 for _ in (tmp_path / "site").rglob("index.html"))
    # Python-Markdown runs once per page: on a hand-written page's text, and on a generated page's
    # skeleton (headings and ids only; a brief or paper page's, only the ids hand-written pages may
    # link to: here none); the HTML of generated pages and macros never goes through it
    assert len(converted) == pages, [s[:80] for s in converted]
    skeletons = [s for s in converted if SKELETON.fullmatch(s)]
    assert len(skeletons) == pages - hand_written
    assert not any('class="headerlink"' in s or 'class="kb-' in s for s in converted)  # no HTML of ours


_PART = r'(?:#{1,6} x \{ #[^ ]+ data-toc-label="[^"]*" \}|<div>(?:<i id="[^"]*"></i>)+</div>)'
SKELETON = re.compile("(?:" + _PART + r"(?:\n\n" + _PART + ")*)?")  # kb.site.plugin.finish.skeleton; "" too


@pytest.mark.parametrize(
    ("anchor", "fails"),
    [("adj-b", False), ("sec-s1-3-kv-cache", True), ("how", True)],
    ids=["an-id-that-is-no-heading", "a-section-of-another-page", "nowhere"],
)
def test_a_hand_written_link_to_an_anchor_of_a_generated_page_is_checked_by_mkdocs(tmp_path, anchor, fails):
    """MkDocs knows every id of a generated page, headings or not: a hand-written link to one
    builds; one to an id the page does not hold fails the strict build."""
    project = copy_project(tmp_path / "project")
    guide = project / "docs" / "guide.md"
    guide.write_text(guide.read_text("utf-8") + f"\n[次要条目](briefs/inference/2026-09-03-e1.md#{anchor})\n", "utf-8")
    run = build(tmp_path / "site", project=project)
    said = f"contains a link 'briefs/inference/2026-09-03-e1.md#{anchor}', but the doc"
    assert (run.returncode != 0) is fails, run.stderr
    assert (said in run.stderr) is fails, run.stderr
