"""Event-loop stalls in a crawl with hostile input mixed in: a big sitemap and hostile HTML.

    python -m bench.robustness.hostile_crawl [--urls 100000] [--articles 300]
                                             [--scenarios sitemap,...] [--code DIR]

A loopback site is served from this process; the bundled ``sitemap`` spider crawls it (add-on
on, extraction in the default thread pool) in a fresh subprocess per scenario, with
`support.loop_lag.LoopLagMonitor` measuring how long the event loop went without running:

    small     the baseline: a sitemap of ``--articles`` ordinary articles, nothing hostile
    sitemap   one sitemap of ``--urls`` article URLs; ``max_articles`` stops the crawl after
              ``--articles`` of them (the rest of the sitemap is still read and skipped)
    hostile   a sitemap of ``--articles`` ordinary articles with the hostile pages listed first
    both      the big sitemap with the hostile pages listed first

Hostile pages (each judged by the content filter and extracted like any article): 64 KiB of
unclosed ``<script>``, of ``<a``, of ``<!--``; 1 MiB of ``<p>x``; one element with 20 000
attributes; ``<`` x 32 KiB then a byte that is not UTF-8 (the charset-detection path).

Reported per scenario: the longest stall (wall clock and event-loop CPU, see
``tests/support/loop_lag.py``),
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
from typing import Any

from support.hostile_site import serve, sitemap
from support.loop_lag import TARGET_MS

from bench import ROOT

SCENARIOS = ("small", "sitemap", "hostile", "both")


def run_child(url: str, articles: int, out: str) -> None:
    from scrapy.crawler import CrawlerProcess

    import newsspider

    settings: dict[str, Any] = {
        "SPIDER_MODULES": ["newsspider.spiders"],
        "ADDONS": {"newsspider.Addon": 300},
        "EXTENSIONS": {"support.loop_lag.LoopLagMonitor": 0},
        "ITEM_PIPELINES": {"bench.speed.crawl_speed.DiscardPipeline": 900},
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
    here = str(ROOT)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (code, here, env.get("PYTHONPATH")) if p)
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        command = [
            sys.executable,
            "-m",
            "bench.robustness.hostile_crawl",
            "--child",
            f"{site}/{name}",
        ]
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
