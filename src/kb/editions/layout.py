"""The published tree (the gh-pages branch) and how a deployment changes it.

::

    index.html        redirects to latest/
    404.html          GitHub Pages' page for a missing path: the site's themed 404
                      page (or a plain one); a path under an edition that the
                      edition does not hold (a record, an index) is sent to the
                      same path under latest/
    .nojekyll         serve the files as they are (no Jekyll run)
    versions.json     Material's version selector: latest first, then the
                      editions, newest first
    latest/           the current site, whole: every record at its permanent URL
    2026-10/          an edition: the frozen pages (see freeze.py), the assets they
    2026-09/          use, edition.json and changes/ (see changes.py)

Material's selector reads ``../versions.json`` from the page's site root and
links each entry to ``../<version>/``, so the current site and the editions are
siblings under the branch root, and the current site is the entry ``latest``
(the ``extra.version.default`` that the root redirect and the selector share).

:func:`publish` takes a built site and an edition month.  When the month is the
newest edition or newer, the site becomes ``latest/`` and is frozen into the
edition; an older month is a fix of that edition: only the edition is replaced
and ``latest/`` stays.  The changes pages of the edition and of the one after it
are written again.  Editions that mike made (a whole site each, ``latest`` a
symlink or a redirect) are frozen in place the first time.
"""

from __future__ import annotations

import functools
import html
import json
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from kb.data.atomic import new_dir
from kb.messages import t

from .changes import write_changes
from .freeze import CURRENT, Frozen, edition_policy, freeze, read_manifest, site_pages

__all__ = ["EDITION", "Published", "check_site", "publish", "delete", "editions_in", "VERSIONS"]

EDITION = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")
VERSIONS = "versions.json"
T = TypeVar("T")
CURRENT_TITLE = t("edition.current_title")  # the version selector's name for latest/


@dataclass
class Published:
    edition: str
    moved_current: bool
    changes_written: list[str] = field(default_factory=list)
    migrated: list[str] = field(default_factory=list)
    edition_bytes: int = 0


def check_edition(edition: str) -> str:
    if not EDITION.match(edition):
        raise ValueError(f"an edition is a month written YYYY-MM, such as 2026-09, not {edition!r}")
    return edition


def check_site(site: Path) -> None:
    """A built site to publish: a directory with index.html, regular files and directories only."""
    if not (site / "index.html").is_file():
        raise ValueError(f"{site} has no index.html: not a built site")
    for path in site.rglob("*"):
        if path.is_symlink() or not (path.is_file() or path.is_dir()):
            raise ValueError(f"{path.relative_to(site)}: only regular files and directories are published")


def editions_in(root: Path) -> list[str]:
    """The editions on the branch, newest first: the months in versions.json that have a directory."""
    found: set[str] = set()
    path = root / VERSIONS
    if path.is_file():
        entries = json.loads(path.read_text("utf-8"))
        for entry in entries if isinstance(entries, list) else []:
            version = str(entry.get("version", "")) if isinstance(entry, dict) else ""
            if EDITION.match(version) and (root / version).is_dir() and not (root / version).is_symlink():
                found.add(version)
    return sorted(found, reverse=True)


def _remove(path: Path) -> None:
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)


def _write_versions(root: Path, editions: list[str]) -> None:
    entries = [{"version": CURRENT, "title": CURRENT_TITLE, "aliases": []}]
    entries += [{"version": e, "title": e, "aliases": []} for e in sorted(editions, reverse=True)]
    (root / VERSIONS).write_text(json.dumps(entries, ensure_ascii=False, indent=2) + "\n", "utf-8")


_REDIRECT = """<!doctype html>
<html lang="zh"><head><meta charset="utf-8"><title>Redirecting</title>
<noscript><meta http-equiv="refresh" content="0; url={target}"></noscript>
<script>window.location.replace("{target}" + window.location.search + window.location.hash)</script>
</head><body><a href="{target}">{target}</a></body></html>
"""

# GitHub Pages answers a missing path with the root 404.html.  A path under an
# edition that the edition does not hold (a brief, a paper, an index, or any page
# of an edition mike once published whole) goes to the same path under latest/.
_TO_CURRENT = """<script>
(function () {
  var m = window.location.pathname.match(/^(.*?\\/)(\\d{4}-(?:0[1-9]|1[0-2]))\\/(.+)$/);
  if (m && m[1].indexOf("/%(current)s/") < 0) {
    window.location.replace(m[1] + "%(current)s/" + m[3] + window.location.search + window.location.hash);
  }
})();
</script>"""

