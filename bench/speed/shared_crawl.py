"""Crawl rate of a shared crawl on Redis with 1 and 2 worker processes.

    python -m bench.speed.shared_crawl [--articles 300] [--latency 0.05] [--workers 1,2]
                                       [--repeat 1]

A loopback news site (home, sections, articles; each answer delayed by ``--latency`` seconds, a
remote site's round trip without CPU) and a throwaway ``redis-server`` are started here; then N
``scrapy crawl site`` processes with ``NEWSSPIDER_REDIS_URL`` share the crawl, seeded through
the Redis list. The rate is pages served per second between the first and the last request the
site saw (process start-up and the workers' idle wait at the end are left out), with how the
articles split between the workers and whether any page was fetched twice.

Needs ``redis-server`` on PATH. Uses the test helpers (tests/support): run from a checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from support.news_site import NewsSite  # the loopback site and the Redis fixture of the tests
from support.redis_server import redis_server

from bench import ROOT


class TimedSite(NewsSite):  # type: ignore[misc]  # tests/support is not type-checked
    """Also notes when the first and the last request arrived."""

    def __init__(self, count: int, delay: float) -> None:
        super().__init__(count, delay)
        self.first: float | None = None
        self.last = 0.0
        self._times = threading.Lock()

    def _count(self, path: str) -> int:
        now = time.perf_counter()
        with self._times:
            if self.first is None:
                self.first = now
            self.last = now
        return int(super()._count(path))


def run_round(workers: int, articles: int, latency: float, redis_url: str) -> dict[str, Any]:
    import redis

    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    site = TimedSite(articles, latency)
    site.start()
    env = {**os.environ, "SCRAPY_SETTINGS_MODULE": "newsspider.settings"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    try:
        with tempfile.TemporaryDirectory(prefix="newsspider-shared-bench-") as tmp:
            procs = []
            for n in range(workers):
                settings = {
                    "NEWSSPIDER_REDIS_URL": redis_url,
                    "NEWSSPIDER_REDIS_IDLE_CLOSE": 3,
                    "AUTOTHROTTLE_ENABLED": False,
                    "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
                    "LOG_LEVEL": "WARNING",
                    "TELNETCONSOLE_ENABLED": False,
                }
                command = [sys.executable, "-m", "scrapy", "crawl", "site"]
                command += ["-o", f"{tmp}/items{n}.jsonl"]
                for key, value in settings.items():
                    command += ["-s", f"{key}={value}"]
                procs.append(subprocess.Popen(command, cwd=tmp, env=env))
            client.lpush("newsspider:site:start_urls", site.url + "/")
            codes = [p.wait(timeout=600) for p in procs]
            split = []
            for n in range(workers):
                path = Path(f"{tmp}/items{n}.jsonl")
                split.append(len(path.read_text().splitlines()) if path.exists() else 0)
    finally:
        site.stop()
    pages = sum(n for path, n in site.hits.items() if path != "/robots.txt")
    twice = sum(1 for path, n in site.hits.items() if n > 1 and path != "/robots.txt")
    seconds = site.last - (site.first or site.last)
    return {
        "pages_per_s": pages / seconds if seconds else 0.0,
        "pages": pages,
        "items": sum(split),
        "split": json.dumps(split),
        "fetched_twice": twice,
        "exit_codes": json.dumps(codes),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.speed.shared_crawl", description=__doc__)
    parser.add_argument("--articles", type=int, default=300)
    parser.add_argument("--latency", type=float, default=0.05, help="seconds per response")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.workers.split(",")]
    results: dict[int, list[dict[str, Any]]] = {n: [] for n in counts}
    with redis_server() as url:
        for _ in range(args.repeat):  # interleaved rounds
            for n in counts:
                results[n].append(run_round(n, args.articles, args.latency, url))
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"\n{args.articles} articles, {args.latency * 1000:.0f} ms per response, "
          f"{args.repeat} round(s), medians; load average at the end: {load}")  # fmt: skip
    print("| workers | pages/s | x 1 worker | items | items per worker | fetched twice | exit |")
    print("|---:|---:|---:|---:|---|---:|---|")
    base = statistics.median(r["pages_per_s"] for r in results[counts[0]])
    for n in counts:
        rate = statistics.median(r["pages_per_s"] for r in results[n])
        last = results[n][-1]
        print(f"| {n} | {rate:.1f} | {rate / base:.2f} | {last['items']} | {last['split']} |"
              f" {last['fetched_twice']} | {last['exit_codes']} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
