"""Settings of arXiv look-ups: defaults, ``KB_ARXIV_*`` environment variables, options.

Kept apart from :mod:`kb.arxiv.client` so that ``kb --help`` does not import the HTTP stack.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

DEFAULT_API_URL = "https://export.arxiv.org/api/query"
MAX_BATCH = 100

ENV = {  # FetchConfig field -> environment variable
    "api_url": "KB_ARXIV_API_URL",
    "delay": "KB_ARXIV_DELAY",
    "timeout": "KB_ARXIV_TIMEOUT",
    "retries": "KB_ARXIV_RETRIES",
    "backoff": "KB_ARXIV_BACKOFF",
    "max_time": "KB_ARXIV_MAX_TIME",
    "batch_size": "KB_ARXIV_BATCH_SIZE",
    "max_bytes": "KB_ARXIV_MAX_BYTES",
}


@dataclass(frozen=True)
class FetchConfig:
    api_url: str = DEFAULT_API_URL
    delay: float = 3.0  # seconds between requests (arXiv asks for 3)
    timeout: float = 30.0  # seconds per request
    retries: int = 4  # retries of one request after the first try
    backoff: float = 3.0  # first retry wait; doubles with each retry (with jitter)
    backoff_cap: float = 120.0  # longest single wait, Retry-After included
    max_time: float = 900.0  # time budget of a whole run
    batch_size: int = MAX_BATCH  # ids per request
    max_bytes: int = 8 * 1024 * 1024  # largest answer accepted (100 entries are some 500 KB)

    def __post_init__(self) -> None:
        if not self.api_url.startswith(("http://", "https://")):
            raise ValueError(f"the API URL must start with http:// or https://, got {self.api_url!r}")
        for name in ("delay", "backoff", "backoff_cap"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be 0 or more, got {getattr(self, name)}")
        for name in ("timeout", "max_time"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be more than 0, got {getattr(self, name)}")
        if self.retries < 0:
            raise ValueError(f"retries must be 0 or more, got {self.retries}")
        if self.max_bytes < 1024:
            raise ValueError(f"the answer size limit must be 1024 bytes or more, got {self.max_bytes}")
        if not 1 <= self.batch_size <= MAX_BATCH:
            raise ValueError(f"batch size must be between 1 and {MAX_BATCH}, got {self.batch_size}")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: object) -> FetchConfig:
        """Defaults, then ``KB_ARXIV_*`` environment variables, then ``overrides`` (None = unset)."""
        env = os.environ if env is None else env
        types = {f.name: f.type for f in fields(cls)}
        values: dict[str, Any] = {}  # each checked against its field's type by __post_init__
        for name, var in ENV.items():
            raw = env.get(var)
            if raw:
                values[name] = _convert(raw, types[name], var)
        values.update({k: v for k, v in overrides.items() if v is not None})
        return replace(cls(), **values) if values else cls()


def _convert(raw: str, kind: object, var: str) -> object:
    try:
        if kind in ("int", int):
            return int(raw)
        if kind in ("float", float):
            return float(raw)
    except ValueError:
        raise ValueError(f"{var} must be a number, got {raw!r}") from None
    return raw
