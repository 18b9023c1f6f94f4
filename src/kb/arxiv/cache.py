"""The arXiv metadata cache: one JSON file per id, so a re-run asks the API nothing.

Layout: ``<cache dir>/arxiv/<id slug>.json`` (``hep-th/9901001`` -> ``hep-th_9901001.json``),
where the cache dir is ``--cache-dir``, else ``$KB_CACHE_DIR``, else ``.cache``.
Files are written atomically; a file that cannot be read or no longer fits the
schema is treated as missing and replaced on the next fetch.  Only answers are
cached, never "not found" or errors.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

from pydantic import ValidationError

from kb.data import arxiv_id
from kb.data.atomic import write_atomic
from kb.data.models import ArxivMeta

FORMAT = 1


def default_dir(env=None) -> Path:
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
        """The cached metadata, or None when absent, unreadable or older than ``max_age``."""
        try:
            record = json.loads(self.path(base).read_text(encoding="utf-8"))
            if record.get("format") != FORMAT or record.get("id") != arxiv_id.normalize(base):
                return None
            if max_age is not None:
                fetched = dt.datetime.fromisoformat(record["fetched"])
                if dt.datetime.now(dt.timezone.utc) - fetched > max_age:
                    return None
            return ArxivMeta.model_validate(record["meta"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError, ValidationError):
            return None

    def put(self, base: str, meta: ArxivMeta) -> None:
        record = {
            "format": FORMAT,
            "id": arxiv_id.normalize(base),
            "fetched": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            "meta": meta.model_dump(mode="json", exclude_none=True),
        }
        write_atomic(self.path(base), json.dumps(record, ensure_ascii=False, indent=1) + "\n")
