"""`ArticleNavigation`'s article links (`newsspider.navigation.find_navigation`, the ``site``
spider's link classifier) measured on listing pages.

    .venv/bin/python -m bench.accuracy.navigation [--corpora PATH] [--pages] [--json OUT]

Three sets of listing pages, each with its own judge of which links are articles:

- ``demo``: every listing page of the bundled demo site (home pages, section pages and their
  pagination); truth: the site generator's own list of story URLs.
- ``generated``: the section and home pages `bench.speed.site_crawl` generates around the
  development corpora's article URLs (real URL shapes, teasers of several kinds, menus, pager,
  footer); truth: the corpus pages it links.
- ``wceb listing`` / ``wceb collection``: the pages labelled ``listing`` / ``collection`` in
  wceb2026_llm_dev (``meta.page_type``); truth: `bench.accuracy.navigation_truth`, one
  hand-written URL pattern per site (see its docstring for how and the borderline calls).

Counted per page over distinct link URLs: found = returned article links the judge calls
articles; recall = found / article links on the page (same-site, as the judge sees them);
"not articles" = returned links the judge does not call articles / returned links. Rows are
micro-averages over pages; "pages without articles" are those whose judge finds none (every
link returned there is a wrong one).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from typing import Any
from urllib.parse import urldefrag, urlsplit

from lxml import etree
from parsel import Selector

from bench.accuracy.navigation_truth import ARTICLE_PATTERNS
from bench.corpus import corpora_root, iter_corpus
from newsspider.extraction.common.urls import join_url
from newsspider.extraction.parse.decoding import decode_html
from newsspider.navigation import find_navigation
from newsspider.spiders._links import same_site, site_host

GENERATED_CORPORA = ("scrapinghub_aeb", "magichtml_article", "newspaper4k_regression")


def _path(url: str) -> str:
    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def same_site_links(body: bytes, url: str) -> set[str]:
    """Every same-site http(s) link of a page (fragment dropped, the page itself left out):
    what the judge looks at, independent of the classifier's own filtering."""
    root = Selector(text=decode_html(body).text or "<html></html>", type="html").root
    host = [site_host(url)]
    links = set()
    for anchor in root.iter("a") if isinstance(root, etree._Element) else ():
        href = (anchor.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:", "mailto:", "tel:")):
            continue
        joined = join_url(url, href)
        if joined is None:
            continue
        target = urldefrag(joined)[0]
        scheme = urlsplit(target).scheme
        if scheme in ("http", "https") and same_site(target, host) and target != url:
            links.add(target)
    return links


def score_page(body: bytes, url: str, is_article: Any) -> dict[str, Any]:
    returned = {link.url for link in find_navigation(body, url).articles}
    truth = {u for u in same_site_links(body, url) if is_article(u)}
    truth |= {u for u in returned if is_article(u)}
    found = returned & truth
    return {
        "url": url,
        "truth": len(truth),
        "returned": len(returned),
        "found": len(found),
        "wrong": sorted(returned - truth),
        "missed": sorted(truth - returned),
    }


def demo_pages() -> list[dict[str, Any]]:
    from newsspider.demo.site import build_site

    site = build_site("http://127.0.0.1:8000")
    stories = {a.url for a in site.articles} | set(site.thin_pages) | set(site.broken_urls)
    stories |= set(site.duplicate_urls) | set(site.disallowed_urls)
    listings = {
        path
        for path, page in site.pages.items()
        if site.base_url + path not in stories
        and page.status == 200
        and page.content_type.startswith("text/html")
    }

    def is_article(url: str) -> bool:
        # A story page of the generator, under any URL the site serves it at (tracking
        # parameters, the wire copy, the draft robots.txt keeps crawlers from).
        if url in stories:
            return True
        page = site.lookup(_path(url).replace(site.base_url, ""))
        path = urlsplit(url).path
        return (
            page is not None and path not in listings and page.content_type.startswith("text/html")
        )

    return [
        score_page(site.pages[path].body, site.base_url + path, is_article)
        for path in sorted(listings)
    ]


def generated_pages(root: Any) -> list[dict[str, Any]]:
    from bench.speed.site_crawl import _target, build_site

    pages = [p for name in GENERATED_CORPORA for p in iter_corpus(name, root) if p.url]
    site = build_site(pages)
    base = "http://127.0.0.1:8000"

    def is_article(url: str) -> bool:
        return _target(url) in site.articles

    return [
        score_page(site.pages[path][0], base + path, is_article) for path in sorted(site.listings)
    ]


def wceb_pages(root: Any) -> dict[str, list[dict[str, Any]]]:
    groups: dict[str, list[dict[str, Any]]] = {"listing": [], "collection": []}
    for page in iter_corpus("wceb2026_llm_dev", root):
        kind = (page.meta or {}).get("page_type")
        if kind not in groups or not page.url:
            continue
        pattern = ARTICLE_PATTERNS[site_host(page.url)]
        compiled = re.compile(pattern) if pattern else None

        def is_article(url: str, compiled: re.Pattern[str] | None = compiled) -> bool:
            return compiled is not None and bool(compiled.search(_path(url)))

        result = score_page(page.html, page.url, is_article)
        result["id"] = page.id
        groups[kind].append(result)
    return groups


def summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    total: Counter[str] = Counter()
    for r in results:
        total["pages"] += 1
        total["truth"] += r["truth"]
        total["returned"] += r["returned"]
        total["found"] += r["found"]
        total["wrong"] += len(r["wrong"])
        if not r["truth"]:
            total["pages_without"] += 1
            total["wrong_without"] += len(r["wrong"])
    recall = total["found"] / total["truth"] if total["truth"] else float("nan")
    wrong = total["wrong"] / total["returned"] if total["returned"] else 0.0
    return {
        "pages_without": 0,
        "wrong_without": 0,
        **total,
        "recall": recall,
        "not_articles": wrong,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", default=None)
    parser.add_argument("--pages", action="store_true", help="per-page rows for wceb")
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    root = corpora_root(args.corpora)
    sets: dict[str, list[dict[str, Any]]] = {
        "demo": demo_pages(),
        "generated": generated_pages(root),
    }
    wceb = wceb_pages(root)
    sets["wceb listing"] = wceb["listing"]
    sets["wceb collection"] = wceb["collection"]
    sets["wceb listing, pages with articles"] = [r for r in wceb["listing"] if r["truth"]]
    print(
        "| set | pages | article links | returned | found | recall | not articles "
        "| pages without articles (links returned there) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    summaries = {}
    for name, results in sets.items():
        s = summaries[name] = summary(results)
        print(
            f"| {name} | {s['pages']} | {s['truth']} | {s['returned']} | {s['found']} "
            f"| {s['recall']:.3f} | {s['not_articles']:.3f} "
            f"| {s['pages_without']} ({s['wrong_without']}) |"
        )
    if args.pages:
        print()
        print("| id | url | articles | returned | found | wrong | missed |")
        print("|---|---|---|---|---|---|---|")
        for kind in ("listing", "collection"):
            for r in wceb[kind]:
                print(
                    f"| {r['id']} | {r['url'][:60]} | {r['truth']} | {r['returned']} "
                    f"| {r['found']} | {len(r['wrong'])} | {len(r['missed'])} |"
                )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"summary": summaries, "pages": sets}, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
