"""Theme files copied into the kb package's templates (kb/theme/templates) and changed there record
the upstream file they were copied from (``upstream: mkdocs-material VERSION PATH sha256:DIGEST``);
the installed theme must still hold that very file, or the copy is out of step with the theme the
site is built with."""

from __future__ import annotations

import hashlib
import re
from importlib.metadata import version
from pathlib import Path

import material
import mkdocs
import pytest

from kb.site.theme import TEMPLATES

OVERRIDES = TEMPLATES  # the templates the kb plugin brings (kb.site.theme)
THEMES = {  # where each package keeps the templates a copy names
    "mkdocs-material": Path(material.__file__).parent / "templates",
    "mkdocs": Path(mkdocs.__file__).parent / "templates",
}
UPSTREAM = re.compile(r"upstream: (mkdocs-material|mkdocs) (\S+) (\S+) sha256:([0-9a-f]{64})")
COPIES = {
    p.relative_to(OVERRIDES).as_posix(): UPSTREAM.search(p.read_text("utf-8"))
    for p in sorted(OVERRIDES.rglob("*"))
    if p.suffix in (".html", ".xml")
}
RECORDED = {name: m for name, m in COPIES.items() if m}


def test_the_copies_of_material_partials_say_where_they_come_from():
    assert {"partials/header.html", "partials/search.html", "sitemap.xml"} <= set(RECORDED)
    navigation = {"partials/kb-toc.html", "partials/nav-item.html", "partials/path.html", "partials/tabs-item.html"}
    assert navigation <= set(RECORDED)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_the_installed_theme_still_holds_the_file_the_copy_was_made_from(name):
    package, copied_from, path, digest = RECORDED[name].groups()
    upstream = THEMES[package] / path
    assert upstream.is_file(), f"{package} {version(package)} has no {path} (copied from {copied_from})"
    now = hashlib.sha256(upstream.read_bytes()).hexdigest()
    assert now == digest, (
        f"kb/theme/templates/{name} is a copy of {package} {copied_from}'s {path}, which changed in the installed "
        f"{package} {version(package)}: port the change into the copy, then record the new version "
        "and digest in its header"
    )
