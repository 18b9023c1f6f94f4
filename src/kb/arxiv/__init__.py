"""arXiv metadata for ``kb paper add/refresh``: HTTP client, Atom parsing and cache.

Contributor tooling only: the site build never imports this package and never
touches the network.

* :mod:`kb.arxiv.config` - settings: defaults, ``KB_ARXIV_*`` variables, options;
* :mod:`kb.arxiv.client` - the HTTP side: one keep-alive connection, a timeout
  on every request, at least ``delay`` seconds between requests, exponential
  backoff with jitter on 429/5xx/connection errors honouring ``Retry-After``,
  and a bounded total time.
* :mod:`kb.arxiv.feed` - Atom -> :class:`kb.data.models.ArxivMeta`, using the
  ``arxiv`` package's entry parser; malformed XML and API error entries are errors.
* :mod:`kb.arxiv.cache` - one JSON file per id, written atomically.
* :mod:`kb.arxiv.fetch` - ids -> metadata: cache first, then batches of at most
  100 ids per request.
"""
