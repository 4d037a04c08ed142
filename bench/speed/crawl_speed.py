"""Crawl speed with newsspider's Scrapy glue, next to crawling alone and extracting alone.

    python -m bench.speed.crawl_speed [--pages 3000] [--repeat 3] [--modes off,filter,thread,...]

A loopback site of generated article pages (plus listing pages linking them) is served from
this process; each mode crawls it in a fresh subprocess (one reactor per process) and reports
article pages per second between ``spider_opened`` and ``spider_closed``:

    off       the crawl alone: the spider, no content filter, no extraction
    filter    the same crawl with the content filter (the add-on's downloader middleware), no
              extraction: the crawl configuration of the modes below minus extraction
    thread    filter + extraction in the default thread pool
    process1  filter + extraction in worker processes: 1 worker
    process2  ... 2 workers

"extract" is `newsspider.extract` over the same pages in this process, outside Scrapy, called
exactly as the pipeline calls it. The glue target: with extraction on, pages/s >= 85% of what
the slower of the crawl and the extraction allows. N workers can extract up to N times
"extract", so the bound for process2 uses 2 x "extract". Two bounds are reported, because
"the crawl alone" can be read two ways:

    bound(off)     = min(off, N x extract): the filter counts as part of "extraction on"
                     (the strict reading: everything newsspider adds is charged to it);
    bound(filter)  = min(filter, N x extract): the same crawl configuration minus extraction
                     (the filter is part of the crawl: it also runs with the pipeline off).

The site is cheap on purpose: every response (headers and body) is rendered before the first
crawl and served by a minimal asyncio HTTP/1.1 server (keep-alive) on a thread of this process,
which does nothing else while a crawl runs. It stands in for remote sites, so it should take as
little as possible of the CPUs the crawler, its workers and the extraction share; its CPU time is
measured (this process's CPU during each crawl) and reported.

Where the time goes is reported per mode: the crawler process's CPU per page (all its threads),
the extraction workers' CPU per page (the subprocess tree's CPU minus the crawler's), the
server's, the crawler's time in garbage collection, and the longest event-loop stall
(`support.loop_lag.LoopLagMonitor`: wall clock / loop-thread CPU between ticks). Modes run
interleaved, ``--repeat`` rounds; the table shows medians (and the range) over the rounds.
Absolute speeds depend on the machine and its load: compare within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from support.generated_pages import article_page
from support.loopback import http_response, serve_responses

from bench import ROOT

MODES: dict[str, dict[str, Any]] = {
    "off": {"NEWSSPIDER_PIPELINE_ENABLED": False, "NEWSSPIDER_CONTENT_FILTER_ENABLED": False},
    "filter": {"NEWSSPIDER_PIPELINE_ENABLED": False},
    "thread": {"NEWSSPIDER_EXTRACT_MODE": "thread"},
    "process1": {"NEWSSPIDER_EXTRACT_MODE": "process", "NEWSSPIDER_EXTRACT_WORKERS": 1},
    "process2": {"NEWSSPIDER_EXTRACT_MODE": "process", "NEWSSPIDER_EXTRACT_WORKERS": 2},
}
WORKERS = {"process1": 1, "process2": 2}
LINKS_PER_LISTING = 50
TARGET = 0.85


# --- the site -------------------------------------------------------------------------------


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
    """Serve the site on 127.0.0.1 from a thread: pre-rendered responses, keep-alive."""
    responses: dict[bytes, bytes] = {
        f"/a/{i}.html".encode(): http_response(article_page(i)) for i in range(pages)
    }
    for i in range(listing_count(pages)):
        responses[f"/list/{i}.html".encode()] = http_response(listing_page(i, pages))
    not_found = http_response(b"not found", b"404 Not Found")
    with serve_responses(lambda path: responses.get(path, not_found)) as site:
        yield site


# --- one crawl (child process) --------------------------------------------------------------


def _cpu(who: int = resource.RUSAGE_SELF) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def run_child(mode: str, site: str, pages: int, concurrency: int) -> None:
    import gc

    import scrapy
    from scrapy import signals
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
        "ITEM_PIPELINES": {"bench.speed.crawl_speed.DiscardPipeline": 900},
        "EXTENSIONS": {"support.loop_lag.LoopLagMonitor": 0},
        **MODES[mode],
    }
    marks: dict[str, tuple[float, float]] = {}
    gc_seconds = [0.0, 0.0]  # total, start of the current collection

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            gc_seconds[1] = time.perf_counter()
        elif "open" in marks and "close" not in marks:
            gc_seconds[0] += time.perf_counter() - gc_seconds[1]

    gc.callbacks.append(on_gc)
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(BenchSpider)

    def opened() -> None:
        marks["open"] = (time.perf_counter(), _cpu())

    def closed() -> None:
        marks["close"] = (time.perf_counter(), _cpu())

    # Signal receivers are held weakly: these named functions live until the crawl ends.
    crawler.signals.connect(opened, signals.spider_opened)
    crawler.signals.connect(closed, signals.spider_closed)
    process.crawl(crawler)
    process.start()
    stats = crawler.stats.get_stats() if crawler.stats else {}
    articles = int(stats.get("response_received_count", 0)) - listing_count(pages)
    dropped = int(stats.get("newsspider/dropped/count", 0))
    (start, cpu_start), (end, cpu_end) = marks["open"], marks["close"]
    result = {
        "mode": mode,
        "pages": articles + dropped,
        "seconds": end - start,
        "crawler_cpu": cpu_end - cpu_start,
        "crawler_cpu_total": _cpu(),
        "gc_seconds": gc_seconds[0],
        "errors": int(stats.get("newsspider/pipeline/error_count", 0)),
        "lag_ms": float(stats.get("loop_lag/max_ms", 0.0)),
        "lag_cpu_ms": float(stats.get("loop_lag/max_cpu_ms", 0.0)),
    }
    print(json.dumps(result))


class DiscardPipeline:
    """Last pipeline: let PageItems (bytes) and ArticleItems go without a feed's cost."""

    def process_item(self, item: Any) -> None:
        from scrapy.exceptions import DropItem

        raise DropItem("bench", log_level="DEBUG")


