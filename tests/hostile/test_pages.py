"""The hostile-pages corpus (tests/hostile/pages/): what a pull request can put under docs/.

Every case is either **refused** with a ``docs/…:line:col`` error by both ``kb validate`` and
``mkdocs build --strict``, or **built inert**: the page builds, the built HTML holds no
script, no event-handler attribute, no active URL, no active element, no title with markup
characters (the theme's tooltips read a title as HTML), no class the theme loads code for; loaded in headless
Chromium no dialog opens and the ``document.title`` canary is untouched; and no canary
file appears (what the template payloads would create).  Body payloads are also reported
by ``kb validate`` as located warnings (errors under ``--strict``).

Cases:
  body-*       hand-written HTML and Markdown in a plain page: built inert
  fm-*         front matter: refused (schema), located at the key; fm-mmd-*: the same keys as
               MultiMarkdown-style "key: value" lines (MkDocs' second metadata form)
  id-*         ids of the theme's and the site's own elements (__config, __search, kb-words, ...):
               refused, located at the id (or the heading it is the anchor of)
  md-*         Markdown shapes Python-Markdown converts in more than linear time (or that crash
               it): refused before rendering, located at the opener that passes the bound
  tpl-*        template code in a template page (docs/index.md): refused, located at the "{{";
               also macro calls with arguments the build would refuse, and calls whose output
               would land in a tag (an attribute, a link's address, a heading's id) or a comment
  file names, static files (script, style sheets), symlinks (made here): refused, located at the file
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from sitebuild import CHROMIUM, CHROMIUM_ARGS, copy_project, serve_directory

PAGES = Path(__file__).resolve().parent / "pages"
SECRET = "kb-secret-canary-7d1f"
CANARY = "CANARY_FILE"
BODY = sorted(p.name for p in PAGES.glob("body-*.md"))
FRONT = sorted(p.name for p in PAGES.glob("fm-*.md"))
TEMPLATE = sorted(p.name for p in PAGES.glob("tpl-*.md"))
IDS = sorted(p.name for p in PAGES.glob("id-*.md"))
SHAPES = sorted(p.name for p in PAGES.glob("md-*.md"))
ACTIVE = re.compile(r"^\s*(javascript|vbscript|data):", re.I)
MARKUP = set("<>&\"'")

# where the refusal is located: (line, col) in the page as placed
FRONT_AT = {
    "fm-subtitle.md": (3, 1),
    "fm-status.md": (2, 1),
    "fm-author.md": (2, 1),
    "fm-template-redirect.md": (2, 11),
    "fm-title-mapping.md": (3, 3),
    "fm-title-bidi.md": (2, 8),
    "fm-hide-bad.md": (2, 7),
    "fm-mmd-subtitle.md": (2, 1),
    "fm-mmd-status.md": (1, 1),
    "fm-mmd-author.md": (1, 1),
    "fm-mmd-template-redirect.md": (1, 11),
    "fm-mmd-continued.md": (3, 1),
}
IDS_AT = {
    "id-config-div.md": (3, 6),
    "id-attr-list.md": (4, 3),
    "id-heading.md": (3, 1),
    "id-anchor-name.md": (3, 4),
}

# template cases whose call is not at the payload's line 2, column 1
TEMPLATE_AT = {"tpl-in-heading.md": (2, 7), "tpl-in-link.md": (2, 6), "tpl-in-comment.md": (2, 6)}


def run_build(project: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("KB_DATA", "KB_DEMOS")}
    env.update({"NO_MKDOCS_2_WARNING": "1", "KB_SECRET_CANARY": SECRET})
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(project / "site")],
        cwd=project,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def run_validate(project: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kb", "validate", "--docs", "docs", *extra],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
    )


def no_canary(project: Path) -> None:
    assert not list(project.rglob(CANARY)), "template code ran: the canary file exists"
    assert not list(Path.cwd().glob(CANARY))


def assert_refused(project: Path, where: str) -> None:
    build = run_build(project)
    out = build.stdout + build.stderr
    assert build.returncode != 0, f"the build passed; expected a refusal at {where}"
    assert where in out, out[-3000:]
    assert "Traceback" not in out, out[-3000:]
    assert not (project / "site" / "index.html").is_file() or SECRET not in (project / "site" / "index.html").read_text(
        "utf-8"
    )
    val = run_validate(project)
    assert val.returncode == 1, val.stdout + val.stderr
    assert where in val.stderr, val.stdout + val.stderr
    no_canary(project)


# --------------------------------------------------------------------------- refused: front matter


@pytest.mark.parametrize("name", FRONT)
def test_front_matter_outside_the_schema_is_refused(tmp_path, name):
    project = copy_project(tmp_path / "p")
    shutil.copyfile(PAGES / name, project / "docs" / "hostile.md")
    line, col = FRONT_AT[name]
    assert_refused(project, f"docs/hostile.md:{line}:{col}:")


# --------------------------------------------------------------------------- refused: reserved ids


@pytest.mark.parametrize("name", IDS)
def test_ids_of_the_theme_and_the_site_are_refused(tmp_path, name):
    project = copy_project(tmp_path / "p")
    shutil.copyfile(PAGES / name, project / "docs" / "hostile.md")
    line, col = IDS_AT[name]
    assert_refused(project, f"docs/hostile.md:{line}:{col}:")


# --------------------------------------------------------------------------- refused: slow Markdown

SHAPES_AT = {
    "md-abbreviations.md": (201, 1),
    "md-autolink-open.md": (1, 289),
    "md-heading-same.md": (65, 1),
    "md-html-nesting.md": (17, 1),
    "md-image-open.md": (1, 164),
    "md-link-nested.md": (1, 225),
    "md-link-open.md": (1, 131),
    "md-long-paragraph.md": (1, 1),
    "md-tag-open.md": (1, 97),
}


@pytest.mark.parametrize("name", SHAPES)
def test_markdown_shapes_of_superlinear_time_are_refused(tmp_path, name):
    project = copy_project(tmp_path / "p")
    shutil.copyfile(PAGES / name, project / "docs" / "hostile.md")
    line, col = SHAPES_AT[name]
    assert_refused(project, f"docs/hostile.md:{line}:{col}:")


# --------------------------------------------------------------------------- refused: template code


@pytest.mark.parametrize("name", TEMPLATE)
def test_template_code_beyond_macro_calls_is_refused(tmp_path, name):
    project = copy_project(tmp_path / "p")
    index = project / "docs" / "index.md"
    base = index.read_text("utf-8")
    index.write_text(base + (PAGES / name).read_text("utf-8"), "utf-8")
    line, col = TEMPLATE_AT.get(name, (2, 1))  # in the payload
    assert_refused(project, f"docs/index.md:{base.count(chr(10)) + line}:{col}:")


# --------------------------------------------------------------------------- refused: files


def _make_files(project: Path, case: str) -> str:
    docs = project / "docs"
    if case == "name-img":
        (docs / "papers").mkdir(exist_ok=True)
        (docs / "papers" / "<img src=x onerror=alert(1)>.md").write_text("# x\n", "utf-8")
        return "docs/papers/<img src=x onerror=alert(1)>.md:1:1:"
    if case == "name-javascript":
        (docs / "javascript:alert(1).md").write_text("# x\n", "utf-8")
        return "docs/javascript:alert(1).md:1:1:"
    if case == "name-newline":
        (docs / "a\n::error::forged.md").write_text("# x\n", "utf-8")
        return "docs/a\\x0a::error::forged.md:1:1:"
    if case.startswith("static-"):
        suffix = case.split(".")[-1]
        target = docs / ("assets" if suffix in ("svg", "css") else "") / f"evil.{suffix}"
        shutil.copyfile(PAGES / case, target)
        return f"docs/{target.relative_to(docs).as_posix()}:1:1:"
    if case == "symlink-page":
        (docs / "osr.md").symlink_to("/etc/os-release")
        return "docs/osr.md:1:1:"
    if case == "symlink-asset":
        (docs / "assets" / "hosts.txt").symlink_to("/etc/hosts")
        return "docs/assets/hosts.txt:1:1:"
    if case == "symlink-dir":
        (docs / "etc").symlink_to("/etc")
        return "docs/etc:1:1:"
    if case == "fifo":
        os.mkfifo(docs / "wait.md")
        return "docs/wait.md:1:1:"
    raise AssertionError(case)


FILE_CASES = [
    "name-img",
    "name-javascript",
    "name-newline",
    "static-evil.html",
    "static-evil.svg",
    "static-evil.js",
    "static-evil.xml",
    "static-evil.css",
    "symlink-page",
    "symlink-asset",
    "symlink-dir",
    "fifo",
]


@pytest.mark.parametrize("case", FILE_CASES)
def test_unsafe_files_under_docs_are_refused(tmp_path, case):
    project = copy_project(tmp_path / "p")
    where = _make_files(project, case)
    assert_refused(project, where)
    if case == "name-newline":  # one line per diagnostic: no forged workflow command
        val = run_validate(project, "--format", "github")
        assert not any(line.startswith("::error::") for line in val.stdout.splitlines())


@pytest.mark.parametrize("target", ["/dev/zero", "/etc/os-release"])
def test_symlinked_data_files_are_refused_before_reading(tmp_path, target):
    project = copy_project(tmp_path / "p")
    (project / "data" / "papers" / "zero.yaml").symlink_to(target)
    build = run_build(project)
    assert build.returncode != 0 and "data/papers/zero.yaml:1:1: is a symbolic link" in build.stdout + build.stderr
    val = subprocess.run(
        [sys.executable, "-m", "kb", "validate"], cwd=project, capture_output=True, text=True, timeout=120
    )
    assert val.returncode == 1 and "data/papers/zero.yaml:1:1: is a symbolic link" in val.stderr


def test_reviewed_static_files_are_published(tmp_path):
    """The allowlist works both ways: a path listed in hooks/static_files.txt is published."""
    project = copy_project(tmp_path / "p")
    shutil.copyfile(PAGES / "static-evil.js", project / "docs" / "assets" / "reviewed.js")
    with (project / "hooks" / "static_files.txt").open("a", encoding="utf-8") as f:
        f.write("assets/reviewed.js\n")
    build = run_build(project)
    assert build.returncode == 0, build.stdout + build.stderr
    assert (project / "site" / "assets" / "reviewed.js").is_file()


# --------------------------------------------------------------------------- inert: page bodies


@pytest.fixture(scope="module")
def inert_site(tmp_path_factory):
    project = copy_project(tmp_path_factory.mktemp("inert") / "p")
    (project / "docs" / "papers").mkdir(exist_ok=True)  # not in the nav (not_in_nav): no nav warning
    for name in BODY:
        shutil.copyfile(PAGES / name, project / "docs" / "papers" / name)
    build = run_build(project)
    assert build.returncode == 0, build.stdout + build.stderr
    return project


def _article(project: Path, name: str) -> BeautifulSoup:
    path = project / "site" / "papers" / name[:-3] / "index.html"
    return BeautifulSoup(path.read_text("utf-8"), "lxml")


@pytest.mark.parametrize("name", BODY)
def test_body_payload_is_built_inert(inert_site, name):
    soup = _article(inert_site, name)
    article = soup.select_one("article")
    for el in article.find_all(True):
        assert el.name not in {
            "script",
            "style",
            "iframe",
            "object",
            "embed",
            "svg",
            "math",
            "form",
            "button",
            "input",
            "meta",
            "base",
            "link",
            "noscript",
            "template",
        }, el
        for attr, value in el.attrs.items():
            assert not attr.startswith("on"), el
            assert attr not in ("style", "srcdoc", "formaction", "action"), el
            if attr in ("href", "src", "data", "action", "poster", "cite"):
                assert not ACTIVE.match(re.sub(r"[\x00-\x20]", "", str(value))), el
            assert attr != "title" or not MARKUP & set(value), el  # Material's tooltip: innerHTML = title
            assert attr != "class" or "mermaid" not in value, el  # Material loads mermaid from unpkg.com
    for script in soup.find_all("script"):  # only the theme's own scripts, never inline page code
        assert "PWNED" not in script.get_text() and "alert(" not in script.get_text(), script
    assert SECRET not in soup.decode()
    no_canary(inert_site)


def test_template_text_in_a_plain_page_is_shown_not_run(inert_site):
    text = _article(inert_site, "body-template-in-plain-page.md").get_text()
    assert "os.popen('touch CANARY_FILE')" in text and '{% include "mkdocs.yml" %}' in text


@pytest.mark.parametrize("name", BODY)
def test_kb_validate_reports_what_the_build_strips(inert_site, name):
    if name == "body-template-in-plain-page.md":
        pytest.skip("template syntax in a plain page is an error of its own (tested in test_corpus.py)")
    # one page at a time, in a copy, so each warning is the page's own
    project = inert_site.parent / f"v-{name}"
    if not project.exists():
        copy_project(project)
        shutil.copyfile(PAGES / name, project / "docs" / name)
    plain = run_validate(project)
    assert plain.returncode == 0, plain.stdout + plain.stderr
    done = "(the build strips it|the build shows them as full-width look-alikes)"
    assert re.search(rf"^docs/{re.escape(name)}:\d+:\d+: warning: .*{done}$", plain.stdout, re.M), plain.stdout
    strict = run_validate(project, "--strict")
    assert strict.returncode == 1
    assert re.search(rf"^docs/{re.escape(name)}:[34]:\d+: warning:", strict.stderr, re.M), strict.stderr


def browse(site: Path, paths: list[str]) -> tuple[list[str], list[str]]:
    """Load each path of ``site`` in headless Chromium, fire what a reader would (hover, focus,
    click, open details) and return (paths whose title canary changed, dialogs opened)."""
    from playwright.sync_api import sync_playwright

    dialogs: list[str] = []
    changed: list[str] = []
    with serve_directory(site) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.on("dialog", lambda d: (dialogs.append(f"{page.url}: {d.message}"), d.dismiss()))
            for path in paths:
                page.goto(base + path, wait_until="load")
                page.wait_for_timeout(300)
                before = page.title()
                # clicks run every handler but follow no link (a click on a span inside a nav link would
                # leave the page mid-check), except javascript: links, whose "navigation" runs code
                page.evaluate("""() => {
                    document.addEventListener('click', e => {
                        const a = e.target.closest && e.target.closest('a');
                        if (!a || a.protocol !== 'javascript:') e.preventDefault();
                    }, true);
                    for (const el of document.querySelectorAll('body *')) {
                        for (const t of ['mouseover', 'mouseenter', 'focus', 'click'])
                            if (t !== 'click' || el.tagName !== 'A' || el.protocol === 'javascript:')
                                el.dispatchEvent(new MouseEvent(t, {bubbles: true, cancelable: true}));
                    }
                    for (const d of document.querySelectorAll('details')) d.open = !d.open;
                }""")
                page.wait_for_timeout(200)
                if "PWNED" in before or "PWNED" in page.title():
                    changed.append(path)
        finally:
            browser.close()
    return changed, dialogs


needs_chromium = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium")


@needs_chromium
def test_the_browser_check_catches_a_live_payload(tmp_path):
    """Control: the same check on unsanitized HTML sees the canary and the dialog."""
    (tmp_path / "live.html").write_text(
        "<title>t</title><img src=x onerror=\"document.title='PWNED'\"><p onmouseover=\"alert('hover')\">p</p>", "utf-8"
    )
    changed, dialogs = browse(tmp_path, ["live.html"])
    assert changed == ["live.html"] and len(dialogs) == 1


@needs_chromium
def test_body_payloads_do_nothing_in_chromium(inert_site):
    changed, dialogs = browse(inert_site / "site", [f"papers/{name[:-3]}/" for name in BODY])
    assert changed == [] and dialogs == []
    no_canary(inert_site)
