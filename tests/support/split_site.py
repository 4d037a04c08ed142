"""A loopback site of articles split over pages, in three pagination styles, and a paginated
section listing linking their first pages.

- ``rel`` style: ``<link rel="next">`` (and on later pages ``rel="prev"``) in the head; a
  "Next story" link with ``rel="next"`` beside the article leads to another story (never
  joined).
- ``numbered`` style: "1 2 3" page links right after the article, ``?page=N`` URLs.
- ``worded`` style (German): "Nächste Seite" (and "Vorherige Seite") below the text,
  ``-seite-N.html`` URLs.
- ``broken``: page 2 links a page 3 that answers 404 (the item keeps pages 1 and 2); later
  pages name the first as their canonical URL.

``/sitemap.xml`` lists later pages of every story, and the first pages of only some: a crawl
from it reaches page 2 before (or without) page 1.

The section listing ``/news/`` has a second page (``rel="next"`` and numbered links) listing
the other stories: listing pagination is never joined.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler

from support.server import HTML, LoopbackServer, QuietHandler

_WORDS = (
    "harbor council budget river station library school market bridge rain garden festival "
    "museum transit mayor residents district plan project water summer winter report street "
    "hospital park teachers volunteers storm energy housing workers vote city board north"
).split()
_GERMAN_WORDS = (
    "stadt rat haushalt fluss bahnhof bibliothek schule markt brücke regen garten fest museum "
    "verkehr bürgermeister bewohner bezirk plan projekt wasser sommer winter bericht straße"
).split()
PAGES = 3


@dataclass(frozen=True)
class SplitStory:
    style: str
    lang: str
    title: str
    #: Page paths, first page first.
    paths: tuple[str, ...]
    #: Paragraphs by page.
    paragraphs: tuple[tuple[str, ...], ...]
    #: Paths of pages listed in `paths` that the server answers with 404.
    missing: tuple[str, ...] = ()

    @property
    def served_paragraphs(self) -> list[str]:
        return [
            p
            for path, page in zip(self.paths, self.paragraphs, strict=True)
            if path not in self.missing
            for p in page
        ]


def _paragraphs(seed: int, words: list[str], count: int) -> tuple[str, ...]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        sentences = [
            " ".join(rng.choice(words) for _ in range(rng.randint(10, 16))).capitalize() + "."
            for _ in range(4)
        ]
        out.append(" ".join(sentences))
    return tuple(out)


def build_stories() -> list[SplitStory]:
    rel = "/news/2026/03/05/harbor-council-approves-new-flood-plan/"
    numbered = "/story/city-budget-vote-splits-the-council-board.html"
    worded = "/de/stadtrat-beschliesst-neuen-haushalt-fuer-die-schulen.html"
    broken = "/news/2026/03/06/storm-damages-north-bridge-repairs-begin/"
    stories = [
        SplitStory(
            "rel",
            "en",
            "Harbor council approves new flood plan",
            (rel, f"{rel}2/", f"{rel}3/"),
            tuple(_paragraphs(10 + n, _WORDS, 4) for n in range(PAGES)),
        ),
        SplitStory(
            "numbered",
            "en",
            "City budget vote splits the council board",
            (numbered, f"{numbered}?page=2", f"{numbered}?page=3"),
            tuple(_paragraphs(20 + n, _WORDS, 4) for n in range(PAGES)),
        ),
        SplitStory(
            "worded",
            "de",
            "Stadtrat beschließt neuen Haushalt für die Schulen",
            (
                worded,
                worded.replace(".html", "-seite-2.html"),
                worded.replace(".html", "-seite-3.html"),
            ),
            tuple(_paragraphs(30 + n, _GERMAN_WORDS, 4) for n in range(PAGES)),
        ),
        SplitStory(
            "broken",
            "en",
            "Storm damages north bridge as repairs begin",
            (broken, f"{broken}2/", f"{broken}3/"),
            tuple(_paragraphs(40 + n, _WORDS, 4) for n in range(PAGES)),
            missing=(f"{broken}3/",),
        ),
    ]
    return stories


def _pager(story: SplitStory, page: int) -> str:
    """The links to the story's other pages, in its style."""
    paths = story.paths
    if story.style == "numbered":
        links = " ".join(
            f"<span class='current'>{n + 1}</span>" if n == page else f"<a href='{p}'>{n + 1}</a>"
            for n, p in enumerate(paths)
        )
        return f"<nav class='pages'>{links}</nav>"
    if story.style == "worded":
        back = f"<a href='{paths[page - 1]}'>« Vorherige Seite</a> " if page else ""
        ahead = f"<a href='{paths[page + 1]}'>Nächste Seite »</a>" if page + 1 < len(paths) else ""
        return f"<p class='weiter'>{back}{ahead}</p>" if back or ahead else ""
    if story.style == "broken" and page + 1 < len(paths):
        return f"<p><a href='{paths[page + 1]}' rel='next'>Next page</a></p>"
    return ""


