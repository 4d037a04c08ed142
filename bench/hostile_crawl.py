"""Event-loop stalls in a crawl with hostile input mixed in: a big sitemap and hostile HTML.

    python -m bench.hostile_crawl [--urls 100000] [--articles 300] [--scenarios sitemap,...]
                                  [--code DIR]

A loopback site is served from this process; the bundled ``sitemap`` spider crawls it (add-on
on, extraction in the default thread pool) in a fresh subprocess per scenario, with
`bench.loop_lag.LoopLagMonitor` measuring how long the event loop went without running:

    small     the baseline: a sitemap of ``--articles`` ordinary articles, nothing hostile
    sitemap   one sitemap of ``--urls`` article URLs; ``max_articles`` stops the crawl after
              ``--articles`` of them (the rest of the sitemap is still read and skipped)
    hostile   a sitemap of ``--articles`` ordinary articles with the hostile pages listed first
    both      the big sitemap with the hostile pages listed first

Hostile pages (each judged by the content filter and extracted like any article): 64 KiB of
unclosed ``<script>``, of ``<a``, of ``<!--``; 1 MiB of ``<p>x``; one element with 20 000
attributes; ``<`` x 32 KiB then a byte that is not UTF-8 (the charset-detection path).

Reported per scenario: the longest stall (wall clock and event-loop CPU, see `bench.loop_lag`),
the 99th percentile, ticks over 100 ms, the URL downloaded just before the worst stall, the
crawl's duration, articles scraped and the crawler's peak RSS. ``--code DIR`` runs another copy
of newsspider (a directory holding a ``newsspider`` package, e.g. an older commit unpacked with
``git archive``) for a before/after comparison: the bench and its monitor stay this checkout's.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from bench.crawl_speed import article_page
from bench.loop_lag import TARGET_MS
from bench.loopback import http_response, serve_responses

SCENARIOS = ("small", "sitemap", "hostile", "both")
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


def run_child(url: str, articles: int, out: str) -> None:
    from scrapy.crawler import CrawlerProcess

    import newsspider

    settings: dict[str, Any] = {
        "SPIDER_MODULES": ["newsspider.spiders"],
        "ADDONS": {"newsspider.Addon": 300},
        "EXTENSIONS": {"bench.loop_lag.LoopLagMonitor": 0},
        "ITEM_PIPELINES": {"bench.crawl_speed.DiscardPipeline": 900},
        "CONCURRENT_REQUESTS": 16,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
        "LOG_LEVEL": "WARNING",
        "TELNETCONSOLE_ENABLED": False,
        "DOWNLOAD_TIMEOUT": 60,
    }
    process = CrawlerProcess(settings)
    crawler = process.create_crawler("sitemap")
    process.crawl(crawler, url=url, max_articles=str(articles))
    process.start()
    stats = crawler.stats.get_stats() if crawler.stats else {}
    result = {
        "newsspider": os.path.dirname(newsspider.__file__),
        "seconds": float(stats.get("elapsed_time_seconds", 0)),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "pages": int(stats.get("newsspider/pipeline/page_count", 0)),
        "filter_drops": sum(
            int(v) for k, v in stats.items() if k.startswith("newsspider/dropped/reason_count/")
        ),
        **{k: v for k, v in stats.items() if k.startswith("loop_lag/")},
    }
    with open(out, "w", encoding="utf-8") as handle:
        json.dump(result, handle)


def crawl(site: str, name: str, articles: int, code: str | None) -> dict[str, Any]:
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (code, here, env.get("PYTHONPATH")) if p)
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        command = [sys.executable, "-m", "bench.hostile_crawl", "--child", f"{site}/{name}"]
        command += ["--articles", str(articles), "--out", out.name]
        # Not run from the checkout: the current directory would come first on sys.path.
        done = subprocess.run(
            command, env=env, cwd=tempfile.gettempdir(), capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            raise SystemExit(f"crawl {name} failed:\n{done.stderr[-3000:]}")
        with open(out.name, encoding="utf-8") as handle:
            result: dict[str, Any] = json.load(handle)
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--urls", type=int, default=100_000, help="URLs in the big sitemap")
    parser.add_argument("--articles", type=int, default=300, help="max_articles of each crawl")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--code", help="a directory with another newsspider package to run")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        run_child(args.child, args.articles, args.out)
        return
    scenarios = [s for s in args.scenarios.split(",") if s]

    def documents(site: str) -> dict[str, bytes]:
        return {
            "small.xml": sitemap(args.articles, hostile=False, site=site),
            "sitemap.xml": sitemap(args.urls, hostile=False, site=site),
            "hostile.xml": sitemap(args.articles, hostile=True, site=site),
            "both.xml": sitemap(args.urls, hostile=True, site=site),
        }

    files = {name: f"{name}.xml" for name in SCENARIOS}
    size = len(sitemap(args.urls, hostile=False, site="http://127.0.0.1:40000"))
    print(
        f"big sitemap: {args.urls} URLs ({size / 1e6:.1f} MB); "
        f"max_articles {args.articles}; code: {args.code or 'this checkout'}\n"
    )
    print(
        "| scenario | longest stall ms (wall) | longest stall ms (loop CPU) | p99 ms "
        "| ticks > 100 ms | worst stall after | crawl s | pages extracted | peak RSS MB |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    with serve(documents) as site:
        for name in scenarios:
            r = crawl(site, files[name], args.articles, args.code)
            worst = (r.get("loop_lag/worst") or [{}])[0]
            after = ", ".join(
                u.rsplit("/", 2)[-2] + "/" + u.rsplit("/", 1)[-1]
                for u in worst.get("after", [])[-1:]
            )
            verdict = "ok" if r["loop_lag/max_cpu_ms"] <= TARGET_MS else "OVER"
            print(
                f"| {name} | {r['loop_lag/max_ms']} | {r['loop_lag/max_cpu_ms']} ({verdict}) "
                f"| {r['loop_lag/p99_ms']} | {r['loop_lag/over_100ms_count']} | {after} "
                f"| {r['seconds']:.1f} | {r['pages']} | {r['peak_rss_mb']:.0f} |",
                flush=True,
            )
            for stall in r.get("loop_lag/worst", []):
                print(f"  {name}: {stall}", file=sys.stderr)


if __name__ == "__main__":
    main()
