"""The demo markup and assets: escaping, completeness, nothing from the network."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from demopage import KERNELS, shader_name
from kb.data.models import Demo
from kb.demos import render
from kb.demos.render import ASSET_DIR, HEADING, SCRIPT, STYLE, asset_files, demo_section

HOSTILE_TITLE = '"><script>alert(1)</script><b onclick=x>'
HOSTILE_DESC = "<img src=x onerror=alert(1)> & 'q' \"dq\"\n\n第二段 </div><iframe src=//evil.example>"


def _demo(kernel: str = "softmax", **kw) -> Demo:
    return Demo(id=kw.pop("id", f"t-{kernel}"), kernel=kernel, title=kw.pop("title", "标题"), **kw)


def _soup(html: str) -> BeautifulSoup:
    return BeautifulSoup(html, "html.parser")


def _event_attrs(soup: BeautifulSoup) -> list[str]:
    return [f"{tag.name}@{a}" for tag in soup.find_all(True) for a in tag.attrs if a.lower().startswith("on")]


def test_kernel_vocabulary_matches_the_model():
    assert set(KERNELS) == {"softmax", "rmsnorm", "gemv", "attention-decode"}
    assert set(render.KERNEL_LABELS) == set(KERNELS)


@pytest.mark.parametrize("kernel", KERNELS)
def test_every_kernel_has_a_shader_and_a_harness_entry(kernel):
    assert shader_name(kernel) in [p.name for p in asset_files()]
    wgsl = (ASSET_DIR / shader_name(kernel)).read_text("utf-8")
    assert "@compute" in wgsl and "fn main(" in wgsl
    assert "@workgroup_size(WG)" in wgsl  # one constant drives the size and the strided loops
    js = (ASSET_DIR / SCRIPT).read_text("utf-8")
    assert re.search(rf"^\s*'?{re.escape(kernel)}'?: \{{", js, re.MULTILINE), (
        f"{kernel} missing from KERNELS in {SCRIPT}"
    )


def test_asset_list():
    names = [p.name for p in asset_files()]
    assert SCRIPT in names and STYLE in names
    assert names == sorted(names)
    assert len(names) == len(KERNELS) + 2
    for path in asset_files():
        assert path.parent == ASSET_DIR  # flat: matched by the package-data glob "demos/assets/*"
        assert path.is_file()


def test_assets_need_no_network_and_no_dynamic_code():
    for path in asset_files():
        text = path.read_text("utf-8")
        for bad in ("http://", "https://", "//cdn", "@import"):
            assert bad not in text, f"{path.name} mentions {bad!r}"
    js = (ASSET_DIR / SCRIPT).read_text("utf-8")
    assert not re.search(r"^\s*import\s", js, re.MULTILINE), "the harness must stay dependency-free"
    for bad in ("innerHTML", "outerHTML", "insertAdjacentHTML", "eval(", "new Function", "document.write"):
        assert bad not in js, f"{SCRIPT} uses {bad}"
    assert "import.meta.url" in js  # shaders are found next to the script


def test_fallback_message_is_plain_chinese():
    js = (ASSET_DIR / SCRIPT).read_text("utf-8")
    assert "此浏览器不支持 WebGPU，仅运行 CPU 参考实现" in js


def test_block_escapes_hostile_title_and_description():
    demo = _demo(title=HOSTILE_TITLE, description=HOSTILE_DESC)
    html = demo_section([demo], "../assets/kb-demos")
    soup = _soup(html)
    assert soup.find("h3").get_text() == HOSTILE_TITLE
    descs = [p.get_text() for p in soup.select("p.kb-demo-desc")]
    assert descs == ["<img src=x onerror=alert(1)> & 'q' \"dq\"", "第二段 </div><iframe src=//evil.example>"]
    assert soup.find("img") is None and soup.find("iframe") is None and soup.find("b") is None
    assert _event_attrs(soup) == []
    scripts = soup.find_all("script")
    assert len(scripts) == 1
    assert scripts[0]["src"] == "../assets/kb-demos/kb-demos.js" and scripts[0]["type"] == "module"
    assert scripts[0].string is None
    for raw in ("<script>alert", "<img", "<iframe", "<b ", "</div><iframe"):
        assert raw not in html


def test_block_escapes_the_id_even_if_validation_was_bypassed():
    demo = Demo.model_construct(
        id='x" onmouseover="alert(1)', kernel="gemv", title="t", description=None, papers=[], sections=[]
    )
    soup = _soup(demo_section([demo], "a"))
    block = soup.select_one("div.kb-demo")
    assert block["data-demo-id"] == 'x" onmouseover="alert(1)'
    assert block["data-kernel"] == "gemv"
    assert _event_attrs(soup) == []


def test_block_carries_the_data_attributes_the_harness_reads():
    soup = _soup(demo_section([_demo("attention-decode", id="attn")], "assets/"))
    block = soup.select_one("div.kb-demo")
    assert block["data-kernel"] == "attention-decode"
    assert block["data-demo-id"] == "attn"
    assert block["id"] == "kb-demo-attn"
    assert soup.select_one(".kb-demo-body noscript") is not None
    assert soup.find("link")["href"] == "assets/kb-demos.css"  # trailing slash is not doubled


@pytest.mark.parametrize(
    "base, expected",
    [
        ("", "kb-demos.js"),
        ("/", "kb-demos.js"),
        ("../../assets/kb-demos/", "../../assets/kb-demos/kb-demos.js"),
        ('x"><script>', 'x"><script>/kb-demos.js'),
    ],
)
def test_asset_base_url(base, expected):
    soup = _soup(demo_section([_demo()], base))
    assert soup.find("script")["src"] == expected
    assert len(soup.find_all("script")) == 1


def test_section():
    demos = [_demo(k) for k in KERNELS]
    html = demo_section(demos, "assets")
    soup = _soup(html)
    assert soup.find("h2").get_text() == HEADING == "可运行的内核演示"
    assert [d["data-kernel"] for d in soup.select("div.kb-demo")] == list(KERNELS)
    assert len(soup.find_all("script")) == 1 and len(soup.find_all("link")) == 1


def test_section_without_demos_is_empty():
    assert demo_section([], "assets") == ""


@pytest.mark.parametrize(
    "html",
    [
        demo_section([_demo(description="一\n\n\n二\n  三")], "a"),
        demo_section([_demo(k, description="段一\n\n段二") for k in KERNELS], "a"),
    ],
)
def test_markup_has_no_blank_lines_or_indentation(html):
    # Safe to drop into Markdown: one raw-HTML block, never an indented code block.
    for line in html.splitlines():
        assert line.strip(), "blank line"
        assert not line.startswith((" ", "\t"))
