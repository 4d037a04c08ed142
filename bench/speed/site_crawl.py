"""The ``site`` spider on a loopback news site built from development corpus pages.

    python -m bench.speed.site_crawl [--corpus NAME ...] [--limit N] [--json]

The site is generated in memory and served on 127.0.0.1 (corpus pages are never written
anywhere): every corpus page with a URL is an article, served under its original path (so
article URLs keep their real shapes: dated, numeric, slugged, undashed), a home page and
section pages with numbered pagination link them with teasers of several kinds (headline,
image-only link, "Read more"), and the article pages keep all their own links. Their relative
links resolve to the loopback site, where nothing but the generated pages exists: a request
for one of them is a request for a non-page (404).

It prints:
- link classification on the site's pages (`classify_links` and the spider's rules), with
  precision/recall of the article and listing classes, on listing pages and on article pages;
- one crawl with the bundled settings (robots.txt obeyed, no politeness delay against
  ourselves, no extraction: the add-on is off so that only finding is measured): articles
  found (reported as pages to extract) out of those on the site, and the share of requests
  that went to non-pages.
"""

from __future__ import annotations

import argparse
import html
import json
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from lxml import html as lxml_html
from w3lib.url import safe_url_string

from bench.corpus import Page, corpora_root, iter_corpus

DEFAULT_CORPORA = ("scrapinghub_aeb", "magichtml_article")
SECTIONS = ("world", "business", "science", "culture", "sport", "opinion", "tech", "travel")
PER_PAGE = 12
HOME_STORIES = 12


@dataclass
class Site:
    """Paths (with query) -> (body, content type), and which paths are which kind of page."""

    pages: dict[str, tuple[bytes, str]] = field(default_factory=dict)
    articles: set[str] = field(default_factory=set)
    listings: set[str] = field(default_factory=set)
    #: Corpus pages not served (their URL is the home page's or another page's).
    left_out: int = 0


def _target(url: str) -> str:
    """The request target as a client sends it (non-ASCII percent-encoded, as Scrapy does)."""
    parts = urlsplit(safe_url_string(url))
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def _headline(page: Page) -> str:
    """The truth title, else the page's own <title>, else the first words of the truth body."""
    if page.title:
        return page.title.strip()
    try:
        title = lxml_html.document_fromstring(page.html).findtext(".//title") or ""
    except Exception:  # lxml refuses some documents
        title = ""
    words = title.split() or (page.body or "").split()[:10]
    return " ".join(words) or page.id[:12]


def _teaser(index: int, path: str, title: str) -> str:
    """Teasers as sites write them; one in three with an image link, one in four "Read more"."""
    link = html.escape(path, quote=True)
    parts = []
    if index % 3 == 0:
        parts.append(f'<a href="{link}"><img src="/img/{index}.jpg" alt=""></a>')
    parts.append(f'<h3><a href="{link}">{html.escape(title)}</a></h3>')
    parts.append("<p>A short summary of the story, as section pages show under a headline.</p>")
    if index % 4 == 0:
        parts.append(f'<a class="more" href="{link}">Read more</a>')
    return f'<div class="teaser">{"".join(parts)}</div>'


def _listing_page(title: str, teasers: list[str], pager: str) -> bytes:
    nav = "".join(f'<li><a href="/section/{name}/">{name.title()}</a></li>' for name in SECTIONS)
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)} | Loopback News</title></head><body>"
        f'<header><a href="/">Loopback News</a><nav><ul>{nav}</ul></nav></header>'
        f"<main><h1>{html.escape(title)}</h1>{''.join(teasers)}{pager}</main>"
        '<footer><a href="/about/">About us</a> <a href="/contact/">Contact</a> '
        '<a href="/privacy/">Privacy</a></footer></body></html>'
    ).encode()


