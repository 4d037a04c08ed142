"""A loopback news site that misbehaves on purpose, one fault per article URL.

The home page links every article with a dated, headline-like link (so the bundled ``site``
spider takes each for an article). Each article path names its fault; `FAULTS` says what the
server does and what the crawl should make of it. The server runs in a thread of the test
process; hits per path are counted, so a test can see Scrapy's retries and redirects.
"""

from __future__ import annotations

import gzip
import random
import socket
import struct
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any

from support.filler import WORDS
from support.server import HTML, BacklogServer, LoopbackServer, QuietHandler

DAY = "/2026/03/05/"

#: Settings the fault crawl runs with: short limits, so every fault shows up within seconds.
DOWNLOAD_TIMEOUT = 1.5
DOWNLOAD_MAXSIZE = 256 * 1024
REDIRECT_MAX_TIMES = 3
RETRY_TIMES = 2
#: How long the slow page makes the client wait: well past DOWNLOAD_TIMEOUT.
SLOW_SECONDS = 4.0


@dataclass(frozen=True)
class Fault:
    """What the server does for one article URL and how the crawl should account for it.

    outcome: ``item``; ``drop:<reason>`` (newsspider/dropped/reason_count/<reason>);
    ``error:<reason>`` (newsspider/spider/request_error_reason_count/<reason>);
    ``dupefilter`` (Scrapy's dupefilter/filtered).
    """

    slug: str
    behaviour: str
    outcome: str
    #: The Scrapy / newsspider stats keys that show the fault.
    stats: tuple[str, ...] = ()

    @property
    def path(self) -> str:
        return f"{DAY}{self.slug}.html"


FAULTS: tuple[Fault, ...] = (
    Fault("plain-healthy-article-one", "200, a plain article", "item"),
    Fault("plain-healthy-article-two", "200, gzip-compressed article", "item"),
    Fault(
        "server-error-then-success-story",
        "503 on the first request, then 200",
        "item",
        ("retry/count", "retry/reason_count/503 Service Unavailable"),
    ),
    Fault(
        "connection-reset-then-success-story",
        "TCP reset (no response) on the first request, then 200",
        "item",
        ("retry/count", "downloader/exception_type_count/*"),
    ),
    Fault(
        "server-error-every-time-story",
        "500 on every request",
        "error:http_error",
        ("retry/max_reached", "httperror/response_ignored_status_count/500"),
    ),
    Fault(
        "missing-page-not-found-story",
        "404",
        "error:http_error",
        ("httperror/response_ignored_status_count/404",),
    ),
    Fault(
        "connection-reset-every-time-story",
        "TCP reset (no response) on every request",
        "error:connection",
        ("retry/max_reached", "downloader/exception_type_count/*"),
    ),
    Fault(
        "truncated-body-every-time-story",
        "Content-Length promises more bytes than are sent, then the connection closes",
        "error:data_loss",
        ("retry/max_reached", "downloader/exception_type_count/*"),
    ),
    Fault(
        "gzip-body-cut-in-half-story",
        "gzip-compressed article cut in half, Content-Length matching what is sent",
        "drop:truncated",
        ("newsspider/pipeline/truncated_response_count",),
    ),
    Fault(
        "slower-than-download-timeout-story",
        f"answers after {SLOW_SECONDS:g} s (DOWNLOAD_TIMEOUT {DOWNLOAD_TIMEOUT:g} s)",
        "error:timeout",
        ("retry/max_reached", "downloader/exception_type_count/*"),
    ),
    Fault(
        "redirect-loop-between-two-pages",
        "301 to a second URL that 301s back to the first",
        "dupefilter",
        ("dupefilter/filtered",),
    ),
    Fault(
        "redirect-chain-that-never-ends",
        "301 to /chain/1, which 301s to /chain/2, and so on",
        "error:redirect_limit",
        ("newsspider/spider/request_error_reason_count/redirect_limit",),
    ),
    Fault(
        "compressed-bomb-past-maxsize",
        f"gzip body of a few KiB that expands past DOWNLOAD_MAXSIZE ({DOWNLOAD_MAXSIZE} B)",
        "error:too_large",
        ("newsspider/spider/request_error_reason_count/too_large",),
    ),
    Fault(
        "declared-size-past-maxsize",
        "Content-Length above DOWNLOAD_MAXSIZE",
        "error:too_large",
        ("downloader/exception_type_count/scrapy.exceptions.DownloadCancelledError",),
    ),
    Fault(
        "html-article-served-as-image",
        "an HTML article sent as Content-Type: image/png",
        "drop:not_html",
        ("newsspider/dropped/reason_count/not_html",),
    ),
    Fault(
        "pdf-document-served-as-html",
        "a PDF sent as Content-Type: text/html",
        "drop:not_html",
        ("newsspider/dropped/reason_count/not_html",),
    ),
)

BY_PATH = {fault.path: fault for fault in FAULTS}
LOOP_B = f"{DAY}redirect-loop-second-page.html"


