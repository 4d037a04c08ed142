"""A loopback HTTP server for the demo site (threaded ``http.server`` on 127.0.0.1, any port)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from newsspider.demo.site import DemoSite, build_site


class _Handler(BaseHTTPRequestHandler):
    server: _SiteServer
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self._respond(send_body=True)

    def do_HEAD(self) -> None:
        self._respond(send_body=False)

    def _respond(self, *, send_body: bool) -> None:
        site = self.server.site
        page = site.lookup(self.path) if site is not None else None
        if page is None:
            body = b"<!DOCTYPE html><title>Not found</title><h1>404</h1>"
            status, ctype = 404, "text/html; charset=utf-8"
        else:
            body, status, ctype = page.body, page.status, page.content_type
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if send_body:
            self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Silence the per-request log lines."""


class _SiteServer(ThreadingHTTPServer):
    daemon_threads = True
    # Tests run many crawlers against one server; the default backlog of 5 refuses connections.
    request_queue_size = 512
    site: DemoSite | None = None


@contextmanager
def serve_site() -> Iterator[DemoSite]:
    """Serve a freshly built demo site on 127.0.0.1 for the duration of the ``with`` block."""
    server = _SiteServer(("127.0.0.1", 0), _Handler)
    host, port = server.server_address[:2]
    server.site = build_site(f"http://{host!s}:{port}")
    thread = threading.Thread(target=server.serve_forever, name="newsspider-demo-site", daemon=True)
    thread.start()
    try:
        yield server.site
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
