"""The demos on a page of their own, for the tests: the kernels the model allows, each one's shader,
and a complete HTML page holding :func:`kb.demos.render.demo_section`."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import get_args

from kb.data.models import Demo
from kb.demos.render import demo_section

KERNELS: tuple[str, ...] = get_args(Demo.model_fields["kernel"].annotation)

# only same-origin scripts, styles and fetches: a test on the page also proves the demos need nothing else
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'none'"
)


def shader_name(kernel: str) -> str:
    return f"{kernel}.wgsl"


def standalone_page(demos: Iterable[Demo], asset_base_url: str, title: str = "WebGPU 内核演示") -> str:
    """A complete HTML page holding ``demo_section``, under :data:`CSP`."""
    return "\n".join(
        [
            "<!doctype html>",
            '<html lang="zh-CN">',
            "<head>",
            '<meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{escape(CSP)}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            '<link rel="icon" href="data:,">',
            f"<title>{escape(title)}</title>",
            "</head>",
            "<body>",
            "<main>",
            f"<h1>{escape(title)}</h1>",
            demo_section(demos, asset_base_url),
            "</main>",
            "</body>",
            "</html>",
            "",
        ]
    )
