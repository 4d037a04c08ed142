"""`SoakSite`: a generated loopback news site (home page -> section listings -> dated article
pages, each linking three others as "related"), and `serve` for it on 127.0.0.1.

The site of ``python -m bench.robustness.soak`` and of ``tests/test_crawl_interrupt.py`` (with a
per-request delay and tracking-parameter duplicates of some articles).
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from support.filler import WORDS

_SLUG_WORDS = [w for w in WORDS if len(w) > 3]


# --- the site -------------------------------------------------------------------------------


class SoakSite:
    """A generated news site: ``pages`` articles in sections of ``per_section``.

    delay: seconds each article response waits (to make a crawl slow enough to interrupt).
    duplicates: the first N articles are also "top stories" on the home page (so they are
    fetched first) and are listed again, with ``?utm_source=archive``, on an extra last
    section: different URLs for Scrapy, the same articles for newsspider's dedupe.
    """

    def __init__(
        self, pages: int, per_section: int = 100, delay: float = 0.0, duplicates: int = 0
    ) -> None:
        self.pages = pages
        self.per_section = per_section
        self.delay = delay
        self.duplicates = min(duplicates, pages)
        self.sections = (pages + per_section - 1) // per_section
        self._paths = {self.article_path(i): i for i in range(pages)}

    def article_path(self, index: int) -> str:
        rng = random.Random(f"slug{index}")
        slug = "-".join(rng.choice(_SLUG_WORDS) for _ in range(4))
        return f"/2026/{1 + index % 12:02d}/{1 + index % 28:02d}/{slug}-{index}.html"

    def title(self, index: int) -> str:
        rng = random.Random(f"title{index}")
        return " ".join(rng.choice(WORDS) for _ in range(8)).capitalize()

    def duplicate_paths(self) -> list[str]:
        return [f"{self.article_path(i)}?utm_source=archive" for i in range(self.duplicates)]

    def article_index(self, path: str) -> int | None:
        return self._paths.get(path.split("?", 1)[0])

    def body(self, path: str) -> bytes | None:
        """The page at ``path`` (query ignored), or None for a 404."""
        bare = path.split("?", 1)[0]
        if bare == "/":
            return self._home()
        if bare == "/robots.txt":
            return b"User-agent: *\nAllow: /\n"
        if bare.startswith("/section/"):
            name = bare.removeprefix("/section/").strip("/")
            if name == "archive" and self.duplicates:
                return self._listing("Archive", self.duplicate_paths())
            if name.isdigit() and int(name) < self.sections:
                first = int(name) * self.per_section
                last = min(first + self.per_section, self.pages)
                paths = [self.article_path(i) for i in range(first, last)]
                return self._listing(f"Section {name}", paths)
            return None
        index = self.article_index(bare)
        return None if index is None else self._article(index)

    def _home(self) -> bytes:
        names = [str(k) for k in range(self.sections)] + (["archive"] if self.duplicates else [])
        top = "".join(
            f'<li><a href="{self.article_path(i)}">{self.title(i)}</a></li>'
            for i in range(self.duplicates)
        )
        links = top + "".join(f'<li><a href="/section/{n}/">Section {n}</a></li>' for n in names)
        return (
            "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Soak Times</title></head>"
            f"<body><main><h1>Soak Times</h1><ul>{links}</ul></main></body></html>"
        ).encode()

    def _listing(self, name: str, paths: list[str]) -> bytes:
        links = "".join(
            f'<li><a href="{p}">{self.title(self.article_index(p) or 0)}</a></li>' for p in paths
        )
        return (
            f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{name} | Soak Times"
            f"</title></head><body><header><nav><a href='/'>Home</a></nav></header><main>"
            f"<h1>{name}</h1><ul>{links}</ul></main></body></html>"
        ).encode()

    def _article(self, index: int) -> bytes:
        rng = random.Random(index)
        title = self.title(index)

        def sentence() -> str:
            words = [rng.choice(WORDS) for _ in range(rng.randint(8, 22))]
            return " ".join(words).capitalize() + rng.choice([".", ".", ".", "?", "!"])

        paragraphs = "".join(
            "<p>" + " ".join(sentence() for _ in range(rng.randint(3, 7))) + "</p>\n"
            for _ in range(rng.randint(6, 12))
        )
        related = "".join(
            f'<li><a href="{self.article_path(j)}">{self.title(j)}</a></li>'
            for j in ((index + k) % self.pages for k in (1, 7, 31))
            if j != index
        )
        section = index // self.per_section
        published = self.article_path(index)[1:11].replace("/", "-")
        return (
            f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{title} |"
            f" Soak Times</title><meta property='og:title' content='{title}'>"
            f"<meta property='article:published_time' content='{published}'>"
            f"</head><body><header><nav><a href='/'>Home</a>"
            f" <a href='/section/{section}/'>Section {section}</a></nav></header><main><article>"
            f"<h1>{title}</h1><p class='byline'>By Soak Writer</p>{paragraphs}</article>"
            f"<aside class='related'><h3>Related</h3><ul>{related}</ul></aside></main>"
            f"<footer><p>© Soak Times</p></footer></body></html>"
        ).encode()


class SiteServer:
    """Serves a `SoakSite` on 127.0.0.1 from a thread; counts hits per path (query included)."""

    def __init__(self, site: SoakSite) -> None:
        self.site = site
        self.hits: Counter[str] = Counter()
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def do_GET(self) -> None:
                with server._lock:
                    server.hits[self.path] += 1
                body = site.body(self.path)
                if body is not None and site.delay and site.article_index(self.path) is not None:
                    time.sleep(site.delay)
                self.send_response(200 if body is not None else 404)
                body = body if body is not None else b"<html><body>Not found</body></html>"
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                pass

        class Server(ThreadingHTTPServer):
            request_queue_size = 128  # the default 5 drops connects under concurrency
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a client that hung up (interrupted crawl) is not news

        self._httpd = Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def article_hits(self) -> int:
        """Requests for article URLs so far (duplicates and repeats included)."""
        with self._lock:
            hits = list(self.hits.items())
        return sum(n for path, n in hits if self.site.article_index(path) is not None)

    def articles_served(self) -> set[str]:
        """Article paths (no query) served at least once."""
        with self._lock:
            paths = list(self.hits)
        return {p.split("?", 1)[0] for p in paths if self.site.article_index(p) is not None}

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


@contextmanager
def serve(site: SoakSite) -> Iterator[SiteServer]:
    server = SiteServer(site)
    server.start()
    try:
        yield server
    finally:
        server.stop()