# The site's own themed 404 page can answer at the root when it names its styles, scripts and
# links by absolute path into latest/ (MkDocs does so for 404.html when site_url is set, as the
# publishing workflow sets it); else a page of its own, readable on a phone, links home (latest/
# beside the edition or latest/ in the address, else the host's root).
_ASSET_BASE = re.compile(r'<link[^>]+href="([^"]*/)assets/stylesheets/')
_HEAD = re.compile(r"<head\b[^>]*>")
_NOT_FOUND = """<!doctype html>
<html lang="zh"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>%(title)s</title>
%(to_current)s
<style>body{font:1.0625rem/1.6 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}
a{color:#3949ab}@media (prefers-color-scheme:dark){body{background:#1e2129;color:#e2e4e9}a{color:#a5b4fc}}</style>
</head>
<body><h1>%(title)s</h1><p>%(intro)s</p><p><a id="home" href="/">%(home)s</a></p>
<script>
(function () {
  var m = window.location.pathname.match(/^(.*?\\/)(?:%(current)s|\\d{4}-(?:0[1-9]|1[0-2]))\\//);
  if (m) document.getElementById("home").href = m[1] + "%(current)s/";
})();
</script></body></html>
"""


def not_found_page(root: Path) -> str:
    """The root 404.html: latest/'s themed page with the edition redirect first in its head when
    its addresses are absolute paths into latest/, else the plain page (see above)."""
    to_current = _TO_CURRENT % {"current": CURRENT}
    themed = root / CURRENT / "404.html"
    page = themed.read_text("utf-8") if themed.is_file() else ""
    base = _ASSET_BASE.search(page)
    head = _HEAD.search(page)
    if base and head and base.group(1).startswith("/") and base.group(1).endswith(f"/{CURRENT}/"):
        return page[: head.end()] + to_current + page[head.end() :]
    words = {
        k: html.escape(t(key))
        for k, key in (("title", "page.not_found"), ("intro", "page.not_found_intro"), ("home", "page.not_found_home"))
    }
    return _NOT_FOUND % {"current": CURRENT, "to_current": to_current, **words}


def _write_root(root: Path) -> None:
    (root / "index.html").write_text(_REDIRECT.format(target=f"{CURRENT}/"), "utf-8")
    (root / "404.html").write_text(not_found_page(root), "utf-8")
    (root / ".nojekyll").write_text("", "utf-8")


def _replace_dir(target: Path, fill: Callable[[Path], T]) -> T:
    """Fill a new directory beside ``target`` and swap it in (a failure leaves ``target`` as it was)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = new_dir(target.parent, f".{target.name}.")  # published: readable as a plain mkdir makes it
    try:
        result = fill(tmp)
        _remove(target)
        tmp.rename(target)
        return result
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)


def _migrate(root: Path, editions: list[str]) -> list[str]:
    """Freeze, in place, editions that hold whole sites (mike's) and have no manifest."""
    done = []
    for e in editions:
        d = root / e
        if read_manifest(d) is None and "record" in edition_policy(d, site_pages(d)).values():
            _replace_dir(d, functools.partial(freeze, d, edition=e))
            done.append(e)
    return done


def _neighbours(editions: list[str], edition: str) -> tuple[str | None, str | None]:
    ordered = sorted(editions)
    i = ordered.index(edition)
    return (ordered[i - 1] if i > 0 else None), (ordered[i + 1] if i + 1 < len(ordered) else None)


def publish(site: Path, edition: str, root: Path) -> Published:
    """Lay ``site`` (a built site) onto ``root`` (the gh-pages tree) as ``edition``; see the module doc."""
    check_edition(edition)
    check_site(site)
    root.mkdir(parents=True, exist_ok=True)
    existing = editions_in(root)
    moved = not existing or edition >= existing[0]
    current = root / CURRENT
    if not moved and (current.is_symlink() or not (current / "index.html").is_file()):
        raise ValueError(f"{CURRENT}/ is not a current site yet: publish the newest edition before fixing {edition}")
    migrated = _migrate(root, existing)
    if moved:  # (a symlink left by mike is replaced, not followed)
        _replace_dir(current, lambda tmp: shutil.copytree(site, tmp, dirs_exist_ok=True))
    frozen: Frozen = _replace_dir(root / edition, lambda tmp: freeze(site, tmp, edition))
    editions = sorted(set(existing) | {edition}, reverse=True)
    result = Published(edition, moved, migrated=migrated, edition_bytes=frozen.bytes)
    before, after = _neighbours(editions, edition)
    rewrite = {edition: before} | ({after: edition} if after else {})
    if migrated:
        rewrite = {e: _neighbours(editions, e)[0] for e in editions}
    for e, prev in sorted(rewrite.items()):
        write_changes(root, e, prev)
        result.changes_written.append(e)
    _write_versions(root, editions)
    _write_root(root)
    return result


def delete(edition: str, root: Path) -> list[str]:
    """Remove an edition; the one after it is compared with the one before it from then on."""
    check_edition(edition)
    existing = editions_in(root)
    if edition not in existing:
        raise ValueError(f"there is no edition {edition} (editions: {', '.join(existing) or 'none'})")
    before, after = _neighbours(existing, edition)
    _remove(root / edition)
    editions = [e for e in existing if e != edition]
    if after is not None:
        write_changes(root, after, before)
    _write_versions(root, editions)
    _write_root(root)
    return editions