def build_site(pages: list[Page]) -> Site:
    site = Site()
    site.pages["/robots.txt"] = (b"User-agent: *\nAllow: /\n", "text/plain")
    stories: list[tuple[str, str]] = []
    for page in pages:
        path = _target(page.url or "")
        # The generated home owns "/" (with any query: "/?id=9" is the home page to a crawler)
        # and the sections their paths; a second copy of a URL is left out.
        if urlsplit(path).path == "/" or path.startswith("/section/") or path in site.pages:
            site.left_out += 1
            continue
        site.pages[path] = (page.html, "text/html")
        site.articles.add(path)
        stories.append((path, _headline(page)))
    by_section: dict[str, list[tuple[str, str]]] = {name: [] for name in SECTIONS}
    for index, story in enumerate(stories):
        by_section[SECTIONS[index % len(SECTIONS)]].append(story)
    for name, section_stories in by_section.items():
        chunks = [
            section_stories[i : i + PER_PAGE] for i in range(0, len(section_stories), PER_PAGE)
        ]
        for number, chunk in enumerate(chunks, 1):
            path = f"/section/{name}/" if number == 1 else f"/section/{name}/page/{number}/"
            numbers = " ".join(
                f'<a href="/section/{name}/page/{n}/">{n}</a>' if n > 1 else
                f'<a href="/section/{name}/">1</a>'
                for n in range(1, len(chunks) + 1)
            )  # fmt: skip
            newer = f' <a href="/section/{name}/page/{number + 1}/">Next »</a>'
            pager = f'<div class="pager">{numbers}{newer if number < len(chunks) else ""}</div>'
            teasers = [_teaser(i, p, t) for i, (p, t) in enumerate(chunk)]
            site.pages[path] = (_listing_page(name.title(), teasers, pager), "text/html")
            site.listings.add(path)
    home = [_teaser(i, p, t) for i, (p, t) in enumerate(stories[:HOME_STORIES])]
    site.pages["/"] = (_listing_page("Top stories", home, ""), "text/html")
    site.listings.add("/")
    return site


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        found = self.server.site.pages.get(self.path)
        with self.server.lock:
            self.server.hits[self.path] += 1
            if found is None:
                self.server.referers[self.headers.get("Referer", "")] += 1
        body, ctype, status = (
            (found[0], found[1], 200) if found else (b"<h1>Not found</h1>", "text/html", 404)
        )
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Silence the per-request log lines."""


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256

    def __init__(self, site: Site) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.site = site
        self.hits: Counter[str] = Counter()
        #: Pages that linked to non-pages, and how many requests for non-pages they caused.
        self.referers: Counter[str] = Counter()
        self.lock = threading.Lock()


@contextmanager
def serve(site: Site) -> Iterator[_Server]:
    server = _Server(site)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def _ratio(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def classification(site: Site, base: str) -> dict[str, Any]:
    """Precision/recall of the article and listing classes over the links of the site's pages,
    each (page, link URL) once, on listing pages and on article pages apart."""
    from newsspider.spiders._links import LinkKind, UrlRules, classify_links

    rules = UrlRules()
    host = urlsplit(base).hostname or ""
    result: dict[str, Any] = {}
    for group, paths in (("listing_pages", site.listings), ("article_pages", site.articles)):
        counts: Counter[tuple[str, str]] = Counter()
        for path in sorted(paths):
            body, _ = site.pages[path]
            try:
                root = lxml_html.document_fromstring(body)
            except Exception:  # lxml refuses some bytes (empty documents)
                continue
            for link in classify_links(root, base + path, [host]):
                kind = rules.kind_of(link)
                predicted = "article" if kind is LinkKind.ARTICLE else "listing"
                target = _target(link.url)
                truth = (
                    "article"
                    if target in site.articles
                    else "listing"
                    if target in site.listings
                    else "non_page"
                )
                counts[(truth, predicted)] += 1
        summary: dict[str, Any] = {"links": sum(counts.values())}
        for cls in ("article", "listing"):
            predicted_n = sum(n for (_, p), n in counts.items() if p == cls)
            truth_n = sum(n for (t, _), n in counts.items() if t == cls)
            hits = counts[(cls, cls)]
            summary[cls] = {
                "precision": round(_ratio(hits, predicted_n), 4),
                "recall": round(_ratio(hits, truth_n), 4),
                "true": truth_n,
                "predicted": predicted_n,
            }
        summary["non_page_links"] = sum(n for (t, _), n in counts.items() if t == "non_page")
        summary["non_page_as_article"] = counts[("non_page", "article")]
        result[group] = summary
    return result


def crawl(site: Site, server: _Server, base: str, args: dict[str, str]) -> dict[str, Any]:
    from scrapy import signals

    from newsspider.demo.crawl import LOOPBACK_SETTINGS, project_settings
    from newsspider.items import PageItem

    settings = project_settings({**LOOPBACK_SETTINGS, "ADDONS": {}, "LOG_LEVEL": "ERROR"})
    from scrapy.crawler import AsyncCrawlerProcess, Crawler

    process = AsyncCrawlerProcess(settings)
    crawler = Crawler(process.spider_loader.load("site"), settings)
    reported: list[str] = []

    def collect(item: Any, **_: Any) -> None:
        if isinstance(item, PageItem):
            reported.append(_target(item.url))

    crawler.signals.connect(collect, signal=signals.item_scraped, weak=False)
    started = time.perf_counter()
    process.crawl(crawler, url=base + "/", **args)
    process.start()
    seconds = time.perf_counter() - started
    hits = dict(server.hits)
    requests = sum(hits.values())
    non_pages = sum(n for path, n in hits.items() if path not in site.pages)
    found = set(reported) & site.articles
    stats = crawler.stats.get_stats()
    return {
        "articles_on_site": len(site.articles),
        "articles_found": len(found),
        "found_share": round(_ratio(len(found), len(site.articles)), 4),
        "reported_not_articles": len(set(reported) - site.articles),
        "requests": requests,
        "non_page_requests": non_pages,
        "non_page_share": round(_ratio(non_pages, requests), 4),
        "listing_pages_fetched": sum(1 for path in hits if path in site.listings),
        "listings_that_were_articles": int(
            stats.get("newsspider/spider/listing_was_article_count", 0)
        ),
        "seconds": round(seconds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.speed.site_crawl", description=__doc__)
    parser.add_argument("--corpus", action="append", help=f"default: {', '.join(DEFAULT_CORPORA)}")
    parser.add_argument("--corpora", help="corpora folder (default ../shared/corpora)")
    parser.add_argument("--limit", type=int, help="pages per corpus")
    parser.add_argument("-a", dest="spider_args", action="append", default=[],
                        metavar="NAME=VALUE", help="extra site spider argument")  # fmt: skip
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args(argv)
    root = corpora_root(options.corpora)
    pages = [
        page
        for name in options.corpus or DEFAULT_CORPORA
        for page in iter_corpus(name, root, options.limit)
        if page.url
    ]
    site = build_site(pages)
    spider_args = dict(arg.split("=", 1) for arg in options.spider_args)
    with serve(site) as server:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        report: dict[str, Any] = {
            "corpora": options.corpus or list(DEFAULT_CORPORA),
            "articles": len(site.articles),
            "listing_pages": len(site.listings),
            "left_out": site.left_out,
            "classification": classification(site, base),
            "crawl": crawl(site, server, base, spider_args),
        }
    if options.json:
        json.dump(report, sys.stdout, indent=2)
        print()
        return 0
    print(
        f"site: {report['articles']} corpus articles ({report['left_out']} left out: URL taken),"
        f" {report['listing_pages']} generated listing pages"
    )
    for group, summary in report["classification"].items():
        print(f"links on {group.replace('_', ' ')}: {summary['links']}")
        for cls in ("article", "listing"):
            s = summary[cls]
            print(
                f"  {cls:8} precision {s['precision']:.3f} recall {s['recall']:.3f}"
                f"  (true {s['true']}, predicted {s['predicted']})"
            )
        print(
            f"  links to non-pages {summary['non_page_links']}, "
            f"of which classed article {summary['non_page_as_article']}"
        )
    c = report["crawl"]
    print(
        f"crawl: {c['articles_found']}/{c['articles_on_site']} articles found "
        f"({c['found_share']:.1%}); {c['non_page_requests']}/{c['requests']} requests to "
        f"non-pages ({c['non_page_share']:.1%}); {c['reported_not_articles']} non-articles "
        f"reported; {c['listing_pages_fetched']} listing pages fetched, "
        f"{c['listings_that_were_articles']} listing links were articles; {c['seconds']} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