# --- the parent -----------------------------------------------------------------------------


def crawl(mode: str, site: str, pages: int, concurrency: int) -> dict[str, float]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    command = [sys.executable, "-m", "bench.speed.crawl_speed", "--child", mode, "--site", site]
    command += ["--pages", str(pages), "--concurrency", str(concurrency)]
    server_before, tree_before = _cpu(), _cpu(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    server_cpu, tree_cpu = _cpu() - server_before, _cpu(resource.RUSAGE_CHILDREN) - tree_before
    if done.returncode != 0:
        raise SystemExit(f"crawl {mode} failed:\n{done.stderr[-3000:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    count = result["pages"]
    seconds = result["seconds"]
    return {
        "rate": count / seconds,
        "crawler_ms": 1000 * result["crawler_cpu"] / count,
        # Workers (and their start-up): everything the crawl's process tree used but the crawler.
        "workers_ms": 1000 * max(0.0, tree_cpu - result["crawler_cpu_total"]) / count,
        "server_ms": 1000 * server_cpu / count,
        "gc_share": result["gc_seconds"] / seconds,
        "errors": result["errors"],
        "lag_ms": result["lag_ms"],
        "lag_cpu_ms": result["lag_cpu_ms"],
    }


def extract_alone(pages: int) -> dict[str, float]:
    """`newsspider.extract` as the pipeline calls it, over the crawl's article pages."""
    from newsspider import extract
    from newsspider.extraction.api import DEFAULT_MAX_BYTES

    sample = [article_page(i) for i in range(pages)]
    now = datetime.now(UTC)
    extract(sample[0], url="http://bench/warmup")
    start, cpu = time.perf_counter(), _cpu()
    for i, body in enumerate(sample):
        url = f"http://bench/a/{i}.html"
        extract(body, url, "utf-8", reference_time=now, hints=None, max_bytes=DEFAULT_MAX_BYTES)
    seconds, cpu = time.perf_counter() - start, _cpu() - cpu
    return {"rate": len(sample) / seconds, "cpu_ms": 1000 * cpu / len(sample)}


def _bound(mode: str, rates: dict[str, float], crawl: str = "off") -> float | None:
    """What the slower of the crawl (`crawl`: "off" or "filter") and the extraction allows."""
    if mode in ("off", "filter", "extract") or crawl not in rates:
        return None
    return min(rates[crawl], rates["extract"] * WORKERS.get(mode, 1))


def report(
    runs: dict[str, list[dict[str, float]]], pages: int, repeat: int, concurrency: int
) -> list[str]:
    med = {mode: statistics.median(r["rate"] for r in rs) for mode, rs in runs.items()}
    out = [
        f"{pages} article pages (+ {listing_count(pages)} listing pages), concurrency "
        f"{concurrency}, {os.cpu_count()} CPUs, {repeat} rounds; medians (min–max)",
        "",
        "| run | pages/s | ratio to bound(off) | ratio to bound(filter) "
        "| crawler CPU ms/page | workers CPU ms/page | server CPU ms/page | crawler GC share "
        "| verdict (off / filter) | longest loop stall ms (wall / loop CPU) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for mode, rs in runs.items():
        rates = [r["rate"] for r in rs]
        cell = f"{med[mode]:.1f} ({min(rates):.0f}–{max(rates):.0f})"
        if mode == "extract":
            cpu = statistics.median(r["cpu_ms"] for r in rs)
            out.append(f"| extract (alone, 1 core) | {cell} | | | {cpu:.2f} | | | | | |")
            continue
        ratios, verdicts = [], []
        for crawl in ("off", "filter"):
            bound = _bound(mode, med, crawl)
            ratios.append(f"{med[mode] / bound:.0%}" if bound else "")
            if bound:
                verdicts.append("ok" if med[mode] >= TARGET * bound else "BELOW")
        if mode == "filter" and "off" in med:
            ratios[0] = f"({med[mode] / med['off']:.0%} of off)"

        def m(key: str, rs: list[dict[str, float]] = rs) -> float:
            return statistics.median(r[key] for r in rs)

        workers = f"{m('workers_ms'):.2f}" if mode in WORKERS else ""
        out.append(
            f"| {mode} | {cell} | {ratios[0]} | {ratios[1]} | {m('crawler_ms'):.2f} | "
            f"{workers} | {m('server_ms'):.3f} | {m('gc_share'):.0%} | {' / '.join(verdicts)} "
            f"| {max(r['lag_ms'] for r in rs):.0f} / {max(r['lag_cpu_ms'] for r in rs):.0f} |"
        )
    errors = sum(int(r.get("errors", 0)) for rs in runs.values() for r in rs)
    if errors:
        out.append(f"\nExtraction errors during the crawls: {errors}")
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=3, help="rounds over all modes")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--json", help="write every round's measurements here")
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
    runs: dict[str, list[dict[str, float]]] = {"extract": []}
    runs.update({mode: [] for mode in modes})
    with serve(args.pages) as site:
        for round_ in range(1, args.repeat + 1):
            runs["extract"].append(extract_alone(args.pages))
            print(f"round {round_}: extract {runs['extract'][-1]['rate']:.1f}", file=sys.stderr)
            for mode in modes:
                runs[mode].append(crawl(mode, site, args.pages, args.concurrency))
                print(f"  {mode:<9} {runs[mode][-1]['rate']:8.1f} pages/s", file=sys.stderr)
    print("\n".join(report(runs, args.pages, args.repeat, args.concurrency)))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"pages": args.pages, "runs": runs}, out, indent=1)


if __name__ == "__main__":
    main()
