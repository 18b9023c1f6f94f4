"""Paths whose changes need a maintainer's review: CODEOWNERS names them, and the pull-request
workflow's summary lists every changed path outside data/ and pages, the protected ones marked."""

from __future__ import annotations

from pathlib import Path

from test_ci_pr_steps import pull_request
from workflow_steps import ROOT

CODEOWNERS = ROOT / ".github" / "CODEOWNERS"
# what a build runs or a reader's browser executes (issue: protected paths are enforced)
PROTECTED = ("mkdocs.yml", "hooks/", "docs/assets/", "src/", "scripts/", "requirements/", ".github/")
SUMMARY_STEP = "List the changed paths outside data/ and pages (job summary)"


def owner_rules() -> dict[str, list[str]]:
    rules = {}
    for line in CODEOWNERS.read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            path, *owners = line.split()
            rules[path] = owners
    return rules


def test_every_protected_path_has_an_owner_and_every_rule_names_a_path_that_exists():
    rules = owner_rules()
    for path in PROTECTED:
        assert "/" + path in rules, f"CODEOWNERS does not protect {path}"
    for path, owners in rules.items():
        assert path.startswith("/"), f"{path}: anchor the rule at the repository's root"
        assert (ROOT / path.lstrip("/")).exists(), f"CODEOWNERS names {path}, which does not exist"
        assert owners and all(o.startswith("@") for o in owners), f"{path}: no owner"


def summary_of(tmp_path: Path, change) -> tuple[str, str]:
    runner = pull_request(tmp_path, change)
    step = next(s for s in runner.steps() if s.get("name") == SUMMARY_STEP)
    result = runner.run(step)
    assert result.returncode == 0, result.stdout + result.stderr
    return Path(runner.runner_env["GITHUB_STEP_SUMMARY"]).read_text("utf-8"), result.stdout


def test_a_pull_request_touching_the_template_page_list_shows_it_protected_in_the_summary(tmp_path):
    def change(repo: Path) -> None:
        listed = repo / "hooks" / "template_pages.txt"
        listed.write_text(listed.read_text("utf-8") + "guide.md\n", "utf-8")
        (repo / "docs" / "guide.md").write_text("# 指南\n\n改过。\n", "utf-8")
        (repo / "docs" / "img").mkdir(exist_ok=True)
        (repo / "docs" / "img" / "odd`name.png").write_bytes(b"\x89PNG")
        paper = repo / "data" / "papers" / "albireo.yaml"
        paper.write_text(paper.read_text("utf-8") + "# reviewed\n", "utf-8")

    summary, stdout = summary_of(tmp_path, change)
    lines = summary.splitlines()
    assert "- 🔒 `hooks/template_pages.txt`" in lines
    assert "- `docs/img/odd'name.png`" in lines  # listed, not protected; a backquote cannot close the code span
    assert "2 个路径" in summary
    assert "albireo" not in summary and "guide.md" not in summary  # data and pages: kb validate's
    assert "::warning title=Changes outside data and pages::2 changed path(s)" in stdout


def test_a_page_under_a_protected_directory_is_listed(tmp_path):
    def change(repo: Path) -> None:
        (repo / "docs" / "assets" / "note.md").write_text("# 注\n", "utf-8")

    summary, _ = summary_of(tmp_path, change)
    assert "- 🔒 `docs/assets/note.md`" in summary.splitlines()


def test_a_data_only_pull_request_says_so(tmp_path):
    def change(repo: Path) -> None:
        paper = repo / "data" / "papers" / "albireo.yaml"
        paper.write_text(paper.read_text("utf-8") + "# reviewed\n", "utf-8")

    summary, stdout = summary_of(tmp_path, change)
    assert summary.startswith("### 只改了数据和页面")
    assert "::warning" not in stdout
