"""The HTTP side of arXiv look-ups, done here rather than by an arXiv client library.

Requests are made with ``requests`` and the body handed to :mod:`kb.arxiv.feed`:

* one ``requests.Session`` with a pool of one keep-alive connection;
* ``delay`` seconds at least between the end of one request and the next;
* every request has a deadline of ``timeout`` seconds (connect, each read, and
  the whole answer, checked between reads);
* the answer is streamed and refused once it passes ``max_bytes`` (decompressed),
  or at once when its ``Content-Length`` says it would;
* redirects are followed only within the API's own host (``http`` may become
  ``https``), at most :data:`MAX_REDIRECTS` of them; a redirect elsewhere is an error;
* an answer is checked against the request: every entry must answer for an id
  that was asked for, and no id may come twice;
* 429, 5xx, connection errors, timeouts, malformed XML and an empty answer to
  an explicit id list are retried with exponential backoff and jitter, waiting
  at least what ``Retry-After`` asks; a host name that does not resolve (offline) is not;
* the whole run has a time budget (``max_time``): a wait that would pass it
  ends the request with an error instead.
"""

from __future__ import annotations

import email.utils
import random
import socket
import time
from collections.abc import Callable, Iterator, Sequence
from urllib.parse import urljoin, urlsplit

import requests
from requests.adapters import HTTPAdapter

from kb.arxiv import feed
from kb.arxiv.config import ENV, FetchConfig
from kb.data import arxiv_id
from kb.data.models import ArxivMeta
from kb.messages import t

USER_AGENT = "llm-inference-kb (kb paper add/refresh; python-requests)"
MAX_REDIRECTS = 3
CHUNK = 65536


class FetchError(Exception):
    """A request that failed for good (after any retries); the message says why."""


