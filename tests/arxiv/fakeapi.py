"""A local stand-in for the arXiv API: a real HTTP server on 127.0.0.1 in a thread.

It answers ``GET /api/query?id_list=…`` with Atom feeds assembled from the
recorded entries in tests/fixtures/arxiv/ (plus synthetic entries for made-up
ids when ``synthesize`` is on), counts requests and connections, and can be
told to misbehave for the next requests: ``plan = ["429:1", "503", "hang",
"empty", "malformed", "reset", "error", "html"]`` (then it answers normally).
Hostile answers: ``"redirect:<url>"`` (302 to that URL), ``"duplicate"`` (every
entry twice), ``"stray:<id>"`` (an extra entry for an id not asked for),
``"huge:<bytes>"`` (a feed padded to that size, with its Content-Length),
``"endless:<bytes>"`` (that many bytes without a Content-Length) and
``"gzipbomb:<bytes>"`` (that many zero bytes, gzip-compressed).
"""

from __future__ import annotations

import hashlib
import socket
import struct
import threading
import time
import zlib
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse
from xml.sax.saxutils import escape

from kb.data import arxiv_id

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "arxiv"


def recorded_entries() -> dict[str, str]:
    """base id -> recorded ``<entry>`` XML."""
    out = {}
    for path in sorted((FIXTURES / "entries").glob("*.xml")):
        text = path.read_text(encoding="utf-8")
        entry_id = text.split("<id>", 1)[1].split("</id>", 1)[0]
        out[arxiv_id.normalize(entry_id.rsplit("/abs/", 1)[1])] = text
    return out


def response(name: str) -> bytes:
    return (FIXTURES / "responses" / name).read_bytes()


def synthetic_entry(base: str) -> str:
    n = int(hashlib.sha256(base.encode()).hexdigest(), 16)
    yy, mm = base[:2], base[2:4]
    day = 1 + n % 27
    return f"""  <entry>
    <id>http://arxiv.org/abs/{base}v1</id>
    <title>Synthetic Serving Study {base}: Scheduling Tokens
  Under Load</title>
    <updated>20{yy}-{mm}-{day:02d}T12:00:00Z</updated>
    <link href="https://arxiv.org/abs/{base}v1" rel="alternate" type="text/html"/>
    <summary>  A synthetic abstract for {base}, used by the tests.
</summary>
    <category term="cs.DC" scheme="http://arxiv.org/schemas/atom"/>
    <published>20{yy}-{mm}-{day:02d}T12:00:00Z</published>
    <arxiv:primary_category term="cs.DC"/>
    <author>
      <name>Test Author {n % 97}</name>
    </author>
  </entry>
"""


def feed(entries: list[str], query: str, max_results: int) -> bytes:
    head = f"""<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">
  <id>https://arxiv.org/api/{hashlib.sha1(query.encode()).hexdigest()[:27]}</id>
  <title>arXiv Query: {escape(query)}</title>
  <updated>2026-09-03T04:00:00Z</updated>
  <link href="https://arxiv.org/api/query?{escape(query)}" type="application/atom+xml"/>
  <opensearch:itemsPerPage>{max_results}</opensearch:itemsPerPage>
  <opensearch:totalResults>{len(entries)}</opensearch:totalResults>
  <opensearch:startIndex>0</opensearch:startIndex>
"""
    return (head + "".join(entries) + "</feed>\n").encode("utf-8")


