"""The WebGPU demo option: off ships nothing of the demos; on puts blocks on the declared pages."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from sitebuild import build


def _all_text(site):
    for path in site.rglob("*"):
        if path.is_file() and path.suffix in (".html", ".js", ".css", ".json", ".xml", ".wgsl"):
            yield path, path.read_text("utf-8", errors="replace")


def test_off_by_default_ships_no_demo_assets_or_markup(site):
    assert not (site / "assets" / "kb-demos").exists()
    assert not list(site.rglob("*.wgsl"))
    for path, text in _all_text(site):
        assert "kb-demos" not in text and "kb-demo" not in text and "@compute" not in text, path


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory):
    dest = tmp_path_factory.mktemp("demo-site")
    run = build(dest, {"KB_DEMOS": "1"})
    assert run.returncode == 0, run.stdout + run.stderr
    return dest


def test_on_ships_assets_and_blocks_where_declared(demo_site):
    assets = {p.name for p in (demo_site / "assets" / "kb-demos").iterdir()}
    assert {"softmax.wgsl", "rmsnorm.wgsl", "gemv.wgsl", "attention-decode.wgsl", "kb-demos.js"} <= assets
    retro = BeautifulSoup((demo_site / "papers/retroinfer/index.html").read_text("utf-8"), "lxml")
    blocks = retro.select(".kb-demo")
    assert [b["data-kernel"] for b in blocks] == ["attention-decode"]
    script = retro.find("script", src=lambda s: s and s.endswith("kb-demos.js"))
    assert script is not None and script["src"] == "../../assets/kb-demos/kb-demos.js"
    living = BeautifulSoup((demo_site / "inference/index.html").read_text("utf-8"), "lxml")
    kernels = sorted(b["data-kernel"] for b in living.select(".kb-demo"))
    assert kernels == ["attention-decode", "gemv", "rmsnorm", "softmax"]
    ssr = BeautifulSoup((demo_site / "papers/ssr/index.html").read_text("utf-8"), "lxml")
    assert not ssr.select(".kb-demo")
