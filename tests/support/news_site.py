"""A generated news site on loopback: a home page, section listings, a few hundred articles.

Built for crawls that several processes share: the server counts every hit per path, so a test
can check that no page was fetched twice, and it can add a delay per response (a remote site's
latency, without burning CPU).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler

from support.server import HTML, LoopbackServer, QuietHandler

_WORDS = (
    "council budget harbor river station library school market bridge rain garden festival "
    "museum transit mayor residents district plan project water summer winter report street "
    "hospital park teachers volunteers storm energy housing workers vote city board north"
).split()
PER_SECTION = 20


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(10, 18))]
    return " ".join(words).capitalize() + "."


def headline(index: int) -> str:
    rng = random.Random(index * 7919)
    return " ".join(rng.choice(_WORDS) for _ in range(7)).capitalize() + f" {index}"


def article_path(index: int) -> str:
    slug = headline(index).lower().replace(" ", "-")
    return f"/news/2026/03/{1 + index % 28:02d}/{slug}/"


def article_page(index: int, count: int) -> bytes:
    rng = random.Random(index)
    title = headline(index)
    paragraphs = "".join(
        "<p>" + " ".join(_sentence(rng) for _ in range(4)) + "</p>" for _ in range(6)
    )
    related = "".join(
        f'<li><a href="{article_path(j)}">{headline(j)}</a></li>'
        for j in (rng.randrange(count) for _ in range(3))
    )
    return (
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{title} | Loop"
        f" Times</title><meta property='article:published_time' content='2026-03-"
        f"{1 + index % 28:02d}T08:00:00+00:00'></head><body><header><nav><a href='/'>Home</a>"
        f"</nav></header><main><article><h1>{title}</h1>{paragraphs}</article>"
        f"<aside class='related'><h2>Related</h2><ul>{related}</ul></aside></main>"
        f"<footer><p>Loop Times</p></footer></body></html>"
    ).encode()


def section_page(section: int, count: int) -> bytes:
    first = section * PER_SECTION
    items = "".join(
        f'<li><h2><a href="{article_path(i)}">{headline(i)}</a></h2>'
        f"<p>{_sentence(random.Random(i))}</p></li>"
        for i in range(first, min(first + PER_SECTION, count))
    )
    return (
        f"<!DOCTYPE html><html><head><title>Section {section} | Loop Times</title></head><body>"
        f"<main><h1>Section {section}</h1><ul>{items}</ul></main></body></html>"
    ).encode()


def home_page(sections: int) -> bytes:
    links = "".join(f'<li><a href="/section/{s}/">Section {s}</a></li>' for s in range(sections))
    return (
        "<!DOCTYPE html><html><head><title>Loop Times</title></head><body>"
        f"<nav><ul>{links}</ul></nav><main><h1>Loop Times</h1></main></body></html>"
    ).encode()


class NewsSite(LoopbackServer):
    """``count`` articles in sections of `PER_SECTION`; ``delay`` seconds before each answer."""

    def __init__(self, count: int = 200, delay: float = 0.0) -> None:
        self.count = count
        self.delay = delay
        sections = -(-count // PER_SECTION)
        self.pages: dict[str, bytes] = {"/": home_page(sections)}
        self.pages["/robots.txt"] = b"User-agent: *\nDisallow: /private/\n"
        for s in range(sections):
            self.pages[f"/section/{s}/"] = section_page(s, count)
        self.articles = [article_path(i) for i in range(count)]
        for i, path in enumerate(self.articles):
            self.pages[path] = article_page(i, count)
        super().__init__()

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        site = self

        class Handler(QuietHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                site._count(path)
                if site.delay:
                    time.sleep(site.delay)
                body = site.pages.get(path)
                if body is None:
                    self._send(404, b"<html><body>Not found</body></html>", HTML)
                elif path == "/robots.txt":
                    self._send(200, body, "text/plain")
                else:
                    self._send(200, body, HTML)

        return Handler


@contextmanager
def serve_news_site(count: int = 200, delay: float = 0.0) -> Iterator[NewsSite]:
    site = NewsSite(count, delay)
    site.start()
    try:
        yield site
    finally:
        site.stop()