def story_page(story: SplitStory, page: int, other: SplitStory) -> bytes:
    head_next = (
        f"<link rel='next' href='{story.paths[page + 1]}'>"
        if story.style == "rel" and page + 1 < len(story.paths)
        else ""
    )
    if story.style == "rel" and page:
        head_next += f"<link rel='prev' href='{story.paths[page - 1]}'>"
    if story.style == "broken" and page:
        head_next += f"<link rel='canonical' href='{story.paths[0]}'>"
    title = story.title + (f" (page {page + 1})" if page else "")
    text = "".join(f"<p>{p}</p>" for p in story.paragraphs[page])
    heading = f"<h1>{story.title}</h1>" if page == 0 else ""
    return (
        f"<!DOCTYPE html><html lang='{story.lang}'><head><meta charset='utf-8'><title>{title}"
        f" | Split Times</title>{head_next}<meta property='article:published_time'"
        f" content='2026-03-05T08:00:00+00:00'></head><body><header><nav><a href='/'>Home</a>"
        f" <a href='/news/'>News</a></nav></header><main><article>{heading}"
        f"<div class='story-text'>{text}</div></article>{_pager(story, page)}"
        f"<aside class='more'><a rel='next' href='{other.paths[0]}'>Next story: {other.title}"
        f"</a></aside></main><footer><p>Split Times, all rights reserved.</p></footer>"
        f"</body></html>"
    ).encode()


def listing_page(stories: list[SplitStory], page: int, pages: int) -> bytes:
    teasers = "".join(
        f"<li><h2><a href='{s.paths[0]}'>{s.title}</a></h2><p>{s.paragraphs[0][0][:120]}</p></li>"
        for s in stories
    )
    path = "/news/" if page == 0 else f"/news/page/{page + 1}/"
    del path
    numbers = " ".join(
        f"<a href='{'/news/' if n == 0 else f'/news/page/{n + 1}/'}'>{n + 1}</a>"
        for n in range(pages)
    )
    head_next = "<link rel='next' href='/news/page/2/'>" if page + 1 < pages else ""
    next_link = "<a rel='next' href='/news/page/2/'>Next page</a>" if page + 1 < pages else ""
    return (
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>News, page"
        f" {page + 1} | Split Times</title>{head_next}</head><body><main><h1>News</h1>"
        f"<ul class='teasers'>{teasers}</ul><nav class='pagination'>{numbers} {next_link}</nav>"
        f"</main></body></html>"
    ).encode()


def sitemap(stories: list[SplitStory]) -> bytes:
    """Every story's later pages first, then the first pages of every other story."""
    paths = [path for story in stories for path in story.paths[1:] if path not in story.missing]
    paths += [story.paths[0] for story in stories[::2]]
    entries = "".join(f"<url><loc>{{base}}{path}</loc></url>" for path in paths)
    return (
        "<?xml version='1.0' encoding='UTF-8'?><urlset"
        f" xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>{entries}</urlset>"
    ).encode()


class SplitSite(LoopbackServer):
    """The stories and the two-page listing, served on loopback; hits counted per path."""

    def __init__(self) -> None:
        self.stories = build_stories()
        half = len(self.stories) // 2
        self.pages: dict[str, bytes] = {
            "/robots.txt": b"User-agent: *\nAllow: /\n",
            "/": listing_page(self.stories[:half], 0, 2),
            "/news/": listing_page(self.stories[:half], 0, 2),
            "/news/page/2/": listing_page(self.stories[half:], 1, 2),
        }
        self.pages["/sitemap.xml"] = sitemap(self.stories)
        for index, story in enumerate(self.stories):
            other = self.stories[(index + 1) % len(self.stories)]
            for page, path in enumerate(story.paths):
                if path not in story.missing:
                    self.pages[path] = story_page(story, page, other)
        super().__init__()

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        site = self

        class Handler(QuietHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                site._count(self.path)
                body = site.pages.get(self.path)
                if body is None:
                    self._send(404, b"<html><body>Not found</body></html>", HTML)
                elif self.path == "/robots.txt":
                    self._send(200, body, "text/plain")
                elif self.path.endswith(".xml"):  # absolute URLs: the port is known now
                    self._send(200, body.replace(b"{base}", site.url.encode()), "application/xml")
                else:
                    self._send(200, body, HTML)

        return Handler


@contextmanager
def serve_split_site() -> Iterator[SplitSite]:
    site = SplitSite()
    site.start()
    try:
        yield site
    finally:
        site.stop()
