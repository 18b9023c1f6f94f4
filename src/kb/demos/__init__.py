"""Optional WebGPU kernel demos: the build option and which demos go where.

The demos are off by default.  The site adapter asks :func:`enabled` once per
build; when it says no, nothing from this package (script, shaders, styles or
markup) reaches the site.  When it says yes, the adapter copies
:func:`kb.demos.render.asset_files` to :data:`SITE_DIR` and puts
:func:`kb.demos.render.demo_section` on the pages that declare demos.

The option is ``demos`` of the ``kb`` plugin in ``mkdocs.yml``; the environment
variable ``KB_DEMOS`` overrides it (``1/true/yes/on`` or ``0/false/no/off``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from kb.data.models import Demo

ENV = "KB_DEMOS"  # overrides the kb plugin's option `demos` in mkdocs.yml
SITE_DIR = "assets/kb-demos"  # where the adapter copies the assets inside the built site

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


def _word(value: str, where: str) -> bool:
    word = value.strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise ValueError(f"{where}: expected one of 1/true/yes/on or 0/false/no/off, got {value!r}")


def enabled(option: bool, environ: Mapping[str, str] | None = None) -> bool:
    """Whether demos are built: the plugin option ``demos`` (already a bool, checked by
    MkDocs), unless a non-empty ``KB_DEMOS`` in ``environ`` (default ``os.environ``) says
    otherwise.  A word that is neither yes nor no raises ``ValueError`` rather than guessing.
    """
    env = os.environ if environ is None else environ
    raw = env.get(ENV)
    if raw is not None and raw.strip():
        return _word(raw, f"environment variable {ENV}")
    return option


def for_paper(demos: Iterable[Demo], paper_id: str) -> list[Demo]:
    """Demos that declare ``paper_id`` in ``papers``, in the order given."""
    return [d for d in demos if paper_id in d.papers]


def for_section(demos: Iterable[Demo], section_id: str) -> list[Demo]:
    """Demos that declare ``section_id`` in ``sections``, in the order given."""
    return [d for d in demos if section_id in d.sections]
