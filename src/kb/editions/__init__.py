"""Monthly editions of the published site, laid out for GitHub Pages.

An *edition* (``2026-10/``) keeps what people wrote that month (the home page,
the living documents, the guide) as it was, with a page of changes since the
edition before it.  Briefs, papers and the indexes built from them live once, in
the current site (``latest/``), at permanent URLs that every edition links to.
So the published size grows with the records plus one small snapshot a month,
not with one whole copy of the site a month.

- :mod:`kb.editions.freeze`  which pages an edition holds and how their links are rewritten
- :mod:`kb.editions.changes` the page of changes between two editions
- :mod:`kb.editions.layout`  the gh-pages tree: latest/, editions, versions.json, root files

Standard library only (the deploy job of the publishing workflow runs it with
nothing installed); ``scripts/publish_edition.py`` is its command line.
"""

from .freeze import CURRENT, freeze
from .layout import EDITION, Published, delete, editions_in, publish

__all__ = ["CURRENT", "EDITION", "Published", "delete", "editions_in", "freeze", "publish"]
