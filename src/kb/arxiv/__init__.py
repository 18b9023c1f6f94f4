"""arXiv metadata for ``kb paper add/refresh``: HTTP client, Atom parsing and cache.

Contributor tooling only: the site build never imports this package and never
touches the network.

* :mod:`kb.arxiv.config` - settings: defaults, ``KB_ARXIV_*`` variables, options;
* :mod:`kb.arxiv.client` - the HTTP side: one keep-alive connection, a timeout
  on every request, at least ``delay`` seconds between requests, exponential
  backoff with jitter on 429/5xx/connection errors honouring ``Retry-After``,
  a bounded total time, a bounded answer size, no redirect to another host,
  and answers checked against the ids asked for.
* :mod:`kb.arxiv.feed` - Atom -> :class:`kb.data.models.ArxivMeta`, read with
  lxml; malformed XML, API error entries and ids listed twice are errors.
* :mod:`kb.arxiv.cache` - one JSON file per id, written atomically, trusted only
  when it is for the id asked about and was fetched neither in the future nor
  too long ago.
* :mod:`kb.arxiv.fetch` - ids -> metadata: cache first, then batches of at most
  100 ids per request.
"""
