"""Crawl speed with newsspider's Scrapy glue, next to crawling alone and extracting alone.

    python bench/crawl_speed.py [--pages 3000] [--modes off,filter,thread,process1,process2]

A loopback site of generated article pages (plus listing pages linking them) is served from
this process; each mode crawls it in a fresh subprocess (one reactor per process) and reports
article pages per second:

    off       newsspider's spider code, no content filter, no extraction (the crawl alone)
    filter    content filter only
    thread    filter + extraction in the default thread pool
    process1  filter + extraction in a process pool of 1 worker
    process2  ... of 2 workers

"extract" is `newsspider.extract` over the same pages in this process, outside Scrapy. The glue
target: with extraction on, pages/s >= 85% of min(crawl alone, extraction alone) -- extraction
in a pool of N workers can go up to N times "extract", so the bound there is per core.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MODES: dict[str, dict[str, Any]] = {
    "off": {"NEWSSPIDER_PIPELINE_ENABLED": False, "NEWSSPIDER_CONTENT_FILTER_ENABLED": False},
    "filter": {"NEWSSPIDER_PIPELINE_ENABLED": False},
    "thread": {"NEWSSPIDER_EXTRACT_MODE": "thread"},
    "process1": {"NEWSSPIDER_EXTRACT_MODE": "process", "NEWSSPIDER_EXTRACT_WORKERS": 1},
    "process2": {"NEWSSPIDER_EXTRACT_MODE": "process", "NEWSSPIDER_EXTRACT_WORKERS": 2},
}
LINKS_PER_LISTING = 50
TARGET = 0.85

_WORDS = (
    "council river market school bridge winter library harvest station museum festival "
    "volunteers residents budget weather road train harbour village garden report mayor "
    "students teachers farmers workers visitors families said would could after before "
    "during because while although the a of to and in on for with at by from about"
).split()


# --- the site -------------------------------------------------------------------------------


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(8, 22))]
    return " ".join(words).capitalize() + rng.choice([".", ".", ".", "?", "!"])


def article_page(index: int) -> bytes:
    rng = random.Random(index)
    title = " ".join(rng.choice(_WORDS) for _ in range(7)).capitalize()
    nav = "".join(f'<li><a href="/section/{i}">Section {i}</a></li>' for i in range(20))
    paragraphs = "".join(
        "<p>" + " ".join(_sentence(rng) for _ in range(rng.randint(3, 7))) + "</p>\n"
        for _ in range(rng.randint(6, 12))
    )
    related = "".join(
        f'<li><a href="/a/{rng.randrange(10**6)}.html">{_sentence(rng)}</a></li>' for _ in range(5)
    )
    return (
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{title} | Bench"
        f" Times</title><meta property='og:title' content='{title}'>"
        f"<meta property='article:published_time' content='2024-0{1 + index % 9}-1{index % 10}'>"
        f"</head><body><header><nav><ul>{nav}</ul></nav></header><main><article>"
        f"<h1>{title}</h1><p class='byline'>By Bench Writer</p>{paragraphs}</article>"
        f"<aside><h3>Related</h3><ul>{related}</ul></aside></main>"
        f"<footer><p>© Bench Times</p></footer></body></html>"
    ).encode()


def listing_page(index: int, pages: int) -> bytes:
    first = index * LINKS_PER_LISTING
    links = "".join(
        f'<li><a class="story" href="/a/{i}.html">Story {i}</a></li>'
        for i in range(first, min(first + LINKS_PER_LISTING, pages))
    )
    return f"<html><body><h1>Stories</h1><ul>{links}</ul></body></html>".encode()


def listing_count(pages: int) -> int:
    return (pages + LINKS_PER_LISTING - 1) // LINKS_PER_LISTING


@contextmanager
def serve(pages: int) -> Iterator[str]:
    bodies: dict[str, bytes] = {f"/a/{i}.html": article_page(i) for i in range(pages)}
    for i in range(listing_count(pages)):
        bodies[f"/list/{i}.html"] = listing_page(i, pages)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive: the server should not be the bottleneck
        disable_nagle_algorithm = True  # headers and body go out as two writes

        def do_GET(self) -> None:
            body = bodies.get(self.path)
            self.send_response(200 if body is not None else 404)
            body = body or b"not found"
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        host, port = httpd.server_address[:2]
        yield f"http://{host!s}:{port}"
    finally:
        httpd.shutdown()
        httpd.server_close()


# --- one crawl (child process) --------------------------------------------------------------


def run_child(mode: str, site: str, pages: int, concurrency: int) -> None:
    import scrapy
    from scrapy.crawler import CrawlerProcess

    from newsspider.items import PageItem
    from newsspider.middlewares import article_callback

    class BenchSpider(scrapy.Spider):
        name = "bench"

        async def start(self) -> AsyncIterator[scrapy.Request]:
            for i in range(listing_count(pages)):
                yield scrapy.Request(f"{site}/list/{i}.html")

        def parse(self, response: Any) -> Iterator[scrapy.Request]:
            for href in response.css("a.story::attr(href)").getall():
                yield response.follow(href, self.parse_article)

        @article_callback
        def parse_article(self, response: Any) -> Iterator[PageItem]:
            yield PageItem.from_response(response)

    settings: dict[str, Any] = {
        "ADDONS": {"newsspider.Addon": 300},
        "CONCURRENT_REQUESTS": concurrency,
        "CONCURRENT_REQUESTS_PER_DOMAIN": concurrency,
        "LOG_LEVEL": "WARNING",
        "TELNETCONSOLE_ENABLED": False,
        "ITEM_PIPELINES": {"bench.crawl_speed.DiscardPipeline": 900},
        **MODES[mode],
    }
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(BenchSpider)
    process.crawl(crawler)
    process.start()
    stats = crawler.stats.get_stats() if crawler.stats else {}
    seconds = (stats["finish_time"] - stats["start_time"]).total_seconds()
    articles = int(stats.get("response_received_count", 0)) - listing_count(pages)
    dropped = int(stats.get("newsspider/dropped/count", 0))
    print(json.dumps({"pages": articles + dropped, "seconds": seconds, "mode": mode}))


class DiscardPipeline:
    """Last pipeline: let PageItems (bytes) and ArticleItems go without a feed's cost."""

    def process_item(self, item: Any) -> None:
        from scrapy.exceptions import DropItem

        raise DropItem("bench", log_level="DEBUG")


