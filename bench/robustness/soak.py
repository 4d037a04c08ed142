"""Soak run: a long crawl of a generated loopback news site through the bundled ``site`` spider.

    python -m bench.robustness.soak --pages 20000 [--per-section 100] [--concurrency 16]
                                    [--keep DIR]

The site (home page -> section listings -> dated article pages, each article linking three
others as "related") is served from this process; the crawl runs in a child process with the
bundled project's settings and the add-on (content filter + extraction in threads), writing a
JSONL feed. The child samples its own RSS (psutil if installed, else ``VmRSS`` in
/proc/self/status) and the items scraped at the start, at 25/50/75% of the expected articles
and at the end; the parent prints a markdown table and checks that every article served became
exactly one item in the feed (zero lost).

The site is `support.soak_site.SoakSite` (``tests/support/soak_site.py``), also the loopback site
of ``tests/test_crawl_interrupt.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from support.soak_site import SoakSite, serve

from bench import ROOT

MILESTONES = (0.25, 0.5, 0.75)


# --- the crawl (child process) --------------------------------------------------------------


def rss_bytes() -> int:
    """Resident set size of this process."""
    try:
        import psutil  # type: ignore[import-untyped, unused-ignore]

        return int(psutil.Process().memory_info().rss)
    except ImportError:
        pass
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


class SoakMonitor:
    """Extension (child process): RSS and items scraped at the start, each milestone, the end."""

    def __init__(self, crawler: Any) -> None:
        from scrapy import signals

        self.crawler = crawler
        self.expected = crawler.settings.getint("SOAK_EXPECTED_ITEMS")
        self.out = Path(crawler.settings.get("SOAK_SAMPLES_FILE"))
        self.items = 0
        self.samples: list[dict[str, Any]] = []
        self._next = [int(self.expected * m) for m in MILESTONES]
        crawler.signals.connect(self.opened, signal=signals.spider_opened)
        crawler.signals.connect(self.scraped, signal=signals.item_scraped)
        crawler.signals.connect(self.closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Any) -> SoakMonitor:
        return cls(crawler)

    def _sample(self, label: str) -> None:
        self.samples.append(
            {"at": label, "time": time.monotonic(), "items": self.items, "rss": rss_bytes()}
        )

    def opened(self, spider: Any) -> None:
        self._sample("start")

    def scraped(self, item: Any, response: Any, spider: Any) -> None:
        self.items += 1
        if self._next and self.items >= self._next[0]:
            self._next.pop(0)
            self._sample(f"{round(100 * self.items / max(self.expected, 1))}%")

    def closed(self, spider: Any, reason: str) -> None:
        self._sample("end")
        stats = self.crawler.stats.get_stats() if self.crawler.stats else {}
        plain = {k: v for k, v in stats.items() if isinstance(v, int | float | str)}
        record = {"samples": self.samples, "stats": plain, "memory": self._per_url_memory(spider)}
        self.out.write_text(json.dumps(record, indent=1))

    def _per_url_memory(self, spider: Any) -> dict[str, list[int]]:
        """Entries and bytes of the structures that grow with every URL by design."""
        engine = getattr(self.crawler, "engine", None)
        slot = getattr(engine, "_slot", None)
        pipelines = getattr(
            getattr(getattr(engine, "scraper", None), "itemproc", None), "middlewares", ()
        )
        found: dict[str, Any] = {
            "spider: requested URLs": getattr(spider, "_progress_now", {}).get("requested"),
            "crawl filter: seen article keys": next(
                (p._seen for p in pipelines if hasattr(p, "_seen")), None
            ),
            "Scrapy dupefilter: fingerprints": getattr(
                getattr(getattr(slot, "scheduler", None), "df", None), "_fingerprints", None
            ),
        }
        return {name: [len(value), deep_size(value)] for name, value in found.items() if value}


def deep_size(container: Any) -> int:
    """Bytes of a set or dict of strings/bytes: the container and every distinct element."""
    elements = list(container.items()) if isinstance(container, dict) else list(container)
    flat = [x for pair in elements for x in pair] if isinstance(container, dict) else elements
    distinct = {id(x): x for x in flat}
    return sys.getsizeof(container) + sum(sys.getsizeof(x) for x in distinct.values())


def run_child(site_url: str, out: Path, expected: int, concurrency: int) -> None:
    from scrapy.crawler import CrawlerProcess
    from scrapy.settings import Settings

    settings = Settings()
    settings.setmodule("newsspider.settings", priority="project")
    settings.update(
        {
            "AUTOTHROTTLE_ENABLED": False,
            "DOWNLOAD_DELAY": 0,
            "CONCURRENT_REQUESTS": concurrency,
            "CONCURRENT_REQUESTS_PER_DOMAIN": concurrency,
            "LOG_LEVEL": "INFO",
            "LOG_FILE": str(out / "crawl.log"),
            "FEEDS": {str(out / "items.jsonl"): {"format": "jsonlines", "overwrite": True}},
            "EXTENSIONS": {"bench.robustness.soak.SoakMonitor": 0},
            "SOAK_EXPECTED_ITEMS": expected,
            "SOAK_SAMPLES_FILE": str(out / "samples.json"),
        },
        priority="cmdline",
    )
    process = CrawlerProcess(settings)
    process.crawl("site", url=site_url + "/", max_pages=0)
    process.start()


# --- the parent -----------------------------------------------------------------------------


def soak(pages: int, per_section: int, concurrency: int, out: Path) -> dict[str, Any]:
    site = SoakSite(pages, per_section)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    with serve(site) as server:
        command = [sys.executable, "-m", "bench.robustness.soak", "--child", "--site", server.url]
        command += ["--pages", str(pages), "--concurrency", str(concurrency), "--keep", str(out)]
        started = time.monotonic()
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        wall = time.monotonic() - started
        served = server.articles_served()
        article_requests = server.article_hits()
    if done.returncode != 0 or not (out / "samples.json").exists():
        raise SystemExit(f"soak crawl failed ({done.returncode}):\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads((out / "samples.json").read_text())
    urls: Counter[str] = Counter()
    bad_lines = 0
    with (out / "items.jsonl").open(encoding="utf-8") as feed:
        for line in feed:
            try:
                urls[json.loads(line)["url"]] += 1
            except (ValueError, KeyError):
                bad_lines += 1
    feed_paths = {"/" + u.split("/", 3)[3] for u in urls}
    result.update(
        pages=pages,
        wall_seconds=wall,
        articles_served=len(served),
        article_requests=article_requests,
        feed_lines=sum(urls.values()),
        feed_unique=len(urls),
        feed_bad_lines=bad_lines,
        lost=len(served - feed_paths),
        not_served=len(feed_paths - served),
    )
    return result


def markdown(result: dict[str, Any], command: str) -> str:
    samples = result["samples"]
    stats = result["stats"]
    start = samples[0]
    lines = [
        "| point | elapsed s | items | pages/s (since previous point) | RSS MiB |",
        "|---|---:|---:|---:|---:|",
    ]
    previous = start
    for sample in samples:
        elapsed = sample["time"] - start["time"]
        span = sample["time"] - previous["time"]
        rate = (sample["items"] - previous["items"]) / span if span > 0 else 0.0
        rate_text = f"{rate:.1f}" if sample is not start else "–"
        lines.append(
            f"| {sample['at']} | {elapsed:.0f} | {sample['items']} | {rate_text} |"
            f" {sample['rss'] / 2**20:.0f} |"
        )
    errors = int(stats.get("newsspider/spider/request_error_count", 0))
    dropped = int(stats.get("newsspider/dropped/count", 0))
    total = samples[-1]["time"] - start["time"]
    rss = [s["rss"] / 2**20 for s in samples]
    lines += [
        "",
        f"- command: `{command}`",
        f"- date: {datetime.now(UTC).date().isoformat()}; machine: Python"
        f" {platform.python_version()}, {platform.platform()}, {os.cpu_count()} CPUs",
        f"- articles on the site: {result['pages']}; served (distinct): {result['articles_served']}"
        f" in {result['article_requests']} requests; items in the JSONL:"
        f" {result['feed_lines']} ({result['feed_unique']} distinct URLs,"
        f" {result['feed_bad_lines']} unparsable lines); item_scraped_count:"
        f" {stats.get('item_scraped_count', 0)}",
        f"- lost (served, not in the feed): {result['lost']}; drops: {dropped}; request errors:"
        f" {errors}; finish_reason: {stats.get('finish_reason')}",
        f"- overall: {result['feed_lines'] / total:.1f} pages/s over {total:.0f} s;"
        f" RSS {rss[0]:.0f} → {max(rss):.0f} MiB peak → {rss[-1]:.0f} MiB at the end"
        f" (Scrapy memusage/max {int(stats.get('memusage/max', 0)) / 2**20:.0f} MiB)",
    ]
    memory = result.get("memory") or {}
    if memory:
        parts = [f"{name} {n} ({size / 2**20:.1f} MiB)" for name, (n, size) in memory.items()]
        total = sum(size for _, size in memory.values()) / 2**20
        lines.append(
            f"- per-URL state kept by design (dedupe, JOBDIR-resumable) at the end: "
            f"{'; '.join(parts)}; {total:.1f} MiB in all"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=20000, help="articles on the site")
    parser.add_argument("--per-section", type=int, default=100, help="articles per listing")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--keep", help="write the feed, log and samples here (else a temp dir)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--site", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        run_child(args.site, Path(args.keep), args.pages, args.concurrency)
        return
    command = "python -m bench.robustness.soak " + " ".join(
        argv if argv is not None else sys.argv[1:]
    )
    if args.keep:
        out = Path(args.keep)
        out.mkdir(parents=True, exist_ok=True)
        result = soak(args.pages, args.per_section, args.concurrency, out)
    else:
        with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
            result = soak(args.pages, args.per_section, args.concurrency, Path(tmp))
    print(markdown(result, command.strip()))
    if result["lost"] or result["feed_lines"] != result["articles_served"]:
        raise SystemExit("items were lost or duplicated")


if __name__ == "__main__":
    main()
