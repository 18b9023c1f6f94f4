"""The hostile-input corpus: each fixture names what it attacks (first comment line).

Either `kb validate` refuses it with a located error, or the site builds and the
parsed HTML shows the payload inert: no script, event handler or dangerous URL
came from data, the canary file a payload tries to create does not exist, and no
environment variable value leaks into the output.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from overlay import BASE  # the valid base data set of the fixture overlays
from sitebuild import FIXTURE_DATA, ROOT, build, copy_project

CORPUS = Path(__file__).resolve().parent / "corpus"
SECRET = "kb-canary-secret-4f1e9a"
REJECTED = sorted(
    p.name for p in CORPUS.iterdir() if p.name.startswith(("papers__", "briefs__")) and "bom-crlf" not in p.name
)


def place(data: Path, fixture: Path) -> Path:
    parts = fixture.name.removeprefix("inert__").split("__")
    dest = data.joinpath(*parts[:-1], parts[-1])
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(fixture, dest)
    return dest


def validate(data: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kb", "validate", "--data", str(data), "--format", "json"],
        cwd=data.parent,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_every_fixture_says_what_it_attacks():
    for path in CORPUS.iterdir():
        head = path.read_bytes()[:400].decode("utf-8", "replace")
        assert "attacks:" in head, path.name


@pytest.mark.parametrize("name", REJECTED)
def test_rejected_with_a_located_error(tmp_path, name):
    data = tmp_path / "data"
    shutil.copytree(BASE, data)
    dest = place(data, CORPUS / name)
    run = validate(data)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    diags = [d for d in json.loads(run.stdout) if d["severity"] == "error" and d["path"].endswith(dest.name)]
    assert diags, run.stdout
    assert all(d["line"] >= 1 and d["col"] >= 1 and d["message"] for d in diags)
    if "alias-bomb" in name:
        assert diags[0]["line"] == 4 and "anchor" in diags[0]["message"]
    if "huge-string" in name or "deep-nesting" in name:
        assert any(d["code"] if "code" in d else True for d in diags)


def test_bom_and_crlf_load_as_ordinary_text(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(BASE, data)
    place(data, CORPUS / "papers__bom-crlf.yaml")
    run = validate(data)
    assert run.returncode == 0, run.stdout + run.stderr
    from kb.knowledge.load import load_kb

    assert load_kb(data).papers["bom-crlf"].short == "BOM CRLF paper"


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory):
    work = tmp_path_factory.mktemp("hostile")
    data = work / "data"
    shutil.copytree(FIXTURE_DATA, data)  # the living document's macros need the real sections
    for fixture in CORPUS.glob("inert__*"):
        place(data, fixture)
    run = validate(data)
    assert run.returncode == 0, run.stdout + run.stderr
    dest = work / "site"
    result = build(dest, {"KB_SECRET_CANARY": SECRET}, data=data)
    assert result.returncode == 0, result.stdout + result.stderr
    return work, dest


def _pages(site: Path):
    for path in sorted(site.rglob("*.html")):
        yield path, BeautifulSoup(path.read_text("utf-8"), "lxml")


def assert_inert(work: Path, site: Path) -> None:
    assert not (work / "CANARY_FILE").exists() and not (ROOT / "CANARY_FILE").exists()
    for path in site.rglob("*"):
        if path.is_file() and path.suffix in (".html", ".json", ".xml", ".js", ".txt", ".bib"):
            assert SECRET not in path.read_text("utf-8", errors="replace"), path
    for path, soup in _pages(site):
        for script in soup.find_all("script"):
            assert "alert(" not in (script.string or "") and "alert(" not in script.get("src", ""), path
        for el in soup.find_all(True):
            for attr, value in el.attrs.items():
                assert not attr.lower().startswith("on"), (path, el.name, attr)
                if attr in ("href", "src", "action", "formaction", "xlink:href"):
                    v = value if isinstance(value, str) else " ".join(value)
                    assert not re.match(r"\s*(javascript|data|vbscript):", v, re.I), (path, el.name, v)
        for tag in ("iframe", "object", "embed", "form", "foreignobject", "b", "img"):
            for el in soup.find_all(tag):  # the site itself uses none of these with data in them
                assert "alert" not in str(el), (path, tag)
        for svg in soup.find_all("svg"):  # charts: data only as escaped text nodes
            assert not svg.find_all(["script", "foreignobject", "iframe"]), path
        assert len(soup.head.find_all("title")) == 1, path  # nothing broke out of <title>


def test_hostile_data_builds_and_stays_inert(hostile_site):
    work, site = hostile_site
    assert_inert(work, site)


def test_payloads_show_as_literal_text(hostile_site):
    _, site = hostile_site
    paper = BeautifulSoup((site / "papers/evil-paper/index.html").read_text("utf-8"), "lxml")
    text = paper.select_one("article").get_text(" ")
    assert "{{ 7*7 }}<script>alert('short')</script>" in text
    assert "{% for x in range(3) %}LOOP{% endfor %}" in text
    assert "__init__ C++ a<b {{BERT}} `code` *em* &amp; &#x3C;script&#x3E;" in text
    assert "49" not in paper.select_one("article h1").get_text()
    bibtex = paper.select_one("pre.kb-bibtex code").get_text()
    assert "<img src=x onerror=alert('fence')>" in bibtex  # backticks in a title cannot close the block
    brief = BeautifulSoup((site / "briefs/inference/2026-09-04-e1/index.html").read_text("utf-8"), "lxml")
    btext = brief.select_one("article").get_text(" ")
    assert "cycler.__init__.__globals__.os.popen('touch CANARY_FILE').read()" in btext
    assert "<script>alert('label')</script>" in btext


def _copy_project(dest: Path) -> None:
    copy_project(dest)
    (dest / "docs" / "papers").mkdir(exist_ok=True)  # pages there are not in the nav (not_in_nav)


def _build_project(project: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "KB_SECRET_CANARY": SECRET}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(project / "site")],
        cwd=project,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_hand_written_page_cannot_opt_into_macros(tmp_path):
    _copy_project(tmp_path)
    shutil.copyfile(CORPUS / "page__evil-page.md", tmp_path / "docs" / "papers" / "evil-page.md")
    run = _build_project(tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert_inert(tmp_path, tmp_path / "site")
    soup = BeautifulSoup((tmp_path / "site/papers/evil-page/index.html").read_text("utf-8"), "lxml")
    assert "os.popen('touch CANARY_FILE')" in soup.select_one("article").get_text()  # shown, not run
    assert "{{ environment }}" in soup.select_one("article").get_text()
    assert soup.find("title").get_text().startswith("</title><script>alert('fm-title')</script>")
    desc = soup.find("meta", attrs={"name": "description"})
    assert desc["content"] == '"><script>alert("fm-desc")</script>'
    # and kb validate names the page
    val = subprocess.run(
        [sys.executable, "-m", "kb", "validate", "--docs", "docs"], cwd=tmp_path, capture_output=True, text=True
    )
    assert val.returncode == 1 and "docs/papers/evil-page.md:3:1" in val.stderr


@pytest.mark.parametrize("fixture", ["page__alias-front-matter.md", "page__alias-front-matter-blanks.md"])
def test_front_matter_alias_bomb_fails_the_build_with_a_location(tmp_path, fixture):
    _copy_project(tmp_path)
    shutil.copyfile(CORPUS / fixture, tmp_path / "docs" / "papers" / "alias-page.md")
    run = _build_project(tmp_path)
    assert run.returncode != 0
    assert "docs/papers/alias-page.md:3:4" in run.stdout + run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    val = subprocess.run([sys.executable, "-m", "kb", "validate"], cwd=tmp_path, capture_output=True, text=True)
    assert val.returncode == 1 and "docs/papers/alias-page.md:3:4" in val.stderr
