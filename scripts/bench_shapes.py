#!/usr/bin/env python3
"""Time per KB of a hand-written page made of one Markdown shape repeated, at two sizes: a
shape Python-Markdown converts in more than linear time must be refused before rendering
(kb.data.shapes), so every ratio stays about 1.

A shape fills paragraphs of the longest length the guard lets through (MAX_PARAGRAPH), so
the large page measures the bound where it is loosest.  Each page goes the build's way:
``kb.data.pages.check_page`` (front matter, template syntax, the shape guard), then, unless
the build would refuse it, Python-Markdown with mkdocs.yml's extensions and MkDocs' own
(``fenced_code``).  A refused page counts as the time of its check.

    .venv/bin/python scripts/bench_shapes.py                 # 8 KB and 64 KB
    .venv/bin/python scripts/bench_shapes.py --check         # exit 1 if a ratio passes 1.5
    .venv/bin/python scripts/bench_shapes.py --sizes 1,2     # a quick run (the smoke test)

Prints one row per shape: ms per KB at each size, the ratio (large / small), and whether the
page was refused.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from kb.data.pages import check_page  # noqa: E402
from kb.data.shapes import MAX_PARAGRAPH  # noqa: E402
from kb.render.sanitize import markdown_extensions  # noqa: E402

LIMIT = 1.5


def _lines(make: Callable[[int], str], header: str = "") -> Callable[[int], str]:
    """A page of lines ``make(i)`` up to ``n`` characters, in paragraphs (each opening with
    ``header``) as long as the guard lets through."""

    def page(n: int) -> str:
        out, size, block, i = [header], len(header), len(header), 0
        while size < n:
            line = make(i)
            if block + len(line) > MAX_PARAGRAPH - 1:
                out.append(("\n" if out[-1].endswith("\n") else "\n\n") + header)
                block = len(header)
            out.append(line)
            size, block, i = size + len(line), block + len(line), i + 1
        return "".join(out)

    return page


SHAPES: dict[str, str | Callable[[int], str]] = {
    "link-open": "[a](",
    "link-open-space": "[a]( ",
    "image-open": "![a](",
    "link-angle": "[a](<",
    "link-paren": "[a](b(",
    "link-title": '[a](b "',
    "link-code": "[`a`](",
    "link-nested": "[[a](b)",
    "bracket-open": "[",
    "bracket-close": "]",
    "brackets": "[a]",
    "reference": "[a][",
    "footnote-like": "[^",
    "image-bang": "![",
    "emphasis-star": "*a ",
    "emphasis-under": "_a ",
    "strong": "**a ",
    "stars": "*",
    "underscores": "_",
    "word-underscore": "a_",
    "strike": "~~",
    "backtick": "`a ",
    "backticks": "`",
    "lt": "<",
    "tag-open": "<a ",
    "tag-attr-open": '<a href="',
    "autolink-open": "<http://a",
    "html-inline": "<span>",
    "html-close": "</span>",
    "html-comment": "<!--",
    "html-div": "<div>\n",
    "html-div-markdown": '<div markdown="1">\n',
    "amp": "&",
    "entity": "&#",
    "backslash": "\\",
    "paren": "(",
    "pipe": "|",
    "braces": "{",
    "attr-list": "{: ",
    "quote-nest": "> ",
    "fence": "```\n",
    "tilde-fence": "~~~\n",
    "heading-same": "#a\n",
    "setext-same": "a\n=\n",
    "heading-long": _lines(lambda i: "# " + "a " * 2000 + "\n"),
    "heading-braces": _lines(lambda i: f"# h{i} " + "{" * 200 + "\n"),
    "headings": _lines(lambda i: f"## h{i} *a* `b`\n"),
    "list-nest": _lines(lambda i: "    " * (i % 64) + "- a\n"),
    "admonition-nest": _lines(lambda i: "    " * (i % 64) + "!!! note\n"),
    "table": _lines(lambda i: f"| {i} | [y](z) |\n", header="| a | b |\n|---|---|\n"),
    "abbreviations": lambda n: _lines(lambda i: f"*[W{i}]: t\n")(n) + "\nW1 W2\n",
    "reference-defs": _lines(lambda i: f"[r{i}]: http://x\n[r{i}] "),
    "md-in-html-nest": lambda n: '<div markdown="1">\n' * (n // 40) + "a\n" + "</div>\n" * (n // 40),
    "md-in-html": _lines(lambda i: f'<div markdown="1">\n*{i}*\n</div>\n'),
    "prose": _lines(lambda i: f"第 {i} 段：推理（inference）与 [链接](https://example.org/{i}) `code` *强调*。\n\n"),
}


def make(shape: str, n: int) -> str:
    """A page of ``n`` characters: the shape repeated in paragraphs as long as the guard lets
    through (a longer paragraph is refused whatever it holds), or the shape's own page."""
    unit = SHAPES[shape]
    if callable(unit):
        return unit(n)
    block = (unit * (MAX_PARAGRAPH // len(unit)))[: MAX_PARAGRAPH - 2]
    return ("\n\n".join([block] * (n // MAX_PARAGRAPH + 1)))[:n]


def converter() -> Callable[[str], object]:
    import markdown

    names, configs = markdown_extensions(ROOT / "mkdocs.yml")
    names = [*names, "fenced_code"]  # MkDocs adds it to the configured ones
    return lambda text: markdown.Markdown(extensions=names, extension_configs=configs).convert(text)


def once(text: str, convert: Callable[[str], object]) -> tuple[float, bool]:
    """CPU seconds of the build's path for ``text``, and whether it was refused."""
    start = time.process_time()
    problems = check_page("page.md", text, "docs/page.md", frozenset())
    refused = any(d.is_error and d.code != "template" for d in problems)  # as the plugin decides
    if not refused:
        convert(text)
    return time.process_time() - start, refused


def timed(text: str, convert: Callable[[str], object]) -> tuple[float, bool]:
    """The least of a few runs (noise on a shared machine only adds)."""
    best, refused, total = float("inf"), False, 0.0
    for _ in range(5):
        seconds, refused = once(text, convert)
        best, total = min(best, seconds), total + seconds
        if total > 0.5:
            break
    return best, refused


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="8,64", help="two page sizes in KB (default 8,64)")
    parser.add_argument("--check", action="store_true", help=f"exit 1 if a ratio passes {LIMIT}")
    parser.add_argument("--only", default="", help="comma-separated shape names")
    args = parser.parse_args()
    small, large = (int(s) for s in args.sizes.split(","))
    shapes = [s for s in args.only.split(",") if s] or list(SHAPES)
    convert = converter()
    convert("warm [up](x) *a*")  # imports and extension set-up are not the page's
    print(f"{'shape':20} {small:>6} KB ms/KB {large:>6} KB ms/KB  ratio  refused")
    worst = 0.0
    for shape in shapes:
        (t_small, r_small), (t_large, r_large) = (timed(make(shape, kb * 1024), convert) for kb in (small, large))
        per_small, per_large = t_small * 1000 / small, t_large * 1000 / large
        ratio = per_large / per_small if per_small > 0 else 0.0
        worst = max(worst, ratio)
        refused = "yes" if r_large else "no"
        print(f"{shape:20} {per_small:15.3f} {per_large:15.3f} {ratio:6.2f}  {refused}", flush=True)
    print(f"worst ratio {worst:.2f} (limit {LIMIT})")
    return 1 if args.check and worst > LIMIT else 0


if __name__ == "__main__":
    sys.exit(main())
