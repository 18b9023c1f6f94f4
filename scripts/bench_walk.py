"""CPU time of the site's passes over a page's text, on the pages of a built site (a report, not a test).

    python scripts/bench_walk.py SITE [--repeat 3]

SITE is a built site (``kb build -d SITE``, e.g. of a synthetic knowledge base: ``KB_DATA`` set
to data written by ``tests/kbsynth``).  For each page's ``<article>`` body (its hidden search words
taken out again) it times, with this checkout's code (``PYTHONPATH=src``):

render     the walk when MkDocs hands the page over: outline (headings, anchors, title), the
           first use of each glossary term and the hidden search words (kb.render.htmltext.edit
           with the three readers, as the plugin finishes a generated page);
post-page  the search marks of kb.site.search.mark on the whole page (a generated page's words
           are in it already).

Best of --repeat, in seconds for all the pages.  Run it in two checkouts for a before/after.
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable
from pathlib import Path

from kb.render import glossary, htmltext
from kb.site import search
from kb.site.pages import htmlpage
from kb.site.search import words

_WORDS = re.compile(r"<i hidden> \w+ </i>")


def best(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("site", type=Path)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    paths = sorted(args.site.rglob("*.html"))
    pages = [_WORDS.sub("", path.read_text("utf-8")) for path in paths]
    bodies = [page[page.find("<article") : page.rfind("</article>")] for page in pages]
    paper = search.Facts(search.PAPER, (), None, search.WEIGHTS[search.PAPER], identity=search.HEADINGS)
    facts = [paper if "papers" in path.parts else search.Facts(search.BRIEF) for path in paths]

    def render() -> None:
        for body in bodies:
            outline = htmlpage.Outline()
            readers: list[htmltext.Reader] = [outline.read, glossary.explainer(body), words.words(body)]
            htmltext.edit(body, readers, htmlpage.Outline.NAMES, htmlpage.Outline.ATTRS)
            outline.toc()

    def post_page() -> None:
        for page, fact in zip(pages, facts, strict=True):
            search.mark(page, fact, words=False)

    print(f"{len(pages)} pages of {args.site}")
    print(f"render     {best(render, args.repeat):6.2f} s")
    print(f"post-page  {best(post_page, args.repeat):6.2f} s")


if __name__ == "__main__":
    main()
