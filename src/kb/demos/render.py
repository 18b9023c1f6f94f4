"""HTML for the WebGPU kernel demos: pure functions, no MkDocs.

A demo block is inert markup (``<div class="kb-demo" data-kernel=… data-demo-id=…>``)
that ``kb-demos.js`` turns into a runnable demo; the script fetches the WGSL
shaders next to itself.  Every string that comes from data is escaped with
``html.escape(quote=True)``; nothing from data reaches a script or a URL, and
the markup has no inline scripts, styles or event handlers.  The output has no
blank lines, so it stays one raw-HTML block even if it is put into Markdown.

``asset_base_url`` is the URL (usually relative to the page) of the directory
holding :func:`asset_names`, e.g. ``../assets/kb-demos``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import escape
from pathlib import Path
from typing import get_args

from kb.data.models import Demo
from kb.messages import UI

ASSET_DIR = Path(__file__).parent / "assets"
SCRIPT = "kb-demos.js"
STYLE = "kb-demos.css"
KERNELS: tuple[str, ...] = get_args(Demo.model_fields["kernel"].annotation)
KERNEL_LABELS = {k: UI[f"demos.{k}"] for k in ("softmax", "rmsnorm", "gemv", "attention-decode")}
HEADING = UI["demos.heading"]
INTRO = UI["demos.intro"]
_SUFFIXES = {".js", ".css", ".wgsl"}


def shader_name(kernel: str) -> str:
    return f"{kernel}.wgsl"


def asset_files() -> list[Path]:
    """The files to copy into the site (script, style sheet and one shader per kernel)."""
    return sorted(p for p in ASSET_DIR.iterdir() if p.is_file() and p.suffix in _SUFFIXES)


def asset_names() -> list[str]:
    return [p.name for p in asset_files()]


def _esc(value: object) -> str:
    return escape(str(value), quote=True)


def _url(base: str, name: str) -> str:
    base = base.rstrip("/")
    return _esc(f"{base}/{name}" if base else name)


def asset_tags(asset_base_url: str) -> str:
    """The style sheet and the module script; a page needs them once (repeats are harmless)."""
    return (
        f'<link rel="stylesheet" href="{_url(asset_base_url, STYLE)}">\n'
        f'<script type="module" src="{_url(asset_base_url, SCRIPT)}"></script>'
    )


def _paragraphs(text: str) -> list[str]:
    parts = re.split(r"\n\s*\n", text.strip())
    return [" ".join(line.strip() for line in part.splitlines() if line.strip()) for part in parts if part.strip()]


def _block(demo: Demo) -> str:
    did, kernel = _esc(demo.id), _esc(demo.kernel)
    label = _esc(KERNEL_LABELS.get(demo.kernel, demo.kernel))
    lines = [
        f'<div class="kb-demo" id="kb-demo-{did}" data-demo-id="{did}" data-kernel="{kernel}">',
        f'<h3 class="kb-demo-title">{_esc(demo.title)}</h3>',
        f'<p class="kb-demo-kernel">{UI["demos.kernel"].format(label=label)}</p>',
    ]
    lines += [f'<p class="kb-demo-desc">{_esc(p)}</p>' for p in _paragraphs(demo.description or "")]
    lines += [
        '<div class="kb-demo-body">',
        f'<p class="kb-demo-loading">{UI["demos.loading"]}</p>',
        f"<noscript><p>{UI['demos.noscript']}</p></noscript>",
        "</div>",
        "</div>",
    ]
    return "\n".join(lines)


def demo_block(demo: Demo, asset_base_url: str) -> str:
    """One demo, with the asset tags it needs: can be placed anywhere on a page."""
    return f'<div class="kb-demos">\n{asset_tags(asset_base_url)}\n{_block(demo)}\n</div>'


def demo_section(demos: Iterable[Demo], asset_base_url: str) -> str:
    """A headed section with every demo given, or ``""`` when there are none."""
    demos = list(demos)
    if not demos:
        return ""
    parts = [
        '<div class="kb-demos">',
        f'<h2 class="kb-demos-heading">{HEADING}</h2>',
        f'<p class="kb-demos-intro">{INTRO}</p>',
        asset_tags(asset_base_url),
        *(_block(d) for d in demos),
        "</div>",
    ]
    return "\n".join(parts)


# Used by the standalone page only: the site's own policy is the adapter's business.
_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'none'"
)


def standalone_page(demos: Iterable[Demo], asset_base_url: str, title: str = UI["demos.page_title"]) -> str:
    """A complete HTML page holding ``demo_section`` (for tests and local viewing).

    Its Content-Security-Policy allows only same-origin scripts, styles and
    fetches, so a test on it also proves the demos need nothing else.
    """
    return "\n".join(
        [
            "<!doctype html>",
            '<html lang="zh-CN">',
            "<head>",
            '<meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{_esc(_CSP)}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            '<link rel="icon" href="data:,">',
            f"<title>{_esc(title)}</title>",
            "</head>",
            "<body>",
            "<main>",
            f"<h1>{_esc(title)}</h1>",
            demo_section(demos, asset_base_url),
            "</main>",
            "</body>",
            "</html>",
            "",
        ]
    )
