"""A loopback site with hostile pages and sitemaps of any size, served from a thread: the site of
``python -m bench.robustness.hostile_crawl`` and of ``tests/test_crawl_loop.py``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from support.generated_pages import article_page
from support.loopback import http_response, serve_responses

HOSTILE: dict[str, bytes] = {
    "unclosed-script": b"<html><body>" + b"<script>" * (64 * 1024 // 8),
    "unclosed-anchor": b"<html><body>" + b"<a" * (64 * 1024 // 2),
    "unclosed-comment": b"<html><body>" + b"<!--" * (64 * 1024 // 4),
    "dense-paragraphs": b"<html><body>" + b"<p>x" * (1024 * 1024 // 4),
    "many-attributes": b"<html><body><p " + b" ".join(b"a%d=1" % i for i in range(20_000)) + b">",
    "undecodable": b"<" * (32 * 1024) + b"\xff",
}


def sitemap(urls: int, hostile: bool, site: str = "") -> bytes:
    """A urlset: the hostile pages first (``hostile``), then ``urls`` articles; the locs are
    absolute when ``site`` is given (the protocol wants them so; older newsspider needs it)."""
    head = [f"<url><loc>{site}/h/{n}.html</loc></url>\n" for n in HOSTILE] if hostile else []
    body = (
        f"<url><loc>{site}/a/{i}.html</loc><lastmod>2026-03-05</lastmod></url>\n"
        for i in range(urls)
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        + "".join(head)
        + "".join(body)
        + "</urlset>"
    ).encode()


@contextmanager
def serve(documents: Callable[[str], dict[str, bytes]]) -> Iterator[str]:
    """The site on 127.0.0.1, from a thread: ``documents(site_url)`` (file name -> XML), the
    hostile pages, and articles on demand."""
    fixed: dict[bytes, bytes] = {}
    for name, body in HOSTILE.items():
        fixed[f"/h/{name}.html".encode()] = http_response(body)

    def answer(path: bytes) -> bytes:
        if path in fixed:
            return fixed[path]
        if path.startswith(b"/a/") and path.endswith(b".html"):
            return http_response(article_page(int(path[3:-5])))
        return b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"

    with serve_responses(answer) as site:
        # The sitemaps' locs are absolute: they are written once the port is known.
        for name, body in documents(site).items():
            fixed[f"/{name}".encode()] = http_response(body, content_type=b"application/xml")
        yield site
