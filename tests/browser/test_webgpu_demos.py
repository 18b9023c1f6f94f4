"""WebGPU kernel demos in a real browser: GPU results against the CPU reference, and the fallback.

A temporary directory holding ``standalone_page`` and the assets (laid out as in
the site: page in ``demos/``, assets in ``assets/kb-demos/``) is served on
127.0.0.1 from a thread; Debian's chromium is driven through Playwright.  No
browser is downloaded and nothing leaves 127.0.0.1.

Chromium flags (Chromium 156, Debian bookworm, headless, no GPU):

* ``--enable-unsafe-webgpu`` is all that is needed: Dawn falls back to its
  SwiftShader (software Vulkan) adapter, reported as vendor ``google``,
  architecture ``swiftshader``.  ``--use-angle=swiftshader``,
  ``--enable-features=Vulkan`` and ``--use-webgpu-adapter=swiftshader`` were
  tried too and change nothing here.
* Without that flag ``navigator.gpu`` exists but ``requestAdapter()`` resolves to
  ``null`` (console: "No available adapters"): the "no adapter" fallback.
* ``navigator.gpu`` only exists in a secure context: ``http://127.0.0.1`` is
  one, ``about:blank`` is not, so the page must be served, not opened.

SwiftShader runs every invocation of a workgroup on the CPU and is slow with
many workgroups (about 0.5 ms each), so the sizes below stay small; the
two-dimensional dispatch used for more than 65535 workgroups is covered with
the harness's test-only ``gridX`` option instead of huge sizes.
"""

from __future__ import annotations

import functools
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from demopage import KERNELS, shader_name, standalone_page
from kb.data.models import Demo
from kb.demos import SITE_DIR
from kb.demos.render import ASSET_DIR, asset_files

CHROMIUM = Path("/usr/bin/chromium")
COMMON_FLAGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WEBGPU_FLAGS = COMMON_FLAGS + ["--enable-unsafe-webgpu"]
NO_GPU_MISSING = "此浏览器不支持 WebGPU，仅运行 CPU 参考实现。"
NO_GPU_ADAPTER = "此浏览器不支持 WebGPU（未取得 GPU 适配器），仅运行 CPU 参考实现。"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} not installed (Debian package chromium); no browser is downloaded"
    ),
]

DEMOS = [Demo(id=f"t-{k}", kernel=k, title=f"测试 {k}") for k in KERNELS]

# Sizes include 1, exact multiples of the workgroup size (256) and sizes just off them.
CASES = {
    "softmax": [
        {"rows": 1, "cols": 1},
        {"rows": 3, "cols": 257},
        {"rows": 5, "cols": 256},
        {"rows": 2, "cols": 1000},
        {"rows": 1, "cols": 4099},
    ],
    "rmsnorm": [
        {"rows": 1, "cols": 1},
        {"rows": 4, "cols": 255},
        {"rows": 2, "cols": 512},
        {"rows": 3, "cols": 4097},
    ],
    "gemv": [
        {"rows": 1, "cols": 1},
        {"rows": 7, "cols": 257},
        {"rows": 33, "cols": 1000},
        {"rows": 16, "cols": 4099},
        {"rows": 64, "cols": 256},
    ],
    "attention-decode": [
        {"heads": 1, "len": 1, "dim": 1, "topk": 0},
        {"heads": 3, "len": 257, "dim": 64, "topk": 0},
        {"heads": 2, "len": 256, "dim": 128, "topk": 0},
        {"heads": 2, "len": 1000, "dim": 100, "topk": 37},  # top-k sparse
        {"heads": 1, "len": 513, "dim": 256, "topk": 1},
        {"heads": 2, "len": 300, "dim": 80, "topk": 300},  # k = L: same as dense
        {"heads": 1, "len": 77, "dim": 3, "topk": 76},
    ],
}
# Few workgroups, folded into a 2-D grid with empty tail workgroups (gx * gy > count).
GRID_CASES = [
    ("gemv", {"rows": 37, "cols": 300}, 5),
    ("softmax", {"rows": 10, "cols": 300}, 3),
    ("rmsnorm", {"rows": 10, "cols": 300}, 4),
    ("attention-decode", {"heads": 5, "len": 100, "dim": 32, "topk": 9}, 2),
]