def _gzip_zeros(size: int) -> bytes:
    """``size`` zero bytes, gzip-compressed a block at a time (never all in memory)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = bytes(1 << 20)
    out = [packer.compress(block[: min(len(block), size - done)]) for done in range(0, size, len(block))]
    return b"".join(out) + packer.flush()


@dataclass
class Seen:
    ids: list[str]
    behaviour: str
    port: int
    at: float


@dataclass
class FakeArxiv:
    entries: dict[str, str] = field(default_factory=recorded_entries)
    synthesize: bool = False  # answer made-up ids too
    plan: list[str] = field(default_factory=list)  # misbehaviours for the next requests
    slow: float = 0.0  # seconds before each answer
    hang_for: float = 5.0
    stamp: bool = False  # titles carry the request number, so every answer differs
    requests: list[Seen] = field(default_factory=list)

    def __post_init__(self):
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive

            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):
                fake._handle(self)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/api/query"

    @property
    def connections(self) -> int:
        return len({r.port for r in self.requests})

    def start(self) -> FakeArxiv:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self.server.shutdown()
        self.server.server_close()

    # ------------------------------------------------------------------ answers
    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        url = urlparse(h.path)
        query = parse_qs(url.query)
        ids = [i for i in query.get("id_list", [""])[0].split(",") if i]
        with self.lock:
            behaviour = self.plan.pop(0) if self.plan else "ok"
            self.requests.append(Seen(ids, behaviour, h.client_address[1], time.monotonic()))
        if self.slow:
            self.stopping.wait(self.slow)
        kind, _, arg = behaviour.partition(":")
        if url.path != "/api/query":
            return self._send(h, 404, b"not found", "text/plain")
        if kind == "hang":
            self.stopping.wait(self.hang_for)
            h.close_connection = True
            return None
        if kind == "reset":
            return self._reset(h)
        if kind == "429":
            return self._send(h, 429, b"Rate exceeded.", "text/plain", {"Retry-After": arg or "1"})
        if kind in ("500", "502", "503", "504", "400"):
            return self._send(h, int(kind), f"status {kind}".encode(), "text/plain")
        if kind == "error":
            return self._send(h, 200, response("error-bad-id.xml"))
        if kind == "empty":
            return self._send(h, 200, feed([], url.query, len(ids)))
        if kind == "html":
            return self._send(h, 200, b"<html><body>Service temporarily unavailable</body></html>", "text/html")
        if kind == "redirect":
            return self._send(h, 302, b"moved", "text/plain", {"Location": arg})
        if kind in ("huge", "endless", "gzipbomb"):
            return self._oversized(h, kind, int(arg))
        found = []
        for raw in ids:
            base = arxiv_id.normalize(raw)
            if base in self.entries:
                found.append(self.entries[base])
            elif self.synthesize and base and not base.startswith("2501.9"):
                found.append(synthetic_entry(base))
        if self.stamp:
            found = [e.replace("</title>", f" (answer {len(self.requests)})</title>", 1) for e in found]
        if kind == "duplicate":
            found = found + found
        if kind == "stray":
            found.append(synthetic_entry(arg))
        body = feed(found, url.query, int(query.get("max_results", ["10"])[0]))
        if kind == "malformed":
            body = body[: len(body) // 2]
        return self._send(h, 200, body)

    def _send(
        self,
        h,
        status: int,
        body: bytes,
        ctype: str = "application/atom+xml; charset=utf-8",
        headers: dict[str, str] | None = None,
    ) -> None:
        try:
            h.send_response(status)
            h.send_header("Content-Type", ctype)
            h.send_header("Content-Length", str(len(body)))
            for k, v in (headers or {}).items():
                h.send_header(k, v)
            h.end_headers()
            h.wfile.write(body)
        except OSError:  # the client gave up (e.g. was killed)
            h.close_connection = True

    def _oversized(self, h, kind: str, size: int) -> None:
        """A body of ``size`` bytes: declared, streamed without a length, or gzip-compressed."""
        try:
            h.send_response(200)
            h.send_header("Content-Type", "application/atom+xml; charset=utf-8")
            if kind == "huge":
                h.send_header("Content-Length", str(size))
            elif kind == "gzipbomb":
                body = _gzip_zeros(size)
                h.send_header("Content-Encoding", "gzip")
                h.send_header("Content-Length", str(len(body)))
            h.send_header("Connection", "close")
            h.end_headers()
            if kind == "gzipbomb":
                h.wfile.write(body)
            else:
                block = b" " * 65536
                for _ in range(size // len(block)):
                    h.wfile.write(block)
        except OSError:  # the client stopped reading and closed the connection, as it should
            pass
        h.close_connection = True

    def _reset(self, h) -> None:
        """Drop the connection with a TCP reset, no answer at all."""
        h.close_connection = True
        sock = h.connection
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        h.rfile.close()
        sock.close()
