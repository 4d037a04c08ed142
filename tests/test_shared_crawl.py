"""A crawl shared through Redis: the add-on's settings, the seed list, and two real crawler
processes against one real ``redis-server`` and one loopback site."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from scrapy.settings import Settings
from support.news_site import serve_news_site
from support.redis_server import redis_server
from support.site_worker import start_site_worker

from newsspider.addon import Addon
from newsspider.distributed.seeds import SeedList


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with redis_server() as url:
        yield url


def test_addon_switches_scheduler_and_dupefilter_only_with_the_url() -> None:
    plain = Settings()
    Addon().update_settings(plain)
    assert "scrapy_redis" not in str(plain.get("SCHEDULER"))
    shared = Settings({"NEWSSPIDER_REDIS_URL": "redis://127.0.0.1:1/0"})
    Addon().update_settings(shared)
    assert shared.get("SCHEDULER") == "scrapy_redis.scheduler.Scheduler"
    assert shared.get("DUPEFILTER_CLASS") == "scrapy_redis.dupefilter.RFPDupeFilter"
    assert shared.getbool("SCHEDULER_PERSIST")
    assert shared.get("SCHEDULER_QUEUE_KEY") == "newsspider:%(spider)s:requests"
    # Popped requests stay pending; Redis away is waited out; items exactly-once in the feeds.
    assert shared.get("SCHEDULER_QUEUE_CLASS").endswith("pending.PendingPriorityQueue")
    assert shared.getdict("REDIS_PARAMS")["retry"].get_retries() > 0
    pending = "newsspider.distributed.pending."
    assert pending + "ExactlyOnceItems" in shared.getdict("ITEM_PIPELINES")
    assert pending + "PendingSpiderMiddleware" in shared.getdict("SPIDER_MIDDLEWARES")
    assert pending + "PendingDownloaderMiddleware" in shared.getdict("DOWNLOADER_MIDDLEWARES")
    assert shared.getdict("FEED_STORAGES")["file"] == pending + "UnbufferedFileFeedStorage"
    assert "pending" not in str(plain.get("SCHEDULER_QUEUE_CLASS"))
    # Neither its pipeline nor its stats collector.
    assert not any("scrapy_redis" in str(k) for k in shared.getdict("ITEM_PIPELINES"))
    assert "scrapy_redis" not in str(shared.get("STATS_CLASS"))
    # The project's own choice wins over the add-on's.
    own = Settings({"NEWSSPIDER_REDIS_URL": "redis://h/0"})
    own.set("SCHEDULER_PERSIST", False, priority="project")
    Addon().update_settings(own)
    assert not own.getbool("SCHEDULER_PERSIST")


def test_seed_list_hands_each_seed_to_one_taker(redis_url: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    key = "test:seeds:start_urls"
    client.delete(key)
    client.rpush(key, *[f"https://example.com/{i}" for i in range(150)])
    client.rpush(key, json.dumps({"url": "https://example.com/json"}), "  ")
    first, second = SeedList(client, key), SeedList(client, key)
    taken: list[str] = []
    while batch := first.pop(7) + second.pop(11):
        taken += batch
    assert len(taken) == len(set(taken)) == 151
    assert "https://example.com/json" in taken


def _worker(tmp: Path, name: str, redis_url: str) -> subprocess.Popen[str]:
    out = tmp / name
    out.mkdir()
    return start_site_worker(out, redis_url)


def _items(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.slow
def test_two_workers_share_one_crawl(redis_url: str, tmp_path: Path) -> None:
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    # Slow enough (a tenth of a second per page) that the crawl outlasts the workers' start-up
    # skew: at 0.01 s one worker took all 240 pages before its peer first polled the queue.
    with serve_news_site(count=240, delay=0.1) as site:
        workers = [_worker(tmp_path, name, redis_url) for name in ("a", "b")]
        # Seeded while the workers start: whichever is first takes it (start() or idle).
        redis.Redis.from_url(redis_url).lpush("newsspider:site:start_urls", site.url + "/")
        errors = []
        for worker in workers:
            try:
                _, stderr = worker.communicate(timeout=150)
            except subprocess.TimeoutExpired:
                worker.kill()
                _, stderr = worker.communicate()
            errors.append(stderr[-3000:])
        hits = dict(site.hits)
    assert [w.returncode for w in workers] == [0, 0], errors
    per_worker = [_items(tmp_path / name / "items.jsonl") for name in ("a", "b")]
    urls = [item["url"] for items in per_worker for item in items]
    expected = {site.url + path for path in site.articles}
    assert sorted(urls) == sorted(expected)  # every article, each exactly once
    assert all(len(items) > 0 for items in per_worker), [len(i) for i in per_worker]
    # No page fetched twice; robots.txt is fetched by each worker for itself.
    twice = {path: n for path, n in hits.items() if n > 1 and path != "/robots.txt"}
    assert not twice
    assert hits.get("/robots.txt", 0) <= 2
    for name in ("a", "b"):
        stats = json.loads((tmp_path / name / "stats.json").read_text())
        assert stats["finish_reason"] == "finished"
    # The shared queue is empty and no worker is registered any more.
    client = redis.Redis.from_url(redis_url)
    assert client.zcard("newsspider:site:requests") == 0
    assert client.hlen("newsspider:site:workers") == 0