def article_html(seed: str) -> bytes:
    """A plausible article page, different for every seed (so no two bodies are duplicates)."""
    rng = random.Random(seed)

    def sentence() -> str:
        words = [rng.choice(WORDS) for _ in range(rng.randint(8, 20))]
        return " ".join(words).capitalize() + "."

    title = " ".join(rng.choice(WORDS) for _ in range(7)).capitalize()
    paragraphs = "".join(
        "<p>" + " ".join(sentence() for _ in range(rng.randint(3, 6))) + "</p>\n" for _ in range(8)
    )
    return (
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{title} | Fault"
        f" Gazette</title></head><body><header><nav><a href='/'>Home</a></nav></header>"
        f"<main><article><h1>{title}</h1><p class='byline'>By Test Writer</p>{paragraphs}"
        f"</article></main><footer><p>Fault Gazette</p></footer></body></html>"
    ).encode()


def home_html() -> bytes:
    links = "".join(
        f'<li><a href="{fault.path}">{fault.slug.replace("-", " ").capitalize()} in the'
        f" valley today</a></li>"
        for fault in FAULTS
    )
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Fault Gazette</title></head>"
        f"<body><main><h1>Latest stories</h1><ul>{links}</ul></main></body></html>"
    ).encode()


_PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n" + b"0" * 2000 + b"\n%%EOF\n"
_BOMB = gzip.compress(b"<html><body>" + b" " * (4 * DOWNLOAD_MAXSIZE) + b"</body></html>")


class _ResettingServer(BacklogServer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: File numbers of connections to close with a reset.
        self.resets: set[int] = set()

    def shutdown_request(self, request: Any) -> None:
        if request.fileno() in self.resets:
            self.resets.discard(request.fileno())
            request.close()  # no shutdown(SHUT_WR) first: with SO_LINGER 0 this is a RST
            return
        super().shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # clients hanging up on the slow and oversized pages are expected


class FaultServer(LoopbackServer):
    """Serves the fault site; can close chosen connections with a reset."""

    server_class = _ResettingServer
    _httpd: _ResettingServer

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(QuietHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                hit = server._count(path)
                if path == "/":
                    self._send(200, home_html())
                elif path == LOOP_B:
                    self._redirect(BY_PATH[f"{DAY}redirect-loop-between-two-pages.html"].path)
                elif path.startswith("/chain/"):
                    self._redirect(f"/chain/{int(path.rsplit('/', 1)[1]) + 1}")
                elif path in BY_PATH:
                    self._fault(BY_PATH[path].slug, hit)
                else:
                    self._send(404, b"<html><body><h1>Not found</h1></body></html>")

            def _fault(self, slug: str, hit: int) -> None:
                page = article_html(slug)
                if slug == "plain-healthy-article-two":
                    self._send(200, gzip.compress(page), headers={"Content-Encoding": "gzip"})
                elif slug == "server-error-then-success-story" and hit == 1:
                    self._send(503, b"<html><body>Try again</body></html>")
                elif slug == "connection-reset-then-success-story" and hit == 1:
                    self._reset()
                elif slug == "server-error-every-time-story":
                    self._send(500, b"<html><body>Server error</body></html>")
                elif slug == "missing-page-not-found-story":
                    self._send(404, b"<html><body><h1>Not found</h1></body></html>")
                elif slug == "connection-reset-every-time-story":
                    self._reset()
                elif slug == "truncated-body-every-time-story":
                    self._send(200, page, length=len(page) + 1000)
                elif slug == "gzip-body-cut-in-half-story":
                    compressed = gzip.compress(page)
                    half = compressed[: len(compressed) // 2]
                    self._send(200, half, headers={"Content-Encoding": "gzip"})
                elif slug == "slower-than-download-timeout-story":
                    time.sleep(SLOW_SECONDS)
                    self._send(200, page)
                elif slug == "redirect-loop-between-two-pages":
                    self._redirect(LOOP_B)
                elif slug == "redirect-chain-that-never-ends":
                    self._redirect("/chain/1")
                elif slug == "compressed-bomb-past-maxsize":
                    self._send(200, _BOMB, headers={"Content-Encoding": "gzip"})
                elif slug == "declared-size-past-maxsize":
                    self._send(200, page, length=2 * DOWNLOAD_MAXSIZE)
                elif slug == "html-article-served-as-image":
                    self._send(200, page, "image/png")
                elif slug == "pdf-document-served-as-html":
                    self._send(200, _PDF, HTML)
                else:
                    self._send(200, page)

            def _redirect(self, location: str) -> None:
                self._send(301, b"", None, {"Location": location})

            def _reset(self) -> None:
                # SO_LINGER 0: closing sends RST instead of FIN; the server closes without the
                # usual shutdown(SHUT_WR) (see `_ResettingServer.shutdown_request`).
                linger = struct.pack("ii", 1, 0)
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
                server._httpd.resets.add(self.connection.fileno())
                self.close_connection = True

        return Handler


@contextmanager
def serve_faults() -> Iterator[FaultServer]:
    server = FaultServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()
