"""The plain reference of the build benchmarks: the project's pages as a plain MkDocs-Material site.

    python scripts/bench_plain.py DATA_DIR OUT_DIR [MKDOCS_YML]

writes OUT_DIR/mkdocs.yml and OUT_DIR/docs/: a MkDocs project with the same theme
settings, Markdown extensions, validation and nav as the project, but no plugin,
hook or theme override of ours, whose pages are the project's pages written as
Markdown, the way a team without this project's code would write them:

* a hand-written page that is plain Markdown: its own source;
* a generated page and a template page (macros): the HTML the project builds for
  it, turned into Markdown with markdownify (headings keep their anchors as
  ``{ #id }``, links point at the ``.md`` source of the page they reach, tables
  become pipe tables), so MkDocs converts, resolves and validates all of it;
* every other file the project publishes (feeds, ``references.bib``, ``api/``):
  a static file.

Its search is Material's own ``search`` plugin with its defaults (a lunr index;
Chinese segmented with jieba, which the test extra installs: a plain Material
site whose readers search in Chinese needs it); the project's search is
Pagefind, run after its build.  Each side pays for the search it ships.
"""

from __future__ import annotations

import json
import os
import posixpath
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent


def plain_project(data: Path, out: Path, config: Path = ROOT / "mkdocs.yml") -> None:
    """Write the plain reference project for the knowledge base at ``data`` to ``out``; ``config``:
    the project's mkdocs.yml (another one: scripts/team_project.py's)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "KB_DATA": str(data)}
    run = subprocess.run(
        [sys.executable, __file__, str(data), str(out), str(config)], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if run.returncode != 0:
        sys.exit(f"writing the plain reference failed:\n{run.stdout[-2000:]}{run.stderr[-4000:]}")


def _config(out: Path, config: Path) -> None:
    import yaml

    cfg = yaml.safe_load(config.read_text("utf-8"))
    cfg.pop("hooks", None)
    cfg["theme"].pop("custom_dir", None)
    ours = ("macros", "kb")
    plugins = [p for p in cfg["plugins"] if not (isinstance(p, dict) and set(p) & set(ours)) and p not in ours]
    cfg["plugins"] = ["search", *(p for p in plugins if p != "search" and not (isinstance(p, dict) and "search" in p))]
    cfg["extra"] = {k: v for k, v in (cfg.get("extra") or {}).items() if not k.startswith("kb_")}
    cfg["docs_dir"] = "docs"
    (out / "mkdocs.yml").write_text(yaml.safe_dump(cfg, allow_unicode=True, sort_keys=False), "utf-8")


def _converter(page, files):  # type: ignore[no-untyped-def]
    """A markdownify converter for one page: anchors kept on headings, links back to sources."""
    from markdownify import MarkdownConverter

    by_url = {f.url: f for f in files}

    class Converter(MarkdownConverter):  # type: ignore[misc]
        def convert_hN(self, n, el, text, parent_tags):  # noqa: N802 - markdownify's hook name
            for link in el.select("a.headerlink"):
                link.decompose()
            line = super().convert_hN(n, el, el.get_text(" ", strip=True), parent_tags).rstrip()
            ident = el.get("id")
            return f"{line} {{ #{ident} }}\n\n" if ident else line + "\n\n"

        def convert_span(self, el, text, parent_tags):  # an anchor target keeps its id (inline HTML)
            ident = el.get("id")
            return f'<span id="{ident}"></span>{text}' if ident else text

        def convert_a(self, el, text, parent_tags):
            href = el.get("href") or ""
            scheme, netloc, path, query, frag = urlsplit(href)
            if not scheme and not netloc and path:
                target = posixpath.normpath(posixpath.join(posixpath.dirname("/" + page.file.url), path))
                found = by_url.get(target.lstrip("/") + ("/" if path.endswith("/") else "")) or by_url.get(
                    target.lstrip("/")
                )
                if found is not None:
                    rel = posixpath.relpath(found.src_uri, posixpath.dirname(page.file.src_uri) or ".")
                    el["href"] = urlunsplit(("", "", rel, query, frag))
            return super().convert_a(el, text, parent_tags)

    return Converter(heading_style="ATX", bullets="-", escape_misc=False)


def _dump(data: Path, out: Path, config: Path) -> None:
    """In process: build the project up to each page's HTML content, write the pages as Markdown."""
    from mkdocs.commands import build as mk_build
    from mkdocs.config import load_config
    from mkdocs.plugins import BasePlugin, event_priority

    import kb.site.search.index
    from kb.site.search.index import IndexStats

    dest = out / "docs"
    os.environ["KB_DATA"] = str(data.resolve())  # the kb plugin reads the data from there

    class Dump(BasePlugin):  # type: ignore[type-arg]
        converted: set[str] = set()

        @event_priority(-1000)
        def on_files(self, files, config, **kw):  # type: ignore[no-untyped-def]
            docs = Path(config.docs_dir).resolve()
            for f in files:
                if f.is_documentation_page():
                    continue  # written below
                if f.generated_by is None and (
                    not f.abs_src_path or docs not in Path(f.abs_src_path).resolve().parents
                ):
                    continue  # the theme's own files: the plain build has them too
                target = dest / f.src_uri
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(f.content_bytes)
            return files

        @event_priority(-1000)
        def on_page_markdown(self, markdown, page, config, files, **kw):  # type: ignore[no-untyped-def]
            if page.file.generated_by is not None or "kbhtml" in markdown:  # its HTML is written below
                self.converted.add(page.file.src_uri)
            else:
                self._write(page, markdown)
            return markdown

        @event_priority(-1000)
        def on_page_content(self, html, page, config, files, **kw):  # type: ignore[no-untyped-def]
            if page.file.src_uri in self.converted:
                self._write(page, _converter(page, files).convert(html))
            return html

        @staticmethod
        def _write(page, markdown):  # type: ignore[no-untyped-def]
            meta = {k: page.meta[k] for k in ("title", "description") if k in page.meta}
            head = "".join(f"{k}: {json.dumps(str(v), ensure_ascii=False)}\n" for k, v in meta.items())
            target = dest / page.file.src_uri
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text((f"---\n{head}---\n\n" if head else "") + markdown, "utf-8")

    mk_build._build_page = lambda *a, **kw: None  # the theme's output is not needed
    kb.site.search.index.index_site = lambda *a, **kw: IndexStats()  # no HTML is written: nothing to index
    with tempfile.TemporaryDirectory(prefix="kb-dump-") as site:
        cfg = load_config(str(config), site_dir=site)
        cfg.plugins["bench-dump"] = Dump()
        cfg.plugins.on_startup(command="build", dirty=False)
        mk_build.build(cfg)
    _config(out, config)


if __name__ == "__main__":
    _dump(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]) if len(sys.argv) > 3 else ROOT / "mkdocs.yml")
