"""The arXiv metadata cache: one JSON file per id, so a re-run asks the API nothing.

Layout: ``<cache dir>/arxiv/<id slug>.json`` (``hep-th/9901001`` -> ``hep-th_9901001.json``),
where the cache dir is ``--cache-dir``, else ``$KB_CACHE_DIR``, else ``.cache``.
A record is ``{"format", "id", "fetched", "meta"}``: the id the answer was asked
for (only the API's answer to that id is ever stored under it, see
:func:`kb.arxiv.client.match_answer`), when, and the metadata.  Files are
written atomically.  A cache directory may come from elsewhere (a copy, a
commit), so a record is trusted only when it is for the id asked about, fits
the schema, and was fetched at a time-zoned moment that is neither in the
future nor older than ``max_age``; anything else is treated as missing and
replaced on the next fetch.  Only answers are cached, never "not found" or errors.

Unlike the build's cache (:mod:`kb.site.cache`, kept outside the checkout), this one may stay in
a checkout's ``.cache/``: a record is JSON of a fixed schema, never code, and it only feeds ``kb
paper add/refresh`` (never ``kb validate`` or the build), whose output is a paper file that is
reviewed and validated like any other.  A planted record could at most give one id false
metadata in that output; a pull request cannot carry one in, since a file git tracks under
``.cache/`` is a ``kb validate`` error (:mod:`kb.site.tracked`).
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import ValidationError

from kb.data import arxiv_id
from kb.data.atomic import write_atomic
from kb.data.models import ArxivMeta

FORMAT = 1
MAX_RECORD = 1024 * 1024  # bytes; a record holds one paper's metadata (a few KB)


def default_dir(env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    return Path(env.get("KB_CACHE_DIR") or ".cache")


class Cache:
    def __init__(self, root: str | os.PathLike[str] | None = None):
        self.dir = Path(root if root is not None else default_dir()) / "arxiv"

    def path(self, base: str) -> Path:
        parsed = arxiv_id.parse(base)
        if parsed is None:
            raise ValueError(f"not an arXiv id: {base!r}")
        return self.dir / f"{parsed.slug}.json"

    def get(self, base: str, max_age: dt.timedelta | None = None) -> ArxivMeta | None:
        """The cached metadata, or None when absent, unreadable, for another id, fetched in
        the future (a clock cannot vouch for it) or older than ``max_age``."""
        try:
            with open(self.path(base), "rb") as fh:
                raw = fh.read(MAX_RECORD + 1)
            record = json.loads(raw) if len(raw) <= MAX_RECORD else None
        except (OSError, ValueError, RecursionError):
            return None
        if not isinstance(record, dict) or record.get("format") != FORMAT:
            return None
        if record.get("id") != arxiv_id.normalize(base):
            return None
        if not fresh(record.get("fetched"), max_age, dt.datetime.now(dt.UTC)):
            return None
        try:
            return ArxivMeta.model_validate(record.get("meta"))
        except ValidationError:
            return None

    def put(self, base: str, meta: ArxivMeta) -> None:
        record = {
            "format": FORMAT,
            "id": arxiv_id.normalize(base),
            "fetched": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "meta": meta.model_dump(mode="json", exclude_none=True),
        }
        write_atomic(self.path(base), json.dumps(record, ensure_ascii=False, indent=1) + "\n")


def fresh(fetched: object, max_age: dt.timedelta | None, now: dt.datetime) -> bool:
    """Whether a record's ``fetched`` time is a time-zoned moment not after ``now`` and,
    with ``max_age``, not longer ago than that."""
    if not isinstance(fetched, str):
        return False
    try:
        when = dt.datetime.fromisoformat(fetched)
    except ValueError:
        return False
    if when.tzinfo is None or when > now:
        return False
    return max_age is None or now - when <= max_age
