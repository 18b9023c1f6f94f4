"""HTML for the WebGPU kernel demos: pure functions, no MkDocs.

A demo block is inert markup (``<div class="kb-demo" data-kernel=… data-demo-id=…>``)
that ``kb-demos.js`` turns into a runnable demo; the script fetches the WGSL
shaders next to itself.  Every string that comes from data is escaped
(:func:`kb.render.html.attr`); nothing from data reaches a script or a URL, and
the markup has no inline scripts, styles or event handlers.  The output has no
blank lines, so it stays one raw-HTML block even if it is put into Markdown.

``asset_base_url`` is the URL (usually relative to the page) of the directory
holding :func:`asset_files`, e.g. ``../assets/kb-demos``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from kb.data.models import Demo
from kb.messages import UI
from kb.render.html import attr

ASSET_DIR = Path(__file__).parent / "assets"
SCRIPT = "kb-demos.js"
STYLE = "kb-demos.css"
KERNEL_LABELS = {k: UI[f"demos.{k}"] for k in ("softmax", "rmsnorm", "gemv", "attention-decode")}
HEADING = UI["demos.heading"]
INTRO = UI["demos.intro"]
_SUFFIXES = {".js", ".css", ".wgsl"}


def asset_files() -> list[Path]:
    """The files to copy into the site (script, style sheet and one shader per kernel)."""
    return sorted(p for p in ASSET_DIR.iterdir() if p.is_file() and p.suffix in _SUFFIXES)


def _url(base: str, name: str) -> str:
    base = base.rstrip("/")
    return attr(f"{base}/{name}" if base else name)


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
    did, kernel = attr(demo.id), attr(demo.kernel)
    label = attr(KERNEL_LABELS.get(demo.kernel, demo.kernel))
    lines = [
        f'<div class="kb-demo" id="kb-demo-{did}" data-demo-id="{did}" data-kernel="{kernel}">',
        f'<h3 class="kb-demo-title">{attr(demo.title)}</h3>',
        f'<p class="kb-demo-kernel">{UI["demos.kernel"].format(label=label)}</p>',
    ]
    lines += [f'<p class="kb-demo-desc">{attr(p)}</p>' for p in _paragraphs(demo.description or "")]
    lines += [
        '<div class="kb-demo-body">',
        f'<p class="kb-demo-loading">{UI["demos.loading"]}</p>',
        f"<noscript><p>{UI['demos.noscript']}</p></noscript>",
        "</div>",
        "</div>",
    ]
    return "\n".join(lines)


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
