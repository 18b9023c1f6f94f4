"""kb preview's HTTP server (kb.site.preview.serve.Server, the standard library's): each served page
carries the reload script with the number of the build it was served after, a reload request
is answered once a later build has ended, and a failed build's errors are atop every page and
answer a missing one."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from kb.site.preview import Project, serve


@pytest.fixture
def server(tmp_path: Path):
    site = tmp_path / "site"
    (site / "guide").mkdir(parents=True)
    (site / "guide" / "index.html").write_text("<html><body class=x><p>指南</p></body></html>", "utf-8")
    (site / "404.html").write_text("<html><body>没有这一页</body></html>", "utf-8")
    (site / "a.css").write_text("p{}", "utf-8")
    project = Project(tmp_path / "mkdocs.yml", tmp_path / "data", site, tmp_path / "docs", None)
    made = serve.Server(serve.Builder(project, print, print), "127.0.0.1", 0)
    threading.Thread(target=made.serve_forever, daemon=True).start()
    yield made
    made.shutdown()
    made.server_close()


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, answer.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


def test_a_page_reloads_after_the_next_build(server):
    status, page = get(server.url + "guide/")
    assert status == 200 and "<p>指南</p><script>" in page and "livereload" in page
    assert f"'{serve.RELOAD}?epoch='" in page and "})(0)</script></body>" in page  # served after build 0
    answers: list[str] = []
    waiting = threading.Thread(target=lambda: answers.append(get(f"{server.url}{serve.RELOAD[1:]}?epoch=0")[1]))
    waiting.start()
    waiting.join(0.3)
    assert waiting.is_alive()  # held until a build ends
    server.reload()
    waiting.join(10)
    assert answers == ["1"]
    assert get(server.url + "guide/")[1].endswith("})(1)</script></body></html>")
    assert get(server.url + "a.css") == (200, "p{}")  # other files as they are


def test_errors_of_a_failed_build_are_atop_every_page_and_answer_a_missing_one(server):
    assert get(server.url + "nowhere/") == (404, get(server.url + "404.html")[1])
    assert "没有这一页" in get(server.url + "nowhere/")[1]
    server.builder.errors = ["data/x.yaml:1:1: 坏了"]
    status, page = get(server.url + "guide/")
    assert status == 200 and page.startswith('<html><body class=x><div id="kb-preview-errors"')
    assert "data/x.yaml:1:1: 坏了" in page and "<p>指南</p>" in page
    status, page = get(server.url + "nowhere/")
    assert status == 404 and "kb-preview-errors" in page and "没有这一页" not in page
