"""The hostile pages (tests/hostile/pages/) in a built site, read in Chromium.

One site is built with every page of the corpus that a pull request could bring under docs/
(page metadata, bodies, ids), in the navigation (which carries other pages' metadata onto every
page): as written where the project's checks accept it, else fixed as the refusal says (the
metadata lines made text by a blank line before them, the reserved ids given a prefix of the
page's own).  Every built page is opened, every element with a title or a tooltip hovered and
focused; no dialog opens, no page error is raised, the title canary stays, no request leaves
the local server, and the glossary's tooltips still show their explanations."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from sitebuild import CHROMIUM, copy_project, serve_directory

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")]

PAGES = Path(__file__).resolve().parents[1] / "hostile" / "pages"
CASES = sorted(p.name for p in PAGES.glob("*.md") if p.name.startswith(("body-", "fm-", "id-")))
SKIPPED = {"body-template-in-plain-page.md"}  # template syntax in a plain page: refused on its own (test_corpus.py)


def refused(rel: str, text: str, project: Path) -> bool:
    """Whether ``kb validate`` refuses the page (an error, not a warning)."""
    from kb.data.pages import body_start, check_page
    from kb.render.sanitize import page_findings

    found = check_page(rel, text, f"docs/{rel}", frozenset(), None)
    if not any(d.is_error for d in found):
        found = page_findings(text, body_start(text), f"docs/{rel}", project / "mkdocs.yml")
    return any(d.is_error for d in found)


def fixed(name: str, text: str) -> str:
    """The page as its author would fix it after the refusal."""
    if name.startswith("fm-"):
        return "\n" + text  # a blank line first: the metadata lines are the page's text
    text = re.sub(r"""((?:id|name)=["']?|#)(__|kb-)""", r"\1page-\2", text, flags=re.I)
    return re.sub(r"^(##+ [^{\n]+)$", r"\1 { #page-heading }", text, flags=re.M)


@pytest.fixture(scope="session")  # built once: the site takes most of the time
def hostile_site(tmp_path_factory) -> tuple[Path, list[str]]:
    project = copy_project(tmp_path_factory.mktemp("hostile") / "p")
    (project / "docs" / "hostile").mkdir()
    placed = []
    for name in CASES:
        if name in SKIPPED:
            continue
        text = (PAGES / name).read_text("utf-8")
        rel = f"hostile/{name}"
        if refused(rel, text, project):
            text = fixed(name, text)
            assert not refused(rel, text, project), name
        (project / "docs" / rel).write_text(text, "utf-8")
        placed.append(rel)
    with (project / "mkdocs.yml").open("a", encoding="utf-8") as f:  # the nav ends the file
        f.write("  - Hostile:\n" + "".join(f"      - {rel}\n" for rel in placed))
    env = {k: v for k, v in os.environ.items() if k not in ("KB_DATA", "KB_DEMOS")}
    env["NO_MKDOCS_2_WARNING"] = "1"
    site = project / "site"
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
        cwd=project,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    pages = sorted(p.parent.relative_to(site).as_posix() for p in site.rglob("index.html"))
    return site, [("" if p == "." else p + "/") for p in pages]


TOUCH = """() => {
    const els = [...document.querySelectorAll('[title], abbr, a, button, label, summary, [tabindex]')];
    for (const el of els) {
        el.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));
        el.dispatchEvent(new MouseEvent('mouseenter'));
        if (el.focus) el.focus();
    }
    return els.length;
}"""
LEAVE = """() => { for (const el of document.querySelectorAll('*')) el.dispatchEvent(new MouseEvent('mouseleave')); }"""


def test_no_payload_runs_and_nothing_leaves_the_site(browser, hostile_site):
    site, pages = hostile_site
    assert any(p.startswith("hostile/") for p in pages) and len(pages) > 20
    dialogs: list[str] = []
    errors: list[str] = []
    away: list[str] = []
    canary: list[str] = []
    touched = 0
    with serve_directory(site) as base:
        origin = urlsplit(base)[:2]
        ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
        page = ctx.new_page()
        page.on("dialog", lambda d: (dialogs.append(f"{page.url}: {d.message}"), d.dismiss()))
        page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
        page.on("request", lambda r: away.append(r.url) if urlsplit(r.url)[:2] not in (origin,) else None)
        page.route(re.compile(r"^(?!" + re.escape(base) + ")https?://"), lambda route: route.abort())
        try:
            for path in pages:
                page.goto(base + path, wait_until="load")
                touched += page.evaluate(TOUCH)
                if path.startswith("hostile/"):  # a pointer really over each title of the page's content
                    for el in page.query_selector_all("article [title]"):  # handles: hovering takes the title
                        if el.is_visible():
                            el.hover(timeout=5000)
                            el.focus()
                page.wait_for_timeout(400)  # Material shows a tooltip at once, the images in it fail soon after
                page.evaluate(LEAVE)
                if "PWNED" in page.title():
                    canary.append(path)
        finally:
            ctx.close()
    assert touched > 50 * len(pages)  # the theme's own buttons and links, the titles, the terms
    assert {"dialogs": dialogs, "page errors": errors, "title changed": canary, "requests away": away} == {
        "dialogs": [],
        "page errors": [],
        "title changed": [],
        "requests away": [],
    }


def test_the_glossary_tooltips_still_show(browser, hostile_site):
    """The explanations the project adds after sanitizing (kb.render.glossary) keep their text."""
    from kb.messages import GLOSSARY

    site, pages = hostile_site
    with serve_directory(site) as base:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
        page = ctx.new_page()
        try:
            page.goto(base + "guide/", wait_until="load")
            term = page.locator("article abbr[title]").first
            explanation = term.get_attribute("title")
            assert explanation in GLOSSARY.values()
            term.hover()
            tip = page.locator(".md-tooltip2", has_text=explanation)
            tip.wait_for(state="visible", timeout=5000)
        finally:
            ctx.close()
