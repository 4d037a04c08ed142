"""The offline demo: serve the sample site on loopback, crawl it with all three spiders, report.

Writes ``feed.jsonl``, ``sitemap.jsonl`` and ``site.jsonl`` (one per spider) and ``items.jsonl``
(all three merged, each article once) into the output directory, and prints a summary that
also scores the records against the site's known truth.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from newsspider.demo.crawl import LOOPBACK_SETTINGS, CrawlResult, CrawlSpec, run_crawls
from newsspider.demo.site import DemoArticle, DemoSite
from newsspider.spiders.filters import merge_key

SPIDERS = ("feed", "sitemap", "site")


@dataclass(slots=True)
class DemoSummary:
    out_dir: Path
    merged_path: Path
    per_spider: dict[str, int] = field(default_factory=dict)
    articles: int = 0
    drops: Counter[str] = field(default_factory=Counter)
    median_confidence: float | None = None
    truth_total: int = 0
    truth_found: int = 0
    titles_right: int = 0
    dates_right: int = 0
    #: Articles split over pages, and how many came out whole (every paragraph in one record).
    split_total: int = 0
    split_whole: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "output": str(self.merged_path),
            "per_spider": self.per_spider,
            "articles": self.articles,
            "drops": dict(sorted(self.drops.items())),
            "median_confidence": self.median_confidence,
            "truth": {
                "articles": self.truth_total,
                "found": self.truth_found,
                "titles_right": self.titles_right,
                "dates_right": self.dates_right,
                "split_articles": self.split_total,
                "split_whole": self.split_whole,
            },
        }


def _drops(result: CrawlResult) -> Counter[str]:
    """Drop reasons of one crawl from its stats: content filter, pipelines, HTTP, robots.txt."""
    counts: Counter[str] = Counter()
    for key, value in result.stats.items():
        if key.startswith("newsspider/dropped/reason_count/"):
            counts[key.rsplit("/", 1)[-1]] += int(value)
        elif key.startswith("httperror/response_ignored_status_count/"):
            counts["http_" + key.rsplit("/", 1)[-1]] += int(value)
        elif key == "robotstxt/forbidden":
            counts["robots_txt"] += int(value)
    return counts


def merge(paths: list[Path], merged: Path) -> list[dict[str, Any]]:
    """Concatenate JSONL files keeping each article once (canonical URL or same body)."""
    seen: set[str] = set()
    records: list[dict[str, Any]] = []
    for path in paths:
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            record = json.loads(line)
            keys = merge_key(record.get("canonical_url"), record.get("url"), record.get("body"))
            if keys & seen:
                continue
            seen |= keys
            records.append(record)
    with merged.open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return records


def score(site: DemoSite, records: list[dict[str, Any]], summary: DemoSummary) -> None:
    """How many of the site's articles the records hold, with the right title and date."""
    by_key: dict[str, DemoArticle] = {}
    for article in site.articles:
        by_key[next(iter(merge_key(article.url, None, None)))] = article
    summary.truth_total = len(site.articles)
    found = set()
    for record in records:
        for key in merge_key(record.get("canonical_url"), record.get("url"), None):
            match = by_key.get(key)
            if match is None or match.url in found:
                continue
            found.add(match.url)
            summary.titles_right += record.get("title") == match.title
            summary.dates_right += (record.get("date") or "")[:10] == match.date[:10]
            if match.url in site.split_articles:
                body = " ".join(str(record.get("body") or "").split())
                summary.split_whole += all(
                    " ".join(p.split()) in body for p in (match.lede, *match.paragraphs)
                )
    summary.truth_found = len(found)
    summary.split_total = len(site.split_articles)


def run_demo(out_dir: Path, *, progress: bool = False, log_level: str = "WARNING") -> DemoSummary:
    import time

    from newsspider.demo.server import serve_site

    out_dir.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with serve_site() as site:
        starts = {
            "feed": ",".join(site.feed_urls),
            "sitemap": site.base_url + "/",  # robots.txt -> sitemap index -> news sitemaps
            "site": site.base_url + "/",
        }
        specs = [
            CrawlSpec(name, {"url": starts[name]}, output=out_dir / f"{name}.jsonl")
            for name in SPIDERS
        ]
        results = run_crawls(
            specs, {**LOOPBACK_SETTINGS, "LOG_LEVEL": log_level}, progress=progress
        )
        summary = DemoSummary(out_dir=out_dir, merged_path=out_dir / "items.jsonl")
        for result in results:
            summary.per_spider[result.label] = len(result.items)
            summary.drops += _drops(result)
        records = merge([spec.output for spec in specs if spec.output], summary.merged_path)
        summary.articles = len(records)
        confidences = [float(r["confidence"]) for r in records if r.get("confidence") is not None]
        summary.median_confidence = statistics.median(confidences) if confidences else None
        score(site, records, summary)
    summary.seconds = time.monotonic() - started
    return summary


def print_summary(summary: DemoSummary, out: TextIO) -> None:
    spiders = ", ".join(f"{name} {count}" for name, count in summary.per_spider.items())
    drops = ", ".join(f"{reason} {n}" for reason, n in sorted(summary.drops.items())) or "none"
    median = "n/a" if summary.median_confidence is None else f"{summary.median_confidence:.2f}"
    out.write(
        f"newsspider demo: {summary.articles} articles in {summary.merged_path}"
        f" ({summary.seconds:.1f} s)\n"
        f"  per spider:        {spiders} (one file each in {summary.out_dir})\n"
        f"  dropped:           {drops}\n"
        f"  median confidence: {median}\n"
        f"  against the site:  {summary.truth_found}/{summary.truth_total} articles found, "
        f"{summary.titles_right} titles and {summary.dates_right} dates right\n"
        f"  split over pages:  {summary.split_whole}/{summary.split_total} stories whole\n"
    )
