"""The render cache (kb.site.pages.rendercache) changes nothing a reader sees: after each kind of edit a
contributor makes (a paper's name, a section's title, the update log, a hand-written page's
mention, a brief added or removed), a build that takes unchanged brief and paper pages from the
cache writes exactly the bytes a build without any cache writes, and it makes again only the
pages the edit reaches."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from sitebuild import build, built_files, copy_project

pytestmark = pytest.mark.slow
BRIEFS = Path("data/briefs/inference")
# FlexLLM (9-2) moved from s1-2-scheduling, Cascade's section, to s1-1-engines
FLEXLLM = (
    "    title: FlexLLM：token 级 co-serving（NSDI 2026）\n    label: FlexLLM\n    papers: [flexllm]\n    suggested:\n"
)
MOVE_FLEXLLM = (
    f"[s1-2-scheduling]\n{FLEXLLM}      - section: s1-2-scheduling",
    f"[s1-1-engines]\n{FLEXLLM}      - section: s1-1-engines",
)


def finished(log: str) -> tuple[int, int]:
    m = re.search(r"finished pages: (\d+) from the cache, (\d+) made", log)
    assert m, log
    return int(m.group(1)), int(m.group(2))


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), "utf-8")


class Builds:
    def __init__(self, tmp: Path) -> None:
        self.tmp, self.n = tmp, 0
        self.project = copy_project(tmp / "project")
        self.cache = {"KB_CACHE": str(tmp / "cache")}

    def same_as_without_cache(self) -> tuple[int, int]:
        """Build with the cache and without; the two sites are equal; (pages from the cache, made)."""
        self.n += 1
        warm, off = self.tmp / f"warm{self.n}", self.tmp / f"off{self.n}"
        run = build(warm, env_extra=self.cache, project=self.project)
        assert run.returncode == 0, run.stderr
        plain = build(off, env_extra={"KB_CACHE": "off"}, project=self.project)
        assert plain.returncode == 0, plain.stderr
        assert "finished pages" not in plain.stderr
        assert built_files(warm) == built_files(off)
        shutil.rmtree(off)
        return finished(run.stderr)


def test_each_edit_builds_what_a_build_without_cache_builds(tmp_path):
    b = Builds(tmp_path)
    kept, made = b.same_as_without_cache()
    assert kept == 0 and made > 20  # every brief and paper page of the frozen knowledge base
    pages = made
    assert b.same_as_without_cache() == (pages, 0)

    edit(b.project / "data/papers/ssr.yaml", "short: SSR", "short: SSR 改名")
    kept, made = b.same_as_without_cache()
    assert 0 < made < pages and kept == pages - made  # its page and the briefs that name it

    edit(b.project / "data/topics/inference.yaml", "title: Speculative Decoding", "title: Speculative Decoding 投机")
    assert b.same_as_without_cache() == (0, pages)  # every page may link to a section

    edit(b.project / "data/topics/inference.yaml", "- text: SuperInfer", "- text: SuperInfer 2")
    kept, made = b.same_as_without_cache()
    assert made > 0  # the briefs whose baseline is that update

    guide = b.project / "docs" / "guide.md"
    guide.write_text(guide.read_text("utf-8") + "\n另见 arXiv:2606.01927 的做法。\n", "utf-8")
    kept, made = b.same_as_without_cache()
    assert 0 < made < 3  # the paper page now lists the guide among its backlinks

    # a brief that names FlexLLM, not Cascade, moves FlexLLM to another section: FlexLLM's place in
    # Cascade's related papers (a list made from other papers' briefs) changes, and so must its page
    edit(b.project / BRIEFS / "2026-09-02-e1.yaml", *MOVE_FLEXLLM)
    kept, made = b.same_as_without_cache()
    assert 0 < made < pages // 2

    newest = b.project / BRIEFS / "2026-09-05-e1.yaml"
    text = newest.read_text("utf-8")
    newest.unlink()
    kept, made = b.same_as_without_cache()
    assert made < pages // 2 and kept > 0  # its neighbour, the papers it named
    newest.write_text(text, "utf-8")
    kept, made = b.same_as_without_cache()
    assert 0 < made < pages // 2
    entries = list((tmp_path / "cache" / "finished").rglob("*.json"))
    assert len(entries) == pages  # the entries no build uses are gone
