"""The live knowledge base (data/ and docs/ as they are in this checkout).

Only what must hold for ANY valid knowledge base is asserted here, so that
adding tomorrow's brief never turns CI red: it validates, the site builds
strictly, every link and anchor resolves, pages load in a browser without
errors, and tomorrow's scaffolded briefs validate and build too.  Tests that
assert on specific briefs, papers or figures use tests/fixtures/kb.
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from pathlib import Path

import pytest

from kb.knowledge.load import load_kb
from sitebuild import CHROMIUM, CHROMIUM_ARGS, ROOT, build, copy_project, serve_directory
from sitecheck import broken_links, foreign_resources, script_links

pytestmark = pytest.mark.slow
# Requests a page makes that fail only because the site is served here as one unversioned
# site: Material's version selector asks for the editions' list one level up.
NOT_PUBLISHED_HERE = ("/versions.json",)


def kb_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kb", *args], cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def live_site(tmp_path_factory) -> Path:
    project = copy_project(tmp_path_factory.mktemp("live"), live=True)
    dest = project / "site"
    run = build(dest, project=project)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return dest


def test_live_data_validates():
    run = kb_cli("validate", "--strict", cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr


def test_live_site_links_and_resources(live_site):
    checked, broken = broken_links(live_site)
    assert checked > 0
    assert not broken, "\n".join(broken[:30])
    assert foreign_resources(live_site) == []
    assert script_links(live_site) == []


def newest_briefs(site: Path) -> list[str]:
    """Site paths of the newest brief page of each topic."""
    out = []
    for topic_dir in sorted((site / "briefs").iterdir()):
        if topic_dir.is_dir():
            pages = sorted(p.name for p in topic_dir.iterdir() if (p / "index.html").is_file())
            if pages:
                out.append(f"briefs/{topic_dir.name}/{pages[-1]}/")
    return out


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")
def test_live_pages_load_in_a_browser(live_site):
    from playwright.sync_api import sync_playwright

    paths = ["", "briefs/", "papers/", "backlog/", *newest_briefs(live_site)]
    with serve_directory(live_site) as base, sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS + ["--disable-gpu"]
        )
        page = browser.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
        page.on(
            "response",
            lambda r: (
                problems.append(f"HTTP {r.status}: {r.url}")
                if r.status >= 400 and not r.url.endswith(NOT_PUBLISHED_HERE)
                else None
            ),
        )
        page.on(
            "request", lambda req: None if req.url.startswith(base) else problems.append(f"off-site request: {req.url}")
        )
        for path in paths:
            response = page.goto(base + path, wait_until="networkidle")
            assert response is not None and response.ok, path
            assert page.locator("article h1").first.is_visible(), path
        browser.close()
    assert problems == [], "\n".join(problems)


def test_tomorrows_scaffolded_briefs_validate_and_build(tmp_path):
    """What the next pull requests will do: scaffold the next two days' brief of every topic
    (no other edit), commit, validate and build strictly."""
    project = copy_project(tmp_path / "project", live=True)
    git = ["git", "-c", "user.name=KB Test", "-c", "user.email=kb-test@example.invalid"]
    subprocess.run([*git, "init", "-q"], cwd=project, check=True)
    subprocess.run([*git, "add", "-A"], cwd=project, check=True)
    subprocess.run([*git, "commit", "-qm", "base"], cwd=project, check=True)
    kb = load_kb(project / "data")
    for day in (1, 2):
        for topic, keys in kb.by_topic.items():
            date = kb.briefs[keys[-1]].date + dt.timedelta(days=day)
            run = kb_cli("new", "brief", "--topic", topic, "--date", date.isoformat(), cwd=project)
            assert run.returncode == 0, run.stdout + run.stderr
        subprocess.run([*git, "add", "-A"], cwd=project, check=True)
        subprocess.run([*git, "commit", "-qm", f"day {day}"], cwd=project, check=True)
        run = kb_cli("validate", "--strict", cwd=project)  # a scaffold adds no finding
        assert run.returncode == 0, run.stdout + run.stderr
    dest = project / "site"
    run = build(dest, project=project)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    checked, broken = broken_links(dest)
    assert not broken, "\n".join(broken[:30])
    for path in newest_briefs(dest):
        assert path.endswith(
            f"{(kb.briefs[kb.by_topic[path.split('/')[1]][-1]].date + dt.timedelta(days=2)).isoformat()}-e1/"
        )