class _Handler(SimpleHTTPRequestHandler):
    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".wgsl": "text/plain; charset=utf-8",
        ".css": "text/css",
    }

    def log_message(self, format, *args):  # keep test output quiet
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Base URL of a served directory: demos/index.html and the assets at SITE_DIR."""
    root = tmp_path_factory.mktemp("demo-site")
    assets = root / SITE_DIR
    assets.mkdir(parents=True)
    for f in asset_files():
        shutil.copy(f, assets / f.name)
    (root / "demos").mkdir()
    (root / "demos" / "index.html").write_text(standalone_page(DEMOS, f"../{SITE_DIR}"), "utf-8")
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


@pytest.fixture(scope="module")
def playwright():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


def _launch(playwright, args):
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=args)


class Tab:
    """A page on the demo site that records errors and every URL it asks for."""

    def __init__(self, browser, base: str, init_script: str | None = None):
        self.base = base
        self.context = browser.new_context()
        if init_script:
            self.context.add_init_script(init_script)
        self.page = self.context.new_page()
        self.page.set_default_timeout(120_000)
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.page.on("console", lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None)
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(f"{base}/demos/index.html")
        self.page.wait_for_function("() => window.kbDemos !== undefined")
        self.page.evaluate("() => window.kbDemos.ready")

    def run(self, demo_id: str, sizes: dict, options: dict | None = None) -> dict:
        return self.page.evaluate("([id, s, o]) => window.kbDemos.run(id, s, o)", [demo_id, sizes, options or {}])

    def status(self, demo_id: str):
        return self.page.locator(f'.kb-demo[data-demo-id="{demo_id}"] .kb-demo-status')

    def assert_clean(self):
        assert self.errors == []
        for url in self.requests:
            parts = urlsplit(url)
            assert f"{parts.scheme}://{parts.netloc}" == self.base, f"request left the site: {url}"

    def close(self):
        self.context.close()


@pytest.fixture(scope="module")
def gpu_browser(playwright):
    browser = _launch(playwright, WEBGPU_FLAGS)
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def gpu_tab(gpu_browser, site):
    tab = Tab(gpu_browser, site)
    adapter = tab.page.evaluate(
        "async () => { const a = navigator.gpu && await navigator.gpu.requestAdapter(); return !!a; }"
    )
    assert adapter, "chromium started with --enable-unsafe-webgpu but gave no WebGPU adapter"
    yield tab
    tab.close()


def _check_gpu_result(res: dict, sizes: dict):
    assert res["backend"] == "webgpu"
    assert res["unit"] == "GB/s"
    assert 0 < res["tolerance"] <= 1e-3
    assert res["maxAbsErr"] is not None and res["maxAbsErr"] <= res["tolerance"], res
    assert res["ok"] is True
    assert res["msPerRun"] >= 0 and res["cpuMsPerRun"] > 0
    if res["msPerRun"] > 0:
        assert res["throughput"] > 0 and res["gflops"] > 0
    for key, value in sizes.items():
        assert res["sizes"][key] == value


@pytest.mark.parametrize(
    "kernel, sizes",
    [(k, s) for k in KERNELS for s in CASES[k]],
    ids=lambda v: v if isinstance(v, str) else "x".join(map(str, v.values())),
)
def test_gpu_matches_cpu_reference(gpu_tab, kernel, sizes):
    res = gpu_tab.run(f"t-{kernel}", {**sizes, "reps": 2})
    _check_gpu_result(res, sizes)
    state = gpu_tab.page.get_attribute(f'.kb-demo[data-demo-id="t-{kernel}"]', "data-state")
    assert state == "ok"
    gpu_tab.assert_clean()


@pytest.mark.parametrize("kernel, sizes, grid_x", GRID_CASES, ids=[c[0] for c in GRID_CASES])
def test_two_dimensional_grid(gpu_tab, kernel, sizes, grid_x):
    res = gpu_tab.run(f"t-{kernel}", {**sizes, "reps": 1}, {"gridX": grid_x})
    _check_gpu_result(res, sizes)
    gpu_tab.assert_clean()


def test_every_kernel_is_covered():
    assert set(CASES) == set(KERNELS)
    assert {c[0] for c in GRID_CASES} == set(KERNELS)
    for kernel, cases in CASES.items():
        dims = [v for s in cases for k, v in s.items() if k != "topk"]
        assert any(v % 256 for v in dims if v > 256), f"{kernel}: no size past a workgroup multiple"


def test_page_shows_source_status_and_inputs(gpu_tab):
    page = gpu_tab.page
    for kernel in KERNELS:
        block = page.locator(f'.kb-demo[data-demo-id="t-{kernel}"]')
        assert block.locator("pre code").text_content() == (ASSET_DIR / shader_name(kernel)).read_text("utf-8")
        status = block.locator(".kb-demo-status").inner_text()
        assert "WebGPU 可用" in status and "不支持" not in status
        assert block.locator("input[type=number]").count() >= 3
        assert block.locator("button", has_text="运行").is_visible()
    gpu_tab.assert_clean()


def test_run_button_with_edited_sizes(gpu_tab):
    page = gpu_tab.page
    block = page.locator('.kb-demo[data-demo-id="t-gemv"]')
    block.locator("input[name=rows]").fill("21")
    block.locator("input[name=cols]").fill("333")
    block.locator("input[name=reps]").fill("2")
    block.locator("button", has_text="运行").click()
    page.wait_for_function(
        """() => ['ok', 'fail', 'error'].includes(
            document.querySelector('.kb-demo[data-demo-id="t-gemv"]').dataset.state)"""
    )
    assert block.get_attribute("data-state") == "ok"
    text = block.locator(".kb-demo-result").inner_text()
    for part in ("WebGPU", "通过", "最大绝对误差", "容差", "ms", "GB/s", "GFLOP/s"):
        assert part in text
    gpu_tab.assert_clean()


def test_bad_sizes_are_refused_plainly(gpu_tab):
    from playwright.sync_api import Error

    with pytest.raises(Error, match="应为 1 到"):
        gpu_tab.run("t-softmax", {"rows": 0, "cols": 5})
    with pytest.raises(Error, match="top-k 不能大于"):
        gpu_tab.run("t-attention-decode", {"heads": 1, "len": 4, "dim": 4, "topk": 5})
    with pytest.raises(Error, match="未知的尺寸参数"):
        gpu_tab.run("t-gemv", {"rowz": 3})
    assert gpu_tab.page.get_attribute('.kb-demo[data-demo-id="t-attention-decode"]', "data-state") == "error"
    assert "出错" in gpu_tab.page.locator('.kb-demo[data-demo-id="t-attention-decode"] [role=alert]').inner_text()
    gpu_tab.errors.clear()  # the page logs nothing for these, but be explicit
    gpu_tab.assert_clean()


def test_a_wrong_kernel_is_caught(gpu_browser, site):
    """The check is real: a softmax shader that is off by 1% fails against the reference."""
    tab = Tab(gpu_browser, site)
    try:
        good = (ASSET_DIR / shader_name("softmax")).read_text("utf-8")
        bad = good.replace("* inv;", "* inv * 1.01;")
        assert bad != good
        tab.page.route("**/softmax.wgsl", lambda route: route.fulfill(status=200, content_type="text/plain", body=bad))
        tab.page.reload()
        tab.page.wait_for_function("() => window.kbDemos !== undefined")
        tab.page.evaluate("() => window.kbDemos.ready")
        res = tab.run("t-softmax", {"rows": 2, "cols": 3, "reps": 1})
        assert res["backend"] == "webgpu" and res["ok"] is False and res["maxAbsErr"] > res["tolerance"]
        block = tab.page.locator('.kb-demo[data-demo-id="t-softmax"]')
        assert block.get_attribute("data-state") == "fail"
        assert "失败" in block.locator(".kb-demo-result").inner_text()
    finally:
        tab.close()


# ---------------------------------------------------------------------- no WebGPU

SMALL = {
    "softmax": {"rows": 3, "cols": 257},
    "rmsnorm": {"rows": 2, "cols": 300},
    "gemv": {"rows": 9, "cols": 1001},
    "attention-decode": {"heads": 2, "len": 300, "dim": 64, "topk": 10},
}


def _check_fallback(tab: Tab, message: str):
    page = tab.page
    for kernel in KERNELS:
        demo_id = f"t-{kernel}"
        status = tab.status(demo_id)
        assert status.is_visible()
        assert status.inner_text() == message
        res = tab.run(demo_id, {**SMALL[kernel], "reps": 2})
        assert res["backend"] == "cpu"
        assert res["ok"] is None and res["maxAbsErr"] is None
        assert res["msPerRun"] > 0 and res["throughput"] > 0 and res["unit"] == "GB/s"
        block = page.locator(f'.kb-demo[data-demo-id="{demo_id}"]')
        assert block.get_attribute("data-state") == "cpu"
        text = block.locator(".kb-demo-result").inner_text()
        assert "仅 CPU 参考实现" in text and "GB/s" in text
        # the source is still shown
        assert "@compute" in block.locator("pre code").text_content()


def test_fallback_without_navigator_gpu(gpu_browser, site):
    """WebGPU-capable browser, but the page sees no navigator.gpu (as in browsers without WebGPU)."""
    tab = Tab(gpu_browser, site, init_script="delete Navigator.prototype.gpu;")
    try:
        assert tab.page.evaluate("() => navigator.gpu === undefined")
        _check_fallback(tab, NO_GPU_MISSING)
        tab.assert_clean()
    finally:
        tab.close()


def test_fallback_without_adapter(playwright, site):
    """Chromium without --enable-unsafe-webgpu here: navigator.gpu exists, requestAdapter() gives null."""
    browser = _launch(playwright, COMMON_FLAGS)
    try:
        tab = Tab(browser, site)
        _check_fallback(tab, NO_GPU_ADAPTER)
        tab.errors = [e for e in tab.errors if "No available adapters" not in e]
        tab.assert_clean()
        tab.close()
    finally:
        browser.close()