class _Retry(Exception):
    def __init__(self, reason: str, retry_after: float | None = None, status: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after
        self.status = status  # the HTTP status that asked for the retry, if one did

    def why(self) -> str:
        """Why the request is tried again, in the reader's words (``kb paper add``'s progress)."""
        if self.status == 429:
            return t("cli.fetch.rate_limited")
        return t("cli.fetch.unavailable", status=self.status) if self.status else t("cli.fetch.no_answer")


def ids_text(ids: Sequence[str], shown: int = 3) -> str:
    """The ids of a request as its progress line names them: the first few, then how many."""
    more = t("cli.fetch.more", n=len(ids)) if len(ids) > shown else ""
    return ", ".join(ids[:shown]) + more


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    now = time.time() if now is None else now
    return max(0.0, when.timestamp() - now)


def match_answer(asked: list[str], found: dict[str, ArxivMeta | str]) -> dict[str, ArxivMeta | str]:
    """``found`` keyed by the ids as asked; FetchError when an entry answers for an id not
    asked for, or two entries answer for one id."""
    by_key = {arxiv_id.canonical(base): base for base in asked}
    out: dict[str, ArxivMeta | str] = {}
    stray: list[str] = []
    for base, got in found.items():
        asked_as = by_key.get(arxiv_id.canonical(base))
        if asked_as is None:
            stray.append(base)
        elif asked_as in out:
            raise FetchError(f"the answer lists arXiv {asked_as} more than once; refusing it")
        else:
            out[asked_as] = got
    if stray:
        shown = ", ".join(sorted(stray)[:5]) + (", …" if len(stray) > 5 else "")
        raise FetchError(f"the answer has entries for ids that were not asked for ({shown}); refusing it")
    return out


def same_host(start: str, target: str) -> bool:
    """Whether a redirect from ``start`` to ``target`` stays on the API's host: same scheme,
    host and port, or the same host moving from http to https (default ports) — the redirects
    on which ``requests`` keeps a request's credentials (``Session.should_strip_auth``)."""
    try:
        with requests.Session() as session:
            return bool(urlsplit(start).hostname) and not session.should_strip_auth(start, target)
    except ValueError:  # a port that is not a number, or out of range
        return False


def _size(n: int) -> str:
    return f"{n / 1048576:g} MiB" if n >= 1048576 else f"{n} bytes"


class ArxivClient:
    """Fetches batches of ids from the arXiv API; see the module docstring for the rules."""

    def __init__(
        self,
        config: FetchConfig,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
        progress: Callable[[str], None] | None = None,
    ):
        self.config = config
        self.progress = progress  # told each request of a batch and each wait before a retry
        self.clock = clock
        self.sleep = sleep
        self.rng = rng or random.Random()
        self.deadline = clock() + config.max_time
        self.requests = 0  # requests sent, retries and redirects included
        self._last_end: float | None = None
        self.session = requests.Session()
        adapter = HTTPAdapter(pool_connections=1, pool_maxsize=1, max_retries=0, pool_block=True)
        self.session.mount("http://", adapter)
        self.session.mount("https://", adapter)
        self.session.headers.update({"User-Agent": USER_AGENT, "Accept": "application/atom+xml"})

    def close(self) -> None:
        self.session.close()

    def __enter__(self) -> ArxivClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ batches
    def get_batch(self, ids: list[str]) -> dict[str, ArxivMeta | str]:
        """{base id as asked: metadata or why unusable} for the ids arXiv returned; raises FetchError."""
        params = {"id_list": ",".join(ids), "start": "0", "max_results": str(len(ids))}
        tries = self.config.retries + 1
        if self.progress is not None:
            self.progress(t("cli.fetch.start", ids=ids_text(ids)))
        for attempt in range(tries):
            try:
                return match_answer(ids, self._answer(params))
            except _Retry as retry:
                if attempt + 1 >= tries:
                    raise FetchError(f"{retry.reason} (gave up after {tries} tries)") from None
                self._back_off(attempt, retry, ids)
        raise AssertionError("unreachable")  # pragma: no cover

    def _answer(self, params: dict[str, str]) -> dict[str, ArxivMeta | str]:
        body = self._request(params)
        try:
            count, found = feed.parse(body)
        except feed.MalformedFeed as exc:
            raise _Retry(str(exc)) from None
        except feed.ApiError as exc:
            raise FetchError(str(exc)) from None
        if count == 0:
            raise _Retry("empty answer to an explicit id list")
        return found

    def _back_off(self, attempt: int, retry: _Retry, ids: Sequence[str] = ()) -> None:
        cfg = self.config
        step = min(cfg.backoff_cap, cfg.backoff * (2**attempt))
        wait = step / 2 + self.rng.uniform(0, step / 2)  # "equal jitter"
        if retry.retry_after is not None:
            if retry.retry_after > cfg.backoff_cap:
                raise FetchError(
                    f"{retry.reason}; the server asks to wait {retry.retry_after:g} s, "
                    f"more than the longest wait allowed ({cfg.backoff_cap:g} s)"
                )
            wait = max(wait, retry.retry_after)
        wait = max(wait, self._rate_wait())
        if self.clock() + wait > self.deadline:
            raise FetchError(
                f"{retry.reason}; waiting {wait:.1f} s more would pass the time budget of {cfg.max_time:g} s"
            )
        if self.progress is not None:
            seconds = f"{round(wait, 1):g}"
            self.progress(t("cli.fetch.retry", ids=ids_text(ids), attempt=attempt + 2, wait=seconds, why=retry.why()))
        self.sleep(wait)

    # ------------------------------------------------------------------ one request
    def _rate_wait(self) -> float:
        if self._last_end is None:
            return 0.0
        return max(0.0, self._last_end + self.config.delay - self.clock())

    def _request(self, params: dict[str, str]) -> bytes:
        wait = self._rate_wait()
        if wait:
            if self.clock() + wait > self.deadline:
                raise FetchError(f"the time budget of {self.config.max_time:g} s is used up")
            self.sleep(wait)
        left = self.deadline - self.clock()
        if left <= 0:
            raise FetchError(f"the time budget of {self.config.max_time:g} s is used up")
        limit = min(self.config.timeout, left)
        try:
            return self._follow(params, limit, self.clock() + limit)
        finally:
            self._last_end = self.clock()

    def _follow(self, params: dict[str, str], limit: float, until: float) -> bytes:
        """The answer to the query, following redirects that stay on the API's host."""
        url: str = self.config.api_url
        query: dict[str, str] | None = params
        for _ in range(MAX_REDIRECTS + 1):
            resp = self._open(url, query, limit, until)
            if not resp.is_redirect:
                return self._body(resp, limit, until)
            resp.close()
            target = urljoin(url, resp.headers["location"])
            if not same_host(self.config.api_url, target):
                raise FetchError(
                    f"the API redirected to {target[:200]}, another host; refusing to follow "
                    f"(if the API moved, set {ENV['api_url']} or --api-url to its new address)"
                )
            url, query = target, None
        raise FetchError(f"more than {MAX_REDIRECTS} redirects from {self.config.api_url}")

    def _open(self, url: str, query: dict[str, str] | None, limit: float, until: float) -> requests.Response:
        wait = max(0.001, min(limit, until - self.clock()))
        self.requests += 1
        try:
            return self.session.get(url, params=query, timeout=(wait, wait), stream=True, allow_redirects=False)
        except requests.Timeout:
            raise _Retry(f"no answer within {limit:g} s") from None
        except requests.ConnectionError as exc:
            if _unresolved(exc):  # offline, or no DNS: waiting does not bring the name back (retrying only waits)
                host = urlsplit(url).hostname or url
                raise FetchError(
                    f"cannot find the host {host}: its name does not resolve (offline, or no DNS)"
                ) from None
            raise _Retry(f"connection error: {_reason(exc)}") from None
        except requests.RequestException as exc:
            raise FetchError(f"request failed: {_reason(exc)}") from None

    def _body(self, resp: requests.Response, limit: float, until: float) -> bytes:
        done = False
        try:
            status = resp.status_code
            body = self._read(resp, limit, until)
            done = True
        finally:
            if done:
                resp.raw.release_conn()  # fully read: the connection goes back for reuse
            else:
                resp.close()
        if status == 200:
            return body
        if status == 429 or status >= 500 or status == 408:
            after = parse_retry_after(resp.headers.get("Retry-After"))
            note = f" (Retry-After {after:g} s)" if after is not None else ""
            raise _Retry(f"HTTP {status} {resp.reason or ''}".rstrip() + note, after, status)
        raise FetchError(f"HTTP {status} {resp.reason or ''}".rstrip())

    def _too_large(self) -> FetchError:
        cap = self.config.max_bytes
        return FetchError(
            f"the answer is larger than {_size(cap)}, the most accepted ({ENV['max_bytes']}); "
            "ask for fewer ids at a time (--batch-size) or raise the limit"
        )

    def _read(self, resp: requests.Response, limit: float, until: float) -> bytes:
        declared = resp.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > self.config.max_bytes:
            raise self._too_large()
        body = bytearray()
        try:
            while True:
                if self.clock() > until:
                    raise _Retry(f"answer not complete within {limit:g} s")
                chunk = resp.raw.read1(CHUNK, decode_content=True)
                if not chunk:
                    return bytes(body)
                if len(body) + len(chunk) > self.config.max_bytes:
                    raise self._too_large()
                body += chunk
        except (_Retry, FetchError):
            raise
        except Exception as exc:  # urllib3 timeouts, resets and protocol errors while reading
            if "timed out" in str(exc).lower():
                raise _Retry(f"no complete answer within {limit:g} s") from None
            raise _Retry(f"connection error while reading: {_reason(exc)}") from None


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """``exc`` and what caused it, outermost first (the chain Python prints)."""
    seen: BaseException | None = exc
    while seen is not None:
        yield seen
        seen = seen.__cause__ or (None if seen.__suppress_context__ else seen.__context__)


def _unresolved(exc: BaseException) -> bool:
    """Whether the failure is a host name that did not resolve (``socket.gaierror`` among its causes)."""
    return any(isinstance(cause, socket.gaierror) for cause in _causes(exc))


def _reason(exc: BaseException) -> str:
    """The innermost cause, in one short line."""
    *_, seen = _causes(exc)
    text = str(seen) or type(seen).__name__
    for args in getattr(seen, "args", ())[:1]:
        if isinstance(args, BaseException):
            text = str(args)
    if "Connection reset" in text or isinstance(seen, ConnectionResetError):
        return "connection reset by the server"
    if "RemoteDisconnected" in text or "closed connection without response" in text:
        return "the server closed the connection without answering"
    if "Connection refused" in text or isinstance(seen, ConnectionRefusedError):
        return "connection refused"
    return text.splitlines()[0][:200]
