"""Crawl rate of a shared crawl on Redis with 1 and 2 worker processes.

    python -m bench.speed.shared_crawl [--articles 300] [--latency 0.05] [--workers 1,2]
                                       [--repeat 1]

A loopback news site (home, sections, articles; each answer delayed by ``--latency`` seconds, a
remote site's round trip without CPU) and a throwaway ``redis-server`` are started here; then N
``scrapy crawl site`` processes with ``NEWSSPIDER_REDIS_URL`` share the crawl, seeded through
the Redis list once every worker has registered (so no worker starts late). The rate is pages
served per second between the first and the last request the site saw (process start-up and the
workers' idle wait at the end are left out), with how the articles split between the workers,
whether any page was fetched twice, the workers' CPU time per page (their whole run, start-up
included) and the load average beside each figure (other processes share the cores).

Needs ``redis-server`` on PATH. Uses the test helpers (tests/support): run from a checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
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


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_round(
    workers: int, articles: int, latency: float, redis_url: str, concurrency: int = 8
) -> dict[str, Any]:
    import redis

    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    site = TimedSite(articles, latency)
    site.start()
    env = {**os.environ, "SCRAPY_SETTINGS_MODULE": "newsspider.settings"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    try:
        with tempfile.TemporaryDirectory(prefix="newsspider-shared-bench-") as tmp:
            cpu_before = _children_cpu()
            procs = []
            for n in range(workers):
                settings = {
                    "NEWSSPIDER_REDIS_URL": redis_url,
                    "NEWSSPIDER_REDIS_IDLE_CLOSE": 3,
                    "AUTOTHROTTLE_ENABLED": False,
                    "CONCURRENT_REQUESTS_PER_DOMAIN": concurrency,
                    "LOG_LEVEL": "WARNING",
                    "TELNETCONSOLE_ENABLED": False,
                }
                command = [sys.executable, "-m", "scrapy", "crawl", "site"]
                command += ["-o", f"{tmp}/items{n}.jsonl"]
                for key, value in settings.items():
                    command += ["-s", f"{key}={value}"]
                procs.append(subprocess.Popen(command, cwd=tmp, env=env))
            deadline = time.monotonic() + 120
            while client.hlen("newsspider:site:workers") < workers and time.monotonic() < deadline:
                time.sleep(0.05)
            client.lpush("newsspider:site:start_urls", site.url + "/")
            codes = [p.wait(timeout=600) for p in procs]
            cpu = _children_cpu() - cpu_before
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
        "cpu_ms_per_page": 1000 * cpu / max(1, pages),
        "load": os.getloadavg()[0],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.speed.shared_crawl", description=__doc__)
    parser.add_argument("--articles", type=int, default=300)
    parser.add_argument("--latency", type=float, default=0.05, help="seconds per response")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=8, help="per domain, per worker")
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.workers.split(",")]
    results: dict[int, list[dict[str, Any]]] = {n: [] for n in counts}
    with redis_server() as url:
        for _ in range(args.repeat):  # interleaved rounds
            for n in counts:
                results[n].append(run_round(n, args.articles, args.latency, url, args.concurrency))
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"\n{args.articles} articles, {args.latency * 1000:.0f} ms per response, "
          f"{args.concurrency} requests per worker at a time, {args.repeat} round(s), medians; "
          f"{os.cpu_count()} cores; load average at the end: {load}")  # fmt: skip
    header = (
        "| workers | pages/s | x 1 worker | rates of the rounds | load (1 min) at each round"
        " | worker CPU ms per page | items | items per worker | fetched twice | exit |"
    )
    print(header)
    print("|---:|---:|---:|---|---|---:|---:|---|---:|---|")
    base = statistics.median(r["pages_per_s"] for r in results[counts[0]])
    for n in counts:
        rate = statistics.median(r["pages_per_s"] for r in results[n])
        last = results[n][-1]
        rounds = ", ".join(f"{r['pages_per_s']:.1f}" for r in results[n])
        loads = ", ".join(f"{r['load']:.1f}" for r in results[n])
        cpu = statistics.median(r["cpu_ms_per_page"] for r in results[n])
        print(f"| {n} | {rate:.1f} | {rate / base:.2f} | {rounds} | {loads} | {cpu:.1f} |"
              f" {last['items']} | {last['split']} | {last['fetched_twice']} |"
              f" {last['exit_codes']} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
