"""``kb init DIR [--topic ID] [--title TITLE]``: start a new team's knowledge base.

Writes a project that builds at once (``kb validate --strict``, ``kb build --strict``): the site's
configuration (``mkdocs.yml`` with the ``kb`` plugin and Material, whose templates, scripts and
styles the package brings: :mod:`kb.site.theme`), the home page, the topic's living document and
the generic guide pages, ``data/`` with the one topic's file, the reviewed lists of ``hooks/``, the
CI workflows (validate and build on a pull request, publish ``main``), a README and a
requirements file.  The files come from ``templates/init/`` of this package with the topic's id
and title put in; nothing is written into a directory that holds anything.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from importlib import resources
from importlib.metadata import version
from pathlib import Path

from kb.data.diagnostics import UserError
from kb.data.yamlwrite import scalar
from kb.messages import t

DEFAULT_TOPIC = "main"  # when the directory's name is no topic id
TOPIC = re.compile(r"[a-z0-9][a-z0-9-]{0,79}")  # as kb.data.models.types.SLUG
# a title goes into YAML (quoted), Markdown headings and links, and the pages: one line, no
# template or markup characters
_BAD_TITLE = re.compile(r"[\x00-\x1f\x7f{}<>\[\]\u2028\u2029]")
RENAMED = {"gitignore": ".gitignore", "github": ".github"}  # kept without the dot in the package
TOPIC_FILE = "TOPIC"  # the stem of the files named after the topic (docs/TOPIC.md, data/topics/TOPIC.yaml)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "init",
        help="start a new knowledge base in an empty directory",
        description="Start a new team's knowledge base in DIR (new or empty): mkdocs.yml with the kb "
        "plugin and the Material theme, the home page, the topic's living document and the guide "
        "pages, data/ with the topic's file, hooks/ (the reviewed lists), the CI workflows "
        "(.github/workflows: validate and build each pull request, publish main) and a README.  "
        "It builds at once: cd DIR && kb validate --strict && kb build --strict.",
    )
    p.add_argument("dir", metavar="DIR", help="the new project's directory (created; must be empty if it exists)")
    p.add_argument("--topic", default=None, help="the topic's id (default: DIR's name if it is one, else main)")
    p.add_argument("--title", default=None, help="the topic's title, e.g. 'LLM 推理' (default: the topic's id)")
    p.set_defaults(func=run)


def default_topic(target: Path) -> str:
    name = target.resolve().name.lower()
    return name if TOPIC.fullmatch(name) else DEFAULT_TOPIC


def project_files(topic: str, title: str) -> dict[str, str]:
    """The new project's files (relative path -> text), the topic put in."""
    if not TOPIC.fullmatch(topic):
        raise UserError(t("cli.init.bad_topic", topic=topic))
    if not title.strip() or _BAD_TITLE.search(title):
        raise UserError(t("cli.init.bad_title"))
    title = " ".join(title.split())
    site = title + (" " if title[-1].isascii() else "") + "知识库"  # LLM 服务知识库, LLM 知识库 (as the text writes)
    values = {
        "@TOPIC@": topic,
        "@TITLE_YAML@": scalar(title),
        "@TITLE_MD@": title,
        "@SITE_NAME@": scalar(site),
        "@SITE_NAME_MD@": site,
        "@SITE_DESCRIPTION@": scalar(f"{title}：每日简报、活文档与论文卡"),
        "@VERSION@": version("llm-inference-kb"),
    }
    out: dict[str, str] = {}
    root = resources.files("kb.cli") / "templates" / "init"
    for rel, text in _walk(root, ""):
        parts = [RENAMED.get(p, p) for p in rel.split("/")]
        parts[-1] = parts[-1].replace(TOPIC_FILE, topic, 1) if parts[-1].startswith(TOPIC_FILE + ".") else parts[-1]
        for token, value in values.items():
            text = text.replace(token, value)
        out["/".join(parts)] = text
    return out


def _walk(node: resources.abc.Traversable, prefix: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        rel = f"{prefix}{child.name}"
        if child.is_dir():
            found += _walk(child, rel + "/")
        elif not child.name.startswith("."):
            found.append((rel, child.read_text("utf-8")))
    return found


def run(args: argparse.Namespace) -> int:
    target = Path(args.dir)
    topic = args.topic or default_topic(target)
    files = project_files(topic, args.title or topic)  # refuses a bad topic or title before anything is made
    if target.exists() and not target.is_dir():
        raise UserError(t("cli.init.not_dir", dir=target))
    if target.is_dir() and (held := sorted(p.name for p in target.iterdir())):
        suggest = os.path.relpath(target.resolve().parent / f"{target.resolve().name}-kb")
        raise UserError(t("cli.init.not_empty", dir=target, n=len(held), first=held[0], suggest=suggest))
    for rel, text in files.items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    print(t("cli.init.done", dir=target, topic=topic, title=args.title or topic, n=len(files)), file=sys.stderr)
    print(t("cli.init.next", dir=target), file=sys.stderr)
    return 0
