"""A threaded HTTP server on loopback serving the fixture site in tests/fixtures/site/.

Routes say how each page is served (status, headers, gzip, redirect, fail-first), so the crawl
meets what real sites do: lying charsets, compressed bodies, redirects, a 500 that recovers.
"""

from __future__ import annotations

import gzip
import threading
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

SITE_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "site"

HTML = "text/html; charset=utf-8"


@dataclass(frozen=True)
class Route:
    """How one path is served."""

    file: str | None = None
    content_type: str | None = HTML
    status: int = 200
    gzip: bool = False
    #: Answer with a 301 to this path instead.
    redirect: str | None = None
    #: Answer 500 this many times before serving the page.
    fail_first: int = 0


#: Article candidates linked from the listing pages, with what the content filter should say.
CANDIDATES: dict[str, str | None] = {
    "/en/rain-garden.html": None,
    "/en/council-budget.html": None,
    "/en/storm.html": None,
    "/go/42": None,  # redirects to /en/library-hours.html
    "/zh/utf8-article.html": None,
    "/zh/gbk-article.html": None,
    "/ru/cp1251-article.html": None,
    "/ru/wrong-charset.html": None,
    "/en/world.html": "listing",
    "/en/old-story.html": "soft_404",
    "/en/premium.html": "login",
    "/en/consent.html": "consent",
    "/en/video.html": "thin",
    "/en/empty.html": "empty",
    "/files/report.pdf": "not_html",
    "/img/photo.png": "not_html",
    "/api/story.json": "not_html",
}

ROUTES: dict[str, Route] = {
    "/robots.txt": Route("robots.txt", "text/plain"),
    "/index.html": Route("index.html"),
    "/page2.html": Route("page2.html"),
    "/en/rain-garden.html": Route("en/rain-garden.html"),
    "/en/council-budget.html": Route("en/council-budget.html", gzip=True),
    "/en/storm.html": Route("en/storm.html", fail_first=1),
    "/go/42": Route(redirect="/en/library-hours.html"),
    "/en/library-hours.html": Route("en/library-hours.html"),
    "/zh/utf8-article.html": Route("zh/utf8-article.html"),
    "/zh/gbk-article.html": Route("zh/gbk-article.html", "text/html; charset=gbk"),
    "/ru/cp1251-article.html": Route("ru/cp1251-article.html", "text/html; charset=windows-1251"),
    # The header lies: the bytes are windows-1251 (as the page's own <meta charset> says).
    "/ru/wrong-charset.html": Route("ru/wrong-charset.html", "text/html; charset=utf-8"),
    "/en/world.html": Route("en/world.html"),
    "/en/old-story.html": Route("en/old-story.html"),
    "/en/premium.html": Route("en/premium.html"),
    "/en/consent.html": Route("en/consent.html"),
    "/en/video.html": Route("en/video.html"),
    "/en/empty.html": Route("en/empty.html", "text/html"),
    "/files/report.pdf": Route("files/report.pdf", "application/pdf"),
    "/img/photo.png": Route("img/photo.png", "image/png"),
    "/api/story.json": Route("api/story.json", "application/json"),
}


class QuietHandler(BaseHTTPRequestHandler):
    """A request handler with one way to answer and no log lines in the test output."""

    def _send(
        self,
        status: int,
        body: bytes,
        content_type: str | None = HTML,
        headers: Mapping[str, str] | None = None,
        length: int | None = None,
    ) -> None:
        """Answer with `body`; a `length` above its size announces bytes that never come."""
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        self.end_headers()
        self.wfile.write(body)
        if length is not None and length > len(body):
            self.close_connection = True

    def log_message(self, format: str, *args: object) -> None:
        pass  # keep pytest output clean


class BacklogServer(ThreadingHTTPServer):
    # socketserver's default backlog of 5 drops SYNs under 16 concurrent connects; the 1 s
    # SYN retransmit would then look like a download timeout.
    request_queue_size = 128


class LoopbackServer:
    """An HTTP server on 127.0.0.1 (a free port), a thread per connection, counting hits per
    path. Subclasses give `_handler_class`; `server_class` may add socket-level behaviour."""

    server_class: type[ThreadingHTTPServer] = BacklogServer

    def __init__(self) -> None:
        self.hits: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._httpd = self.server_class(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def _count(self, path: str) -> int:
        with self._lock:
            self.hits[path] += 1
            return self.hits[path]

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        raise NotImplementedError


class SiteServer(LoopbackServer):
    """Serves `routes` from `root`."""

    def __init__(self, routes: Mapping[str, Route] = ROUTES, root: Path = SITE_DIR) -> None:
        self.routes = dict(routes)
        self.root = root
        super().__init__()

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(QuietHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # no 40 ms delayed-ACK stalls on keep-alive

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                hit = server._count(path)
                route = server.routes.get(path)
                if route is None:
                    self._send(404, b"<html><body><h1>Not found</h1></body></html>", HTML)
                elif route.redirect is not None:
                    self._send(301, b"", None, {"Location": route.redirect})
                elif hit <= route.fail_first:
                    self._send(500, b"<html><body>Server error</body></html>", HTML)
                else:
                    body = (server.root / route.file).read_bytes() if route.file else b""
                    headers = {}
                    if route.gzip:
                        body = gzip.compress(body)
                        headers["Content-Encoding"] = "gzip"
                    self._send(route.status, body, route.content_type, headers)

        return Handler


@contextmanager
def serve(routes: Mapping[str, Route] = ROUTES, root: Path = SITE_DIR) -> Iterator[SiteServer]:
    server = SiteServer(routes, root)
    server.start()
    try:
        yield server
    finally:
        server.stop()