# --- the parent -----------------------------------------------------------------------------


def crawl(mode: str, site: str, pages: int, concurrency: int) -> float:
    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(here), env.get("PYTHONPATH", "")])
    command = [sys.executable, "-m", "bench.crawl_speed", "--child", mode, "--site", site]
    command += ["--pages", str(pages), "--concurrency", str(concurrency)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"crawl {mode} failed:\n{done.stderr[-3000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return float(result["pages"]) / float(result["seconds"])


def extract_alone(pages: int) -> float:
    from newsspider import extract

    sample = [article_page(i) for i in range(min(pages, 1000))]
    extract(sample[0], url="http://bench/warmup")
    start = time.perf_counter()
    for i, body in enumerate(sample):
        extract(body, url=f"http://bench/a/{i}.html", encoding="utf-8")
    return len(sample) / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=3000)
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--site", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        run_child(args.child, args.site, args.pages, args.concurrency)
        return

    modes = [m for m in args.modes.split(",") if m]
    unknown = set(modes) - set(MODES)
    if unknown:
        parser.error(f"unknown modes {sorted(unknown)}; choose from {list(MODES)}")
    extract_rate = extract_alone(args.pages)
    rates: dict[str, float] = {}
    with serve(args.pages) as site:
        for mode in modes:
            rates[mode] = crawl(mode, site, args.pages, args.concurrency)
            print(f"  {mode:<9} {rates[mode]:8.1f} pages/s", file=sys.stderr)

    print(f"\n{args.pages} article pages, {os.cpu_count()} CPUs, concurrency {args.concurrency}")
    print(f"{'run':<10} {'pages/s':>9}  {'target':>8}  verdict")
    print(f"{'extract':<10} {extract_rate:9.1f}  {'':>8}  (newsspider.extract alone, 1 core)")
    crawl_alone = rates.get("off")
    for mode, rate in rates.items():
        workers = {"process1": 1, "process2": 2}.get(mode, 1)
        line = f"{mode:<10} {rate:9.1f}"
        if mode not in ("off", "filter") and crawl_alone is not None:
            target = TARGET * min(crawl_alone, extract_rate * workers)
            verdict = "ok" if rate >= target else "BELOW TARGET"
            line += f"  {target:8.1f}  {verdict}"
        print(line)


if __name__ == "__main__":
    main()
